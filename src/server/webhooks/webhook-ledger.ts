import { CheckoutError } from '../checkout/checkout-error.js';
import { WEBHOOK_MARKS, WebhookRecords } from '../checkout/checkout-records.js';
import type { CheckoutStore } from '../checkout/checkout-store.js';
import { KeyedQueue } from './keyed-queue.js';
import { olderThan, type WebhookState } from './webhook-state.js';

// How long a state stays marked in hand is its record's (checkout-records.ts).
export { WEBHOOK_IN_HAND_MS } from '../checkout/checkout-records.js';

/** What became of a verified webhook. */
export type WebhookOutcome = 'handled' | 'duplicate' | 'stale';

/**
 * Which webhook states were handled, kept in the checkout store so every instance sharing it
 * agrees: each state of a resource is handled once, and never after a newer state of it. Without
 * an event id from the service, a state is told apart by its resource, status and `updatedAt`.
 */
export class WebhookLedger {
  readonly #records: WebhookRecords;
  readonly #ttlMs: number;
  /** Webhooks of one resource are handled one after another. */
  readonly #queue = new KeyedQueue();

  /** `ttlMs`: how long a handled state, and each resource's newest one, are remembered. */
  constructor(store: CheckoutStore, ttlMs: number) {
    this.#records = new WebhookRecords(store, ttlMs);
    this.#ttlMs = ttlMs;
  }

  /**
   * Runs `handle` for a state unless it was handled already (`duplicate`) or is older than one
   * handled for its resource, or than anything still remembered (`stale`). When `handle` throws,
   * the state is forgotten, so the service's retry of it is handled rather than dropped, and it is
   * not the newest handled state, so an older one arriving meanwhile is still handled.
   */
  async handleOnce(state: WebhookState, handle: () => Promise<void>): Promise<WebhookOutcome> {
    // Older than anything still remembered: whether it was seen can no longer be told.
    if (olderThan(state, Date.now() - this.#ttlMs)) return 'stale';
    const { handled, newest: newestOf } = this.#records;
    return this.#queue.run(state.resource, async () => {
      // The gate: of any number of deliveries of one state, at once or not, one gets past it. It
      // is marked in hand for a short while only, so a process that dies handling it leaves the
      // state to the service's next retry rather than marked handled for days.
      if (!(await handled.setIfAbsent(state, WEBHOOK_MARKS.inHand))) {
        if ((await handled.get(state)) === WEBHOOK_MARKS.handled) return 'duplicate';
        throw new CheckoutError(503, 'UPSTREAM_UNAVAILABLE', 'This event is being handled; send it again later.', { retryable: true, headers: { 'retry-after': '5' } });
      }
      const { version } = state;
      // The version of the newest state handled so far: a newer one supersedes this one.
      const newest = version === undefined ? undefined : await newestOf.get(state.resource);
      if (version !== undefined && newest !== undefined && newest > version) {
        await handled.set(state, WEBHOOK_MARKS.handled);
        return 'stale';
      }
      try {
        await handle();
      } catch (error) {
        await handled.delete(state);
        throw error;
      }
      await handled.set(state, WEBHOOK_MARKS.handled);
      if (version !== undefined) await newestOf.setIfNewer(state.resource, version, version);
      return 'handled';
    });
  }

}
