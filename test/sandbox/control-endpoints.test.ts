import { describe, expect } from 'vitest';
import { SERVICE_HEADERS } from '../../src/core/constants.js';
import { ServiceErrorBodySchema } from '../../src/core/service-error.js';
import { defaultSandboxMerchant, SANDBOX_DEFAULTS, type SandboxOptions } from '../../src/sandbox/index.js';
import { createQrCharge } from '../support/qr-charge.js';
import { API_AUTH, basic, CLIENT_AUTH, type SandboxClient } from '../support/sandbox-client.js';
import { sandboxTest } from '../support/sandbox-fixture.js';

/**
 * The sandbox's own control endpoints (`/sandbox/v1/…`: fault rules, the webhook log, slips) take
 * the merchant's API key, as `/api/v1` does, and act on that merchant's records alone.
 */

const OTHER = { merchantId: 'mch_other', apiKey: 'sk_other_000000000000000000000000', publishableKey: 'pk_other_000000000000000000000000' };
const OTHER_AUTH = basic(OTHER.merchantId, OTHER.apiKey);
const OTHER_CLIENT_AUTH = basic(OTHER.merchantId, OTHER.publishableKey);
const PARTNER_AUTH = basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.partnerApiKey);
const ALIPAY = { amount: 10_000, currency: 'THB', referenceId: 'order-1', paymentMethod: { paymentMethodType: 'ALIPAY' } };

const TWO_MERCHANTS: SandboxOptions = {
  merchants: [defaultSandboxMerchant(), OTHER],
  refundSettleDelayMs: 0,
  // The receiver acknowledges every webhook; the log, not the receiver, is under test here.
  webhook: { url: 'http://127.0.0.1:9/hooks', webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64, fetch: () => Promise.resolve(new Response(null, { status: 204 })) },
};

function expectError(answer: { status: number; body: unknown }, status: number, errorCode: string): void {
  expect(answer.status).toBe(status);
  expect(ServiceErrorBodySchema.parse(answer.body).error.errorCode).toBe(errorCode);
}

const CONTROL_ENDPOINTS = [
  { method: 'POST', path: '/sandbox/v1/faults', body: { path: '/api/v1/charges', kind: 'reset' } },
  { method: 'GET', path: '/sandbox/v1/faults' },
  { method: 'DELETE', path: '/sandbox/v1/faults' },
  { method: 'GET', path: '/sandbox/v1/faults/flt_any' },
  { method: 'DELETE', path: '/sandbox/v1/faults/flt_any' },
  { method: 'GET', path: '/sandbox/v1/webhook-deliveries' },
  { method: 'POST', path: '/sandbox/v1/webhook-deliveries/whd_any/redeliver', body: {} },
  { method: 'GET', path: '/sandbox/v1/charges/ch_any/slip' },
] as const;

describe.each(CONTROL_ENDPOINTS)('$method $path', (endpoint) => {
  const send = (client: SandboxClient, auth: string | null) => client.request(endpoint.method, endpoint.path, { auth, ...('body' in endpoint ? { body: endpoint.body } : {}) });

  sandboxTest('is 401 INVALID_CREDENTIALS_ERROR without a key, with a wrong key and with the publishable key', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(TWO_MERCHANTS);
    for (const auth of [null, basic(SANDBOX_DEFAULTS.merchantId, 'sk_wrong'), CLIENT_AUTH]) expectError(await send(client, auth), 401, 'INVALID_CREDENTIALS_ERROR');
    expect(sandbox.faults.list()).toEqual([]);
  });

  sandboxTest('answers the API key and a partner key acting for the merchant', async ({ startInProcess }) => {
    const { client } = startInProcess(TWO_MERCHANTS);
    for (const auth of [API_AUTH, PARTNER_AUTH]) {
      const answer = await client.request(endpoint.method, endpoint.path, {
        auth,
        headers: auth === PARTNER_AUTH ? { [SERVICE_HEADERS.partnerId]: SANDBOX_DEFAULTS.partnerId } : {},
        ...('body' in endpoint ? { body: endpoint.body } : {}),
      });
      expect(answer.status).not.toBe(401);
      expect(answer.status).toBeLessThan(500);
    }
  });
});

