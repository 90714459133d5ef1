import * as z from 'zod/mini';
import {
  ChargeAmountRequestSchema,
  CurrencyRequestSchema,
  CustomerRequestSchema,
  CustomerSchema,
  ReturnUrlRequestSchema,
  ReferenceIdRequestSchema,
  TimestampSchema,
  listEnvelopeSchema,
  liveObjectSchema,
  liveStringSchema,
} from './common.js';
import {
  DeviceTypeSchema,
  InitiatorTypeSchema,
  PaymentMethodRequestSchema,
  PaymentMethodResponseSchema,
} from './payment-method.js';

export const CHARGE_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export const ChargeStatusSchema = z.enum(CHARGE_STATUSES);
export type ChargeStatus = z.infer<typeof ChargeStatusSchema>;

/** Where a charge came from; fixed by the service. */
export const CHARGE_SOURCES = ['PAYMENT_LINK', 'API', 'STORE_LINK', 'QR_PROMPT_PAY_LINK'] as const;
export const ChargeSourceSchema = z.enum(CHARGE_SOURCES);
export type ChargeSource = z.infer<typeof ChargeSourceSchema>;

/** Failure codes the contract documents. The service adds more; read `failureCode` as a string. */
export const CHARGE_FAILURE_CODES = ['CH_PROCESSING_FAILED', 'CH_INSUFFICIENT_FUNDS', 'CH_AUTHENTICATION_FAILED'] as const;
export type ChargeFailureCode = (typeof CHARGE_FAILURE_CODES)[number];

export const ACTIONS_REQUIRED = ['NONE', 'REDIRECT', 'ENCODED_IMAGE'] as const;
export const ActionRequiredSchema = z.enum(ACTIONS_REQUIRED);
export type ActionRequired = z.infer<typeof ActionRequiredSchema>;

/**
 * A charge as `GET /api/v1/charges/{chargeId}` returns it and as the charge webhooks carry it.
 * The service writes every member: `sourceId` is `""` for a charge made with
 * `POST /api/v1/charges` (the link's id for a payment link's charge), `failureCode` is `""` until
 * the charge fails, `customer` is the whole object with `""` for what it was not given, and
 * `paymentMethod` has every method's member, null but the one used. Read tolerantly: a null or
 * missing `sourceId`, `failureCode` or `customer` (member) reads as that `""` shape.
 */
export const ChargeSchema = z.looseObject({
  chargeId: z.string(),
  merchantId: z.string(),
  referenceId: z.optional(z.nullable(z.string())),
  status: ChargeStatusSchema,
  currency: z.string(),
  amount: z.int(),
  source: ChargeSourceSchema,
  sourceId: liveStringSchema(),
  transactionTime: z.optional(z.nullable(TimestampSchema)),
  paymentMethod: PaymentMethodResponseSchema,
  failureCode: liveStringSchema(),
  customer: liveObjectSchema(CustomerSchema),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type Charge = z.infer<typeof ChargeSchema>;

/** A page of charges from `GET /api/v1/charges`. */
export const ChargeListSchema = listEnvelopeSchema(ChargeSchema);
export type ChargeList = z.infer<typeof ChargeListSchema>;

/** The body of `POST /api/v1/charges`. */
export const CreateChargeRequestSchema = z.object({
  amount: ChargeAmountRequestSchema,
  currency: CurrencyRequestSchema,
  paymentMethod: PaymentMethodRequestSchema,
  referenceId: ReferenceIdRequestSchema,
  returnUrl: z.optional(ReturnUrlRequestSchema),
  skip3dsFlow: z.optional(z.boolean({ error: 'must be true or false' })),
  deviceType: z.optional(DeviceTypeSchema),
  customer: z.optional(CustomerRequestSchema),
  payerAuthenticationDetails: z.optional(z.looseObject({})),
  initiatorType: z.optional(InitiatorTypeSchema),
  networkTransactionId: z.optional(z.string().check(z.maxLength(64, 'must be at most 64 characters'))),
});
export type CreateChargeRequest = z.infer<typeof CreateChargeRequestSchema>;

/** What the shopper does next: nothing, follow a redirect, or scan a QR code. */
export const RedirectSchema = z.looseObject({ redirectUrl: z.string() });
export const EncodedImageSchema = z.looseObject({
  expiry: TimestampSchema,
  imageBase64Encoded: z.string(),
  rawData: z.string(),
});
export type EncodedImage = z.infer<typeof EncodedImageSchema>;

/** The 201 answer of `POST /api/v1/charges`; it carries no status: read the charge for that. */
export const CreateChargeResponseSchema = z.looseObject({
  chargeId: z.string(),
  paymentMethodType: z.string(),
  actionRequired: ActionRequiredSchema,
  redirect: z.optional(z.nullable(RedirectSchema)),
  encodedImage: z.optional(z.nullable(EncodedImageSchema)),
});
export type CreateChargeResponse = z.infer<typeof CreateChargeResponseSchema>;
