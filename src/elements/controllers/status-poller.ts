import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { getCheckoutStatus } from '../../client/checkout-api.js';
import { asClientError, type CheckoutClientError } from '../../client/client-error.js';
import { backoffMs } from '../../core/backoff.js';
import type { CheckoutStatusResponse } from '../../core/schemas/checkout.js';

/** How long each status request asks the server to hold a PENDING answer (the proxy allows 30). */
export const STATUS_LONG_POLL_WAIT_SECONDS = 25;
/** Step of the first retry after a network or server error (the pause is half of it to all of it); doubles with every error in a row. */
export const STATUS_RETRY_BASE_MS = 1000;
/** Largest step: no pause between retries is longer. */
export const STATUS_RETRY_MAX_MS = 30_000;
/**
 * Least time between the starts of two status requests, so a server that answers PENDING at once
 * (one that does not hold requests) is polled, not hammered.
 */
export const STATUS_MIN_INTERVAL_MS = 1000;

interface Target {
  endpoint: string;
  chargeId: string;
  statusToken: string;
}

/**
 * Follows a charge until it is final, by long-polling the merchant's proxy
 * (`GET {endpoint}/charges/{id}/status?wait=…`).
 *
 * - Every answer goes to `onStatus`; SUCCEEDED and FAILED end the polling.
 * - Network errors and 5xx/429 answers go to `onError` and are retried with exponential backoff
 *   and jitter; a 4xx (such as a refused status token) ends the polling, then goes to `onError`.
 * - While the page is hidden nothing is in flight or scheduled; when it shows again it asks at once.
 * - Waiting out a retry's pause after a failure, it asks at once when the browser is back online.
 * - When the host leaves the DOM everything stops; if it was running it resumes when the host
 *   comes back.
 */
export class StatusPoller implements ReactiveController {
  #target: Target | undefined;
  #active = false;
  #resume = false;
  #request: AbortController | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #failures = 0;

  constructor(
    host: ReactiveControllerHost & HTMLElement,
    private readonly onStatus: (status: CheckoutStatusResponse) => void,
    private readonly onError?: (error: CheckoutClientError) => void,
  ) {
    host.addController(this);
  }

  /** Whether a charge is being followed (also while paused on a hidden page or between retries). */
  get running(): boolean {
    return this.#active;
  }

  /** Follows this charge, dropping any charge followed before. */
  start(endpoint: string, chargeId: string, statusToken: string): void {
    this.stop();
    this.#target = { endpoint, chargeId, statusToken };
    this.#active = true;
    this.#failures = 0;
    document.addEventListener('visibilitychange', this.#onVisibility);
    window.addEventListener('online', this.#onOnline);
    void this.#ask();
  }

  /** Stops following the charge and aborts the request in flight. */
  stop(): void {
    this.#active = this.#resume = false;
    this.#pause();
    document.removeEventListener('visibilitychange', this.#onVisibility);
    window.removeEventListener('online', this.#onOnline);
  }

  /** Asks at once instead of waiting for the current long-poll or retry (e.g. "I have paid"). */
  checkNow(): void {
    if (!this.#active) return;
    this.#pause();
    void this.#ask();
  }

  hostConnected(): void {
    if (this.#resume && this.#target) {
      const { endpoint, chargeId, statusToken } = this.#target;
      this.start(endpoint, chargeId, statusToken);
    }
  }

  hostDisconnected(): void {
    const was = this.#active;
    this.stop();
    this.#resume = was;
  }

  #onVisibility = (): void => {
    if (document.visibilityState === 'hidden') this.#pause();
    else this.checkNow();
  };

  /** Back online: a pause after failures (up to {@link STATUS_RETRY_MAX_MS}) is not waited out. */
  #onOnline = (): void => {
    if (this.#failures > 0 && this.#timer !== undefined) this.checkNow();
  };

  #pause(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#request?.abort();
    this.#request = undefined;
  }

  /** Nothing in flight and nothing scheduled. */
  get #idle(): boolean {
    return !this.#request && !this.#timer;
  }

  async #ask(): Promise<void> {
    const target = this.#target;
    if (!target || document.visibilityState === 'hidden') return;
    const request = (this.#request = new AbortController());
    const startedAt = Date.now();
    let delayMs: number;
    try {
      const answer = await getCheckoutStatus(target.endpoint, target.chargeId, target.statusToken, STATUS_LONG_POLL_WAIT_SECONDS, request.signal);
      // Superseded by stop(), checkNow() or a hidden page: that caller decides what comes next.
      if (request !== this.#request) return;
      this.#request = undefined;
      this.#failures = 0;
      if (answer.status !== 'PENDING') this.stop();
      this.onStatus(answer);
      delayMs = startedAt + STATUS_MIN_INTERVAL_MS - Date.now();
    } catch (thrown) {
      if (request !== this.#request) return;
      this.#request = undefined;
      const error = asClientError(thrown);
      if (error.kind !== 'network' && error.kind !== 'server') this.stop();
      this.onError?.(error);
      delayMs = backoffMs(this.#failures++, STATUS_RETRY_BASE_MS, STATUS_RETRY_MAX_MS);
    }
    // A callback may have stopped, restarted or re-asked already.
    if (this.#active && this.#idle) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        void this.#ask();
      }, Math.max(0, delayMs));
    }
  }
}
