import { describe, expect } from 'vitest';
import { PaymentLinkSchema } from '../../../src/core/schemas/payment-link.js';
import { parseWebhookEvent } from '../../../src/core/schemas/webhook-events.js';
import { verifyWebhookSignature } from '../../../src/core/webhook-signature.js';
import { REPLAYED_HEADER, SANDBOX_DEFAULTS, type Sandbox, type SandboxOptions } from '../../../src/sandbox/index.js';
import { basic, CLIENT_AUTH, FUTURE_EXPIRY_YEAR, IDEMPOTENCY_HEADER, ORIGIN, type SandboxClient } from '../../support/sandbox-client.js';
import { sandboxTest } from '../../support/sandbox-fixture.js';

const KEY = Buffer.from('a webhook key of thirty-two byte').toString('base64');
const REDIRECT_URL = 'https://shop.example/orders/2001/thanks';
const CANCEL_URL = 'https://shop.example/cart';
const PAGES = `${ORIGIN}/sandbox/pages/payment-links`;
const PAYER = `${ORIGIN}/sandbox/pages/promptpay`;
const PHONE_AGENT = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const HOUR_MS = 60 * 60 * 1000;

interface Delivery {
  event: string;
  signature: string;
  body: string;
}

let now = Date.now();
let deliveries: Delivery[] = [];

/**
 * Options for a sandbox whose clock reads `now`, set to the present, and whose webhooks land in a
 * fresh `deliveries`; `options` override them.
 */
function linkOptions(options: SandboxOptions = {}): SandboxOptions {
  now = Date.now();
  // Each sandbox writes to its own list: a delivery of the previous test's sandbox cannot land here.
  const sink: Delivery[] = [];
  deliveries = sink;
  return {
    now: () => new Date(now),
    webhook: {
      url: 'https://shop.example/webhooks',
      webhookKeyBase64: KEY,
      fetch: (_url, init) => {
        const headers = new Headers(init?.headers);
        const body = typeof init?.body === 'string' ? init.body : '';
        sink.push({ event: headers.get('x-beam-event') ?? '', signature: headers.get('x-beam-signature') ?? '', body });
        return Promise.resolve(new Response(null, { status: 204 }));
      },
    },
    ...options,
  };
}

/** The tea set order of the examples: two lines that add up to 1,590.00 THB. */
function linkRequest(overrides: Record<string, unknown> = {}) {
  return {
    order: {
      netAmount: 159_000,
      currency: 'THB',
      description: 'Ceramic tea set',
      referenceId: 'order-2001',
      internalNote: 'gift wrap, VIP customer',
      orderItems: [
        { itemName: 'Tea pot', description: 'Celadon, 600 ml', price: 99_000, quantity: 1, sku: 'TP-600', productId: 'p-1', imageUrl: 'https://shop.example/teapot.png' },
        { itemName: 'Cup', price: 15_000, quantity: 4 },
      ],
    },
    redirectUrl: REDIRECT_URL,
    cancelUrl: CANCEL_URL,
    collectPhoneNumber: false,
    ...overrides,
  };
}

/** An order large enough for 3-, 4- and 6-month installments (4,590.00 THB). */
const INSTALLMENTS_ORDER = {
  netAmount: 459_000,
  currency: 'THB',
  description: 'Tea ceremony set',
  referenceId: 'order-2002',
  orderItems: [
    { itemName: 'Tea table', price: 300_000, quantity: 1 },
    { itemName: 'Cup', price: 15_000, quantity: 4 },
    { itemName: 'Tea pot', price: 99_000, quantity: 1 },
  ],
};

async function createLink(client: SandboxClient, overrides: Record<string, unknown> = {}): Promise<{ id: string; url: string }> {
  const answer = await client.post('/api/v1/payment-links', linkRequest(overrides));
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

const getLink = async (client: SandboxClient, id: string) => (await client.get(`/api/v1/payment-links/${id}`)).body;
const linkCharges = async (client: SandboxClient, id: string) => (await client.get(`/api/v1/charges?source_in=PAYMENT_LINK&sourceId=${id}`)).body;

/** A page as the payer's browser gets it. */
async function open(sandbox: Sandbox, url: string, headers: Record<string, string> = {}) {
  const response = await sandbox.fetch(new Request(url.startsWith('/') ? `${ORIGIN}${url}` : url, { headers, redirect: 'manual' }));
  return { status: response.status, location: response.headers.get('location'), headers: response.headers, html: await response.text() };
}

function unescape(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** The pay form of a page: where it posts and what it would send as it stands (hidden fields, defaults, the checked method). */
function formOf(html: string): { action: string; fields: Record<string, string> } {
  const form = /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error(`no form on the page:\n${html}`);
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input ([^>]*)>/g)) {
    const attrs = input[1]!;
    const name = /name="([^"]*)"/.exec(attrs)?.[1];
    const value = /value="([^"]*)"/.exec(attrs)?.[1] ?? '';
    if (!name) continue;
    if (attrs.includes('type="radio"') && !attrs.includes(' checked')) continue;
    fields[name] = unescape(value);
  }
  return { action: `${ORIGIN}${unescape(form[1]!)}`, fields };
}

/** The methods the page offers, as the values of its radio buttons. */
function methodsOf(html: string): string[] {
  return [...html.matchAll(/<input type="radio" name="method" value="([^"]+)"/g)].map((m) => m[1]!);
}

/** Fills the pay form of `url` as a payer would and submits it. */
async function pay(sandbox: Sandbox, url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const page = await open(sandbox, url, headers);
  expect(page.status, page.html).toBe(200);
  const form = formOf(page.html);
  return submit(sandbox, form.action, { ...form.fields, ...fields }, headers);
}

async function submit(sandbox: Sandbox, action: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await sandbox.fetch(
    new Request(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    }),
  );
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
}

const card = (pan: string, extra: Record<string, string> = {}) => ({
  method: 'CARD',
  cardHolderName: 'Somchai Jaidee',
  cardNumber: pan,
  expiryMonth: '12',
  expiryYear: String(FUTURE_EXPIRY_YEAR).padStart(2, '0'),
  securityCode: pan.startsWith('37') ? '1234' : '123',
  ...extra,
});

async function settledWebhooks(sandbox: Sandbox) {
  await sandbox.webhooks.idle();
  // The dispatcher's log is newest first; the order events were sent in is the reverse.
  return sandbox.webhooks.list().reverse().map((d) => d.event);
}

