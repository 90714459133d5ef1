import { afterEach, describe, expect, it, vi } from 'vitest';
import { CheckoutOrderStateResponseSchema } from '../../../src/core/schemas/checkout.js';
import { ORDER_TOKEN_TTL_MS } from '../../../src/server/checkout/checkout-options.js';
import { OrderTokens } from '../../../src/server/checkout/order-tokens.js';
import type { ResolvedOrder } from '../../../src/server/index.js';
import { SANDBOX_DEFAULTS } from '../../../src/sandbox/index.js';
import { createCheckoutHarness, longPollListening, serviceReadsOf, SHOP, type CheckoutHarness } from '../../support/checkout-harness.js';
import { ORIGIN } from '../../support/sandbox-client.js';

/**
 * `GET /orders/{orderReference}/state` for the holder of the order's token, against the real
 * sandbox (its webhooks reach the handler in process, as over a socket, unless a test turns them off).
 */

const SECRET = 'the shop’s status token secret';
const PRICE = 24_500;
const ORDERS: Record<string, ResolvedOrder> = {
  'cart-1': { amount: PRICE, currency: 'THB', referenceId: 'order-1' },
  'cart-2': { amount: 9_900, currency: 'THB', referenceId: 'order-2' },
};

let harness: CheckoutHarness;

function setUp(options: Parameters<typeof createCheckoutHarness>[1] = {}, sandboxOptions: Parameters<typeof createCheckoutHarness>[2] = {}, serviceFetch?: (request: Request) => Promise<Response>) {
  harness = createCheckoutHarness(ORDERS, { statusTokenSecret: SECRET, ...options }, sandboxOptions, serviceFetch);
  return harness;
}

afterEach(() => {
  (harness as CheckoutHarness | undefined)?.sandbox.close();
});

/** What the merchant's page renders into `<satang-checkout order-token>`. */
const orderToken = (orderReference: string) => (harness.handler).orderToken(orderReference);

async function state(orderReference: string, token?: string | null) {
  const headers: Record<string, string> = {};
  const given = token === undefined ? await orderToken(orderReference) : token;
  if (given !== null) headers['X-Satang-Order-Token'] = given;
  const answer = await harness.call('GET', `/orders/${encodeURIComponent(orderReference)}/state`, { headers });
  if (answer.status === 200) expect(CheckoutOrderStateResponseSchema.safeParse(answer.body).success).toBe(true);
  return answer;
}

const card = async (pan = '4111111111111111') => ({ type: 'CARD_TOKEN', cardTokenId: await harness.service.tokenize(pan), securityCode: '123' });
const QR = { type: 'QR_PROMPT_PAY' };

function pay(paymentMethod: unknown, key: string, extra: Record<string, unknown> = {}) {
  return harness.call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod, ...extra }, headers: { 'Idempotency-Key': key } });
}

const status = (chargeId: string, token: string) => harness.call('GET', `/charges/${chargeId}/status`, { headers: { 'X-Satang-Status-Token': token } });

/** The payer scans the QR and pays it on the sandbox's PromptPay page. */
async function scanAndPay(rawData: string) {
  const page = await harness.service.submitPage(`${ORIGIN}/sandbox/pages/promptpay`, { rawData, outcome: 'succeed' });
  expect(page.status).toBeLessThan(400);
}

