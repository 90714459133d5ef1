import { afterEach, describe, expect, it, vi } from 'vitest';
import { SERVICE_HEADERS } from '../../../src/core/constants.js';
import { BoltConnectionDeletedSchema, BoltConnectionSchema, BoltDeviceListSchema, BoltDeviceSchema, BoltIntentSchema, type BoltDevice } from '../../../src/core/schemas/bolt.js';
import { ChargeSchema } from '../../../src/core/schemas/charge.js';
import { verifyWebhookSignature } from '../../../src/core/webhook-signature.js';
import { REPLAYED_HEADER } from '../../../src/sandbox/http/dispatcher.js';
import {
  defaultSandboxMerchant,
  SANDBOX_BOLT_CARD,
  SANDBOX_BOLT_DEVICES,
  SANDBOX_DEFAULTS,
  type Sandbox,
  type SandboxOptions,
} from '../../../src/sandbox/index.js';
import { basic, IDEMPOTENCY_HEADER, newSandbox, ORIGIN, type SandboxClient } from '../../support/sandbox-client.js';

const WEBHOOK_KEY = Buffer.from('a webhook key of thirty-two byte').toString('base64');
const RETURN_URL = 'https://shop.example/bolt/return?order=7';
const START = Date.parse('2025-03-14T09:26:53.000Z');

interface Hook {
  event: string;
  body: unknown;
  signature: string;
  raw: string;
}

let sandbox: Sandbox;
let client: SandboxClient;
let now = START;
let hooks: Hook[];
/** A connection to the default merchant's newest device, made as each sandbox starts. */
let connectionId: string;

function start(options: SandboxOptions = {}) {
  now = START;
  // Each sandbox records into its own array, so a late delivery of an earlier test lands elsewhere.
  const received: Hook[] = [];
  hooks = received;
  ({ sandbox, client } = newSandbox({
    now: () => new Date(now),
    refundSettleDelayMs: 0,
    webhook: {
      url: 'https://merchant.example/hooks',
      webhookKeyBase64: WEBHOOK_KEY,
      retryBaseDelayMs: 1,
      fetch: async (input: string | URL | Request, init?: RequestInit) => {
        const request = new Request(input, init);
        const raw = await request.text();
        received.push({ event: request.headers.get(SERVICE_HEADERS.event)!, signature: request.headers.get(SERVICE_HEADERS.signature)!, body: JSON.parse(raw), raw });
        return new Response(null, { status: 204 });
      },
    },
    ...options,
  }));
  const merchant = sandbox.merchants.get(SANDBOX_DEFAULTS.merchantId)!;
  const [device] = sandbox.bolt.listDevices(merchant, { limit: 1, offset: 0 }).data;
  connectionId = device ? sandbox.bolt.createConnection(merchant, { pairingCode: sandbox.bolt.pairingCode(merchant, device.boltDeviceId) }).id : 'bc_no_device';
}
// Widened: no sandbox exists before the first test starts one.
afterEach(() => (sandbox as Sandbox | undefined)?.close());

/** Webhook events in the order the sandbox sent them; deliveries may arrive in another order. */
const events = () => sandbox.webhooks.list().reverse().map((delivery) => delivery.event);
/** The delivered body of the one `event` webhook. */
const hookBody = (event: string) => {
  const matching = hooks.filter((hook) => hook.event === event);
  expect(matching).toHaveLength(1);
  return matching[0]!.body;
};
async function settled() {
  await sandbox.webhooks.idle();
}

const pairing = (fields: Record<string, unknown> = {}) => ({
  amount: 45_000,
  currency: 'THB',
  referenceId: 'table-12',
  internalNote: 'lunch',
  expiryDurationInSec: 120,
  boltConnectionId: connectionId,
  mode: { type: 'PAIRING' },
  paymentMethod: { paymentMethodType: 'CARD' },
  ...fields,
});
const deepLink = (fields: Record<string, unknown> = {}) =>
  pairing({ boltConnectionId: undefined, mode: { type: 'DEEP_LINK', deepLink: { returnUrl: RETURN_URL } }, paymentMethod: { paymentMethodType: 'ALIPAY_PLUS' }, ...fields });