describe('POST /api/v1/payment-links', () => {
  sandboxTest('answers 201 {id, url}, the url being the sandbox page of the link on the origin called', async ({ startInProcess }) => {
    const { client } = startInProcess(linkOptions());
    const answer = await client.post('/api/v1/payment-links', linkRequest());
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body).sort()).toEqual(['id', 'url']);
    expect(answer.body.id).toMatch(/^pl_[A-Za-z0-9]{24}$/);
    expect(answer.body.url).toBe(`${PAGES}/${answer.body.id}`);
    expect(answer.headers.get('x-beam-request-id')).toMatch(/^req_/);
  });

  sandboxTest('writes publicUrl into the link url when the sandbox has one', async ({ startInProcess }) => {
    const { client } = startInProcess(linkOptions({ publicUrl: 'https://sandbox.shop.example/' }));
    const { id, url } = await createLink(client);
    expect(url).toBe(`https://sandbox.shop.example/sandbox/pages/payment-links/${id}`);
    expect((await getLink(client, id)).url).toBe(url);
  });

  sandboxTest('reads back what was sent, every link setting spelled out and the expiry in UTC', async ({ startInProcess }) => {
    const { client } = startInProcess(linkOptions());
    const expiresAt = new Date(now + 48 * HOUR_MS);
    const settings = {
      card: { isEnabled: true },
      cardInstallments: { isEnabled: true, installments3m: { isEnabled: true }, installments6m: { isEnabled: true } },
      qrPromptPay: { isEnabled: true },
    };
    const offset = `${expiresAt.toISOString().slice(0, 19)}+00:00`;
    const { id, url } = await createLink(client, {
      order: { ...INSTALLMENTS_ORDER, internalNote: 'gift wrap', orderItems: [{ ...INSTALLMENTS_ORDER.orderItems[0], sku: 'TT-1', productId: 'p-9', description: 'Teak', imageUrl: 'https://shop.example/table.png' }, INSTALLMENTS_ORDER.orderItems[2], INSTALLMENTS_ORDER.orderItems[1]] },
      linkSettings: settings,
      expiresAt: offset,
      collectPhoneNumber: false,
      collectDeliveryAddress: true,
      feeType: 'TRANSACTION_FEE',
    });
    const link = await getLink(client, id);
    expect(PaymentLinkSchema.safeParse(link).success).toBe(true);
    expect(link).toEqual({
      paymentLinkId: id,
      merchantId: SANDBOX_DEFAULTS.merchantId,
      url,
      status: 'ACTIVE',
      order: {
        netAmount: 459_000,
        currency: 'THB',
        description: 'Tea ceremony set',
        referenceId: 'order-2002',
        internalNote: 'gift wrap',
        orderItems: [
          { itemName: 'Tea table', description: 'Teak', imageUrl: 'https://shop.example/table.png', price: 300_000, productId: 'p-9', quantity: 1, sku: 'TT-1' },
          { itemName: 'Tea pot', description: null, imageUrl: null, price: 99_000, productId: null, quantity: 1, sku: null },
          { itemName: 'Cup', description: null, imageUrl: null, price: 15_000, productId: null, quantity: 4, sku: null },
        ],
      },
      linkSettings: {
        card: { isEnabled: true },
        cardInstallments: {
          isEnabled: true,
          installments3m: { isEnabled: true },
          installments4m: { isEnabled: false },
          installments6m: { isEnabled: true },
          installments10m: { isEnabled: false },
        },
        qrPromptPay: { isEnabled: true },
        eWallets: { isEnabled: false },
        mobileBanking: { isEnabled: false },
        buyNowPayLater: { isEnabled: false },
      },
      collectDeliveryAddress: true,
      collectPhoneNumber: false,
      redirectUrl: REDIRECT_URL,
      cancelUrl: CANCEL_URL,
      expiresAt: expiresAt.toISOString().replace(/\.\d{3}Z$/, '.000Z'),
      feeType: 'TRANSACTION_FEE',
      createdAt: new Date(now).toISOString(),
      updatedAt: new Date(now).toISOString(),
    });
  });

  sandboxTest('fills the defaults: phone collected, no address, TRANSACTION_FEE, no expiry, every method with the installments the amount allows', async ({ startInProcess }) => {
    const { client } = startInProcess(linkOptions());
    const answer = await client.post('/api/v1/payment-links', { order: { netAmount: 350_000, currency: 'THB', description: 'Bicycle helmet' } });
    const link = await getLink(client, answer.body.id);
    expect(link).toMatchObject({
      collectPhoneNumber: true,
      collectDeliveryAddress: false,
      feeType: 'TRANSACTION_FEE',
      expiresAt: null,
      redirectUrl: null,
      cancelUrl: null,
      order: { referenceId: null, internalNote: null, orderItems: [] },
    });
    expect(link.linkSettings).toEqual({
      card: { isEnabled: true },
      // 3,500.00 THB reaches the 3- and 4-month minimum (3,000) but not 6 (4,000) or 10 (5,000).
      cardInstallments: {
        isEnabled: true,
        installments3m: { isEnabled: true },
        installments4m: { isEnabled: true },
        installments6m: { isEnabled: false },
        installments10m: { isEnabled: false },
      },
      qrPromptPay: { isEnabled: true },
      eWallets: { isEnabled: true },
      mobileBanking: { isEnabled: true },
      buyNowPayLater: { isEnabled: true },
    });
    const small = await client.post('/api/v1/payment-links', { order: { netAmount: 10_000, currency: 'THB', description: 'A mug' } });
    expect((await getLink(client, small.body.id)).linkSettings.cardInstallments.isEnabled).toBe(false);
  });

  describe('refuses bad input with 400 naming the field', () => {
    const order = linkRequest().order;
    const cases: [string, Record<string, unknown>, string][] = [
      ['no order', { order: undefined }, 'order is required'],
      ['an amount below 1.00 THB', { order: { ...order, netAmount: 99, orderItems: undefined } }, 'order.netAmount must be at least 100'],
      ['an amount in baht with decimals', { order: { ...order, netAmount: 1590.5, orderItems: undefined } }, 'order.netAmount must be a whole number of satang'],
      ['a currency other than THB', { order: { ...order, currency: 'USD' } }, 'order.currency must be THB'],
      ['a description over 255 characters', { order: { ...order, description: 'x'.repeat(256) } }, 'order.description must be at most 255 characters'],
      ['an item without a name', { order: { ...order, orderItems: [{ price: 159_000, quantity: 1 }] } }, 'order.orderItems.0.itemName is required'],
      ['an item of quantity 0', { order: { ...order, orderItems: [{ itemName: 'Cup', price: 159_000, quantity: 0 }] } }, 'order.orderItems.0.quantity must be at least 1'],
      ['more than 100 items', { order: { ...order, netAmount: 10_100, orderItems: Array.from({ length: 101 }, () => ({ itemName: 'Pin', price: 100, quantity: 1 })) } }, 'order.orderItems must list at most 100 items'],
      ['a javascript: redirect', { redirectUrl: 'javascript:alert(1)' }, 'redirectUrl must be an absolute http or https URL'],
      ['a relative cancel URL', { cancelUrl: '/cart' }, 'cancelUrl must be an absolute http or https URL'],
      ['an expiry that is not a timestamp', { expiresAt: 'tomorrow' }, 'expiresAt must be an ISO 8601 timestamp'],
      ['an expiry in the past', { expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt must be in the future'],
      ['no method enabled', { linkSettings: { card: { isEnabled: false } } }, 'linkSettings must enable at least one payment method'],
      ['an empty linkSettings', { linkSettings: {} }, 'linkSettings must enable at least one payment method'],
      ['a setting that is not a boolean', { linkSettings: { card: { isEnabled: 'yes' } } }, 'linkSettings.card.isEnabled must be true or false'],
      ['installments with no period', { linkSettings: { cardInstallments: { isEnabled: true } } }, 'linkSettings.cardInstallments is enabled but enables no period'],
      ['an unknown fee type', { feeType: 'SURCHARGE' }, 'feeType must be TRANSACTION_FEE'],
      ['collectPhoneNumber as a string', { collectPhoneNumber: 'yes' }, 'collectPhoneNumber must be true or false'],
    ];
    sandboxTest.for(cases)('%s', async ([, overrides, message], { startInProcess }) => {
      const { client } = startInProcess(linkOptions());
      const answer = await client.post('/api/v1/payment-links', linkRequest(overrides));
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 400, error: { errorCode: 'API_VALIDATION_ERROR' } });
      expect(answer.body.message).toContain(message);
      expect(answer.body.error.errorMessage).toBe(answer.body.message);
    });

    sandboxTest('a body that is not JSON', async ({ startInProcess }) => {
      const { client } = startInProcess(linkOptions());
      const answer = await client.request('POST', '/api/v1/payment-links', { raw: '{"order":', headers: { 'content-type': 'application/json' } });
      expect(answer.status).toBe(400);
      expect(answer.body.error.errorCode).toBe('INVALID_JSON_ERROR');
    });

    sandboxTest('a body that is not an object', async ({ startInProcess }) => {
      const { client } = startInProcess(linkOptions());
      const answer = await client.post('/api/v1/payment-links', [linkRequest()]);
      expect(answer.status).toBe(400);
      expect(answer.body.error.errorCode).toBe('API_VALIDATION_ERROR');
    });
  });

  sandboxTest('wants the API key or a partner key: not the publishable key, not nothing', async ({ startInProcess }) => {
    const { client } = startInProcess(linkOptions());
    expect((await client.post('/api/v1/payment-links', linkRequest(), { auth: null })).status).toBe(401);
    const publishable = await client.post('/api/v1/payment-links', linkRequest(), { auth: CLIENT_AUTH });
    expect(publishable.status).toBe(401);
    expect(publishable.body.error.errorCode).toBe('INVALID_CREDENTIALS_ERROR');
    const partner = await client.post('/api/v1/payment-links', linkRequest(), {
      auth: basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.partnerApiKey),
      headers: { 'X-Beam-Partner-ID': SANDBOX_DEFAULTS.partnerId },
    });
    expect(partner.status).toBe(201);
    expect((await getLink(client, partner.body.id)).merchantId).toBe(SANDBOX_DEFAULTS.merchantId);
  });

  sandboxTest('makes one link for a retried request, and refuses the key with another body', async ({ startInProcess }) => {
    const { client } = startInProcess(linkOptions());
    const headers = { [IDEMPOTENCY_HEADER]: '5b0e7c1e-4a37-4f21-9d7e-2f1c2f0a1b3c' };
    const first = await client.post('/api/v1/payment-links', linkRequest(), { headers });
    const again = await client.post('/api/v1/payment-links', linkRequest(), { headers });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get(REPLAYED_HEADER)).toBe('true');
    const other = await client.post('/api/v1/payment-links', linkRequest({ redirectUrl: 'https://shop.example/other' }), { headers });
    expect(other.status).toBe(412);
    expect(other.body.error.errorCode).toBe('IDEMPOTENCY_KEY_ERROR');
  });
});

