import { CheckoutStoreError, type CheckoutStore } from '../checkout/checkout-store.js';
import type { RedisCommandClient, RedisMessageListener, RedisSubscriber } from './redis-client.js';
import { INCREMENT, runScript, SET_IF_NEWER, VERSION_SEPARATOR } from './redis-scripts.js';

const decoder = new TextDecoder();

/** What every key and channel of the store starts with unless `keyPrefix` says otherwise. */
export const REDIS_KEY_PREFIX = 'satang:';

/**
 * How long one store call may take before the request is answered 503: far above what a healthy
 * Redis takes (well under a millisecond nearby), short enough that a shopper is not left waiting
 * on a Redis that is down or failing over.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 2_000;

/** Options of {@link RedisCheckoutStore}. */
export interface RedisCheckoutStoreOptions {
  /**
   * A connected node-redis client (`createClient`) or cluster (`createCluster`), v5 or v6. The
   * shop owns it: the store never closes it, and the shop listens to its `error` events.
   */
  client: RedisCommandClient;
  /**
   * A connected connection to subscribe on, when the shop wants to give its own; by default the
   * store opens one with `client.duplicate()` at the first subscription, and closes it in
   * {@link RedisCheckoutStore.close}.
   */
  subscriber?: RedisSubscriber;
  /**
   * What every key and channel starts with, so several shops (or a staging and a live checkout)
   * share one Redis without seeing each other's records: {@link REDIS_KEY_PREFIX} by default.
   */
  keyPrefix?: string;
  /**
   * How long a store call may take before it fails and the request is answered 503 (retryable):
   * {@link REDIS_COMMAND_TIMEOUT_MS} by default. A command not yet sent by then (the client is
   * reconnecting) is dropped, not sent later.
   */
  commandTimeoutMs?: number;
  /**
   * Told what cannot be thrown to a caller: an error of the subscriber connection the store opened
   * (once per outage), a subscription that failed, a listener that threw. By default a line on
   * `console.error`. Long-polls keep polling the service meanwhile, so nothing waits on these.
   */
  onError?: (error: unknown) => void;
}

interface Channel {
  readonly listeners: Set<(message: string) => void>;
  /** The one listener the subscriber connection holds for the channel; it hands each message to all of `listeners`. */
  readonly dispatch: RedisMessageListener;
}

/**
 * The checkout handler's store on Redis, so every instance behind a load balancer shares one
 * record per order (its lock, payer and ledger), one ledger of handled webhooks, the same
 * rate-limit counts, and wakes each other's long-polls. Pass the same store (each instance its
 * own `RedisCheckoutStore` on the same Redis and `keyPrefix`) and the same `statusTokenSecret` to
 * every instance.
 *
 * Each method is one command on one key (`<keyPrefix><key>`), so it runs on a single server, on
 * Redis Cluster and on managed Redis alike: `get` a GET, `set` a SET PX, `setIfAbsent` a SET NX PX,
 * `delete` a DEL, `increment` and `setIfNewer` one script each (EVALSHA, which reads and writes
 * that one key), `publish` a PUBLISH. Every key is written with an expiry. A value written by
 * `setIfNewer` keeps its version before it in the same key (`<version>|<value>`, and `|<value>`
 * without one), which `get` takes off.
 *
 * When Redis cannot answer within `commandTimeoutMs`, a call rejects with a
 * {@link CheckoutStoreError} and the handler answers 503, retryable, instead of hanging.
 */
export class RedisCheckoutStore implements CheckoutStore {
  /** The shop's client, with the store's command timeout. */
  readonly #client: RedisCommandClient;
  /** The shop's client as given, to open the subscriber from. */
  readonly #given: RedisCommandClient;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  readonly #onError: (error: unknown) => void;
  /** The subscriber the shop gave, or the one the store opened (then `#ownSubscriber`). */
  #subscriber: RedisSubscriber | undefined;
  readonly #ownSubscriber: boolean;
  /** Settles once the subscriber is connected; subscriptions wait for it, in order. */
  #subscriberReady: Promise<RedisSubscriber | undefined> | undefined;
  readonly #channels = new Map<string, Channel>();
  /** Whether the subscriber's error was reported since it was last ready: one report per outage. */
  #errorReported = false;
  #closed = false;

