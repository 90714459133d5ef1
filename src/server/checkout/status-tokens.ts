import { base64UrlByteLength, base64UrlDecode, utf8Base64Url } from './base64-url.js';
import { STATUS_TOKEN_TTL_MS } from './checkout-options.js';
import { HmacSha256 } from './hashing.js';

const STATUS_TOKEN_CONTEXT = 'satang:status-token:v3';
/** The context of the `v2.` tokens, which signed no merchant. */
const LEGACY_STATUS_TOKEN_CONTEXT = 'satang:status-token:v2';
/**
 * `v3.<expiry, ms since the epoch>.<base64url of the order's referenceId>.<base64url of the page's
 * orderReference>.<base64url HMAC-SHA256>`; the merchant is the handler's.
 */
const TOKEN_FORMAT = /^v3\.(0|[1-9]\d{0,15})\.([A-Za-z0-9_-]{0,1400})\.([A-Za-z0-9_-]{0,1400})\.([A-Za-z0-9_-]{43})$/;
/** The `v2.` tokens, signed before tokens named the merchant and the page's order: only recognised, to tell their holder to reload. */
const LEGACY_TOKEN_FORMAT = /^v2\.(0|[1-9]\d{0,15})\.([A-Za-z0-9_-]{0,1400})\.([A-Za-z0-9_-]{43})$/;
/** Longest `referenceId` or `orderReference` a token carries, in UTF-8 bytes (its base64url stays within the format). */
const MAX_REFERENCE_BYTES = 1024;

/** What a status token lets its holder read: a charge, or a card authorization. */
export type StatusTokenKind = 'charge' | 'authorization';

/**
 * The order a payment was made for, as its status token carries it: the order (`referenceId`,
 * written on the payment) and the page's reference to it (`orderReference`, what `resolveOrder`
 * takes). Signed, so a payment whose records the store lost (a restart of an in-memory store) is
 * still settled against its order when its page asks.
 */
export interface PaymentOrder {
  referenceId: string;
  orderReference: string;
}

/**
 * What {@link StatusTokens.verify} found: the order the token was issued for and when it stops
 * being accepted, or why it is refused. `expired` only for a token this secret really issued for
 * that id and kind, so it is safe to tell the shopper to reload the page.
 */
export type StatusTokenCheck =
  | ({ ok: true; kind: StatusTokenKind; expiresAtMs: number } & PaymentOrder)
  | { ok: false; reason: 'invalid' | 'expired' };

/** Options of {@link StatusTokens}. */
export interface StatusTokensOptions {
  /** How long a token is accepted after it is signed; {@link STATUS_TOKEN_TTL_MS} by default. */
  ttlMs?: number;
  /** The clock, in ms since the epoch; `Date.now` by default. */
  now?: () => number;
}

/** How many verified tokens are remembered; the oldest is forgotten first. */
export const VERIFIED_TOKENS_CACHED = 10_000;

interface Verified extends PaymentOrder {
  id: string;
  kind: StatusTokenKind;
  expiresAtMs: number;
}

/**
 * Signs and checks status tokens, handed to the browser that created a payment so only it can
 * follow or act on that payment. A token is an HMAC over the merchant's id, the payment's id and
 * kind, the order (its `referenceId` and the page's `orderReference`) and an expiry, so it opens
 * that one payment, of that order, at that merchant, until it expires (two shops sharing a secret, under one partner key, never accept
 * each other's). Stateless, so any instance of the proxy that shares the secret accepts it.
 *
 * The expiry is fixed when a token is signed: changing `ttlMs` affects tokens signed afterwards.
 */
export class StatusTokens {
  readonly #key: HmacSha256;
  readonly #merchantId: string;
  readonly #ttlMs: number;
  readonly #now: () => number;
  /**
   * Tokens already verified -> what they sign. A browser long-polls with the same token many
   * times; the HMAC is checked once, then found here by the whole token (a guess that is not a
   * whole valid token is never in the map, so the lookup tells an attacker nothing). The expiry is
   * still checked on every call. Bounded.
   */
  readonly #verified = new Map<string, Verified>();

  /**
   * `secret`: at least 16 characters; by default the proxy derives one from the API key.
   * `merchantId`: the merchant the handler charges for. Throws a RangeError when `ttlMs` is not a
   * positive whole number of milliseconds, or `merchantId` is empty.
   */
  constructor(secret: string, merchantId: string, options: StatusTokensOptions = {}) {
    if (typeof merchantId !== 'string' || merchantId === '') throw new RangeError('merchantId must be a non-empty string');
    this.#merchantId = merchantId;
    this.#ttlMs = tokenTtlMs(options.ttlMs, STATUS_TOKEN_TTL_MS);
    this.#now = options.now ?? (() => Date.now());
    this.#key = new HmacSha256(secret);
  }