describe('GET /api/v1/payment-links/{id}', () => {
  sandboxTest('answers 404 for an unknown link and for another merchant’s link', async ({ startInProcess }) => {
    const other = { merchantId: 'mch_other', apiKey: 'sk_other_000000000000000000000000', publishableKey: 'pk_other_000000000000000000000000' };
    const { client } = startInProcess(linkOptions({ merchants: [{ merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey, publishableKey: SANDBOX_DEFAULTS.publishableKey }, other] }));
    const unknown = await client.get('/api/v1/payment-links/pl_nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 404, error: { errorCode: 'NOT_FOUND_ERROR', errorMessage: 'no payment link with id pl_nope' } });
    const { id } = await createLink(client);
    const theirs = await client.get(`/api/v1/payment-links/${id}`, { auth: basic(other.merchantId, other.apiKey) });
    expect(theirs.status).toBe(404);
    expect((await client.get(`/api/v1/payment-links/${id}`, { auth: null })).status).toBe(401);
  });

  sandboxTest('reads EXPIRED once the sandbox clock passes expiresAt, and the page then refuses to pay', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const expiresAt = new Date(now + HOUR_MS).toISOString();
    const { id, url } = await createLink(client, { expiresAt });
    expect((await getLink(client, id)).status).toBe('ACTIVE');
    const form = formOf((await open(sandbox, url)).html);
    now += HOUR_MS;
    const link = await getLink(client, id);
    expect(link.status).toBe('EXPIRED');
    expect(link.updatedAt).toBe(expiresAt);
    const page = await open(sandbox, url);
    expect(page.status).toBe(410);
    expect(page.html).toContain('This payment link has expired');
    expect(page.html).not.toContain('<form');
    const paid = await submit(sandbox, form.action, { ...form.fields, ...card('4111111111111111') });
    expect(paid.status).toBe(410);
    expect((await linkCharges(client, id)).totalCount).toBe(0);
  });

  sandboxTest('is the same object the API answers, checked against the schema the client reads it with', async ({ startInProcess }) => {
    const { client } = startInProcess(linkOptions());
    const { id } = await createLink(client);
    const result = PaymentLinkSchema.safeParse(await getLink(client, id));
    expect(result.success).toBe(true);
  });
});

