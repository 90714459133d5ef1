import { afterEach, describe, expect, it, vi } from 'vitest';
import { signWebhookPayload } from '../../../src/core/webhook-signature.js';
import { SERVICE_HEADERS } from '../../../src/core/constants.js';
import { createCheckoutHandler, MemoryCheckoutStore, type OrderEvent, type ResolvedOrder } from '../../../src/server/index.js';
import { BASE, createCheckoutHarness, SERVICE, SHOP, WEBHOOK_KEY, type CheckoutHarness } from '../../support/checkout-harness.js';
import { ORIGIN } from '../../support/sandbox-client.js';

/**
 * One payment per order, at the amount the shopper approved, paid meaning paid in full: the
 * scenarios of the money rules one by one, against the real sandbox (its webhooks reach the
 * handler in process as over a socket).
 */

const PRICE = 24_500;

/** The shop of one test: an order priced on the server, no longer for sale once paid. Each test has its own, so a late webhook of an earlier one cannot reach it. */
interface Shop {
  price: number;
  paid: string | undefined;
  orderEvents: OrderEvent[];
}
let shop: Shop;
let harness: CheckoutHarness;

function setUp(options: Parameters<typeof createCheckoutHarness>[1] = {}, sandboxOptions: Parameters<typeof createCheckoutHarness>[2] = {}) {
  const mine: Shop = { price: PRICE, paid: undefined, orderEvents: [] };
  shop = mine;
  const orders: Record<string, ResolvedOrder> = {};
  harness = createCheckoutHarness(orders, {
    resolveOrder: (reference) => {
      if (reference === 'pre-order') return { amount: PRICE, currency: 'THB', referenceId: 'order-2', intent: 'authorize' as const };
      return reference === 'cart-1' && !mine.paid ? { amount: mine.price, currency: 'THB', referenceId: 'order-1' } : null;
    },
    onOrder: (event) => {
      mine.orderEvents.push(event);
      if (event.type === 'order.paid') mine.paid ??= event.chargeId;
    },
    ...options,
  }, sandboxOptions);
  return harness;
}

afterEach(() => {
  (harness as CheckoutHarness | undefined)?.sandbox.close();
});

const card = async (pan = '4111111111111111') => ({ type: 'CARD_TOKEN', cardTokenId: await harness.service.tokenize(pan), securityCode: '123' });
const QR = { type: 'QR_PROMPT_PAY' };

function pay(paymentMethod: unknown, key: string, extra: Record<string, unknown> = {}) {
  return harness.call('POST', '/charges', { body: { orderReference: 'cart-1', amount: shop.price, currency: 'THB', paymentMethod, ...extra }, headers: { 'Idempotency-Key': key } });
}

const status = (chargeId: string, token: string) => harness.call('GET', `/charges/${chargeId}/status`, { headers: { 'X-Satang-Status-Token': token } });

/** The payer scans the QR and pays it on the sandbox's PromptPay page. */
async function scanAndPay(rawData: string) {
  const page = await harness.service.submitPage(`${ORIGIN}/sandbox/pages/promptpay`, { rawData, outcome: 'succeed' });
  expect(page.status).toBeLessThan(400);
}

const chargesOfOrder = () => [...harness.sandbox.store.charges.values()].map((r) => r.charge).filter((c) => c.referenceId === 'order-1');
const refundsOf = (chargeId: string) => [...harness.sandbox.store.refunds.values()].map((r) => r.refund).filter((r) => r.chargeId === chargeId);

