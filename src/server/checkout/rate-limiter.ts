import type { HttpCall } from '../../core/http-call.js';
import { ConfigurationError } from '../errors.js';
import { CheckoutError } from './checkout-error.js';
import { RATE_LIMIT_CHARGES_PER_WINDOW, RATE_LIMIT_STATUS_PER_WINDOW, RATE_LIMIT_WINDOW_MS, type CheckoutHandlerOptions } from './checkout-options.js';
import { RateCounter } from './checkout-records.js';
import type { CheckoutStore } from './checkout-store.js';
import { clientAddress, rateLimitBucket, unknownClientMessage } from './client-identity.js';

/** Each bucket counts apart; slip checks are limited as charges are. */
export type RateLimitBucket = 'charges' | 'status' | 'slips';

/**
 * Per-client fixed windows, counted in the checkout store so instances sharing it share the
 * count. The client is who `getClientId` says, else the socket address (the Node adapter's, or the
 * `clientAddress` the host handed the handler), or the address the proxies `trustProxy` names vouch
 * for. A request with no known client is refused as a set-up fault (500, naming the fix) rather
 * than counted in one window with every other such request: that is known only at a request,
 * since one handler may be mounted with `toNodeListener` (a socket) or as a Fetch handler.
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
    const client = this.#clientOf(call);
    const windowStart = Math.floor(Date.now() / limit.windowMs) * limit.windowMs;
    const count = await this.#counter.increment({ bucket, client, windowStartMs: windowStart, windowMs: limit.windowMs });
    if (count > limit.max) {
      const retryAfter = Math.max(1, Math.ceil((windowStart + limit.windowMs - Date.now()) / 1000));
      throw new CheckoutError(429, 'RATE_LIMITED', 'Too many attempts. Please wait a moment and try again.', { retryable: true, headers: { 'retry-after': String(retryAfter) } });
    }
  }

  /** The client's bucket: `getClientId`'s answer, else its address; throws when neither is known. */
  #clientOf(call: HttpCall): string {
    const { getClientId, trustProxy } = this.#options;
    const given = getClientId?.(call.request());
    if (given !== undefined && given !== '') return given;
    const address = clientAddress(call, trustProxy);
    if (address !== undefined) return rateLimitBucket(address);
    const message = unknownClientMessage(trustProxy, getClientId !== undefined);
    throw new CheckoutError(500, 'INTERNAL_ERROR', message, { cause: new ConfigurationError(message) });
  }

  #limit(bucket: RateLimitBucket): { windowMs: number; max: number } | undefined {
    const limit = this.#options.rateLimit;
    if (limit === false) return undefined;
    const max = bucket === 'status' ? (limit?.statusPerWindow ?? RATE_LIMIT_STATUS_PER_WINDOW) : (limit?.chargesPerWindow ?? RATE_LIMIT_CHARGES_PER_WINDOW);
    return { windowMs: limit?.windowMs ?? RATE_LIMIT_WINDOW_MS, max };
  }
}
