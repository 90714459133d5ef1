import { backoffMs } from '../../core/backoff.js';
import { serviceHeaders, type ServiceHeaders } from '../../core/constants.js';
import { buildWebhookHeaders, decodeWebhookKey, signWebhookPayload } from '../../core/webhook-signature.js';
import { newId } from '../store/ids.js';
import { defineStoreSlice } from '../store/sandbox-store.js';
import { unrefTimer } from '../unref-timer.js';

/** Attempts per delivery, the first included, as the service makes them. */
export const WEBHOOK_MAX_ATTEMPTS = 10;
/** Delay before the second attempt; each later one doubles it (before jitter). */
export const WEBHOOK_RETRY_BASE_DELAY_MS = 1_000;
/** Longest delay between two attempts, so a long outage is still retried within minutes. */
export const WEBHOOK_MAX_RETRY_DELAY_MS = 60_000;
/** How long one attempt may take to receive the response headers before it counts as failed. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Deliveries kept for `list()` and `get()`; older ones are forgotten first. */
export const WEBHOOK_MAX_LOG_ENTRIES = 1_000;
/** User-Agent of every delivery, so receivers can tell sandbox traffic apart. */
export const WEBHOOK_USER_AGENT = 'satang-sandbox';

/** Settings of a {@link WebhookDispatcher}; every one but `url` and the key has a documented default. */
export interface WebhookDispatcherOptions {
  /** The merchant's receiver. Without it (or without the key) the dispatcher is disabled. */
  url?: string;
  /** The environment's webhook key, base64; the HMAC key of the signature header. */
  webhookKeyBase64?: string;
  /** The fetch to deliver with; the global one by default. */
  fetch?: typeof fetch;
  /** The names of the event and signature headers (the sandbox's prefix); the default prefix's when omitted. */
  headers?: ServiceHeaders;
  /** Default {@link WEBHOOK_MAX_ATTEMPTS}. */
  maxAttempts?: number;
  /** Default {@link WEBHOOK_RETRY_BASE_DELAY_MS}. */
  retryBaseDelayMs?: number;
  /** Default {@link WEBHOOK_MAX_RETRY_DELAY_MS}. */
  maxRetryDelayMs?: number;
  /** Default {@link WEBHOOK_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Clock for the timestamps in the log; the wall clock by default. */
  now?: () => Date;
  /**
   * Default {@link WEBHOOK_MAX_LOG_ENTRIES}; the oldest delivery is dropped first, and one dropped
   * while still pending keeps being attempted.
   */
  maxLogEntries?: number;
  /** Where the delivery log is kept, oldest first (the sandbox's store); a map of its own by default. */
  log?: Map<string, WebhookDelivery>;
}

/** One HTTP attempt of a delivery, as a dashboard shows it. */
export interface WebhookAttempt {
  /** When the attempt started, ISO 8601. */
  at: string;
  /** The receiver's status code; null when no response arrived. */
  httpStatus: number | null;
  /** Why no response arrived (network error, timeout, dispatcher closed); null when one did. */
  error: string | null;
  durationMs: number;
}

/** One event sent to the receiver, retried until acknowledged or out of attempts. */
export interface WebhookDelivery {
  /** `whd_` and random characters. */
  deliveryId: string;
  event: string;
  resourceId: string;
  url: string;
  /** PENDING until a 2xx (DELIVERED) or until attempts run out or the dispatcher closes (FAILED). */
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  attempts: WebhookAttempt[];
  /** When the next attempt is due, ISO 8601; null while one is running and once settled. */
  nextAttemptAt: string | null;
  createdAt: string;
  /** The exact bytes sent (and signed), as text. */
  body: string;
}

/** The merchant a delivery is about: every resource the sandbox sends carries its merchantId. */
export function deliveryMerchantId(delivery: WebhookDelivery): string | undefined {
  try {
    const body: unknown = JSON.parse(delivery.body);
    if (typeof body === 'object' && body !== null && 'merchantId' in body && typeof body.merchantId === 'string') return body.merchantId;
  } catch {
    // A body the sandbox did not write as JSON belongs to nobody.
  }
  return undefined;
}

/** The webhook deliveries the sandbox sent, by id, oldest first, as the store keeps them. */
export const WEBHOOK_DELIVERIES = defineStoreSlice('webhookDeliveries', () => new Map<string, WebhookDelivery>());

/**
 * Delay before attempt `failedAttempts + 1`: `min(maxRetryDelayMs, retryBaseDelayMs * 2^(failedAttempts-1))`
 * with equal jitter (half fixed, half random; core's `backoffMs`), in whole milliseconds, so
 * receivers recovering from an outage are not hit by every retry at once while attempts still stay
 * at least half the nominal delay apart. `random` returns a number in [0, 1); exported so the
 * schedule can be checked without waiting.
 */
export function computeWebhookRetryDelayMs(
  failedAttempts: number,
  retryBaseDelayMs: number,
  maxRetryDelayMs: number,
  random: () => number = Math.random,
): number {
  // The first failed attempt is followed by the first retry, core's attempt 0.
  return Math.round(backoffMs(Math.max(0, failedAttempts - 1), retryBaseDelayMs, maxRetryDelayMs, random));
}

