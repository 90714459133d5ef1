import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHECKOUT_ORDER_TOKEN_HEADER } from '../../../src/core/constants.js';
import { CheckoutRecordError, CheckoutRecords, WebhookRecords } from '../../../src/server/checkout/checkout-records.js';
import type { OrderRecord } from '../../../src/server/checkout/order-record.js';
import { MemoryCheckoutStore, type ResolvedOrder } from '../../../src/server/index.js';
import { createCheckoutHarness, type CheckoutHarness } from '../../support/checkout-harness.js';

/**
 * Records as the handler has always written them, byte for byte: a store filled before an upgrade
 * must be read as it is, and a record that does not fit is refused by its key, never misread.
 */
const ATTEMPT_JSON =
  '{"referenceId":"order-1001","orderReference":"cart-1","amount":12345,"currency":"THB","kind":"charge","paymentMethodType":"QR_PROMPT_PAY","createdAtMs":1700000000000,"attempt":"checkout-key-1"}';
const OUTCOME_JSON = '{"amount":12345,"currency":"THB","told":false,"outcome":"duplicate_refunded","refundReason":"duplicate_refunded","paidBy":"ch_first","refundId":"rf_1"}';
const STATUS_JSON = '{"chargeId":"ch_card","status":"FAILED","failureCode":"CANCELED","authorizationStatus":"CANCELED"}';

/** An order's one record, as this version writes it. */
const ORDER: OrderRecord = {
  v: 3,
  referenceId: 'order-1001',
  orderReferences: ['cart-1'],
  lock: { generation: 1, state: 'open', attempt: 'checkout-key-1', paymentMethodType: 'QR_PROMPT_PAY', amount: 12_345, currency: 'THB', untilMs: 1_700_086_400_000, chargeId: 'ch_qr', kind: 'charge' },
  payments: {
    ch_qr: {
      kind: 'charge',
      amount: 12_345,
      currency: 'THB',
      paymentMethodType: 'QR_PROMPT_PAY',
      orderReference: 'cart-1',
      attempt: 'checkout-key-1',
      createdAtMs: 1_700_000_000_000,
      answer: { chargeId: 'ch_qr', actionRequired: 'ENCODED_IMAGE', encodedImage: { expiry: '2026-01-01T00:00:00Z', imageBase64Encoded: 'iVBOR', rawData: '000201' } },
    },
  },
  refunds: { ch_qr: { rf_1: { amount: 345, currency: 'THB' } } },
  pending: [],
  attempts: { 'checkout-key-1:abc': { key: 'checkout-key-1', amount: 12_345, currency: 'THB', chargeId: 'ch_qr' } },
  answered: 'checkout-key-1',
};

