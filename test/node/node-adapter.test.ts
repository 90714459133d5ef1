import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
import { createCheckoutHandler, generateTestWebhookHeaders, toNodeListener, type OrderEvent, type WebhookEvent } from '../../src/server/index.js';
import { CLIENT_AUTH } from '../support/sandbox-client.js';
import { sandboxTest } from '../support/sandbox-fixture.js';
import { createHonoShop, serveHonoShop } from './fixture/hono-shop.js';

const orders: Record<string, { amount: number; currency: string; referenceId: string }> = {
  'cart-1': { amount: 12_900, currency: 'THB', referenceId: 'order-1001' },
};

let server: Server | undefined;
afterEach(async () => {
  const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server?.closeAllConnections();
  await closed;
  server = undefined;
});

function checkoutFor(serviceUrl: string, events: WebhookEvent[]) {
  return createCheckoutHandler({
    service: { baseUrl: serviceUrl, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey },
    resolveOrder: async (orderReference) => orders[orderReference] ?? null,
    basePath: '/api/checkout',
    webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64,
    onEvent: async (event) => {
      events.push(event);
    },
  });
}

async function listen(app: Parameters<typeof import('node:http').createServer>[1] | express.Express): Promise<string> {
  const { createServer } = await import('node:http');
  server = createServer(app as never);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe('toNodeListener', () => {
  it('aborts the request when the client goes away before the answer, so a long-poll stops', async () => {
    let aborted!: () => void;
    const gone = new Promise<void>((resolve) => (aborted = resolve));
    let reached!: () => void;
    const held = new Promise<void>((resolve) => (reached = resolve));
    const url = await listen(
      toNodeListener(async (request) => {
        request.signal.addEventListener('abort', () => aborted());
        reached();
        // A long-poll with no news: it answers only once its client has gone.
        await gone;
        return new Response('too late');
      }),
    );
    const client = new AbortController();
    const call = fetch(`${url}/status?wait=25`, { signal: client.signal }).catch(() => undefined);
    await held;
    client.abort();
    await call;
    await expect(Promise.race([gone.then(() => 'aborted'), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2000))])).resolves.toBe('aborted');
  });

  it('drops the connection when an answer fails part-way, instead of passing a cut body off as whole', async () => {
    const url = await listen(
      toNodeListener(async () => {
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"chargeId":"ch_1",'));
          },
          pull(controller) {
            controller.error(new Error('the source failed'));
          },
        });
        return new Response(body, { headers: { 'content-type': 'application/json' } });
      }),
    );
    // The connection may drop before the headers are flushed or after: either way nothing whole arrives.
    await expect(fetch(`${url}/charges`).then((response) => response.text())).rejects.toThrow();
  });

  it('answers a handler that throws with a 500 of its own JSON, saying nothing of the error, or hands it to Express', async () => {
    const failing = toNodeListener(() => Promise.reject(new Error('database password is hunter2')));
    const url = await listen(failing);
    const answer = await fetch(`${url}/charges`, json({ orderReference: 'cart-1' }));
    expect(answer.status).toBe(500);
    expect(answer.headers.get('content-type')).toContain('application/json');
    const text = await answer.text();
    expect(JSON.parse(text)).toMatchObject({ code: 500, error: { errorCode: 'INTERNAL_SERVER_ERROR' } });
    expect(text).not.toContain('hunter2');

    // In Express, the error goes to the app's error handler.
    const handled: unknown[] = [];
    const app = express();
    app.use('/api/checkout', failing);
    app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      handled.push(error);
      res.status(502).send('handled by the app');
    });
    const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
    server!.closeAllConnections();
    await closed;
    const appUrl = await listen(app);
    const viaExpress = await fetch(`${appUrl}/api/checkout/charges`, json({ orderReference: 'cart-1' }));
    expect([viaExpress.status, await viaExpress.text()]).toEqual([502, 'handled by the app']);
    expect(handled.map((error) => (error as Error).message)).toEqual(['database password is hunter2']);
  });

  sandboxTest('serves the checkout inside Express, as docs/server.md shows, with webhooks over real sockets', async ({ startSandbox }) => {
    const events: WebhookEvent[] = [];
    const app = express();
    const shop = await listen(app);
    const sandbox = await startSandbox({ webhook: { url: `${shop}/api/checkout/webhooks`, webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64 } });
    // Mounted once the sandbox, which needs the shop's address, is up; Express routes each request afresh.
    const checkout = checkoutFor(sandbox.url, events);
    app.use('/api/checkout', toNodeListener(checkout));

    const created = await fetch(
      `${shop}/api/checkout/charges`,
      json({ orderReference: 'cart-1', amount: 12_900, currency: 'THB', paymentMethod: { type: 'TRUE_MONEY' } }, { 'idempotency-key': 'express-1', 'x-satang-order-token': await checkout.orderToken('cart-1') }),
    );
    expect(created.status).toBe(201);
    const { chargeId, redirect, statusToken } = await created.json();
    expect(redirect.redirectUrl).toContain(`${sandbox.url}/sandbox/pages/authorize/`);

    const approve = await fetch(redirect.redirectUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'decision=approve', redirect: 'manual' });
    expect(approve.status).toBe(200);
    const status = await fetch(`${shop}/api/checkout/charges/${chargeId}/status?wait=5`, { headers: { 'X-Satang-Status-Token': statusToken } });
    expect(await status.json()).toEqual({ chargeId, status: 'SUCCEEDED', failureCode: null, outcome: 'paid' });
    await vi.waitFor(() => expect(events.map((e) => e.name).sort()).toEqual(['charge.succeeded', 'transaction.created']));
    // The handler answered before the dispatcher recorded it: wait for the log to settle.
    await sandbox.sandbox.webhooks.idle();
    expect(sandbox.sandbox.webhooks.list().map((d) => d.status)).toEqual(['DELIVERED', 'DELIVERED']);
  });

  sandboxTest('rate-limits by the socket address, not by a header the client sends', async ({ sandbox }) => {
    const handler = createCheckoutHandler({
      service: { baseUrl: sandbox.url, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey },
      resolveOrder: () => null,
      rateLimit: { chargesPerWindow: 2 },
    });
    const shop = await listen(toNodeListener(handler));
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const answer = await fetch(`${shop}/charges`, json({ orderReference: 'x', paymentMethod: { type: 'ALIPAY' } }, { 'x-satang-client-address': `10.0.0.${i}` }));
      statuses.push(answer.status);
    }
    // No order token: refused, and still counted.
    expect(statuses).toEqual([403, 403, 429, 429]);
  });

  sandboxTest('says plainly, in its own JSON, when a body parser ran first, instead of failing every webhook with Express’s error page', async ({ sandbox }) => {
    const app = express();
    app.use(express.json());
    app.use('/api/checkout', toNodeListener(checkoutFor(sandbox.url, [])));
    const shop = await listen(app);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      for (let i = 0; i < 2; i += 1) {
        const answer = await fetch(`${shop}/api/checkout/charges`, json({ orderReference: 'cart-1', paymentMethod: { type: 'ALIPAY' } }));
        expect(answer.status).toBe(500);
        expect(answer.headers.get('content-type')).toContain('application/json');
        const body = (await answer.json()) as { message: string; error: { errorCode: string } };
        expect(body.error.errorCode).toBe('INTERNAL_ERROR');
        expect(body.message).toContain('mount the Satang handler before body parsers');
      }
      // Said in the server's log too, once, not on every request.
      expect(logged.mock.calls.filter(([text]) => String(text).includes('express.json()')).length).toBeLessThanOrEqual(1);
    } finally {
      logged.mockRestore();
    }
  });
});

