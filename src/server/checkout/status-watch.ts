import type { CheckoutContext } from './checkout-context.js';
import { readStatus } from './status-cache.js';
import type { StatusTokenKind } from './status-tokens.js';

/**
 * The long-polls of one payment on this instance, watched together: one subscription to the
 * payment's channel and one fallback poll of the service for all of them, however many wait. A
 * waiter is only woken when there is news (a final status noted on any instance, or a poll that
 * found one), so a thousand shoppers waiting on ten pending QRs cost ten timers and ten reads per
 * interval, not a thousand wake-ups.
 */
export class StatusWatch {
  readonly #context: CheckoutContext;
  readonly #id: string;
  readonly #kind: StatusTokenKind;
  readonly #pollMs: () => number;
  readonly #waiters = new Set<() => void>();
  readonly #stop: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #polling = false;

  constructor(context: CheckoutContext, id: string, kind: StatusTokenKind, pollMs: () => number) {
    this.#context = context;
    this.#id = id;
    this.#kind = kind;
    this.#pollMs = pollMs;
    this.#stop = context.records.statusChannel.listen(id, () => this.#wakeAll());
    this.#schedule();
  }

  /** Adds a waiter, called on each piece of news until the function returned removes it. */
  add(waiter: () => void): () => void {
    this.#waiters.add(waiter);
    return () => {
      this.#waiters.delete(waiter);
      if (this.#waiters.size === 0) this.#end();
    };
  }

  #wakeAll(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }

  #schedule(): void {
    this.#timer = setTimeout(() => void this.#poll(), this.#pollMs());
    // A poll keeps no process alive on its own: the held requests do.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /** One read of the service (shared with any other asker); waiters hear of a final status. */
  async #poll(): Promise<void> {
    if (this.#polling || this.#waiters.size === 0) return;
    this.#polling = true;
    let final = false;
    try {
      final = (await readStatus(this.#context, this.#id, this.#kind)).status !== 'PENDING';
    } catch {
      // The service did not answer: the next poll asks again, and each waiter's deadline still holds.
    } finally {
      this.#polling = false;
    }
    if (this.#waiters.size === 0) return;
    if (final) this.#wakeAll();
    this.#schedule();
  }

  #end(): void {
    clearTimeout(this.#timer);
    this.#stop();
    if (this.#context.statusWatches.get(this.#id) === this) this.#context.statusWatches.delete(this.#id);
  }
}

/**
 * Adds `waiter` to the watch of payment `id` on this instance (made on first use, ended with its
 * last waiter); it is called on each piece of news until the function returned removes it.
 */
export function watchStatus(context: CheckoutContext, id: string, kind: StatusTokenKind, pollMs: () => number, waiter: () => void): () => void {
  let watch = context.statusWatches.get(id);
  if (watch === undefined) {
    watch = new StatusWatch(context, id, kind, pollMs);
    context.statusWatches.set(id, watch);
  }
  return watch.add(waiter);
}