const TIMEOUT_REASON = Symbol('webhook attempt timed out');
const CLOSED_REASON = Symbol('webhook dispatcher closed');

interface DeliveryState {
  delivery: WebhookDelivery;
  signature: Promise<string>;
  timer: ReturnType<typeof setTimeout> | undefined;
  controller: AbortController | undefined;
}

/**
 * Sends the sandbox's webhooks the way the service does: a POST of the bare resource JSON with
 * the event and signature headers, acknowledged by any 2xx, otherwise retried with exponential
 * backoff up to `maxAttempts` in all. Delivery is at-least-once: a receiver that acknowledges
 * too late gets the same body again. Keeps a bounded log for the sandbox's dashboard, whose
 * re-send button is {@link WebhookDispatcher.redeliver}.
 */
export class WebhookDispatcher {
  readonly #url: string | undefined;
  readonly #webhookKeyBase64: string | undefined;
  readonly #fetch: typeof fetch | undefined;
  readonly #headers: ServiceHeaders;
  readonly #maxAttempts: number;
  readonly #retryBaseDelayMs: number;
  readonly #maxRetryDelayMs: number;
  readonly #timeoutMs: number;
  readonly #now: () => Date;
  readonly #maxLogEntries: number;
  /** Insertion order is creation order, so the first key is the oldest. */
  readonly #log: Map<string, WebhookDelivery>;
  readonly #active = new Set<DeliveryState>();
  #idleWaiters: (() => void)[] = [];
  #closed = false;