async function createIntent(body: Record<string, unknown>) {
  const answer = await client.post('/api/v1/bolt-intents', body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}
const getIntent = async (id: string) => (await client.get(`/api/v1/bolt-intents/${id}`)).body;
const pageUrl = (id: string) => `${ORIGIN}/sandbox/pages/bolt/${id}`;

describe('POST /api/v1/bolt-intents', () => {
  it('creates an ACTIVE PAIRING intent with every field of the bolt intent shape', async () => {
    start();
    const intent = await createIntent(pairing());
    expect(BoltIntentSchema.safeParse(intent).success).toBe(true);
    expect(intent.id).toMatch(/^bi_/);
    expect(intent).toMatchObject({
      merchantId: SANDBOX_DEFAULTS.merchantId,
      amount: 45_000,
      currency: 'THB',
      status: 'ACTIVE',
      mode: { type: 'PAIRING', deepLink: null },
      boltConnectionId: connectionId,
      referenceId: 'table-12',
      internalNote: 'lunch',
      expiresAt: '2025-03-14T09:28:53.000Z',
      merchant: { merchantId: SANDBOX_DEFAULTS.merchantId, name: SANDBOX_DEFAULTS.merchantName, logoUrl: '' },
      latestChargeId: '',
      latestChargeStatus: '',
      latestChargeFailureCode: '',
      result: '',
      createdAt: '2025-03-14T09:26:53.000Z',
      createdBy: SANDBOX_DEFAULTS.merchantId,
      updatedAt: '2025-03-14T09:26:53.000Z',
      updatedBy: SANDBOX_DEFAULTS.merchantId,
    });
    expect(intent.paymentMethod).toEqual({
      paymentMethodType: 'CARD',
      card: {},
      cardInstallments: null,
      qrPromptPay: null,
      alipay: null,
      alipayPlus: null,
      linePay: null,
      shopeePay: null,
      trueMoney: null,
      weChatPay: null,
      sPayLater: null,
    });
  });

  it('gives a DEEP_LINK intent a deep link to its sandbox page and keeps the return URL', async () => {
    start();
    const intent = await createIntent(deepLink());
    expect(intent.mode).toEqual({ type: 'DEEP_LINK', deepLink: { deepLinkUrl: pageUrl(intent.id), returnUrl: RETURN_URL } });
    expect(intent.boltConnectionId).toBeNull();
    expect(intent.internalNote).toBe('lunch');
    expect(intent.paymentMethod).toMatchObject({ paymentMethodType: 'ALIPAY_PLUS', alipayPlus: {}, card: null });
  });

  it('accepts every bolt payment method, ALIPAY_PLUS and SPAY_LATER included', async () => {
    start();
    for (const [type, member] of [
      ['CARD_INSTALLMENTS', 'cardInstallments'],
      ['QR_PROMPT_PAY', 'qrPromptPay'],
      ['ALIPAY_PLUS', 'alipayPlus'],
      ['SPAY_LATER', 'sPayLater'],
      ['WECHAT_PAY', 'weChatPay'],
    ] as const) {
      const intent = await createIntent(pairing({ paymentMethod: { paymentMethodType: type } }));
      expect(intent.paymentMethod.paymentMethodType).toBe(type);
      expect(intent.paymentMethod[member]).toEqual({});
    }
  });

  it('shows the merchant as configured, logo included', async () => {
    start({ merchants: [{ ...defaultSandboxMerchant(), name: 'Baan Somtam', logoUrl: 'https://cdn.example/logo.png' }] });
    const intent = await createIntent(pairing());
    expect(intent.merchant).toEqual({ merchantId: SANDBOX_DEFAULTS.merchantId, name: 'Baan Somtam', logoUrl: 'https://cdn.example/logo.png' });
  });

  it('accepts the expiry bounds of 90 and 600 seconds', async () => {
    start();
    expect((await createIntent(pairing({ expiryDurationInSec: 90 }))).expiresAt).toBe('2025-03-14T09:28:23.000Z');
    expect((await createIntent(pairing({ expiryDurationInSec: 600 }))).expiresAt).toBe('2025-03-14T09:36:53.000Z');
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a missing amount', { amount: undefined }, 'amount is required'],
    ['an amount below 1.00 THB', { amount: 99 }, 'amount must be at least 100'],
    ['another currency', { currency: 'USD' }, 'currency must be THB'],
    ['a missing reference', { referenceId: undefined }, 'referenceId is required'],
    ['an expiry under 90 seconds', { expiryDurationInSec: 89 }, 'expiryDurationInSec must be at least 90'],
    ['an expiry over 600 seconds', { expiryDurationInSec: 601 }, 'expiryDurationInSec must be at most 600'],
    ['a fractional expiry', { expiryDurationInSec: 90.5 }, 'expiryDurationInSec must be a whole number of seconds'],
    ['PAIRING without a connection', { boltConnectionId: undefined }, 'boltConnectionId is required in PAIRING mode'],
    ['a connection id without bc_', { boltConnectionId: 'conn_1' }, 'boltConnectionId must be a bolt connection id (bc_…)'],
    ['an unknown mode', { mode: { type: 'NFC' } }, 'mode.type must be PAIRING or DEEP_LINK'],
    ['neither a mode nor a connection', { mode: undefined, boltConnectionId: undefined }, 'mode is required when no boltConnectionId is given'],
    ['DEEP_LINK without a deep link', { mode: { type: 'DEEP_LINK' } }, 'mode.deepLink is required'],
    ['DEEP_LINK with a javascript: return URL', { mode: { type: 'DEEP_LINK', deepLink: { returnUrl: 'javascript:alert(1)' } } }, 'mode.deepLink.returnUrl must be an absolute http or https URL'],
    ['a method bolt does not take', { paymentMethod: { paymentMethodType: 'KPLUS' } }, 'paymentMethod.paymentMethodType is not supported for bolt intents'],
    ['no payment method', { paymentMethod: undefined }, 'paymentMethod is required'],
    ['a long internal note', { internalNote: 'x'.repeat(256) }, 'internalNote must be at most 255 characters'],
  ])('refuses %s with 400 API_VALIDATION_ERROR naming the field', async (_name, fields, message) => {
    start();
    const answer = await client.post('/api/v1/bolt-intents', pairing(fields));
    expect(answer.status).toBe(400);
    expect(answer.body.error.errorCode).toBe('API_VALIDATION_ERROR');
    expect(answer.body.error.errorMessage).toContain(message);
  });

  it('refuses a body that is not JSON, or not an object', async () => {
    start();
    const notJson = await client.request('POST', '/api/v1/bolt-intents', { raw: '{"amount":', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.errorCode).toBe('INVALID_JSON_ERROR');
    const array = await client.post('/api/v1/bolt-intents', [pairing()]);
    expect(array.status).toBe(400);
    expect(array.body.error.errorCode).toBe('API_VALIDATION_ERROR');
  });

  it('needs the API key: none is 401, the publishable key is 401', async () => {
    start();
    expect((await client.post('/api/v1/bolt-intents', pairing(), { auth: null })).status).toBe(401);
    const publishable = basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.publishableKey);
    expect((await client.post('/api/v1/bolt-intents', pairing(), { auth: publishable })).status).toBe(401);
  });

  it('acts for a merchant under a partner key with the partner header', async () => {
    start();
    const answer = await client.post('/api/v1/bolt-intents', pairing(), {
      auth: basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.partnerApiKey),
      headers: { [SERVICE_HEADERS.partnerId]: SANDBOX_DEFAULTS.partnerId },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.merchantId).toBe(SANDBOX_DEFAULTS.merchantId);
  });

  it('creates one intent for a retry with the same idempotency key, and 412 for another body', async () => {
    start();
    const headers = { [IDEMPOTENCY_HEADER]: 'f3b4c1de-0a1b-4c2d-8e3f-405162738495' };
    const a = await client.post('/api/v1/bolt-intents', pairing(), { headers });
    const b = await client.post('/api/v1/bolt-intents', pairing(), { headers });
    expect(b.status).toBe(201);
    expect(b.body.id).toBe(a.body.id);
    const c = await client.post('/api/v1/bolt-intents', pairing({ amount: 500 }), { headers });
    expect(c.status).toBe(412);
    expect(c.body.error.errorCode).toBe('IDEMPOTENCY_KEY_ERROR');
  });
});

describe('GET /api/v1/bolt-intents/{id}', () => {
  it('reads the intent as it was created', async () => {
    start();
    const intent = await createIntent(pairing());
    const answer = await client.get(`/api/v1/bolt-intents/${intent.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(intent);
  });

  it('is 404 for an unknown id and for another merchant’s intent', async () => {
    const other = { merchantId: 'mch_other', apiKey: 'sk_other_000000000000000000000000', publishableKey: 'pk_other_000000000000000000000000' };
    start({ merchants: [defaultSandboxMerchant(), other] });
    const intent = await createIntent(pairing());
    const unknown = await client.get('/api/v1/bolt-intents/bi_nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.errorCode).toBe('NOT_FOUND_ERROR');
    const foreign = await client.get(`/api/v1/bolt-intents/${intent.id}`, { auth: basic(other.merchantId, other.apiKey) });
    expect(foreign.status).toBe(404);
  });
});

describe('expiry', () => {
  it('turns an untouched intent EXPIRED at expiresAt on the sandbox clock, with one bolt_intent.expired webhook', async () => {
    start();
    const intent = await createIntent(pairing({ expiryDurationInSec: 90 }));
    now = START + 90_000 - 1;
    expect((await getIntent(intent.id)).status).toBe('ACTIVE');
    now = START + 90_000;
    const expired = await getIntent(intent.id);
    expect(expired).toMatchObject({ status: 'EXPIRED', result: 'BI_EXPIRED', updatedAt: '2025-03-14T09:28:23.000Z', updatedBy: 'system' });
    now += 60_000;
    expect(await getIntent(intent.id)).toEqual(expired);
    await settled();
    expect(events()).toEqual(['bolt_intent.expired']);
    expect(hookBody('bolt_intent.expired')).toEqual(expired);
    expect(await verifyWebhookSignature(new TextEncoder().encode(hooks[0]!.raw), hooks[0]!.signature, WEBHOOK_KEY)).toBe(true);
  });

  it('shows an expired intent on its page without actions, and refuses to pay it', async () => {
    start();
    const intent = await createIntent(pairing());
    now = START + 120_000;
    const page = await client.sandbox.fetch(new Request(pageUrl(intent.id)));
    const html = await page.text();
    expect(html).toContain('EXPIRED');
    expect(html).not.toContain('value="pay"');
    const pay = await client.submitPage(pageUrl(intent.id), { action: 'pay' });
    expect(pay.status).toBe(409);
    expect(pay.html).toContain('already EXPIRED');
    expect((await getIntent(intent.id)).latestChargeId).toBe('');
    expect(sandbox.store.charges.size).toBe(0);
  });
});

describe('the bolt page', () => {
  it('is an HTML page under the hosted pages’ CSP with pay, decline and cancel', async () => {
    start();
    const intent = await createIntent(pairing());
    const page = await client.sandbox.fetch(new Request(pageUrl(intent.id)));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('<link rel="stylesheet" href="/sandbox/pages/style.css">');
    expect(html).toContain(`action="/sandbox/pages/bolt/${intent.id}"`);
    for (const action of ['pay', 'decline', 'cancel']) expect(html).toContain(`name="action" value="${action}"`);
    expect(html).toContain('<option value="CH_INSUFFICIENT_FUNDS">');
    expect(html).toContain('Terminal simulator');
    expect(html).toContain('450.00');
  });

  it('escapes what the merchant sent and carries no script or inline style', async () => {
    start({ merchants: [{ ...defaultSandboxMerchant(), name: 'Shop "<b>"' }] });
    const intent = await createIntent(deepLink({ referenceId: '<script>alert(1)</script>' }));
    const html = await (await client.sandbox.fetch(new Request(pageUrl(intent.id)))).text();
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Shop &quot;&lt;b&gt;&quot;');
    expect(html).not.toMatch(/<script|\sstyle=|<b>/i);
  });

  it('pays a PAIRING intent: a SUCCEEDED charge from the intent, its transaction, then bolt_intent.paid', async () => {
    start();
    const intent = await createIntent(pairing());
    now += 5_000;
    const paid = await client.submitPage(pageUrl(intent.id), { action: 'pay' });
    expect(paid.status).toBe(200);
    expect(paid.html).toContain('Payment approved');
    const after = await getIntent(intent.id);
    expect(after).toMatchObject({
      status: 'PAID',
      latestChargeStatus: 'SUCCEEDED',
      latestChargeFailureCode: '',
      result: 'CH_SUCCEEDED',
      updatedAt: '2025-03-14T09:26:58.000Z',
      updatedBy: 'device',
      paymentMethod: { paymentMethodType: 'CARD', card: { last4: SANDBOX_BOLT_CARD.last4, brand: SANDBOX_BOLT_CARD.brand } },
    });
    const charge = await client.getCharge(after.latestChargeId);
    expect(ChargeSchema.safeParse(charge).success).toBe(true);
    expect(charge).toMatchObject({
      status: 'SUCCEEDED',
      amount: 45_000,
      referenceId: 'table-12',
      source: 'API',
      sourceId: intent.id,
      failureCode: '',
      paymentMethod: { paymentMethodType: 'CARD', card: { last4: '1111', brand: 'VISA', iso8583ResponseCode: '00' } },
    });
    const transaction = await client.get(`/api/v1/transactions/${charge.chargeId}`);
    expect(transaction.body).toMatchObject({ transactionType: 'PAYMENT', chargeSource: 'API', sourceId: intent.id, grossAmount: 45_000 });
    expect((await client.get(`/api/v1/charges?sourceId=${intent.id}`)).body.totalCount).toBe(1);
    await settled();
    expect(events()).toEqual(['charge.succeeded', 'transaction.created', 'bolt_intent.paid']);
    expect(hookBody('bolt_intent.paid')).toEqual(after);
  });

  it('pays a DEEP_LINK intent and sends the shopper back to the return URL', async () => {
    start();
    const intent = await createIntent(deepLink());
    const paid = await client.submitPage(intent.mode.deepLink.deepLinkUrl, { action: 'pay' });
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(RETURN_URL);
    const after = await getIntent(intent.id);
    expect(after).toMatchObject({ status: 'PAID', result: 'CH_SUCCEEDED', updatedBy: 'shopper' });
    const charge = await client.getCharge(after.latestChargeId);
    expect(charge.paymentMethod).toMatchObject({ paymentMethodType: 'ALIPAY_PLUS', alipayPlus: {}, alipay: null, card: null });
  });

  it('declines with the chosen failure code: a FAILED charge, the intent stays ACTIVE and can be paid after', async () => {
    start();
    const intent = await createIntent(deepLink());
    const declined = await client.submitPage(pageUrl(intent.id), { action: 'decline', failureCode: 'CH_INSUFFICIENT_FUNDS' });
    expect(declined.status).toBe(200);
    expect(declined.html).toContain('declined (CH_INSUFFICIENT_FUNDS)');
    const first = await getIntent(intent.id);
    expect(first).toMatchObject({ status: 'ACTIVE', latestChargeStatus: 'FAILED', latestChargeFailureCode: 'CH_INSUFFICIENT_FUNDS', result: 'CH_INSUFFICIENT_FUNDS' });
    expect(await client.getCharge(first.latestChargeId)).toMatchObject({ status: 'FAILED', failureCode: 'CH_INSUFFICIENT_FUNDS', sourceId: intent.id });

    await client.submitPage(pageUrl(intent.id), { action: 'pay' });
    const second = await getIntent(intent.id);
    expect(second).toMatchObject({ status: 'PAID', latestChargeStatus: 'SUCCEEDED', latestChargeFailureCode: '', result: 'CH_SUCCEEDED' });
    expect(second.latestChargeId).not.toBe(first.latestChargeId);
    await settled();
    expect(events()).toEqual(['charge.failed', 'charge.succeeded', 'transaction.created', 'bolt_intent.paid']);
  });

  it('declines with CH_PROCESSING_FAILED when no code is chosen, and refuses a code it does not know', async () => {
    start();
    const intent = await createIntent(pairing());
    const bogus = await client.submitPage(pageUrl(intent.id), { action: 'decline', failureCode: 'CH_MADE_UP' });
    expect(bogus.status).toBe(400);
    expect(sandbox.store.charges.size).toBe(0);
    await client.submitPage(pageUrl(intent.id), { action: 'decline' });
    expect((await getIntent(intent.id)).latestChargeFailureCode).toBe('CH_PROCESSING_FAILED');
  });

  it('cancels: CANCELED with BI_CANCELED and bolt_intent.canceled; a DEEP_LINK shopper returns to the merchant', async () => {
    start();
    const a = await createIntent(pairing());
    const canceled = await client.submitPage(pageUrl(a.id), { action: 'cancel' });
    expect(canceled.status).toBe(200);
    expect(await getIntent(a.id)).toMatchObject({ status: 'CANCELED', result: 'BI_CANCELED', latestChargeId: '' });
    const b = await createIntent(deepLink());
    const back = await client.submitPage(pageUrl(b.id), { action: 'cancel' });
    expect(back).toMatchObject({ status: 303, location: RETURN_URL });
    await settled();
    expect(events()).toEqual(['bolt_intent.canceled', 'bolt_intent.canceled']);
    expect(sandbox.store.charges.size).toBe(0);
  });

  it('refuses every action once the intent is no longer ACTIVE, and changes nothing', async () => {
    start();
    const intent = await createIntent(pairing());
    await client.submitPage(pageUrl(intent.id), { action: 'pay' });
    const paid = await getIntent(intent.id);
    for (const action of ['pay', 'decline', 'cancel']) {
      const again = await client.submitPage(pageUrl(intent.id), { action });
      expect(again.status).toBe(409);
    }
    expect(await getIntent(intent.id)).toEqual(paid);
    expect(sandbox.store.charges.size).toBe(1);
  });

  it('answers bad requests plainly: unknown action 400, unknown intent 404, not a form 415, PUT 405', async () => {
    start();
    const intent = await createIntent(pairing());
    expect((await client.submitPage(pageUrl(intent.id), { action: 'refund' })).status).toBe(400);
    expect((await client.submitPage(pageUrl('bi_nope'), { action: 'pay' })).status).toBe(404);
    expect((await client.sandbox.fetch(new Request(pageUrl('bi_nope')))).status).toBe(404);
    const json = await client.sandbox.fetch(new Request(pageUrl(intent.id), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"action":"pay"}' }));
    expect(json.status).toBe(415);
    const put = await client.sandbox.fetch(new Request(pageUrl(intent.id), { method: 'PUT' }));
    expect(put.status).toBe(405);
    const nowhere = await client.sandbox.fetch(new Request(`${pageUrl(intent.id)}/more`, { method: 'HEAD' }));
    expect(nowhere.status).toBe(405);
    expect(nowhere.headers.get('allow')).toBe('GET, POST');
    expect((await getIntent(intent.id)).status).toBe('ACTIVE');
  });

  it('lists the open intents on the terminal’s home page', async () => {
    start();
    const open = await createIntent(pairing({ referenceId: 'open-one' }));
    const done = await createIntent(pairing({ referenceId: 'done-one' }));
    await client.submitPage(pageUrl(done.id), { action: 'cancel' });
    const html = await (await client.sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/bolt`))).text();
    expect(html).toContain(`href="/sandbox/pages/bolt/${open.id}"`);
    expect(html).not.toContain(done.id);
  });
});

