/**
 * The service client on Node without a `fetch` of the caller's: node:http on one keep-alive
 * agent. Against a real server on a socket: what it sends, that it reuses its connection, and how
 * it meets a hang, a cut answer, a redirect and a replaced global fetch.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServiceClient, ServiceUnavailableError } from '../../../src/server/index.js';
import { rejection } from '../../support/rejection.js';

const CHARGE = { chargeId: 'ch_1', merchantId: 'mch_1', source: 'API', amount: 10_000, currency: 'THB', status: 'PENDING', paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY' }, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' };

let server: Server | undefined;
afterEach(async () => {
  vi.unstubAllGlobals();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
  const sockets = new Set<Socket>();
  const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handle(req, res, body);
    });
  });
  server.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new ServiceClient({ baseUrl, merchantId: 'mch_1', apiKey: 'sk_test_1', retryBaseDelayMs: 1, timeoutMs: 500 });
  return { client, seen, sockets };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};

describe('the service client over node:http', () => {
  it('sends the key, the idempotency key and the JSON body, reads the request id, and keeps one connection for many calls', async () => {
    const { client, seen, sockets } = await serve((_req, res) => json(res, 200, CHARGE, { 'x-beam-request-id': 'req_42' }));
    for (let i = 0; i < 5; i += 1) expect((await client.charges.get('ch_1')).chargeId).toBe('ch_1');
    await client.refunds.create({ chargeId: 'ch_1' }).catch(() => undefined);
    expect(sockets.size).toBe(1);
    const post = seen.at(-1)!;
    expect(post).toMatchObject({ method: 'POST', url: '/api/v1/refunds', body: JSON.stringify({ chargeId: 'ch_1' }) });
    expect(post.headers.authorization).toBe(`Basic ${Buffer.from('mch_1:sk_test_1').toString('base64')}`);
    expect(post.headers['x-beam-idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(post.headers['content-length']).toBe(String(post.body.length));
    expect(seen[0]!.headers['x-beam-idempotency-key']).toBeUndefined();
  });

  it('gives up on an attempt that gets no answer within its timeout, and retries it', async () => {
    let calls = 0;
    const { client } = await serve((_req, res) => {
      calls += 1;
      if (calls < 3) return; // never answers
      json(res, 200, CHARGE);
    });
    expect((await client.charges.get('ch_1')).chargeId).toBe('ch_1');
    expect(calls).toBe(3);
  });

  it('fails with TIMEOUT_ERROR, not a network error, when no attempt gets its answer in time', async () => {
    let calls = 0;
    const { client } = await serve(() => {
      calls += 1; // never answers
    });
    const error = await rejection(client.charges.get('ch_1'));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.errorCode).toBe('TIMEOUT_ERROR');
    expect(error.message).toContain('within 500 ms');
    expect(calls).toBe(3);
  });

  it('drops the request when the caller aborts, and rejects with the caller’s reason', async () => {
    let socketClosed: (() => void) | undefined;
    let requestArrived: (() => void) | undefined;
    const closed = new Promise<void>((resolve) => (socketClosed = resolve));
    const arrived = new Promise<void>((resolve) => (requestArrived = resolve));
    const { client } = await serve((req) => {
      req.socket.once('close', () => socketClosed?.());
      requestArrived?.(); // never answers
    });
    const caller = new AbortController();
    const call = rejection(client.charges.get('ch_1', { signal: caller.signal, timeoutMs: 60_000 }));
    await arrived;
    const reason = new Error('the shopper left');
    caller.abort(reason);
    expect(await call).toBe(reason);
    await closed;
  });

  it('retries an answer cut short, and fails with the network error when it keeps being cut', async () => {
    const { client } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      // Cut once the first bytes are out.
      res.write('{"chargeId":', () => res.socket?.destroy());
    });
    const error = await rejection(client.charges.get('ch_1'));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.errorCode).toBe('NETWORK_ERROR');
  });

  it('does not follow a redirect: the key is not carried elsewhere', async () => {
    const { client, seen } = await serve((_req, res) => res.writeHead(302, { location: 'http://127.0.0.1:1/steal' }).end());
    const error = await rejection(client.charges.get('ch_1'));
    expect(error.status).toBe(302);
    expect(seen).toHaveLength(1);
  });

  it('uses the global fetch when something replaced it (instrumentation, a mock)', async () => {
    const { client, seen } = await serve((_req, res) => json(res, 200, CHARGE));
    const calls: string[] = [];
    const original = globalThis.fetch;
    vi.stubGlobal('fetch', (input: Request) => {
      calls.push(input.url);
      return original(input);
    });
    expect((await client.charges.get('ch_1')).chargeId).toBe('ch_1');
    expect(calls).toEqual([expect.stringMatching(/\/api\/v1\/charges\/ch_1$/)]);
    expect(seen).toHaveLength(1);
  });
});
