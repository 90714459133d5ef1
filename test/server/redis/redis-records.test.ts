import { describe, expect } from 'vitest';
import { CheckoutRecordError, CheckoutRecords, WebhookRecords } from '../../../src/server/checkout/checkout-records.js';
import { redisTest } from '../../support/redis-fixture.js';

/**
 * Records in Redis exactly as the store has always written them (`|<value>` for a plain write,
 * `<version>|<value>` for `setIfNewer`, a bare number for a counter): a Redis filled before an
 * upgrade is read as it is, and a value that does not fit is refused by its key.
 */

const PREFIX = `records-${process.pid}:`;

/** `redisTest` with `raw(key, text)`: a record written to Redis as it stands, under the stores' prefix. */
const recordsTest = redisTest.extend('raw', ({ redisClient }) => (key: string, text: string) => redisClient.set(PREFIX + key, text, { expiration: { type: 'PX', value: 60_000 } }));

describe('CheckoutRecords on Redis', () => {
  describe('when Redis holds records written so far', () => {
    recordsTest('reads plain, claimed and versioned records as they were written', async ({ raw, redisClient, redisStore }) => {
      const store = redisStore({ client: redisClient, keyPrefix: PREFIX });
      const records = new CheckoutRecords(store);
      await raw('paid:order-9', '|ch_9');
      await raw('outcome:ch_9', '|{"amount":500,"currency":"THB","told":true,"outcome":"paid"}');
      await raw('order:order-9', '3|{"v":3,"referenceId":"order-9","orderReferences":["cart-9"],"paidBy":"ch_9","payments":{},"refunds":{},"pending":[],"attempts":{}}');
      await raw('refunds:ch_9', '1|{"refunds":{"rf_9":{"amount":500,"currency":"THB"}}}');
      await raw('webhook-newest:charge:ch_9', '14054112000002|14054112000002');
      expect(await records.legacy.paidBy.get('order-9')).toBe('ch_9');
      expect(await records.legacy.outcome.get('ch_9')).toEqual({ amount: 500, currency: 'THB', told: true, outcome: 'paid' });
      expect(await records.order.get('order-9')).toMatchObject({ v: 3, paidBy: 'ch_9' });
      expect(await records.legacy.refunds.get('ch_9')).toEqual({ refunds: { rf_9: { amount: 500, currency: 'THB' } } });
      expect(await new WebhookRecords(store).newest.get('charge:ch_9')).toBe(14_054_112_000_002);
      // The record's version is the one it was written with: a step decided on an older one is not written.
      const stale = { v: 3, referenceId: 'order-9', orderReferences: [], payments: {}, refunds: {}, pending: [], attempts: {} };
      expect(await records.order.setIfNewer('order-9', 3, stale)).toBe(false);
      expect(await records.order.setIfNewer('order-9', 4, { ...stale, v: 4 })).toBe(true);
    });
  });

  describe('when a record does not fit its schema', () => {
    recordsTest('refuses it with an error naming the key, without the store’s prefix', async ({ raw, redisClient, redisStore }) => {
      const store = redisStore({ client: redisClient, keyPrefix: PREFIX });
      await raw('attempt:ch_bad', '|{"referenceId":"order-9","amount":500}');
      const error = await new CheckoutRecords(store).legacy.attempt.get('ch_bad').catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(CheckoutRecordError);
      expect(error).toMatchObject({ key: 'attempt:ch_bad' });
    });
  });
});
