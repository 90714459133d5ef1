import assert from 'node:assert/strict';
import { createClient, createCluster } from 'redis';
import { createClient as createClientV5 } from 'redis-client-v5';
import { describe, expect, it, vi } from 'vitest';
import { CheckoutStoreError, MemoryCheckoutStore, type CheckoutStore } from '../../../src/server/index.js';
import { RedisCheckoutStore, type RedisCommandClient } from '../../../src/server/redis/index.js';
import { redisTest, type RedisConnection, type RedisFixtures } from '../../support/redis-fixture.js';

/**
 * The store's contract, the same sentences for the in-memory store and for Redis: a single server
 * through node-redis v6 and v5, and a Redis Cluster (one node holding every slot, which refuses a
 * command whose keys hash to different slots, as a managed cluster does). Real time throughout:
 * the expiries are Redis's own.
 */

let prefixes = 0;
const freshPrefix = () => `satang-test-${process.pid}-${(prefixes += 1)}:`;

interface Subject {
  name: string;
  /** A client of the subject's on the server it uses, not yet connected; none for the store in memory. */
  client?: (servers: Pick<RedisFixtures, 'redisServer' | 'redisCluster'>) => RedisCommandClient & RedisConnection;
}

const MEMORY: Subject = { name: 'MemoryCheckoutStore' };

const SUBJECTS: Subject[] = [
  MEMORY,
  { name: 'RedisCheckoutStore (node-redis v6)', client: ({ redisServer }) => createClient({ url: redisServer.url }) },
  { name: 'RedisCheckoutStore (node-redis v5)', client: ({ redisServer }) => createClientV5({ url: redisServer.url }) },
  { name: 'RedisCheckoutStore on Redis Cluster', client: ({ redisCluster }) => createCluster({ rootNodes: [{ url: redisCluster.url }] }) },
];

/**
 * `it` for the subject a `describe` sets with `storeTest.override('subject', …)`: `connect()` gives a
 * connected client of the subject's, `pair(prefix?)` two stores sharing one state (two instances on
 * two connections for Redis, one store twice in memory). Both close what they opened after the test.
 */
