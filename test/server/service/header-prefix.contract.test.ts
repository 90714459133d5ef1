/**
 * One header prefix, from configuration: Satang's service client, checkout handler and sandbox
 * in both spellings (the live service's `X-Beam-`, the interface's `X-Service-`), what a mismatch
 * does, and a base URL behind a gateway path.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serviceHeaders } from '../../../src/core/constants.js';
import { generateTestWebhookHeaders } from '../../../src/core/webhook-signature.js';
import { Sandbox, SANDBOX_DEFAULTS, type RunningSandbox } from '../../../src/sandbox/index.js';
import { ConfigurationError, createCheckoutHandler, ServiceClient, type ServiceClientOptions } from '../../../src/server/index.js';
import { qrChargeBody } from '../../support/qr-charge.js';
import { FUTURE_EXPIRY_YEAR } from '../../support/sandbox-client.js';
import { sandboxTest } from '../../support/sandbox-fixture.js';

const BASE_URL = 'http://127.0.0.1:4010';
const WEBHOOK_KEY = Buffer.alloc(32, 5).toString('base64');
const PARTNER = { partnerId: SANDBOX_DEFAULTS.partnerId, apiKey: SANDBOX_DEFAULTS.partnerApiKey };

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function sandboxWith(headerPrefix: string | undefined, webhookFetch?: typeof fetch) {
  const warnings: string[] = [];
  const sandbox = new Sandbox({
    ...(headerPrefix === undefined ? {} : { headerPrefix }),
    warn: (line) => warnings.push(line),
    ...(webhookFetch ? { webhook: { url: 'http://shop.test/webhooks', webhookKeyBase64: WEBHOOK_KEY, fetch: webhookFetch, retryBaseDelayMs: 1 } } : {}),
  });
  cleanups.push(() => sandbox.close());
  return { sandbox, warnings };
}

/** A client on the sandbox that records the headers of every request and can lose the answers of the first charge creations. */
function clientOn(sandbox: Sandbox, options: Partial<ServiceClientOptions> = {}, dropAnswers = 0) {
  const sent: Headers[] = [];
  let drops = dropAnswers;
  const client = new ServiceClient({
    baseUrl: BASE_URL,
    merchantId: SANDBOX_DEFAULTS.merchantId,
    apiKey: SANDBOX_DEFAULTS.apiKey,
    publishableKey: SANDBOX_DEFAULTS.publishableKey,
    retryBaseDelayMs: 1,
    fetch: async (request) => {
      sent.push(new Headers(request.headers));
      const answer = await sandbox.fetch(request);
      if (drops > 0 && request.method === 'POST' && new URL(request.url).pathname === '/api/v1/charges') {
        drops -= 1;
        await answer.text();
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
      }
      return answer;
    },
    ...options,
  });
  return { client, sent };
}

