import type { ChargeFailureCode } from '../core/schemas/charge.js';
import type { PaymentMethodFamily } from '../core/schemas/payment-method.js';

/**
 * Credentials and settings the sandbox uses when none are given. They are public on purpose: the
 * sandbox moves no money, and the same values work on every developer machine and in CI.
 */
export const SANDBOX_DEFAULTS = {
  /** Where `satang-sandbox` listens. */
  port: 4010,
  host: '127.0.0.1',
  merchantId: 'mch_sandbox',
  /** The merchant API key: only for the merchant's server (`/api/v1/*`). */
  apiKey: 'sk_sandbox_0000000000000000000000',
  /** The publishable key: safe in a browser, only for `/client/v1/*`. */
  publishableKey: 'pk_sandbox_0000000000000000000000',
  partnerId: 'ptn_sandbox',
  /** A partner key acting for `merchantId` when sent with the partner id header. */
  partnerApiKey: 'sk_partner_sandbox_000000000000000',
  /** base64 HMAC key for webhook signatures (32 bytes). */
  webhookKeyBase64: 'c2F0YW5nLXNhbmRib3gtd2ViaG9vay1rZXktMDAwMDA=',
  /** PromptPay biller id written into QR payloads: a 13-digit tax id and a 2-digit suffix. */
  promptPayBillerId: '010555901234501',
  merchantName: 'SATANG SANDBOX',
} as const;

/**
 * Largest request body the sandbox reads (JSON and page forms alike); a larger one is refused with
 * 413 as soon as it passes the cap, before anything is parsed or kept. Every request the service
 * takes fits in far less; a body near the cap is a client gone wrong.
 */
export const SANDBOX_MAX_BODY_BYTES = 128 * 1024;
/** Largest body of a slip verification, whose picture (a multipart file or base64 JSON) may be a photo. */
export const SANDBOX_MAX_UPLOAD_BYTES = 1024 * 1024;

/** How long a QR PromptPay code stays payable when the request sets no expiry. */
export const SANDBOX_DEFAULT_QR_EXPIRY_MS = 10 * 60 * 1000;
/** Bounds of a custom QR expiry, measured from the charge's creation. */
export const SANDBOX_MIN_QR_EXPIRY_MS = 60 * 1000;
export const SANDBOX_MAX_QR_EXPIRY_MS = 24 * 60 * 60 * 1000;

/** How long a card token can be used, and it can be used once. */
export const SANDBOX_CARD_TOKEN_TTL_MS = 30 * 60 * 1000;

/** Delay between a refund's creation (PENDING) and its outcome. */
export const SANDBOX_REFUND_SETTLE_DELAY_MS = 200;

/** The OTP that completes a 3-D Secure challenge in the sandbox. */
export const SANDBOX_OTP_CODE = '123456';

/** Processing fee per payment family, in basis points of the amount (fee strategy RATE). */
export const SANDBOX_FEE_RATE_BPS: Readonly<Record<PaymentMethodFamily, number>> = {
  card: 295,
  qr: 160,
  'e-wallet': 250,
  'mobile-banking': 150,
  'pay-later': 300,
};
/** VAT charged on the fee, in basis points (7%). */
export const SANDBOX_VAT_RATE_BPS = 700;

/** What a test card does when charged. */
export type TestCardBehaviour =
  | { outcome: 'succeed'; refunds?: 'refused' | 'fail' }
  | { outcome: 'fail'; failureCode: ChargeFailureCode }
  | { outcome: 'otp' }
  | { outcome: 'force' };

export interface TestCard {
  number: string;
  brand: string;
  /** Issuing country written on the charge. */
  countryAlpha2: string;
  behaviour: TestCardBehaviour;
  description: string;
}

/**
 * The playground test cards. Any future expiry works; the CVC is 123 (1234 on Amex). They behave
 * the same through CARD, CARD_TOKEN, CARD_INSTALLMENTS and CARD_TOKEN_INSTALLMENTS. Any other
 * number that passes Luhn ends FAILED with CH_PROCESSING_FAILED.
 */
export const SANDBOX_TEST_CARDS: readonly TestCard[] = [
  { number: '4111111111111111', brand: 'VISA', countryAlpha2: 'US', behaviour: { outcome: 'succeed' }, description: 'Visa: succeeds at once' },
  { number: '5372074248113841', brand: 'MASTERCARD', countryAlpha2: 'TH', behaviour: { outcome: 'succeed' }, description: 'Mastercard: succeeds at once' },
  { number: '378282246310005', brand: 'AMEX', countryAlpha2: 'US', behaviour: { outcome: 'succeed' }, description: 'Amex: succeeds at once (CVC 1234)' },
  { number: '4953261730509988', brand: 'VISA', countryAlpha2: 'TH', behaviour: { outcome: 'otp' }, description: '3-D Secure: redirects to an OTP page; 123456 succeeds, anything else fails' },
  { number: '4389783280144506', brand: 'VISA', countryAlpha2: 'TH', behaviour: { outcome: 'force' }, description: 'Redirects to a page where the payer forces success or failure' },
  { number: '4943129900084541', brand: 'VISA', countryAlpha2: 'TH', behaviour: { outcome: 'fail', failureCode: 'CH_INSUFFICIENT_FUNDS' }, description: 'Fails: insufficient funds' },
  { number: '4000007640000003', brand: 'VISA', countryAlpha2: 'TH', behaviour: { outcome: 'succeed', refunds: 'refused' }, description: 'Succeeds; refunds are refused' },
  { number: '4000000000005126', brand: 'VISA', countryAlpha2: 'TH', behaviour: { outcome: 'succeed', refunds: 'fail' }, description: 'Succeeds; refunds end FAILED' },
  { number: '4417704002802961', brand: 'VISA', countryAlpha2: 'TH', behaviour: { outcome: 'succeed' }, description: 'Installments (KBANK): succeeds at once' },
  { number: '4391370000000006', brand: 'VISA', countryAlpha2: 'TH', behaviour: { outcome: 'otp' }, description: 'Installments (KTC): redirects to the OTP page' },
];

/** Failure code of a refund that the test card makes fail. */
export const SANDBOX_REFUND_FAILURE_CODE = 'RE_PROCESSING_FAILED';
