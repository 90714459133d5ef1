import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SERVICE_HEADERS } from '../../../src/core/constants.js';
import type { CreateChargeRequest } from '../../../src/core/schemas/charge.js';
import { serviceErrorBody } from '../../../src/core/service-error.js';
import { REPLAYED_HEADER, Sandbox, SANDBOX_DEFAULTS } from '../../../src/sandbox/index.js';
import {
  AuthenticationError,
  ConfigurationError,
  IdempotencyConflictError,
  NotFoundError,
  RateLimitedError,
  ServiceError,
  ServiceUnavailableError,
  StateConflictError,
  UnexpectedResponseError,
  ValidationError,
} from '../../../src/server/errors.js';
import { ServiceClient, type ServiceClientOptions } from '../../../src/server/service/service-client.js';
import { qrChargeBody } from '../../support/qr-charge.js';
import { FUTURE_EXPIRY_YEAR } from '../../support/sandbox-client.js';
import { rejection } from '../../support/rejection.js';

const BASE_URL = 'http://127.0.0.1:4010';
const IDEMPOTENCY_KEY = SERVICE_HEADERS.idempotencyKey;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const REQUEST_ID = /^req_/;
/** How long a hung attempt waits before it reaches the sandbox after all. */
const HANG_MS = 400;
/** Attempt timeout in the hang case: far below HANG_MS, far above a sandbox answer. */
const HANG_TIMEOUT_MS = 100;

const basic = (user: string, key: string) => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request as the wire saw it. */
interface SeenRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

/** Something that goes wrong between the client and the sandbox. */
type Fault =
  | 'network error'
  | 'hang'
  | 'reset after processing'
  | '500'
  | '502 from a gateway after processing'
  | '503'
  | '429 with Retry-After: 0'
  | 'truncated JSON body'
  | 'text/html body';

interface WireOptions {
  /** Faults for the next requests, in order; once used up, requests pass straight through. */
  faults?: Fault[];
  /** Every request gets this fault. */
  always?: Fault | ((request: SeenRequest) => Promise<Response>);
  /** Rewrites the JSON body of the sandbox's 2xx answers. */
  rewrite?: (body: ReturnType<typeof JSON.parse>) => unknown;
}

/**
 * A fetch in front of the sandbox that records every request it sees and injects faults the
 * sandbox cannot produce itself.
 */
function wire(sandbox: Sandbox, options: WireOptions = {}) {
  const seen: SeenRequest[] = [];
  const late: Promise<Response>[] = [];
  const faults = [...(options.faults ?? [])];
  const forward = async (request: SeenRequest) => {
    // A fresh Request: the client may already have aborted the one it sent (the hang case).
    const copy = new Request(request.url, { method: request.method, headers: request.headers, body: request.method === 'GET' ? undefined : request.body });
    const answer = await sandbox.fetch(copy);
    if (!options.rewrite || !answer.ok) return answer;
    const body = options.rewrite(await answer.json());
    return new Response(JSON.stringify(body), { status: answer.status, headers: answer.headers });
  };
  const inject = async (fault: Fault, request: SeenRequest): Promise<Response> => {
    switch (fault) {
      case 'network error':
        throw new TypeError('fetch failed');
      case 'hang': {
        // Ignores the abort signal, as a stuck socket does, and reaches the service long after.
        const arrival = delay(HANG_MS).then(() => forward(request));
        late.push(arrival);
        return arrival;
      }
      case 'reset after processing': {
        await (await forward(request)).text();
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
      }
      case '500':
        return Response.json(serviceErrorBody('INTERNAL_SERVER_ERROR', 'the service failed'), { status: 500, headers: { [SERVICE_HEADERS.requestId]: 'req_fault500' } });
      case '502 from a gateway after processing':
        await (await forward(request)).text();
        return new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', { status: 502, headers: { 'content-type': 'text/html' } });
      case '503':
        return Response.json(serviceErrorBody('INTERNAL_SERVER_ERROR', 'unavailable'), { status: 503 });
      case '429 with Retry-After: 0':
        return Response.json(serviceErrorBody('TOO_MANY_REQUESTS_ERROR', 'slow down'), { status: 429, headers: { 'retry-after': '0' } });
      case 'truncated JSON body': {
        const answer = await forward(request);
        const text = await answer.text();
        return new Response(text.slice(0, Math.floor(text.length / 2)), { status: answer.status, headers: answer.headers });
      }
      case 'text/html body':
        await (await forward(request)).text();
        return new Response('<!doctype html><title>Welcome to the hotel Wi-Fi</title>', { status: 200, headers: { 'content-type': 'text/html' } });
    }
  };
  const fetch = async (request: Request): Promise<Response> => {
    const record: SeenRequest = { method: request.method, url: new URL(request.url), headers: new Headers(request.headers), body: await request.text() };
    seen.push(record);
    if (typeof options.always === 'function') return options.always(record);
    const fault = options.always ?? faults.shift();
    return fault === undefined ? forward(record) : inject(fault, record);
  };
  return {
    fetch,
    seen,
    /** Waits for hung requests that reach the sandbox late, and returns their answers. */
    settled: () => Promise.all(late),
  };
}

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = new Sandbox({ refundSettleDelayMs: 0 });
});
afterEach(() => sandbox.close());