describe('CheckoutRecords', () => {
  describe('when the store holds records in the format written so far', () => {
    it('reads each one back as it was written, those of the version before the one order record included', async () => {
      const store = new MemoryCheckoutStore();
      const records = new CheckoutRecords(store);
      await store.setIfNewer('order:order-1001', 3, JSON.stringify(ORDER), 60_000);
      await store.set('attempt:ch_qr', ATTEMPT_JSON, 60_000);
      await store.set('outcome:ch_qr', OUTCOME_JSON, 60_000);
      await store.setIfNewer('refunds:ch_qr', 2, '{"refunds":{"rf_1":{"amount":12000,"currency":"THB"},"rf_2":{"amount":345,"currency":"THB"}}}', 60_000);
      await store.setIfNewer('status:ch_card', 11, STATUS_JSON, 60_000);
      await store.set('status:read:ch_qr', '{"chargeId":"ch_qr","status":"PENDING","failureCode":null}', 60_000);
      await store.set('paid:order-1001', 'ch_first', 60_000);
      await store.set('order-reference:cart-1', 'order-1001', 60_000);

      expect(await records.order.get('order-1001')).toEqual(ORDER);
      expect(await records.legacy.attempt.get('ch_qr')).toEqual(JSON.parse(ATTEMPT_JSON));
      expect(await records.legacy.outcome.get('ch_qr')).toEqual(JSON.parse(OUTCOME_JSON));
      expect(await records.legacy.refunds.get('ch_qr')).toEqual({ refunds: { rf_1: { amount: 12_000, currency: 'THB' }, rf_2: { amount: 345, currency: 'THB' } } });
      expect(await records.finalStatus.get('ch_card')).toEqual(JSON.parse(STATUS_JSON));
      expect(await records.recentStatus.get('ch_qr')).toEqual({ chargeId: 'ch_qr', status: 'PENDING', failureCode: null });
      expect(await records.legacy.paidBy.get('order-1001')).toBe('ch_first');
      expect(await records.orderReference.get('cart-1')).toBe('order-1001');
    });

    it('reads the webhook ledger’s marks and versions', async () => {
      const store = new MemoryCheckoutStore();
      const webhooks = new WebhookRecords(store);
      const state = { resource: 'charge:ch_1', status: 'SUCCEEDED', at: '2026-01-01T00:00:00Z' };
      await store.set('webhook:charge:ch_1:SUCCEEDED:2026-01-01T00:00:00Z', '1', 60_000);
      await store.setIfNewer('webhook-newest:charge:ch_1', 14_054_112_000_002, '14054112000002', 60_000);
      expect(await webhooks.handled.get(state)).toBe('1');
      expect(await webhooks.newest.get('charge:ch_1')).toBe(14_054_112_000_002);
    });

    it('writes the same keys and text it reads, and an order’s record only over the version before', async () => {
      const store = new MemoryCheckoutStore();
      const records = new CheckoutRecords(store);
      expect(await records.order.setIfNewer('order-1001', 3, ORDER)).toBe(true);
      await records.orderReference.set('cart-1', 'order-1001');
      expect(await store.get('order:order-1001')).toBe(JSON.stringify(ORDER));
      expect(await store.get('order-reference:cart-1')).toBe('order-1001');
      // Two steps decided on version 3: the first written wins, the other decides again.
      expect(await records.order.setIfNewer('order-1001', 4, { ...ORDER, v: 4, paidBy: 'ch_qr' })).toBe(true);
      expect(await records.order.setIfNewer('order-1001', 4, { ...ORDER, v: 4, paidBy: 'ch_other' })).toBe(false);
      expect((await records.order.get('order-1001'))?.paidBy).toBe('ch_qr');
    });
  });

  describe('when a record does not fit its schema', () => {
    it.each([
      ['order:order-1001', 'not JSON at all', (r: CheckoutRecords) => r.order.get('order-1001')],
      ['order:order-1001', JSON.stringify({ ...ORDER, paidBy: 7 }), (r: CheckoutRecords) => r.order.get('order-1001')],
      ['order:order-1001', JSON.stringify({ ...ORDER, lock: { ...ORDER.lock, state: 'maybe' } }), (r: CheckoutRecords) => r.order.get('order-1001')],
      ['attempt:ch_qr', '{"referenceId":"order-1001","amount":"12345"}', (r: CheckoutRecords) => r.legacy.attempt.get('ch_qr')],
      ['outcome:ch_qr', '{"outcome":"paid_twice","amount":12345,"currency":"THB","told":true}', (r: CheckoutRecords) => r.legacy.outcome.get('ch_qr')],
      ['status:ch_card', '{"chargeId":"ch_card","status":"DONE","failureCode":null}', (r: CheckoutRecords) => r.finalStatus.get('ch_card')],
      ['paid:order-1001', '', (r: CheckoutRecords) => r.legacy.paidBy.get('order-1001')],
    ])('refuses %s holding %j with an error that names the key', async (key, text, read) => {
      const store = new MemoryCheckoutStore();
      await store.set(key, text, 60_000);
      const error = await read(new CheckoutRecords(store)).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(CheckoutRecordError);
      expect(error).toMatchObject({ name: 'CheckoutRecordError', key });
      expect((error as Error).message).toContain(`"${key}"`);
    });

    it('refuses a version that is not a number in the webhook ledger', async () => {
      const store = new MemoryCheckoutStore();
      await store.setIfNewer('webhook-newest:charge:ch_1', 1, 'soon', 60_000);
      await expect(new WebhookRecords(store).newest.get('charge:ch_1')).rejects.toMatchObject({ name: 'CheckoutRecordError', key: 'webhook-newest:charge:ch_1' });
    });
  });
});

