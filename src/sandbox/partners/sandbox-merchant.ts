import { SANDBOX_DEFAULTS } from '../defaults.js';

/** A merchant the sandbox knows, with the keys it authenticates with and what it is allowed. */
export interface SandboxMerchant {
  merchantId: string;
  /** Merchant API key, for `/api/v1/*` from the merchant's server. */
  apiKey: string;
  /** Publishable key, for `/client/v1/*` from a browser. */
  publishableKey: string;
  /** The partner this merchant is under, if any: its partner key may then act for it. */
  partnerId?: string;
  /** Name shown on hosted pages and written into QR payloads. */
  name?: string;
  /** Logo URL shown to shoppers, e.g. as a bolt intent's `merchant.logoUrl`. */
  logoUrl?: string;
  /** PromptPay biller id (15 digits) written into this merchant's QR payloads. */
  promptPayBillerId?: string;
  /** Whether `skip3dsFlow: true` bypasses 3-D Secure for this merchant. */
  canSkip3ds?: boolean;
  /** Whether card payments may omit the security code. */
  canOmitSecurityCode?: boolean;
  /** Whether this merchant may send its own `payerAuthenticationDetails`. */
  canSupplyPayerAuthentication?: boolean;
}

/** The default merchant, partner and webhook settings, as a person reads them in the docs. */
export function defaultSandboxMerchant(): SandboxMerchant {
  return {
    merchantId: SANDBOX_DEFAULTS.merchantId,
    apiKey: SANDBOX_DEFAULTS.apiKey,
    publishableKey: SANDBOX_DEFAULTS.publishableKey,
    partnerId: SANDBOX_DEFAULTS.partnerId,
    name: SANDBOX_DEFAULTS.merchantName,
  };
}
