import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { base64Encode } from '../../../src/core/base64.js';
import { SERVICE_HEADERS } from '../../../src/core/constants.js';
import { verifyWebhookSignature } from '../../../src/core/webhook-signature.js';
import {
  computeWebhookRetryDelayMs,
  WebhookDispatcher,
  type WebhookDispatcherOptions,
} from '../../../src/sandbox/webhooks/webhook-dispatcher.js';

const KEY_BASE64 = base64Encode(crypto.getRandomValues(new Uint8Array(32)));
const FAST_RETRY_BASE_DELAY_MS = 5;
const FAST_TIMEOUT_MS = 100;
/** A receiver that answers is given plenty: a busy machine must not turn its answer into a timeout. */
const ANSWERED_TIMEOUT_MS = 5_000;
const CHARGE = { id: 'ch_test_1', status: 'SUCCEEDED', amount: 12_345, currency: 'THB', description: 'ชาไทย 2 แก้ว' };

interface ReceivedRequest {
  method: string | undefined;
  path: string | undefined;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** What the receiver does with its n-th request (0-based): answer with a status, or never answer. */
type Respond = (index: number) => number | 'hang';

interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Requests whose connection the client dropped before an answer was sent. */
  hungUp: number;
}

const servers: Server[] = [];
const dispatchers: WebhookDispatcher[] = [];

