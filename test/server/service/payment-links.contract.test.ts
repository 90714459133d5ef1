import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SERVICE_HEADERS } from '../../../src/core/constants.js';
import type { CreatePaymentLinkRequest } from '../../../src/core/schemas/payment-link.js';
import { Sandbox, SANDBOX_DEFAULTS } from '../../../src/sandbox/index.js';
import { NotFoundError, StateConflictError, ValidationError } from '../../../src/server/errors.js';
import { ServiceClient, type ServiceClientOptions } from '../../../src/server/service/service-client.js';
import { FUTURE_EXPIRY_YEAR } from '../../support/sandbox-client.js';
import { rejection } from '../../support/rejection.js';

const BASE_URL = 'http://127.0.0.1:4010';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const REDIRECT_URL = 'https://shop.example/orders/3001/thanks';
const HOUR_MS = 60 * 60 * 1000;

let sandbox: Sandbox;
let now: number;
beforeEach(() => {
  now = Date.now();
  sandbox = new Sandbox({ now: () => new Date(now) });
});
afterEach(() => sandbox.close());

interface Seen {
  method: string;
  path: string;
  headers: Headers;
  body: string;
}

/**
 * A ServiceClient on the sandbox, through a fetch that records each request and can drop the
 * answer of the first `dropAnswers` calls after the sandbox processed them (a reset connection).
 */
function serviceClient(overrides: Partial<ServiceClientOptions> = {}, dropAnswers = 0) {
  const seen: Seen[] = [];
  let drops = dropAnswers;
  const fetch = async (request: Request): Promise<Response> => {
    const body = await request.text();
    seen.push({ method: request.method, path: new URL(request.url).pathname, headers: new Headers(request.headers), body });
    const answer = await sandbox.fetch(new Request(request.url, { method: request.method, headers: request.headers, body: request.method === 'GET' ? undefined : body }));
    if (drops > 0) {
      drops -= 1;
      await answer.text();
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
    }
    return answer;
  };
  const options: ServiceClientOptions = {
    baseUrl: BASE_URL,
    merchantId: SANDBOX_DEFAULTS.merchantId,
    apiKey: SANDBOX_DEFAULTS.apiKey,
    retryBaseDelayMs: 1,
    fetch,
    ...overrides,
  };
  return { client: new ServiceClient(options), seen };
}

function linkRequest(overrides: Partial<CreatePaymentLinkRequest> = {}): CreatePaymentLinkRequest {
  return {
    order: {
      netAmount: 129_000,
      currency: 'THB',
      description: 'Hand-woven basket',
      referenceId: 'order-3001',
      orderItems: [
        { itemName: 'Basket', price: 119_000, quantity: 1 },
        { itemName: 'Delivery', price: 10_000, quantity: 1 },
      ],
    },
    linkSettings: { card: { isEnabled: true }, qrPromptPay: { isEnabled: true } },
    redirectUrl: REDIRECT_URL,
    collectPhoneNumber: false,
    ...overrides,
  };
}

/** Pays a link on its hosted page with a card, as the shopper's browser would. */
async function payOnPage(url: string, pan: string): Promise<Response> {
  const html = await (await sandbox.fetch(new Request(url))).text();
  const formToken = /name="formToken" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const fields = { formToken, method: 'CARD', cardHolderName: 'Malee Sukjai', cardNumber: pan, expiryMonth: '12', expiryYear: String(FUTURE_EXPIRY_YEAR), securityCode: '123' };
  return sandbox.fetch(
    new Request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' }),
  );
}


