/**
 * Rate limits tell shoppers apart on every host: on node:http through the Node adapter (the
 * socket), on Hono through the address `getConnInfo` hands the handler, each on a real socket,
 * with shoppers connecting from two loopback addresses. A Fetch mount that hands over no address
 * (and has no other way to tell) refuses, naming the fix, unless the limits are off.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { afterEach, describe, expect, vi } from 'vitest';
import { SANDBOX_DEFAULTS, type RunningSandbox } from '../../../src/sandbox/index.js';
import { createCheckoutHandler, toNodeListener, type CheckoutHandler, type CheckoutHandlerOptions } from '../../../src/server/index.js';
import { createHonoShop, serveHonoShop } from '../../node/fixture/hono-shop.js';
import { SandboxClient } from '../../support/sandbox-client.js';
import { sandboxTest } from '../../support/sandbox-fixture.js';

const ORDERS: Record<string, { amount: number; currency: string; referenceId: string }> = {
  'cart-1': { amount: 12_900, currency: 'THB', referenceId: 'order-1' },
};
/** Two shoppers on one machine: the loopback network is all of 127.0.0.0/8. */
const SHOPPER_A = '127.0.0.1';
const SHOPPER_B = '127.0.0.2';

let server: Server | undefined;
afterEach(async () => {
  const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server?.closeAllConnections();
  await closed;
  server = undefined;
});

function optionsFor(sandbox: RunningSandbox, overrides: Partial<CheckoutHandlerOptions> = {}): CheckoutHandlerOptions {
  return {
    service: { baseUrl: sandbox.url, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey },
    resolveOrder: (reference) => ORDERS[reference] ?? null,
    basePath: '/api/checkout',
    // A window of a day: no test straddles the start of a new one, which would count from zero again.
    rateLimit: { chargesPerWindow: 2, windowMs: 24 * 60 * 60 * 1000 },
    ...overrides,
  };
}

/** One request on a connection of its own from `localAddress`, answered with its status and parsed body. */
function send(url: string, localAddress: string, init: { method: string; path: string; headers?: Record<string, string>; body?: unknown }): Promise<{ status: number; body: any }> {
  const { hostname, port } = new URL(url);
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: hostname, port, localAddress, agent: false, method: init.method, path: init.path, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers } },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: incoming.statusCode ?? 0, body: text === '' ? undefined : JSON.parse(text) });
        });
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** A PromptPay charge of cart-1, as the widget sends it, from `localAddress`. */
async function pay(url: string, checkout: CheckoutHandler, localAddress: string, key: string) {
  const headers = { 'idempotency-key': key, 'x-satang-order-token': await checkout.orderToken('cart-1') };
  return send(url, localAddress, { method: 'POST', path: '/api/checkout/charges', headers, body: { orderReference: 'cart-1', amount: 12_900, currency: 'THB', paymentMethod: { type: 'QR_PROMPT_PAY' } } });
}

/** A charge without an order token from `localAddress`: refused (403), and counted. */
async function strayCharge(url: string, localAddress: string): Promise<number> {
  return (await send(url, localAddress, { method: 'POST', path: '/api/checkout/charges', body: { orderReference: 'cart-1', paymentMethod: { type: 'QR_PROMPT_PAY' } } })).status;
}

async function listen(listener: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(listener);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The same checkout on each host, on a real socket, with the handler to sign order tokens. */
const HOSTS: Record<string, (options: CheckoutHandlerOptions) => Promise<{ url: string; checkout: CheckoutHandler }>> = {
  'node:http (toNodeListener)': async (options) => {
    const checkout = createCheckoutHandler(options);
    return { url: await listen(toNodeListener(checkout)), checkout };
  },
  'Hono on @hono/node-server (getConnInfo), as docs/server.md mounts it': async (options) => {
    // The documented shop; its handler signs order tokens the same way as any made with these options.
    const { server: listening, url } = await serveHonoShop(createHonoShop(options), 0);
    server = listening;
    return { url, checkout: createCheckoutHandler(options) };
  },
};

describe.each(Object.entries(HOSTS))('rate limits on %s', (_host, start) => {
  sandboxTest('count each client address apart: a shopper is not limited by another address’s requests', async ({ sandbox }) => {
    const { url, checkout } = await start(optionsFor(sandbox));
    expect([await strayCharge(url, SHOPPER_A), await strayCharge(url, SHOPPER_A), await strayCharge(url, SHOPPER_A)]).toEqual([403, 403, 429]);
    const fromB = await pay(url, checkout, SHOPPER_B, 'b-1');
    expect(fromB.status, JSON.stringify(fromB.body)).toBe(201);
    expect(fromB.body.actionRequired).toBe('ENCODED_IMAGE');
    // And A is still limited: B's charge did not start A's count again.
    expect((await pay(url, checkout, SHOPPER_A, 'a-1')).status).toBe(429);
  });
});

describe('a Fetch mount with no way to tell clients apart', () => {
  /** Hono on @hono/node-server, the handler mounted without the client's address. */
  async function bareHonoShop(options: CheckoutHandlerOptions): Promise<{ url: string; checkout: CheckoutHandler }> {
    const checkout = createCheckoutHandler(options);
    const app = new Hono();
    app.all('/api/checkout/*', (c) => checkout(c.req.raw));
    const { server: listening, url } = await serveHonoShop(app, 0);
    server = listening;
    return { url, checkout };
  }

  sandboxTest('refuses its limited routes with a 500 naming the fix, told once in the log, and charges nothing', async ({ sandbox }) => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { url, checkout } = await bareHonoShop(optionsFor(sandbox));
      const answers = [await pay(url, checkout, SHOPPER_A, 'a-1'), await pay(url, checkout, SHOPPER_B, 'b-1')];
      for (const { status, body } of answers) {
        expect(status).toBe(500);
        expect(body.error).toMatchObject({ errorCode: 'INTERNAL_ERROR', retryable: false });
        expect(body.message).toContain('rate limits cannot tell shoppers apart');
        for (const fix of ['checkout(request, { clientAddress })', 'getConnInfo(c).remote.address', 'toNodeListener', 'trustProxy', 'rateLimit: false']) expect(body.message).toContain(fix);
      }
      const told = logged.mock.calls.filter(([text]) => String(text).includes('cannot tell shoppers apart'));
      expect(told).toHaveLength(1);
      expect((await new SandboxClient(sandbox.sandbox).get('/api/v1/charges?referenceId=order-1')).body.totalCount).toBe(0);
    } finally {
      logged.mockRestore();
    }
  });

  sandboxTest('serves every shopper with rateLimit: false, the limits left to the platform on purpose', async ({ sandbox }) => {
    const logged = vi.spyOn(console, 'error');
    const { url, checkout } = await bareHonoShop(optionsFor(sandbox, { rateLimit: false }));
    const first = await pay(url, checkout, SHOPPER_A, 'a-1');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const status = await send(url, SHOPPER_B, { method: 'GET', path: `/api/checkout/charges/${first.body.chargeId}/status`, headers: { 'x-satang-status-token': first.body.statusToken } });
    expect(status).toMatchObject({ status: 200, body: { status: 'PENDING' } });
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });
});