  constructor(options: RedisCheckoutStoreOptions) {
    const given: unknown = options;
    if (typeof given !== 'object' || given === null || typeof options.client !== 'object') {
      throw new TypeError('RedisCheckoutStore needs { client }: a connected node-redis client, e.g. await createClient({ url }).connect()');
    }
    const timeoutMs = options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS;
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) throw new RangeError(`commandTimeoutMs must be a positive whole number of milliseconds (got ${String(timeoutMs)})`);
    this.#timeoutMs = timeoutMs;
    this.#given = options.client;
    // node-redis drops a command still waiting to be sent at its timeout, so none is sent late.
    this.#client = withCommandTimeout(options.client, timeoutMs);
    this.#prefix = options.keyPrefix ?? REDIS_KEY_PREFIX;
    this.#onError = options.onError ?? ((error) => console.error('satang redis store:', error));
    this.#subscriber = options.subscriber;
    this.#ownSubscriber = options.subscriber === undefined;
  }

  async increment(key: string, windowMs: number): Promise<number> {
    return Number(await this.#call(() => runScript(this.#client, INCREMENT, { keys: [this.#key(key)], arguments: [String(wholeMs(windowMs))] })));
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    const answer = await this.#call(() => this.#client.set(this.#key(key), VERSION_SEPARATOR + value, { expiration: { type: 'PX', value: wholeMs(ttlMs) }, condition: 'NX' }));
    return answer !== null;
  }

  async setIfNewer(key: string, version: number, value: string, ttlMs: number): Promise<boolean> {
    if (!Number.isFinite(version)) throw new RangeError(`setIfNewer needs a finite version (got ${version})`);
    const stored = await this.#call(() => runScript(this.#client, SET_IF_NEWER, { keys: [this.#key(key)], arguments: [String(version), value, String(wholeMs(ttlMs))] }));
    return Number(stored) === 1;
  }

  async get(key: string): Promise<string | undefined> {
    const held = await this.#call(() => this.#client.get(this.#key(key)));
    if (held === null) return undefined;
    const text = typeof held === 'string' ? held : decoder.decode(held);
    // A counter holds a bare number; every other value has its version (maybe empty) before it.
    const bar = text.indexOf(VERSION_SEPARATOR);
    return bar === -1 ? text : text.slice(bar + 1);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.#call(() => this.#client.set(this.#key(key), VERSION_SEPARATOR + value, { expiration: { type: 'PX', value: wholeMs(ttlMs) } }));
  }

  async delete(key: string): Promise<void> {
    await this.#call(() => this.#client.del(this.#key(key)));
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.#call(() => this.#client.publish(this.#key(channel), message));
  }

  /**
   * Listens on `channel` on this instance's one subscriber connection: the first listener of a
   * channel subscribes it, the last one to leave unsubscribes it. Messages published by any
   * instance sharing the Redis and the prefix reach it, usually within a millisecond or two of the
   * PUBLISH; one published before the SUBSCRIBE took effect is not heard (a long-poll then learns
   * the news at its next poll of the service). node-redis subscribes again by itself after a
   * reconnection; a subscription that failed while Redis was away is made again once it is back.
   */
  subscribe(channel: string, listener: (message: string) => void): () => void {
    const name = this.#key(channel);
    let entry = this.#channels.get(name);
    if (!entry) {
      const created: Channel = { listeners: new Set(), dispatch: (message) => this.#dispatch(created, typeof message === 'string' ? message : decoder.decode(message)) };
      entry = created;
      this.#channels.set(name, entry);
      this.#onSubscriber((subscriber) => subscriber.subscribe(name, created.dispatch));
    }
    const subscribed = entry;
    subscribed.listeners.add(listener);
    return () => {
      if (!subscribed.listeners.delete(listener) || subscribed.listeners.size > 0 || this.#channels.get(name) !== subscribed) return;
      this.#channels.delete(name);
      this.#onSubscriber((subscriber) => subscriber.unsubscribe(name, subscribed.dispatch));
    };
  }

  /**
   * Closes the subscriber connection the store opened (not one the shop gave, nor `client`) and
   * drops every listener. The store takes no new subscription after it; its other calls still go
   * to `client` while the shop keeps that open.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const channels = [...this.#channels];
    this.#channels.clear();
    this.#subscriberReady = undefined;
    const subscriber = this.#subscriber;
    if (subscriber === undefined) return;
    subscriber.off('ready', this.#resubscribe);
    if (!this.#ownSubscriber) {
      // The shop's connection stays open: only the store's channels are left.
      for (const [name, channel] of channels) subscriber.unsubscribe(name, channel.dispatch).catch(() => undefined);
      return;
    }
    this.#subscriber = undefined;
    try {
      // Still connecting (Redis is away) it has nothing to say goodbye to: it stops trying.
      if (subscriber.isReady) await subscriber.close();
      else subscriber.destroy();
    } catch {
      // Already closed: nothing of the store's is left open either way.
    } finally {
      subscriber.off('error', this.#reportError);
    }
  }

  #key(key: string): string {
    return this.#prefix + key;
  }

  /** One call to Redis, answered within the timeout or failed as a {@link CheckoutStoreError}. */
  async #call<T>(command: () => Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${this.#timeoutMs} ms`)), this.#timeoutMs);
    });
    try {
      // A command already sent when Redis stops answering is not timed out by the client: the race is.
      return await Promise.race([command(), timeout]);
    } catch (error) {
      throw new CheckoutStoreError(error);
    } finally {
      clearTimeout(timer);
    }
  }

  #dispatch(channel: Channel, message: string): void {
    for (const listener of [...channel.listeners]) {
      try {
        listener(message);
      } catch (error) {
        // Thrown into node-redis, it would end up in its socket's handler: told, not thrown.
        this.#onError(error);
      }
    }
  }

  /** Runs `action` on the subscriber once it is connected, in the order asked; a failure is told to `onError`. */
  #onSubscriber(action: (subscriber: RedisSubscriber) => Promise<unknown>): void {
    if (this.#closed) return;
    this.#subscriberReady ??= this.#connectSubscriber();
    void this.#subscriberReady.then((subscriber) => (subscriber === undefined ? undefined : action(subscriber))).catch((error: unknown) => this.#onError(error));
  }

  /**
   * After a reconnection node-redis subscribes again to what it had; a SUBSCRIBE that failed while
   * Redis was away is not among those, so every channel still listened to is asked again (node-redis
   * sends nothing for one it already holds).
   */
  readonly #resubscribe = (): void => {
    this.#errorReported = false;
    const subscriber = this.#subscriber;
    if (subscriber === undefined) return;
    for (const [name, channel] of this.#channels) subscriber.subscribe(name, channel.dispatch).catch((error: unknown) => this.#onError(error));
  };

  /** The subscriber the store opened fails while Redis is away, again at every try to reconnect: told once per outage. */
  readonly #reportError = (error: Error): void => {
    if (this.#errorReported) return;
    this.#errorReported = true;
    this.#onError(new Error(`the subscriber connection failed (long-polls poll the service until it is back): ${error.message}`, { cause: error }));
  };

  async #connectSubscriber(): Promise<RedisSubscriber | undefined> {
    const subscriber = this.#subscriber ?? this.#given.duplicate();
    this.#subscriber = subscriber;
    subscriber.on('ready', this.#resubscribe);
    if (!this.#ownSubscriber) return subscriber;
    // node-redis throws an `error` event nobody listens to: the store listens to the one it opened.
    subscriber.on('error', this.#reportError);
    try {
      await subscriber.connect();
    } catch (error) {
      this.#onError(error);
      this.#subscriberReady = undefined;
      this.#subscriber = undefined;
      return undefined;
    }
    return subscriber;
  }
}

/** A whole, positive number of milliseconds, as PX and PEXPIRE take. */
function wholeMs(ms: number): number {
  return Math.max(1, Math.ceil(ms));
}

/** The client with node-redis's own per-command timeout set, where it has one (v5 and v6 do). */
function withCommandTimeout(client: RedisCommandClient, timeoutMs: number): RedisCommandClient {
  const withOptions = (client as { withCommandOptions?: (options: { timeout: number }) => RedisCommandClient }).withCommandOptions;
  return typeof withOptions === 'function' ? withOptions.call(client, { timeout: timeoutMs }) : client;
}
