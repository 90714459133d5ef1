import * as z from 'zod/mini';
import { CustomerRequestSchema, rawUrlString, requiredString } from './common.js';
import { ActionRequiredSchema, ChargeStatusSchema, EncodedImageSchema, RedirectSchema } from './charge.js';
import { DeviceTypeSchema, InstallmentPeriodSchema } from './payment-method.js';
import { QR_SLIP_RAW_MAX_LENGTH, QR_SLIP_VERIFICATION_RESULTS } from './qr-slip.js';

/**
 * The contract between the checkout widget and the merchant's proxy (`satang/server`). The
 * browser never sends an amount the server trusts, and never a card number: cards arrive as a
 * token from `/client/v1/card-tokens`.
 */

// The protocol's header names live in constants.ts, which the browser imports without zod.
export { CHECKOUT_IDEMPOTENCY_HEADER, CHECKOUT_MAX_WAIT_SECONDS, CHECKOUT_ORDER_TOKEN_HEADER, CHECKOUT_STATUS_TOKEN_HEADER } from '../constants.js';

/** Methods a shopper can pay with through the proxy. */
export const CHECKOUT_PAYMENT_METHOD_TYPES = [
  'CARD_TOKEN',
  'CARD_TOKEN_INSTALLMENTS',
  'QR_PROMPT_PAY',
  'ALIPAY',
  'LINE_PAY',
  'SHOPEE_PAY',
  'TRUE_MONEY',
  'WECHAT_PAY',
  'BANGKOK_BANK_APP',
  'KPLUS',
  'KRUNGSRI_APP',
  'SCB_EASY',
  'MAKE',
  'SPAY_LATER',
] as const;
export type CheckoutPaymentMethodType = (typeof CHECKOUT_PAYMENT_METHOD_TYPES)[number];

/** The payment method as the widget sends it: the type and, for cards, the token and CVC. Nothing else. */
export const CheckoutPaymentMethodSchema = z.strictObject({
  type: z.enum(CHECKOUT_PAYMENT_METHOD_TYPES, { error: `is not a payment method this checkout accepts (one of ${CHECKOUT_PAYMENT_METHOD_TYPES.join(', ')})` }),
  cardTokenId: z.optional(requiredString(255)),
  securityCode: z.optional(z.string().check(z.regex(/^\d{3,4}$/, 'must be 3 or 4 digits'))),
  installmentPeriod: z.optional(InstallmentPeriodSchema),
});
export type CheckoutPaymentMethod = z.infer<typeof CheckoutPaymentMethodSchema>;

/**
 * What a checkout does with the money: `charge` takes it now; `authorize` only reserves it on the
 * card (a card authorization), for the merchant's server to capture or cancel later. The server's
 * `resolveOrder` decides which an order takes; the widget's value must match it.
 */
export const CHECKOUT_INTENTS = ['charge', 'authorize'] as const;
export type CheckoutIntent = (typeof CHECKOUT_INTENTS)[number];

/**
 * The body of `POST {endpoint}/charges`. The server decides what is charged; `amount` and
 * `currency` are what the shopper was shown and approved. When they differ from the server's
 * price (or are missing), nothing is charged: the answer is `409 AMOUNT_CHANGED` carrying the
 * server's amount, for the widget to show and the shopper to confirm.
 */
export const CheckoutChargeRequestSchema = z.object({
  orderReference: requiredString(255),
  paymentMethod: CheckoutPaymentMethodSchema,
  /** The amount the shopper saw and approved, in satang. */
  amount: z.optional(z.int().check(z.minimum(0, 'must be a whole number of satang'), z.maximum(Number.MAX_SAFE_INTEGER, 'is too large'))),
  /** The currency of `amount`. */
  currency: z.optional(z.string().check(z.regex(/^[A-Z]{3}$/, 'must be a three-letter currency code'))),
  /**
   * The shopper chose to pay here instead of the payment of this order still open elsewhere (a
   * QR or a redirect in another tab or device, answered `409 PAYMENT_IN_PROGRESS` with
   * `replaceable: true`). That payment is abandoned: if it is paid anyway, it is refunded.
   */
  replace: z.optional(z.boolean()),
  deviceType: z.optional(DeviceTypeSchema),
  /**
   * Where a redirect payment (3-D Secure, a wallet, a banking app) sends the shopper back: any
   * absolute URL here; the handler takes only the shop's own (`publicUrl`, `allowedOrigins`,
   * `returnUrls`) and answers `400 INVALID_RETURN_URL` for the rest.
   */
  returnUrl: z.optional(z.pipe(rawUrlString({ error: 'must be an absolute URL' }), z.url({ error: 'must be an absolute URL' }))),
  customer: z.optional(CustomerRequestSchema),
  intent: z.optional(z.enum(CHECKOUT_INTENTS, { error: 'must be charge or authorize' })),
});
export type CheckoutChargeRequest = z.infer<typeof CheckoutChargeRequestSchema>;