describe('after the payment', () => {
  it('reads REFUNDED once the intent’s charge is refunded in full', async () => {
    start();
    const intent = await createIntent(pairing());
    await client.submitPage(pageUrl(intent.id), { action: 'pay' });
    const { latestChargeId } = await getIntent(intent.id);
    const refund = await client.post('/api/v1/refunds', { chargeId: latestChargeId });
    expect(refund.status).toBe(201);
    await vi.waitFor(async () => expect((await client.get(`/api/v1/refunds/${refund.body.refundId}`)).body.status).toBe('SUCCEEDED'));
    expect(await getIntent(intent.id)).toMatchObject({ status: 'REFUNDED', result: 'CH_SUCCEEDED', updatedBy: 'system' });
  });
});

describe('bolt devices', () => {
  it('lists the default devices newest first in the list envelope, with limit and offset', async () => {
    start();
    const answer = await client.get('/api/v1/bolt-devices');
    expect(answer.status).toBe(200);
    expect(BoltDeviceListSchema.safeParse(answer.body).success).toBe(true);
    expect(answer.body.totalCount).toBe(SANDBOX_BOLT_DEVICES.length);
    expect(answer.body.data.map((d: BoltDevice) => d.name)).toEqual(SANDBOX_BOLT_DEVICES.map((d) => d.name).reverse());
    const created = answer.body.data.map((d: { createdAt: string }) => Date.parse(d.createdAt));
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    for (const device of answer.body.data) expect(device.boltDeviceId).toMatch(/^bd_/);
    const page = await client.get('/api/v1/bolt-devices?limit=1&offset=1');
    expect(page.body).toEqual({ data: [answer.body.data[1]], totalCount: 3 });
    expect((await client.get('/api/v1/bolt-devices?limit=0')).status).toBe(400);
    expect((await client.get('/api/v1/bolt-devices?offset=-1')).body.error.errorCode).toBe('API_VALIDATION_ERROR');
  });

  it('registers the devices the options give, per merchant', async () => {
    const other = { merchantId: 'mch_other', apiKey: 'sk_other_000000000000000000000000', publishableKey: 'pk_other_000000000000000000000000' };
    start({
      merchants: [defaultSandboxMerchant(), other],
      bolt: {
        devices: {
          [SANDBOX_DEFAULTS.merchantId]: [
            { boltDeviceId: 'bd_new', name: 'New', createdAt: '2025-03-01T00:00:00Z' },
            { boltDeviceId: 'bd_old', name: 'Old', createdAt: '2025-01-01T00:00:00Z', latestMetric: { reportedAt: '2025-02-01T00:00:00Z', batteryLevel: 50 } },
          ],
          mch_other: [],
        },
      },
    });
    const mine = await client.get('/api/v1/bolt-devices');
    expect(mine.body.data.map((d: BoltDevice) => d.boltDeviceId)).toEqual(['bd_new', 'bd_old']);
    expect(mine.body.data[1].latestMetric).toEqual({ reportedAt: '2025-02-01T00:00:00Z', batteryLevel: 50 });
    const theirs = await client.get('/api/v1/bolt-devices', { auth: basic(other.merchantId, other.apiKey) });
    expect(theirs.body).toEqual({ data: [], totalCount: 0 });
    expect((await client.get('/api/v1/bolt-devices/bd_new', { auth: basic(other.merchantId, other.apiKey) })).status).toBe(404);
  });

  it('refuses to start with the same device id twice', () => {
    expect(() => newSandbox({ bolt: { devices: { [SANDBOX_DEFAULTS.merchantId]: [{ boltDeviceId: 'bd_1', name: 'A' }, { boltDeviceId: 'bd_1', name: 'B' }] } } })).toThrow(/bd_1/);
  });

  it('reads one device with its latest metric, null for one that never reported', async () => {
    start();
    const list = (await client.get('/api/v1/bolt-devices')).body.data;
    const reported = list.find((d: BoltDevice) => d.name === 'Front counter');
    const silent = list.find((d: BoltDevice) => d.name === 'Delivery handheld');
    const one = await client.get(`/api/v1/bolt-devices/${reported.boltDeviceId}`);
    expect(one.status).toBe(200);
    expect(BoltDeviceSchema.safeParse(one.body).success).toBe(true);
    expect(one.body.latestMetric).toMatchObject({ reportedAt: new Date(START).toISOString(), appVersion: expect.any(String) });
    expect(one.body.latestMetric.batteryLevel).toBeGreaterThanOrEqual(0);
    expect(one.body.latestMetric.batteryLevel).toBeLessThanOrEqual(100);
    expect((await client.get(`/api/v1/bolt-devices/${silent.boltDeviceId}`)).body.latestMetric).toBeNull();
    const unknown = await client.get('/api/v1/bolt-devices/bd_nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.errorCode).toBe('NOT_FOUND_ERROR');
  });

  it('renames a device and answers with it', async () => {
    start();
    const [device] = (await client.get('/api/v1/bolt-devices')).body.data;
    now += 1_000;
    const renamed = await client.request('PATCH', `/api/v1/bolt-devices/${device.boltDeviceId}/name`, { body: { name: '  Counter 2  ' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...device, name: 'Counter 2', updatedAt: new Date(START + 1_000).toISOString() });
    expect((await client.get(`/api/v1/bolt-devices/${device.boltDeviceId}`)).body.name).toBe('Counter 2');
  });

  it.each<[string, unknown, string]>([
    ['an empty name', { name: '' }, 'name is required'],
    ['a blank name', { name: '   ' }, 'name must not be blank'],
    ['a long name', { name: 'x'.repeat(101) }, 'name must be at most 100 characters'],
    ['no name', {}, 'name is required'],
    ['a number', { name: 7 }, 'name must be a string'],
  ])('refuses %s with 400 and keeps the old name', async (_name, body, message) => {
    start();
    const [device] = (await client.get('/api/v1/bolt-devices')).body.data;
    const answer = await client.request('PATCH', `/api/v1/bolt-devices/${device.boltDeviceId}/name`, { body });
    expect(answer.status).toBe(400);
    expect(answer.body.error.errorMessage).toContain(message);
    expect((await client.get(`/api/v1/bolt-devices/${device.boltDeviceId}`)).body.name).toBe(device.name);
  });

  it('is 404 when renaming an unknown device', async () => {
    start();
    const answer = await client.request('PATCH', '/api/v1/bolt-devices/bd_nope/name', { body: { name: 'A' } });
    expect(answer.status).toBe(404);
  });

  it('answers a health check 202 with no body, and the new metric lands after the configured delay', async () => {
    start({ bolt: { healthCheckDelayMs: 40 } });
    const silent = (await client.get('/api/v1/bolt-devices')).body.data.find((d: BoltDevice) => d.latestMetric === null);
    now += 60_000;
    const answer = await client.request('POST', `/api/v1/bolt-devices/${silent.boltDeviceId}/health-check`);
    expect(answer.status).toBe(202);
    expect(answer.body).toBeUndefined();
    expect((await client.get(`/api/v1/bolt-devices/${silent.boltDeviceId}`)).body.latestMetric).toBeNull();
    await vi.waitFor(async () => expect((await client.get(`/api/v1/bolt-devices/${silent.boltDeviceId}`)).body.latestMetric).not.toBeNull(), { timeout: 2_000, interval: 10 });
    const { latestMetric } = (await client.get(`/api/v1/bolt-devices/${silent.boltDeviceId}`)).body;
    expect(latestMetric).toMatchObject({ reportedAt: new Date(START + 60_000).toISOString(), networkType: expect.any(String), isCharging: expect.any(Boolean) });
  });

  it('takes a JSON body or none on health-check, replays it for the same idempotency key, and is 404 for an unknown device', async () => {
    start({ bolt: { healthCheckDelayMs: 10_000 } });
    const [device] = (await client.get('/api/v1/bolt-devices')).body.data;
    const headers = { [IDEMPOTENCY_HEADER]: '0d8f5c2e-8d8a-4c59-9d0e-2f6b6f2b9a11' };
    const first = await client.post(`/api/v1/bolt-devices/${device.boltDeviceId}/health-check`, {}, { headers });
    const again = await client.post(`/api/v1/bolt-devices/${device.boltDeviceId}/health-check`, {}, { headers });
    expect([first.status, again.status]).toEqual([202, 202]);
    expect(again.headers.get(REPLAYED_HEADER)).toBe('true');
    expect((await client.request('POST', '/api/v1/bolt-devices/bd_nope/health-check')).status).toBe(404);
  });

  it('drops a pending health-check report when the sandbox closes', async () => {
    // The report's timer on a clock of the test's: past its time, nothing may land.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      start({ bolt: { healthCheckDelayMs: 20 } });
      const silent = (await client.get('/api/v1/bolt-devices')).body.data.find((d: BoltDevice) => d.latestMetric === null);
      await client.request('POST', `/api/v1/bolt-devices/${silent.boltDeviceId}/health-check`);
      sandbox.close();
      await vi.advanceTimersByTimeAsync(60);
      expect((await client.get(`/api/v1/bolt-devices/${silent.boltDeviceId}`)).body.latestMetric).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a negative health-check delay at start', () => {
    expect(() => newSandbox({ bolt: { healthCheckDelayMs: -1 } })).toThrow(RangeError);
  });
});

describe('bolt connections', () => {
  const OTHER = { merchantId: 'mch_other', apiKey: 'sk_other_000000000000000000000000', publishableKey: 'pk_other_000000000000000000000000' };
  const asOther = { auth: basic(OTHER.merchantId, OTHER.apiKey) };
  /** Two devices with known codes for the default merchant, one for another merchant. */
  function startPaired() {
    start({
      merchants: [defaultSandboxMerchant(), OTHER],
      bolt: {
        devices: {
          [SANDBOX_DEFAULTS.merchantId]: [
            { boltDeviceId: 'bd_front', name: 'Front counter', pairingCode: '123456', createdAt: '2025-01-01T00:00:00Z' },
            { boltDeviceId: 'bd_bar', name: 'Bar', pairingCode: '654321', createdAt: '2025-02-01T00:00:00Z' },
          ],
          mch_other: [{ boltDeviceId: 'bd_theirs', name: 'Theirs', pairingCode: '111222' }],
        },
      },
    });
  }
  const deviceScreen = async (id: string) => client.sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/bolt/devices/${id}`));
  /** The code a device's screen shows, read as a person reads it. */
  const shownCode = async (id: string) => /id="pairing-code">(\d+)</.exec(await (await deviceScreen(id)).text())?.[1];
  const connect = (pairingCode: string, init?: Parameters<SandboxClient['post']>[2]) => client.post('/api/v1/bolt-connections', { pairingCode }, init);

  it('pairs with the code the device shows: 201 with a bc_ connection that GET reads back, and the device then shows a new code', async () => {
    startPaired();
    now += 1_000;
    const code = await shownCode('bd_bar');
    // start() paired once with the newest device, so its seeded code is already used up.
    expect(code).toMatch(/^\d{6}$/);
    expect(code).not.toBe('654321');
    const answer = await connect(code!);
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ id: expect.stringMatching(/^bc_/), deviceId: 'bd_bar', merchantId: SANDBOX_DEFAULTS.merchantId, createdAt: new Date(START + 1_000).toISOString() });
    expect(BoltConnectionSchema.safeParse(answer.body).success).toBe(true);
    const read = await client.get(`/api/v1/bolt-connections/${answer.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(answer.body);

    const next = await shownCode('bd_bar');
    expect(next).toMatch(/^\d{6}$/);
    expect(next).not.toBe(code);
    const again = await connect(code!);
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ errorCode: 'API_VALIDATION_ERROR', errorMessage: expect.stringContaining('pairingCode matches none of your bolt devices') });
  });

  it('pairs one device several times, each with the code shown then, and ignores spaces typed in the code', async () => {
    startPaired();
    const first = await connect('123 456');
    expect(first.status).toBe(201);
    expect(first.body.deviceId).toBe('bd_front');
    const second = await connect((await shownCode('bd_front'))!);
    expect(second.body.deviceId).toBe('bd_front');
    expect(second.body.id).not.toBe(first.body.id);
    expect(await (await deviceScreen('bd_front')).text()).toMatch(/<dt>Connections<\/dt><dd>2<\/dd>/);
  });

  it.each<[string, unknown, string]>([
    ['a code no device shows', { pairingCode: '999999' }, 'pairingCode matches none of your bolt devices'],
    ['another merchant’s device code', { pairingCode: '111222' }, 'pairingCode matches none of your bolt devices'],
    ['an empty code', { pairingCode: '' }, 'pairingCode is required'],
    ['a blank code', { pairingCode: '   ' }, 'pairingCode must not be blank'],
    ['no code', {}, 'pairingCode is required'],
    ['a number', { pairingCode: 123456 }, 'pairingCode must be a string'],
  ])('refuses %s with 400 API_VALIDATION_ERROR and makes no connection', async (_name, body, message) => {
    startPaired();
    const answer = await client.post('/api/v1/bolt-connections', body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.errorCode).toBe('API_VALIDATION_ERROR');
    expect(answer.body.error.errorMessage).toContain(message);
    const merchant = sandbox.merchants.get(SANDBOX_DEFAULTS.merchantId)!;
    expect(sandbox.bolt.listConnections(merchant, { limit: 10, offset: 0 }).totalCount).toBe(1);
    expect(await shownCode('bd_theirs')).toBe('111222');
  });

  it('is 404 NOT_FOUND_ERROR for an unknown id and for another merchant’s connection, to GET and DELETE', async () => {
    startPaired();
    const theirs = await connect('111222', asOther);
    expect(theirs.status).toBe(201);
    expect(theirs.body.merchantId).toBe(OTHER.merchantId);
    for (const id of ['bc_nope', theirs.body.id]) {
      const get = await client.get(`/api/v1/bolt-connections/${id}`);
      expect(get.status).toBe(404);
      expect(get.body.error.errorCode).toBe('NOT_FOUND_ERROR');
      expect((await client.request('DELETE', `/api/v1/bolt-connections/${id}`)).status).toBe(404);
    }
    expect((await client.get(`/api/v1/bolt-connections/${theirs.body.id}`, asOther)).status).toBe(200);
  });

  it('deletes a connection: {code, message}, then GET and DELETE are 404 and no new intent may name it', async () => {
    startPaired();
    const { body: connection } = await connect('123456');
    const sent = await createIntent(pairing({ boltConnectionId: connection.id, referenceId: 'sent-before' }));
    const deleted = await client.request('DELETE', `/api/v1/bolt-connections/${connection.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ code: 200, message: 'deleted' });
    expect(BoltConnectionDeletedSchema.safeParse(deleted.body).success).toBe(true);
    expect((await client.get(`/api/v1/bolt-connections/${connection.id}`)).status).toBe(404);
    expect((await client.request('DELETE', `/api/v1/bolt-connections/${connection.id}`)).status).toBe(404);
    const refused = await client.post('/api/v1/bolt-intents', pairing({ boltConnectionId: connection.id }));
    expect(refused.status).toBe(404);
    expect(refused.body.error.errorCode).toBe('NOT_FOUND_ERROR');
    // An intent sent before stays on the device until it ends.
    expect(await (await deviceScreen('bd_front')).text()).toContain(sent.id);
    expect((await getIntent(sent.id)).boltConnectionId).toBe(connection.id);
  });

  it('makes one connection for a retry with the same idempotency key, using up one code', async () => {
    startPaired();
    const headers = { [IDEMPOTENCY_HEADER]: '5b0d7c1a-3e2f-4a5b-8c6d-7e8f9a0b1c2d' };
    const a = await connect('123456', { headers });
    const b = await connect('123456', { headers });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body).toEqual(a.body);
    expect(b.headers.get(REPLAYED_HEADER)).toBe('true');
    const merchant = sandbox.merchants.get(SANDBOX_DEFAULTS.merchantId)!;
    expect(sandbox.bolt.listConnections(merchant, { limit: 10, offset: 0 }).totalCount).toBe(2);
  });

  it('needs the API key', async () => {
    startPaired();
    expect((await connect('123456', { auth: null })).status).toBe(401);
    expect((await connect('123456', { auth: basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.publishableKey) })).status).toBe(401);
    expect(await shownCode('bd_front')).toBe('123456');
  });

  it('refuses seeds whose pairing code is not six digits or is given twice', () => {
    const seeds = (pairingCodes: string[]) => ({ bolt: { devices: { [SANDBOX_DEFAULTS.merchantId]: pairingCodes.map((pairingCode, i) => ({ name: `D${i}`, pairingCode })) } } });
    expect(() => newSandbox(seeds(['12345']))).toThrow(/six|6 digits/);
    expect(() => newSandbox(seeds(['123456', '123456']))).toThrow(/123456 is given twice/);
  });
});

describe('PAIRING intents and connections', () => {
  it('needs an existing connection of the merchant: an unknown one is 404 and creates nothing', async () => {
    start();
    const answer = await client.post('/api/v1/bolt-intents', pairing({ boltConnectionId: 'bc_8Hs3Kd1Wp9Rb4Nc7Lm2Xv5Tq' }));
    expect(answer.status).toBe(404);
    expect(answer.body.error).toMatchObject({ errorCode: 'NOT_FOUND_ERROR', errorMessage: expect.stringContaining('bc_8Hs3Kd1Wp9Rb4Nc7Lm2Xv5Tq') });
    const merchant = sandbox.merchants.get(SANDBOX_DEFAULTS.merchantId)!;
    expect(sandbox.bolt.listIntents(merchant, { limit: 10, offset: 0 }).totalCount).toBe(0);
  });

  it('is 404 for another merchant’s connection', async () => {
    const other = { merchantId: 'mch_other', apiKey: 'sk_other_000000000000000000000000', publishableKey: 'pk_other_000000000000000000000000' };
    start({ merchants: [defaultSandboxMerchant(), other] });
    const answer = await client.post('/api/v1/bolt-intents', pairing(), { auth: basic(other.merchantId, other.apiKey) });
    expect(answer.status).toBe(404);
  });

  it('is PAIRING when mode is left out and a connection is given', async () => {
    start();
    const intent = await createIntent(pairing({ mode: undefined }));
    expect(intent.mode).toEqual({ type: 'PAIRING', deepLink: null });
    expect(intent.boltConnectionId).toBe(connectionId);
  });

  it('shows a PAIRING intent on the connected device only, and its page names the device', async () => {
    start();
    const merchant = sandbox.merchants.get(SANDBOX_DEFAULTS.merchantId)!;
    const { deviceId } = sandbox.bolt.getConnection(merchant, connectionId);
    const { name } = sandbox.bolt.getDevice(merchant, deviceId);
    const otherDevice = sandbox.bolt.listDevices(merchant, { limit: 10, offset: 0 }).data.find((d) => d.boltDeviceId !== deviceId)!;
    const intent = await createIntent(pairing());
    const linked = await createIntent(deepLink());
    const screen = await (await client.sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/bolt/devices/${deviceId}`))).text();
    expect(screen).toContain(`href="/sandbox/pages/bolt/${intent.id}"`);
    expect(screen).not.toContain(linked.id);
    const elsewhere = await (await client.sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/bolt/devices/${otherDevice.boltDeviceId}`))).text();
    expect(elsewhere).not.toContain(intent.id);
    expect(elsewhere).toContain('No payment request is waiting on this device.');
    const page = await (await client.sandbox.fetch(new Request(pageUrl(intent.id)))).text();
    expect(page).toContain(`<dt>Device</dt><dd><a href="/sandbox/pages/bolt/devices/${deviceId}">${name}</a></dd>`);

    await client.submitPage(pageUrl(intent.id), { action: 'pay' });
    expect(await (await client.sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/bolt/devices/${deviceId}`))).text()).not.toContain(intent.id);
  });
});

