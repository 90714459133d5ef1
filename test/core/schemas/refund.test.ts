import { describe, expect, it } from 'vitest';
import { CreateRefundRequestSchema, CreateRefundResponseSchema, RefundSchema, RefundStatusSchema } from '../../../src/core/schemas/refund.js';

const refund = {
  refundId: 're_7Qm2xKp4LbN8vR1tYc3Wd9Fz',
  chargeId: 'ch_3fZk8pQ2mN7vX1cR4tL9bW6y',
  merchantId: 'mch_sandbox',
  referenceId: 'order-1042',
  amount: 25_000,
  currency: 'THB',
  status: 'SUCCEEDED',
  failureCode: '',
  refundReason: 'customer returned the item',
  createdAt: '2025-03-14T09:26:53Z',
  updatedAt: '2025-03-14T09:26:54Z',
  transactionTime: '2025-03-14T09:26:54+07:00',
};

function issuePaths(result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }): string[] {
  return (result.error?.issues ?? []).map((issue) => issue.path.map(String).join('.'));
}

describe('RefundSchema', () => {
  it('reads a refund as the service sends it', () => {
    expect(RefundSchema.parse(refund)).toEqual(refund);
  });

  it('keeps a field the service adds later', () => {
    const parsed = RefundSchema.parse({ ...refund, settlementBatchId: 'sb_1' });
    expect(parsed).toHaveProperty('settlementBatchId', 'sb_1');
  });

  it('accepts a pending refund with null failure code, reason and transaction time', () => {
    const pending = { ...refund, status: 'PENDING', failureCode: null, refundReason: null, transactionTime: null };
    expect(RefundSchema.safeParse(pending).success).toBe(true);
  });

  it('refuses an amount that is not a whole number, naming the field', () => {
    const result = RefundSchema.safeParse({ ...refund, amount: '25000' });
    expect(result.success).toBe(false);
    expect(issuePaths(result)).toEqual(['amount']);
  });

  it('refuses a status the service does not document', () => {
    const result = RefundSchema.safeParse({ ...refund, status: 'REVERSED' });
    expect(issuePaths(result)).toEqual(['status']);
  });

  it('knows the three refund statuses', () => {
    expect(RefundStatusSchema.options).toEqual(['PENDING', 'SUCCEEDED', 'FAILED']);
  });
});

describe('CreateRefundRequestSchema', () => {
  it('accepts a full refund given by the charge id alone', () => {
    expect(CreateRefundRequestSchema.parse({ chargeId: 'ch_1' })).toEqual({ chargeId: 'ch_1' });
  });

  it('accepts a partial refund with an amount and a reason', () => {
    const body = { chargeId: 'ch_1', amount: 500, reason: 'damaged' };
    expect(CreateRefundRequestSchema.parse(body)).toEqual(body);
  });

  it('accepts an amount of 0, which means a full refund', () => {
    expect(CreateRefundRequestSchema.safeParse({ chargeId: 'ch_1', amount: 0 }).success).toBe(true);
  });

  it('refuses a negative amount with a message that reads after the path', () => {
    const result = CreateRefundRequestSchema.safeParse({ chargeId: 'ch_1', amount: -1 });
    expect(result.success).toBe(false);
    expect(issuePaths(result)).toEqual(['amount']);
    expect(result.error?.issues[0]?.message).toMatch(/^must not be negative/);
  });

  it('refuses a fractional amount', () => {
    expect(issuePaths(CreateRefundRequestSchema.safeParse({ chargeId: 'ch_1', amount: 10.5 }))).toEqual(['amount']);
  });

  it('refuses an empty charge id', () => {
    const result = CreateRefundRequestSchema.safeParse({ chargeId: '' });
    expect(issuePaths(result)).toEqual(['chargeId']);
    expect(result.error?.issues[0]?.message).toBe('is required');
  });

  it('refuses a reason longer than 255 characters', () => {
    const result = CreateRefundRequestSchema.safeParse({ chargeId: 'ch_1', reason: 'x'.repeat(256) });
    expect(issuePaths(result)).toEqual(['reason']);
  });
});

describe('CreateRefundResponseSchema', () => {
  it('reads the refund id of a new refund', () => {
    expect(CreateRefundResponseSchema.parse({ refundId: 're_1' }).refundId).toBe('re_1');
  });

  it('refuses an answer without a refund id', () => {
    expect(issuePaths(CreateRefundResponseSchema.safeParse({}))).toEqual(['refundId']);
  });
});
