import type { HttpCall } from '../../core/http-call.js';
import { CheckoutError } from './checkout-error.js';
import { RATE_LIMIT_CHARGES_PER_WINDOW, RATE_LIMIT_STATUS_PER_WINDOW, RATE_LIMIT_WINDOW_MS, type CheckoutHandlerOptions } from './checkout-options.js';
import { RateCounter } from './checkout-records.js';
import type { CheckoutStore } from './checkout-store.js';
import { clientAddress, rateLimitBucket } from './client-identity.js';

/** Each bucket counts apart; slip checks are limited as charges are. */
export type RateLimitBucket = 'charges' | 'status' | 'slips';

/**
 * Per-client fixed windows, counted in the checkout store so instances sharing it share the
 * count. The client is who `getClientId` says, else the socket address the Node adapter saw, or
 * the address the proxies `trustProxy` names vouch for. Requests with no known client share one
 * window.
 */
export class RateLimiter {
  readonly #counter: RateCounter;
  readonly #options: Pick<CheckoutHandlerOptions, 'rateLimit' | 'getClientId' | 'trustProxy'>;

  constructor(store: CheckoutStore, options: Pick<CheckoutHandlerOptions, 'rateLimit' | 'getClientId' | 'trustProxy'>) {
    this.#counter = new RateCounter(store);
    this.#options = options;
  }

  /** Counts the request in its bucket; a 429 with `Retry-After` once the window is full. */
  async check(call: HttpCall, bucket: RateLimitBucket): Promise<void> {
    const limit = this.#limit(bucket);
    if (!limit) return;
    const { getClientId } = this.#options;
    const given = getClientId?.(call.request());
    const address = given === undefined ? clientAddress(call, this.#options.trustProxy) : undefined;
    const client = given ?? (address === undefined ? 'unknown' : rateLimitBucket(address));
    const windowStart = Math.floor(Date.now() / limit.windowMs) * limit.windowMs;
    const count = await this.#counter.increment({ bucket, client, windowStartMs: windowStart, windowMs: limit.windowMs });
    if (count > limit.max) {
      const retryAfter = Math.max(1, Math.ceil((windowStart + limit.windowMs - Date.now()) / 1000));
      throw new CheckoutError(429, 'RATE_LIMITED', 'Too many attempts. Please wait a moment and try again.', { retryable: true, headers: { 'retry-after': String(retryAfter) } });
    }
  }

  #limit(bucket: RateLimitBucket): { windowMs: number; max: number } | undefined {
    const limit = this.#options.rateLimit;
    if (limit === false) return undefined;
    const max = bucket === 'status' ? (limit?.statusPerWindow ?? RATE_LIMIT_STATUS_PER_WINDOW) : (limit?.chargesPerWindow ?? RATE_LIMIT_CHARGES_PER_WINDOW);
    return { windowMs: limit?.windowMs ?? RATE_LIMIT_WINDOW_MS, max };
  }
}
