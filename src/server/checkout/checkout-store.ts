import { CheckoutError } from './checkout-error.js';
import { RELEARNABLE_KEY_PREFIXES } from './checkout-records.js';

/**
 * The little state the checkout proxy keeps: rate-limit counters, webhook dedupe keys, the last
 * known status of charges, and wake-ups for long-polls. Behind this interface so a fleet can share
 * it (Redis maps onto it one call per method: one EVAL of INCR+PEXPIRE, SET NX PX, GET, SET PX,
 * one EVAL for `setIfNewer`, PUBLISH, SUBSCRIBE; see `satang/server/redis`) without touching the
 * handler.
 *
 * A store that cannot answer (its server down or too slow) rejects with a
 * {@link CheckoutStoreError}: the request is then answered 503, retryable, and nothing is decided
 * without the store.
 */
export interface CheckoutStore {
  /** Adds one to the counter `key` in a window of `windowMs` and returns the new count. */
  increment(key: string, windowMs: number): Promise<number>;
  /** Stores `value` under `key` unless present; true when it was absent. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /**
   * Stores `value` under `key` unless it holds a value stored with a `version` at least as high;
   * true when it stored. The comparison and the write are one step, so of two concurrent writers
   * the higher version stays whatever their order. The handler keeps the newest known state of a
   * resource this way. Write such a key only with this method (a `set` value counts as older than
   * any version). On Redis, one EVAL of a script that reads and writes the one key, which keeps
   * the version beside the value.
   */
  setIfNewer(key: string, version: number, value: string, ttlMs: number): Promise<boolean>;
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Tells every subscriber of `channel`, on this instance or another. */
  publish(channel: string, message: string): Promise<void>;
  /** Listens on `channel` until the returned function is called. */
  subscribe(channel: string, listener: (message: string) => void): () => void;
}

/**
 * The store could not answer in time (its server is down, restarting or overloaded). A
 * {@link CheckoutError} of its own: the caller is answered 503 `UPSTREAM_UNAVAILABLE`, retryable,
 * and the service's webhook is answered 503 too, so it is sent again; the store's own error is the
 * `cause`, for the log. Throw it from a store of your own for the same answers.
 */
export class CheckoutStoreError extends CheckoutError {
  /** `cause`: what the store ran into (its client's error, or a timeout), for the log; never shown to the shopper. */
  constructor(cause: unknown) {
    super(503, 'UPSTREAM_UNAVAILABLE', 'The shop cannot take payments for a moment. Please try again.', { retryable: true, headers: { 'retry-after': '2' }, cause });
    this.name = 'CheckoutStoreError';
  }
}

/** Most entries the in-memory store keeps, and most counters apart from them; the oldest go first past it. */
export const MEMORY_STORE_MAX_ENTRIES = 100_000;

interface Entry {
  value: string;
  expiresAtMs: number;
  /** Set by `setIfNewer` only. */
  version?: number;
}

/**
 * The default store: one process, in memory, bounded. Right for a single server; a serverless
 * deployment still works with it, because a long-poll also polls the service when no webhook
 * reaches the instance that holds it.
 */
export class MemoryCheckoutStore implements CheckoutStore {
  /** What the handler can read again from the service or its caller: evicted first. */
  readonly #caches = new Map<string, Entry>();
  /** Money and webhook records (locks, payers, outcomes, handled states): evicted only once no cache is left. */
  readonly #records = new Map<string, Entry>();
  /**
   * Counters apart from everything else: any caller makes new ones (a rate-limit key per client
   * and window), so filling their cap must never push out a handled webhook or a paid order.
   */
  readonly #counters = new Map<string, Entry>();
  readonly #channels = new Map<string, Set<(message: string) => void>>();
  readonly #now: () => number;
  readonly #maxEntries: number;
  #evicted = 0;

  constructor(options: { now?: () => number; maxEntries?: number } = {}) {
    this.#now = options.now ?? Date.now;
    this.#maxEntries = options.maxEntries ?? MEMORY_STORE_MAX_ENTRIES;
  }

