import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { listenSandbox, SANDBOX_DEFAULTS, type RunningSandbox } from '../../src/sandbox/index.js';
import { createCheckoutHandler, MemoryCheckoutStore, toNodeListener, type CheckoutLogEntry, type CheckoutStore } from '../../src/server/index.js';

/**
 * The two servers of the checkout load run, each on a socket of its own:
 *
 * - the sandbox (`listenSandbox`), its webhooks signed and sent to the shop's `/api/checkout/webhooks`;
 * - the shop: `createCheckoutHandler` behind `toNodeListener`, charging that sandbox, rate limit off.
 *
 * Used in process by the CI test, and one per child process by the bench (load-stack-child.ts), so
 * each side's heap can be read on its own.
 */

/** Where the shop mounts the checkout handler. */
export const LOAD_BASE_PATH = '/api/checkout';

/** Orders of the load run carry their price: order-<satang>-<anything>. */
export function resolveLoadOrder(reference: string) {
  const match = /^order-(\d+)-/.exec(reference);
  return match ? { amount: Number(match[1]), currency: 'THB', referenceId: reference } : null;
}

const gc = (globalThis as { gc?: () => void }).gc;

/** One reading of a server process's memory and of the shop's bounded structures. */
export interface MemorySample {
  /** ms since the side started. */
  atMs: number;
  heapUsed: number;
  rss: number;
  /** Whether a full GC ran just before (needs node --expose-gc). */
  gcForced: boolean;
  /** Shop only: entries in its checkout store. */
  storeSize?: number;
  /** Shop only: long-polls subscribed to a charge's wake-ups. */
  subscriptions?: number;
  /** Shop only: long-polls that ended more than LATE_WAKEUP_MS after their charge's news, those that ran to their deadline, and the longest delay. */
  lateWakeups?: number;
  missedWakeups?: number;
  maxWakeDelayMs?: number;
  /** Shop only: requests the shop has received and not yet answered, by route. */
  openRequests?: Record<string, number>;
}

export function readMemory(startedMs: number, forceGc: boolean): MemorySample {
  if (forceGc && gc) {
    gc();
    gc();
  }
  const usage = process.memoryUsage();
  return { atMs: performance.now() - startedMs, heapUsed: usage.heapUsed, rss: usage.rss, gcForced: forceGc && Boolean(gc) };
}

/** A long-poll that ends this long after its charge's news (the webhook's publish) is late. */
export const LATE_WAKEUP_MS = 1_000;

/**
 * The in-memory store, counting the long-polls subscribed to it, so a run can see that every
 * wake-up subscription is given back, and timing each from its charge's news (the webhook's
 * publish) to its end. A long-poll woken by the news ends as soon as the read it may have under
 * way comes back (late only when that read is slow); one that missed the news runs on to the next
 * poll of the service or to its deadline (missed).
 */
export class CountingStore implements CheckoutStore {
  readonly inner: MemoryCheckoutStore;
  /** Subscriptions not yet given back. */
  subscriptions = 0;
  /** Subscriptions ever made. */
  subscribed = 0;
  /** Long-polls that ended more than LATE_WAKEUP_MS after their charge's news. */
  lateWakeups = 0;
  /** Of those, the ones that ran to their deadline: the news did not wake them. */
  missedWakeups = 0;
  /** Longest time from a charge's news to the end of a long-poll on it, ms. */
  maxWakeDelayMs = 0;
  /** When each channel last had news (bounded: the oldest are forgotten). */
  readonly #published = new Map<string, number>();

  /** `waitMs`: the long-polls' wait, to tell the ones that ran to their deadline. */
  constructor(
    maxEntries?: number,
    readonly waitMs = Number.POSITIVE_INFINITY,
  ) {
    this.inner = new MemoryCheckoutStore(maxEntries === undefined ? {} : { maxEntries });
  }

  get size(): number {
    return this.inner.size;
  }

  increment(key: string, windowMs: number) {
    return this.inner.increment(key, windowMs);
  }
  setIfAbsent(key: string, value: string, ttlMs: number) {
    return this.inner.setIfAbsent(key, value, ttlMs);
  }
  setIfNewer(key: string, version: number, value: string, ttlMs: number) {
    return this.inner.setIfNewer(key, version, value, ttlMs);
  }
  get(key: string) {
    return this.inner.get(key);
  }
  set(key: string, value: string, ttlMs: number) {
    return this.inner.set(key, value, ttlMs);
  }
  delete(key: string) {
    return this.inner.delete(key);
  }
  publish(channel: string, message: string) {
    this.#published.delete(channel);
    this.#published.set(channel, performance.now());
    if (this.#published.size > 20_000) this.#published.delete(this.#published.keys().next().value!);
    return this.inner.publish(channel, message);
  }
  subscribe(channel: string, listener: (message: string) => void): () => void {
    const unsubscribe = this.inner.subscribe(channel, listener);
    const subscribedAt = performance.now();
    this.subscriptions += 1;
    this.subscribed += 1;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.subscriptions -= 1;
      unsubscribe();
      const news = this.#published.get(channel);
      if (news === undefined) return;
      const delay = performance.now() - Math.max(news, subscribedAt);
      this.maxWakeDelayMs = Math.max(this.maxWakeDelayMs, delay);
      if (delay <= LATE_WAKEUP_MS) return;
      this.lateWakeups += 1;
      if (performance.now() - subscribedAt >= this.waitMs) this.missedWakeups += 1;
    };
  }
}

