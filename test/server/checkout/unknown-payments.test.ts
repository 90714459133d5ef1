import { afterEach, describe, expect, it, vi } from 'vitest';
import { Sandbox } from '../../../src/sandbox/index.js';
import { createCheckoutHandler, MemoryCheckoutStore, ServiceClient, type CheckoutHandler, type OrderEvent } from '../../../src/server/index.js';
import { BASE, createCheckoutHarness, SERVICE, SHOP, SHOPPER_ADDRESS, WEBHOOK_KEY, type CheckoutHarness } from '../../support/checkout-harness.js';
import { ORIGIN, SandboxClient } from '../../support/sandbox-client.js';

/**
 * Payments the handler's store no longer knows, and news that comes in an unexpected order: a shop
 * restarted with its in-memory store, a refund heard before its charge. With the service as the
 * truth: an order paid holds its price once, net; every other success is refunded; the page is
 * never told "paid" for a payment that did not pay its order.
 */

const PRICE = 24_500;

/** The shop's own database: it survives a restart of the shop's process, its in-memory checkout store does not. */
interface ShopDatabase {
  price: number;
  paid: string | undefined;
  orderEvents: OrderEvent[];
}

/** A shop whose process can be restarted: each start is a new checkout handler with a new in-memory store, in front of the same sandbox. */
class RestartingShop {
  readonly db: ShopDatabase = { price: PRICE, paid: undefined, orderEvents: [] };
  readonly sandbox: Sandbox;
  readonly service: SandboxClient;
  handler!: CheckoutHandler;

  constructor() {
    this.sandbox = new Sandbox({
      refundSettleDelayMs: 0,
      webhook: { url: `${BASE}/webhooks`, webhookKeyBase64: WEBHOOK_KEY, retryBaseDelayMs: 5, fetch: (input, init) => this.handler(new Request(input, init)) },
    });
    this.service = new SandboxClient(this.sandbox);
    this.start();
  }

  /** Starts (or restarts) the shop's process: whatever its store held is gone. */
  start(): void {
    const { db } = this;
    this.handler = createCheckoutHandler({
      service: { ...SERVICE, fetch: this.sandbox.fetch, retryBaseDelayMs: 1 },
      store: new MemoryCheckoutStore(),
      resolveOrder: (reference) => (reference === 'cart-1' && !db.paid ? { amount: db.price, currency: 'THB', referenceId: 'order-1' } : null),
      basePath: '/api/checkout',
      publicUrl: SHOP,
      webhookKeyBase64: WEBHOOK_KEY,
      onOrder: (event) => {
        db.orderEvents.push(event);
        if (event.type === 'order.paid') db.paid ??= event.chargeId;
      },
    });
  }

  async pay(paymentMethod: unknown, key: string) {
    const response = await this.handler(
      new Request(`${BASE}/charges`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key, 'x-satang-order-token': await this.handler.orderToken('cart-1') },
        body: JSON.stringify({ orderReference: 'cart-1', amount: this.db.price, currency: 'THB', paymentMethod }),
      }),
      { clientAddress: SHOPPER_ADDRESS },
    );
    expect(response.status).toBe(201);
    return (await response.json()) as { chargeId: string; statusToken: string; encodedImage?: { rawData: string } };
  }

  async status(chargeId: string, statusToken: string) {
    const response = await this.handler(new Request(`${BASE}/charges/${chargeId}/status`, { headers: { 'x-satang-status-token': statusToken } }), { clientAddress: SHOPPER_ADDRESS });
    expect(response.status).toBe(200);
    return (await response.json()) as { status: string; outcome?: string };
  }

  async card() {
    return { type: 'CARD_TOKEN', cardTokenId: await this.service.tokenize('4111111111111111'), securityCode: '123' };
  }

  /** The payer scans the QR (from the page, or a saved picture of it) and pays it on the sandbox's PromptPay page. */
  async scanAndPay(rawData: string): Promise<void> {
    const page = await this.service.submitPage(`${ORIGIN}/sandbox/pages/promptpay`, { rawData, outcome: 'succeed' });
    expect(page.status).toBeLessThan(400);
    await this.sandbox.webhooks.idle();
  }

  /** What the service holds for the order: what its successful charges took, less what was refunded of them. */
  netOfOrder(): number {
    const charges = [...this.sandbox.store.charges.values()].map((r) => r.charge).filter((c) => c.referenceId === 'order-1' && c.status === 'SUCCEEDED');
    const refunds = [...this.sandbox.store.refunds.values()].map((r) => r.refund).filter((r) => r.status === 'SUCCEEDED' && charges.some((c) => c.chargeId === r.chargeId));
    return charges.reduce((sum, c) => sum + c.amount, 0) - refunds.reduce((sum, r) => sum + r.amount, 0);
  }
}

