/**
 * Facts of the payment service that more than one module relies on. Units are in the names.
 */

/**
 * Prefix of the service's own HTTP headers as the live service spells it (`X-Beam-Signature`,
 * `X-Beam-Idempotency-Key`, …). It is the default everywhere (the service client, the checkout
 * handler's webhook receiver, the sandbox), so going live takes a base URL and keys and nothing
 * else; `headerPrefix` (or the sandbox's `--header-prefix`) changes it, e.g. to the interface's
 * neutral `X-Service-`.
 */
export const DEFAULT_SERVICE_HEADER_PREFIX = 'X-Beam-';

/** Header names the service reads or writes, under one prefix. */
export interface ServiceHeaders {
  /** The prefix they were built from, e.g. `X-Beam-`. */
  readonly prefix: string;
  /** Idempotency key on POST and PATCH. */
  readonly idempotencyKey: string;
  /** Request id on a response, when the service sends one; quote it when reporting a problem. */
  readonly requestId: string;
  /** Partner id, required with a partner API key. */
  readonly partnerId: string;
  /** Event name on a webhook delivery. */
  readonly event: string;
  /** base64 HMAC-SHA256 of the raw webhook body. */
  readonly signature: string;
  /** Set by the sandbox on an answer replayed for a repeated idempotency key. */
  readonly idempotentReplayed: string;
}

/** The last part of each header name, after the prefix. */
export const SERVICE_HEADER_SUFFIXES = {
  idempotencyKey: 'Idempotency-Key',
  requestId: 'Request-Id',
  partnerId: 'Partner-ID',
  event: 'Event',
  signature: 'Signature',
  idempotentReplayed: 'Idempotent-Replayed',
} as const satisfies Record<Exclude<keyof ServiceHeaders, 'prefix'>, string>;

/** A prefix is one or more header-name words, each followed by "-": `X-Beam-`, `X-Service-`. */
const HEADER_PREFIX_PATTERN = /^(?:[A-Za-z0-9]+-)+$/;

/**
 * Checks a configured header prefix, throwing a TypeError that says what to set. Header names
 * are matched case-insensitively, so `x-beam-` and `X-Beam-` are the same prefix.
 */
export function checkHeaderPrefix(prefix: unknown, option = 'headerPrefix'): string {
  if (typeof prefix !== 'string' || !HEADER_PREFIX_PATTERN.test(prefix) || prefix.length > 64) {
    throw new TypeError(
      `${option} must be the service's header prefix: letters and digits in words each ending with "-", such as "X-Beam-" (the live service) or "X-Service-"; got ${JSON.stringify(prefix)}`,
    );
  }
  return prefix;
}

/** The service's header names under `prefix` (checked; the live service's by default). */
export function serviceHeaders(prefix: string = DEFAULT_SERVICE_HEADER_PREFIX): ServiceHeaders {
  const checked = checkHeaderPrefix(prefix);
  const names = Object.fromEntries(Object.entries(SERVICE_HEADER_SUFFIXES).map(([member, suffix]) => [member, `${checked}${suffix}`]));
  return { prefix: checked, ...(names as Record<keyof typeof SERVICE_HEADER_SUFFIXES, string>) };
}

/** The service's header names under {@link DEFAULT_SERVICE_HEADER_PREFIX}. */
export const SERVICE_HEADERS: ServiceHeaders = /* @__PURE__ */ serviceHeaders();

/** The only currency the service accepts. */
export const CURRENCY_THB = 'THB';
export const CURRENCIES = [CURRENCY_THB] as const;

/** The smallest charge the service accepts: 1.00 THB. */
export const MIN_CHARGE_AMOUNT_SATANG = 100;

/** The largest amount the sandbox and Satang accept for one charge: 10,000,000.00 THB. */
export const MAX_CHARGE_AMOUNT_SATANG = 1_000_000_000;

/** Installment periods in months, and the smallest amount each accepts. */
export const INSTALLMENT_PERIODS = [3, 4, 6, 10] as const;
export type InstallmentPeriod = (typeof INSTALLMENT_PERIODS)[number];
export const INSTALLMENT_MIN_AMOUNT_SATANG: Readonly<Record<InstallmentPeriod, number>> = {
  3: 300_000,
  4: 300_000,
  6: 400_000,
  10: 500_000,
};

/** How long the service remembers an idempotency key. */
export const IDEMPOTENCY_KEY_TTL_MS = 12 * 60 * 60 * 1000;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Default and largest page size of list endpoints. */
export const LIST_DEFAULT_LIMIT = 20;
export const LIST_MAX_LIMIT = 100;

/** Header of the widget's per-attempt idempotency key; the proxy maps it to the service's. */
export const CHECKOUT_IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Header that carries the status token to `GET /charges/{id}/status` (or `?token=`). */
export const CHECKOUT_STATUS_TOKEN_HEADER = 'X-Satang-Status-Token';
/**
 * Header that carries the order token to `GET /orders/{orderReference}/state`: signed by the
 * merchant's server for one order (`handler.orderToken(orderReference)`), rendered into the page.
 */
export const CHECKOUT_ORDER_TOKEN_HEADER = 'X-Satang-Order-Token';
/** Longest a status request may wait for a change, in seconds. */
export const CHECKOUT_MAX_WAIT_SECONDS = 30;
