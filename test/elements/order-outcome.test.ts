import { describe, expect, it } from 'vitest';
import { CHECKOUT_ORDER_OUTCOMES } from '../../src/core/schemas/checkout.js';
import { orderVerdict, unpaidMessageKey } from '../../src/elements/order-outcome.js';

describe('orderVerdict', () => {
  it('reads every outcome of the contract', () => {
    const verdicts = Object.fromEntries(CHECKOUT_ORDER_OUTCOMES.map((outcome) => [outcome, orderVerdict({ status: 'SUCCEEDED', outcome })]));
    expect(verdicts).toEqual({
      paid: 'paid',
      authorized: 'paid',
      duplicate_refunded: 'paid',
      repriced_refunded: 'repriced',
      amount_mismatch: 'unpaid',
      partially_captured: 'unpaid',
      refund_failed: 'unpaid',
    });
  });

  it('never takes a success without an outcome for a paid order: the server says what every success did', () => {
    expect(orderVerdict({ status: 'SUCCEEDED' })).toBe('unpaid');
  });

  it('never takes an outcome it does not know for a paid order', () => {
    expect(orderVerdict({ status: 'SUCCEEDED', outcome: 'partially_paid' })).toBe('unpaid');
    expect(orderVerdict({ status: 'SUCCEEDED', outcome: '' })).toBe('unpaid');
  });

  it('reads a failed charge as failed whatever its outcome', () => {
    expect(orderVerdict({ status: 'FAILED', outcome: 'paid' })).toBe('failed');
  });

  it('has words for each verdict that leaves the order unpaid after a charge went through', () => {
    expect([unpaidMessageKey('repriced'), unpaidMessageKey('unpaid'), unpaidMessageKey('paid'), unpaidMessageKey('failed')]).toEqual([
      'outcome.repricedBody',
      'outcome.unpaidBody',
      undefined,
      undefined,
    ]);
  });
});