async function cardBody(client: ServiceClient, referenceId: string) {
  const { id } = await client.cardTokens.create({ pan: '4111111111111111', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee' });
  return { amount: 10_000, currency: 'THB' as const, referenceId, paymentMethod: { paymentMethodType: 'CARD_TOKEN' as const, cardToken: { cardTokenId: id, securityCode: '123' } } };
}

describe.each([
  ['X-Beam-', undefined],
  ['X-Service-', 'X-Service-'],
])('client and sandbox both on %s', (prefix, option) => {
  it('carries the idempotency key so a charge whose answer was lost is not made twice', async () => {
    const { sandbox } = sandboxWith(option);
    const { client, sent } = clientOn(sandbox, option === undefined ? {} : { headerPrefix: option }, 1);
    const body = await cardBody(client, `order-${prefix}`);
    const charge = await client.charges.create(body);
    const list = await client.charges.list({ referenceId: `order-${prefix}` });
    expect(list.totalCount).toBe(1);
    expect(list.data[0]?.chargeId).toBe(charge.chargeId);
    const posts = sent.filter((headers) => headers.has(`${prefix}Idempotency-Key`));
    // The card token and the charge's two attempts, the retry with the first attempt's key.
    expect(posts).toHaveLength(3);
    expect(posts[1]!.get(`${prefix}Idempotency-Key`)).toBe(posts[2]!.get(`${prefix}Idempotency-Key`));
    expect(sent.some((headers) => [...headers.keys()].some((name) => name.startsWith('x-') && !name.startsWith(prefix.toLowerCase())))).toBe(false);
  });

  it('acts as a partner with the partner id header of the prefix', async () => {
    const { sandbox } = sandboxWith(option);
    const merchant = clientOn(sandbox, option === undefined ? {} : { headerPrefix: option });
    const charge = await merchant.client.charges.create(await cardBody(merchant.client, 'partner-order'));
    const { client, sent } = clientOn(sandbox, { apiKey: undefined, partner: PARTNER, ...(option === undefined ? {} : { headerPrefix: option }) });
    expect((await client.charges.get(charge.chargeId)).chargeId).toBe(charge.chargeId);
    expect(sent[0]!.get(`${prefix}Partner-ID`)).toBe(PARTNER.partnerId);
  });

  it('signs webhooks under the prefix, and the checkout handler set to it verifies them', async () => {
    const deliveries: Request[] = [];
    const { sandbox } = sandboxWith(option, (input, init) => {
      deliveries.push(new Request(input, init));
      return Promise.resolve(new Response(null, { status: 200 }));
    });
    const handled: string[] = [];
    const handler = createCheckoutHandler({
      service: { baseUrl: BASE_URL, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey, fetch: sandbox.fetch },
      ...(option === undefined ? {} : { headerPrefix: option }),
      resolveOrder: () => null,
      webhookKeyBase64: WEBHOOK_KEY,
      onEvent: (event) => void handled.push(event.name),
    });
    const { client } = clientOn(sandbox, option === undefined ? {} : { headerPrefix: option });
    await client.charges.create(await cardBody(client, 'hooked-order'));
    // The sandbox sends each event on its own; they may go out in any order.
    const succeeded = () => deliveries.find((d) => d.headers.get(`${prefix}Event`) === 'charge.succeeded');
    await expect.poll(succeeded, { timeout: 5_000 }).toBeDefined();
    const delivery = succeeded()!;
    expect(deliveries.every((d) => d.headers.has(`${prefix}Signature`))).toBe(true);
    expect(delivery.headers.get(`${prefix}Signature`)).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const answer = await handler(new Request('http://127.0.0.1/webhooks', { method: 'POST', headers: delivery.headers, body: await delivery.arrayBuffer() }));
    expect(answer.status).toBe(200);
    expect(handled).toEqual(['charge.succeeded']);
  });
});

describe('when the two sides spell the prefix differently', () => {
  it('the sandbox ignores the key as the service would, so a lost answer becomes a second charge, and it warns once', async () => {
    const { sandbox, warnings } = sandboxWith('X-Beam-');
    const { client } = clientOn(sandbox, { headerPrefix: 'X-Service-' }, 1);
    const qr = qrChargeBody({ referenceId: 'mismatch-order' });
    await client.charges.create(qr);
    const beam = clientOn(sandbox).client;
    // The retry of the lost answer was not recognised: one charge per attempt.
    expect((await beam.charges.list({ referenceId: 'mismatch-order' })).totalCount).toBe(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('ignoring the x-service-idempotency-key header: this sandbox reads X-Beam-Idempotency-Key');
  });

  it('the checkout handler refuses a webhook without its signature header, naming the header it looked for', async () => {
    const handler = createCheckoutHandler({
      service: { baseUrl: BASE_URL, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey },
      resolveOrder: () => null,
      webhookKeyBase64: WEBHOOK_KEY,
    });
    const body = JSON.stringify({ chargeId: 'ch_1' });
    const headers = await generateTestWebhookHeaders('charge.succeeded', body, WEBHOOK_KEY, { headerPrefix: 'X-Service-' });
    expect(Object.keys(headers)).toContain('X-Service-Signature');
    const answer = await handler(new Request('http://127.0.0.1/webhooks', { method: 'POST', headers, body }));
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ error: { errorCode: 'INVALID_SIGNATURE', errorMessage: 'The webhook has no X-Beam-Signature header.' } });
  });
});

describe('configuration', () => {
  const service = { baseUrl: BASE_URL, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey };

  it('defaults to the live service\'s X-Beam- and matches any case', () => {
    expect(new ServiceClient(service).headers).toMatchObject({ prefix: 'X-Beam-', idempotencyKey: 'X-Beam-Idempotency-Key', signature: 'X-Beam-Signature', event: 'X-Beam-Event', partnerId: 'X-Beam-Partner-ID' });
    expect(serviceHeaders('x-beam-').signature).toBe('x-beam-Signature');
    expect(new Headers({ 'x-beam-signature': 'a' }).get(serviceHeaders('X-BEAM-').signature)).toBe('a');
  });

  it.each([[''], ['X-Beam'], ['X Beam-'], ['X-Beam-\n'], [42]])('refuses the prefix %j with a ConfigurationError that says what to set', (prefix) => {
    expect(() => new ServiceClient({ ...service, headerPrefix: prefix as string })).toThrow(ConfigurationError);
    expect(() => new ServiceClient({ ...service, headerPrefix: prefix as string })).toThrow(/headerPrefix must be .*"X-Beam-"/);
    expect(() => createCheckoutHandler({ service, headerPrefix: prefix as string, resolveOrder: () => null })).toThrow(ConfigurationError);
    expect(() => new Sandbox({ headerPrefix: prefix as string })).toThrow(/headerPrefix must be/);
  });

  it('takes the handler\'s headerPrefix for the client it builds, and refuses two different ones', () => {
    expect(() => createCheckoutHandler({ service: { ...service, headerPrefix: 'X-Beam-' }, headerPrefix: 'X-Service-', resolveOrder: () => null })).toThrow(
      /headerPrefix "X-Service-" differs from service.headerPrefix "X-Beam-"/,
    );
    const client = new ServiceClient({ ...service, headerPrefix: 'X-Service-' });
    expect(() => createCheckoutHandler({ service: client, headerPrefix: 'X-Beam-', resolveOrder: () => null })).toThrow(/differs from the ServiceClient's "X-Service-"/);
    expect(() => createCheckoutHandler({ service: client, headerPrefix: 'x-service-', resolveOrder: () => null, statusTokenSecret: 'a'.repeat(32) })).not.toThrow();
  });
});

describe('a base URL with a path (a gateway in front of the service)', () => {
  let gateway: Server;
  const forwarded: string[] = [];

  /** Serves the sandbox under /pay/ only, as an API gateway mounts a backend; anything else is 404. */
  async function startGateway(sandbox: RunningSandbox): Promise<string> {
    const target = new URL(sandbox.url);
    gateway = createServer((req, res) => {
      const path = req.url ?? '/';
      if (!path.startsWith('/pay/')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":404,"message":"no route"}');
        return;
      }
      forwarded.push(`${req.method} ${path}`);
      const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: path.slice('/pay'.length), headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => gateway.close(resolve)));
    return `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/pay/`;
  }

  sandboxTest('keeps the path for every call of every family', async ({ sandbox }) => {
    const baseUrl = await startGateway(sandbox);
    const client = new ServiceClient({ baseUrl, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey, publishableKey: SANDBOX_DEFAULTS.publishableKey });
    const charge = await client.charges.create(await cardBody(client, 'gateway-order'));
    expect((await client.charges.get(charge.chargeId)).status).toBe('SUCCEEDED');
    expect((await client.charges.list({ referenceId: 'gateway-order' })).totalCount).toBe(1);
    const { refundId } = await client.refunds.create({ chargeId: charge.chargeId });
    expect((await client.refunds.get(refundId)).refundId).toBe(refundId);
    await client.transactions.list({ limit: 1 });
    await client.paymentLinks.create({ order: { netAmount: 50_000, currency: 'THB', referenceId: 'gateway-link' } });
    expect(forwarded.map((line) => line.split('?')[0])).toEqual([
      'POST /pay/client/v1/card-tokens',
      'POST /pay/api/v1/charges',
      `GET /pay/api/v1/charges/${charge.chargeId}`,
      'GET /pay/api/v1/charges',
      'POST /pay/api/v1/refunds',
      `GET /pay/api/v1/refunds/${refundId}`,
      'GET /pay/api/v1/transactions',
      'POST /pay/api/v1/payment-links',
    ]);
  });
});