describe('one payment per order', () => {
  it('takes one charge from two tabs paying at once, and tells the other tab why', async () => {
    setUp();
    const [a, b] = await Promise.all([pay(await card(), 'tab-a'), pay(await card(), 'tab-b')]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([201, 409]);
    const refused = a.status === 409 ? a : b;
    expect(['PAYMENT_IN_PROGRESS', 'ORDER_ALREADY_PAID']).toContain(refused.body.error.errorCode);
    expect(chargesOfOrder()).toHaveLength(1);
  });

  it('shows a second tab the QR the first one opened instead of making another', async () => {
    setUp();
    const first = await pay(QR, 'tab-a');
    const second = await pay(QR, 'tab-b');
    expect(second.status).toBe(201);
    expect(second.body.chargeId).toBe(first.body.chargeId);
    expect(second.body.encodedImage.rawData).toBe(first.body.encodedImage.rawData);
    expect((await status(second.body.chargeId, second.body.statusToken)).body.status).toBe('PENDING');
    expect(chargesOfOrder()).toHaveLength(1);
  });

  it('refuses a card while a QR is open, pays by card when the shopper says so, and refunds the old QR paid later', async () => {
    setUp();
    const qr = await pay(QR, 'tab-a');
    const refused = await pay(await card(), 'tab-b');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ paymentMethodType: 'QR_PROMPT_PAY', replaceable: true, error: { errorCode: 'PAYMENT_IN_PROGRESS' } });
    expect(chargesOfOrder()).toHaveLength(1);

    const byCard = await pay(await card(), 'tab-b-again', { replace: true });
    expect(byCard.status).toBe(201);
    await vi.waitFor(() => expect(shop.paid).toBe(byCard.body.chargeId));

    // The payer scans the old QR anyway.
    await scanAndPay(qr.body.encodedImage.rawData);
    await vi.waitFor(() => expect(shop.orderEvents.map((e) => e.type)).toEqual(['order.paid', 'order.duplicate_refunded']));
    const duplicate = shop.orderEvents[1] as Extract<OrderEvent, { type: 'order.duplicate_refunded' }>;
    expect(duplicate).toMatchObject({ chargeId: qr.body.chargeId, paidBy: byCard.body.chargeId, amount: PRICE, referenceId: 'order-1', orderReference: 'cart-1' });
    await vi.waitFor(() => expect(refundsOf(qr.body.chargeId).map((r) => [r.status, r.amount, r.refundId])).toEqual([['SUCCEEDED', PRICE, duplicate.refundId]]));
    expect(refundsOf(byCard.body.chargeId)).toEqual([]);
    // The QR's own page learns that its payment was given back, the order being paid already.
    expect((await status(qr.body.chargeId, qr.body.statusToken)).body).toMatchObject({ status: 'SUCCEEDED', outcome: 'duplicate_refunded' });
    expect((await status(byCard.body.chargeId, byCard.body.statusToken)).body).toMatchObject({ status: 'SUCCEEDED', outcome: 'paid' });
  });

  it('answers ORDER_ALREADY_PAID once the order is paid, even before the shop hears of it', async () => {
    // No webhooks: the handler finds the first tab's success by reading it.
    setUp({ onOrder: () => undefined });
    const first = await pay(await card(), 'tab-a');
    expect(first.status).toBe(201);
    const again = await pay(await card(), 'tab-b');
    expect([again.status, again.body.error.errorCode]).toEqual([409, 'ORDER_ALREADY_PAID']);
    expect(chargesOfOrder()).toHaveLength(1);
  });

  it('tells a reload of a paid order it is paid, though the shop no longer offers the order', async () => {
    setUp();
    const first = await pay(await card(), 'tab-a');
    await vi.waitFor(() => expect(shop.paid).toBe(first.body.chargeId));
    // The shop's resolveOrder now answers null for it, as for an order that does not exist.
    const reload = await pay(await card(), 'after-reload');
    expect([reload.status, reload.body.error.errorCode]).toEqual([409, 'ORDER_ALREADY_PAID']);
    const unknown = await harness.call('POST', '/charges', { body: { orderReference: 'cart-404', amount: PRICE, currency: 'THB', paymentMethod: QR } });
    expect([unknown.status, unknown.body.error.errorCode]).toEqual([404, 'ORDER_NOT_FOUND']);
  });

  describe('when a retry of the attempt that paid comes to a store at its cap', () => {
    // A bounded store past its cap pushes out what it can learn again first (statuses), then its
    // least recently written records. The attempt's answer, the lock and the payer are one
    // record, rewritten when the order is paid, and the page's way to it is written again then:
    // whatever a busy shop writes, the retry finds its own charge as long as the order is known.
    const shops = {
      'that still offers the order': () => ({ amount: PRICE, currency: 'THB', referenceId: 'order-1' }),
      'that no longer offers it once paid': undefined,
    };
    it.each(Object.entries(shops))('gives it its own charge back, at a shop %s', async (_, resolveOrder) => {
      const store = new MemoryCheckoutStore({ maxEntries: 40 });
      // No webhooks: the success is settled by the status read, after the charge's answer is kept.
      setUp({ store, rateLimit: false, ...(resolveOrder ? { resolveOrder } : {}) }, { webhook: {} });
      const method = await card();
      const first = await pay(method, 'tab-a');
      expect(first.status).toBe(201);
      expect((await status(first.body.chargeId, first.body.statusToken)).body).toMatchObject({ status: 'SUCCEEDED', outcome: 'paid' });
      const paidBy = async () => (JSON.parse((await store.get('order:order-1')) ?? '{}') as { paidBy?: string }).paidBy;
      expect(await paidBy()).toBe(first.body.chargeId);

      const evicted = store.evicted;
      for (let i = 0; (await store.get(`status:${first.body.chargeId}`)) !== undefined; i++) await store.set(`other-order:${i}`, 'x', 60_000);
      expect(store.evicted).toBeGreaterThan(evicted);
      expect(await paidBy()).toBe(first.body.chargeId);

      const retry = await pay(method, 'tab-a');
      expect([retry.status, retry.body.chargeId]).toEqual([201, first.body.chargeId]);
      expect((await status(retry.body.chargeId, retry.body.statusToken)).body).toMatchObject({ status: 'SUCCEEDED', outcome: 'paid' });
      expect(chargesOfOrder()).toHaveLength(1);
    });
  });

  it('lets a second attempt go once the first one failed', async () => {
    setUp();
    const declined = await pay(await card('4943129900084541'), 'tab-a');
    expect(declined.status).toBe(201);
    const retry = await pay(await card(), 'tab-a-2');
    expect(retry.status).toBe(201);
    await vi.waitFor(() => expect(shop.paid).toBe(retry.body.chargeId));
  });

  it('refuses an attempt’s key sent again with other details, before and after the order is paid, and hands nothing of its payment back', async () => {
    setUp();
    const qr = await pay(QR, 'tab-a');
    expect(qr.status).toBe(201);
    const otherMethod = await pay(await card(), 'tab-a');
    expect(otherMethod.status).toBe(409);
    expect(otherMethod.body.error).toMatchObject({ errorCode: 'IDEMPOTENCY_CONFLICT' });
    expect(otherMethod.text).not.toContain(qr.body.chargeId);
    // The same request again is a retry: its payment, as first answered.
    expect((await pay(QR, 'tab-a')).body.chargeId).toBe(qr.body.chargeId);
    await scanAndPay(qr.body.encodedImage.rawData);
    await vi.waitFor(() => expect(shop.paid).toBe(qr.body.chargeId));
    const afterPaid = await pay(await card(), 'tab-a');
    expect(afterPaid.status).toBe(409);
    expect(afterPaid.body.error).toMatchObject({ errorCode: 'IDEMPOTENCY_CONFLICT' });
    expect(chargesOfOrder()).toHaveLength(1);
  });

  it('holds across two handler instances sharing one store: two tabs on two servers make one charge', async () => {
    setUp();
    const store = new MemoryCheckoutStore();
    const shared = { resolveOrder: () => ({ amount: PRICE, currency: 'THB', referenceId: 'order-1' }), basePath: '/api/checkout', publicUrl: SHOP, store, rateLimit: false as const };
    const one = createCheckoutHandler({ ...shared, service: { ...SERVICE, fetch: harness.sandbox.fetch } });
    const two = createCheckoutHandler({ ...shared, service: { ...SERVICE, fetch: harness.sandbox.fetch } });
    const body = async () => JSON.stringify({ orderReference: 'cart-1', amount: PRICE, currency: 'THB', paymentMethod: await card() });
    const send = async (handler: typeof one, key: string) =>
      handler(new Request(`${BASE}/charges`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key, 'x-satang-order-token': await handler.orderToken('cart-1') }, body: await body() }));
    const answers = await Promise.all([send(one, 'a'), send(two, 'b')]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(chargesOfOrder()).toHaveLength(1);
  });
});