/**
 * The answer of `POST {endpoint}/charges`: what the shopper does next, and the token to follow it.
 * With the `authorize` intent, `chargeId` is the card authorization's id (`cardAuthorizationId`).
 */
export const CheckoutChargeResponseSchema = z.looseObject({
  chargeId: z.string(),
  intent: z.optional(z.enum(CHECKOUT_INTENTS)),
  actionRequired: ActionRequiredSchema,
  redirect: z.optional(z.nullable(RedirectSchema)),
  encodedImage: z.optional(z.nullable(EncodedImageSchema)),
  /** Proves the holder started this charge; needed to read its status. */
  statusToken: z.string(),
});
export type CheckoutChargeResponse = z.infer<typeof CheckoutChargeResponseSchema>;

/**
 * The answer of `GET {endpoint}/charges/{id}/status`. For a card authorization, `status` reads
 * SUCCEEDED once it is AUTHORIZED (or already captured) and FAILED when it failed, was canceled or
 * expired; `authorizationStatus` gives its own status.
 */
export const CheckoutStatusResponseSchema = z.looseObject({
  chargeId: z.string(),
  status: ChargeStatusSchema,
  failureCode: z.nullable(z.string()),
  authorizationStatus: z.optional(z.string()),
  /**
   * What a SUCCEEDED payment did for its order (see {@link CHECKOUT_ORDER_OUTCOMES}): always there
   * on SUCCEEDED (a success not settled yet is answered PENDING); absent otherwise.
   */
  outcome: z.optional(z.string()),
  /**
   * `paid` while this payment is PENDING but its order was paid by another payment meanwhile (a
   * card in another tab, say): the shopper has nothing left to pay here. Should this payment go
   * through all the same, it is refunded.
   */
  order: z.optional(z.literal('paid')),
});
export type CheckoutStatusResponse = z.infer<typeof CheckoutStatusResponseSchema>;

/**
 * Where an order stands, as the merchant's server knows it (`GET {endpoint}/orders/{orderReference}/state`,
 * for the holder of the order's token):
 * - `open`: nothing is being paid; the shopper may pay;
 * - `paying`: a payment of the order may be going through: `payment` says which, with what the
 *   shopper does next (its QR code, its redirect) and a status token to follow it; without
 *   `payment`, it is being created right now (ask again in a moment);
 * - `paid`: the order is paid (or, with the authorize intent, authorized) by `paidBy`;
 * - `refunded`: it was paid, and that payment was refunded since: nothing is left to pay or to do.
 */
export const CHECKOUT_ORDER_STATES = ['open', 'paying', 'paid', 'refunded'] as const;
export type CheckoutOrderState = (typeof CHECKOUT_ORDER_STATES)[number];

/**
 * The payment of an order that may be going through, as the order's state hands it to the holder
 * of the order token: the charge's answer as its page got it (with a status token signed afresh),
 * and the method it is paid with (`CARD_TOKEN`, `QR_PROMPT_PAY`, `TRUE_MONEY`…).
 */
export const CheckoutOrderPaymentSchema = z.extend(CheckoutChargeResponseSchema, { paymentMethodType: z.string() });
export type CheckoutOrderPayment = z.infer<typeof CheckoutOrderPaymentSchema>;

/** The answer of `GET {endpoint}/orders/{orderReference}/state`. */
export const CheckoutOrderStateResponseSchema = z.looseObject({
  orderReference: z.string(),
  state: z.enum(CHECKOUT_ORDER_STATES),
  /** With `paying`: the payment under way, when it has been created. */
  payment: z.optional(CheckoutOrderPaymentSchema),
  /** With `paid` and `refunded`: the payment that paid the order. */
  paidBy: z.optional(z.string()),
  /** With `paid`: `paid`, or `authorized` for the authorize intent. */
  outcome: z.optional(z.string()),
});
export type CheckoutOrderStateResponse = z.infer<typeof CheckoutOrderStateResponseSchema>;

/**
 * The body of `POST {endpoint}/charges/{id}/slip`: the text of the QR code printed on the
 * shopper's bank transfer slip, read in the browser. The picture itself never leaves the browser.
 */
