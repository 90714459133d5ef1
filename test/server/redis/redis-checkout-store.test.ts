import assert from 'node:assert/strict';
import { createClient, createCluster } from 'redis';
import { createClient as createClientV5 } from 'redis-client-v5';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CheckoutStoreError, MemoryCheckoutStore, type CheckoutStore } from '../../../src/server/index.js';
import { RedisCheckoutStore, type RedisCommandClient } from '../../../src/server/redis/index.js';
import { startRedisServer, stopRedisServer, type RedisServer } from '../../support/redis-server.js';

/**
 * The store's contract, the same sentences for the in-memory store and for Redis: a single server
 * through node-redis v6 and v5, and a Redis Cluster (one node holding every slot, which refuses a
 * command whose keys hash to different slots, as a managed cluster does). Real time throughout:
 * the expiries are Redis's own.
 */

let server: RedisServer | undefined;
let clusterServer: RedisServer | undefined;
/** Everything opened by a test, closed after the file. */
const opened: (() => Promise<unknown>)[] = [];
let prefixes = 0;
const freshPrefix = () => `satang-test-${process.pid}-${(prefixes += 1)}:`;

beforeAll(async () => {
  [server, clusterServer] = await Promise.all([startRedisServer(), startRedisServer({ cluster: true })]);
}, 30_000);

afterAll(async () => {
  for (const close of opened.reverse()) await close().catch(() => undefined);
  await Promise.all([stopRedisServer(server), stopRedisServer(clusterServer)]);
});

type Connect = () => Promise<RedisCommandClient>;

const connectV6: Connect = async () => {
  const client = createClient({ url: server!.url });
  client.on('error', () => undefined);
  await client.connect();
  opened.push(() => client.close());
  return client;
};
const connectV5: Connect = async () => {
  const client = createClientV5({ url: server!.url });
  client.on('error', () => undefined);
  await client.connect();
  opened.push(() => client.close());
  return client;
};
const connectCluster: Connect = async () => {
  const cluster = createCluster({ rootNodes: [{ url: clusterServer!.url }] });
  cluster.on('error', () => undefined);
  await cluster.connect();
  opened.push(() => cluster.close());
  return cluster;
};

interface Subject {
  name: string;
  /** Two stores sharing one state: two instances on two connections for Redis, one store twice in memory. */
  pair(prefix?: string): Promise<[CheckoutStore, CheckoutStore]>;
}

function redisSubject(name: string, connect: Connect): Subject {
  return {
    name,
    async pair(prefix = freshPrefix()) {
      const stores = await Promise.all(
        [0, 1].map(async () => {
          const store = new RedisCheckoutStore({ client: await connect(), keyPrefix: prefix });
          opened.push(() => store.close());
          return store;
        }),
      );
      return [stores[0]!, stores[1]!];
    },
  };
}

