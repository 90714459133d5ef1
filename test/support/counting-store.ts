import { MemoryCheckoutStore, type CheckoutStore } from '../../src/server/index.js';

/** One call the handler made to its store. */
export interface StoreCall {
  method: 'increment' | 'setIfAbsent' | 'setIfNewer' | 'get' | 'set' | 'delete' | 'publish';
  key: string;
}

/**
 * A {@link MemoryCheckoutStore} that writes down every call made to it, in order: what the
 * handler asks of its store for one request, counted (rate-limit counters and the long-poll
 * channel apart, see {@link orderCalls}).
 */
export class CountingStore implements CheckoutStore {
  readonly inner = new MemoryCheckoutStore();
  readonly calls: StoreCall[] = [];

  increment(key: string, windowMs: number): Promise<number> {
    this.calls.push({ method: 'increment', key });
    return this.inner.increment(key, windowMs);
  }
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    this.calls.push({ method: 'setIfAbsent', key });
    return this.inner.setIfAbsent(key, value, ttlMs);
  }
  setIfNewer(key: string, version: number, value: string, ttlMs: number): Promise<boolean> {
    this.calls.push({ method: 'setIfNewer', key });
    return this.inner.setIfNewer(key, version, value, ttlMs);
  }
  get(key: string): Promise<string | undefined> {
    this.calls.push({ method: 'get', key });
    return this.inner.get(key);
  }
  set(key: string, value: string, ttlMs: number): Promise<void> {
    this.calls.push({ method: 'set', key });
    return this.inner.set(key, value, ttlMs);
  }
  delete(key: string): Promise<void> {
    this.calls.push({ method: 'delete', key });
    return this.inner.delete(key);
  }
  publish(channel: string, message: string): Promise<void> {
    this.calls.push({ method: 'publish', key: channel });
    return this.inner.publish(channel, message);
  }
  subscribe(channel: string, listener: (message: string) => void): () => void {
    return this.inner.subscribe(channel, listener);
  }

  /** The calls made while `run` ran. */
  async during<T>(run: () => Promise<T>): Promise<{ result: T; calls: StoreCall[] }> {
    const from = this.calls.length;
    const result = await run();
    return { result, calls: this.calls.slice(from) };
  }
}

/** The calls about orders, payments and webhooks: without rate-limit counters (`increment`) and long-poll wake-ups (`publish`), which stay apart. */
export function orderCalls(calls: readonly StoreCall[]): StoreCall[] {
  return calls.filter((call) => call.method !== 'increment' && call.method !== 'publish');
}

/** `get order:order-1`, … — a list of calls as a reader checks them. */
export function describeCalls(calls: readonly StoreCall[]): string[] {
  return calls.map((call) => `${call.method} ${call.key}`);
}