describe('the checkout handler on records written before an upgrade', () => {
  const ORDERS: Record<string, ResolvedOrder> = { 'cart-1': { amount: 12_345, currency: 'THB', referenceId: 'order-1001' } };
  let harness: CheckoutHarness | undefined;
  afterEach(() => harness?.sandbox.close());

  async function orderState(store: MemoryCheckoutStore) {
    harness = createCheckoutHarness(ORDERS, { store });
    const token = await (harness.handler).orderToken('cart-1');
    return harness.call('GET', '/orders/cart-1/state', { headers: { [CHECKOUT_ORDER_TOKEN_HEADER]: token } });
  }

  it('tells an order paid from the records as they were written', async () => {
    const store = new MemoryCheckoutStore();
    await store.set('order-reference:cart-1', 'order-1001', 60_000);
    await store.setIfAbsent('paid:order-1001', 'ch_first', 60_000);
    await store.set('attempt:ch_first', ATTEMPT_JSON, 60_000);
    const answer = await orderState(store);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ orderReference: 'cart-1', state: 'paid', paidBy: 'ch_first', outcome: 'paid' });
  });

  it('refunds a payment made after the upgrade of an order paid before it, and keeps the order paid by its payer', async () => {
    const store = new MemoryCheckoutStore();
    await store.set('order-reference:cart-1', 'order-1001', 60_000);
    await store.setIfAbsent('paid:order-1001', 'ch_first', 60_000);
    await store.set('attempt:ch_first', ATTEMPT_JSON, 60_000);
    const told: string[] = [];
    harness = createCheckoutHarness(ORDERS, { store, onOrder: (event) => void told.push(event.type) });
    const cardTokenId = await harness.service.tokenize('4111111111111111');
    const answer = await harness.call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '123' } } });
    expect(answer.status).toBe(201);
    const chargeId = answer.body.chargeId as string;
    await vi.waitFor(() => expect([...harness!.sandbox.store.refunds.values()].map((r) => r.refund).filter((r) => r.chargeId === chargeId && r.status === 'SUCCEEDED')).toHaveLength(1));
    expect(told).toEqual(['order.duplicate_refunded']);
    const token = await harness.handler.orderToken('cart-1');
    const state = await harness.call('GET', '/orders/cart-1/state', { headers: { [CHECKOUT_ORDER_TOKEN_HEADER]: token } });
    expect(state.body).toMatchObject({ state: 'paid', paidBy: 'ch_first' });
  });

  it('answers 500 and logs the record’s key when the payer’s record does not fit, rather than guess the order’s state', async () => {
    const store = new MemoryCheckoutStore();
    await store.set('order-reference:cart-1', 'order-1001', 60_000);
    await store.setIfAbsent('paid:order-1001', 'ch_first', 60_000);
    await store.set('attempt:ch_first', '{"kind":"authorization"}', 60_000);
    const answer = await orderState(store);
    expect(answer.status).toBe(500);
    expect(answer.body.error.errorCode).toBe('INTERNAL_ERROR');
    expect(answer.text).not.toContain('attempt:ch_first');
    const logged = harness!.logs.at(-1)?.error;
    expect(logged).toBeInstanceOf(CheckoutRecordError);
    expect(logged).toMatchObject({ key: 'attempt:ch_first' });
  });
});