describe('GET /orders/:orderReference/state', () => {
  describe('when the order token does not open this order', () => {
    it('answers 403 INVALID_ORDER_TOKEN without a token, with garbage, with one of another secret or of another merchant sharing the secret', async () => {
      setUp();
      const foreign = await new OrderTokens('another secret of some length', SANDBOX_DEFAULTS.merchantId).sign('cart-1');
      const otherShop = await new OrderTokens(SECRET, 'another merchant under the same partner').sign('cart-1');
      for (const token of [null, '', 'garbage', foreign, otherShop]) {
        const answer = await state('cart-1', token);
        expect([answer.status, answer.body.error.errorCode]).toEqual([403, 'INVALID_ORDER_TOKEN']);
      }
    });

    it('answers 403 INVALID_ORDER_TOKEN to a token forged from a genuine one', async () => {
      setUp();
      const [version, expiry = '', mac = ''] = (await orderToken('cart-1')).split('.');
      const forged = [
        `${version}.${expiry}.${mac.slice(0, 10)}${mac.charAt(10) === 'A' ? 'B' : 'A'}${mac.slice(11)}`,
        `${version}.${Number(expiry) + ORDER_TOKEN_TTL_MS}.${mac}`,
      ];
      for (const token of forged) {
        const answer = await state('cart-1', token);
        expect([answer.status, answer.body.error.errorCode]).toEqual([403, 'INVALID_ORDER_TOKEN']);
      }
    });

    it('reads nothing of an order with the token of another (a swapped token)', async () => {
      setUp();
      const paid = await pay(await card(), 'tab-a');
      expect(paid.status).toBe(201);
      await vi.waitFor(async () => expect((await state('cart-1')).body.state).toBe('paid'));
      const swapped = await state('cart-1', await orderToken('cart-2'));
      expect([swapped.status, swapped.body.error.errorCode]).toEqual([403, 'INVALID_ORDER_TOKEN']);
      expect(swapped.text).not.toContain(paid.body.chargeId);
      // A path that is not even valid percent-encoding was never given a token.
      const malformed = await harness.call('GET', '/orders/%E0%A4%A/state', { headers: { 'X-Satang-Order-Token': await orderToken('cart-1') } });
      expect([malformed.status, malformed.body.error.errorCode]).toEqual([403, 'INVALID_ORDER_TOKEN']);
    });

    it('answers 403 ORDER_TOKEN_EXPIRED to a genuine token past its expiry, and INVALID for it on another order', async () => {
      setUp();
      const signedLongAgo = new OrderTokens(SECRET, SANDBOX_DEFAULTS.merchantId, { now: () => Date.now() - ORDER_TOKEN_TTL_MS - 1 });
      const expired = await signedLongAgo.sign('cart-1');
      const answer = await state('cart-1', expired);
      expect([answer.status, answer.body.error.errorCode]).toEqual([403, 'ORDER_TOKEN_EXPIRED']);
      const elsewhere = await state('cart-2', expired);
      expect([elsewhere.status, elsewhere.body.error.errorCode]).toEqual([403, 'INVALID_ORDER_TOKEN']);
    });
  });

  it('lets a page of an allowed origin send the order token across origins', async () => {
    setUp({ allowedOrigins: ['https://pages.example'] });
    const preflight = await harness.call('OPTIONS', '/orders/cart-1/state', { headers: { origin: 'https://pages.example', 'access-control-request-headers': 'x-satang-order-token' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')?.split(', ')).toContain('x-satang-order-token');
  });

  it('counts its reads in the status reads’ rate limit', async () => {
    setUp({ rateLimit: { statusPerWindow: 2 } });
    expect((await state('cart-1')).status).toBe(200);
    expect((await state('cart-1')).status).toBe(200);
    const limited = await state('cart-1');
    expect([limited.status, limited.body.error.errorCode]).toEqual([429, 'RATE_LIMITED']);
  });

  it('tells open, then paying with the QR and a status token that follows it, then paid once the payer pays the QR', async () => {
    setUp();
    expect((await state('cart-1')).body).toEqual({ orderReference: 'cart-1', state: 'open' });

    const qr = await pay(QR, 'tab-a');
    expect(qr.status).toBe(201);
    const paying = await state('cart-1');
    expect(paying.body).toMatchObject({
      orderReference: 'cart-1',
      state: 'paying',
      payment: { chargeId: qr.body.chargeId, paymentMethodType: 'QR_PROMPT_PAY', actionRequired: 'ENCODED_IMAGE', encodedImage: { rawData: qr.body.encodedImage.rawData } },
    });
    expect(paying.body.payment.intent).toBeUndefined();
    // Another tab follows the QR with the token it was handed here.
    const followed = await status(qr.body.chargeId, paying.body.payment.statusToken);
    expect([followed.status, followed.body.status, followed.body.order]).toEqual([200, 'PENDING', undefined]);

    await scanAndPay(qr.body.encodedImage.rawData);
    await vi.waitFor(async () => expect((await state('cart-1')).body).toEqual({ orderReference: 'cart-1', state: 'paid', paidBy: qr.body.chargeId, outcome: 'paid' }));
    // Another order is untouched.
    expect((await state('cart-2')).body).toEqual({ orderReference: 'cart-2', state: 'open' });
  });

  it('tells paid once a card paid the order', async () => {
    setUp();
    const paid = await pay(await card(), 'tab-a');
    expect(paid.status).toBe(201);
    await vi.waitFor(async () => expect((await state('cart-1')).body).toEqual({ orderReference: 'cart-1', state: 'paid', paidBy: paid.body.chargeId, outcome: 'paid' }));
  });

  it('tells paying with the bank’s page while a 3-D Secure card waits for its OTP, then paid', async () => {
    setUp();
    const created = await pay(await card('4953261730509988'), 'tab-a', { returnUrl: `${SHOP}/return` });
    expect([created.status, created.body.actionRequired]).toEqual([201, 'REDIRECT']);
    const paying = await state('cart-1');
    expect(paying.body).toMatchObject({
      state: 'paying',
      payment: { chargeId: created.body.chargeId, paymentMethodType: 'CARD_TOKEN', actionRequired: 'REDIRECT', redirect: { redirectUrl: created.body.redirect.redirectUrl } },
    });
    expect(paying.body.payment.encodedImage).toBeUndefined();

    await harness.service.submitPage(created.body.redirect.redirectUrl, { otp: '123456' });
    await vi.waitFor(async () => expect((await state('cart-1')).body).toMatchObject({ state: 'paid', paidBy: created.body.chargeId }));
  });

  it('settles a success it finds itself when no webhook comes, and tells paid', async () => {
    const told: string[] = [];
    setUp({ onOrder: (event) => void told.push(event.type) }, { webhook: { url: undefined } });
    const created = await pay(await card('4953261730509988'), 'tab-a', { returnUrl: `${SHOP}/return` });
    await harness.service.submitPage(created.body.redirect.redirectUrl, { otp: '123456' });
    expect(harness.events).toEqual([]);
    await vi.waitFor(async () => expect((await state('cart-1')).body).toEqual({ orderReference: 'cart-1', state: 'paid', paidBy: created.body.chargeId, outcome: 'paid' }));
    expect(told).toEqual(['order.paid']);
  });

  it('tells open again once the last attempt failed', async () => {
    setUp();
    const declined = await pay(await card('4943129900084541'), 'tab-a');
    expect(declined.status).toBe(201);
    await vi.waitFor(async () => expect((await status(declined.body.chargeId, declined.body.statusToken)).body.status).toBe('FAILED'));
    expect((await state('cart-1')).body).toEqual({ orderReference: 'cart-1', state: 'open' });
  });

  it('tells paying without a payment while the charge is being created', async () => {
    let held: () => void = () => undefined;
    const release = new Promise<void>((resolve) => (held = resolve));
    let reached: () => void = () => undefined;
    const atService = new Promise<void>((resolve) => (reached = resolve));
    setUp({}, {}, async (request) => {
      if (request.method === 'POST' && new URL(request.url).pathname === '/api/v1/charges') {
        reached();
        await release;
      }
      return harness.sandbox.fetch(request);
    });
    const paying = pay(QR, 'tab-a');
    await atService;
    expect((await state('cart-1')).body).toEqual({ orderReference: 'cart-1', state: 'paying' });
    held();
    expect((await paying).status).toBe(201);
    expect((await state('cart-1')).body).toMatchObject({ state: 'paying', payment: { paymentMethodType: 'QR_PROMPT_PAY' } });
  });

  it('tells refunded once the shop refunds the paying charge in full, and only then', async () => {
    setUp();
    const paid = await pay(await card(), 'tab-a');
    await vi.waitFor(async () => expect((await state('cart-1')).body.state).toBe('paid'));
    const refund = await harness.service.post('/api/v1/refunds', { chargeId: paid.body.chargeId }, { headers: { 'Idempotency-Key': 'refund-1' } });
    expect(refund.status).toBeLessThan(300);
    await vi.waitFor(() => expect(harness.events.map((e) => e.name)).toContain('refund.succeeded'));
    expect((await state('cart-1')).body).toEqual({ orderReference: 'cart-1', state: 'refunded', paidBy: paid.body.chargeId });
  });
});

describe('GET /charges/:chargeId/status › order', () => {
  it('ends a QR\'s status wait with order: paid as soon as a card pays its order, not at the end of the wait', { timeout: 15_000 }, async () => {
    // No poll of the service within the wait: only the card's settlement can end it early.
    setUp({ statusPollIntervalMs: 60_000 });
    const qr = await pay(QR, 'tab-a');
    const reads = serviceReadsOf(harness, qr.body.chargeId);
    const waiting = harness.call('GET', `/charges/${qr.body.chargeId}/status?wait=25`, { headers: { 'X-Satang-Status-Token': qr.body.statusToken } });
    await longPollListening(harness, qr.body.chargeId, reads);

    const byCard = await pay(await card(), 'tab-b', { replace: true });
    expect(byCard.status).toBe(201);
    // Within the test's 15 s, where the wait alone would hold it 25 s.
    expect((await waiting).body).toMatchObject({ chargeId: qr.body.chargeId, status: 'PENDING', order: 'paid' });
    expect((await state('cart-1')).body).toMatchObject({ state: 'paid', paidBy: byCard.body.chargeId });
  });

  it('says order: paid on a QR left PENDING once a card paid its order, and nothing on the card’s own answer', async () => {
    setUp();
    const qr = await pay(QR, 'tab-a');
    expect((await status(qr.body.chargeId, qr.body.statusToken)).body).toMatchObject({ status: 'PENDING' });
    expect((await status(qr.body.chargeId, qr.body.statusToken)).body.order).toBeUndefined();

    const byCard = await pay(await card(), 'tab-b', { replace: true });
    expect(byCard.status).toBe(201);
    await vi.waitFor(async () => expect((await state('cart-1')).body).toMatchObject({ state: 'paid', paidBy: byCard.body.chargeId }));

    const left = await status(qr.body.chargeId, qr.body.statusToken);
    expect(left.body).toMatchObject({ chargeId: qr.body.chargeId, status: 'PENDING', order: 'paid' });
    const mine = await status(byCard.body.chargeId, byCard.body.statusToken);
    expect(mine.body).toMatchObject({ status: 'SUCCEEDED', outcome: 'paid' });
    expect(mine.body.order).toBeUndefined();
  });
});