describe('the shopper approves the amount', () => {
  it('refunds a QR paid after the order was repriced, and does not call the order paid', async () => {
    setUp();
    const qr = await pay(QR, 'tab-a');
    shop.price = 387_000;
    await scanAndPay(qr.body.encodedImage.rawData);
    await vi.waitFor(() => expect(shop.orderEvents.map((e) => e.type)).toEqual(['order.repriced_refunded']));
    expect(shop.orderEvents[0]).toMatchObject({ chargeId: qr.body.chargeId, amount: PRICE, orderAmount: 387_000 });
    expect(shop.paid).toBeUndefined();
    await vi.waitFor(() => expect(refundsOf(qr.body.chargeId).map((r) => r.status)).toEqual(['SUCCEEDED']));
    expect((await status(qr.body.chargeId, qr.body.statusToken)).body).toMatchObject({ status: 'SUCCEEDED', outcome: 'repriced_refunded' });

    // The old total is refused with the new one; confirmed, the new total is what is charged.
    const stale = await pay(await card(), 'tab-a-2', { amount: PRICE });
    expect(stale.body).toMatchObject({ amount: 387_000, error: { errorCode: 'AMOUNT_CHANGED' } });
    const confirmed = await pay(await card(), 'tab-a-3');
    expect(confirmed.status).toBe(201);
    await vi.waitFor(() => expect(shop.paid).toBe(confirmed.body.chargeId));
    expect(harness.sandbox.store.charges.get(confirmed.body.chargeId)?.charge.amount).toBe(387_000);
  });

  it('abandons an open QR of the old total when the shopper pays the new one', async () => {
    setUp();
    const qr = await pay(QR, 'tab-a');
    shop.price = 12_345;
    const renewed = await pay(QR, 'tab-a-2');
    expect(renewed.status).toBe(201);
    expect(renewed.body.chargeId).not.toBe(qr.body.chargeId);
    expect(harness.sandbox.store.charges.get(renewed.body.chargeId)?.charge.amount).toBe(12_345);
  });
});