describe('PATCH /api/v1/payment-links/{id}/disable', () => {
  sandboxTest('disables an ACTIVE link, and disabling again answers the same', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client);
    now += 1000;
    const first = await client.request('PATCH', `/api/v1/payment-links/${id}/disable`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ paymentLinkId: id, status: 'DISABLED', updatedAt: new Date(now).toISOString() });
    now += 1000;
    const second = await client.request('PATCH', `/api/v1/payment-links/${id}/disable`, { body: {} });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await getLink(client, id)).toEqual(first.body);
    const page = await open(sandbox, url);
    expect(page.status).toBe(410);
    expect(page.html).toContain('no longer available');
  });

  sandboxTest('turns an EXPIRED link DISABLED', async ({ startInProcess }) => {
    const { client } = startInProcess(linkOptions());
    const { id } = await createLink(client, { expiresAt: new Date(now + HOUR_MS).toISOString() });
    now += 2 * HOUR_MS;
    const answer = await client.request('PATCH', `/api/v1/payment-links/${id}/disable`);
    expect(answer.body.status).toBe('DISABLED');
  });

  sandboxTest('refuses a PAID link with 422 and a message that says why, leaving it PAID', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client);
    await pay(sandbox, url, card('4111111111111111'));
    const [charge] = (await linkCharges(client, id)).data;
    const answer = await client.request('PATCH', `/api/v1/payment-links/${id}/disable`);
    expect(answer.status).toBe(422);
    expect(answer.body.error.errorCode).toBe('PAYMENT_LINK_STATUS_INVALID_ERROR');
    expect(answer.body.message).toBe(`payment link ${id} is PAID and cannot be disabled; refund charge ${charge.chargeId} instead`);
    expect((await getLink(client, id)).status).toBe('PAID');
  });

  sandboxTest('answers 404 for an unknown link, 401 without auth, 405 for another method', async ({ startInProcess }) => {
    const { client } = startInProcess(linkOptions());
    expect((await client.request('PATCH', '/api/v1/payment-links/pl_nope/disable')).status).toBe(404);
    const { id } = await createLink(client);
    expect((await client.request('PATCH', `/api/v1/payment-links/${id}/disable`, { auth: null })).status).toBe(401);
    const wrong = await client.request('POST', `/api/v1/payment-links/${id}/disable`, { body: {} });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('PATCH');
    expect((await client.request('PATCH', `/api/v1/payment-links/${id}/disable`, { raw: 'nope', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await getLink(client, id)).status).toBe('ACTIVE');
  });
});

describe('the pay page', () => {
  sandboxTest('shows the order to the payer, in THB, without the internal note, under the hosted pages’ security headers', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { url } = await createLink(client);
    const page = await open(sandbox, url);
    expect(page.status).toBe(200);
    for (const text of ['Ceramic tea set', 'Tea pot', 'Celadon, 600 ml', 'Cup', '4 × ฿150.00', '฿600.00', '฿990.00', '฿1,590.00', 'order-2001', SANDBOX_DEFAULTS.merchantName]) {
      expect(page.html).toContain(text);
    }
    expect(page.html).toContain('Pay ฿1,590.00');
    expect(page.html).not.toContain('VIP customer');
    expect(page.html).not.toMatch(/<script|style="/);
    const otherPage = await client.chargeCard('4953261730509988');
    const otp = await open(sandbox, otherPage.body.redirect.redirectUrl);
    for (const header of ['content-security-policy', 'content-type', 'cache-control', 'referrer-policy', 'x-content-type-options']) {
      expect(page.headers.get(header), header).toBe(otp.headers.get(header));
    }
    for (const href of [...page.html.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]!)) {
      const css = await open(sandbox, href);
      expect(css.status, href).toBe(200);
      expect(css.headers.get('content-type')).toContain('text/css');
    }
  });

  sandboxTest('escapes everything the merchant wrote', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { url } = await createLink(client, {
      order: {
        netAmount: 10_000,
        currency: 'THB',
        description: '<script>alert("desc")</script>',
        referenceId: '"><img src=x onerror=alert(1)>',
        orderItems: [{ itemName: '<b>bold</b>', description: "it's <i>", price: 10_000, quantity: 1 }],
      },
      cancelUrl: 'https://shop.example/cart?a=1&b="2"',
    });
    const { html } = await open(sandbox, url);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<b>bold');
    expect(html).toContain('&lt;script&gt;alert(&quot;desc&quot;)&lt;/script&gt;');
    expect(html).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(html).toContain('it&#39;s &lt;i&gt;');
    expect(html).toContain('href="https://shop.example/cart?a=1&amp;b=&quot;2&quot;"');
  });

  sandboxTest('offers only the methods the link enables, installments with the enabled periods', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { url } = await createLink(client, {
      order: INSTALLMENTS_ORDER,
      linkSettings: {
        card: { isEnabled: true },
        cardInstallments: { isEnabled: true, installments3m: { isEnabled: true }, installments4m: { isEnabled: false }, installments6m: { isEnabled: true } },
        qrPromptPay: { isEnabled: true },
        eWallets: { isEnabled: false },
      },
    });
    const { html } = await open(sandbox, url);
    expect(methodsOf(html)).toEqual(['CARD', 'CARD_INSTALLMENTS', 'QR_PROMPT_PAY']);
    expect([...html.matchAll(/<option value="(\d+)"/g)].map((m) => m[1])).toEqual(['3', '6']);
    expect(html).toContain('Card installments (3, 6 months)');
    expect(html).not.toContain('TrueMoney');
  });

  sandboxTest('lists wallets, banking apps and pay-later, the phone-only banking apps only to a phone', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { url } = await createLink(client, { linkSettings: { eWallets: { isEnabled: true }, mobileBanking: { isEnabled: true }, buyNowPayLater: { isEnabled: true } } });
    const desktop = await open(sandbox, url);
    expect(methodsOf(desktop.html)).toEqual(['TRUE_MONEY', 'SHOPEE_PAY', 'LINE_PAY', 'ALIPAY', 'WECHAT_PAY', 'MAKE', 'KPLUS', 'SCB_EASY', 'SPAY_LATER']);
    expect(desktop.html).not.toContain('name="cardNumber"');
    const phone = await open(sandbox, url, { 'user-agent': PHONE_AGENT });
    expect(methodsOf(phone.html)).toEqual(['TRUE_MONEY', 'SHOPEE_PAY', 'LINE_PAY', 'ALIPAY', 'WECHAT_PAY', 'MAKE', 'KPLUS', 'SCB_EASY', 'BANGKOK_BANK_APP', 'KRUNGSRI_APP', 'SPAY_LATER']);
    const refused = await pay(sandbox, url, { method: 'BANGKOK_BANK_APP' });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('This payment method is not offered for this payment.');
  });

  sandboxTest('asks for the phone number only when the link collects it, and the address only when it collects that', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const plain = await open(sandbox, (await createLink(client, { collectPhoneNumber: false })).url);
    expect(plain.html).not.toContain('name="phoneNumber"');
    expect(plain.html).not.toContain('name="streetAddress"');
    const both = await open(sandbox, (await createLink(client, { collectPhoneNumber: true, collectDeliveryAddress: true })).url);
    for (const name of ['phoneCountryCode', 'phoneNumber', 'contactName', 'streetAddress', 'city', 'postCode', 'country']) {
      expect(both.html).toContain(`name="${name}"`);
    }
  });

  sandboxTest('links to the cancel URL, and shows no cancel link without one', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const withCancel = await open(sandbox, (await createLink(client)).url);
    expect(withCancel.html).toContain(`<a class="button button-secondary" href="${CANCEL_URL}">Cancel and return to the shop</a>`);
    const without = await open(sandbox, (await createLink(client, { cancelUrl: undefined })).url);
    expect(without.html).not.toContain('Cancel and return');
  });

  sandboxTest('answers 404 for an unknown link, 405 for another method, 415 for a post that is not a form', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const unknown = await open(sandbox, `${PAGES}/pl_unknown`);
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain('Payment link not found');
    const { url } = await createLink(client);
    const put = await sandbox.fetch(new Request(url, { method: 'PUT' }));
    expect(put.status).toBe(405);
    const json = await sandbox.fetch(new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
    expect(json.status).toBe(415);
  });

  sandboxTest('serves its stylesheet on GET only, never as a link named style.css', async ({ startInProcess }) => {
    const { sandbox } = startInProcess(linkOptions());
    for (const method of ['POST', 'HEAD', 'PUT']) {
      const answer = await sandbox.fetch(new Request(`${PAGES}/style.css`, { method }));
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get('allow'), method).toBe('GET');
    }
  });

  sandboxTest('refuses a method other than GET and POST under its pages even where there is no page', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { url } = await createLink(client);
    for (const path of [`${PAGES}/`, `${url}/more`]) {
      const answer = await sandbox.fetch(new Request(path, { method: 'PUT' }));
      expect(answer.status, path).toBe(405);
      expect(answer.headers.get('allow'), path).toBe('GET, POST');
      expect((await sandbox.fetch(new Request(path))).status, path).toBe(404);
    }
  });
});