  /**
   * Throws a TypeError for a key that is not base64 or a URL that does not parse, and a
   * RangeError for a non-positive count or a negative delay, so a bad configuration stops the
   * sandbox at start-up instead of losing webhooks later.
   */
  constructor(options: WebhookDispatcherOptions) {
    this.#url = options.url === '' ? undefined : options.url;
    this.#webhookKeyBase64 = options.webhookKeyBase64 === '' ? undefined : options.webhookKeyBase64;
    if (this.#url !== undefined) {
      if (!URL.canParse(this.#url)) throw new TypeError(`webhook url ${JSON.stringify(this.#url)} is not an absolute URL`);
      const protocol = new URL(this.#url).protocol;
      if (protocol !== 'http:' && protocol !== 'https:') {
        throw new TypeError(`webhook url must be http or https, got ${JSON.stringify(this.#url)}`);
      }
    }
    if (this.#webhookKeyBase64 !== undefined) decodeWebhookKey(this.#webhookKeyBase64);
    this.#fetch = options.fetch;
    this.#headers = options.headers ?? serviceHeaders();
    this.#maxAttempts = positiveInteger('maxAttempts', options.maxAttempts ?? WEBHOOK_MAX_ATTEMPTS);
    this.#retryBaseDelayMs = nonNegative('retryBaseDelayMs', options.retryBaseDelayMs ?? WEBHOOK_RETRY_BASE_DELAY_MS);
    this.#maxRetryDelayMs = nonNegative('maxRetryDelayMs', options.maxRetryDelayMs ?? WEBHOOK_MAX_RETRY_DELAY_MS);
    this.#timeoutMs = nonNegative('timeoutMs', options.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
    this.#now = options.now ?? (() => new Date());
    this.#maxLogEntries = positiveInteger('maxLogEntries', options.maxLogEntries ?? WEBHOOK_MAX_LOG_ENTRIES);
    this.#log = options.log ?? new Map<string, WebhookDelivery>();
  }

  /** Whether webhooks are sent at all: both the URL and the key are configured. */
  get enabled(): boolean {
    return this.#url !== undefined && this.#webhookKeyBase64 !== undefined;
  }

  /**
   * Queues `resource` for delivery as `event` and returns the new delivery (PENDING) at once;
   * the attempts run in the background. The body is serialised once and those exact bytes are
   * signed and sent on every attempt. Returns undefined, and never throws, when the dispatcher is
   * disabled or closed, or when the resource cannot be serialised as JSON.
   */
  send(event: string, resource: unknown, resourceId: string): WebhookDelivery | undefined {
    if (!this.enabled || this.#closed) return undefined;
    let body: string | undefined;
    try {
      // undefined for a resource JSON cannot represent (undefined, a function), which its type omits.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
      body = JSON.stringify(resource) as string | undefined;
    } catch {
      return undefined;
    }
    if (body === undefined) return undefined;
    return this.#start(event, resourceId, body);
  }

  /** Every delivery still in the log, newest first, as copies that later attempts do not change. */
  list(): WebhookDelivery[] {
    return [...this.#log.values()].reverse().map(snapshot);
  }

  /** A copy of one delivery, or undefined when unknown or already dropped from the log. */
  get(deliveryId: string): WebhookDelivery | undefined {
    const delivery = this.#log.get(deliveryId);
    return delivery === undefined ? undefined : snapshot(delivery);
  }

  /**
   * Sends a logged delivery's event and body again as a new delivery (new id, fresh attempts),
   * whatever the original's status; for a dashboard's re-send button. Undefined when the id is
   * not in the log or the dispatcher is disabled or closed.
   */
  redeliver(deliveryId: string): WebhookDelivery | undefined {
    const original = this.#log.get(deliveryId);
    if (original === undefined || !this.enabled || this.#closed) return undefined;
    return this.#start(original.event, original.resourceId, original.body);
  }

  /** Resolves once no attempt is running or scheduled, e.g. for a test to wait for the outcome. */
  idle(): Promise<void> {
    if (this.#active.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * Stops for good: cancels scheduled retries, aborts requests in flight and marks their
   * deliveries FAILED; later `send()` and `redeliver()` do nothing. For shutting the sandbox down.
   */
  close(): void {
    this.#closed = true;
    for (const state of [...this.#active]) {
      clearTimeout(state.timer);
      state.timer = undefined;
      state.controller?.abort(CLOSED_REASON);
      this.#settle(state, 'FAILED');
    }
  }

  #start(event: string, resourceId: string, body: string): WebhookDelivery {
    const createdAt = this.#now().toISOString();
    const delivery: WebhookDelivery = {
      deliveryId: newId('whd_'),
      event,
      resourceId,
      // enabled was checked by the caller, so the url is set.
      url: this.#url ?? '',
      status: 'PENDING',
      attempts: [],
      nextAttemptAt: createdAt,
      createdAt,
      body,
    };
    const signature = signWebhookPayload(body, this.#webhookKeyBase64 ?? '');
    // Handled where it is awaited; this keeps an early rejection from being reported as unhandled.
    signature.catch(() => undefined);
    const state: DeliveryState = { delivery, signature, timer: undefined, controller: undefined };
    this.#log.set(delivery.deliveryId, delivery);
    while (this.#log.size > this.#maxLogEntries) {
      const oldest = this.#log.keys().next();
      if (oldest.done === true) break;
      this.#log.delete(oldest.value);
    }
    this.#active.add(state);
    void this.#attempt(state);
    return snapshot(delivery);
  }

  async #attempt(state: DeliveryState): Promise<void> {
    const { delivery } = state;
    state.timer = undefined;
    if (!this.#active.has(state)) return;
    delivery.nextAttemptAt = null;
    const at = this.#now().toISOString();
    const startedMs = performance.now();
    const controller = new AbortController();
    state.controller = controller;
    const timeout = setTimeout(() => controller.abort(TIMEOUT_REASON), this.#timeoutMs);
    unrefTimer(timeout);
    let httpStatus: number | null = null;
    let error: string | null = null;
    try {
      const headers = { ...buildWebhookHeaders(delivery.event, await state.signature, this.#headers), 'User-Agent': WEBHOOK_USER_AGENT };
      const doFetch = this.#fetch ?? globalThis.fetch;
      const response = await doFetch(delivery.url, {
        method: 'POST',
        headers,
        body: delivery.body,
        signal: controller.signal,
        // The service does not follow redirects: a 3xx is not an acknowledgement.
        redirect: 'manual',
      });
      httpStatus = response.status;
      // Only the status matters; cancelling the body releases the connection.
      await response.body?.cancel().catch(() => undefined);
    } catch (thrown) {
      error = describeFailure(thrown, controller.signal, this.#timeoutMs);
    } finally {
      clearTimeout(timeout);
      state.controller = undefined;
    }
    delivery.attempts.push({ at, httpStatus, error, durationMs: Math.round(performance.now() - startedMs) });
    // close() may have settled the delivery while this attempt ran.
    if (!this.#active.has(state)) return;
    if (httpStatus !== null && httpStatus >= 200 && httpStatus < 300) {
      this.#settle(state, 'DELIVERED');
      return;
    }
    if (delivery.attempts.length >= this.#maxAttempts) {
      this.#settle(state, 'FAILED');
      return;
    }
    const delayMs = computeWebhookRetryDelayMs(delivery.attempts.length, this.#retryBaseDelayMs, this.#maxRetryDelayMs);
    delivery.nextAttemptAt = new Date(this.#now().getTime() + delayMs).toISOString();
    state.timer = setTimeout(() => void this.#attempt(state), delayMs);
    // A pending retry alone must not keep the sandbox process running.
    unrefTimer(state.timer);
  }

  #settle(state: DeliveryState, status: 'DELIVERED' | 'FAILED'): void {
    state.delivery.status = status;
    state.delivery.nextAttemptAt = null;
    this.#active.delete(state);
    if (this.#active.size > 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function snapshot(delivery: WebhookDelivery): WebhookDelivery {
  return { ...delivery, attempts: delivery.attempts.map((attempt) => ({ ...attempt })) };
}

function describeFailure(thrown: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted && signal.reason === TIMEOUT_REASON) return `timed out after ${timeoutMs} ms`;
  if (signal.aborted && signal.reason === CLOSED_REASON) return 'dispatcher closed';
  if (!(thrown instanceof Error)) return String(thrown);
  // fetch reports every network failure as "fetch failed"; the cause says which one.
  const cause = thrown.cause;
  if (cause instanceof Error && cause.message !== '') return `${thrown.message}: ${cause.message}`;
  return thrown.message;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a finite number >= 0, got ${value}`);
  return value;
}
