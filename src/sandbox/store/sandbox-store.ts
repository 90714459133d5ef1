import type { Charge } from '../../core/schemas/charge.js';
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

/**
 * Everything the sandbox knows, in memory. Every change happens synchronously inside one request
 * handler turn, so concurrent requests see a consistent store without locks.
 */
export class SandboxStore {
  readonly charges = new Map<string, ChargeRecord>();
  /** rawData of a QR charge -> charge id, for the payer simulator. */
  readonly chargeIdByQrPayload = new Map<string, string>();
  readonly cardTokens = new Map<string, CardTokenRecord>();
  readonly refunds = new Map<string, RefundRecord>();
  readonly transactions = new Map<string, TransactionRecord>();
  #seq = 0;

  /** A number that orders records by creation, for "newest first" when timestamps tie. */
  nextSeq(): number {
    this.#seq += 1;
    return this.#seq;
  }
}

/** A page of `items`, newest first, with the total before paging. */
export function pageNewestFirst<T extends { seq: number }, R>(
  items: Iterable<T>,
  keep: (item: T) => boolean,
  project: (item: T) => R,
  page: { limit: number; offset: number },
): { data: R[]; totalCount: number } {
  const matching: T[] = [];
  for (const item of items) if (keep(item)) matching.push(item);
  matching.sort((a, b) => b.seq - a.seq);
  return {
    data: matching.slice(page.offset, page.offset + page.limit).map(project),
    totalCount: matching.length,
  };
}
