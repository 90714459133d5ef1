/**
 * The README's Express server ("A server with `satang/server`"), run as it is written against the
 * sandbox: a card payment goes through its checkout handler while one client trickles its headers
 * and another its body to the shop's own JSON route; the server cuts both off by the deadlines it
 * sets, as node:http's defaults (60 s for headers, 300 s in all, checked every 30 s) would not.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, vi } from 'vitest';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
import { codeBlockWith, runDocModule } from '../support/doc-code.js';
import { CLIENT_AUTH, FUTURE_EXPIRY_YEAR } from '../support/sandbox-client.js';
import { sandboxTest } from '../support/sandbox-fixture.js';

/** Room for a busy machine past a deadline and node:http's check interval; far below the minute and more of the defaults. */
const MARGIN_MS = 3_000;

let server: Server | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  if (!server) return;
  const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
  server.closeAllConnections();
  await closed;
  server = undefined;
});

/**
 * Opens a connection, sends `head`, then one more `piece` every 200 ms, never finishing; resolves
 * with what the server answered once it closes the connection, and how long that took.
 */
function trickle(port: number, head: string, piece: string): Promise<{ answer: string; tookMs: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(head);
      timer = setInterval(() => socket.write(piece), 200);
    });
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    const done = () => {
      clearInterval(timer);
      resolve({ answer, tookMs: performance.now() - started });
    };
    socket.on('close', done);
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? done() : reject(error)));
  });
}

describe("the README's Express server", () => {
  sandboxTest('takes a card payment, and cuts off requests that trickle in by the deadlines it sets', { timeout: 60_000 }, async ({ sandbox }) => {
    const block = await codeBlockWith('README.md', ["from 'express'", 'createServer(']);
    // What the README's block before it defines: `checkout`, here pointed at this test's sandbox.
    const prelude = `import { createCheckoutHandler } from 'satang/server';
const checkout = createCheckoutHandler({
  service: { baseUrl: ${JSON.stringify(sandbox.url)}, merchantId: ${JSON.stringify(SANDBOX_DEFAULTS.merchantId)}, apiKey: ${JSON.stringify(SANDBOX_DEFAULTS.apiKey)} },
  resolveOrder: async (orderReference) => (orderReference === 'order-1001' ? { amount: 12900, currency: 'THB', referenceId: orderReference } : null),
  basePath: '/api/checkout',
  publicUrl: 'https://shop.example',
  rateLimit: false,
});
export { checkout };`;
    vi.stubEnv('PORT', '0');
    const shop = await runDocModule<{ server?: Server; checkout: { orderToken(reference: string): Promise<string> } }>(block, { prelude, epilogue: 'export { server };' });
    expect(shop.server, 'the block names its server `server`').toBeDefined();
    server = shop.server!;
    if (!server.listening) await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const url = `http://127.0.0.1:${String(port)}`;
    // A checkout's deadlines: seconds, checked every second.
    expect(server.headersTimeout).toBeLessThanOrEqual(10_000);
    expect(server.requestTimeout).toBeLessThanOrEqual(15_000);

    // Headers that never end, and a JSON body that never ends on the shop's own route (express.json() reads it).
    const slowHeaders = trickle(port, 'GET / HTTP/1.1\r\nhost: shop.example\r\n', 'x-slow: 1\r\n');
    const slowBody = trickle(port, 'POST /orders HTTP/1.1\r\nhost: shop.example\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n{', ' ');

    // Meanwhile a shopper pays: the card tokenized at the sandbox, charged through the handler, and read to its end.
    const tokenized = await fetch(`${sandbox.url}/client/v1/card-tokens`, {
      method: 'POST',
      headers: { authorization: CLIENT_AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ pan: '4111111111111111', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee' }),
    });
    const { id: cardTokenId } = (await tokenized.json()) as { id: string };
    const created = await fetch(`${url}/api/checkout/charges`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'readme-express-1', 'x-satang-order-token': await shop.checkout.orderToken('order-1001') },
      body: JSON.stringify({ orderReference: 'order-1001', amount: 12_900, currency: 'THB', paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '123' } }),
    });
    expect(created.status).toBe(201);
    const charge = (await created.json()) as { chargeId: string; statusToken: string };
    const status = await fetch(`${url}/api/checkout/charges/${charge.chargeId}/status?wait=5`, { headers: { 'x-satang-status-token': charge.statusToken } });
    expect(await status.json()).toEqual({ chargeId: charge.chargeId, status: 'SUCCEEDED', failureCode: null, outcome: 'paid' });

    const [headers, body] = await Promise.all([slowHeaders, slowBody]);
    expect(headers.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(headers.tookMs).toBeGreaterThanOrEqual(server.headersTimeout - 50);
    expect(headers.tookMs).toBeLessThan(server.headersTimeout + MARGIN_MS);
    expect(body.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(body.tookMs).toBeGreaterThanOrEqual(server.requestTimeout - 50);
    expect(body.tookMs).toBeLessThan(server.requestTimeout + MARGIN_MS);
  });
});