const storeTest = redisTest.extend<{ $test: { subject: Subject; connect: () => Promise<RedisCommandClient>; pair: (prefix?: string) => Promise<[CheckoutStore, CheckoutStore]> } }>({
  subject: MEMORY,
  connect: async ({ subject, redisServer, redisCluster, connectRedis }, use) => {
    await use(async () => {
      if (!subject.client) throw new Error(`${subject.name} is not on Redis`);
      return connectRedis(subject.client({ redisServer, redisCluster }));
    });
  },
  pair: async ({ subject, connect, redisStore }, use) => {
    await use(async (prefix = freshPrefix()) => {
      if (!subject.client) {
        const store = new MemoryCheckoutStore();
        return [store, store];
      }
      const [one, two] = await Promise.all([connect(), connect()]);
      return [redisStore({ client: one, keyPrefix: prefix }), redisStore({ client: two, keyPrefix: prefix })];
    });
  },
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for `key` to expire: read until it is gone, as a store reads it once its time is up (never a fixed wait). */
async function expired(store: CheckoutStore, key: string): Promise<void> {
  await vi.waitFor(async () => expect(await store.get(key)).toBeUndefined(), { timeout: 10_000, interval: 50 });
}

/** `items` in an order that is not theirs, the same on every run. */
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  let seed = 7;
  for (let i = out.length - 1; i > 0; i -= 1) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe.each(SUBJECTS)('$name', (subject) => {
  storeTest.override('subject', subject);

  describe('setIfNewer', () => {
    storeTest('keeps the higher version whatever order the writes come in, and get reads the value', async ({ pair }) => {
      const [store] = await pair();
      expect(await store.setIfNewer('order-lock:o-1', 5, 'five', 60_000)).toBe(true);
      expect(await store.setIfNewer('order-lock:o-1', 3, 'three', 60_000)).toBe(false);
      expect(await store.setIfNewer('order-lock:o-1', 5, 'five again', 60_000)).toBe(false);
      expect(await store.get('order-lock:o-1')).toBe('five');
      expect(await store.setIfNewer('order-lock:o-1', 6, '{"state":"open"}', 60_000)).toBe(true);
      expect(await store.get('order-lock:o-1')).toBe('{"state":"open"}');
    });

    storeTest('leaves the highest of many concurrent writers on two instances, whichever lands last', async ({ pair }) => {
      const [one, two] = await pair();
      // Versions the size of a webhook state's (milliseconds x 8), which must compare exactly.
      const base = Date.parse('2026-01-01T00:00:00Z') * 8;
      const versions = shuffled(Array.from({ length: 60 }, (_, i) => base + i));
      const stored = await Promise.all(versions.map((v, i) => (i % 2 === 0 ? one : two).setIfNewer('status:ch_1', v, `v${v}`, 60_000)));
      expect(stored).toContain(true);
      expect(await one.get('status:ch_1')).toBe(`v${base + 59}`);
      expect(await two.get('status:ch_1')).toBe(`v${base + 59}`);
      expect(await one.setIfNewer('status:ch_1', base + 58, 'late', 60_000)).toBe(false);
    });

    storeTest('takes a value written with set as older than any version', async ({ pair }) => {
      const [store] = await pair();
      await store.set('k', 'plain', 60_000);
      expect(await store.setIfNewer('k', 0, 'versioned', 60_000)).toBe(true);
      expect(await store.get('k')).toBe('versioned');
    });

    storeTest('forgets the version with the value once it expires', async ({ pair }) => {
      const [store] = await pair();
      expect(await store.setIfNewer('k', 10, 'ten', 150)).toBe(true);
      await expired(store, 'k');
      expect(await store.setIfNewer('k', 1, 'one', 60_000)).toBe(true);
    });
  });

  describe('setIfAbsent', () => {
    storeTest('lets exactly one of many concurrent claims on two instances win', async ({ pair }) => {
      const [one, two] = await pair();
      const claims = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? one : two).setIfAbsent('paid:order-1', `ch_${i}`, 60_000)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await two.get('paid:order-1')).toBe(`ch_${claims.indexOf(true)}`);
    });

    storeTest('claims again once the claim expired', async ({ pair }) => {
      const [store] = await pair();
      expect(await store.setIfAbsent('settling:ch_1', 'a', 1_000)).toBe(true);
      expect(await store.setIfAbsent('settling:ch_1', 'b', 1_000)).toBe(false);
      await expired(store, 'settling:ch_1');
      expect(await store.setIfAbsent('settling:ch_1', 'b', 1_000)).toBe(true);
    });
  });

  describe('get, set and delete', () => {
    storeTest('reads back any text, separators and Thai included, until it expires or is deleted', async ({ pair }) => {
      const [one, two] = await pair();
      const text = '{"a":"x|y|z","name":"ร้านสตางค์"}';
      await one.set('outcome:ch_1', text, 1_000);
      await one.set('told:ch_1:paid', '', 60_000);
      expect(await two.get('outcome:ch_1')).toBe(text);
      expect(await two.get('told:ch_1:paid')).toBe('');
      expect(await two.get('nothing-here')).toBeUndefined();
      await two.delete('told:ch_1:paid');
      expect(await one.get('told:ch_1:paid')).toBeUndefined();
      await one.delete('never-written');
      await expired(one, 'outcome:ch_1');
    });
  });

  describe('increment', () => {
    storeTest('counts within a window and starts again after it', async ({ pair }) => {
      const [store] = await pair();
      expect(await store.increment('rate:charges:c:0', 1_000)).toBe(1);
      expect(await store.increment('rate:charges:c:0', 1_000)).toBe(2);
      expect(await store.increment('rate:charges:c:0', 1_000)).toBe(3);
      // Counted on while asked, then 1 again once the window is over.
      await vi.waitFor(async () => expect(await store.increment('rate:charges:c:0', 1_000)).toBe(1), { timeout: 10_000, interval: 100 });
    });

    storeTest('does not move the end of a window with each request', async ({ pair }) => {
      const [store] = await pair();
      expect(await store.increment('rate:status:c:0', 600)).toBe(1);
      expect(await store.increment('rate:status:c:0', 600)).toBe(2);
      // Asked every 50 ms, less than the window: were each request to move its end, it would never end.
      await vi.waitFor(async () => expect(await store.increment('rate:status:c:0', 600)).toBe(1), { timeout: 10_000, interval: 50 });
    });

    storeTest('counts every one of many concurrent requests on two instances once', async ({ pair }) => {
      const [one, two] = await pair();
      const counts = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? one : two).increment('rate:charges:c:1', 60_000)));
      expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    });
  });

  describe('publish and subscribe', () => {
    storeTest('delivers a message published on one instance to every listener on the other, until they leave', async ({ pair }) => {
      const [listening, publishing] = await pair();
      const first: string[] = [];
      const second: string[] = [];
      const leaveFirst = listening.subscribe('charge:ch_1', (m) => first.push(m));
      const leaveSecond = listening.subscribe('charge:ch_1', (m) => second.push(m));
      await vi.waitFor(async () => {
        await publishing.publish('charge:ch_1', 'SUCCEEDED');
        expect(first).toContain('SUCCEEDED');
      });
      await vi.waitFor(() => expect(second).toContain('SUCCEEDED'));
      leaveFirst();
      const before = first.length;
      await publishing.publish('charge:ch_1', 'FAILED');
      await vi.waitFor(() => expect(second).toContain('FAILED'));
      expect(first).toHaveLength(before);
      leaveSecond();
      leaveSecond();
      await sleep(50);
      await publishing.publish('charge:ch_1', 'late');
      await sleep(100);
      expect([...first, ...second]).not.toContain('late');
    });

    storeTest('keeps channels apart', async ({ pair }) => {
      const [listening, publishing] = await pair();
      const heard: string[] = [];
      const leave = listening.subscribe('charge:ch_1', (m) => heard.push(m));
      await vi.waitFor(async () => {
        await publishing.publish('charge:ch_1', 'mine');
        expect(heard).toContain('mine');
      });
      await publishing.publish('charge:ch_2', 'another');
      await publishing.publish('charge:ch_1', 'mine again');
      await vi.waitFor(() => expect(heard).toContain('mine again'));
      expect(heard).not.toContain('another');
      leave();
    });
  });
});

