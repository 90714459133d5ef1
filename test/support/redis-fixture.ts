import { createClient } from 'redis';
import { test as base } from 'vitest';
import { RedisCheckoutStore, type RedisCheckoutStoreOptions } from '../../src/server/redis/index.js';
import { startRedisServer, stopRedisServer, type RedisServer } from './redis-server.js';

/** A node-redis v6 client on one server, as the fixtures make it. */
export type RedisClient = ReturnType<typeof clientOf>;

/** What {@link redisTest} needs of a client to connect and close it: node-redis v5 or v6, one server or a cluster. */
export interface RedisConnection {
  on(event: 'error', listener: (error: Error) => void): unknown;
  connect(): Promise<unknown>;
  close(): Promise<unknown>;
}

/** What {@link redisTest} gives a test. Each fixture is set up only when a test (or an `each` hook) names it. */
export interface RedisFixtures {
  /** A `redis-server` of the file's own, started for the first test that needs it and stopped after the file. */
  redisServer: RedisServer;
  /** A single-node Redis Cluster of the file's own (every slot on one node), likewise. */
  redisCluster: RedisServer;
  /** A client connected to `redisServer` for the whole file, closed after it. */
  redisClient: RedisClient;
  /** Connects a client (of any server: the test chose it when it created the client), closed after the test. */
  connectRedis: <Client extends RedisConnection>(client: Client) => Promise<Client>;
  /** A `RedisCheckoutStore` on the client given, closed (with the subscriber connection it may open) after the test. */
  redisStore: (options: RedisCheckoutStoreOptions) => RedisCheckoutStore;
}

/**
 * `it` with a real Redis: `redisTest('…', async ({ redisClient, redisStore }) => …)`. The servers
 * are the file's, on free loopback ports, so files running side by side never share one; what a
 * test connects or creates is closed after it, whether it passed or not. A server that cannot
 * start fails every test that names it: no test runs without the Redis it asks for.
 */
export const redisTest = base.extend<{ $file: Pick<RedisFixtures, 'redisServer' | 'redisCluster' | 'redisClient'>; $test: Pick<RedisFixtures, 'connectRedis' | 'redisStore'> }>({
  redisServer: [
    // eslint-disable-next-line no-empty-pattern -- Vitest reads the fixtures a fixture needs from this pattern
    async ({}, use) => {
      const server = await startRedisServer();
      await use(server);
      await stopRedisServer(server);
    },
    { scope: 'file' },
  ],
  redisCluster: [
    // eslint-disable-next-line no-empty-pattern -- Vitest reads the fixtures a fixture needs from this pattern
    async ({}, use) => {
      const server = await startRedisServer({ cluster: true });
      await use(server);
      await stopRedisServer(server);
    },
    { scope: 'file' },
  ],
  redisClient: [
    async ({ redisServer }, use) => {
      const client = await connect(clientOf(redisServer));
      await use(client);
      await client.close().catch(() => undefined);
    },
    { scope: 'file' },
  ],
  // eslint-disable-next-line no-empty-pattern -- Vitest reads the fixtures a fixture needs from this pattern
  connectRedis: async ({}, use) => {
    const connected: RedisConnection[] = [];
    await use(async (client) => {
      connected.push(client);
      return connect(client);
    });
    for (const client of connected.reverse()) await client.close().catch(() => undefined);
  },
  // eslint-disable-next-line no-empty-pattern -- Vitest reads the fixtures a fixture needs from this pattern
  redisStore: async ({}, use) => {
    const stores: RedisCheckoutStore[] = [];
    await use((options) => {
      const store = new RedisCheckoutStore(options);
      stores.push(store);
      return store;
    });
    for (const store of stores.reverse()) await store.close();
  },
});

/**
 * Connects `client`, with an `error` listener that lets its events pass: without one, a client that
 * loses Redis would end the test process, and the commands that meet the error fail with it anyway.
 */
async function connect<Client extends RedisConnection>(client: Client): Promise<Client> {
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

function clientOf(server: RedisServer) {
  return createClient({ url: server.url });
}