export const CheckoutSlipRequestSchema = z.object({
  raw: z.string().check(z.minLength(1, 'is required'), z.maxLength(QR_SLIP_RAW_MAX_LENGTH, `must be at most ${QR_SLIP_RAW_MAX_LENGTH} characters`)),
});
export type CheckoutSlipRequest = z.infer<typeof CheckoutSlipRequestSchema>;

/**
 * The answer of `POST {endpoint}/charges/{id}/slip` when the slip paid this charge: it is
 * SUCCEEDED, by this slip (`UPDATED_TO_SUCCEEDED`) or already before (`ALREADY_SUCCEEDED`), with
 * what it did for its order (`outcome`), as the status would say.
 */
export const CheckoutSlipResponseSchema = z.looseObject({
  chargeId: z.string(),
  status: z.literal('SUCCEEDED'),
  verificationResult: z.enum(QR_SLIP_VERIFICATION_RESULTS),
  /** What the payment did for its order, as a status answer says it (see {@link CHECKOUT_ORDER_OUTCOMES}). */
  outcome: z.optional(z.string()),
});
export type CheckoutSlipResponse = z.infer<typeof CheckoutSlipResponseSchema>;

/**
 * What a SUCCEEDED payment did for its order, as the status answer's `outcome` says:
 * - `paid`: it paid the order in full: the order is paid;
 * - `authorized`: it reserved the order's full amount on the card (the authorize intent);
 * - `duplicate_refunded`: the order was already paid by another payment; this one is refunded in full;
 * - `repriced_refunded`: the order's price changed after this payment started; it is refunded in
 *   full and the order is not paid;
 * - `amount_mismatch`: the amount or currency captured is not the order's; the order is not paid;
 * - `partially_captured`: a capture of the order's authorization took less than its whole amount
 *   (the merchant's server captures; a shopper's page never follows a capture);
 * - `refund_failed`: this payment had to be refunded (one of the two above) but the service
 *   refused the refund; the shop has been told to settle it by hand. The order is not paid by it.
 */
export const CHECKOUT_ORDER_OUTCOMES = ['paid', 'authorized', 'duplicate_refunded', 'repriced_refunded', 'amount_mismatch', 'partially_captured', 'refund_failed'] as const;
export type CheckoutOrderOutcome = (typeof CHECKOUT_ORDER_OUTCOMES)[number];

/**
 * Extra members of the `409` refusals of `POST /charges`, beside `code`, `message` and `error`:
 * - `AMOUNT_CHANGED`: `amount` and `currency`, the server's price, to show and confirm;
 * - `PAYMENT_IN_PROGRESS`: `paymentMethodType` of the open payment, and `replaceable` (true when
 *   the shopper may pay here instead by sending `replace: true`; false while the other payment is
 *   still being created: try again in a moment);
 * - `ORDER_ALREADY_PAID`: nothing more: the order is paid.
 * And of the `409 SLIP_MISMATCH` of `POST /charges/{chargeId}/slip`: `slipPayment: 'another'` and
 * `slipPaymentStatus: 'SUCCEEDED'`: the slip is for another payment, which is paid (which one is
 * never said); this one is not.
 */
export interface CheckoutConflictDetails {
  amount?: number;
  currency?: string;
  paymentMethodType?: string;
  replaceable?: boolean;
  slipPayment?: 'another';
  slipPaymentStatus?: 'SUCCEEDED';
}

/** Stable error codes of the proxy; `message` beside them is safe to show a shopper. */
export const CHECKOUT_ERROR_CODES = [
  'INVALID_REQUEST',
  'CARD_DATA_REFUSED',
  'PAYMENT_METHOD_NOT_ALLOWED',
  'PAYMENT_DETAILS_REJECTED',
  'INVALID_RETURN_URL',
  'INTENT_MISMATCH',
  'ORDER_NOT_FOUND',
  'INVALID_STATUS_TOKEN',
  'INVALID_ORDER_TOKEN',
  'ORDER_TOKEN_EXPIRED',
  'STATUS_TOKEN_EXPIRED',
  'AMOUNT_CHANGED',
  'PAYMENT_IN_PROGRESS',
  'ORDER_ALREADY_PAID',
  'SLIP_NOT_FOUND',
  'SLIP_MISMATCH',
  'INVALID_SIGNATURE',
  'ORIGIN_NOT_ALLOWED',
  'UNSUPPORTED_MEDIA_TYPE',
  'BODY_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'IDEMPOTENCY_CONFLICT',
  'RATE_LIMITED',
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_REJECTED',
  'INTERNAL_ERROR',
] as const;
export type CheckoutErrorCode = (typeof CHECKOUT_ERROR_CODES)[number];
