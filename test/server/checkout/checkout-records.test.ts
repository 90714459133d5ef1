import { afterEach, describe, expect, it } from 'vitest';
import { CHECKOUT_ORDER_TOKEN_HEADER } from '../../../src/core/constants.js';
import { CheckoutRecordError, CheckoutRecords, WebhookRecords } from '../../../src/server/checkout/checkout-records.js';
import { MemoryCheckoutStore, type ResolvedOrder } from '../../../src/server/index.js';
import { createCheckoutHarness, type CheckoutHarness } from '../../support/checkout-harness.js';

/**
 * Records as the handler has always written them, byte for byte: a store filled before an upgrade
 * must be read as it is, and a record that does not fit is refused by its key, never misread.
 */
const ATTEMPT_JSON =
  '{"referenceId":"order-1001","orderReference":"cart-1","amount":12345,"currency":"THB","kind":"charge","paymentMethodType":"QR_PROMPT_PAY","createdAtMs":1700000000000,"attempt":"checkout-key-1"}';
const OUTCOME_JSON = '{"amount":12345,"currency":"THB","told":false,"outcome":"duplicate_refunded","refundReason":"duplicate_refunded","paidBy":"ch_first","refundId":"rf_1"}';
const LOCK_JSON =
  '{"generation":2,"state":"open","attempt":"checkout-key-1","paymentMethodType":"QR_PROMPT_PAY","amount":12345,"currency":"THB","chargeId":"ch_qr","kind":"charge","answer":{"chargeId":"ch_qr","actionRequired":"ENCODED_IMAGE","encodedImage":{"expiry":"2026-01-01T00:00:00Z","imageBase64Encoded":"iVBOR","rawData":"000201"}}}';
const REPLAY_JSON = '{"answer":{"chargeId":"ch_card","intent":"authorize","actionRequired":"REDIRECT","redirect":{"redirectUrl":"https://service.example/otp"}},"referenceId":"order-1001","kind":"authorization"}';
const STATUS_JSON = '{"chargeId":"ch_card","status":"FAILED","failureCode":"CANCELED","authorizationStatus":"CANCELED"}';

describe('CheckoutRecords', () => {
  describe('when the store holds records in the format written so far', () => {
    it('reads each one back as it was written', async () => {
      const store = new MemoryCheckoutStore();
      const records = new CheckoutRecords(store);
      await store.set('attempt:ch_qr', ATTEMPT_JSON, 60_000);
      await store.set('pending:order-1001', `[${ATTEMPT_JSON}]`, 60_000);
      await store.set('outcome:ch_qr', OUTCOME_JSON, 60_000);
      await store.setIfNewer('order-lock:order-1001', 5, LOCK_JSON, 60_000);
      await store.set('charge:checkout-key-1:abc', REPLAY_JSON, 60_000);
      await store.set('sent:checkout-key-1:abc', '{"amount":12345,"currency":"THB","referenceId":"order-1001"}', 60_000);
      await store.set('answered:order-1001', 'checkout-key-1', 60_000);
      await store.setIfNewer('refunds:ch_qr', 2, '{"refunds":{"rf_1":{"amount":12000,"currency":"THB"},"rf_2":{"amount":345,"currency":"THB"}}}', 60_000);
      await store.setIfNewer('status:ch_card', 11, STATUS_JSON, 60_000);
      await store.set('status:read:ch_qr', '{"chargeId":"ch_qr","status":"PENDING","failureCode":null}', 60_000);
      await store.set('paid:order-1001', 'ch_first', 60_000);
      await store.set('order-reference:cart-1', 'order-1001', 60_000);
      await store.set('auto-refund:rf_1', 'ch_qr', 60_000);
      await store.setIfAbsent('told:ch_qr:duplicate_refunded', 'telling', 60_000);

      expect(await records.attempt.get('ch_qr')).toEqual(JSON.parse(ATTEMPT_JSON));
      expect(await records.pendingAttempts.get('order-1001')).toEqual([JSON.parse(ATTEMPT_JSON)]);
      expect(await records.outcome.get('ch_qr')).toEqual(JSON.parse(OUTCOME_JSON));
      expect(await records.orderLock.get('order-1001')).toEqual(JSON.parse(LOCK_JSON));
      expect(await records.chargeReplay.get('checkout-key-1:abc')).toEqual(JSON.parse(REPLAY_JSON));
      expect(await records.sentOrder.get('checkout-key-1:abc')).toEqual({ amount: 12_345, currency: 'THB', referenceId: 'order-1001' });
      expect(await records.answeredAttempt.get('order-1001')).toBe('checkout-key-1');
      expect(await records.refunds.get('ch_qr')).toEqual({ refunds: { rf_1: { amount: 12_000, currency: 'THB' }, rf_2: { amount: 345, currency: 'THB' } } });
      expect(await records.finalStatus.get('ch_card')).toEqual(JSON.parse(STATUS_JSON));
      expect(await records.recentStatus.get('ch_qr')).toEqual({ chargeId: 'ch_qr', status: 'PENDING', failureCode: null });
      expect(await records.paidBy.get('order-1001')).toBe('ch_first');
      expect(await records.orderReference.get('cart-1')).toBe('order-1001');
      expect(await records.autoRefund.get('rf_1')).toBe('ch_qr');
      expect(await records.told.get({ chargeId: 'ch_qr', outcome: 'duplicate_refunded' })).toBe('telling');
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

    it('writes the same keys and text it reads', async () => {
      const store = new MemoryCheckoutStore();
      const records = new CheckoutRecords(store);
      await records.attempt.set('ch_qr', JSON.parse(ATTEMPT_JSON));
      await records.paidBy.setIfAbsent('order-1001', 'ch_qr');
      await records.told.set({ chargeId: 'ch_qr', outcome: 'paid' }, 'told');
      expect(await store.get('attempt:ch_qr')).toBe(ATTEMPT_JSON);
      expect(await store.get('paid:order-1001')).toBe('ch_qr');
      expect(await store.get('told:ch_qr:paid')).toBe('told');
    });
  });

  describe('when a record does not fit its schema', () => {
    it.each([
      ['attempt:ch_qr', 'not JSON at all', (r: CheckoutRecords) => r.attempt.get('ch_qr')],
      ['attempt:ch_qr', '{"referenceId":"order-1001","amount":"12345"}', (r: CheckoutRecords) => r.attempt.get('ch_qr')],
      ['outcome:ch_qr', '{"outcome":"paid_twice","amount":12345,"currency":"THB","told":true}', (r: CheckoutRecords) => r.outcome.get('ch_qr')],
      ['pending:order-1001', ATTEMPT_JSON, (r: CheckoutRecords) => r.pendingAttempts.get('order-1001')],
      ['status:ch_card', '{"chargeId":"ch_card","status":"DONE","failureCode":null}', (r: CheckoutRecords) => r.finalStatus.get('ch_card')],
      ['paid:order-1001', '', (r: CheckoutRecords) => r.paidBy.get('order-1001')],
      ['told:ch_qr:paid', 'maybe', (r: CheckoutRecords) => r.told.get({ chargeId: 'ch_qr', outcome: 'paid' })],
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