  /**
   * The token for payment `id` of `kind` (a charge, or a card authorization), made for `order` (the
   * order whose `referenceId` the server resolved, and the page's `orderReference` for it); it
   * expires `ttlMs` from now. Throws a RangeError for a reference longer than 1024 UTF-8 bytes.
   */
  async sign(id: string, kind: StatusTokenKind, order: PaymentOrder): Promise<string> {
    const expiry = String(this.#now() + this.#ttlMs);
    const encodedReference = encodedField(order.referenceId, 'referenceId');
    const encodedOrder = encodedField(order.orderReference, 'orderReference');
    const mac = await this.#key.sign(signedText(this.#merchantId, id, kind, encodedReference, encodedOrder, expiry));
    return `v3.${expiry}.${encodedReference}.${encodedOrder}.${mac}`;
  }

  /**
   * Whether `token` was issued for payment `id` of `kind` by this merchant's handler, and for which
   * order. A genuine token past its expiry is `expired`, and so is a genuine `v2.` token (signed
   * before tokens named the merchant: its page reloads, and its order's state hands it a new one);
   * anything else that does not verify is `invalid`. The MAC is compared in constant time; never
   * throws.
   */
  async verify(id: string, token: string | null | undefined, kind: StatusTokenKind): Promise<StatusTokenCheck> {
    if (typeof token !== 'string') return INVALID;
    const known = this.#verified.get(token);
    if (known !== undefined) {
      if (known.id !== id || known.kind !== kind) return INVALID;
      if (this.#now() >= known.expiresAtMs) {
        this.#verified.delete(token);
        return EXPIRED;
      }
      return { ok: true, kind, referenceId: known.referenceId, orderReference: known.orderReference, expiresAtMs: known.expiresAtMs };
    }
    const legacy = LEGACY_TOKEN_FORMAT.exec(token);
    if (legacy) return (await this.#isLegacy(id, kind, legacy)) ? EXPIRED : INVALID;
    const parts = TOKEN_FORMAT.exec(token);
    if (!parts) return INVALID;
    const [, expiry = '', encodedReference = '', encodedOrder = '', encodedMac = ''] = parts;
    let referenceId: string;
    let orderReference: string;
    try {
      const genuine = await this.#key.verify(base64UrlDecode(encodedMac), signedText(this.#merchantId, id, kind, encodedReference, encodedOrder, expiry));
      if (!genuine) return INVALID;
      referenceId = decodedField(encodedReference);
      orderReference = decodedField(encodedOrder);
    } catch {
      return INVALID;
    }
    const expiresAtMs = Number(expiry);
    if (this.#now() >= expiresAtMs) return EXPIRED;
    const oldest = this.#verified.keys().next();
    if (this.#verified.size >= VERIFIED_TOKENS_CACHED && !oldest.done) this.#verified.delete(oldest.value);
    this.#verified.set(token, { id, kind, referenceId, orderReference, expiresAtMs });
    return { ok: true, kind, referenceId, orderReference, expiresAtMs };
  }

  /** Whether a `v2.` token is one this secret signed for payment `id` of `kind`. */
  async #isLegacy(id: string, kind: StatusTokenKind, [, expiry = '', encodedReference = '', encodedMac = '']: RegExpExecArray): Promise<boolean> {
    try {
      return await this.#key.verify(base64UrlDecode(encodedMac), legacySignedText(id, kind, encodedReference, expiry));
    } catch {
      return false;
    }
  }
}

/** A reference as a token carries it: base64url of its UTF-8. Throws a RangeError past {@link MAX_REFERENCE_BYTES}. */
function encodedField(text: string, name: string): string {
  const encoded = utf8Base64Url(text);
  if (base64UrlByteLength(encoded) > MAX_REFERENCE_BYTES) throw new RangeError(`${name} is longer than ${MAX_REFERENCE_BYTES} bytes`);
  return encoded;
}

/** A reference a token carries; throws for bytes that are not UTF-8. */
function decodedField(encoded: string): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(base64UrlDecode(encoded));
}

/**
 * A token's lifetime as given, else `fallback`. Throws a RangeError when it is not a positive
 * whole number of milliseconds (shared by status and order tokens).
 */
export function tokenTtlMs(ttlMs: number | undefined, fallback: number): number {
  const value = ttlMs ?? fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`ttlMs must be a positive whole number of milliseconds (got ${value})`);
  return value;
}

const INVALID: StatusTokenCheck = Object.freeze({ ok: false, reason: 'invalid' });
const EXPIRED: StatusTokenCheck = Object.freeze({ ok: false, reason: 'expired' });

/** What the MAC covers: each field as the token carries it, so no two tokens sign the same text. */
function signedText(merchantId: string, id: string, kind: StatusTokenKind, encodedReference: string, encodedOrder: string, expiry: string): string {
  return JSON.stringify([STATUS_TOKEN_CONTEXT, merchantId, kind, id, encodedReference, encodedOrder, expiry]);
}

/** What a `v2.` token's MAC covered. */
function legacySignedText(id: string, kind: StatusTokenKind, encodedReference: string, expiry: string): string {
  return JSON.stringify([LEGACY_STATUS_TOKEN_CONTEXT, kind, id, encodedReference, expiry]);
}
