import { Agent, request } from 'node:http';
import { describe, expect } from 'vitest';
import { ServiceErrorBodySchema } from '../../../src/core/service-error.js';
import { IDEMPOTENCY_KEYS } from '../../../src/sandbox/http/idempotency.js';
import { SANDBOX_DEFAULTS, SANDBOX_MAX_BODY_BYTES, SANDBOX_MAX_UPLOAD_BYTES, SANDBOX_PAGES_PATH, type Sandbox, type SandboxOptions } from '../../../src/sandbox/index.js';
import { FAULT_RULES } from '../../../src/sandbox/faults/sandbox-faults.js';
import { SLIPS } from '../../../src/sandbox/slips/qr-slips.js';
import { WEBHOOK_DELIVERIES } from '../../../src/sandbox/webhooks/webhook-dispatcher.js';
import { API_AUTH, CLIENT_AUTH, FUTURE_EXPIRY_YEAR, IDEMPOTENCY_HEADER, ORIGIN } from '../../support/sandbox-client.js';
import { sandboxTest } from '../../support/sandbox-fixture.js';

/**
 * A body over the cap is refused with 413 as soon as it passes the cap, whichever endpoint it is
 * sent to and however its length is (mis)declared, and nothing of it is kept: no idempotency
 * record, no resource, no log line carrying it.
 */

const CHUNK = 16 * 1024;

let logged: string[];

/** Sandbox options that log into a fresh `logged` and acknowledge every webhook. */
function loggingOptions(): SandboxOptions {
  logged = [];
  return { log: (line) => logged.push(line), webhook: { url: 'http://127.0.0.1:9/hooks', webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64, fetch: () => Promise.resolve(new Response(null, { status: 204 })) } };
}