function clientOptions(overrides: Partial<ServiceClientOptions> = {}): ServiceClientOptions {
  return {
    baseUrl: BASE_URL,
    merchantId: SANDBOX_DEFAULTS.merchantId,
    apiKey: SANDBOX_DEFAULTS.apiKey,
    publishableKey: SANDBOX_DEFAULTS.publishableKey,
    retryBaseDelayMs: 1,
    fetch: sandbox.fetch,
    ...overrides,
  };
}

/** A client whose every request goes through a recording (and possibly faulty) wire. */
function wiredClient(wireOptions: WireOptions = {}, overrides: Partial<ServiceClientOptions> = {}) {
  const w = wire(sandbox, wireOptions);
  return { client: new ServiceClient(clientOptions({ fetch: w.fetch, ...overrides })), ...w };
}

/** A card token made on a clean line, so faults only hit the call under test. */
async function tokenize(pan = '4111111111111111'): Promise<string> {
  const token = await new ServiceClient(clientOptions()).cardTokens.create({ pan, expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee' });
  return token.id;
}

function cardTokenCharge(cardTokenId: string, overrides: Partial<CreateChargeRequest> = {}): CreateChargeRequest {
  return {
    amount: 10_000,
    currency: 'THB',
    referenceId: 'order-1',
    paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } },
    ...overrides,
  };
}

function alipayCharge(referenceId: string): CreateChargeRequest {
  return { amount: 10_000, currency: 'THB', referenceId, paymentMethod: { paymentMethodType: 'ALIPAY', alipay: {} } };
}


