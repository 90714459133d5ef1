import { describe, expect, it } from 'vitest';
import { MemoryCheckoutStore } from '../../src/server/checkout-store.js';
import { KeyedQueue, olderThan, stateVersion, webhookState } from '../../src/server/webhook-ledger.js';

describe('MemoryCheckoutStore.setIfNewer', () => {
  it('keeps the highest version whatever order the writes come in', async () => {
    const store = new MemoryCheckoutStore();
    expect(await store.setIfNewer('k', 5, 'five', 60_000)).toBe(true);
    expect(await store.setIfNewer('k', 3, 'three', 60_000)).toBe(false);
    expect(await store.setIfNewer('k', 5, 'five again', 60_000)).toBe(false);
    expect(await store.get('k')).toBe('five');
    expect(await store.setIfNewer('k', 9, 'nine', 60_000)).toBe(true);
    expect(await store.get('k')).toBe('nine');

    const versions = [4, 17, 2, 11, 17, 8, 16];
    const stored = await Promise.all(versions.map((v) => store.setIfNewer('many', v, String(v), 60_000)));
    expect(await store.get('many')).toBe('17');
    expect(stored.filter(Boolean).length).toBeLessThanOrEqual(3);
  });

  it('forgets the version with the value when it expires, and counts a plain set as older', async () => {
    let now = 0;
    const store = new MemoryCheckoutStore({ now: () => now });
    await store.setIfNewer('k', 10, 'ten', 50);
    now = 50;
    expect(await store.get('k')).toBeUndefined();
    expect(await store.setIfNewer('k', 1, 'one', 50)).toBe(true);
    await store.set('plain', 'x', 50);
    expect(await store.setIfNewer('plain', 0, 'versioned', 50)).toBe(true);
  });
});

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

describe('KeyedQueue', () => {
  it('runs the tasks of one key in turn, past failures, and lets other keys run meanwhile', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = queue.run('a', async () => {
      await held;
      log.push('a1');
      throw new Error('a1 failed');
    });
    const second = queue.run('a', async () => log.push('a2'));
    await queue.run('b', async () => log.push('b1'));
    expect(log).toEqual(['b1']);
    release();
    await expect(first).rejects.toThrow('a1 failed');
    await second;
    expect(log).toEqual(['b1', 'a1', 'a2']);
    await Promise.resolve();
    expect(queue.size).toBe(0);
  });
});
