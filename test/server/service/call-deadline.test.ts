import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient, ServiceUnavailableError, ValidationError } from '../../../src/server/index.js';

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

  it('refuses a deadline that is not a positive number of milliseconds', async () => {
    for (const deadlineMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(client().charges.get('ch_1', { deadlineMs })).rejects.toBeInstanceOf(ValidationError);
    }
  });
});
