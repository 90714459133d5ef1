import type { Charge, ChargeFailureCode, ChargeSource } from '../../core/schemas/charge.js';
import type { PaymentMethodFamily, PaymentMethodType } from '../../core/schemas/payment-method.js';
import type { Refund } from '../../core/schemas/refund.js';
import type { Transaction } from '../../core/schemas/transaction.js';
import type { TestCardBehaviour } from '../defaults.js';

/** A charge and what the sandbox keeps about it beyond its public shape. */
export interface ChargeRecord {
  charge: Charge;
  seq: number;
  requestedType: PaymentMethodType;
  family: PaymentMethodFamily;
  returnUrl: string | undefined;
  qr: { rawData: string; expiresAt: Date } | undefined;
  cardBehaviour: TestCardBehaviour | undefined;
  /** Sum of refunds that succeeded or are still pending. */
  refundedAmount: number;
}

export interface CardTokenRecord {
  id: string;
  merchantId: string;
  pan: string;
  expiryMonth: number;
  expiryYear: number;
  cardHolderName: string;
  createdAt: Date;
  usedAt: Date | undefined;
}

export interface RefundRecord {
  refund: Refund;
  seq: number;
}

export interface TransactionRecord {
  transaction: Transaction;
  seq: number;
}

/** What a hosted page or the payer simulator decided about a pending charge. */
export type ChargeOutcome = { status: 'SUCCEEDED' } | { status: 'FAILED'; failureCode: ChargeFailureCode };

/**
 * Where a charge comes from: `API` (with `sourceId` `""`) for `POST /api/v1/charges`, or a source
 * such as a payment link (with its id).
 */
export interface ChargeOrigin {
  source: ChargeSource;
  sourceId: string;
}

/**
 * Runs when a charge is about to leave PENDING, before its status changes and before its webhooks
 * go out. It may replace the outcome (a payment link that can no longer be paid fails the charge),
 * and webhooks it sends go out ahead of the charge's own.
 */
export type ChargeSettleHook = (charge: Readonly<Charge>, outcome: ChargeOutcome) => ChargeOutcome;
