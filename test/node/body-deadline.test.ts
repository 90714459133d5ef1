/**
 * A body that arrives a byte at a time must not hold a request (and its socket) open: the Node
 * adapter answers 408 once the body has taken longer than its deadline, and closes the connection.
 * Before this, bodies sent a byte every 5 s stayed open for minutes.
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BODY_READ_TIMEOUT_MS } from '../../src/core/request-body.js';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
import { createCheckoutHandler, toNodeListener, type NodeListenerOptions } from '../../src/server/index.js';
import { sandboxTest } from '../support/sandbox-fixture.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

const BODY_TIMEOUT_MS = 500;
/** Room for a busy machine; far below the minutes a dribbled body stayed open. */
const MARGIN_MS = 2_500;

async function listen(handler: (request: Request) => Promise<Response>, options: NodeListenerOptions): Promise<number> {
  const server = createServer(toNodeListener(handler, options));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Sends a request whose body never finishes (a byte every 100 ms); resolves with the answer once the server closes. */
function dribble(port: number, path: string, head: Record<string, string>): Promise<{ answer: string; tookMs: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setInterval> | undefined;
    // A chunked body dribbles one-byte chunks.
    const piece = (text: string) => (head['transfer-encoding'] === 'chunked' ? `1\r\n${text}\r\n` : text);
    const socket = connect(port, '127.0.0.1', () => {
      const lines = Object.entries(head).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.write(`POST ${path} HTTP/1.1\r\nhost: shop.example\r\n${lines.join('')}\r\n${piece('{')}`);
      timer = setInterval(() => socket.write(piece(' ')), 100);
    });
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    const done = () => {
      clearInterval(timer);
      resolve({ answer, tookMs: Date.now() - started });
    };
    socket.on('close', done);
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? done() : reject(error)));
  });
}

describe('toNodeListener and a body that never finishes', () => {
  it('has a default body deadline of 10 s', () => {
    expect(BODY_READ_TIMEOUT_MS).toBe(10_000);
  });

  sandboxTest('answers the checkout handler 408 REQUEST_TIMEOUT by the deadline and closes the connection', async ({ sandbox }) => {
    const handler = createCheckoutHandler({
      service: { baseUrl: sandbox.url, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey },
      resolveOrder: () => null,
      basePath: '/api/checkout',
      publicUrl: 'https://shop.example',
      rateLimit: false,
    });
    const port = await listen(handler, { bodyTimeoutMs: BODY_TIMEOUT_MS });
    const { answer, tookMs } = await dribble(port, '/api/checkout/charges', { 'content-type': 'application/json', 'content-length': '5000' });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"errorCode":"REQUEST_TIMEOUT"');
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(tookMs).toBeLessThan(BODY_TIMEOUT_MS + MARGIN_MS);
  });

  it.each([
    ['a declared length', { 'content-length': '5000' }],
    ['a chunked body', { 'transfer-encoding': 'chunked' }],
  ])('answers a Fetch handler 408 with %s', async (_, head) => {
    const port = await listen(async (request) => new Response(await request.text()), { bodyTimeoutMs: BODY_TIMEOUT_MS });
    const { answer, tookMs } = await dribble(port, '/echo', head);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(tookMs).toBeLessThan(BODY_TIMEOUT_MS + MARGIN_MS);
  });

  it('refuses a body deadline that is not a positive number of milliseconds', () => {
    expect(() => toNodeListener(async () => new Response(null), { bodyTimeoutMs: 0 })).toThrow(/bodyTimeoutMs/);
  });
});

describe('listenSandbox', () => {
  sandboxTest('bounds how long a request may take to arrive, headers and body', ({ sandbox }) => {
    expect(sandbox.server.headersTimeout).toBeLessThanOrEqual(BODY_READ_TIMEOUT_MS);
    expect(sandbox.server.requestTimeout).toBeLessThanOrEqual(BODY_READ_TIMEOUT_MS + 5_000);
    expect(sandbox.server.requestTimeout).toBeGreaterThan(0);
  });
});
