import { describe, expect, it } from 'vitest';
import {
  FeeStrategySchema,
  TransactionListQuerySchema,
  TransactionListSchema,
  TransactionSchema,
  TransactionTypeSchema,
} from '../../../src/core/schemas/transaction.js';

const transaction = {
  transactionId: 'ch_3fZk8pQ2mN7vX1cR4tL9bW6y',
  merchantId: 'mch_sandbox',
  referenceId: 'order-1042',
  transactionType: 'PAYMENT',
  chargeSource: 'API',
  sourceId: '',
  currency: 'THB',
  grossAmount: 100_000,
  feeAmount: 2_950,
  vatAmount: 207,
  netAmount: 96_843,
  feeStrategy: 'RATE',
  createdAt: '2025-03-14T09:26:54Z',
  transactionTime: '2025-03-14T09:26:54Z',
};

function issuePaths(result: { error?: { issues: { path: PropertyKey[] }[] } }): string[] {
  return (result.error?.issues ?? []).map((issue) => issue.path.map(String).join('.'));
}

describe('TransactionSchema', () => {
  it('reads a payment transaction as the service sends it', () => {
    expect(TransactionSchema.parse(transaction)).toEqual(transaction);
  });

  it('reads a refund transaction with the minimum-amount fee strategy', () => {
    const refund = { ...transaction, transactionId: 're_1', transactionType: 'REFUND', feeStrategy: 'MINIMUM_AMOUNT' };
    expect(TransactionSchema.parse(refund).transactionType).toBe('REFUND');
  });

  it('keeps a field the service adds later', () => {
    expect(TransactionSchema.parse({ ...transaction, settledAt: null })).toHaveProperty('settledAt', null);
  });

  it('accepts a transaction without the fields the contract does not guarantee', () => {
    const { referenceId, chargeSource, sourceId, feeStrategy, transactionTime, ...bare } = transaction;
    expect(TransactionSchema.safeParse(bare).success).toBe(true);
  });

  it('refuses a fee amount that is not a number, naming the field', () => {
    const result = TransactionSchema.safeParse({ ...transaction, feeAmount: '29.50' });
    expect(result.success).toBe(false);
    expect(issuePaths(result)).toEqual(['feeAmount']);
  });

  it('refuses an undocumented transaction type', () => {
    expect(issuePaths(TransactionSchema.safeParse({ ...transaction, transactionType: 'PAYOUT' }))).toEqual(['transactionType']);
  });

  it('knows the documented types and fee strategies', () => {
    expect(TransactionTypeSchema.options).toEqual(['PAYMENT', 'REFUND', 'VOID']);
    expect(FeeStrategySchema.options).toEqual(['RATE', 'MINIMUM_AMOUNT']);
  });
});

describe('TransactionListSchema', () => {
  it('reads a page of transactions with its total', () => {
    const page = TransactionListSchema.parse({ data: [transaction], totalCount: 7 });
    expect(page.data).toHaveLength(1);
    expect(page.totalCount).toBe(7);
  });

  it('names the item and field of a bad transaction in the page', () => {
    const result = TransactionListSchema.safeParse({ data: [{ ...transaction, netAmount: null }], totalCount: 1 });
    expect(issuePaths(result)).toEqual(['data.0.netAmount']);
  });
});

describe('TransactionListQuerySchema', () => {
  it('accepts a limit and an offset', () => {
    expect(TransactionListQuerySchema.parse({ limit: 50, offset: 100 })).toEqual({ limit: 50, offset: 100 });
  });

  it('refuses a limit above 100 and a negative offset', () => {
    expect(issuePaths(TransactionListQuerySchema.safeParse({ limit: 101, offset: -1 }))).toEqual(['limit', 'offset']);
  });
});
