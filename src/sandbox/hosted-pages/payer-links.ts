import { base64Decode, base64Encode } from '../../core/base64.js';
import { SANDBOX_PAGES_PATH } from '../http/page-layout.js';

/** Where the PromptPay payer pages live: the simulator at this path, one charge's page under it. */
export const PROMPTPAY_PAYER_PATH = `${SANDBOX_PAGES_PATH}/promptpay`;

/** Bytes of the sandbox's secret that signs payer links. */
const PAYER_LINK_KEY_BYTES = 32;

/**
 * The payer links of QR charges: `/sandbox/pages/promptpay/{chargeId}/{secret}`, where the secret
 * is an HMAC-SHA256 of the charge id under a key this sandbox drew at random when it started. A
 * link pays or declines its own charge and nothing else; it cannot be guessed from the charge id,
 * and a secret made for one charge opens no other. Only the charge's merchant is handed the link
 * (with its API key), so the page needs no session. Links end with the sandbox: a new one draws
 * a new key, as its charges are new too.
 */
export class PayerLinks {
  readonly #key: Promise<CryptoKey>;

  constructor(key: Uint8Array<ArrayBuffer> = crypto.getRandomValues(new Uint8Array(PAYER_LINK_KEY_BYTES))) {
    this.#key = crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  }

  /** The path of the payer page of `chargeId`, secret included. */
  async pathOf(chargeId: string): Promise<string> {
    const signature = await crypto.subtle.sign('HMAC', await this.#key, new TextEncoder().encode(chargeId));
    return `${PROMPTPAY_PAYER_PATH}/${encodeURIComponent(chargeId)}/${base64Encode(new Uint8Array(signature)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
  }

  /** Whether `secret` is the one of `chargeId`'s link; compared in constant time by Web Crypto. */
  async verify(chargeId: string, secret: string): Promise<boolean> {
    const signature = decodeSecret(secret);
    if (signature === undefined) return false;
    return crypto.subtle.verify('HMAC', await this.#key, signature, new TextEncoder().encode(chargeId));
  }
}

/**
 * The 32 bytes of a link's secret (43 base64url characters, unpadded), or undefined when it is
 * none; only the canonical spelling decodes, so one secret has one link.
 */
function decodeSecret(secret: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]{43}$/.test(secret)) return undefined;
  try {
    return base64Decode(`${secret.replace(/-/g, '+').replace(/_/g, '/')}=`);
  } catch {
    return undefined;
  }
}
