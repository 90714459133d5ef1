import { base64Url } from './base64-url.js';

const encoder = new TextEncoder();
const STATUS_TOKEN_CONTEXT = 'satang:status-token:v1:';
/** What a status token lets its holder read: a charge, or a card authorization. */
export type StatusTokenKind = 'charge' | 'authorization';

/** The signed text: charges keep the first format, so tokens issued before kinds existed stay valid. */
const context = (id: string, kind: StatusTokenKind) => (kind === 'charge' ? STATUS_TOKEN_CONTEXT + id : `${STATUS_TOKEN_CONTEXT}${kind}:${id}`);

/** How many verified tokens are remembered; the oldest is forgotten first. */
export const VERIFIED_TOKENS_CACHED = 10_000;

/**
 * Signs and checks status tokens: an HMAC over the charge id, handed to the browser that created
 * the charge, so only it can read the charge's status. Stateless, so any instance of the proxy
 * that shares the secret accepts it.
 */
export class StatusTokens {
  readonly #key: Promise<CryptoKey>;
  /**
   * Tokens already verified -> what they sign (kind and id). A browser long-polls with the same token many
   * times; the HMAC is checked once, then found here by the whole token (a guess that is not a
   * whole valid token is never in the map, so the lookup tells an attacker nothing). Bounded.
   */
  readonly #verified = new Map<string, string>();

  /** `secret`: at least 16 characters; by default the proxy derives one from the API key. */
  constructor(secret: string) {
    this.#key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  }

  /** The token for a charge, or for a card authorization (`kind` 'authorization'). */
  async sign(chargeId: string, kind: StatusTokenKind = 'charge'): Promise<string> {
    const mac = await crypto.subtle.sign('HMAC', await this.#key, encoder.encode(context(chargeId, kind)));
    return base64Url(new Uint8Array(mac));
  }

  /** Whether `token` was issued for `chargeId` (of that kind); constant time, never throws. */
  async verify(chargeId: string, token: string | null | undefined, kind: StatusTokenKind = 'charge'): Promise<boolean> {
    if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return false;
    const known = this.#verified.get(token);
    if (known !== undefined) return known === context(chargeId, kind);
    const padded = token.replace(/-/g, '+').replace(/_/g, '/') + '=';
    let mac: Uint8Array<ArrayBuffer>;
    try {
      mac = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
    } catch {
      return false;
    }
    const signed = context(chargeId, kind);
    const valid = await crypto.subtle.verify('HMAC', await this.#key, mac, encoder.encode(signed));
    if (valid) {
      const oldest = this.#verified.keys().next();
      if (this.#verified.size >= VERIFIED_TOKENS_CACHED && !oldest.done) this.#verified.delete(oldest.value);
      this.#verified.set(token, signed);
    }
    return valid;
  }
}