describe("a merchant's fault rules", () => {
  async function addRule(client: SandboxClient, auth: string, input: Record<string, unknown>): Promise<{ faultId: string; merchantId?: string }> {
    const answer = await client.post('/sandbox/v1/faults', input, { auth });
    expect(answer.status).toBe(201);
    return answer.body;
  }

  sandboxTest("spoil only that merchant's requests, by either of its keys, and never another merchant's", async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(TWO_MERCHANTS);
    const rule = await addRule(client, API_AUTH, { path: '/*', kind: 'status', status: 503, times: 10 });
    expect(rule.merchantId).toBe(SANDBOX_DEFAULTS.merchantId);

    expect((await client.createCharge(ALIPAY, {})).status).toBe(503);
    expect((await client.post('/client/v1/card-tokens', {}, { auth: CLIENT_AUTH })).status).toBe(503);
    expect((await client.post('/api/v1/charges', ALIPAY, { auth: OTHER_AUTH })).status).toBe(201);
    expect((await client.post('/client/v1/card-tokens', {}, { auth: OTHER_CLIENT_AUTH })).status).toBe(400);
    // A request whose key does not authenticate belongs to nobody: it gets its own 401.
    expect((await client.get('/api/v1/charges', { auth: basic(SANDBOX_DEFAULTS.merchantId, 'sk_wrong') })).status).toBe(401);
    expect((await client.get('/sandbox/health', { auth: null })).status).toBe(200);

    const [kept] = sandbox.faults.list();
    expect(kept!.remaining).toBe(8);
    expect(kept!.hits.map((hit) => hit.path)).toEqual(['/api/v1/charges', '/client/v1/card-tokens']);
  });

  sandboxTest("are listed, read and deleted by that merchant alone: another's rule is not found and survives a delete-all", async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(TWO_MERCHANTS);
    const mine = await addRule(client, API_AUTH, { path: '/api/v1/charges', kind: 'reset' });
    const theirs = await addRule(client, OTHER_AUTH, { path: '/api/v1/charges', kind: 'rate-limit' });

    const listed = await client.get('/sandbox/v1/faults');
    expect(listed.body.data.map((rule: { faultId: string }) => rule.faultId)).toEqual([mine.faultId]);
    expect(listed.body.totalCount).toBe(1);
    expectError(await client.get(`/sandbox/v1/faults/${theirs.faultId}`), 404, 'NOT_FOUND_ERROR');
    expectError(await client.request('DELETE', `/sandbox/v1/faults/${theirs.faultId}`), 404, 'NOT_FOUND_ERROR');
    expect((await client.request('DELETE', '/sandbox/v1/faults')).body).toEqual({ deleted: 1 });

    expect(sandbox.faults.list().map((rule) => rule.faultId)).toEqual([theirs.faultId]);
    expect((await client.get(`/sandbox/v1/faults/${theirs.faultId}`, { auth: OTHER_AUTH })).status).toBe(200);
    expect((await client.post('/api/v1/charges', ALIPAY, { auth: OTHER_AUTH })).status).toBe(429);
  });

  sandboxTest('count against each merchant on its own, so one merchant cannot use up the rules of another', async ({ startInProcess }) => {
    const { client } = startInProcess(TWO_MERCHANTS);
    for (let i = 0; i < 100; i += 1) await addRule(client, OTHER_AUTH, { path: `/api/v1/x${i}`, kind: 'reset' });
    expectError(await client.post('/sandbox/v1/faults', { path: '/api/v1/y', kind: 'reset' }, { auth: OTHER_AUTH }), 400, 'API_VALIDATION_ERROR');
    await addRule(client, API_AUTH, { path: '/api/v1/y', kind: 'reset' });
  });

  sandboxTest('added in process spoil every merchant’s requests', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(TWO_MERCHANTS);
    sandbox.faults.add({ method: 'POST', path: '/api/v1/charges', kind: 'status', status: 500, times: 2 });
    expect((await client.createCharge(ALIPAY, {})).status).toBe(500);
    expect((await client.post('/api/v1/charges', ALIPAY, { auth: OTHER_AUTH })).status).toBe(500);
    // Not the merchant's own: its control endpoint neither lists nor removes it.
    expect((await client.get('/sandbox/v1/faults')).body.totalCount).toBe(0);
    expect((await client.request('DELETE', '/sandbox/v1/faults')).body).toEqual({ deleted: 0 });
    expect(sandbox.faults.list()).toHaveLength(1);
  });
});

describe("a merchant's webhook log", () => {
  sandboxTest("lists its own deliveries and re-sends them; another merchant's delivery is not found", async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(TWO_MERCHANTS);
    await client.createCharge(ALIPAY, {});
    const theirs = (await client.post('/api/v1/charges', { ...ALIPAY, paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId: await tokenFor(client, OTHER_CLIENT_AUTH), securityCode: '123' } } }, { auth: OTHER_AUTH })).body;
    await sandbox.webhooks.idle();

    const mine = await client.get('/sandbox/v1/webhook-deliveries');
    const other = await client.get('/sandbox/v1/webhook-deliveries', { auth: OTHER_AUTH });
    expect(other.body.totalCount).toBeGreaterThan(0);
    expect(other.body.data.every((delivery: { body: string }) => (JSON.parse(delivery.body) as { merchantId: string }).merchantId === OTHER.merchantId)).toBe(true);
    expect(mine.body.data.some((delivery: { resourceId: string }) => delivery.resourceId === theirs.chargeId)).toBe(false);

    const [theirDelivery] = other.body.data as { deliveryId: string }[];
    const before = sandbox.webhooks.list().length;
    expectError(await client.post(`/sandbox/v1/webhook-deliveries/${theirDelivery!.deliveryId}/redeliver`, {}), 404, 'NOT_FOUND_ERROR');
    expect(sandbox.webhooks.list()).toHaveLength(before);
    expect((await client.post(`/sandbox/v1/webhook-deliveries/${theirDelivery!.deliveryId}/redeliver`, {}, { auth: OTHER_AUTH })).status).toBe(202);
    expect(sandbox.webhooks.list()).toHaveLength(before + 1);
  });
});

describe("a merchant's slips", () => {
  sandboxTest("are issued for its own QR charges; another merchant's charge is not found", async ({ startInProcess }) => {
    const { client } = startInProcess(TWO_MERCHANTS);
    const charge = await createQrCharge(client, {}, { auth: OTHER_AUTH });
    expectError(await client.get(`/sandbox/v1/charges/${charge.chargeId}/slip`), 404, 'NOT_FOUND_ERROR');
    expect((await client.get(`/sandbox/v1/charges/${charge.chargeId}/slip`, { auth: OTHER_AUTH })).status).toBe(200);
  });
});

async function tokenFor(client: SandboxClient, auth: string): Promise<string> {
  const answer = await client.post('/client/v1/card-tokens', { pan: '4111111111111111', expiryMonth: 12, expiryYear: (new Date().getUTCFullYear() + 2) % 100, cardHolderName: 'Somchai Jaidee' }, { auth });
  expect(answer.status).toBe(201);
  return answer.body.id as string;
}
