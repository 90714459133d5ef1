import { describe, expect, it } from 'vitest';
import { MemoryCheckoutStore } from '../../../src/server/checkout/checkout-store.js';

describe('MemoryCheckoutStore', () => {
  it('counts within a window and starts again after it', async () => {
    let now = 0;
    const store = new MemoryCheckoutStore({ now: () => now });
    expect(await store.increment('k', 1_000)).toBe(1);
    expect(await store.increment('k', 1_000)).toBe(2);
    now = 1_000;
    expect(await store.increment('k', 1_000)).toBe(1);
  });

  it('sets a key once until it expires', async () => {
    let now = 0;
    const store = new MemoryCheckoutStore({ now: () => now });
    expect(await store.setIfAbsent('w', '1', 50)).toBe(true);
    expect(await store.setIfAbsent('w', '1', 50)).toBe(false);
    now = 50;
    expect(await store.get('w')).toBeUndefined();
    expect(await store.setIfAbsent('w', '1', 50)).toBe(true);
  });

  it('stays within its size by dropping the least recently written entries', async () => {
    const store = new MemoryCheckoutStore({ maxEntries: 3 });
    for (const key of ['a', 'b', 'c', 'd']) await store.set(key, key, 60_000);
    expect(store.size).toBe(3);
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('d')).toBe('d');
  });

  it('past its cap, frees a sixty-fourth of it in one pass, oldest first, so it does not walk its entries on every write', async () => {
    const store = new MemoryCheckoutStore({ maxEntries: 128 });
    for (let i = 0; i < 128; i += 1) await store.set(`outcome:ch_${i}`, 'paid', 60_000);
    expect(store.evicted).toBe(0);
    await store.set('outcome:ch_128', 'paid', 60_000);
    // 129 written, 126 kept (128 less 2): the three oldest went at once.
    expect(store.size).toBe(126);
    expect(store.evicted).toBe(3);
    expect(await store.get('outcome:ch_2')).toBeUndefined();
    expect(await store.get('outcome:ch_3')).toBe('paid');
    expect(await store.get('outcome:ch_128')).toBe('paid');
    // The next writes fit under the cap again: nothing more goes until it is passed.
    await store.set('outcome:ch_129', 'paid', 60_000);
    await store.set('outcome:ch_130', 'paid', 60_000);
    expect(store.evicted).toBe(3);
  });

  it('caps counters apart, so a flood of new counters never pushes out a handled webhook or a paid order', async () => {
    const store = new MemoryCheckoutStore({ maxEntries: 3 });
    expect(await store.setIfAbsent('webhook:charge:ch_1:SUCCEEDED:t', '1', 60_000)).toBe(true);
    await store.set('paid:order-1', 'ch_1', 60_000);
    for (let i = 0; i < 1_000; i += 1) await store.increment(`rate:charges:198.51.100.${i}:0`, 60_000);
    expect(store.counters).toBe(3);
    expect(await store.setIfAbsent('webhook:charge:ch_1:SUCCEEDED:t', '1', 60_000)).toBe(false);
    expect(await store.get('paid:order-1')).toBe('ch_1');
    expect(store.size).toBe(2);
  });

  it('evicts what can be read again (statuses) before any order record, however many are written', async () => {
    const store = new MemoryCheckoutStore({ maxEntries: 4 });
    await store.set('order-reference:cart-1', 'order-1', 60_000);
    await store.setIfNewer('order:order-1', 3, '{"paidBy":"ch_1"}', 60_000);
    for (let i = 0; i < 1_000; i += 1) await store.set(`${['status:', 'status:read:'][i % 2]!}${i}`, 'x', 60_000);
    expect(store.size).toBe(4);
    expect(await store.get('order-reference:cart-1')).toBe('order-1');
    expect(await store.get('order:order-1')).toBe('{"paidBy":"ch_1"}');
    // Records alone past the cap: then the oldest record goes.
    for (let i = 0; i < 4; i += 1) await store.set(`order-reference:cart-${i + 2}`, 'order-2', 60_000);
    expect(store.size).toBe(4);
    expect(await store.get('order-reference:cart-1')).toBeUndefined();
  });

  it('delivers a published message to subscribers until they leave', async () => {
    const store = new MemoryCheckoutStore();
    const heard: string[] = [];
    const leave = store.subscribe('charge:1', (m) => heard.push(m));
    await store.publish('charge:1', 'SUCCEEDED');
    await store.publish('charge:2', 'FAILED');
    leave();
    await store.publish('charge:1', 'again');
    expect(heard).toEqual(['SUCCEEDED']);
  });
});

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
