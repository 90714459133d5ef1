import * as z from 'zod/mini';
import { TimestampSchema } from './common.js';

/** The longest refund reason the service keeps. */
export const REFUND_REASON_MAX_LENGTH = 255;

export const REFUND_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
/**
 * Where a refund stands: PENDING right after creation, then SUCCEEDED or FAILED (each announced by
 * its webhook, `refund.succeeded` or `refund.failed`).
 */
export const RefundStatusSchema = z.enum(REFUND_STATUSES);
export type RefundStatus = z.infer<typeof RefundStatusSchema>;

/**
 * A refund as `GET /api/v1/refunds/{refundId}` returns it and as the `refund.*` webhooks carry it.
 * The id starts with `re_`; `amount` is in satang and is the refunded part, not the charge amount.
 */
export const RefundSchema = z.looseObject({
  refundId: z.string(),
  chargeId: z.string(),
  merchantId: z.string(),
  referenceId: z.optional(z.nullable(z.string())),
  amount: z.int(),
  currency: z.string(),
  status: RefundStatusSchema,
  // Open-ended: the service adds failure reasons without notice, so any string is kept.
  failureCode: z.optional(z.nullable(z.string())),
  refundReason: z.optional(z.nullable(z.string())),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
  transactionTime: z.optional(z.nullable(TimestampSchema)),
});
export type Refund = z.infer<typeof RefundSchema>;

/**
 * The body of `POST /api/v1/refunds`. Without `amount` (or with 0) the whole remaining amount of
 * the charge is refunded; a smaller amount is a partial refund, which only CARD charges allow.
 * Whether the amount fits the charge is decided against the charge, not here.
 */
export const CreateRefundRequestSchema = z.object({
  chargeId: z.string().check(z.minLength(1, 'is required'), z.maxLength(255, 'must be at most 255 characters')),
  amount: z.optional(
    z.int({ error: 'must be a whole number of satang' }).check(z.gte(0, 'must not be negative (0 or no amount refunds the whole charge)')),
  ),
  reason: z.optional(
    z.string().check(z.maxLength(REFUND_REASON_MAX_LENGTH, `must be at most ${REFUND_REASON_MAX_LENGTH} characters`)),
  ),
});
export type CreateRefundRequest = z.infer<typeof CreateRefundRequestSchema>;

/** The answer of `POST /api/v1/refunds`: only the id; read the refund for its status. */
export const CreateRefundResponseSchema = z.looseObject({
  refundId: z.string(),
});
export type CreateRefundResponse = z.infer<typeof CreateRefundResponseSchema>;