  increment(key: string, windowMs: number): Promise<number> {
    const entry = this.#live(key, this.#counters);
    const count = entry ? Number(entry.value) + 1 : 1;
    this.#put(key, String(count), entry ? entry.expiresAtMs : this.#now() + windowMs, undefined, this.#counters);
    return Promise.resolve(count);
  }

  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (this.#live(key)) return Promise.resolve(false);
    this.#put(key, value, this.#now() + ttlMs);
    return Promise.resolve(true);
  }

  setIfNewer(key: string, version: number, value: string, ttlMs: number): Promise<boolean> {
    const held = this.#live(key)?.version;
    if (held !== undefined && held >= version) return Promise.resolve(false);
    this.#put(key, value, this.#now() + ttlMs, version);
    return Promise.resolve(true);
  }

  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.#live(key)?.value);
  }

  set(key: string, value: string, ttlMs: number): Promise<void> {
    this.#put(key, value, this.#now() + ttlMs);
    return Promise.resolve();
  }

  delete(key: string): Promise<void> {
    this.#caches.delete(key);
    this.#records.delete(key);
    this.#counters.delete(key);
    return Promise.resolve();
  }

  publish(channel: string, message: string): Promise<void> {
    // In an executor, so a listener that throws rejects the answer instead of throwing at the caller.
    return new Promise((resolve) => {
      for (const listener of [...(this.#channels.get(channel) ?? [])]) listener(message);
      resolve();
    });
  }

  subscribe(channel: string, listener: (message: string) => void): () => void {
    let listeners = this.#channels.get(channel);
    if (!listeners) this.#channels.set(channel, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.#channels.delete(channel);
    };
  }

  /** How many entries are held, counters apart (for tests and metrics). */
  get size(): number {
    return this.#caches.size + this.#records.size;
  }

  /** How many entries were pushed out by the cap so far, counters included (for tests and metrics). */
  get evicted(): number {
    return this.#evicted;
  }

  /** How many counters are held (for tests and metrics); capped apart at the same number. */
  get counters(): number {
    return this.#counters.size;
  }

  #mapOf(key: string): Map<string, Entry> {
    // What the handler can learn again (a charge's answer replayed to its retry, a final status
    // read from the service) is evicted before anything else.
    return RELEARNABLE_KEY_PREFIXES.some((prefix) => key.startsWith(prefix)) ? this.#caches : this.#records;
  }

  #live(key: string, map = this.#mapOf(key)): Entry | undefined {
    const entry = map.get(key);
    if (entry && entry.expiresAtMs <= this.#now()) {
      map.delete(key);
      return undefined;
    }
    return entry;
  }

  #put(key: string, value: string, expiresAtMs: number, version?: number, map = this.#mapOf(key)): void {
    map.delete(key);
    map.set(key, version === undefined ? { value, expiresAtMs } : { value, expiresAtMs, version });
    if (map === this.#counters) {
      if (map.size > this.#maxEntries) this.#evict([map], () => map.size);
    } else if (this.#caches.size + this.#records.size > this.#maxEntries) {
      this.#evict([this.#caches, this.#records], () => this.#caches.size + this.#records.size);
    }
  }

  /**
   * Insertion order is write order: past the cap, the least recently written go first, caches
   * before records, so no volume of reads and replays can push out who paid an order. A Map finds
   * its first key past every slot its deletes left behind, so the cap is checked before an
   * iterator is made, and one pass frees a sixty-fourth of the cap beyond it: a store at its cap
   * then walks its oldest entries once per that many writes, not on every write.
   */
  #evict(maps: readonly Map<string, Entry>[], size: () => number): void {
    const target = this.#maxEntries - Math.floor(this.#maxEntries / 64);
    for (const from of maps) {
      for (const oldest of from.keys()) {
        if (size() <= target) return;
        from.delete(oldest);
        this.#evicted += 1;
      }
    }
  }
}
