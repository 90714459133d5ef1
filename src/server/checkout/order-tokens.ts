import { base64UrlDecode } from './base64-url.js';
import { ORDER_TOKEN_TTL_MS } from './checkout-options.js';
import { HmacSha256 } from './hashing.js';
import { tokenTtlMs } from './status-tokens.js';

/** Sets an order token's MAC apart from a status token's made with the same secret. */
const ORDER_TOKEN_CONTEXT = 'satang:order-token:v2';
/**
 * `o2.<expiry, ms since the epoch>.<base64url HMAC-SHA256>`; the merchant is the handler's and the
 * order the one the token is presented for. `o1.` tokens (before the merchant was signed) are only
 * recognised, to tell their holder to reload.
 */
const TOKEN_FORMAT = /^o([12])\.(0|[1-9]\d{0,15})\.([A-Za-z0-9_-]{43})$/;
/** The context of the `o1.` tokens, which signed no merchant. */
const LEGACY_ORDER_TOKEN_CONTEXT = 'satang:order-token:v1';
/** Longest `orderReference` a token is signed for: the longest `POST /charges` takes. */
export const ORDER_REFERENCE_MAX_LENGTH = 255;

/**
 * What {@link OrderTokens.verify} found: when the token stops being accepted, or why it is refused.
 * `expired` only for a token this secret really issued for that order, so it is safe to tell the
 * shopper to reload the page.
 */
export type OrderTokenCheck = { ok: true; expiresAtMs: number } | { ok: false; reason: 'invalid' | 'expired' };

/** Options of {@link OrderTokens}. */
export interface OrderTokensOptions {
  /** How long a token is accepted after it is signed; {@link ORDER_TOKEN_TTL_MS} by default. */
  ttlMs?: number;
  /** The clock, in ms since the epoch; `Date.now` by default. */
  now?: () => number;
}

/**
 * Signs and checks order tokens: the merchant's server renders one into the checkout page
 * (`handler.orderToken(orderReference)`), so that page, and only a holder of the token, may pay
 * the order (`POST /charges`) and read where it stands (`GET /orders/{orderReference}/state`). A
 * token is an HMAC over the merchant's id, the page's `orderReference` and an expiry, with the
 * status tokens' secret and a context of its own (neither kind of token is ever the other). The
 * merchant and the reference are not carried: the token verifies only for the order it is
 * presented for, at the merchant whose handler signed it, so a token of one order reads nothing of
 * another, and a token of one shop opens nothing at another shop sharing the secret (two merchants
 * under one partner key). Stateless, so any instance sharing the secret accepts it.
 *
 * The expiry is fixed when a token is signed: changing `ttlMs` affects tokens signed afterwards.
 */
export class OrderTokens {
  readonly #key: HmacSha256;
  readonly #merchantId: string;
  readonly #ttlMs: number;
  readonly #now: () => number;

  /**
   * `secret`: the status tokens'; `merchantId`: the merchant the handler charges for. Throws a
   * RangeError when `ttlMs` is not a positive whole number of milliseconds, or `merchantId` is empty.
   */
  constructor(secret: string, merchantId: string, options: OrderTokensOptions = {}) {
    if (typeof merchantId !== 'string' || merchantId === '') throw new RangeError('merchantId must be a non-empty string');
    this.#merchantId = merchantId;
    this.#ttlMs = tokenTtlMs(options.ttlMs, ORDER_TOKEN_TTL_MS);
    this.#now = options.now ?? (() => Date.now());
    this.#key = new HmacSha256(secret);
  }

  /**
   * The token of the order a page names (its `orderReference`, as the widget's `order-reference`
   * attribute carries it); it expires `ttlMs` from now. Throws a RangeError for an empty reference
   * or one longer than {@link ORDER_REFERENCE_MAX_LENGTH} characters, which no charge could name.
   */
  async sign(orderReference: string): Promise<string> {
    if (typeof orderReference !== 'string' || orderReference === '' || orderReference.length > ORDER_REFERENCE_MAX_LENGTH) {
      throw new RangeError(`orderReference must be 1 to ${ORDER_REFERENCE_MAX_LENGTH} characters`);
    }
    const expiry = String(this.#now() + this.#ttlMs);
    const mac = await this.#key.sign(signedText(this.#merchantId, orderReference, expiry));
    return `o2.${expiry}.${mac}`;
  }

  /**
   * Whether `token` was issued for the order `orderReference` by this merchant's handler. A genuine
   * token past its expiry is `expired`, and so is a genuine `o1.` token (signed before tokens named
   * the merchant: its page reloads and gets a new one); anything else that does not verify (forged,
   * altered, another order's, another merchant's, another secret's) is `invalid`. The MAC is
   * compared in constant time; never throws.
   */
  async verify(orderReference: string, token: string | null | undefined): Promise<OrderTokenCheck> {
    if (typeof token !== 'string' || typeof orderReference !== 'string' || orderReference.length > ORDER_REFERENCE_MAX_LENGTH) return INVALID;
    const parts = TOKEN_FORMAT.exec(token);
    if (!parts) return INVALID;
    const [, version, expiry = '', encodedMac = ''] = parts;
    const text = version === '1' ? legacySignedText(orderReference, expiry) : signedText(this.#merchantId, orderReference, expiry);
    try {
      if (!(await this.#key.verify(base64UrlDecode(encodedMac), text))) return INVALID;
    } catch {
      return INVALID;
    }
    if (version === '1') return EXPIRED;
    const expiresAtMs = Number(expiry);
    if (this.#now() >= expiresAtMs) return EXPIRED;
    return { ok: true, expiresAtMs };
  }
}

const INVALID: OrderTokenCheck = Object.freeze({ ok: false, reason: 'invalid' });
const EXPIRED: OrderTokenCheck = Object.freeze({ ok: false, reason: 'expired' });

/** What the MAC covers: each field JSON-quoted (lone surrogates escaped), so no two tokens sign the same text. */
function signedText(merchantId: string, orderReference: string, expiry: string): string {
  return JSON.stringify([ORDER_TOKEN_CONTEXT, merchantId, orderReference, expiry]);
}

/** What an `o1.` token's MAC covered. */
function legacySignedText(orderReference: string, expiry: string): string {
  return JSON.stringify([LEGACY_ORDER_TOKEN_CONTEXT, orderReference, expiry]);
}
