/**
 * On node:http, `toNodeListener` hands the checkout handler the request as node:http read it (no
 * Fetch `Request`, `Headers` or `URL` of its own) and writes the answer in one go. Everything a
 * client can see must be what the Fetch path answers, and a merchant's callback still gets a
 * `Request` when it reads one.
 */
import { createServer, get, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, vi } from 'vitest';
import { callHandlerOf } from '../../src/core/http-call.js';
import { SANDBOX_DEFAULTS, type RunningSandbox } from '../../src/sandbox/index.js';
import { createCheckoutHandler, MemoryCheckoutStore, toNodeListener, type CheckoutHandler, type CheckoutHandlerOptions, type CheckoutLogEntry } from '../../src/server/index.js';
import { sandboxTest } from '../support/sandbox-fixture.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function listen(listener: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function checkout(sandbox: RunningSandbox, options: Partial<CheckoutHandlerOptions> = {}) {
  return createCheckoutHandler({
    service: { baseUrl: sandbox.url, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey },
    resolveOrder: (reference) => (reference === 'cart-1' ? { amount: 12_900, currency: 'THB', referenceId: `order-${crypto.randomUUID()}` } : null),
    basePath: '/api/checkout',
    publicUrl: 'https://shop.example',
    allowedOrigins: ['https://pay.shop.example'],
    webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64,
    rateLimit: false,
    ...options,
  });
}

/** Sends raw bytes and reads the whole answer until the server closes or `Connection: close` ends it. */
function raw(url: string, text: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** A PromptPay QR charge of order cart-1, made through the shop (`handler`, at `shop`): its id and status token. */
async function qrCharge(shop: string, handler: CheckoutHandler): Promise<{ chargeId: string; statusToken: string }> {
  const created = await fetch(`${shop}/api/checkout/charges`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID(), 'x-satang-order-token': await handler.orderToken('cart-1') },
    body: JSON.stringify({ orderReference: 'cart-1', amount: 12_900, currency: 'THB', paymentMethod: { type: 'QR_PROMPT_PAY' } }),
  });
  return (await created.json()) as { chargeId: string; statusToken: string };
}

/** What a client sees of an answer, without the headers that differ by the clock. */
async function seen(response: Response) {
  const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== 'date' && name !== 'keep-alive' && name !== 'connection'));
  return { status: response.status, headers, body: await response.text() };
}

