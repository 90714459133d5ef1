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
      await raw('order-lock:order-9', '3|{"generation":2,"state":"released","attempt":"checkout-k","paymentMethodType":"CARD_TOKEN","amount":500,"currency":"THB"}');
      await raw('refunds:ch_9', '1|{"refunds":{"rf_9":{"amount":500,"currency":"THB"}}}');
      await raw('webhook-newest:charge:ch_9', '14054112000002|14054112000002');
      expect(await records.paidBy.get('order-9')).toBe('ch_9');
      expect(await records.outcome.get('ch_9')).toEqual({ amount: 500, currency: 'THB', told: true, outcome: 'paid' });
      expect(await records.orderLock.get('order-9')).toMatchObject({ generation: 2, state: 'released', attempt: 'checkout-k' });
      expect(await records.refunds.get('ch_9')).toEqual({ refunds: { rf_9: { amount: 500, currency: 'THB' } } });
      expect(await new WebhookRecords(store).newest.get('charge:ch_9')).toBe(14_054_112_000_002);
      // The lock's version is still the one it was written with: an older write does not replace it.
      expect(await records.orderLock.setIfNewer('order-9', 2, { generation: 1, state: 'open', attempt: 'x', paymentMethodType: 'CARD_TOKEN', amount: 1, currency: 'THB' })).toBe(false);
    });
  });

  describe('when a record does not fit its schema', () => {
    recordsTest('refuses it with an error naming the key, without the store’s prefix', async ({ raw, redisClient, redisStore }) => {
      const store = redisStore({ client: redisClient, keyPrefix: PREFIX });
      await raw('attempt:ch_bad', '|{"referenceId":"order-9","amount":500}');
      const error = await new CheckoutRecords(store).attempt.get('ch_bad').catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(CheckoutRecordError);
      expect(error).toMatchObject({ key: 'attempt:ch_bad' });
    });
  });
});