afterEach(async () => {
  for (const dispatcher of dispatchers.splice(0)) dispatcher.close();
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

async function startReceiver(respond: Respond = () => 200): Promise<Receiver> {
  const receiver: Receiver = { url: '', requests: [], hungUp: 0 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const index = receiver.requests.length;
      receiver.requests.push({ method: request.method, path: request.url, headers: request.headers, body: Buffer.concat(chunks) });
      const answer = respond(index);
      if (answer === 'hang') {
        response.on('close', () => {
          if (!response.writableEnded) receiver.hungUp++;
        });
        return;
      }
      response.writeHead(answer, answer >= 300 && answer < 400 ? { Location: '/elsewhere' } : {});
      response.end(`answer ${answer}`);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return receiver;
}

/** A URL on which nothing listens: the port was just released. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/webhooks`;
}

function dispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const created = new WebhookDispatcher({
    webhookKeyBase64: KEY_BASE64,
    retryBaseDelayMs: FAST_RETRY_BASE_DELAY_MS,
    timeoutMs: ANSWERED_TIMEOUT_MS,
    ...options,
  });
  dispatchers.push(created);
  return created;
}

describe('WebhookDispatcher', () => {
  describe('when the receiver answers 200', () => {
    it('posts the resource with the event header and a signature valid over the raw bytes received', async () => {
      const receiver = await startReceiver();
      const webhooks = dispatcher({ url: receiver.url });

      const sent = webhooks.send('charge.succeeded', CHARGE, CHARGE.id);
      await webhooks.idle();

      expect(receiver.requests).toHaveLength(1);
      const [request] = receiver.requests;
      expect(request?.method).toBe('POST');
      expect(request?.path).toBe('/webhooks');
      expect(request?.headers['content-type']).toBe('application/json');
      expect(request?.headers['user-agent']).toBe('satang-sandbox');
      expect(request?.headers[SERVICE_HEADERS.event.toLowerCase()]).toBe('charge.succeeded');
      const signature = request?.headers[SERVICE_HEADERS.signature.toLowerCase()];
      expect(typeof signature).toBe('string');
      expect(await verifyWebhookSignature(request?.body ?? new Uint8Array(), signature as string, KEY_BASE64)).toBe(true);
      expect(JSON.parse(request?.body.toString('utf8') ?? '')).toEqual(CHARGE);

      const delivery = webhooks.get(sent?.deliveryId ?? '');
      expect(delivery).toMatchObject({
        event: 'charge.succeeded',
        resourceId: CHARGE.id,
        url: receiver.url,
        status: 'DELIVERED',
        nextAttemptAt: null,
        body: request?.body.toString('utf8'),
      });
      expect(delivery?.deliveryId).toMatch(/^whd_[0-9A-Za-z]+$/);
      expect(delivery?.attempts).toEqual([{ at: expect.any(String), httpStatus: 200, error: null, durationMs: expect.any(Number) }]);
    });

    it('stamps the delivery and its attempts with the injected clock', async () => {
      const receiver = await startReceiver();
      const fixedNow = new Date('2030-01-02T03:04:05.000Z');
      const webhooks = dispatcher({ url: receiver.url, now: () => fixedNow });

      const sent = webhooks.send('charge.succeeded', CHARGE, CHARGE.id);
      await webhooks.idle();

      const delivery = webhooks.get(sent?.deliveryId ?? '');
      expect(delivery?.createdAt).toBe(fixedNow.toISOString());
      expect(delivery?.attempts[0]?.at).toBe(fixedNow.toISOString());
    });
  });

  describe('when the receiver answers 500 twice', () => {
    it('delivers on the third attempt with the same signed body each time', async () => {
      const receiver = await startReceiver((index) => (index < 2 ? 500 : 200));
      const webhooks = dispatcher({ url: receiver.url });

      const sent = webhooks.send('refund.succeeded', { id: 'rf_1' }, 'rf_1');
      await webhooks.idle();

      const delivery = webhooks.get(sent?.deliveryId ?? '');
      expect(delivery?.status).toBe('DELIVERED');
      expect(delivery?.attempts.map((attempt) => attempt.httpStatus)).toEqual([500, 500, 200]);
      expect(delivery?.attempts.map((attempt) => attempt.error)).toEqual([null, null, null]);
      expect(receiver.requests).toHaveLength(3);
      const bodies = new Set(receiver.requests.map((request) => request.body.toString('utf8')));
      const signatures = new Set(receiver.requests.map((request) => request.headers[SERVICE_HEADERS.signature.toLowerCase()]));
      expect(bodies.size).toBe(1);
      expect(signatures.size).toBe(1);
    });
  });

  describe('when the receiver always answers 500', () => {
    it('makes exactly maxAttempts attempts, then marks the delivery FAILED', async () => {
      const receiver = await startReceiver(() => 500);
      const webhooks = dispatcher({ url: receiver.url, maxAttempts: 4 });

      const sent = webhooks.send('charge.failed', CHARGE, CHARGE.id);
      await webhooks.idle();

      const delivery = webhooks.get(sent?.deliveryId ?? '');
      expect(delivery?.status).toBe('FAILED');
      expect(delivery?.nextAttemptAt).toBeNull();
      expect(delivery?.attempts.map((attempt) => attempt.httpStatus)).toEqual([500, 500, 500, 500]);
      expect(receiver.requests).toHaveLength(4);
    });
  });

  describe('when the receiver redirects', () => {
    it('does not follow the redirect and retries, because only a 2xx acknowledges', async () => {
      const receiver = await startReceiver((index) => (index === 0 ? 302 : 204));
      const webhooks = dispatcher({ url: receiver.url });

      const sent = webhooks.send('charge.succeeded', CHARGE, CHARGE.id);
      await webhooks.idle();

      expect(webhooks.get(sent?.deliveryId ?? '')?.attempts.map((attempt) => attempt.httpStatus)).toEqual([302, 204]);
      expect(receiver.requests.map((request) => request.path)).toEqual(['/webhooks', '/webhooks']);
    });
  });

  describe('when the receiver never answers', () => {
    it('records each attempt as a timeout and gives up after maxAttempts', async () => {
      const receiver = await startReceiver(() => 'hang');
      const webhooks = dispatcher({ url: receiver.url, maxAttempts: 2, timeoutMs: FAST_TIMEOUT_MS });

      const sent = webhooks.send('charge.succeeded', CHARGE, CHARGE.id);
      await webhooks.idle();

      const delivery = webhooks.get(sent?.deliveryId ?? '');
      expect(delivery?.status).toBe('FAILED');
      expect(delivery?.attempts).toHaveLength(2);
      for (const attempt of delivery?.attempts ?? []) {
        expect(attempt.httpStatus).toBeNull();
        expect(attempt.error).toBe(`timed out after ${FAST_TIMEOUT_MS} ms`);
        // Timers may fire a little early; the attempt still lasted about the timeout.
        expect(attempt.durationMs).toBeGreaterThanOrEqual(FAST_TIMEOUT_MS - 10);
      }
      expect(receiver.requests).toHaveLength(2);
    });
  });

  describe('when the connection is refused', () => {
    it('records error attempts without a status and retries them', async () => {
      const url = await closedPortUrl();
      const webhooks = dispatcher({ url, maxAttempts: 3 });

      const sent = webhooks.send('charge.succeeded', CHARGE, CHARGE.id);
      await webhooks.idle();

      const delivery = webhooks.get(sent?.deliveryId ?? '');
      expect(delivery?.status).toBe('FAILED');
      expect(delivery?.attempts).toHaveLength(3);
      for (const attempt of delivery?.attempts ?? []) {
        expect(attempt.httpStatus).toBeNull();
        expect(attempt.error).toMatch(/ECONNREFUSED/);
      }
    });
  });

  describe('while a retry is scheduled', () => {
    it('reports when it is due, between half and all of the nominal delay', async () => {
      const receiver = await startReceiver(() => 500);
      const fixedNow = new Date('2030-01-02T03:04:05.000Z');
      const retryBaseDelayMs = 10_000;
      const webhooks = dispatcher({ url: receiver.url, now: () => fixedNow, retryBaseDelayMs });

      const sent = webhooks.send('charge.succeeded', CHARGE, CHARGE.id);
      await vi.waitFor(() => expect(webhooks.get(sent?.deliveryId ?? '')?.nextAttemptAt).not.toBeNull());

      const delivery = webhooks.get(sent?.deliveryId ?? '');
      expect(delivery?.status).toBe('PENDING');
      const dueInMs = Date.parse(delivery?.nextAttemptAt ?? '') - fixedNow.getTime();
      expect(dueInMs).toBeGreaterThanOrEqual(retryBaseDelayMs / 2);
      expect(dueInMs).toBeLessThanOrEqual(retryBaseDelayMs);
    });

    it('never waits longer than maxRetryDelayMs', async () => {
      const receiver = await startReceiver(() => 500);
      const fixedNow = new Date('2030-01-02T03:04:05.000Z');
      const webhooks = dispatcher({ url: receiver.url, now: () => fixedNow, retryBaseDelayMs: 10_000, maxRetryDelayMs: 2_000 });

      const sent = webhooks.send('charge.succeeded', CHARGE, CHARGE.id);
      await vi.waitFor(() => expect(webhooks.get(sent?.deliveryId ?? '')?.nextAttemptAt).not.toBeNull());

      const dueInMs = Date.parse(webhooks.get(sent?.deliveryId ?? '')?.nextAttemptAt ?? '') - fixedNow.getTime();
      expect(dueInMs).toBeGreaterThanOrEqual(1_000);
      expect(dueInMs).toBeLessThanOrEqual(2_000);
    });
  });

  describe('close()', () => {
    it('cancels a scheduled retry, so the receiver sees no further attempt', async () => {
      const receiver = await startReceiver(() => 500);
      const retryBaseDelayMs = 200;
      const webhooks = dispatcher({ url: receiver.url, retryBaseDelayMs });

      const sent = webhooks.send('charge.succeeded', CHARGE, CHARGE.id);
      // The retry is due 100-200 ms after the first attempt; close well before that.
      await vi.waitFor(() => expect(webhooks.get(sent?.deliveryId ?? '')?.nextAttemptAt).not.toBeNull(), { interval: 5 });
      expect(webhooks.get(sent?.deliveryId ?? '')?.attempts).toHaveLength(1);
      webhooks.close();
      await webhooks.idle();
      await new Promise((resolve) => setTimeout(resolve, retryBaseDelayMs + 100));

      expect(receiver.requests).toHaveLength(1);
      expect(webhooks.get(sent?.deliveryId ?? '')).toMatchObject({ status: 'FAILED', nextAttemptAt: null });
    });

    it('aborts a request in flight', async () => {
      const receiver = await startReceiver(() => 'hang');
      const webhooks = dispatcher({ url: receiver.url, timeoutMs: 5_000 });

      const sent = webhooks.send('charge.succeeded', CHARGE, CHARGE.id);
      await vi.waitFor(() => expect(receiver.requests).toHaveLength(1));
      webhooks.close();
      await webhooks.idle();

      expect(webhooks.get(sent?.deliveryId ?? '')?.status).toBe('FAILED');
      await vi.waitFor(() => expect(receiver.hungUp).toBe(1));
      await vi.waitFor(() =>
        expect(webhooks.get(sent?.deliveryId ?? '')?.attempts).toEqual([
          expect.objectContaining({ httpStatus: null, error: 'dispatcher closed' }),
        ]),
      );
    });

    it('turns later send() and redeliver() into no-ops', async () => {
      const receiver = await startReceiver();
      const webhooks = dispatcher({ url: receiver.url });
      const first = webhooks.send('charge.succeeded', CHARGE, CHARGE.id);
      await webhooks.idle();

      webhooks.close();

      expect(webhooks.send('charge.succeeded', CHARGE, CHARGE.id)).toBeUndefined();
      expect(webhooks.redeliver(first?.deliveryId ?? '')).toBeUndefined();
      await webhooks.idle();
      expect(receiver.requests).toHaveLength(1);
      expect(webhooks.list()).toHaveLength(1);
    });
  });

  describe('redeliver()', () => {
    it('sends the same event and body again as a new delivery', async () => {
      const receiver = await startReceiver();
      const webhooks = dispatcher({ url: receiver.url });
      const original = webhooks.send('charge.succeeded', CHARGE, CHARGE.id);
      await webhooks.idle();

      const again = webhooks.redeliver(original?.deliveryId ?? '');
      await webhooks.idle();

      expect(again?.deliveryId).toMatch(/^whd_/);
      expect(again?.deliveryId).not.toBe(original?.deliveryId);
      expect(webhooks.get(again?.deliveryId ?? '')).toMatchObject({
        event: 'charge.succeeded',
        resourceId: CHARGE.id,
        body: original?.body,
        status: 'DELIVERED',
      });
      expect(receiver.requests).toHaveLength(2);
      expect(receiver.requests[1]?.body.equals(receiver.requests[0]?.body ?? Buffer.alloc(0))).toBe(true);
      expect(receiver.requests[1]?.headers[SERVICE_HEADERS.event.toLowerCase()]).toBe('charge.succeeded');
      expect(webhooks.list().map((delivery) => delivery.deliveryId)).toEqual([again?.deliveryId, original?.deliveryId]);
    });

    it('returns undefined for an unknown delivery id', async () => {
      const receiver = await startReceiver();
      const webhooks = dispatcher({ url: receiver.url });

      expect(webhooks.redeliver('whd_unknown')).toBeUndefined();
      await webhooks.idle();
      expect(receiver.requests).toHaveLength(0);
    });
  });

  describe('without a url or a key', () => {
    it('is disabled and sends nothing', async () => {
      const receiver = await startReceiver();
      const withoutKey = dispatcher({ url: receiver.url, webhookKeyBase64: undefined });
      const withEmptyKey = dispatcher({ url: receiver.url, webhookKeyBase64: '' });
      const withoutUrl = dispatcher({});

      for (const webhooks of [withoutKey, withEmptyKey, withoutUrl]) {
        expect(webhooks.enabled).toBe(false);
        expect(webhooks.send('charge.succeeded', CHARGE, CHARGE.id)).toBeUndefined();
        await webhooks.idle();
        expect(webhooks.list()).toEqual([]);
      }
      expect(receiver.requests).toHaveLength(0);
    });

    it('is enabled once both are set', async () => {
      const receiver = await startReceiver();
      expect(dispatcher({ url: receiver.url }).enabled).toBe(true);
    });
  });

  describe('when configured wrongly', () => {
    it('refuses a key that is not base64 with a TypeError naming the option', () => {
      expect(() => new WebhookDispatcher({ url: 'http://127.0.0.1:9/', webhookKeyBase64: 'not a key' })).toThrow(/webhookKeyBase64/);
    });

    it('refuses a URL that is not absolute http(s) with a TypeError', () => {
      expect(() => new WebhookDispatcher({ url: 'localhost:3000/hook', webhookKeyBase64: KEY_BASE64 })).toThrow(TypeError);
      expect(() => new WebhookDispatcher({ url: '/hook', webhookKeyBase64: KEY_BASE64 })).toThrow(TypeError);
    });

    it('refuses zero attempts and a negative delay with a RangeError', () => {
      expect(() => new WebhookDispatcher({ maxAttempts: 0 })).toThrow(RangeError);
      expect(() => new WebhookDispatcher({ retryBaseDelayMs: -1 })).toThrow(RangeError);
    });
  });

  describe('when the resource cannot be serialised', () => {
    it('returns undefined instead of throwing', async () => {
      const receiver = await startReceiver();
      const webhooks = dispatcher({ url: receiver.url });
      const circular: Record<string, unknown> = {};
      circular.self = circular;

      expect(webhooks.send('charge.succeeded', circular, 'ch_1')).toBeUndefined();
      expect(webhooks.send('charge.succeeded', { amount: 1n }, 'ch_1')).toBeUndefined();
      expect(webhooks.send('charge.succeeded', undefined, 'ch_1')).toBeUndefined();
      await webhooks.idle();
      expect(receiver.requests).toHaveLength(0);
    });
  });

  describe('the log', () => {
    it('lists deliveries newest first', async () => {
      const receiver = await startReceiver();
      const webhooks = dispatcher({ url: receiver.url });

      webhooks.send('charge.succeeded', { id: 'a' }, 'a');
      webhooks.send('charge.succeeded', { id: 'b' }, 'b');
      webhooks.send('charge.succeeded', { id: 'c' }, 'c');
      await webhooks.idle();

      expect(webhooks.list().map((delivery) => delivery.resourceId)).toEqual(['c', 'b', 'a']);
    });

    it('keeps at most maxLogEntries, dropping the oldest, while still delivering every one', async () => {
      const receiver = await startReceiver();
      const webhooks = dispatcher({ url: receiver.url, maxLogEntries: 3 });

      const sent = ['1', '2', '3', '4', '5'].map((id) => webhooks.send('transaction.created', { id }, id));
      await webhooks.idle();

      expect(webhooks.list().map((delivery) => delivery.resourceId)).toEqual(['5', '4', '3']);
      expect(webhooks.get(sent[0]?.deliveryId ?? '')).toBeUndefined();
      expect(webhooks.get(sent[1]?.deliveryId ?? '')).toBeUndefined();
      expect(receiver.requests).toHaveLength(5);
    });

    it('hands out copies that neither change with later attempts nor change the log', async () => {
      const receiver = await startReceiver();
      const webhooks = dispatcher({ url: receiver.url });

      const sent = webhooks.send('charge.succeeded', CHARGE, CHARGE.id);
      await webhooks.idle();
      const listed = webhooks.list()[0];
      listed?.attempts.push({ at: 'x', httpStatus: 999, error: null, durationMs: 0 });
      if (listed) listed.status = 'FAILED';

      expect(sent?.status).toBe('PENDING');
      expect(sent?.attempts).toEqual([]);
      expect(webhooks.get(sent?.deliveryId ?? '')?.status).toBe('DELIVERED');
      expect(webhooks.get(sent?.deliveryId ?? '')?.attempts).toHaveLength(1);
    });
  });

  describe('idle()', () => {
    it('resolves at once when nothing was sent', async () => {
      const webhooks = dispatcher({ url: 'http://127.0.0.1:9/' });
      await expect(webhooks.idle()).resolves.toBeUndefined();
    });
  });
});

describe('computeWebhookRetryDelayMs', () => {
  const lowestRandom = (): number => 0;
  const highestRandom = (): number => 0.999_999;

  it('doubles the nominal delay after each failed attempt', () => {
    const delaysMs = [1, 2, 3, 4, 5].map((failed) => computeWebhookRetryDelayMs(failed, 1_000, 60_000, highestRandom));
    expect(delaysMs).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
  });

  it('waits at least half of the nominal delay whatever the jitter', () => {
    expect(computeWebhookRetryDelayMs(3, 1_000, 60_000, lowestRandom)).toBe(2_000);
  });

  it('caps the delay at maxRetryDelayMs', () => {
    expect(computeWebhookRetryDelayMs(9, 1_000, 60_000, highestRandom)).toBe(60_000);
    expect(computeWebhookRetryDelayMs(9, 1_000, 60_000, lowestRandom)).toBe(30_000);
  });

  it('spreads retries across the upper half of the nominal delay', () => {
    const delaysMs = new Set(Array.from({ length: 50 }, () => computeWebhookRetryDelayMs(4, 1_000, 60_000)));
    expect(delaysMs.size).toBeGreaterThan(1);
    for (const delayMs of delaysMs) {
      expect(delayMs).toBeGreaterThanOrEqual(4_000);
      expect(delayMs).toBeLessThanOrEqual(8_000);
    }
  });
});