describe('the checkout handler on node:http', () => {
  sandboxTest('is served without Fetch objects: no Request is made for a status read, one is made when a callback reads it', async ({ sandbox }) => {
    const seenByResolve: { cookie: string | null; url: string }[] = [];
    const handler = checkout(sandbox, {
      resolveOrder: (reference, { request }) => {
        seenByResolve.push({ cookie: request.headers.get('cookie'), url: request.url });
        return reference === 'cart-1' ? { amount: 12_900, currency: 'THB', referenceId: `order-${crypto.randomUUID()}` } : null;
      },
    });
    expect(callHandlerOf(handler)).toBeTypeOf('function');
    const shop = await listen(toNodeListener(handler));

    const created = await fetch(`${shop}/api/checkout/charges`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: 'session=abc', 'idempotency-key': 'node-call-1', 'x-satang-order-token': await handler.orderToken('cart-1') },
      body: JSON.stringify({ orderReference: 'cart-1', amount: 12_900, currency: 'THB', paymentMethod: { type: 'QR_PROMPT_PAY' } }),
    });
    expect(created.status).toBe(201);
    expect(seenByResolve).toEqual([{ cookie: 'session=abc', url: `${shop}/api/checkout/charges` }]);
    const { chargeId, statusToken } = (await created.json()) as { chargeId: string; statusToken: string };

    const RealRequest = globalThis.Request;
    let made = 0;
    globalThis.Request = new Proxy(RealRequest, {
      construct(target, args: ConstructorParameters<typeof Request>) {
        // Requests to the shop only: the handler's own calls to the service are not the point here.
        const [input] = args;
        if (String(input instanceof RealRequest ? input.url : input).startsWith(shop)) made += 1;
        return new target(...args);
      },
    });
    try {
      // node:http's own client, so that nothing in this process but the handler could make a Request.
      const status = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        get(`${shop}/api/checkout/charges/${chargeId}/status`, { headers: { 'x-satang-status-token': statusToken } }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        }).on('error', reject);
      });
      expect(status.status).toBe(200);
      expect(JSON.parse(status.body)).toMatchObject({ chargeId, status: 'PENDING' });
    } finally {
      globalThis.Request = RealRequest;
    }
    expect(made).toBe(0);
  });

  sandboxTest('answers every request exactly as the Fetch path does', async ({ sandbox }) => {
    const handler = checkout(sandbox);
    const native = await listen(toNodeListener(handler));
    // The same handler behind a plain Fetch function: the adapter then converts through Request and Response.
    const viaFetch = await listen(toNodeListener((request) => handler(request)));
    const { chargeId, statusToken } = await qrCharge(native, handler);
    const cases: [string, RequestInit][] = [
      ['/api/checkout/charges', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"orderReference":' }],
      ['/api/checkout/charges', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }],
      ['/api/checkout/charges', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ orderReference: 'cart-1', note: 'x'.repeat(20_000) }) }],
      ['/api/checkout/charges', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ orderReference: 'nope', paymentMethod: { type: 'ALIPAY' } }) }],
      ['/api/checkout/charges', { method: 'POST', headers: { 'content-type': 'application/json', 'x-satang-order-token': await handler.orderToken('nope') }, body: JSON.stringify({ orderReference: 'nope', paymentMethod: { type: 'ALIPAY' } }) }],
      ['/api/checkout/charges', { method: 'POST', headers: { 'content-type': 'application/json', 'x-satang-client-address': '10.0.0.1', cardNumber: '4242' }, body: JSON.stringify({ orderReference: 'cart-1', paymentMethod: { type: 'CARD_TOKEN', cardNumber: '4242424242424242' } }) }],
      ['/api/checkout/charges', { method: 'DELETE' }],
      ['/api/checkout/charges', { method: 'OPTIONS', headers: { origin: 'https://pay.shop.example', 'access-control-request-method': 'POST' } }],
      ['/api/checkout/charges', { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/json' }, body: '{}' }],
      ['/api/checkout/nothing', {}],
      ['/elsewhere', {}],
      [`/api/checkout/charges/${chargeId}/status`, { headers: { 'x-satang-status-token': statusToken, origin: 'https://pay.shop.example' } }],
      [`/api/checkout/charges/${chargeId}/status?wait=abc`, { headers: { 'x-satang-status-token': statusToken } }],
      [`/api/checkout/charges/${chargeId}/status`, { headers: { 'x-satang-status-token': 'forged' } }],
      [`/api/checkout/charges/%E0%A4%A/status`, { headers: { 'x-satang-status-token': statusToken } }],
      [`/api/checkout/charges/${chargeId}/slip`, { method: 'POST', headers: { 'x-satang-status-token': statusToken, 'content-type': 'application/json' }, body: '{"raw":""}' }],
      ['/api/checkout/webhooks', { method: 'POST', headers: { 'content-type': 'application/json', 'x-beam-signature': 'bad' }, body: '{}' }],
      ['/api/checkout/webhooks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }],
    ];
    for (const [path, init] of cases) {
      const [a, b] = [await seen(await fetch(`${native}${path}`, init)), await seen(await fetch(`${viaFetch}${path}`, init))];
      expect({ path, ...a }).toEqual({ path, ...b });
    }
  });

  sandboxTest('refuses a body past the cap as it streams in, and closes the connection it left unread', async ({ sandbox }) => {
    const shop = await listen(toNodeListener(checkout(sandbox, { maxBodyBytes: 1_000 })));
    const big = JSON.stringify({ orderReference: 'cart-1', note: 'x'.repeat(5_000) });
    const declared = await raw(shop, `POST /api/checkout/charges HTTP/1.1\r\nHost: shop\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\n\r\n${big.slice(0, 100)}`);
    expect(declared).toMatch(/^HTTP\/1\.1 413 /);
    expect(declared.toLowerCase()).toContain('connection: close');
    const chunk = big.slice(0, 2_000);
    const chunked = await raw(shop, `POST /api/checkout/charges HTTP/1.1\r\nHost: shop\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    expect(chunked).toMatch(/^HTTP\/1\.1 413 /);
    expect(chunked).toContain('BODY_TOO_LARGE');
  });

  sandboxTest('ends a long-poll as soon as its shopper goes away, leaving nothing behind', async ({ sandbox }) => {
    // The store says when a long-poll starts watching a payment's channel, and when it stops.
    class WatchedStore extends MemoryCheckoutStore {
      readonly watching = new Map<string, number>();
      override subscribe(channel: string, listener: (message: string) => void) {
        this.watching.set(channel, (this.watching.get(channel) ?? 0) + 1);
        const unsubscribe = super.subscribe(channel, listener);
        return () => {
          this.watching.set(channel, this.watching.get(channel)! - 1);
          unsubscribe();
        };
      }
    }
    const store = new WatchedStore();
    const logs: CheckoutLogEntry[] = [];
    const handler = checkout(sandbox, { store, log: (entry) => logs.push(entry) });
    const shop = await listen(toNodeListener(handler));
    const { chargeId, statusToken } = await qrCharge(shop, handler);
    const leaving = new AbortController();
    const wait = fetch(`${shop}/api/checkout/charges/${chargeId}/status?wait=25`, { headers: { 'x-satang-status-token': statusToken }, signal: leaving.signal }).catch(() => 'left');
    // Held: the handler watches the payment's channel.
    await vi.waitFor(() => expect(store.watching.get(`charge:${chargeId}`)).toBeGreaterThan(0));
    expect(logs.filter((entry) => entry.path.endsWith('/status'))).toEqual([]);
    const left = Date.now();
    leaving.abort();
    expect(await wait).toBe('left');
    await expect.poll(() => logs.filter((entry) => entry.path.endsWith('/status')).length, { timeout: 2_000 }).toBe(1);
    expect(Date.now() - left).toBeLessThan(2_000);
    expect(store.watching.get(`charge:${chargeId}`)).toBe(0);
  });

  sandboxTest('answers a charge whose shopper left mid-body while the handler awaited its store, instead of waiting for ever', async ({ sandbox }) => {
    // A store a round trip away (Redis): the body is read only after the rate limit is counted.
    // Here the count answers only once every shopper has gone.
    let shoppersGone!: () => void;
    const gone = new Promise<void>((resolve) => (shoppersGone = resolve));
    let counting = 0;
    class SlowStore extends MemoryCheckoutStore {
      override async increment(key: string, ttlMs: number) {
        counting += 1;
        await gone;
        return super.increment(key, ttlMs);
      }
    }
    const logs: CheckoutLogEntry[] = [];
    const shop = await listen(toNodeListener(checkout(sandbox, { store: new SlowStore(), rateLimit: {}, log: (entry) => logs.push(entry) })));
    const { port } = new URL(shop);
    const sockets = Array.from({ length: 5 }, () => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write('POST /api/checkout/charges HTTP/1.1\r\nHost: shop\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"order');
      });
      socket.on('error', () => undefined);
      return socket;
    });
    // Every charge awaits its store: the shoppers leave mid-body, then the store answers.
    await vi.waitFor(() => expect(counting).toBe(5));
    await Promise.all(sockets.map((socket) => new Promise((resolve) => socket.once('close', resolve).destroy())));
    shoppersGone();
    await expect.poll(() => logs.length, { timeout: 3_000 }).toBe(5);
    expect(logs.map((entry) => entry.errorCode)).toEqual(Array.from({ length: 5 }, () => 'INVALID_REQUEST'));
  });

  sandboxTest('reads a header sent twice as node:http does, on both paths', async ({ sandbox }) => {
    const handler = checkout(sandbox);
    const native = await listen(toNodeListener(handler));
    const viaFetch = await listen(toNodeListener((request) => handler(request)));
    const body = JSON.stringify({ orderReference: 'nope', paymentMethod: { type: 'ALIPAY' } });
    const token = await handler.orderToken('nope');
    const request = `POST /api/checkout/charges HTTP/1.1\r\nHost: shop\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Type: text/plain\r\nIdempotency-Key: twice-1\r\nX-Satang-Order-Token: ${token}\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const [a, b] = [await raw(native, request), await raw(viaFetch, request)];
    expect(a.split('\r\n')[0]).toBe('HTTP/1.1 404 Not Found');
    expect(b.split('\r\n')[0]).toBe(a.split('\r\n')[0]);
  });
});
