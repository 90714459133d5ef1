import { describe, expect } from 'vitest';
import { SERVICE_HEADERS } from '../../src/core/constants.js';
import { ServiceErrorBodySchema } from '../../src/core/service-error.js';
import { REPLAYED_HEADER, SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
import { qrChargeBody } from '../support/qr-charge.js';
import { basic, IDEMPOTENCY_HEADER } from '../support/sandbox-client.js';
import { sandboxTest } from '../support/sandbox-fixture.js';


const alipay = { paymentMethod: { paymentMethodType: 'ALIPAY' } };

describe('authentication', () => {
  sandboxTest('takes the API key on /api and the publishable key on /client', async ({ startInProcess }) => {
    const { client } = startInProcess();
    expect((await client.get('/api/v1/charges')).status).toBe(200);
    expect((await client.get('/api/v1/charges', { auth: basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.publishableKey) })).status).toBe(401);
    const token = await client.post('/client/v1/card-tokens', { pan: '4111111111111111', expiryMonth: 1, expiryYear: 99, cardHolderName: 'A' }, { auth: basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.apiKey) });
    expect(token.status).toBe(401);
    expect(token.body.error.errorCode).toBe('INVALID_CREDENTIALS_ERROR');
  });

  sandboxTest('answers 401 INVALID_CREDENTIALS_ERROR in the service error shape without credentials', async ({ startInProcess }) => {
    const { client } = startInProcess();
    const answer = await client.get('/api/v1/charges', { auth: null });
    expect(answer.status).toBe(401);
    expect(ServiceErrorBodySchema.parse(answer.body)).toMatchObject({ code: 401, error: { errorCode: 'INVALID_CREDENTIALS_ERROR' } });
  });

  sandboxTest('lets a partner key act for a merchant under the partner, with the partner id header', async ({ startInProcess }) => {
    const { client } = startInProcess();
    const auth = basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.partnerApiKey);
    const created = await client.post('/api/v1/charges', { amount: 100, currency: 'THB', referenceId: 'p', ...alipay }, { auth, headers: { [SERVICE_HEADERS.partnerId]: SANDBOX_DEFAULTS.partnerId } });
    expect(created.status).toBe(201);
    expect((await client.getCharge(created.body.chargeId)).merchantId).toBe(SANDBOX_DEFAULTS.merchantId);
    const withoutHeader = await client.get('/api/v1/charges', { auth });
    expect(withoutHeader.status).toBe(401);
    expect(withoutHeader.body.message).toContain(SERVICE_HEADERS.partnerId);
  });

  sandboxTest('refuses a partner acting for a merchant that is not under it', async ({ startInProcess }) => {
    const { client } = startInProcess({
      merchants: [{ merchantId: 'solo', apiKey: 'sk_solo', publishableKey: 'pk_solo' }],
      partners: [{ partnerId: 'ptn_1', apiKey: 'sk_ptn_1' }],
    });
    const answer = await client.get('/api/v1/charges', { auth: basic('solo', 'sk_ptn_1'), headers: { [SERVICE_HEADERS.partnerId]: 'ptn_1' } });
    expect(answer.status).toBe(403);
    expect(answer.body.error.errorCode).toBe('NO_PERMISSION_ERROR');
  });
});

describe('every answer', () => {
  sandboxTest('carries a request id, distinct per request', async ({ startInProcess }) => {
    const { client } = startInProcess();
    const a = await client.get('/api/v1/charges');
    const b = await client.get('/nowhere', { auth: null });
    expect(a.headers.get(SERVICE_HEADERS.requestId)).toMatch(/^req_/);
    expect(b.headers.get(SERVICE_HEADERS.requestId)).toMatch(/^req_/);
    expect(a.headers.get(SERVICE_HEADERS.requestId)).not.toBe(b.headers.get(SERVICE_HEADERS.requestId));
  });
});