describe('paying on the page', () => {
  sandboxTest('pays by card: the link is PAID, the payer goes to redirectUrl, and the charge is the link’s', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client);
    const answer = await pay(sandbox, url, card('4111111111111111'));
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(REDIRECT_URL);
    expect((await getLink(client, id)).status).toBe('PAID');

    const charges = await linkCharges(client, id);
    expect(charges.totalCount).toBe(1);
    const [charge] = charges.data;
    expect(charge).toMatchObject({ status: 'SUCCEEDED', amount: 159_000, currency: 'THB', source: 'PAYMENT_LINK', sourceId: id, referenceId: 'order-2001' });
    expect(charge.paymentMethod).toMatchObject({ paymentMethodType: 'CARD', card: { last4: '1111', brand: 'VISA' } });
    expect((await client.get('/api/v1/charges?source_in=API')).body.totalCount).toBe(0);
    const transaction = (await client.get(`/api/v1/transactions/${charge.chargeId}`)).body;
    expect(transaction).toMatchObject({ transactionType: 'PAYMENT', chargeSource: 'PAYMENT_LINK', sourceId: id, grossAmount: 159_000 });
  });

  sandboxTest('writes the link’s charge in the service shape, sourceId the link id, alike on GET, in the list and in charge.succeeded', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client);
    await pay(sandbox, url, card('4111111111111111'));
    const [listed] = (await linkCharges(client, id)).data;
    const got = await client.getCharge(listed.chargeId);
    await sandbox.webhooks.idle();
    const delivery = sandbox.webhooks.list().find((d) => d.event === 'charge.succeeded' && d.resourceId === got.chargeId);
    expect(got).toMatchObject({ source: 'PAYMENT_LINK', sourceId: id, failureCode: '', customer: { email: '', primaryPhone: { countryCode: '', number: '' } } });
    expect(Object.values(got.paymentMethod).filter((member) => member !== null)).toEqual(['CARD', expect.objectContaining({ last4: '1111' })]);
    expect(listed).toEqual(got);
    expect(JSON.parse(delivery!.body)).toEqual(got);
  });

  sandboxTest('uses the link id as the charge reference when the order has none', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client, { order: { netAmount: 10_000, currency: 'THB', description: 'A mug' } });
    await pay(sandbox, url, card('4111111111111111'));
    expect((await linkCharges(client, id)).data[0].referenceId).toBe(id);
  });

  sandboxTest('is single use: once PAID the page says so with 409 and refuses another payment', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client);
    const form = formOf((await open(sandbox, url)).html);
    await submit(sandbox, form.action, { ...form.fields, ...card('4111111111111111') });
    const page = await open(sandbox, url);
    expect(page.status).toBe(409);
    expect(page.html).toContain('This link has already been paid');
    expect(page.html).not.toContain('<form');
    expect(page.html).toContain(`href="${CANCEL_URL}"`);
    const second = await submit(sandbox, form.action, { ...form.fields, formToken: 'pla_another-attempt-01', ...card('5372074248113841') });
    expect(second.status).toBe(409);
    expect((await linkCharges(client, id)).totalCount).toBe(1);
  });

  sandboxTest('makes one charge when the same form is sent twice, and sends the second to the outcome of the first', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client);
    const form = formOf((await open(sandbox, url)).html);
    const fields = { ...form.fields, ...card('4111111111111111') };
    const [a, b] = await Promise.all([submit(sandbox, form.action, fields), submit(sandbox, form.action, fields)]);
    expect((await linkCharges(client, id)).totalCount).toBe(1);
    expect([a.status, b.status]).toEqual([303, 303]);
    const again = await submit(sandbox, form.action, fields);
    expect(again.status).toBe(303);
    expect((await open(sandbox, again.location!)).location).toBe(REDIRECT_URL);
    expect((await linkCharges(client, id)).totalCount).toBe(1);
  });

  sandboxTest('shows a failed card with 402 and why, keeps the link ACTIVE, and takes another card', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client);
    const failed = await pay(sandbox, url, card('4943129900084541'));
    expect(failed.status).toBe(402);
    expect(failed.html).toContain('The card has insufficient funds. (CH_INSUFFICIENT_FUNDS)');
    expect(failed.html).toContain('role="alert"');
    expect(failed.html).toContain('id="cardNumber" name="cardNumber" value=""');
    expect(failed.html).toContain('id="securityCode" name="securityCode" value=""');
    expect((await getLink(client, id)).status).toBe('ACTIVE');

    const form = formOf(failed.html);
    const retried = await submit(sandbox, form.action, { ...form.fields, ...card('5372074248113841') });
    expect(retried.status).toBe(303);
    expect(retried.location).toBe(REDIRECT_URL);
    expect((await getLink(client, id)).status).toBe('PAID');
    const statuses = (await linkCharges(client, id)).data.map((c: { status: string }) => c.status);
    expect(statuses).toEqual(['SUCCEEDED', 'FAILED']);
  });

  sandboxTest('checks the card fields on the page, keeps what may be shown again, and charges nothing', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client);
    const answer = await pay(sandbox, url, card('4111111111111112', { expiryMonth: '13', securityCode: '12', cardHolderName: 'Somchai <Jaidee>' }));
    expect(answer.status).toBe(400);
    expect(answer.html).toContain('Enter a valid card number.');
    expect(answer.html).toContain('Enter the month, 01 to 12.');
    expect(answer.html).toContain('Enter the 3-digit security code.');
    expect(answer.html).toMatch(/id="cardNumber"[^>]*aria-invalid="true"/);
    expect(answer.html).toContain('value="Somchai &lt;Jaidee&gt;"');
    expect(answer.html).not.toContain('4111111111111112');
    expect((await linkCharges(client, id)).totalCount).toBe(0);
    const expired = await pay(sandbox, url, card('4111111111111111', { expiryYear: '20' }));
    expect(expired.html).toContain('This card has expired.');
    const none = await pay(sandbox, url, { method: '' });
    expect(none.html).toContain('Choose how to pay.');
  });

  sandboxTest('pays through 3-D Secure: the OTP page, then back to the link, then to redirectUrl', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client);
    const started = await pay(sandbox, url, card('4953261730509988'));
    expect(started.status).toBe(303);
    expect(started.location).toMatch(new RegExp(`^${ORIGIN}/sandbox/pages/otp/ch_`));
    expect((await getLink(client, id)).status).toBe('ACTIVE');
    const [pending] = (await linkCharges(client, id)).data;
    expect(pending).toMatchObject({ status: 'PENDING', source: 'PAYMENT_LINK', sourceId: id });

    const back = await client.submitPage(started.location!, { otp: '123456' });
    expect(back.status).toBe(303);
    expect(back.location).toMatch(new RegExp(`^${url}\\?attempt=`));
    expect((await getLink(client, id)).status).toBe('PAID');
    const done = await open(sandbox, back.location!);
    expect(done.status).toBe(303);
    expect(done.location).toBe(REDIRECT_URL);
  });

  sandboxTest('brings the payer back to the form after a wrong OTP, the link still ACTIVE', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client);
    const started = await pay(sandbox, url, card('4953261730509988'));
    const back = await client.submitPage(started.location!, { otp: '000000' });
    const page = await open(sandbox, back.location!);
    expect(page.status).toBe(200);
    expect(page.html).toContain('The payment could not be verified. (CH_AUTHENTICATION_FAILED)');
    expect(formOf(page.html).action).toBe(url);
    expect((await getLink(client, id)).status).toBe('ACTIVE');
  });

  sandboxTest('offers to continue a payment left at its hosted step', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { url } = await createLink(client);
    const form = formOf((await open(sandbox, url)).html);
    const started = await submit(sandbox, form.action, { ...form.fields, ...card('4389783280144506') });
    expect(started.location).toMatch(/\/sandbox\/pages\/force\/ch_/);
    const page = await open(sandbox, `${url}?attempt=${form.fields.formToken}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('still waiting');
    expect(page.html).toContain(`href="${started.location}"`);
  });

  sandboxTest('pays installments with the period chosen', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client, {
      order: INSTALLMENTS_ORDER,
      linkSettings: { cardInstallments: { isEnabled: true, installments3m: { isEnabled: true }, installments6m: { isEnabled: false } } },
    });
    const bad = await pay(sandbox, url, card('4417704002802961', { method: 'CARD_INSTALLMENTS', installmentPeriod: '6' }));
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('Choose one of the installment plans offered.');
    const answer = await pay(sandbox, url, card('4417704002802961', { method: 'CARD_INSTALLMENTS', installmentPeriod: '3' }));
    expect(answer.location).toBe(REDIRECT_URL);
    const [charge] = (await linkCharges(client, id)).data;
    expect(charge.paymentMethod).toMatchObject({ paymentMethodType: 'CARD_INSTALLMENTS', cardInstallments: { installmentPeriod: 3 } });
  });

  sandboxTest('pays by PromptPay: the QR page, the payer simulator, then back to the link and on to redirectUrl', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client, { linkSettings: { qrPromptPay: { isEnabled: true }, card: { isEnabled: true } } });
    const started = await pay(sandbox, url, { method: 'QR_PROMPT_PAY' });
    expect(started.status).toBe(303);
    expect(started.location).toMatch(/\/sandbox\/pages\/payment-links\/pl_\w+\?attempt=pla_/);
    const qrPage = await open(sandbox, started.location!);
    expect(qrPage.status).toBe(200);
    expect(qrPage.html).toMatch(/<img class="qr" src="data:image\/png;base64,[A-Za-z0-9+/=]+"/);
    const [charge] = (await linkCharges(client, id)).data;
    expect(charge).toMatchObject({ status: 'PENDING', paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY' } });
    const payerHref = unescape(/href="(\/sandbox\/pages\/promptpay\?rawData=[^"]+)"/.exec(qrPage.html)![1]!);
    const rawData = new URL(payerHref, ORIGIN).searchParams.get('rawData')!;
    expect(rawData).toMatch(/^000201/);
    // The payer page, handed the code's payload, offers to pay it (it lists no charges).
    const payer = await open(sandbox, payerHref);
    expect(payer.html).toMatch(/<textarea [^>]*name="rawData"[^>]*>000201[^<]+<\/textarea>/);

    const stillWaiting = await open(sandbox, started.location!);
    expect(stillWaiting.html).toContain('Scan to pay with PromptPay');

    const paid = await client.submitPage(PAYER, { rawData, outcome: 'succeed' });
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(`${ORIGIN}${started.location}`);
    expect((await getLink(client, id)).status).toBe('PAID');
    const done = await open(sandbox, paid.location!);
    expect(done.location).toBe(REDIRECT_URL);
  });

  sandboxTest('pays by an e-wallet through its approve page', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client, { linkSettings: { eWallets: { isEnabled: true } } });
    const started = await pay(sandbox, url, { method: 'TRUE_MONEY' });
    expect(started.location).toMatch(/\/sandbox\/pages\/authorize\/ch_/);
    const back = await client.submitPage(started.location!, { decision: 'approve' });
    expect((await open(sandbox, back.location!)).location).toBe(REDIRECT_URL);
    expect((await linkCharges(client, id)).data[0]).toMatchObject({ status: 'SUCCEEDED', paymentMethod: { paymentMethodType: 'TRUE_MONEY' } });
  });

  sandboxTest('sends deviceType for a phone-only banking app paid from a phone', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client, { linkSettings: { mobileBanking: { isEnabled: true } } });
    const started = await pay(sandbox, url, { method: 'KRUNGSRI_APP' }, { 'user-agent': PHONE_AGENT });
    expect(started.status).toBe(303);
    await client.submitPage(started.location!, { decision: 'approve' });
    expect((await getLink(client, id)).status).toBe('PAID');
  });

  sandboxTest('shows "payment received" when the link has no redirectUrl', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { url } = await createLink(client, { redirectUrl: undefined });
    const answer = await pay(sandbox, url, card('4111111111111111'));
    expect(answer.status).toBe(200);
    expect(answer.html).toContain('Payment received');
  });
});

describe('collecting the phone number and the delivery address', () => {
  const address = { contactName: 'Somchai Jaidee', streetAddress: '99/1 Sukhumvit Soi 11', city: 'Bangkok', postCode: '10110' };

  sandboxTest('refuses the payment until they are given, saying which field is wrong', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client, { collectPhoneNumber: true, collectDeliveryAddress: true });
    const answer = await pay(sandbox, url, { ...card('4111111111111111'), phoneNumber: '12', postCode: 'ABC' });
    expect(answer.status).toBe(400);
    for (const text of ['Enter a phone number of 6 to 14 digits.', 'Enter the name of the recipient.', 'Enter the street address.', 'Enter the city or province.', 'Enter the five-digit postcode.']) {
      expect(answer.html).toContain(text);
    }
    expect(answer.html).toMatch(/id="phoneNumber"[^>]*aria-describedby="phoneNumber-error" aria-invalid="true"/);
    expect((await linkCharges(client, id)).totalCount).toBe(0);
  });

  sandboxTest('writes them on the charge as customer.primaryPhone and customer.deliveryAddress', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client, { collectPhoneNumber: true, collectDeliveryAddress: true });
    const answer = await pay(sandbox, url, { ...card('4111111111111111'), phoneNumber: '081-234-5678', ...address });
    expect(answer.location).toBe(REDIRECT_URL);
    const [charge] = (await linkCharges(client, id)).data;
    const phone = { countryCode: '66', number: '812345678' };
    expect(charge.customer).toEqual({
      primaryPhone: phone,
      email: '',
      deliveryAddress: { contactName: 'Somchai Jaidee', phone, address: { streetAddress: '99/1 Sukhumvit Soi 11', city: 'Bangkok', country: 'THA', postCode: '10110' } },
    });
  });

  sandboxTest('takes only the phone when only the phone is collected', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client, { collectPhoneNumber: true });
    await pay(sandbox, url, { ...card('4111111111111111'), phoneCountryCode: '+44', phoneNumber: '07700 900123' });
    expect((await linkCharges(client, id)).data[0].customer).toEqual({
      primaryPhone: { countryCode: '44', number: '07700900123' },
      email: '',
      deliveryAddress: { contactName: '', phone: { countryCode: '', number: '' }, address: { streetAddress: '', city: '', country: '', postCode: '' } },
    });
  });

  sandboxTest('leaves every member of the charge’s customer "" when nothing is collected', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client, { collectPhoneNumber: false });
    await pay(sandbox, url, { ...card('4111111111111111'), phoneNumber: '0812345678' });
    expect((await linkCharges(client, id)).data[0].customer).toEqual({
      primaryPhone: { countryCode: '', number: '' },
      email: '',
      deliveryAddress: { contactName: '', phone: { countryCode: '', number: '' }, address: { streetAddress: '', city: '', country: '', postCode: '' } },
    });
  });
});

describe('a payment that completes after the link stopped being payable', () => {
  sandboxTest('fails, so a link paid by another attempt is never paid twice', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client);
    const qr = await pay(sandbox, url, { method: 'QR_PROMPT_PAY' });
    const rawData = unescape(/<code>([^<]+)<\/code>/.exec((await open(sandbox, qr.location!)).html)![1]!);
    await pay(sandbox, url, card('4111111111111111'));
    expect((await getLink(client, id)).status).toBe('PAID');
    const late = await client.submitPage(PAYER, { rawData, outcome: 'succeed' });
    const page = await open(sandbox, late.location!);
    expect(page.status).toBe(409);
    const statuses = (await linkCharges(client, id)).data.map((c: { status: string; failureCode: string }) => `${c.status} ${c.failureCode}`);
    expect(statuses).toEqual(['SUCCEEDED ', 'FAILED CH_PROCESSING_FAILED']);
    expect((await settledWebhooks(sandbox)).filter((e) => e === 'payment_link.paid')).toHaveLength(1);
  });

  sandboxTest('fails when the merchant disabled the link while the payer was at the OTP page', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client);
    const started = await pay(sandbox, url, card('4953261730509988'));
    await client.request('PATCH', `/api/v1/payment-links/${id}/disable`);
    await client.submitPage(started.location!, { otp: '123456' });
    expect((await linkCharges(client, id)).data[0]).toMatchObject({ status: 'FAILED', failureCode: 'CH_PROCESSING_FAILED' });
    expect((await getLink(client, id)).status).toBe('DISABLED');
  });

  sandboxTest('fails when the link expired while the payer was at the OTP page', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client, { expiresAt: new Date(now + HOUR_MS).toISOString() });
    const started = await pay(sandbox, url, card('4953261730509988'));
    now += HOUR_MS;
    await client.submitPage(started.location!, { otp: '123456' });
    expect((await linkCharges(client, id)).data[0]).toMatchObject({ status: 'FAILED', failureCode: 'CH_PROCESSING_FAILED' });
    expect((await getLink(client, id)).status).toBe('EXPIRED');
  });
});

describe('webhooks of a link', () => {
  sandboxTest('sends payment_link.paid with the link as GET returns it, then charge.succeeded and transaction.created, all signed', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client);
    await pay(sandbox, url, card('4111111111111111'));
    expect(await settledWebhooks(sandbox)).toEqual(['payment_link.paid', 'charge.succeeded', 'transaction.created']);
    expect(deliveries.map((d) => d.event).sort()).toEqual(['charge.succeeded', 'payment_link.paid', 'transaction.created']);
    for (const delivery of deliveries) {
      expect(await verifyWebhookSignature(delivery.body, delivery.signature, KEY)).toBe(true);
      expect(parseWebhookEvent(delivery.event, JSON.parse(delivery.body)).ok).toBe(true);
    }
    const paid = JSON.parse(deliveries.find((d) => d.event === 'payment_link.paid')!.body);
    expect(paid).toEqual(await getLink(client, id));
    expect(paid.status).toBe('PAID');
    const charge = JSON.parse(deliveries.find((d) => d.event === 'charge.succeeded')!.body);
    expect(charge).toMatchObject({ source: 'PAYMENT_LINK', sourceId: id });
  });

  sandboxTest('sends only charge.failed for a failed attempt', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { url } = await createLink(client);
    await pay(sandbox, url, card('4943129900084541'));
    expect(await settledWebhooks(sandbox)).toEqual(['charge.failed']);
  });

  sandboxTest('sends nothing for creating or disabling a link', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id } = await createLink(client);
    await client.request('PATCH', `/api/v1/payment-links/${id}/disable`);
    expect(await settledWebhooks(sandbox)).toEqual([]);
  });
});

describe('GET /api/v1/charges by link', () => {
  sandboxTest('finds a link’s charges with source_in=PAYMENT_LINK and sourceId, and no other link’s or API charge', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const a = await createLink(client);
    const b = await createLink(client);
    await pay(sandbox, a.url, card('4943129900084541'));
    await pay(sandbox, a.url, card('4111111111111111'));
    await pay(sandbox, b.url, card('4111111111111111'));
    await client.chargeCard('4111111111111111');
    const ofA = await linkCharges(client, a.id);
    expect(ofA.totalCount).toBe(2);
    expect(ofA.data.every((c: { sourceId: string }) => c.sourceId === a.id)).toBe(true);
    expect((await client.get(`/api/v1/charges?sourceId=${b.id}`)).body.totalCount).toBe(1);
    expect((await client.get('/api/v1/charges?source_in=PAYMENT_LINK')).body.totalCount).toBe(3);
    expect((await client.get('/api/v1/charges?source_in=API,PAYMENT_LINK')).body.totalCount).toBe(4);
    expect((await client.get('/api/v1/charges?source_in=PAYMENT_LINK&referenceId=order-2001&limit=1')).body.data).toHaveLength(1);
  });
});

describe('what a link is not refused for, as on the service', () => {
  sandboxTest('takes a netAmount other than what the items add up to, and the payer pays netAmount', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    // The items add up to 1,590.00 THB; the link asks 1,490.00 THB (a discount the order does not itemise).
    const { id, url } = await createLink(client, { order: { ...linkRequest().order, netAmount: 149_000 } });
    const link = await getLink(client, id);
    expect(link.order.netAmount).toBe(149_000);
    expect(link.order.orderItems).toHaveLength(2);
    const page = await open(sandbox, url);
    expect(page.html).toContain('Pay ฿1,490.00');
    expect(page.html).not.toContain('Pay ฿1,590.00');
    expect((await pay(sandbox, url, card('4111111111111111'))).location).toBe(REDIRECT_URL);
    const [charge] = (await linkCharges(client, id)).data;
    expect(charge).toMatchObject({ status: 'SUCCEEDED', amount: 149_000, sourceId: id });
    expect((await getLink(client, id)).status).toBe('PAID');
  });

  sandboxTest('takes an order without a description; the page then names who is paid', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { description, ...order } = linkRequest().order;
    const { id, url } = await createLink(client, { order });
    expect(PaymentLinkSchema.parse(await getLink(client, id)).order.description).toBeNull();
    const page = await open(sandbox, url);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`<h1>Payment to ${SANDBOX_DEFAULTS.merchantName}</h1>`);
    expect((await pay(sandbox, url, card('4111111111111111'))).location).toBe(REDIRECT_URL);
  });

  sandboxTest('takes installment periods the amount does not reach; the page offers only those it reaches', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    // 3,500.00 THB reaches 3 and 4 months (3,000.00 THB) but not 6 (4,000.00) or 10 (5,000.00).
    const { id, url } = await createLink(client, {
      order: { netAmount: 350_000, currency: 'THB', description: 'Bicycle helmet' },
      linkSettings: {
        card: { isEnabled: true },
        cardInstallments: { isEnabled: true, installments3m: { isEnabled: true }, installments6m: { isEnabled: true }, installments10m: { isEnabled: true } },
      },
    });
    expect((await getLink(client, id)).linkSettings.cardInstallments).toMatchObject({
      isEnabled: true,
      installments3m: { isEnabled: true },
      installments4m: { isEnabled: false },
      installments6m: { isEnabled: true },
      installments10m: { isEnabled: true },
    });
    const { html } = await open(sandbox, url);
    expect(methodsOf(html)).toEqual(['CARD', 'CARD_INSTALLMENTS']);
    expect([...html.matchAll(/<option value="(\d+)"/g)].map((m) => m[1])).toEqual(['3']);
    const refused = await pay(sandbox, url, card('4417704002802961', { method: 'CARD_INSTALLMENTS', installmentPeriod: '10' }));
    expect(refused.status).toBe(400);
    expect((await linkCharges(client, id)).totalCount).toBe(0);
    await pay(sandbox, url, card('4417704002802961', { method: 'CARD_INSTALLMENTS', installmentPeriod: '3' }));
    expect((await linkCharges(client, id)).data[0]).toMatchObject({ amount: 350_000, paymentMethod: { cardInstallments: { installmentPeriod: 3 } } });
  });

  sandboxTest('takes installments below every period’s minimum; the page then offers no installments at all', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { url } = await createLink(client, {
      order: { netAmount: 100_000, currency: 'THB', description: 'A tea pot' },
      linkSettings: { card: { isEnabled: true }, cardInstallments: { isEnabled: true, installments3m: { isEnabled: true }, installments10m: { isEnabled: true } } },
    });
    const { html } = await open(sandbox, url);
    expect(methodsOf(html)).toEqual(['CARD']);
    expect(html).not.toContain('<option value=');
    const refused = await pay(sandbox, url, card('4417704002802961', { method: 'CARD_INSTALLMENTS', installmentPeriod: '3' }));
    expect(refused.status).toBe(400);
  });

  sandboxTest('says so on the page when installments below their minimums are all the link offers', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions());
    const { id, url } = await createLink(client, {
      order: { netAmount: 100_000, currency: 'THB', description: 'A tea pot' },
      linkSettings: { cardInstallments: { isEnabled: true, installments10m: { isEnabled: true } } },
    });
    expect((await getLink(client, id)).status).toBe('ACTIVE');
    const page = await open(sandbox, url);
    expect(page.status).toBe(200);
    expect(methodsOf(page.html)).toEqual([]);
    expect(page.html).toContain('This link offers no payment method that can pay this amount.');
  });
});

describe('a payment link whose payment is refunded', () => {
  async function paidLink(client: SandboxClient) {
    const { id, url } = await createLink(client);
    await pay(client.sandbox, url, card('4111111111111111'));
    expect((await getLink(client, id)).status).toBe('PAID');
    const chargeId = (await linkCharges(client, id)).data[0].chargeId as string;
    return { id, chargeId };
  }

  sandboxTest('reads REFUNDED once its payment is refunded in full, and stays PAID while only part is', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(linkOptions({ refundSettleDelayMs: 0 }));
    const { id, chargeId } = await paidLink(client);
    const partial = await client.post('/api/v1/refunds', { chargeId, amount: 59_000 });
    expect(partial.status).toBe(201);
    await expect.poll(async () => (await client.get(`/api/v1/refunds/${partial.body.refundId}`)).body.status).toBe('SUCCEEDED');
    expect((await getLink(client, id)).status).toBe('PAID');

    expect((await client.post('/api/v1/refunds', { chargeId, amount: 100_000 })).status).toBe(201);
    await expect.poll(async () => (await getLink(client, id)).status).toBe('REFUNDED');
    // The typed client reads it.
    const { ServiceClient } = await import('../../../src/server/index.js');
    const typed = new ServiceClient({ baseUrl: ORIGIN, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey, fetch: sandbox.fetch });
    expect((await typed.paymentLinks.get(id)).status).toBe('REFUNDED');
  });

  sandboxTest('reads REFUNDED after one full refund, and cannot be disabled then', async ({ startInProcess }) => {
    const { client } = startInProcess(linkOptions({ refundSettleDelayMs: 0 }));
    const { id, chargeId } = await paidLink(client);
    expect((await client.post('/api/v1/refunds', { chargeId })).status).toBe(201);
    await expect.poll(async () => (await getLink(client, id)).status).toBe('REFUNDED');
    expect((await client.request('PATCH', `/api/v1/payment-links/${id}/disable`)).status).toBe(422);
  });
});
