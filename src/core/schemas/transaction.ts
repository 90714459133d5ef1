import * as z from 'zod/mini';
import { ChargeSourceSchema } from './charge.js';
import { ListQuerySchema, TimestampSchema, listEnvelopeSchema, liveStringSchema } from './common.js';

export const TRANSACTION_TYPES = ['PAYMENT', 'REFUND', 'VOID'] as const;
/** What moved money: a succeeded charge (PAYMENT), a refund (REFUND) or a voided payment (VOID). */
export const TransactionTypeSchema = z.enum(TRANSACTION_TYPES);
export type TransactionType = z.infer<typeof TransactionTypeSchema>;

export const FEE_STRATEGIES = ['RATE', 'MINIMUM_AMOUNT'] as const;
/** How the fee of a transaction was worked out: a rate of the amount (RATE) or a fixed minimum fee (MINIMUM_AMOUNT). */
export const FeeStrategySchema = z.enum(FEE_STRATEGIES);
export type FeeStrategy = z.infer<typeof FeeStrategySchema>;

/**
 * A transaction as `GET /api/v1/transactions/{transactionId}` returns it and as the
 * `transaction.created` webhook carries it. `transactionId` equals the id of the charge (PAYMENT)
 * or refund (REFUND) it records. Amounts are in satang: `netAmount` is what the merchant keeps
 * after `feeAmount` and the `vatAmount` charged on that fee. `sourceId` is the charge's: `""` for
 * a charge made with `POST /api/v1/charges` (a null or missing one reads as `""`).
 */
export const TransactionSchema = z.looseObject({
  transactionId: z.string(),
  merchantId: z.string(),
  referenceId: z.optional(z.nullable(z.string())),
  transactionType: TransactionTypeSchema,
  chargeSource: z.optional(z.nullable(ChargeSourceSchema)),
  sourceId: liveStringSchema(),
  currency: z.string(),
  grossAmount: z.int(),
  feeAmount: z.int(),
  vatAmount: z.int(),
  netAmount: z.int(),
  feeStrategy: z.optional(z.nullable(FeeStrategySchema)),
  createdAt: TimestampSchema,
  transactionTime: z.optional(z.nullable(TimestampSchema)),
});
export type Transaction = z.infer<typeof TransactionSchema>;

/** A page of transactions from `GET /api/v1/transactions`. */
export const TransactionListSchema = listEnvelopeSchema(TransactionSchema);
export type TransactionList = z.infer<typeof TransactionListSchema>;

/**
 * Query of `GET /api/v1/transactions`: paging only, as the service documents no filter for it.
 * Values are numbers, so a query string is converted before it is checked.
 */
export const TransactionListQuerySchema = ListQuerySchema;
export type TransactionListQuery = z.infer<typeof TransactionListQuerySchema>;