let shop: RestartingShop | undefined;
let harness: CheckoutHarness | undefined;
afterEach(() => {
  shop?.sandbox.close();
  harness?.sandbox.close();
  shop = harness = undefined;
});

describe('a shop restarted with its in-memory store while a QR code of an order is open', () => {
  it('refunds the old QR paid after the order was paid by card, and tells its page the order is paid by the other payment', async () => {
    shop = new RestartingShop();
    const qr = await shop.pay({ type: 'QR_PROMPT_PAY' }, 'tab-qr');
    shop.start();
    const card = await shop.pay(await shop.card(), 'tab-card');
    await vi.waitFor(() => expect(shop!.db.paid).toBe(card.chargeId));

    await shop.scanAndPay(qr.encodedImage!.rawData);
    // The page of the QR still follows it, with the token the shop signed before its restart.
    const read = await shop.status(qr.chargeId, qr.statusToken);
    expect(read).toMatchObject({ status: 'SUCCEEDED', outcome: 'duplicate_refunded' });
    // The refund settles at the service after it was accepted.
    await vi.waitFor(() => expect(shop!.netOfOrder()).toBe(PRICE));
    expect(shop.db.orderEvents.map((e) => [e.type, e.chargeId])).toEqual([
      ['order.paid', card.chargeId],
      ['order.duplicate_refunded', qr.chargeId],
    ]);
  });

  it('takes the old QR for the order\u2019s payment when nothing else paid it, at the price the order still has', async () => {
    shop = new RestartingShop();
    const qr = await shop.pay({ type: 'QR_PROMPT_PAY' }, 'tab-qr');
    shop.start();
    await shop.scanAndPay(qr.encodedImage!.rawData);
    expect(await shop.status(qr.chargeId, qr.statusToken)).toMatchObject({ status: 'SUCCEEDED', outcome: 'paid' });
    expect(shop.db.paid).toBe(qr.chargeId);
    expect(shop.netOfOrder()).toBe(PRICE);
    // Read again, it is the same: decided once.
    expect(await shop.status(qr.chargeId, qr.statusToken)).toMatchObject({ outcome: 'paid' });
    expect(shop.db.orderEvents).toHaveLength(1);
  });

  it('refunds the old QR when the order\u2019s price changed meanwhile, and says so to its page', async () => {
    shop = new RestartingShop();
    const qr = await shop.pay({ type: 'QR_PROMPT_PAY' }, 'tab-qr');
    shop.start();
    shop.db.price = 30_000;
    await shop.scanAndPay(qr.encodedImage!.rawData);
    expect(await shop.status(qr.chargeId, qr.statusToken)).toMatchObject({ status: 'SUCCEEDED', outcome: 'repriced_refunded' });
    await vi.waitFor(() => expect(shop!.netOfOrder()).toBe(0));
    expect(shop.db.paid).toBeUndefined();
  });
});

describe('a refund heard before its charge', () => {
  it('reads the order refunded, not paid, once the late charge.succeeded comes', async () => {
    harness = createCheckoutHarness({ 'cart-1': { amount: PRICE, currency: 'THB', referenceId: 'order-1' } });
    // charge.succeeded deliveries are held back until the test lets them go; the others pass.
    const held = harness.holdWebhooks('charge.succeeded');
    // The charge is made, but its answer is lost on the way back to the shop.
    const lost = harness.sandbox.faults.add({ method: 'POST', path: '/api/v1/charges', kind: 'reset', when: 'after', times: 100 });
    const card = { type: 'CARD_TOKEN', cardTokenId: await harness.service.tokenize('4111111111111111'), securityCode: '123' };
    const answer = await harness.call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: card }, headers: { 'Idempotency-Key': 'lost-1' } });
    expect(answer.status).toBe(503);
    harness.sandbox.faults.remove(lost.faultId);
    const [charge] = [...harness.sandbox.store.charges.values()].map((r) => r.charge).filter((c) => c.referenceId === 'order-1');
    expect(charge?.status).toBe('SUCCEEDED');

    // The shop refunds it from its dashboard; that refund's webhook comes first.
    const client = new ServiceClient({ ...SERVICE, fetch: harness.sandbox.fetch });
    await client.refunds.create({ chargeId: charge!.chargeId, reason: 'customer asked' }, { idempotencyKey: 'dashboard-refund-1' });
    await vi.waitFor(() => expect(harness!.events.map((e) => e.name)).toContain('refund.succeeded'));

    for (const request of held.splice(0)) expect((await harness.handler(request)).status).toBe(200);
    const state = await harness.call('GET', '/orders/cart-1/state', { headers: { 'X-Satang-Order-Token': await harness.handler.orderToken('cart-1') } });
    expect(state.body).toMatchObject({ state: 'refunded', paidBy: charge!.chargeId });
  });
});