describe('the checkout handler in a Fetch-style framework', () => {
  sandboxTest('runs unchanged as a Hono route, given the client address the host knows', async ({ sandbox }) => {
    const checkout = checkoutFor(sandbox.url, []);
    const app = new Hono();
    // No server here: the address a host would hand over (a socket's, or CF-Connecting-IP on Workers).
    app.all('/api/checkout/*', (c) => checkout(c.req.raw, { clientAddress: '203.0.113.7' }));
    const created = await app.fetch(
      new Request(
        'https://shop.example/api/checkout/charges',
        json({ orderReference: 'cart-1', amount: 12_900, currency: 'THB', paymentMethod: { type: 'QR_PROMPT_PAY' } }, { 'idempotency-key': 'hono-route-1', 'x-satang-order-token': await checkout.orderToken('cart-1') }),
      ),
    );
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body.actionRequired).toBe('ENCODED_IMAGE');
    const status = await app.fetch(new Request(`https://shop.example/api/checkout/charges/${body.chargeId}/status`, { headers: { 'X-Satang-Status-Token': body.statusToken } }));
    expect((await status.json()).status).toBe('PENDING');
  });

  sandboxTest('serves a card payment from Hono on @hono/node-server, as docs/server.md and the README show, with its webhooks verified over real sockets', async ({ startSandbox }) => {
    const events: WebhookEvent[] = [];
    const orderEvents: OrderEvent[] = [];
    // The sandbox needs the shop's address for its webhooks, and the shop the sandbox's: the app
    // forwards to the documented shop once both are up.
    const started: { app?: Hono } = {};
    const front = new Hono();
    // With its bindings, where getConnInfo finds the socket.
    front.all('*', (c) => (started.app ? started.app.fetch(c.req.raw, c.env) : c.text('starting', 503)));
    const { server: listening, url: shop } = await serveHonoShop(front, 0);
    server = listening;
    const sandbox = await startSandbox({ webhook: { url: `${shop}/api/checkout/webhooks`, webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64 } });
    started.app = createHonoShop({
      service: { baseUrl: sandbox.url, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey },
      resolveOrder: async (orderReference) => orders[orderReference] ?? null,
      basePath: '/api/checkout',
      publicUrl: shop,
      webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64,
      onEvent: async (event) => {
        events.push(event);
      },
      onOrder: async (event) => {
        orderEvents.push(event);
      },
    });

    // The browser's half: the card tokenized with the publishable key, straight at the service.
    const token = await fetch(`${sandbox.url}/client/v1/card-tokens`, json({ pan: '4111111111111111', expiryMonth: 12, expiryYear: (new Date().getUTCFullYear() + 2) % 100, cardHolderName: 'Somchai Jaidee' }, { authorization: CLIENT_AUTH }));
    expect(token.status).toBe(201);
    const { id: cardTokenId } = await token.json();
    // The order's token, as the shop's checkout page renders it for the element.
    const page = await (await fetch(`${shop}/checkout/cart-1`)).text();
    const orderToken = /order-token="([^"]+)"/.exec(page)?.[1] ?? '';
    expect(orderToken).not.toBe('');
    const created = await fetch(
      `${shop}/api/checkout/charges`,
      json({ orderReference: 'cart-1', amount: 12_900, currency: 'THB', paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '123' } }, { origin: shop, 'idempotency-key': 'hono-1', 'x-satang-order-token': orderToken }),
    );
    expect(created.status).toBe(201);
    const { chargeId, actionRequired, statusToken } = await created.json();
    expect(actionRequired).toBe('NONE');
    const status = await fetch(`${shop}/api/checkout/charges/${chargeId}/status?wait=5`, { headers: { 'X-Satang-Status-Token': statusToken } });
    expect(await status.json()).toEqual({ chargeId, status: 'SUCCEEDED', failureCode: null, outcome: 'paid' });

    // The service's webhooks, through Hono's Request: verified over the raw bytes, handled once.
    await vi.waitFor(() => expect(events.map((e) => e.name).sort()).toEqual(['charge.succeeded', 'transaction.created']));
    await sandbox.sandbox.webhooks.idle();
    expect(sandbox.sandbox.webhooks.list().map((d) => [d.event, d.status])).toEqual(
      expect.arrayContaining([
        ['charge.succeeded', 'DELIVERED'],
        ['transaction.created', 'DELIVERED'],
      ]),
    );
    expect(orderEvents.map((e) => [e.type, e.chargeId])).toEqual([['order.paid', chargeId]]);
    const delivered = sandbox.sandbox.webhooks.list().find((d) => d.event === 'charge.succeeded')!;
    const forged = delivered.body.replace('"SUCCEEDED"', '"FAILED"');
    const headers = await generateTestWebhookHeaders('charge.failed', delivered.body, SANDBOX_DEFAULTS.webhookKeyBase64);
    const refused = await fetch(`${shop}/api/checkout/webhooks`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: forged });
    expect(refused.status).toBe(401);
    expect(events).toHaveLength(2);
  });
});