const SUBJECTS: Subject[] = [
  {
    name: 'MemoryCheckoutStore',
    async pair() {
      const store = new MemoryCheckoutStore();
      return [store, store];
    },
  },
  redisSubject('RedisCheckoutStore (node-redis v6)', connectV6),
  redisSubject('RedisCheckoutStore (node-redis v5)', connectV5),
  redisSubject('RedisCheckoutStore on Redis Cluster', connectCluster),
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
  describe('setIfNewer', () => {
    it('keeps the higher version whatever order the writes come in, and get reads the value', async () => {
      const [store] = await subject.pair();
      expect(await store.setIfNewer('order-lock:o-1', 5, 'five', 60_000)).toBe(true);
      expect(await store.setIfNewer('order-lock:o-1', 3, 'three', 60_000)).toBe(false);
      expect(await store.setIfNewer('order-lock:o-1', 5, 'five again', 60_000)).toBe(false);
      expect(await store.get('order-lock:o-1')).toBe('five');
      expect(await store.setIfNewer('order-lock:o-1', 6, '{"state":"open"}', 60_000)).toBe(true);
      expect(await store.get('order-lock:o-1')).toBe('{"state":"open"}');
    });

    it('leaves the highest of many concurrent writers on two instances, whichever lands last', async () => {
      const [one, two] = await subject.pair();
      // Versions the size of a webhook state's (milliseconds x 8), which must compare exactly.
      const base = Date.parse('2026-01-01T00:00:00Z') * 8;
      const versions = shuffled(Array.from({ length: 60 }, (_, i) => base + i));
      const stored = await Promise.all(versions.map((v, i) => (i % 2 === 0 ? one : two).setIfNewer('status:ch_1', v, `v${v}`, 60_000)));
      expect(stored).toContain(true);
      expect(await one.get('status:ch_1')).toBe(`v${base + 59}`);
      expect(await two.get('status:ch_1')).toBe(`v${base + 59}`);
      expect(await one.setIfNewer('status:ch_1', base + 58, 'late', 60_000)).toBe(false);
    });

    it('takes a value written with set as older than any version', async () => {
      const [store] = await subject.pair();
      await store.set('k', 'plain', 60_000);
      expect(await store.setIfNewer('k', 0, 'versioned', 60_000)).toBe(true);
      expect(await store.get('k')).toBe('versioned');
    });

    it('forgets the version with the value once it expires', async () => {
      const [store] = await subject.pair();
      expect(await store.setIfNewer('k', 10, 'ten', 150)).toBe(true);
      await sleep(300);
      expect(await store.get('k')).toBeUndefined();
      expect(await store.setIfNewer('k', 1, 'one', 60_000)).toBe(true);
    });
  });

  describe('setIfAbsent', () => {
    it('lets exactly one of many concurrent claims on two instances win', async () => {
      const [one, two] = await subject.pair();
      const claims = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? one : two).setIfAbsent('paid:order-1', `ch_${i}`, 60_000)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await two.get('paid:order-1')).toBe(`ch_${claims.indexOf(true)}`);
    });

    it('claims again once the claim expired', async () => {
      const [store] = await subject.pair();
      expect(await store.setIfAbsent('settling:ch_1', 'a', 150)).toBe(true);
      expect(await store.setIfAbsent('settling:ch_1', 'b', 150)).toBe(false);
      await sleep(300);
      expect(await store.get('settling:ch_1')).toBeUndefined();
      expect(await store.setIfAbsent('settling:ch_1', 'b', 150)).toBe(true);
    });
  });

  describe('get, set and delete', () => {
    it('reads back any text, separators and Thai included, until it expires or is deleted', async () => {
      const [one, two] = await subject.pair();
      const text = '{"a":"x|y|z","name":"ร้านสตางค์"}';
      await one.set('outcome:ch_1', text, 150);
      await one.set('told:ch_1:paid', '', 60_000);
      expect(await two.get('outcome:ch_1')).toBe(text);
      expect(await two.get('told:ch_1:paid')).toBe('');
      expect(await two.get('nothing-here')).toBeUndefined();
      await two.delete('told:ch_1:paid');
      expect(await one.get('told:ch_1:paid')).toBeUndefined();
      await one.delete('never-written');
      await sleep(300);
      expect(await one.get('outcome:ch_1')).toBeUndefined();
    });
  });

  describe('increment', () => {
    it('counts within a window and starts again after it', async () => {
      const [store] = await subject.pair();
      expect(await store.increment('rate:charges:c:0', 200)).toBe(1);
      expect(await store.increment('rate:charges:c:0', 200)).toBe(2);
      expect(await store.increment('rate:charges:c:0', 200)).toBe(3);
      await sleep(350);
      expect(await store.increment('rate:charges:c:0', 200)).toBe(1);
    });

    it('does not move the end of a window with each request', async () => {
      const [store] = await subject.pair();
      expect(await store.increment('rate:status:c:0', 300)).toBe(1);
      await sleep(200);
      expect(await store.increment('rate:status:c:0', 300)).toBe(2);
      await sleep(200);
      expect(await store.increment('rate:status:c:0', 300)).toBe(1);
    });

    it('counts every one of many concurrent requests on two instances once', async () => {
      const [one, two] = await subject.pair();
      const counts = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? one : two).increment('rate:charges:c:1', 60_000)));
      expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    });
  });

  describe('publish and subscribe', () => {
    it('delivers a message published on one instance to every listener on the other, until they leave', async () => {
      const [listening, publishing] = await subject.pair();
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

    it('keeps channels apart', async () => {
      const [listening, publishing] = await subject.pair();
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
  it('gives every key it writes an expiry', async () => {
    const prefix = freshPrefix();
    const [store] = await subject.pair(prefix);
    await store.increment('rate:charges:c:0', 60_000);
    await store.setIfAbsent('paid:order-1', 'ch_1', 60_000);
    await store.setIfAbsent('paid:order-1', 'ch_2', 60_000);
    await store.setIfNewer('order-lock:order-1', 2, '{}', 60_000);
    await store.setIfNewer('order-lock:order-1', 1, '{}', 60_000);
    await store.set('outcome:ch_1', '{}', 60_000);
    await store.set('webhook-newest:charge:ch_1', '1', 60_000);
    await store.publish('charge:ch_1', 'SUCCEEDED');
    const node = createClient({ url: (subject.name.includes('Cluster') ? clusterServer : server)!.url });
    await node.connect();
    try {
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
    } finally {
      await node.close();
    }
  });

  it('keeps two shops sharing one Redis apart by their key prefix, channels included', async () => {
    const [shopA] = await subject.pair(`${freshPrefix()}shop-a:`);
    const [shopB] = await subject.pair(`${freshPrefix()}shop-b:`);
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

  it('tells onError of a listener that throws, and still delivers to the others', async () => {
    const prefix = freshPrefix();
    const errors: unknown[] = [];
    const connect = subject.name.includes('Cluster') ? connectCluster : subject.name.includes('v5') ? connectV5 : connectV6;
    const listening = new RedisCheckoutStore({ client: await connect(), keyPrefix: prefix, onError: (error) => errors.push(error) });
    const [, publishing] = await subject.pair(prefix);
    opened.push(() => listening.close());
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

  it('closes the subscriber connection it opened, and hears nothing after', async () => {
    const prefix = freshPrefix();
    const [listening, publishing] = await subject.pair(prefix);
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