describe('paid means paid in full', () => {
  it('reports a success for another amount than the approved one as amount_mismatch, never paid', async () => {
    setUp({ webhookKeyBase64: WEBHOOK_KEY });
    const qr = await pay(QR, 'tab-a');
    // A success the shopper did not approve: signed with the real key, as only the service could.
    const charge = { ...(await harness.service.getCharge(qr.body.chargeId)), status: 'SUCCEEDED', amount: 100, updatedAt: new Date().toISOString() };
    const body = JSON.stringify(charge);
    const answer = await harness.handler(
      new Request(`${BASE}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SERVICE_HEADERS.event]: 'charge.succeeded', [SERVICE_HEADERS.signature]: await signWebhookPayload(body, WEBHOOK_KEY) },
        body,
      }),
    );
    expect(answer.status).toBe(200);
    expect(shop.orderEvents).toEqual([expect.objectContaining({ type: 'order.amount_mismatch', chargeId: qr.body.chargeId, amount: 100, expectedAmount: PRICE, expectedCurrency: 'THB' })]);
    expect(shop.paid).toBeUndefined();
  });

  it('tells the shop when the refund of a duplicate is refused, and when one fails after it was accepted', async () => {
    // Cards whose refunds the service refuses, and whose refunds fail after they were accepted.
    for (const pan of ['4000007640000003', '4000000000005126']) {
      (harness as CheckoutHarness | undefined)?.sandbox.close();
      // The service's webhooks are held, to be delivered in the order the test chooses.
      const held: Request[] = [];
      setUp({}, { webhook: { url: `${BASE}/webhooks`, webhookKeyBase64: WEBHOOK_KEY, fetch: (input, init) => (held.push(new Request(input, init)), Promise.resolve(new Response(null, { status: 204 }))) } });
      const deliverHeld = async () => {
        for (const request of held.splice(0)) expect((await harness.handler(request)).status).toBe(200);
      };
      // A 3-D Secure card left at its OTP page; in another tab the shopper pays with the card,
      // leaving the first payment; its OTP is entered after all.
      const first = await pay(await card('4953261730509988'), 'tab-a', { returnUrl: `${SHOP}/return` });
      const duplicate = await pay(await card(pan), 'tab-b', { replace: true });
      expect(duplicate.status).toBe(201);
      await harness.service.submitPage(first.body.redirect.redirectUrl, { otp: '123456' });
      await harness.sandbox.webhooks.idle();
      // The 3-D Secure payment's webhook comes first: it pays the order, the card's is a duplicate to refund.
      const bodies = await Promise.all(held.map((request) => request.clone().text()));
      const payer = held.splice(bodies.findIndex((body) => body.includes(first.body.chargeId) && body.includes('SUCCEEDED')), 1)[0]!;
      expect((await harness.handler(payer)).status).toBe(200);
      await vi.waitFor(async () => {
        await deliverHeld();
        expect(shop.orderEvents.filter((e) => e.type === 'order.refund_failed')).toHaveLength(1);
      });
      expect(shop.orderEvents.filter((e) => e.type === 'order.paid').map((e) => e.chargeId)).toEqual([first.body.chargeId]);
      expect(shop.orderEvents.filter((e) => e.type === 'order.refund_failed').map((e) => [e.chargeId, e.reason, e.amount])).toEqual([[duplicate.body.chargeId, 'duplicate_refunded', PRICE]]);
    }
  });

  it('keeps one payment when an answer was lost and no webhook comes: the order\'s state and the next attempt find the lost charge paid the order', async () => {
    // No webhooks set up: the sandbox's go nowhere.
    setUp({ webhookKeyBase64: undefined }, { webhook: { url: `${BASE}/webhooks`, webhookKeyBase64: WEBHOOK_KEY, fetch: () => Promise.resolve(new Response(null, { status: 204 })) } });
    const lost = harness.sandbox.faults.add({ method: 'POST', path: '/api/v1/charges', kind: 'reset', when: 'after', times: 3 });
    const first = await pay(await card(), 'tab-a');
    expect(first.body.error).toMatchObject({ errorCode: 'UPSTREAM_UNAVAILABLE', retryable: true });
    harness.sandbox.faults.remove(lost.faultId);
    const [made] = chargesOfOrder();
    expect(made?.status).toBe('SUCCEEDED');
    // The page asks where the order stands: the lost charge is found, and paid it.
    const stateHeaders = { 'X-Satang-Order-Token': await harness.handler.orderToken('cart-1') };
    expect((await harness.call('GET', '/orders/cart-1/state', { headers: stateHeaders })).body).toMatchObject({ state: 'paid', paidBy: made?.chargeId });
    // The shopper chooses another method (a new attempt): the order is paid already, by the first.
    const second = await pay(QR, 'tab-b');
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ errorCode: 'ORDER_ALREADY_PAID' });
    expect(chargesOfOrder()).toHaveLength(1);
    expect(shop.orderEvents.map((e) => `${e.type} ${e.chargeId}`)).toEqual([`order.paid ${made?.chargeId}`]);
    expect((await harness.call('GET', '/orders/cart-1/state', { headers: stateHeaders })).body).toMatchObject({ state: 'paid', paidBy: made?.chargeId });
  });

  for (const webhooks of [false, true]) {
    it(`keeps one reservation when a card authorization's answer was lost${webhooks ? ', its webhook settling it' : ' and no webhook comes'}: it holds the order, and the next attempt is told so`, async () => {
      if (webhooks) setUp();
      else setUp({ webhookKeyBase64: undefined }, { webhook: { url: `${BASE}/webhooks`, webhookKeyBase64: WEBHOOK_KEY, fetch: () => Promise.resolve(new Response(null, { status: 204 })) } });
      const reserve = async (key: string) =>
        harness.call('POST', '/charges', { body: { orderReference: 'pre-order', amount: PRICE, currency: 'THB', intent: 'authorize', paymentMethod: await card() }, headers: { 'Idempotency-Key': key } });
      const authorizationsOfOrder = () => [...harness.sandbox.authorizations.records.values()].map((r) => r.authorization).filter((a) => a.referenceId === 'order-2');
      // The service makes the authorization; its answer is lost on every try.
      const lost = harness.sandbox.faults.add({ method: 'POST', path: '/api/v1/card-authorizations', kind: 'reset', when: 'after', times: 3 });
      const first = await reserve('tab-a');
      expect(first.body.error).toMatchObject({ errorCode: 'UPSTREAM_UNAVAILABLE', retryable: true });
      harness.sandbox.faults.remove(lost.faultId);
      const [made] = authorizationsOfOrder();
      expect(made?.status).toBe('AUTHORIZED');
      await harness.sandbox.webhooks.idle();
      // The page asks where the order stands: the lost authorization holds it.
      const stateHeaders = { 'X-Satang-Order-Token': await harness.handler.orderToken('pre-order') };
      expect((await harness.call('GET', '/orders/pre-order/state', { headers: stateHeaders })).body).toMatchObject({ state: 'paid', paidBy: made?.cardAuthorizationId, outcome: 'authorized' });
      // The shopper pays again after a reload (a new attempt): no second reservation.
      const second = await reserve('tab-b');
      expect(second.status).toBe(409);
      expect(second.body.error).toMatchObject({ errorCode: 'ORDER_ALREADY_PAID' });
      await harness.sandbox.webhooks.idle();
      expect(authorizationsOfOrder().map((a) => `${a.cardAuthorizationId} ${a.status}`)).toEqual([`${made?.cardAuthorizationId} AUTHORIZED`]);
      expect(shop.orderEvents.map((e) => `${e.type} ${e.chargeId}`)).toEqual([`order.authorized ${made?.cardAuthorizationId}`]);
    });
  }

  it('finds a card authorization whose answer was lost behind more than a page of the shop\'s other authorizations, with no webhook', async () => {
    setUp({ webhookKeyBase64: undefined }, { webhook: { url: `${BASE}/webhooks`, webhookKeyBase64: WEBHOOK_KEY, fetch: () => Promise.resolve(new Response(null, { status: 204 })) } });
    const { ServiceClient } = await import('../../../src/server/index.js');
    const client = new ServiceClient({ ...SERVICE, fetch: harness.sandbox.fetch });
    const reserve = async (key: string) =>
      harness.call('POST', '/charges', { body: { orderReference: 'pre-order', amount: PRICE, currency: 'THB', intent: 'authorize', paymentMethod: await card() }, headers: { 'Idempotency-Key': key } });
    const lost = harness.sandbox.faults.add({ method: 'POST', path: '/api/v1/card-authorizations', kind: 'reset', when: 'after', times: 3 });
    expect((await reserve('tab-a')).status).toBe(503);
    harness.sandbox.faults.remove(lost.faultId);
    // The shop's other pre-orders go on meanwhile: more than the service lists on one page.
    for (let i = 0; i < 120; i += 1) {
      const cardTokenId = await harness.service.tokenize('4111111111111111');
      await client.cardAuthorizations.create({ amount: 1_000, currency: 'THB', referenceId: `other-${i}`, paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } } });
    }
    const second = await reserve('tab-b');
    expect(second.body.error).toMatchObject({ errorCode: 'ORDER_ALREADY_PAID' });
    const ofOrder = [...harness.sandbox.authorizations.records.values()].map((r) => r.authorization).filter((a) => a.referenceId === 'order-2');
    expect(ofOrder.map((a) => a.status)).toEqual(['AUTHORIZED']);
    expect(shop.orderEvents.map((e) => `${e.type} ${e.chargeId}`)).toEqual([`order.authorized ${ofOrder[0]?.cardAuthorizationId}`]);
  });

  for (const intent of ['charge', 'authorize'] as const) {
    it(`keeps one ${intent === 'authorize' ? 'reservation' : 'payment'} when an attempt's answer was lost twice, its retry a minute after its first try, and no webhook comes`, async () => {
      setUp({ webhookKeyBase64: undefined }, { webhook: { url: `${BASE}/webhooks`, webhookKeyBase64: WEBHOOK_KEY, fetch: () => Promise.resolve(new Response(null, { status: 204 })) } });
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        const start = Date.now();
        const reference = intent === 'authorize' ? 'pre-order' : 'cart-1';
        const send = (key: string, paymentMethod: unknown) =>
          harness.call('POST', '/charges', { body: { orderReference: reference, amount: PRICE, currency: 'THB', paymentMethod, ...(intent === 'authorize' ? { intent } : {}) }, headers: { 'Idempotency-Key': key } });
        const made = () =>
          intent === 'authorize'
            ? [...harness.sandbox.authorizations.records.values()].map((r) => r.authorization).filter((a) => a.referenceId === 'order-2').map((a) => `${a.cardAuthorizationId} ${a.status}`)
            : chargesOfOrder().map((c) => `${c.chargeId} ${c.status}`);
        const lost = harness.sandbox.faults.add({ method: 'POST', path: intent === 'authorize' ? '/api/v1/card-authorizations' : '/api/v1/charges', kind: 'reset', when: 'after', times: 6 });
        const method = await card();
        expect((await send('tab-a', method)).status).toBe(503);
        // The shopper presses Pay again a minute later: the same attempt, its answer lost again.
        vi.setSystemTime(start + 60_000);
        expect((await send('tab-a', method)).status).toBe(503);
        harness.sandbox.faults.remove(lost.faultId);
        const [first] = made();
        expect(made()).toHaveLength(1);
        // After a reload, a new attempt: the first try's payment is found, and the order is paid by it.
        vi.setSystemTime(start + 120_000);
        const again = await send('tab-b', await card());
        expect(again.body.error).toMatchObject({ errorCode: 'ORDER_ALREADY_PAID' });
        expect(made()).toEqual([first]);
        expect(shop.orderEvents.map((e) => `${e.type} ${e.chargeId}`)).toEqual([`order.${intent === 'authorize' ? 'authorized' : 'paid'} ${first?.split(' ')[0]}`]);
      } finally {
        vi.useRealTimers();
      }
    });
  }

  it('leaves the shop’s own charges of the order alone: only the checkout’s payments are settled', async () => {
    setUp();
    const paid = await pay(await card(), 'tab-a');
    await vi.waitFor(() => expect(shop.paid).toBe(paid.body.chargeId));
    // The shop charges the same order again from its back office (an extra, agreed with the buyer).
    for (const amount of [PRICE, 30_000]) expect((await harness.service.chargeCard('4111111111111111', { amount, referenceId: 'order-1' })).status).toBe(201);
    await harness.sandbox.webhooks.idle();
    expect(shop.orderEvents.map((e) => e.type)).toEqual(['order.paid']);
    expect([...harness.sandbox.store.refunds.values()]).toEqual([]);
  });

  it('calls a pre-order paid only once its captures add up to the whole amount', async () => {
    setUp();
    const { captureAuthorization, ServiceClient } = await import('../../../src/server/index.js');
    const client = new ServiceClient({ ...SERVICE, fetch: harness.sandbox.fetch });
    const reserve = async (key: string) =>
      harness.call('POST', '/charges', { body: { orderReference: 'pre-order', amount: PRICE, currency: 'THB', intent: 'authorize', paymentMethod: await card() }, headers: { 'Idempotency-Key': key } });
    const reserved = await reserve('pre-1');
    expect(reserved.status).toBe(201);
    await vi.waitFor(() => expect(shop.orderEvents.map((e) => e.type)).toEqual(['order.authorized']));

    // Part of it is shipped and captured; the rest is released: the order is not paid in full.
    const partial = await captureAuthorization(client, reserved.body.chargeId, { amount: 10_000 });
    await vi.waitFor(() => expect(shop.orderEvents.map((e) => e.type)).toEqual(['order.authorized', 'order.partially_captured']));
    expect(shop.orderEvents[1]).toMatchObject({ chargeId: partial.chargeId, amount: 10_000, capturedAmount: 10_000, expectedAmount: PRICE, cardAuthorizationId: reserved.body.chargeId });
    expect(shop.paid).toBeUndefined();
    expect(refundsOf(partial.chargeId)).toEqual([]);
  });

  it('tells a pre-order as the service holds it: open again once the shop cancels its reservation; paid once captured; refunded once the capture is', async () => {
    setUp();
    const { captureAuthorization, ServiceClient } = await import('../../../src/server/index.js');
    const client = new ServiceClient({ ...SERVICE, fetch: harness.sandbox.fetch });
    const stateHeaders = { 'X-Satang-Order-Token': await harness.handler.orderToken('pre-order') };
    const state = async () => (await harness.call('GET', '/orders/pre-order/state', { headers: stateHeaders })).body;
    const reserve = async (key: string) =>
      harness.call('POST', '/charges', { body: { orderReference: 'pre-order', amount: PRICE, currency: 'THB', intent: 'authorize', paymentMethod: await card() }, headers: { 'Idempotency-Key': key } });

    // Reserved, then cancelled by the shop (the buyer changed their mind): the order is open again.
    const first = await reserve('pre-1');
    await harness.sandbox.webhooks.idle();
    expect(await state()).toMatchObject({ state: 'paid', paidBy: first.body.chargeId, outcome: 'authorized' });
    await client.cardAuthorizations.cancel(first.body.chargeId);
    await harness.sandbox.webhooks.idle();
    expect(await state()).toMatchObject({ state: 'open' });

    // Reserved again, captured whole: paid. Then refunded in full from the back office: refunded.
    const second = await reserve('pre-2');
    expect(second.status).toBe(201);
    await harness.sandbox.webhooks.idle();
    const capture = await captureAuthorization(client, second.body.chargeId);
    await harness.sandbox.webhooks.idle();
    expect(await state()).toMatchObject({ state: 'paid', paidBy: second.body.chargeId, outcome: 'paid' });
    await client.refunds.create({ chargeId: capture.chargeId });
    await vi.waitFor(() => expect(refundsOf(capture.chargeId).map((r) => r.status)).toEqual(['SUCCEEDED']));
    await harness.sandbox.webhooks.idle();
    expect(await state()).toMatchObject({ state: 'refunded', paidBy: second.body.chargeId });
    expect(shop.orderEvents.map((e) => e.type)).toEqual(['order.authorized', 'order.authorized', 'order.paid']);
  });

  it('calls a pre-order paid on a capture of the whole amount', async () => {
    setUp();
    const { captureAuthorization, ServiceClient } = await import('../../../src/server/index.js');
    const client = new ServiceClient({ ...SERVICE, fetch: harness.sandbox.fetch });
    const reserved = await harness.call('POST', '/charges', { body: { orderReference: 'pre-order', amount: PRICE, currency: 'THB', intent: 'authorize', paymentMethod: await card() } });
    await vi.waitFor(() => expect(shop.orderEvents.map((e) => e.type)).toEqual(['order.authorized']));
    const whole = await captureAuthorization(client, reserved.body.chargeId);
    await vi.waitFor(() => expect(shop.paid).toBe(whole.chargeId));
    expect(shop.orderEvents.map((e) => e.type)).toEqual(['order.authorized', 'order.paid']);
  });

  it('tells an outcome once across two instances, even when one takes longer than its lease', async () => {
    setUp({ onOrder: () => undefined });
    let now = Date.now();
    const store = new MemoryCheckoutStore({ now: () => now });
    const told: string[] = [];
    let release: () => void = () => undefined;
    const instance = (name: string, slow: boolean) =>
      createCheckoutHandler({
        service: { ...SERVICE, fetch: harness.sandbox.fetch },
        resolveOrder: () => ({ amount: PRICE, currency: 'THB', referenceId: 'order-1' }),
        basePath: '/api/checkout',
        publicUrl: SHOP,
        store,
        rateLimit: false,
        onOrder: (event) => {
          told.push(`${name} ${event.type}`);
          return slow ? new Promise<void>((resolve) => (release = resolve)) : undefined;
        },
      });
    const [a, b] = [instance('a', true), instance('b', false)];
    const created = await a(
      new Request(`${BASE}/charges`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'slow-tell', 'x-satang-order-token': await a.orderToken('cart-1') },
        body: JSON.stringify({ orderReference: 'cart-1', amount: PRICE, currency: 'THB', paymentMethod: await card() }),
      }),
    );
    const { chargeId, statusToken } = (await created.json()) as { chargeId: string; statusToken: string };
    const read = (handler: typeof a) => handler(new Request(`${BASE}/charges/${chargeId}/status`, { headers: { 'X-Satang-Status-Token': statusToken } }));
    const slowRead = read(a);
    await vi.waitFor(() => expect(told).toEqual(['a order.paid']));
    // Instance a is still in its onOrder past its settlement lease: b takes the lease over.
    now += 31_000;
    expect(((await (await read(b)).json()) as { outcome: string }).outcome).toBe('paid');
    release();
    expect((await slowRead).status).toBe(200);
    expect(told).toEqual(['a order.paid']);
  });

  it('tells each outcome once, however often the news comes', async () => {
    setUp();
    const first = await pay(await card(), 'tab-a');
    await vi.waitFor(() => expect(shop.paid).toBe(first.body.chargeId));
    for (let i = 0; i < 3; i += 1) expect((await status(first.body.chargeId, first.body.statusToken)).body.outcome).toBe('paid');
    await harness.sandbox.webhooks.idle();
    expect(shop.orderEvents.map((e) => e.type)).toEqual(['order.paid']);
  });
});