describe('ServiceClient.paymentLinks against the sandbox', () => {
  describe('create', () => {
    it('sends POST /api/v1/payment-links with the API key and an idempotency key, and reads {id, url}', async () => {
      const { client, seen } = serviceClient();
      const created = await client.paymentLinks.create(linkRequest());
      expect(created.id).toMatch(/^pl_/);
      expect(created.url).toBe(`${BASE_URL}/sandbox/pages/payment-links/${created.id}`);
      expect(seen).toHaveLength(1);
      const [request] = seen;
      expect(request).toMatchObject({ method: 'POST', path: '/api/v1/payment-links' });
      expect(request!.headers.get('authorization')).toBe(`Basic ${Buffer.from(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.apiKey}`).toString('base64')}`);
      expect(request!.headers.get(SERVICE_HEADERS.idempotencyKey)).toMatch(UUID_V4);
      expect(JSON.parse(request!.body)).toEqual(linkRequest());
    });

    it('makes one link when the answer is lost and the call retried with the same key', async () => {
      const { client, seen } = serviceClient({}, 1);
      const created = await client.paymentLinks.create(linkRequest(), { idempotencyKey: 'link-order-3001' });
      expect(seen).toHaveLength(2);
      expect(seen.map((s) => s.headers.get(SERVICE_HEADERS.idempotencyKey))).toEqual(['link-order-3001', 'link-order-3001']);
      // The same key again, from a restarted process: still the one link.
      const again = await serviceClient().client.paymentLinks.create(linkRequest(), { idempotencyKey: 'link-order-3001' });
      expect(again).toEqual(created);
    });

    it('throws a ValidationError naming the field, and does not retry it', async () => {
      const { client, seen } = serviceClient();
      const past = await rejection(client.paymentLinks.create(linkRequest({ expiresAt: new Date(now - HOUR_MS).toISOString() })));
      expect(past).toBeInstanceOf(ValidationError);
      expect(past).toMatchObject({ status: 400, errorCode: 'API_VALIDATION_ERROR', field: 'expiresAt' });
      expect(past.message).toBe('inputs are failing validation; expiresAt must be in the future');
      expect(past.requestId).toMatch(/^req_/);
      expect(seen).toHaveLength(1);

      const noMethod = await rejection(client.paymentLinks.create(linkRequest({ linkSettings: { card: { isEnabled: false } } })));
      expect(noMethod).toMatchObject({ field: 'linkSettings' });
    });

    it('creates what the service does not refuse: a netAmount other than the items’ sum, no description, an installment period above the amount', async () => {
      const { client } = serviceClient();
      const { description, ...order } = linkRequest().order;
      const created = await client.paymentLinks.create(
        linkRequest({
          order: { ...order, netAmount: 99_000 },
          linkSettings: { card: { isEnabled: true }, cardInstallments: { isEnabled: true, installments10m: { isEnabled: true } } },
        }),
      );
      const link = await client.paymentLinks.get(created.id);
      expect(link.order).toMatchObject({ netAmount: 99_000, description: null });
      expect(link.linkSettings?.cardInstallments).toMatchObject({ isEnabled: true, installments10m: { isEnabled: true } });
    });

    it('works with a partner key acting for the merchant', async () => {
      const { client, seen } = serviceClient({ apiKey: undefined, partner: { partnerId: SANDBOX_DEFAULTS.partnerId, apiKey: SANDBOX_DEFAULTS.partnerApiKey } });
      const created = await client.paymentLinks.create(linkRequest());
      expect((await client.paymentLinks.get(created.id)).merchantId).toBe(SANDBOX_DEFAULTS.merchantId);
      expect(seen[0]!.headers.get(SERVICE_HEADERS.partnerId)).toBe(SANDBOX_DEFAULTS.partnerId);
    });
  });

  describe('get', () => {
    it('reads the link back, typed, ACTIVE and then EXPIRED as the clock passes expiresAt', async () => {
      const { client, seen } = serviceClient();
      const expiresAt = new Date(now + HOUR_MS).toISOString();
      const { id, url } = await client.paymentLinks.create(linkRequest({ expiresAt, collectDeliveryAddress: true }));
      const link = await client.paymentLinks.get(id);
      expect(link).toMatchObject({
        paymentLinkId: id,
        url,
        status: 'ACTIVE',
        order: { netAmount: 129_000, currency: 'THB', description: 'Hand-woven basket', referenceId: 'order-3001' },
        linkSettings: { card: { isEnabled: true }, qrPromptPay: { isEnabled: true }, eWallets: { isEnabled: false } },
        collectPhoneNumber: false,
        collectDeliveryAddress: true,
        redirectUrl: REDIRECT_URL,
        expiresAt,
        feeType: 'TRANSACTION_FEE',
      });
      expect(link.order.orderItems).toHaveLength(2);
      const get = seen.at(-1)!;
      expect(get).toMatchObject({ method: 'GET', path: `/api/v1/payment-links/${id}` });
      expect(get.headers.has(SERVICE_HEADERS.idempotencyKey)).toBe(false);

      now += HOUR_MS;
      expect((await client.paymentLinks.get(id)).status).toBe('EXPIRED');
    });

    it('throws a NotFoundError for an unknown link', async () => {
      const { client } = serviceClient();
      const error = await rejection(client.paymentLinks.get('pl_unknown'));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, errorCode: 'NOT_FOUND_ERROR', message: 'no payment link with id pl_unknown' });
    });

    it('escapes an id that is not a plain path segment, which then matches no link', async () => {
      const { client, seen } = serviceClient();
      const error = await rejection(client.paymentLinks.get('pl_1/disable'));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(seen[0]!.path).toBe('/api/v1/payment-links/pl_1%2Fdisable');
    });
  });

  describe('disable', () => {
    it('sends PATCH .../disable with an empty body and an idempotency key, and reads the DISABLED link', async () => {
      const { client, seen } = serviceClient();
      const { id } = await client.paymentLinks.create(linkRequest());
      const disabled = await client.paymentLinks.disable(id);
      expect(disabled).toMatchObject({ paymentLinkId: id, status: 'DISABLED' });
      const request = seen.at(-1)!;
      expect(request).toMatchObject({ method: 'PATCH', path: `/api/v1/payment-links/${id}/disable`, body: '{}' });
      expect(request.headers.get(SERVICE_HEADERS.idempotencyKey)).toMatch(UUID_V4);
      expect(await client.paymentLinks.disable(id)).toEqual(disabled);
      expect(await client.paymentLinks.get(id)).toEqual(disabled);
    });

    it('throws a StateConflictError for a PAID link, which stays PAID', async () => {
      const { client } = serviceClient();
      const { id, url } = await client.paymentLinks.create(linkRequest());
      expect((await payOnPage(url, '4111111111111111')).headers.get('location')).toBe(REDIRECT_URL);
      const error = await rejection(client.paymentLinks.disable(id));
      expect(error).toBeInstanceOf(StateConflictError);
      expect(error).toMatchObject({ status: 422, errorCode: 'PAYMENT_LINK_STATUS_INVALID_ERROR', retryable: false });
      expect(error.message).toContain(`payment link ${id} is PAID and cannot be disabled`);
      expect((await client.paymentLinks.get(id)).status).toBe('PAID');
    });

    it('throws a NotFoundError for an unknown link', async () => {
      const { client } = serviceClient();
      expect(await rejection(client.paymentLinks.disable('pl_unknown'))).toBeInstanceOf(NotFoundError);
    });
  });

  describe('after the shopper pays on the link’s page', () => {
    it('finds the link PAID, its charges with charges.list({sourceIn, sourceId}), and their transaction', async () => {
      const { client, seen } = serviceClient();
      const { id, url } = await client.paymentLinks.create(linkRequest());
      expect((await payOnPage(url, '4943129900084541')).status).toBe(402);
      expect((await client.paymentLinks.get(id)).status).toBe('ACTIVE');
      await payOnPage(url, '4111111111111111');
      expect((await client.paymentLinks.get(id)).status).toBe('PAID');

      const charges = await client.charges.list({ sourceIn: ['PAYMENT_LINK'], sourceId: id });
      expect(seen.at(-1)!.path).toBe('/api/v1/charges');
      expect(charges.totalCount).toBe(2);
      expect(charges.data.map((c) => [c.status, c.failureCode, c.source, c.sourceId, c.amount])).toEqual([
        ['SUCCEEDED', '', 'PAYMENT_LINK', id, 129_000],
        ['FAILED', 'CH_INSUFFICIENT_FUNDS', 'PAYMENT_LINK', id, 129_000],
      ]);
      expect((await client.charges.list({ sourceIn: ['API'] })).totalCount).toBe(0);
      const all: string[] = [];
      for await (const charge of client.charges.iterate({ sourceId: id, limit: 1 })) all.push(charge.chargeId);
      expect(all).toEqual(charges.data.map((c) => c.chargeId));

      const transaction = await client.transactions.get(charges.data[0]!.chargeId);
      expect(transaction).toMatchObject({ transactionType: 'PAYMENT', chargeSource: 'PAYMENT_LINK', sourceId: id, referenceId: 'order-3001', grossAmount: 129_000 });
    });
  });
});
