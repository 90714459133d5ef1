import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient, ServiceUnavailableError, ValidationError } from '../../../src/server/index.js';
import { collectGarbage } from '../../support/collect-garbage.js';

/**
 * A service that accepts every connection and never answers: without a deadline each call would
 * be held for the attempt timeout (30 s) times the attempts (3), over 90 s.
 */
let hung: Server;
let baseUrl: string;
const held: unknown[] = [];

beforeAll(async () => {
  hung = createServer((req) => held.push(req));
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(hung.address() as AddressInfo).port}`;
});

afterAll(async () => {
  hung.closeAllConnections();
  await new Promise((resolve) => hung.close(resolve));
});

/** Room for a busy machine; still far below the 90 s a call took without its deadline. */
const MARGIN_MS = 3_000;

describe('a call to a service that never answers', () => {
  const client = () => new ServiceClient({ baseUrl, merchantId: 'm_1', apiKey: 'sk_test_deadline', retryBaseDelayMs: 10 });

  describe('with deadlineMs', () => {
    it('rejects with a retryable TIMEOUT_ERROR once the deadline passes, across its retries', async () => {
      const started = Date.now();
      const error = await client()
        .charges.get('ch_1', { deadlineMs: 800 })
        .catch((e: unknown) => e);
      const tookMs = Date.now() - started;
      expect(error).toBeInstanceOf(ServiceUnavailableError);
      expect(error).toMatchObject({ errorCode: 'TIMEOUT_ERROR', retryable: true });
      expect((error as Error).message).toContain("deadline of 800 ms");
      expect(tookMs).toBeGreaterThanOrEqual(750);
      expect(tookMs).toBeLessThan(800 + MARGIN_MS);
    });

    it('bounds a POST the same way, whatever the per-attempt timeout', async () => {
      const started = Date.now();
      const error = await client()
        .refunds.create({ chargeId: 'ch_1' }, { deadlineMs: 600, timeoutMs: 30_000 })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ errorCode: 'TIMEOUT_ERROR' });
      expect(Date.now() - started).toBeLessThan(600 + MARGIN_MS);
    });
  });

  it('closes the request on the wire when the caller gives up, after a garbage collection too', async () => {
    // The transport hands fetch a Request; Node's fetch sends a copy, which stops following the
    // Request's signal once a garbage collection took it (nodejs/undici#4068). The call must hold
    // it until the answer, or a caller's abort would end the call and leave the request open.
    const viaFetch = new ServiceClient({ baseUrl, merchantId: 'm_1', apiKey: 'sk_test_deadline', fetch: (request) => globalThis.fetch(request) });
    const arrived = new Promise<IncomingMessage>((resolve) => hung.once('request', resolve));
    const caller = new AbortController();
    const call = viaFetch.charges.get('ch_gc', { signal: caller.signal }).catch((e: unknown) => e);
    const request = await arrived;
    const closed = new Promise((resolve) => request.socket.once('close', resolve));
    collectGarbage();
    caller.abort(new Error('the shopper left'));
    expect(await call).toBe(caller.signal.reason);
    await closed;
  });

  it('refuses a deadline that is not a positive number of milliseconds', async () => {
    for (const deadlineMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(client().charges.get('ch_1', { deadlineMs })).rejects.toBeInstanceOf(ValidationError);
    }
  });
});
