/**
 * Facts of the payment service that more than one module relies on. Units are in the names.
 * The live service brands its headers with its own prefix; everything here derives from
 * {@link SERVICE_HEADER_PREFIX} so a deployment against it changes one constant.
 */

/** Prefix of the service's own HTTP headers. */
export const SERVICE_HEADER_PREFIX = 'X-Service-';

/** Header names the service reads or writes, all derived from {@link SERVICE_HEADER_PREFIX}. */
export const SERVICE_HEADERS = {
  /** Idempotency key on POST and PATCH. */
  idempotencyKey: `${SERVICE_HEADER_PREFIX}Idempotency-Key`,
  /** Request id on every response; quote it when reporting a problem. */
  requestId: `${SERVICE_HEADER_PREFIX}Request-Id`,
  /** Partner id, required with a partner API key. */
  partnerId: `${SERVICE_HEADER_PREFIX}Partner-ID`,
  /** Event name on a webhook delivery. */
  event: `${SERVICE_HEADER_PREFIX}Event`,
  /** base64 HMAC-SHA256 of the raw webhook body. */
  signature: `${SERVICE_HEADER_PREFIX}Signature`,
} as const;

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
/** Longest a status request may wait for a change, in seconds. */
export const CHECKOUT_MAX_WAIT_SECONDS = 30;
