import * as z from 'zod/mini';
import {
  ChargeAmountRequestSchema,
  CurrencyRequestSchema,
  CustomerRequestSchema,
  ReturnUrlRequestSchema,
  ReferenceIdRequestSchema,
  TimestampSchema,
  listEnvelopeSchema,
  liveStringSchema,
} from './common.js';
import { RedirectSchema } from './charge.js';
import { CardAuthorizationPaymentMethodRequestSchema, CardResponseSchema, CardNetworkTokenResponseSchema, InitiatorTypeSchema } from './payment-method.js';

export const CARD_AUTHORIZATION_STATUSES = ['PENDING', 'AUTHORIZED', 'FAILED', 'CANCELED', 'CAPTURED', 'EXPIRED'] as const;
export const CardAuthorizationStatusSchema = z.enum(CARD_AUTHORIZATION_STATUSES);
export type CardAuthorizationStatus = z.infer<typeof CardAuthorizationStatusSchema>;

/**
 * A card authorization as its GET and its webhooks return it. `failureCode` is `""` unless it
 * failed (a null or missing one reads as `""`).
 */
export const CardAuthorizationSchema = z.looseObject({
  cardAuthorizationId: z.string(),
  merchantId: z.string(),
  referenceId: z.optional(z.nullable(z.string())),
  status: CardAuthorizationStatusSchema,
  supportsMulticapture: z.optional(z.nullable(z.boolean())),
  currency: z.string(),
  amount: z.int(),
  capturedAmount: z.optional(z.nullable(z.int())),
  capturableAmount: z.optional(z.nullable(z.int())),
  latestChargeId: z.optional(z.nullable(z.string())),
  authorizedAt: z.optional(z.nullable(TimestampSchema)),
  expiresAt: z.optional(z.nullable(TimestampSchema)),
  paymentMethod: z.optional(
    z.nullable(
      z.looseObject({
        paymentMethodType: z.string(),
        card: z.optional(z.nullable(CardResponseSchema)),
        cardNetworkToken: z.optional(z.nullable(CardNetworkTokenResponseSchema)),
      }),
    ),
  ),
  failureCode: liveStringSchema(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type CardAuthorization = z.infer<typeof CardAuthorizationSchema>;

/** A page of card authorizations. */
export const CardAuthorizationListSchema = listEnvelopeSchema(CardAuthorizationSchema);
export type CardAuthorizationList = z.infer<typeof CardAuthorizationListSchema>;


/** The body of `POST /api/v1/card-authorizations`: a card charge that only reserves the amount. */
export const CreateCardAuthorizationRequestSchema = z.object({
  amount: ChargeAmountRequestSchema,
  currency: CurrencyRequestSchema,
  paymentMethod: CardAuthorizationPaymentMethodRequestSchema,
  referenceId: ReferenceIdRequestSchema,
  returnUrl: z.optional(ReturnUrlRequestSchema),
  skip3dsFlow: z.optional(z.boolean({ error: 'must be true or false' })),
  customer: z.optional(CustomerRequestSchema),
  payerAuthenticationDetails: z.optional(z.looseObject({})),
  initiatorType: z.optional(InitiatorTypeSchema),
  networkTransactionId: z.optional(z.string().check(z.maxLength(64, 'must be at most 64 characters'))),
  supportsMulticapture: z.optional(z.boolean({ error: 'must be true or false' })),
});
export type CreateCardAuthorizationRequest = z.infer<typeof CreateCardAuthorizationRequestSchema>;

/** The answer of card-authorization creation. */
export const CreateCardAuthorizationResponseSchema = z.looseObject({
  cardAuthorizationId: z.string(),
  actionRequired: z.enum(['NONE', 'REDIRECT']),
  redirect: z.optional(z.nullable(RedirectSchema)),
});
export type CreateCardAuthorizationResponse = z.infer<typeof CreateCardAuthorizationResponseSchema>;

/** The body of `POST /api/v1/card-authorizations/{id}/charges`: capture some or all of it. */
export const CaptureCardAuthorizationRequestSchema = z.object({
  amount: ChargeAmountRequestSchema,
  currency: CurrencyRequestSchema,
  referenceId: ReferenceIdRequestSchema,
  isFinal: z.optional(z.boolean({ error: 'must be true or false' })),
});
export type CaptureCardAuthorizationRequest = z.infer<typeof CaptureCardAuthorizationRequestSchema>;

/** The answer of a capture: the charge it created. */
export const CaptureCardAuthorizationResponseSchema = z.looseObject({ chargeId: z.string() });
export type CaptureCardAuthorizationResponse = z.infer<typeof CaptureCardAuthorizationResponseSchema>;