describe('the device screen', () => {
  it('shows each device’s pairing code, escaped, under the pages’ CSP; the bolt home page lists every device with its code', async () => {
    start({ bolt: { devices: { [SANDBOX_DEFAULTS.merchantId]: [{ boltDeviceId: 'bd_x', name: 'Till <1>', pairingCode: '482913' }] } } });
    // start() paired with the only device, so it now shows a fresh code.
    const merchant = sandbox.merchants.get(SANDBOX_DEFAULTS.merchantId)!;
    const code = sandbox.bolt.pairingCode(merchant, 'bd_x');
    expect(code).not.toBe('482913');
    const screen = await client.sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/bolt/devices/bd_x`));
    expect(screen.status).toBe(200);
    expect(screen.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await screen.text();
    expect(html).toContain(`<span class="mono" id="pairing-code">${code}</span>`);
    expect(html).toContain('Till &lt;1&gt;');
    expect(html).not.toContain('482913');
    expect(html).not.toMatch(/<script|\sstyle=/i);
    const home = await (await client.sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/bolt`))).text();
    expect(home).toContain('href="/sandbox/pages/bolt/devices/bd_x"');
    expect(home).toContain(`pairing code <span class="mono">${code}</span>`);
  });

  it('is a 404 page for an unknown device and takes GET only', async () => {
    start();
    const unknown = await client.sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/bolt/devices/bd_nope`));
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('text/html');
    expect(await unknown.text()).toContain('Device not found');
    const merchant = sandbox.merchants.get(SANDBOX_DEFAULTS.merchantId)!;
    const [device] = sandbox.bolt.listDevices(merchant, { limit: 1, offset: 0 }).data;
    const post = await client.submitPage(`${ORIGIN}/sandbox/pages/bolt/devices/${device!.boltDeviceId}`, { pairingCode: '1' });
    expect(post.status).toBe(405);
  });
});

describe('PATCH /api/v1/bolt-intents/{id}/cancel', () => {
  const cancel = (id: string, init?: Parameters<SandboxClient['request']>[2]) => client.request('PATCH', `/api/v1/bolt-intents/${id}/cancel`, init);

  it('answers 202 {"message":"canceled"}; the intent reads CANCELED with BI_CANCELED, and bolt_intent.canceled carries it', async () => {
    start();
    const intent = await createIntent(pairing());
    now += 3_000;
    const answer = await cancel(intent.id);
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ message: 'canceled' });
    const after = await getIntent(intent.id);
    expect(after).toMatchObject({ status: 'CANCELED', result: 'BI_CANCELED', latestChargeId: '', updatedAt: new Date(START + 3_000).toISOString(), updatedBy: SANDBOX_DEFAULTS.merchantId });
    await settled();
    expect(events()).toEqual(['bolt_intent.canceled']);
    expect(hookBody('bolt_intent.canceled')).toEqual(after);
    const page = await (await client.sandbox.fetch(new Request(pageUrl(intent.id)))).text();
    expect(page).toContain('This payment request was canceled.');
    expect(page).not.toContain('value="pay"');
  });

  it('takes a JSON body too, and cancels a DEEP_LINK intent', async () => {
    start();
    const intent = await createIntent(deepLink());
    expect((await cancel(intent.id, { body: {} })).status).toBe(202);
    expect((await getIntent(intent.id)).status).toBe('CANCELED');
  });

  it('refuses a second cancel with 409 REQUEST_CONFLICT_ERROR, but replays the first for its idempotency key', async () => {
    start();
    const intent = await createIntent(pairing());
    const headers = { [IDEMPOTENCY_HEADER]: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b' };
    expect((await cancel(intent.id, { headers })).status).toBe(202);
    const replayed = await cancel(intent.id, { headers });
    expect(replayed.status).toBe(202);
    expect(replayed.headers.get(REPLAYED_HEADER)).toBe('true');
    const twice = await cancel(intent.id);
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatchObject({ errorCode: 'REQUEST_CONFLICT_ERROR', errorMessage: expect.stringContaining('already CANCELED') });
    await settled();
    expect(events()).toEqual(['bolt_intent.canceled']);
  });

  it('refuses to cancel a paid or an expired intent with 409, and changes nothing', async () => {
    start();
    const paid = await createIntent(pairing());
    await client.submitPage(pageUrl(paid.id), { action: 'pay' });
    const before = await getIntent(paid.id);
    const refused = await cancel(paid.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.errorCode).toBe('REQUEST_CONFLICT_ERROR');
    expect(await getIntent(paid.id)).toEqual(before);
    const expiring = await createIntent(pairing({ expiryDurationInSec: 90 }));
    now += 90_000;
    expect((await cancel(expiring.id)).status).toBe(409);
    expect((await getIntent(expiring.id)).status).toBe('EXPIRED');
    await settled();
    expect(events()).not.toContain('bolt_intent.canceled');
  });

  it.each(['POST', 'PUT', 'DELETE'])('answers %s with 405 and Allow: PATCH, leaving the intent ACTIVE', async (method) => {
    start();
    const intent = await createIntent(pairing());
    const answer = await client.request(method, `/api/v1/bolt-intents/${intent.id}/cancel`, { body: {} });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('PATCH');
    expect(answer.body.error.errorCode).toBe('METHOD_NOT_ALLOWED_ERROR');
    expect((await getIntent(intent.id)).status).toBe('ACTIVE');
  });

  it('is 404 for an unknown intent and for another merchant’s', async () => {
    const other = { merchantId: 'mch_other', apiKey: 'sk_other_000000000000000000000000', publishableKey: 'pk_other_000000000000000000000000' };
    start({ merchants: [defaultSandboxMerchant(), other] });
    const intent = await createIntent(pairing());
    expect((await cancel('bi_nope')).status).toBe(404);
    const foreign = await cancel(intent.id, { auth: basic(other.merchantId, other.apiKey) });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.errorCode).toBe('NOT_FOUND_ERROR');
    expect((await getIntent(intent.id)).status).toBe('ACTIVE');
  });
});