/** A body of `total` bytes of JSON text, made a chunk at a time as it is read; counts what was read. */
function countingBody(total: number) {
  const seen = { pulled: 0 };
  const prefix = new TextEncoder().encode('{"cardHolderName":"');
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const size = Math.min(CHUNK, total - seen.pulled);
        if (size <= 0) {
          controller.close();
          return;
        }
        const chunk = new Uint8Array(size).fill(0x61);
        if (seen.pulled === 0) chunk.set(prefix.subarray(0, size));
        seen.pulled += size;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

/** Everything the sandbox keeps, counted: every table of the store and the slices a request could add to. */
function kept(sandbox: Sandbox): Record<string, number> {
  const { store } = sandbox;
  const slips = store.slice(SLIPS);
  return {
    charges: store.charges.size,
    cardTokens: store.cardTokens.size,
    refunds: store.refunds.size,
    transactions: store.transactions.size,
    qrPayloads: store.chargeIdByQrPayload.size,
    idempotencyKeys: store.slice(IDEMPOTENCY_KEYS).size,
    faultRules: store.slice(FAULT_RULES).size,
    faultHits: [...store.slice(FAULT_RULES).values()].reduce((sum, rule) => sum + rule.hits.length, 0),
    webhookDeliveries: store.slice(WEBHOOK_DELIVERIES).size,
    slips: slips.byTransactionRef.size,
  };
}

const ENDPOINTS = [
  { name: 'card tokens', path: '/client/v1/card-tokens', auth: CLIENT_AUTH, type: 'application/json', cap: SANDBOX_MAX_BODY_BYTES },
  { name: 'charges', path: '/api/v1/charges', auth: API_AUTH, type: 'application/json', cap: SANDBOX_MAX_BODY_BYTES },
  { name: 'refunds', path: '/api/v1/refunds', auth: API_AUTH, type: 'application/json', cap: SANDBOX_MAX_BODY_BYTES },
  { name: 'payment links', path: '/api/v1/payment-links', auth: API_AUTH, type: 'application/json', cap: SANDBOX_MAX_BODY_BYTES },
  { name: 'the fault control endpoint', path: '/sandbox/v1/faults', auth: API_AUTH, type: 'application/json', cap: SANDBOX_MAX_BODY_BYTES },
  { name: 'a webhook re-send', path: '/sandbox/v1/webhook-deliveries/whd_x/redeliver', auth: API_AUTH, type: 'application/json', cap: SANDBOX_MAX_BODY_BYTES },
  { name: 'slip verification', path: '/api/v1/charges/verify-qr-slip', auth: API_AUTH, type: 'application/json', cap: SANDBOX_MAX_UPLOAD_BYTES },
  { name: 'a slip picture upload', path: '/api/v1/charges/verify-qr-slip', auth: API_AUTH, type: 'multipart/form-data; boundary=x', cap: SANDBOX_MAX_UPLOAD_BYTES },
  { name: 'the PromptPay payer page', path: `${SANDBOX_PAGES_PATH}/promptpay`, auth: null, type: 'application/x-www-form-urlencoded', cap: SANDBOX_MAX_BODY_BYTES },
  { name: 'the slip page', path: `${SANDBOX_PAGES_PATH}/slips`, auth: null, type: 'application/x-www-form-urlencoded', cap: SANDBOX_MAX_BODY_BYTES },
] as const;

const DECLARATIONS = [
  { name: 'an honest Content-Length', length: (size: number) => String(size) },
  { name: 'a Content-Length that lies low', length: () => '2' },
  { name: 'no Content-Length (chunked)', length: () => undefined },
] as const;

describe.each(ENDPOINTS)('a body over the cap sent to $name', (endpoint) => {
  sandboxTest.for(DECLARATIONS)('with $name is 413 REQUEST_TOO_LARGE_ERROR, read no further than the cap, and leaves nothing behind', async ({ length }, { startInProcess }) => {
    const { sandbox } = startInProcess(loggingOptions());
    sandbox.faults.add({ path: '/nowhere', kind: 'reset' });
    const before = kept(sandbox);
    const size = endpoint.cap * 3;
    const body = countingBody(size);
    const declared = length(size);
    const headers: Record<string, string> = { 'content-type': endpoint.type, [IDEMPOTENCY_HEADER]: 'refused-1' };
    if (endpoint.auth) headers.authorization = endpoint.auth;
    if (declared !== undefined) headers['content-length'] = declared;
    const answer = await sandbox.fetch(new Request(`${ORIGIN}${endpoint.path}`, { method: 'POST', headers, body: body.stream, duplex: 'half' } as RequestInit));

    expect(answer.status).toBe(413);
    const error = ServiceErrorBodySchema.parse(await answer.json());
    expect(error.error.errorCode).toBe('REQUEST_TOO_LARGE_ERROR');
    expect(body.seen.pulled).toBeLessThanOrEqual(declared === String(size) ? 0 : endpoint.cap + CHUNK);
    expect(kept(sandbox)).toEqual(before);
    expect(logged).toHaveLength(1);
    expect(logged[0]!.length).toBeLessThan(200);
  });
});

describe('refused bodies, thousands of them', () => {
  sandboxTest('leave the idempotency store, the store and the request log as they were', async ({ startInProcess }) => {
    const { sandbox } = startInProcess(loggingOptions());
    const before = kept(sandbox);
    const big = JSON.stringify({ pan: '4111111111111111', expiryMonth: 12, expiryYear: 40, cardHolderName: 'a'.repeat(SANDBOX_MAX_BODY_BYTES) });
    for (let i = 0; i < 2_000; i += 1) {
      const [path, auth] = i % 2 === 0 ? ['/client/v1/card-tokens', CLIENT_AUTH] : ['/api/v1/charges', API_AUTH];
      const answer = await sandbox.fetch(
        new Request(`${ORIGIN}${path}`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: `big-${i}` }, body: big }),
      );
      expect(answer.status).toBe(413);
      await answer.body?.cancel();
    }
    expect(kept(sandbox)).toEqual(before);
    expect(logged).toHaveLength(2_000);
    expect(Math.max(...logged.map((line) => line.length))).toBeLessThan(200);
  });
});

describe('over a socket', () => {
  sandboxTest('answers 413 and closes the connection, so the next request on a kept-alive agent is answered too', async ({ sandbox: running }) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (body: string, chunked: boolean) =>
      new Promise<{ status: number | undefined; connection: string | undefined }>((resolve, reject) => {
        const headers: Record<string, string | number> = { authorization: CLIENT_AUTH, 'content-type': 'application/json' };
        if (!chunked) headers['content-length'] = Buffer.byteLength(body);
        const req = request(`${running.url}/client/v1/card-tokens`, { method: 'POST', agent, headers }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode, connection: res.headers.connection }));
        });
        req.on('error', reject);
        req.end(body);
      });
    try {
      const big = JSON.stringify({ cardHolderName: 'a'.repeat(SANDBOX_MAX_BODY_BYTES * 2) });
      const answers = [await post(big, false), await post(big, true), await post(big, false)];
      expect(answers).toEqual(Array(3).fill({ status: 413, connection: 'close' }));
      const valid = JSON.stringify({ pan: '4111111111111111', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee' });
      expect(await post(valid, false)).toEqual({ status: 201, connection: 'keep-alive' });
    } finally {
      agent.destroy();
    }
  });
});