describe.each(SUBJECTS.filter((s) => s.name !== 'MemoryCheckoutStore'))('$name on Redis itself', (subject) => {
  storeTest.override('subject', subject);

  storeTest('gives every key it writes an expiry', async ({ pair, redisServer, redisCluster, connectRedis }) => {
    const prefix = freshPrefix();
    const [store] = await pair(prefix);
    await store.increment('rate:charges:c:0', 60_000);
    await store.setIfAbsent('paid:order-1', 'ch_1', 60_000);
    await store.setIfAbsent('paid:order-1', 'ch_2', 60_000);
    await store.setIfNewer('order-lock:order-1', 2, '{}', 60_000);
    await store.setIfNewer('order-lock:order-1', 1, '{}', 60_000);
    await store.set('outcome:ch_1', '{}', 60_000);
    await store.set('webhook-newest:charge:ch_1', '1', 60_000);
    await store.publish('charge:ch_1', 'SUCCEEDED');
    const node = await connectRedis(createClient({ url: (subject.name.includes('Cluster') ? redisCluster : redisServer).url }));
    const keys: string[] = [];
    for await (const batch of node.scanIterator({ MATCH: `${prefix}*`, COUNT: 1_000 })) keys.push(...batch);
    expect(keys.sort()).toEqual(
      ['rate:charges:c:0', 'paid:order-1', 'order-lock:order-1', 'outcome:ch_1', 'webhook-newest:charge:ch_1'].map((k) => prefix + k).sort(),
    );
    for (const key of keys) {
      const ttl = await node.pTTL(key);
      expect(ttl, key).toBeGreaterThan(0);
      expect(ttl, key).toBeLessThanOrEqual(60_000);
    }
  });

  storeTest('keeps two shops sharing one Redis apart by their key prefix, channels included', async ({ pair }) => {
    const [shopA] = await pair(`${freshPrefix()}shop-a:`);
    const [shopB] = await pair(`${freshPrefix()}shop-b:`);
    await shopA.set('paid:order-1', 'ch_a', 60_000);
    expect(await shopB.get('paid:order-1')).toBeUndefined();
    expect(await shopB.setIfAbsent('paid:order-1', 'ch_b', 60_000)).toBe(true);
    expect(await shopA.get('paid:order-1')).toBe('ch_a');
    const heardByB: string[] = [];
    const heardByA: string[] = [];
    const leaveB = shopB.subscribe('charge:ch_1', (m) => heardByB.push(m));
    const leaveA = shopA.subscribe('charge:ch_1', (m) => heardByA.push(m));
    await vi.waitFor(async () => {
      await shopA.publish('charge:ch_1', 'for a');
      expect(heardByA).toContain('for a');
    });
    await sleep(50);
    expect(heardByB).toEqual([]);
    leaveA();
    leaveB();
  });

  storeTest('tells onError of a listener that throws, and still delivers to the others', async ({ pair, connect, redisStore }) => {
    const prefix = freshPrefix();
    const errors: unknown[] = [];
    const listening = redisStore({ client: await connect(), keyPrefix: prefix, onError: (error) => errors.push(error) });
    const [, publishing] = await pair(prefix);
    const heard: string[] = [];
    const leaveThrowing = listening.subscribe('charge:ch_1', () => {
      throw new Error('a broken listener');
    });
    const leave = listening.subscribe('charge:ch_1', (m) => heard.push(m));
    await vi.waitFor(async () => {
      await publishing.publish('charge:ch_1', 'SUCCEEDED');
      expect(heard).toContain('SUCCEEDED');
    });
    expect(errors.length).toBeGreaterThan(0);
    expect((errors[0] as Error).message).toBe('a broken listener');
    leaveThrowing();
    leave();
  });

  storeTest('closes the subscriber connection it opened, and hears nothing after', async ({ pair }) => {
    const prefix = freshPrefix();
    const [listening, publishing] = await pair(prefix);
    const heard: string[] = [];
    listening.subscribe('charge:ch_1', (m) => heard.push(m));
    await vi.waitFor(async () => {
      await publishing.publish('charge:ch_1', 'before');
      expect(heard).toContain('before');
    });
    assert(listening instanceof RedisCheckoutStore);
    await listening.close();
    await publishing.publish('charge:ch_1', 'after');
    await sleep(100);
    expect(heard).not.toContain('after');
    // Its commands still go through the shop's client, which the store does not close.
    await listening.set('k', 'v', 60_000);
    expect(await publishing.get('k')).toBe('v');
  });
});

describe('RedisCheckoutStore', () => {
  it('refuses a missing client and a timeout that is not a positive whole number of ms', () => {
    expect(() => new RedisCheckoutStore(undefined as never)).toThrow(/connected node-redis client/);
    expect(() => new RedisCheckoutStore({ client: {} as RedisCommandClient, commandTimeoutMs: 0 })).toThrow(RangeError);
  });

  it('fails a call with a CheckoutStoreError (a 503) when the client fails it', async () => {
    const refuse = () => Promise.reject(new Error('ECONNREFUSED'));
    const failing = { get: refuse, set: refuse, del: refuse, evalSha: refuse, eval: refuse, publish: refuse, duplicate: () => ({}) } as unknown as RedisCommandClient;
    const store = new RedisCheckoutStore({ client: failing });
    const error = await store.get('k').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckoutStoreError);
    expect((error as CheckoutStoreError).status).toBe(503);
    expect((error as CheckoutStoreError).retryable).toBe(true);
    expect(((error as CheckoutStoreError).cause as Error).message).toBe('ECONNREFUSED');
  });
});