export interface LoadShopOptions {
  /** Cap of the shop's in-memory store (MemoryCheckoutStore's maxEntries); its default otherwise. */
  storeMaxEntries?: number;
  /**
   * How often a long-poll asks the sandbox when no webhook arrives. Long by default here, so a
   * long-poll ends early only when a webhook wakes it: a lost wake-up shows as a PENDING answer.
   */
  statusPollIntervalMs?: number;
  /** The wait of the shoppers' long-polls, to count the ones that ran to their deadline after their news. */
  longPollWaitMs?: number;
}

/** Answers of the shop, by route and status. */
export interface ShopStats {
  answers: Record<string, Record<string, number>>;
  /** Time the handler took per route (its log's durationMs): count, mean and max, ms. */
  handlerMs: Record<string, { count: number; mean: number; max: number }>;
  /** Log entries of 5xx answers (none expected), without their error objects. */
  serverErrors: (Omit<CheckoutLogEntry, 'error'> & { error?: string })[];
  webhooksAnswered: number;
  /** Webhook answers other than 200 (a refused signature, an event that could not be handled). */
  webhooksRefused: number;
}

/** The shop's server: listens at once; charges only once `attach(sandboxUrl)` has run. */
export interface LoadShop {
  origin: string;
  /** `${origin}/api/checkout` */
  endpoint: string;
  store: CountingStore;
  attach(sandboxUrl: string): void;
  stats(): ShopStats;
  sample(forceGc: boolean): MemorySample;
  close(): Promise<void>;
}

function routeOf(path: string): string {
  const rest = path.startsWith(LOAD_BASE_PATH) ? path.slice(LOAD_BASE_PATH.length) : path;
  if (rest === '/charges') return 'charges';
  if (/^\/charges\/[^/]+\/status$/.test(rest)) return 'status';
  if (rest === '/webhooks') return 'webhooks';
  return 'other';
}

export async function startLoadShop(options: LoadShopOptions = {}): Promise<LoadShop> {
  const startedMs = performance.now();
  const store = new CountingStore(options.storeMaxEntries, options.longPollWaitMs);
  const stats: ShopStats = { answers: {}, handlerMs: {}, serverErrors: [], webhooksAnswered: 0, webhooksRefused: 0 };
  const open: Record<string, number> = { charges: 0, status: 0, webhooks: 0, other: 0 };
  let listener: ReturnType<typeof toNodeListener> | undefined;
  let closing = false;

  const server: Server = createServer((req, res) => {
    const route = routeOf((req.url ?? '/').split('?')[0]!);
    open[route] = (open[route] ?? 0) + 1;
    res.once('close', () => (open[route] = (open[route] ?? 1) - 1));
    if (!listener) {
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"not attached"}');
      return;
    }
    listener(req, res);
  });
  // Hundreds of shoppers at once: the listen backlog and keep-alive must not be the bottleneck.
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    endpoint: `${origin}${LOAD_BASE_PATH}`,
    store,
    attach(sandboxUrl) {
      const handler = createCheckoutHandler({
        service: { baseUrl: sandboxUrl, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey },
        resolveOrder: resolveLoadOrder,
        basePath: LOAD_BASE_PATH,
        publicUrl: origin,
        webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64,
        rateLimit: false,
        store,
        statusPollIntervalMs: options.statusPollIntervalMs ?? 60_000,
        log: (entry) => {
          const route = routeOf(entry.path);
          const byStatus = (stats.answers[route] ??= {});
          byStatus[entry.status] = (byStatus[entry.status] ?? 0) + 1;
          const time = (stats.handlerMs[route] ??= { count: 0, mean: 0, max: 0 });
          time.count += 1;
          time.mean += (entry.durationMs - time.mean) / time.count;
          time.max = Math.max(time.max, entry.durationMs);
          if (route === 'webhooks') {
            stats.webhooksAnswered += 1;
            if (entry.status !== 200) stats.webhooksRefused += 1;
          }
          if (entry.status >= 500 && !closing) {
            const { error, ...rest } = entry;
            stats.serverErrors.push({ ...rest, ...(error === undefined ? {} : { error: error instanceof Error ? (error.stack ?? error.message) : inspect(error) }) });
          }
        },
      });
      listener = toNodeListener(handler);
    },
    stats: () => structuredClone(stats),
    sample(forceGc) {
      return {
        ...readMemory(startedMs, forceGc),
        storeSize: store.size,
        subscriptions: store.subscriptions,
        lateWakeups: store.lateWakeups,
        missedWakeups: store.missedWakeups,
        maxWakeDelayMs: store.maxWakeDelayMs,
        openRequests: { ...open },
      };
    },
    async close() {
      closing = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The sandbox side: the sandbox, its charges count and its webhook dispatcher. */
export interface LoadSandbox {
  url: string;
  running: RunningSandbox;
  sample(forceGc: boolean): MemorySample & { charges: number; transactions: number };
  /** Resolves once every webhook has been delivered (or has failed for good). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export async function startLoadSandbox(webhookUrl: string): Promise<LoadSandbox> {
  const startedMs = performance.now();
  const running = await listenSandbox({ port: 0, host: '127.0.0.1', webhook: { url: webhookUrl, webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64 } });
  running.server.keepAliveTimeout = 30_000;
  return {
    url: running.url,
    running,
    sample: (forceGc) => ({ ...readMemory(startedMs, forceGc), charges: running.sandbox.store.charges.size, transactions: running.sandbox.store.transactions.size }),
    idle: () => running.sandbox.webhooks.idle(),
    close: () => running.close(),
  };
}
