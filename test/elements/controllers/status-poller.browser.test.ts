import { LitElement } from 'lit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CheckoutClientError } from '../../../src/client/client-error.js';
import type { CheckoutStatusResponse } from '../../../src/core/schemas/checkout.js';
import {
  STATUS_LONG_POLL_WAIT_SECONDS,
  STATUS_MIN_INTERVAL_MS,
  STATUS_RETRY_BASE_MS,
  STATUS_RETRY_MAX_MS,
  StatusPoller,
} from '../../../src/elements/controllers/status-poller.js';

type ChargeStatus = CheckoutStatusResponse['status'];
type Responder = (signal: AbortSignal, index: number) => Promise<Response>;

/** Just what the client reads of an answer; settles in microtasks, so fake timers stay in control. */
const answer = (status: number, body: unknown) => ({ ok: status < 300, status, json: () => Promise.resolve(body) }) as Response;

/** The address a fetch was called with. */
const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : input.toString());

/**
 * A stand-in for the proxy's `GET /charges/{id}/status`, replacing `fetch` for a test: each call
 * takes the next scripted reply; with none left it holds the request (a long-poll) until the test
 * releases it or the caller aborts it.
 */
class FakeStatusEndpoint {
  readonly calls: { url: string; token: string | null; signal: AbortSignal }[] = [];
  readonly #script: Responder[] = [];
  readonly #held = new Map<number, (response: Response) => void>();

  constructor(readonly chargeId: string) {}