describe('CORS', () => {
  sandboxTest('answers the preflight of /client with any origin and the headers a browser sends', async ({ startInProcess }) => {
    const { client } = startInProcess();
    const answer = await client.request('OPTIONS', '/client/v1/card-tokens', { auth: null, headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(answer.headers.get('access-control-allow-headers')).toContain('content-type');
  });

  sandboxTest('marks /client answers, errors included, as readable from any origin, and /api answers not at all', async ({ startInProcess }) => {
    const { client } = startInProcess();
    const error = await client.post('/client/v1/card-tokens', {}, { auth: null });
    expect(error.status).toBe(401);
    expect(error.headers.get('access-control-allow-origin')).toBe('*');
    expect(error.headers.get('access-control-expose-headers')).toContain(SERVICE_HEADERS.requestId);
    expect((await client.get('/api/v1/charges')).headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('idempotency', () => {
  const body = { amount: 10_000, currency: 'THB', referenceId: 'order-9', ...alipay };

  sandboxTest('answers a retry with the same key and body exactly as the first call, creating nothing new', async ({ startInProcess }) => {
    const { client } = startInProcess();
    const first = await client.post('/api/v1/charges', body, { headers: { [IDEMPOTENCY_HEADER]: 'key-1' } });
    const retry = await client.post('/api/v1/charges', body, { headers: { [IDEMPOTENCY_HEADER]: 'key-1' } });
    expect(retry.status).toBe(first.status);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get(REPLAYED_HEADER)).toBe('true');
    expect(first.headers.get(REPLAYED_HEADER)).toBeNull();
    expect((await client.get('/api/v1/charges')).body.totalCount).toBe(1);
  });

  sandboxTest('treats the same JSON with its keys in another order as the same request', async ({ startInProcess }) => {
    const { client } = startInProcess();
    await client.post('/api/v1/charges', body, { headers: { [IDEMPOTENCY_HEADER]: 'key-2' } });
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const retry = await client.post('/api/v1/charges', reordered, { headers: { [IDEMPOTENCY_HEADER]: 'key-2' } });
    expect(retry.status).toBe(201);
    expect((await client.get('/api/v1/charges')).body.totalCount).toBe(1);
  });

  sandboxTest('answers 412 IDEMPOTENCY_KEY_ERROR when the same key comes with another body', async ({ startInProcess }) => {
    const { client } = startInProcess();
    await client.post('/api/v1/charges', body, { headers: { [IDEMPOTENCY_HEADER]: 'key-3' } });
    const other = await client.post('/api/v1/charges', { ...body, amount: 20_000 }, { headers: { [IDEMPOTENCY_HEADER]: 'key-3' } });
    expect(other.status).toBe(412);
    expect(other.body.error.errorCode).toBe('IDEMPOTENCY_KEY_ERROR');
    expect((await client.get('/api/v1/charges')).body.totalCount).toBe(1);
  });

  sandboxTest('makes exactly one charge from 50 identical requests sent at once', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => client.post('/api/v1/charges', qrChargeBody({ referenceId: body.referenceId }), { headers: { [IDEMPOTENCY_HEADER]: 'burst' } })),
    );
    expect(new Set(answers.map((a) => a.body.chargeId)).size).toBe(1);
    expect(answers.every((a) => a.status === 201)).toBe(true);
    expect(sandbox.store.charges.size).toBe(1);
  });

  sandboxTest('replays a validation error too, and keys belong to one merchant', async ({ startInProcess }) => {
    const { client } = startInProcess({ merchants: [{ merchantId: 'm1', apiKey: 'sk1', publishableKey: 'pk1' }, { merchantId: 'm2', apiKey: 'sk2', publishableKey: 'pk2' }] });
    const bad = { ...body, amount: 1 };
    const first = await client.post('/api/v1/charges', bad, { auth: basic('m1', 'sk1'), headers: { [IDEMPOTENCY_HEADER]: 'shared' } });
    const again = await client.post('/api/v1/charges', bad, { auth: basic('m1', 'sk1'), headers: { [IDEMPOTENCY_HEADER]: 'shared' } });
    expect(first.status).toBe(400);
    expect(again.body).toEqual(first.body);
    const otherMerchant = await client.post('/api/v1/charges', body, { auth: basic('m2', 'sk2'), headers: { [IDEMPOTENCY_HEADER]: 'shared' } });
    expect(otherMerchant.status).toBe(201);
  });

  sandboxTest('forgets a key after 12 hours', async ({ startInProcess }) => {
    let now = Date.now();
    const { sandbox, client } = startInProcess({ now: () => new Date(now) });
    await client.post('/api/v1/charges', body, { headers: { [IDEMPOTENCY_HEADER]: 'old' } });
    now += 12 * 60 * 60 * 1000 + 1;
    const later = await client.post('/api/v1/charges', { ...body, amount: 500 }, { headers: { [IDEMPOTENCY_HEADER]: 'old' } });
    expect(later.status).toBe(201);
    expect(sandbox.store.charges.size).toBe(2);
  });

  sandboxTest('applies to card tokens: a retried tokenization returns the same token', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess();
    const card = { pan: '4111111111111111', expiryMonth: 1, expiryYear: 99, cardHolderName: 'A' };
    const a = await client.post('/client/v1/card-tokens', card, { headers: { [IDEMPOTENCY_HEADER]: 't1' } });
    const b = await client.post('/client/v1/card-tokens', card, { headers: { [IDEMPOTENCY_HEADER]: 't1' } });
    expect(b.body.id).toBe(a.body.id);
    expect(sandbox.store.cardTokens.size).toBe(1);
  });
});

describe('actions that take no body', () => {
  sandboxTest('accept an empty body on cancel, disable and health-check, and still want JSON on others', async ({ startInProcess }) => {
    const { client } = startInProcess();
    for (const [method, path] of [['POST', '/api/v1/card-authorizations/ca_1/cancel'], ['PATCH', '/api/v1/payment-links/pl_1/disable'], ['POST', '/api/v1/bolt-devices/bd_1/health-check']]) {
      // Past the body: the answer is about the resource (unknown, or not offered yet).
      expect([404, 501], path).toContain((await client.request(method!, path!)).status);
    }
    expect((await client.request('POST', '/api/v1/card-authorizations/ca_1/cancel')).body.error.errorCode).toBe('NOT_FOUND_ERROR');
    expect((await client.request('POST', '/api/v1/charges')).body.error.errorCode).toBe('INVALID_JSON_ERROR');
  });
});

