import { describe, expect, it } from 'vitest';
import { olderThan, stateVersion, webhookState } from '../../../src/server/webhooks/webhook-state.js';

describe('the order of webhook states', () => {
  const at = '2026-03-01T10:00:00.000Z';

  it('orders by updatedAt, then by how far along its life the resource is', () => {
    const later = '2026-03-01T10:00:00.001Z';
    expect(stateVersion('card_authorization', 'AUTHORIZED', later)!).toBeGreaterThan(stateVersion('card_authorization', 'CANCELED', at)!);
    expect(stateVersion('card_authorization', 'CANCELED', at)!).toBeGreaterThan(stateVersion('card_authorization', 'AUTHORIZED', at)!);
    expect(stateVersion('charge', 'SUCCEEDED', at)!).toBeGreaterThan(stateVersion('charge', 'FAILED', at)!);
    expect(stateVersion('refund', 'SUCCEEDED', at)).toBe(stateVersion('refund', 'FAILED', at));
    expect(stateVersion('charge', 'SUCCEEDED', 'yesterday')).toBeUndefined();
    expect(stateVersion('charge', 'SUCCEEDED', null)).toBeUndefined();
  });

  it('tells a transaction apart from the charge whose id it has', () => {
    const transaction = webhookState({ name: 'transaction.created', payload: { transactionId: 'ch_1', transactionType: 'PAYMENT', createdAt: at } } as never);
    const charge = webhookState({ name: 'charge.succeeded', payload: { chargeId: 'ch_1', status: 'SUCCEEDED', updatedAt: at } } as never);
    expect(transaction.resource).not.toBe(charge.resource);
    expect(olderThan(charge, Date.parse(at) + 1)).toBe(true);
    expect(olderThan(charge, Date.parse(at))).toBe(false);
  });
});