  readonly fetch = (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const signal = init.signal ?? new AbortController().signal;
    const index = this.calls.length;
    this.calls.push({ url: urlOf(input), token: new Headers(init.headers).get('X-Satang-Status-Token'), signal });
    return (this.#script.shift() ?? this.#hold)(signal, index);
  };

  reply(status: ChargeStatus, failureCode: string | null = null): this {
    this.#script.push(() => Promise.resolve(answer(200, { chargeId: this.chargeId, status, failureCode })));
    return this;
  }

  serverError(status: number): this {
    this.#script.push(() => Promise.resolve(answer(status, { code: 'UPSTREAM_UNAVAILABLE', message: 'try again', error: { errorCode: 'UPSTREAM_UNAVAILABLE', errorMessage: 'try again', retryable: true } })));
    return this;
  }

  clientError(status: number, errorCode: string): this {
    this.#script.push(() => Promise.resolve(answer(status, { code: errorCode, message: 'refused', error: { errorCode, errorMessage: 'refused', retryable: false } })));
    return this;
  }

  networkDown(): this {
    this.#script.push(() => Promise.reject(new TypeError('Failed to fetch')));
    return this;
  }

  hold(): this {
    this.#script.push(this.#hold);
    return this;
  }

  /** Answers the held request number `index` (0-based, in call order). */
  release(index: number, status: ChargeStatus, failureCode: string | null = null): void {
    this.#held.get(index)?.(answer(200, { chargeId: this.chargeId, status, failureCode }));
  }

  #hold: Responder = (signal, index) =>
    new Promise((resolve, reject) => {
      const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
      if (signal.aborted) abort();
      signal.addEventListener('abort', abort, { once: true });
      this.#held.set(index, resolve);
    });
}

/** Pretends the page became hidden or visible (undefined: back to the browser's own answer). */
function setVisibility(state: DocumentVisibilityState | undefined): void {
  if (state === undefined) {
    delete (document as { visibilityState?: unknown }).visibilityState;
    return;
  }
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

class PollerHost extends LitElement {
  readonly statuses: CheckoutStatusResponse[] = [];
  readonly errors: CheckoutClientError[] = [];
  readonly poller = new StatusPoller(
    this,
    (status) => this.statuses.push(status),
    (error) => this.errors.push(error),
  );
}
customElements.define('status-poller-host', PollerHost);

const ENDPOINT = '/api/checkout';
let server: FakeStatusEndpoint;

async function mountAndStart(): Promise<PollerHost> {
  const host = document.body.appendChild(new PollerHost());
  await host.updateComplete;
  host.poller.start(ENDPOINT, 'ch_test_1', 'token-1');
  return host;
}

/** Lets the fake server's answers and the poller's follow-up work run, without moving the clock. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  server = new FakeStatusEndpoint('ch_test_1');
  vi.stubGlobal('fetch', server.fetch);
});

afterEach(() => {
  document.body.replaceChildren();
  setVisibility(undefined);
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('StatusPoller', () => {
  describe('while the charge is PENDING', () => {
    it('long-polls the status with the token header, reports each answer, and stops at SUCCEEDED', async () => {
      server.reply('PENDING').reply('PENDING').reply('SUCCEEDED');
      const host = await mountAndStart();
      await settle();
      expect(server.calls).toHaveLength(1);
      const first = new URL(server.calls[0]!.url, location.href);
      expect(first.pathname).toBe('/api/checkout/charges/ch_test_1/status');
      expect(first.searchParams.get('wait')).toBe(String(STATUS_LONG_POLL_WAIT_SECONDS));
      expect(server.calls[0]!.token).toBe('token-1');

      // An answer that comes back at once is not followed by an immediate request.
      await vi.advanceTimersByTimeAsync(STATUS_MIN_INTERVAL_MS - 1);
      expect(server.calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(server.calls).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(STATUS_MIN_INTERVAL_MS);

      expect(host.statuses.map((s) => s.status)).toEqual(['PENDING', 'PENDING', 'SUCCEEDED']);
      expect(host.poller.running).toBe(false);
      await vi.advanceTimersByTimeAsync(120_000);
      expect(server.calls).toHaveLength(3);
      expect(vi.getTimerCount()).toBe(0);
    });

    it('asks again as soon as a long-poll that was held answers PENDING', async () => {
      server.hold();
      const host = await mountAndStart();
      await vi.advanceTimersByTimeAsync(20_000);
      server.release(0, 'PENDING');
      await settle();
      expect(host.statuses.map((s) => s.status)).toEqual(['PENDING']);
      expect(server.calls).toHaveLength(2);
    });

    it('stops at FAILED and passes the failure code on', async () => {
      server.reply('FAILED', 'CH_PROCESSING_FAILED');
      const host = await mountAndStart();
      await settle();
      expect(host.statuses).toEqual([{ chargeId: 'ch_test_1', status: 'FAILED', failureCode: 'CH_PROCESSING_FAILED' }]);
      expect(host.poller.running).toBe(false);
    });
  });

  describe('when the network or the server fails', () => {
    it('retries with exponential backoff, reporting every error but carrying on', async () => {
      vi.spyOn(Math, 'random').mockReturnValue(0);
      server.networkDown().networkDown().serverError(503).networkDown().reply('PENDING');
      const host = await mountAndStart();
      await settle();
      expect(server.calls).toHaveLength(1);

      // With no jitter drawn, the pauses are half of 1 s, 2 s, 4 s, 8 s.
      for (const [pauseMs, callsAfter] of [
        [500, 2],
        [1000, 3],
        [2000, 4],
        [4000, 5],
      ] as const) {
        await vi.advanceTimersByTimeAsync(pauseMs - 1);
        expect(server.calls).toHaveLength(callsAfter - 1);
        await vi.advanceTimersByTimeAsync(1);
        expect(server.calls).toHaveLength(callsAfter);
      }
      expect(host.errors.map((e) => e.kind)).toEqual(['network', 'network', 'server', 'network']);
      expect(host.statuses.map((s) => s.status)).toEqual(['PENDING']);
      expect(host.poller.running).toBe(true);

      // A good answer resets the backoff: the next error waits the first pause again.
      server.networkDown().reply('SUCCEEDED');
      await vi.advanceTimersByTimeAsync(STATUS_MIN_INTERVAL_MS);
      expect(server.calls).toHaveLength(6);
      await vi.advanceTimersByTimeAsync(500);
      expect(server.calls).toHaveLength(7);
      expect(host.poller.running).toBe(false);
    });

    it('adds the jitter drawn to each pause and never pauses longer than the cap', async () => {
      vi.spyOn(Math, 'random').mockReturnValue(0.5);
      for (let i = 0; i < 7; i += 1) server.networkDown();
      server.hold();
      await mountAndStart();
      await settle();

      // Three quarters of each step (half fixed, half of the rest drawn): 1 s, 2 s … 32 s capped at 30 s.
      const steps = [1, 2, 4, 8, 16, 32, 64].map((n) => Math.min(STATUS_RETRY_MAX_MS, n * STATUS_RETRY_BASE_MS));
      expect(steps.slice(-2)).toEqual([STATUS_RETRY_MAX_MS, STATUS_RETRY_MAX_MS]);
      for (const [index, stepMs] of steps.entries()) {
        await vi.advanceTimersByTimeAsync(stepMs * 0.75 - 1);
        expect(server.calls).toHaveLength(index + 1);
        await vi.advanceTimersByTimeAsync(1);
        expect(server.calls).toHaveLength(index + 2);
      }
    });

    it('stops at a 4xx (a refused status token) and reports it', async () => {
      server.clientError(403, 'INVALID_STATUS_TOKEN');
      const host = await mountAndStart();
      await settle();
      expect(host.errors).toHaveLength(1);
      expect(host.errors[0]).toMatchObject({ kind: 'rejected', code: 'INVALID_STATUS_TOKEN' });
      expect(host.poller.running).toBe(false);
      await vi.advanceTimersByTimeAsync(120_000);
      expect(server.calls).toHaveLength(1);
      expect(vi.getTimerCount()).toBe(0);
    });
  });

  describe('checkNow()', () => {
    it('drops the current wait and asks at once', async () => {
      server.hold();
      const host = await mountAndStart();
      await settle();
      host.poller.checkNow();
      await settle();
      expect(server.calls[0]!.signal.aborted).toBe(true);
      expect(server.calls).toHaveLength(2);
      // The aborted request is not reported as an error.
      expect(host.errors).toEqual([]);
    });
  });

  describe('while the page is hidden', () => {
    it('aborts the request in flight, schedules nothing, and asks at once when the page shows again', async () => {
      server.hold();
      const host = await mountAndStart();
      await settle();

      setVisibility('hidden');
      await settle();
      expect(server.calls[0]!.signal.aborted).toBe(true);
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(server.calls).toHaveLength(1);
      expect(vi.getTimerCount()).toBe(0);
      expect(host.poller.running).toBe(true);

      server.reply('SUCCEEDED');
      setVisibility('visible');
      await settle();
      expect(server.calls).toHaveLength(2);
      expect(host.statuses.map((s) => s.status)).toEqual(['SUCCEEDED']);
    });

    it('does not start asking until the page shows', async () => {
      setVisibility('hidden');
      server.reply('PENDING');
      const host = await mountAndStart();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(server.calls).toHaveLength(0);
      setVisibility('visible');
      await settle();
      expect(server.calls).toHaveLength(1);
      expect(host.statuses).toHaveLength(1);
    });

    it('asks at once when the browser is back online, instead of waiting out the pause after its failures', async () => {
      vi.spyOn(Math, 'random').mockReturnValue(0);
      server.networkDown().networkDown().networkDown().reply('SUCCEEDED');
      const host = await mountAndStart();
      await vi.advanceTimersByTimeAsync(500 + 1000);
      expect(server.calls).toHaveLength(3);
      // The next pause is 2 s; the connection comes back long before it ends.
      window.dispatchEvent(new Event('online'));
      await settle();
      expect(server.calls).toHaveLength(4);
      expect(host.statuses.map((s) => s.status)).toEqual(['SUCCEEDED']);
      // Stopped at SUCCEEDED, it listens no more.
      window.dispatchEvent(new Event('online'));
      await settle();
      expect(server.calls).toHaveLength(4);
    });

    it('drops a pending retry while hidden', async () => {
      server.networkDown();
      await mountAndStart();
      await settle();
      expect(vi.getTimerCount()).toBe(1);
      setVisibility('hidden');
      expect(vi.getTimerCount()).toBe(0);
    });
  });

  describe('when the host leaves the page', () => {
    it('aborts the request, leaves no timer or listener behind, and resumes when the host comes back', async () => {
      const added = vi.spyOn(document, 'addEventListener');
      const removed = vi.spyOn(document, 'removeEventListener');
      server.networkDown().hold();
      const host = await mountAndStart();
      await vi.advanceTimersByTimeAsync(1000);
      expect(server.calls).toHaveLength(2);

      host.remove();
      const listeners = (spy: typeof added) => spy.mock.calls.filter(([type]) => type === 'visibilitychange').map(([, listener]) => listener);
      expect(listeners(added)).toHaveLength(1);
      expect(listeners(removed)).toContain(listeners(added)[0]);
      expect(server.calls[1]!.signal.aborted).toBe(true);
      expect(host.poller.running).toBe(false);
      expect(vi.getTimerCount()).toBe(0);
      setVisibility('hidden');
      setVisibility('visible');
      await vi.advanceTimersByTimeAsync(60_000);
      expect(server.calls).toHaveLength(2);

      document.body.append(host);
      await settle();
      expect(host.poller.running).toBe(true);
      expect(server.calls).toHaveLength(3);
    });

    it('stop() aborts the request and ends the polling', async () => {
      server.hold();
      const host = await mountAndStart();
      await settle();
      host.poller.stop();
      expect(server.calls[0]!.signal.aborted).toBe(true);
      expect(host.poller.running).toBe(false);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(server.calls).toHaveLength(1);
      expect(host.errors).toEqual([]);
    });
  });
});
