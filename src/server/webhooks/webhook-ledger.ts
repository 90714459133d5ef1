import { CheckoutError } from '../checkout/checkout-error.js';
import { WEBHOOK_IN_HAND_MS, WEBHOOK_MARKS, WebhookRecords } from '../checkout/checkout-records.js';
import type { CheckoutStore } from '../checkout/checkout-store.js';
import { KeyedQueue } from './keyed-queue.js';
import { olderThan, type WebhookState } from './webhook-state.js';

// How long a state stays marked in hand is its record's (checkout-records.ts).
export { WEBHOOK_IN_HAND_MS } from '../checkout/checkout-records.js';

/** What became of a verified webhook. */
export type WebhookOutcome = 'handled' | 'duplicate' | 'stale';

/** How long before its mark in hand runs out a failed handling no longer lets go of it (the store's clock and this one apart). */
const IN_HAND_MARGIN_MS = 5_000;

/**
 * Where the handled states of one resource are kept instead of the ledger's own records (a
 * payment's entry in its order's record: see receive-webhook.ts), so the read that tells whether a
 * state was handled is the read its handler needs anyway, and the write that records it is the
 * handler's own last one.
 */
export interface StateKeeper {
  /**
   * Where the resource stands: null when it is not kept there (the ledger's records keep it);
   * else the version of its newest state handled (0: none), or undefined when states handled before
   * it was kept there may be in the ledger's records, which are then read beside it. A handler run
   * after a read that was not null records its state there itself, once `onEvent` returned.
   */
  read(): Promise<{ heard: number | undefined } | null>;
}

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
   * not the newest handled state, so an older one arriving meanwhile is still handled. With a
   * `keeper` (and a state whose time is known), what was handled of the resource is read there,
   * and `handle` records its state there; the state's own mark is then only ever in hand.
   */
  async handleOnce(state: WebhookState, handle: () => Promise<void>, keeper?: StateKeeper): Promise<WebhookOutcome> {
    // Older than anything still remembered: whether it was seen can no longer be told.
    if (olderThan(state, Date.now() - this.#ttlMs)) return 'stale';
    const { handled, newest: newestOf } = this.#records;
    const { version } = state;
    const kept = version === undefined ? undefined : keeper;
    return this.#queue.run(state.resource, async () => {
      const takenAtMs = Date.now();
      // The gate: of any number of deliveries of one state, at once or not, one gets past it. It
      // is marked in hand for a short while only, so a process that dies handling it leaves the
      // state to the service's next retry rather than marked handled for days.
      if (!(await handled.setIfAbsent(state, WEBHOOK_MARKS.inHand))) {
        const heard = kept && (await kept.read())?.heard;
        if (version !== undefined && heard !== undefined && heard >= version) return 'duplicate';
        if ((await handled.get(state)) === WEBHOOK_MARKS.handled) return 'duplicate';
        throw new CheckoutError(503, 'UPSTREAM_UNAVAILABLE', 'This event is being handled; send it again later.', { retryable: true, headers: { 'retry-after': '5' } });
      }
      const where = kept === undefined ? null : await kept.read();
      if (version !== undefined && where?.heard !== undefined) {
        // Kept with the resource, newest included: its own mark in hand runs out by itself.
        if (where.heard > version) return 'stale';
        if (where.heard === version) return 'duplicate';
      } else {
        // The version of the newest state handled so far: a newer one supersedes this one.
        const newest = version === undefined ? undefined : await newestOf.get(state.resource);
        if (version !== undefined && newest !== undefined && newest > version) {
          await handled.set(state, WEBHOOK_MARKS.handled);
          return 'stale';
        }
      }
      try {
        await handle();
      } catch (error) {
        // Let go for the service's retry, while the mark is surely still this handling's: past its
        // time another delivery may hold a mark of its own there, which is left to run out.
        if (Date.now() - takenAtMs < WEBHOOK_IN_HAND_MS - IN_HAND_MARGIN_MS) await handled.delete(state);
        throw error;
      }
      if (where !== null) return 'handled';
      await handled.set(state, WEBHOOK_MARKS.handled);
      if (version !== undefined) await newestOf.setIfNewer(state.resource, version, version);
      return 'handled';
    });
  }
}
