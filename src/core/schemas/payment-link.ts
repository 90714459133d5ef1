import * as z from 'zod/mini';
import {
  ChargeAmountRequestSchema,
  CurrencyRequestSchema,
  HttpUrlRequestSchema,
  TimestampRequestSchema,
  TimestampSchema,
  boundedString,
  requiredString,
} from './common.js';

export const PAYMENT_LINK_STATUSES = ['ACTIVE', 'PAID', 'EXPIRED', 'DISABLED', 'VOIDED', 'REFUNDED'] as const;
/**
 * Where a payment link stands. A link is single-use: ACTIVE until it is paid (PAID), passes its
 * `expiresAt` (EXPIRED) or is disabled through `PATCH /api/v1/payment-links/{id}/disable` (DISABLED).
 * A PAID link whose payment was refunded in full reads REFUNDED.
 * VOIDED: the live service answers it, and its contract gives no cause: accepted when read, never produced by the sandbox.
 */
export const PaymentLinkStatusSchema = z.enum(PAYMENT_LINK_STATUSES);
export type PaymentLinkStatus = z.infer<typeof PaymentLinkStatusSchema>;

/**
 * Who bears the processing fee of a link's payment. TRANSACTION_FEE is the only value the service
 * has shown; a response is read as a plain string so a new value does not break reading a link.
 */
export const PAYMENT_LINK_FEE_TYPES = ['TRANSACTION_FEE'] as const;
export const PaymentLinkFeeTypeRequestSchema = z.enum(PAYMENT_LINK_FEE_TYPES, { error: 'must be TRANSACTION_FEE' });
export type PaymentLinkFeeType = (typeof PAYMENT_LINK_FEE_TYPES)[number];

// ---------------------------------------------------------------------------------------------
// Response shapes: lenient, unknown fields kept.

/** One switch of a link's settings, as the service returns it. */
export const LinkSettingToggleSchema = z.looseObject({
  isEnabled: z.boolean(),
});
export type LinkSettingToggle = z.infer<typeof LinkSettingToggleSchema>;

const ToggleMemberSchema = z.optional(z.nullable(LinkSettingToggleSchema));

/** Card installments on a link: the method switch and one switch per period. */
export const CardInstallmentsSettingsSchema = z.looseObject({
  isEnabled: z.boolean(),
  installments3m: ToggleMemberSchema,
  installments4m: ToggleMemberSchema,
  installments6m: ToggleMemberSchema,
  installments10m: ToggleMemberSchema,
});
export type CardInstallmentsSettings = z.infer<typeof CardInstallmentsSettingsSchema>;

/**
 * Which payment methods a payment link offers, as it is read back (GET and `payment_link.paid`).
 * Each member is a family of methods switched on or off with `isEnabled`.
 */
export const LinkSettingsSchema = z.looseObject({
  buyNowPayLater: ToggleMemberSchema,
  card: ToggleMemberSchema,
  cardInstallments: z.optional(z.nullable(CardInstallmentsSettingsSchema)),
  qrPromptPay: ToggleMemberSchema,
  eWallets: ToggleMemberSchema,
  mobileBanking: ToggleMemberSchema,
});
export type LinkSettings = z.infer<typeof LinkSettingsSchema>;

/**
 * One line of a payment link's order as it is read back. The contract does not show the element
 * shape, so every field is optional; `price` is in satang per unit.
 */
export const OrderItemSchema = z.looseObject({
  itemName: z.optional(z.nullable(z.string())),
  description: z.optional(z.nullable(z.string())),
  imageUrl: z.optional(z.nullable(z.string())),
  price: z.optional(z.nullable(z.int())),
  productId: z.optional(z.nullable(z.string())),
  quantity: z.optional(z.nullable(z.int())),
  sku: z.optional(z.nullable(z.string())),
});
export type OrderItem = z.infer<typeof OrderItemSchema>;

/** The order a payment link sells, as it is read back; `netAmount` is what the shopper pays, in satang. */
export const PaymentLinkOrderSchema = z.looseObject({
  netAmount: z.int(),
  currency: z.string(),
  description: z.optional(z.nullable(z.string())),
  referenceId: z.optional(z.nullable(z.string())),
  internalNote: z.optional(z.nullable(z.string())),
  orderItems: z.optional(z.nullable(z.array(OrderItemSchema))),
});
export type PaymentLinkOrder = z.infer<typeof PaymentLinkOrderSchema>;

/**
 * A payment link as `GET /api/v1/payment-links/{paymentLinkId}` returns it and as the
 * `payment_link.paid` webhook carries it. `url` is the hosted page the shopper opens.
 */