async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe('ServiceClient', () => {
  describe('when it is set up wrong', () => {
    it.each<[string, Partial<ServiceClientOptions>, RegExp]>([
      ['no baseUrl', { baseUrl: '' }, /baseUrl is required/],
      ['an unparsable baseUrl', { baseUrl: 'api.example' }, /not an absolute URL.*https:\/\//],
      ['a baseUrl that is not http(s)', { baseUrl: 'ftp://api.example' }, /http or https/],
      ['a key over plain http to a remote host', { baseUrl: 'http://api.example' }, /plain http to api\.example.*https/],
      ['a key over plain http to a private address', { baseUrl: 'http://10.0.0.7:4010' }, /plain http/],
      ['a host that only looks like loopback', { baseUrl: 'http://127.0.0.1.nip.io' }, /plain http/],
      ['neither apiKey nor partner', { apiKey: undefined }, /no credentials: set apiKey.*or partner/],
      ['both apiKey and partner', { partner: { partnerId: SANDBOX_DEFAULTS.partnerId, apiKey: SANDBOX_DEFAULTS.partnerApiKey } }, /not both/],
      ['an empty merchantId', { merchantId: '' }, /merchantId is required/],
      ['a blank merchantId', { merchantId: '  ' }, /merchantId is required/],
      ['an empty apiKey', { apiKey: '' }, /apiKey must not be empty/],
      ['a partner without a partner id', { apiKey: undefined, partner: { partnerId: '', apiKey: 'k' } }, /partner\.partnerId is required/],
      ['a partner without a key', { apiKey: undefined, partner: { partnerId: 'ptn', apiKey: '' } }, /partner\.apiKey is required/],
      ['a zero timeout', { timeoutMs: 0 }, /timeoutMs must be a positive number/],
      ['a negative retry count', { maxRetries: -1 }, /maxRetries must be a whole number/],
      ['a fractional retry count', { maxRetries: 1.5 }, /maxRetries must be a whole number/],
      ['a negative backoff', { retryBaseDelayMs: -5 }, /retryBaseDelayMs/],
      ['a user agent with a line break', { userAgent: 'shop\r\nX-Evil: 1' }, /userAgent/],
    ])('refuses %s, saying what to set', (_label, overrides, message) => {
      expect(() => new ServiceClient(clientOptions(overrides))).toThrow(ConfigurationError);
      expect(() => new ServiceClient(clientOptions(overrides))).toThrow(message);
    });

    it.each(['http://localhost:4010', 'http://127.0.0.1:4010', 'http://127.8.9.10', 'http://[::1]:4010', 'https://api.example', 'https://gw.example/payments/'])(
      'accepts %s',
      (baseUrl) => {
        expect(() => new ServiceClient(clientOptions({ baseUrl }))).not.toThrow();
      },
    );

    it('keeps a path prefix of the baseUrl in front of every endpoint', async () => {
      const seen: string[] = [];
      const client = new ServiceClient(
        clientOptions({
          baseUrl: 'https://gw.example/payments/',
          fetch: async (request) => {
            seen.push(request.url);
            return sandbox.fetch(new Request(request.url.replace('https://gw.example/payments', BASE_URL), request));
          },
        }),
      );
      await rejection(client.charges.get('ch_missing'));
      expect(seen).toEqual(['https://gw.example/payments/api/v1/charges/ch_missing']);
    });

    it('refuses to tokenize without a publishable key, at call time and before sending anything', async () => {
      const { client, seen } = wiredClient({}, { publishableKey: undefined });
      const error = await rejection(client.cardTokens.create({ pan: '4111111111111111', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'A' }));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toMatch(/publishableKey/);
      expect(seen).toHaveLength(0);
    });
  });

  describe('charges', () => {
    it('creates a charge with a fresh UUID idempotency key and reads it back without one', async () => {
      const { client, seen } = wiredClient();
      const created = await client.charges.create(cardTokenCharge(await tokenize()));
      expect(created).toMatchObject({ chargeId: expect.stringMatching(/^ch_/), paymentMethodType: 'CARD_TOKEN', actionRequired: 'NONE' });

      const charge = await client.charges.get(created.chargeId);
      expect(charge).toMatchObject({ chargeId: created.chargeId, status: 'SUCCEEDED', amount: 10_000, currency: 'THB', referenceId: 'order-1', source: 'API' });
      expect(charge.paymentMethod.card?.last4).toBe('1111');

      const [post, get] = seen;
      expect(post?.method).toBe('POST');
      expect(post?.url.pathname).toBe('/api/v1/charges');
      expect(post?.headers.get(IDEMPOTENCY_KEY)).toMatch(UUID_V4);
      expect(post?.headers.get('content-type')).toBe('application/json');
      expect(post?.headers.get('authorization')).toBe(basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.apiKey));
      expect(JSON.parse(post!.body)).toMatchObject({ amount: 10_000, referenceId: 'order-1' });
      expect(get?.method).toBe('GET');
      expect(get?.headers.has(IDEMPOTENCY_KEY)).toBe(false);
      expect(get?.headers.has(SERVICE_HEADERS.partnerId)).toBe(false);
    });

    it('uses a new key for each call, so two orders make two charges', async () => {
      const { client, seen } = wiredClient();
      await client.charges.create(alipayCharge('order-a'));
      await client.charges.create(alipayCharge('order-a'));
      expect(seen[0]?.headers.get(IDEMPOTENCY_KEY)).not.toBe(seen[1]?.headers.get(IDEMPOTENCY_KEY));
      expect(sandbox.store.charges.size).toBe(2);
    });

    it("sends the caller's idempotency key, so repeating the call makes one charge", async () => {
      const { client, seen } = wiredClient();
      const first = await client.charges.create(alipayCharge('order-7'), { idempotencyKey: 'order-7-attempt-1' });
      const again = await client.charges.create(alipayCharge('order-7'), { idempotencyKey: 'order-7-attempt-1' });
      expect(again.chargeId).toBe(first.chargeId);
      expect(seen.map((r) => r.headers.get(IDEMPOTENCY_KEY))).toEqual(['order-7-attempt-1', 'order-7-attempt-1']);
      expect(sandbox.store.charges.size).toBe(1);
    });

    it('returns the QR of a PromptPay charge', async () => {
      const client = new ServiceClient(clientOptions());
      const created = await client.charges.create(qrChargeBody({ amount: 12_345, referenceId: 'qr-1' }));
      expect(created.actionRequired).toBe('ENCODED_IMAGE');
      expect(created.encodedImage?.rawData).toMatch(/^000201/);
    });

    it('lists with referenceId, source_in (comma-joined) and sourceId filters, limit and offset', async () => {
      const { client, seen } = wiredClient();
      for (const ref of ['order-a', 'order-b', 'order-b']) await client.charges.create(alipayCharge(ref));
      seen.length = 0;

      const byRef = await client.charges.list({ referenceId: 'order-b', sourceIn: ['API', 'PAYMENT_LINK'], limit: 1, offset: 1 });
      expect(byRef.totalCount).toBe(2);
      expect(byRef.data).toHaveLength(1);
      expect(byRef.data[0]?.referenceId).toBe('order-b');
      const query = seen[0]!.url.searchParams;
      expect(Object.fromEntries(query)).toEqual({ referenceId: 'order-b', source_in: 'API,PAYMENT_LINK', limit: '1', offset: '1' });

      expect((await client.charges.list({ sourceIn: ['PAYMENT_LINK'] })).totalCount).toBe(0);
      expect((await client.charges.list({ sourceId: 'pl_none' })).data).toEqual([]);
      const all = await client.charges.list();
      expect(all.totalCount).toBe(3);
      expect(seen.at(-1)!.url.search).toBe('');
    });

    describe('iterate over 250 charges', () => {
      let created: string[];
      beforeEach(async () => {
        const client = new ServiceClient(clientOptions());
        created = [];
        for (let i = 0; i < 250; i += 1) created.push((await client.charges.create(alipayCharge(`order-${i}`))).chargeId);
      });

      it('yields each charge exactly once, newest first, in pages of 100', async () => {
        const { client, seen } = wiredClient();
        const ids = (await collect(client.charges.iterate())).map((c) => c.chargeId);
        expect(ids).toEqual([...created].reverse());
        expect(new Set(ids).size).toBe(250);
        expect(seen.map((r) => [r.url.searchParams.get('limit'), r.url.searchParams.get('offset')])).toEqual([
          ['100', '0'],
          ['100', '100'],
          ['100', '200'],
        ]);
      });

      it('takes the page size from limit and starts at offset', async () => {
        const { client, seen } = wiredClient();
        const ids = (await collect(client.charges.iterate({ limit: 40, offset: 200 }))).map((c) => c.chargeId);
        expect(ids).toEqual([...created].reverse().slice(200));
        expect(seen.map((r) => r.url.searchParams.get('offset'))).toEqual(['200', '240']);
      });

      it('applies the filters to every page', async () => {
        const { client, seen } = wiredClient();
        const charges = await collect(client.charges.iterate({ referenceId: 'order-17' }));
        expect(charges.map((c) => c.chargeId)).toEqual([created[17]]);
        expect(seen[0]?.url.searchParams.get('referenceId')).toBe('order-17');
      });

      it('fetches nothing until the loop asks, and stops when the loop does', async () => {
        const { client, seen } = wiredClient();
        const iterable = client.charges.iterate();
        expect(seen).toHaveLength(0);
        for await (const charge of iterable) {
          expect(charge.chargeId).toBe(created[249]);
          break;
        }
        expect(seen).toHaveLength(1);
      });

      it('does not yield a charge twice when new charges push older ones to the next page', async () => {
        const { client } = wiredClient();
        const seenIds: string[] = [];
        const plain = new ServiceClient(clientOptions());
        for await (const charge of client.charges.iterate()) {
          seenIds.push(charge.chargeId);
          if (seenIds.length === 100) for (let i = 0; i < 3; i += 1) await plain.charges.create(alipayCharge(`late-${i}`));
        }
        expect(seenIds).toHaveLength(250);
        expect(new Set(seenIds)).toEqual(new Set(created));
      });
    });
  });

  describe('card tokens', () => {
    it('tokenizes with the publishable key, never the API key', async () => {
      const { client, seen } = wiredClient();
      const token = await client.cardTokens.create({ pan: '4111111111111111', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee' });
      expect(token.id).toMatch(/^ctk_/);
      expect(seen[0]?.url.pathname).toBe('/client/v1/card-tokens');
      expect(seen[0]?.headers.get('authorization')).toBe(basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.publishableKey));
      expect(seen[0]?.headers.get(IDEMPOTENCY_KEY)).toMatch(UUID_V4);
    });
  });

  describe('refunds', () => {
    it('refunds a succeeded charge and reads the refund until it settles', async () => {
      const client = new ServiceClient(clientOptions());
      const { chargeId } = await client.charges.create(cardTokenCharge(await tokenize()));
      const { refundId } = await client.refunds.create({ chargeId, reason: 'customer asked' });
      expect(refundId).toMatch(/^re_/);

      const refund = await client.refunds.get(refundId);
      expect(refund).toMatchObject({ refundId, chargeId, amount: 10_000, currency: 'THB' });
      await expect.poll(async () => (await client.refunds.get(refundId)).status, { timeout: 5_000 }).toBe('SUCCEEDED');
    });
  });

  describe('transactions', () => {
    it('lists, iterates and reads the transactions of a paid and refunded charge', async () => {
      const { client, seen } = wiredClient();
      const { chargeId } = await client.charges.create(cardTokenCharge(await tokenize()));
      const { refundId } = await client.refunds.create({ chargeId });
      await expect.poll(async () => (await client.refunds.get(refundId)).status, { timeout: 5_000 }).not.toBe('PENDING');

      const page = await client.transactions.list({ limit: 10 });
      expect(page.totalCount).toBe(2);
      expect(page.data.map((t) => [t.transactionType, t.transactionId])).toEqual([
        ['REFUND', refundId],
        ['PAYMENT', chargeId],
      ]);

      seen.length = 0;
      const all = await collect(client.transactions.iterate({ limit: 1 }));
      expect(all.map((t) => t.transactionId)).toEqual([refundId, chargeId]);
      expect(seen.map((r) => r.url.searchParams.get('offset'))).toEqual(['0', '1']);

      const payment = await client.transactions.get(chargeId);
      expect(payment).toMatchObject({ transactionId: chargeId, transactionType: 'PAYMENT', grossAmount: 10_000 });
      expect(payment.netAmount).toBe(payment.grossAmount - payment.feeAmount - payment.vatAmount);
    });
  });

  describe('with partner credentials', () => {
    const partner = { partnerId: SANDBOX_DEFAULTS.partnerId, apiKey: SANDBOX_DEFAULTS.partnerApiKey };

    it('acts for the merchant and sends the partner id header', async () => {
      const { client, seen } = wiredClient({}, { apiKey: undefined, partner });
      const { chargeId } = await client.charges.create(alipayCharge('partner-order'));
      const charge = await client.charges.get(chargeId);
      expect(charge.merchantId).toBe(SANDBOX_DEFAULTS.merchantId);
      for (const request of seen) {
        expect(request.headers.get(SERVICE_HEADERS.partnerId)).toBe(SANDBOX_DEFAULTS.partnerId);
        expect(request.headers.get('authorization')).toBe(basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.partnerApiKey));
      }
    });

    it('does not send the partner header with the publishable key', async () => {
      const { client, seen } = wiredClient({}, { apiKey: undefined, partner });
      await client.cardTokens.create({ pan: '4111111111111111', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'A' });
      expect(seen[0]?.headers.has(SERVICE_HEADERS.partnerId)).toBe(false);
    });

    it('is refused with a partner id that does not own the key', async () => {
      const client = new ServiceClient(clientOptions({ apiKey: undefined, partner: { ...partner, partnerId: 'ptn_other' } }));
      expect(await rejection(client.charges.list())).toBeInstanceOf(AuthenticationError);
    });
  });

  describe('when the service refuses a call', () => {
    it('turns a 400 into a ValidationError naming the field, without retrying', async () => {
      const { client, seen } = wiredClient();
      const cardTokenId = await tokenize();
      const error = await rejection(client.charges.create(cardTokenCharge(cardTokenId, { paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId } } })));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ status: 400, errorCode: 'API_VALIDATION_ERROR', field: 'paymentMethod.cardToken.securityCode' });
      expect(error.message).toContain('paymentMethod.cardToken.securityCode is required');
      expect(error.requestId).toMatch(REQUEST_ID);
      expect(seen).toHaveLength(1);
    });

    it('turns a 401 into an AuthenticationError, without retrying', async () => {
      const { client, seen } = wiredClient({}, { apiKey: 'sk_wrong' });
      const error = await rejection(client.charges.list());
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error).toMatchObject({ status: 401, errorCode: 'INVALID_CREDENTIALS_ERROR' });
      expect(error.requestId).toMatch(REQUEST_ID);
      expect(seen).toHaveLength(1);
    });

    it('turns a 404 into a NotFoundError, without retrying', async () => {
      const { client, seen } = wiredClient();
      const error = await rejection(client.charges.get('ch_missing'));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, errorCode: 'NOT_FOUND_ERROR' });
      expect(error.message).toContain('ch_missing');
      expect(error.requestId).toMatch(REQUEST_ID);
      expect(seen).toHaveLength(1);
    });

    it('turns a 412 (same key, other body) into an IdempotencyConflictError, without retrying', async () => {
      const { client, seen } = wiredClient();
      await client.charges.create(alipayCharge('order-1'), { idempotencyKey: 'key-1' });
      seen.length = 0;
      const error = await rejection(client.charges.create(alipayCharge('order-2'), { idempotencyKey: 'key-1' }));
      expect(error).toBeInstanceOf(IdempotencyConflictError);
      expect(error).toMatchObject({ status: 412, errorCode: 'IDEMPOTENCY_KEY_ERROR' });
      expect(error.requestId).toMatch(REQUEST_ID);
      expect(seen).toHaveLength(1);
      expect(sandbox.store.charges.size).toBe(1);
    });

    it('turns a 422 (refund of a PENDING charge) into a StateConflictError', async () => {
      const client = new ServiceClient(clientOptions());
      const { chargeId, actionRequired } = await client.charges.create(cardTokenCharge(await tokenize('4953261730509988')));
      expect(actionRequired).toBe('REDIRECT');
      const error = await rejection(client.refunds.create({ chargeId }));
      expect(error).toBeInstanceOf(StateConflictError);
      expect(error).toMatchObject({ status: 422, errorCode: 'CHARGE_PENDING' });
      expect(error.requestId).toMatch(REQUEST_ID);
    });

    it('does not follow a redirect', async () => {
      const { client, seen } = wiredClient({ always: () => Promise.resolve(new Response(null, { status: 302, headers: { location: 'https://evil.example/' } })) });
      const error = await rejection(client.charges.create(alipayCharge('order-1')));
      expect(error).toBeInstanceOf(ServiceError);
      expect(error.status).toBe(302);
      expect(seen).toHaveLength(1);
    });
  });

  describe('refuses bad arguments before sending anything', () => {
    it.each<[string, (client: ServiceClient) => Promise<unknown>, string]>([
      ['an empty id', (c) => c.charges.get(''), 'chargeId'],
      ['".." as an id, which would resolve to another endpoint', (c) => c.cardAuthorizations.capture('..', { amount: 100, currency: 'THB', referenceId: 'r' }), 'cardAuthorizationId'],
      ['"%2e%2e" as an id', (c) => c.refunds.get('%2e%2e'), 'refundId'],
      ['an idempotency key with a space', (c) => c.charges.create(alipayCharge('o'), { idempotencyKey: 'has space' }), 'idempotencyKey'],
      ['an idempotency key over 255 characters', (c) => c.charges.create(alipayCharge('o'), { idempotencyKey: 'k'.repeat(256) }), 'idempotencyKey'],
    ])('%s', async (_label, call, field) => {
      const { client, seen } = wiredClient();
      const error = await rejection(call(client));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ status: 0, field });
      expect(seen).toHaveLength(0);
    });

    it('encodes an id as one path segment', async () => {
      const { client, seen } = wiredClient();
      expect(await rejection(client.charges.get('ch_1/../refunds?x=1#y'))).toBeInstanceOf(NotFoundError);
      expect(seen[0]?.url.pathname).toBe('/api/v1/charges/ch_1%2F..%2Frefunds%3Fx%3D1%23y');
      expect(seen[0]?.url.search).toBe('');
    });
  });

  describe('when an attempt fails in transit', () => {
    const faults: Fault[] = [
      'network error',
      'hang',
      'reset after processing',
      '500',
      '502 from a gateway after processing',
      '503',
      '429 with Retry-After: 0',
      'truncated JSON body',
      'text/html body',
    ];
    const cases = faults.flatMap((fault) => [1, 2].map((times) => [fault, times] as const));

    it.each(cases)('retries past %s (%i times) with the same key and makes exactly one charge', async (fault, times) => {
      const cardTokenId = await tokenize();
      const { client, seen, settled } = wiredClient({ faults: Array<Fault>(times).fill(fault) });
      const created = await client.charges.create(cardTokenCharge(cardTokenId), fault === 'hang' ? { timeoutMs: HANG_TIMEOUT_MS } : {});

      expect(seen).toHaveLength(times + 1);
      const keys = new Set(seen.map((request) => request.headers.get(IDEMPOTENCY_KEY)));
      expect(keys.size).toBe(1);
      expect([...keys][0]).toMatch(UUID_V4);
      expect(new Set(seen.map((request) => request.body)).size).toBe(1);

      // Hung attempts reach the service late; they must be answered from the first charge.
      for (const late of await settled()) {
        expect(late.headers.get(REPLAYED_HEADER)).toBe('true');
        expect(await late.json()).toEqual(created);
      }
      expect(sandbox.store.charges.size).toBe(1);
      expect(sandbox.store.charges.has(created.chargeId)).toBe(true);
      expect((await client.charges.get(created.chargeId)).status).toBe('SUCCEEDED');
    });

    it('retries a read too, never with an idempotency key', async () => {
      const { chargeId } = await new ServiceClient(clientOptions()).charges.create(alipayCharge('order-1'));
      const { client, seen } = wiredClient({ faults: ['503', 'network error'] });
      expect((await client.charges.get(chargeId)).chargeId).toBe(chargeId);
      expect(seen).toHaveLength(3);
      expect(seen.every((request) => !request.headers.has(IDEMPOTENCY_KEY))).toBe(true);
    });

    it('waits as long as Retry-After asks', async () => {
      const arrivals: number[] = [];
      const client = new ServiceClient(
        clientOptions({
          fetch: async (request) => {
            arrivals.push(Date.now());
            if (arrivals.length > 1) return sandbox.fetch(request);
            return Response.json(serviceErrorBody('TOO_MANY_REQUESTS_ERROR', 'slow down'), { status: 429, headers: { 'retry-after': '0.2' } });
          },
        }),
      );
      await client.charges.list();
      expect(arrivals).toHaveLength(2);
      expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(190);
    });

    it('lets Retry-After: 0 cut a long backoff short', async () => {
      const { client, seen } = wiredClient({ faults: ['429 with Retry-After: 0'] }, { retryBaseDelayMs: 60_000 });
      const started = Date.now();
      await client.charges.list();
      expect(seen).toHaveLength(2);
      expect(Date.now() - started).toBeLessThan(1_000);
    });

    it('gives up at once when Retry-After is longer than it would wait, saying how long', async () => {
      const { client, seen } = wiredClient({
        always: () => Promise.resolve(Response.json(serviceErrorBody('TOO_MANY_REQUESTS_ERROR', 'slow down'), { status: 429, headers: { 'retry-after': '120' } })),
      });
      const error = await rejection(client.charges.list());
      expect(error).toBeInstanceOf(RateLimitedError);
      expect(error).toMatchObject({ retryable: true, retryAfterMs: 120_000, errorCode: 'TOO_MANY_REQUESTS_ERROR' });
      expect(seen).toHaveLength(1);
    });
  });

  describe('when every attempt fails', () => {
    it('throws a retryable ServiceUnavailableError after maxRetries + 1 attempts, all with one key', async () => {
      const { client, seen } = wiredClient({ always: '503' }, { maxRetries: 3 });
      const error = await rejection(client.charges.create(alipayCharge('order-1')));
      expect(error).toBeInstanceOf(ServiceUnavailableError);
      expect(error).toMatchObject({ status: 503, retryable: true });
      expect(seen).toHaveLength(4);
      expect(new Set(seen.map((r) => r.headers.get(IDEMPOTENCY_KEY))).size).toBe(1);
    });

    it('makes three attempts by default', async () => {
      const { client, seen } = wiredClient({ always: '500' });
      const error = await rejection(client.charges.list());
      expect(error).toBeInstanceOf(ServiceUnavailableError);
      expect(error.requestId).toBe('req_fault500');
      expect(seen).toHaveLength(3);
    });

    it('makes one attempt with maxRetries 0', async () => {
      const { client, seen } = wiredClient({ always: '503' }, { maxRetries: 0 });
      expect(await rejection(client.charges.list())).toBeInstanceOf(ServiceUnavailableError);
      expect(seen).toHaveLength(1);
    });

    it('throws a retryable RateLimitedError when it stays rate limited', async () => {
      const { client, seen } = wiredClient({ always: '429 with Retry-After: 0' });
      const error = await rejection(client.charges.list());
      expect(error).toBeInstanceOf(RateLimitedError);
      expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 0 });
      expect(seen).toHaveLength(3);
    });

    it('reports a network fault with status 0, NETWORK_ERROR and the cause', async () => {
      const { client, seen } = wiredClient({ always: 'network error' });
      const error = await rejection(client.charges.list());
      expect(error).toBeInstanceOf(ServiceUnavailableError);
      expect(error).toMatchObject({ status: 0, errorCode: 'NETWORK_ERROR', retryable: true, requestId: undefined });
      expect(error.cause).toBeInstanceOf(TypeError);
      expect(seen).toHaveLength(3);
    });

    it('reports a timeout with status 0 and TIMEOUT_ERROR', async () => {
      const { client, seen } = wiredClient({ always: async () => new Promise<Response>(() => undefined) }, { timeoutMs: 20 });
      const error = await rejection(client.charges.list());
      expect(error).toBeInstanceOf(ServiceUnavailableError);
      expect(error).toMatchObject({ status: 0, errorCode: 'TIMEOUT_ERROR', retryable: true });
      expect(error.message).toContain('20 ms');
      expect(seen).toHaveLength(3);
    });

    it('throws an UnexpectedResponseError when the 2xx body is never JSON', async () => {
      const { client, seen } = wiredClient({ always: 'text/html body' });
      const error = await rejection(client.charges.list());
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect(error).toMatchObject({ status: 200, errorCode: 'UNEXPECTED_RESPONSE_ERROR', retryable: true });
      expect(error.message).toContain('text/html');
      expect(seen).toHaveLength(3);
    });
  });

  describe("when the caller's signal aborts", () => {
    it('stops a hanging attempt at once and does not retry', async () => {
      const { client, seen } = wiredClient({ always: async () => new Promise<Response>(() => undefined) }, { timeoutMs: 10_000 });
      const controller = new AbortController();
      const pending = rejection(client.charges.create(alipayCharge('order-1'), { signal: controller.signal }));
      // The attempt hangs on the wire.
      await vi.waitFor(() => expect(seen).toHaveLength(1));
      const started = Date.now();
      controller.abort();
      const error = await pending;
      expect(error).toBeInstanceOf(DOMException);
      expect(error.name).toBe('AbortError');
      expect(Date.now() - started).toBeLessThan(1_000);
      await delay(30);
      expect(seen).toHaveLength(1);
    });

    it('stops during the backoff between attempts', async () => {
      // A 503 that says when the client has read it to its end: the client then waits out its backoff.
      let read = 0;
      const unavailable = async () => {
        const text = new TextEncoder().encode(JSON.stringify(serviceErrorBody('INTERNAL_SERVER_ERROR', 'unavailable')));
        let pulls = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(stream) {
            pulls += 1;
            if (pulls === 1) {
              stream.enqueue(text);
              return;
            }
            stream.close();
            read += 1;
          },
        });
        return new Response(body, { status: 503, headers: { 'content-type': 'application/json' } });
      };
      const { client, seen } = wiredClient({ always: unavailable }, { retryBaseDelayMs: 10_000 });
      const controller = new AbortController();
      const pending = rejection(client.charges.list({}, { signal: controller.signal }));
      await vi.waitFor(() => expect(read).toBe(1));
      const started = Date.now();
      controller.abort(new Error('shopper left'));
      const error = await pending;
      expect(error.message).toBe('shopper left');
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(seen).toHaveLength(1);
    });

    it('sends nothing when the signal has already aborted', async () => {
      const { client, seen } = wiredClient();
      const error = await rejection(client.charges.list({}, { signal: AbortSignal.abort() }));
      expect(error.name).toBe('AbortError');
      expect(seen).toHaveLength(0);
    });
  });

  describe('when a 2xx answer breaks the contract', () => {
    it('throws an UnexpectedResponseError naming the field, without retrying', async () => {
      const { chargeId } = await new ServiceClient(clientOptions()).charges.create(alipayCharge('order-1'));
      const { client, seen } = wiredClient({ rewrite: (charge) => ({ ...charge, amount: '1' }) });
      const error = await rejection(client.charges.get(chargeId));
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect(error).toMatchObject({ status: 200, field: 'amount', errorCode: 'UNEXPECTED_RESPONSE_ERROR', retryable: false });
      expect(error.message).toContain('amount must be a number');
      expect(error.requestId).toMatch(REQUEST_ID);
      expect(seen).toHaveLength(1);
    });

    it('names the path of a bad item in a list', async () => {
      await new ServiceClient(clientOptions()).charges.create(alipayCharge('order-1'));
      const { client } = wiredClient({ rewrite: (page) => ({ ...page, data: page.data.map((c: object) => ({ ...c, status: 'LOST' })) }) });
      const error = await rejection(client.charges.list());
      expect(error.field).toBe('data.0.status');
      expect(error.message).toContain('data.0.status must be one of PENDING, SUCCEEDED, FAILED');
    });

    it('keeps unknown extra fields on the returned object', async () => {
      const { chargeId } = await new ServiceClient(clientOptions()).charges.create(alipayCharge('order-1'));
      const { client } = wiredClient({
        rewrite: (charge) => ({ ...charge, riskScore: 12, paymentMethod: { ...charge.paymentMethod, futureWallet: { tier: 'gold' } } }),
      });
      const charge = await client.charges.get(chargeId);
      expect(charge.chargeId).toBe(chargeId);
      expect(charge).toHaveProperty('riskScore', 12);
      expect(charge.paymentMethod).toHaveProperty('futureWallet', { tier: 'gold' });
    });
  });

  describe('request headers', () => {
    it('sends the user agent when one is set', async () => {
      const { client, seen } = wiredClient({}, { userAgent: 'shop-backend/2.1' });
      await client.charges.list();
      expect(seen[0]?.headers.get('user-agent')).toBe('shop-backend/2.1');
      expect(seen[0]?.headers.get('accept')).toBe('application/json');
    });
  });
});