export const PaymentLinkSchema = z.looseObject({
  paymentLinkId: z.string(),
  merchantId: z.string(),
  url: z.string(),
  status: PaymentLinkStatusSchema,
  order: PaymentLinkOrderSchema,
  linkSettings: z.optional(z.nullable(LinkSettingsSchema)),
  collectDeliveryAddress: z.optional(z.nullable(z.boolean())),
  collectPhoneNumber: z.optional(z.nullable(z.boolean())),
  redirectUrl: z.optional(z.nullable(z.string())),
  cancelUrl: z.optional(z.nullable(z.string())),
  expiresAt: z.optional(z.nullable(TimestampSchema)),
  feeType: z.optional(z.nullable(z.string())),
  // The contract's webhook shape of a payment link lists no timestamps, so neither is relied on.
  createdAt: z.optional(z.nullable(TimestampSchema)),
  updatedAt: z.optional(z.nullable(TimestampSchema)),
});
export type PaymentLink = z.infer<typeof PaymentLinkSchema>;

// ---------------------------------------------------------------------------------------------
// Request shapes: checked, with messages that read after the field path.


const ToggleRequestSchema = z.object({
  isEnabled: z.boolean({ error: 'must be true or false' }),
});

/** Which payment methods a new link offers; each member switches one family on or off. */
export const LinkSettingsRequestSchema = z.object({
  buyNowPayLater: z.optional(ToggleRequestSchema),
  card: z.optional(ToggleRequestSchema),
  cardInstallments: z.optional(
    z.object({
      isEnabled: z.boolean({ error: 'must be true or false' }),
      installments3m: z.optional(ToggleRequestSchema),
      installments4m: z.optional(ToggleRequestSchema),
      installments6m: z.optional(ToggleRequestSchema),
      installments10m: z.optional(ToggleRequestSchema),
    }),
  ),
  qrPromptPay: z.optional(ToggleRequestSchema),
  eWallets: z.optional(ToggleRequestSchema),
  mobileBanking: z.optional(ToggleRequestSchema),
});
export type LinkSettingsRequest = z.infer<typeof LinkSettingsRequestSchema>;

/** One line of a new link's order, shown to the shopper on the hosted page. */
export const OrderItemRequestSchema = z.object({
  itemName: requiredString(255),
  description: z.optional(boundedString(1000)),
  imageUrl: z.optional(HttpUrlRequestSchema),
  price: z.int({ error: 'must be a whole number of satang' }).check(z.gte(0, 'must not be negative')),
  productId: z.optional(boundedString(255)),
  quantity: z.int({ error: 'must be a whole number' }).check(z.gte(1, 'must be at least 1')),
  sku: z.optional(boundedString(255)),
});
export type OrderItemRequest = z.infer<typeof OrderItemRequestSchema>;

/**
 * The order of a new link: what the shopper pays (`netAmount`, in satang) and what for. The
 * payer pays `netAmount`, whatever `orderItems` add up to (they describe the order, they do not
 * price it); `description` is optional.
 */
export const PaymentLinkOrderRequestSchema = z.object({
  netAmount: ChargeAmountRequestSchema,
  currency: CurrencyRequestSchema,
  description: z.optional(boundedString(255)),
  referenceId: z.optional(boundedString(255)),
  internalNote: z.optional(boundedString(255)),
  orderItems: z.optional(z.array(OrderItemRequestSchema)),
});
export type PaymentLinkOrderRequest = z.infer<typeof PaymentLinkOrderRequestSchema>;

/**
 * The body of `POST /api/v1/payment-links`. Whether `expiresAt` lies in the future depends on the
 * clock, so it is checked where the link is created, not here.
 */
export const CreatePaymentLinkRequestSchema = z.object({
  order: PaymentLinkOrderRequestSchema,
  linkSettings: z.optional(LinkSettingsRequestSchema),
  redirectUrl: z.optional(HttpUrlRequestSchema),
  cancelUrl: z.optional(HttpUrlRequestSchema),
  expiresAt: z.optional(TimestampRequestSchema),
  collectPhoneNumber: z.optional(z.boolean({ error: 'must be true or false' })),
  collectDeliveryAddress: z.optional(z.boolean({ error: 'must be true or false' })),
  feeType: z.optional(PaymentLinkFeeTypeRequestSchema),
});
export type CreatePaymentLinkRequest = z.infer<typeof CreatePaymentLinkRequestSchema>;

/** The answer of `POST /api/v1/payment-links`: the link's id and the URL to send the shopper to. */
export const CreatePaymentLinkResponseSchema = z.looseObject({
  id: z.string(),
  url: z.string(),
});
export type CreatePaymentLinkResponse = z.infer<typeof CreatePaymentLinkResponseSchema>;
