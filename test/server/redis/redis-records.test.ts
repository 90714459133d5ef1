import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckoutRecordError, CheckoutRecords, WebhookRecords } from '../../../src/server/checkout/checkout-records.js';
import { RedisCheckoutStore } from '../../../src/server/redis/index.js';
import { startRedisServer, stopRedisServer, type RedisServer } from '../../support/redis-server.js';

/**
 * Records in Redis exactly as the store has always written them (`|<value>` for a plain write,
 * `<version>|<value>` for `setIfNewer`, a bare number for a counter): a Redis filled before an
 * upgrade is read as it is, and a value that does not fit is refused by its key.
 */

let server: RedisServer | undefined;
let client: ReturnType<typeof createClient> | undefined;
const PREFIX = `records-${process.pid}:`;

beforeAll(async () => {
  server = await startRedisServer();
  client = createClient({ url: server.url });
  client.on('error', () => undefined);
  await client.connect();
}, 30_000);

afterAll(async () => {
  await client?.close();
  await stopRedisServer(server);
});

const raw = (key: string, text: string) => client!.set(PREFIX + key, text, { expiration: { type: 'PX', value: 60_000 } });

describe('CheckoutRecords on Redis', () => {
  describe('when Redis holds records written so far', () => {
    it('reads plain, claimed and versioned records as they were written', async () => {
      const store = new RedisCheckoutStore({ client: client!, keyPrefix: PREFIX });
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
      await store.close();
    });
  });

  describe('when a record does not fit its schema', () => {
    it('refuses it with an error naming the key, without the store’s prefix', async () => {
      const store = new RedisCheckoutStore({ client: client!, keyPrefix: PREFIX });
      await raw('attempt:ch_bad', '|{"referenceId":"order-9","amount":500}');
      const error = await new CheckoutRecords(store).attempt.get('ch_bad').catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(CheckoutRecordError);
      expect(error).toMatchObject({ key: 'attempt:ch_bad' });
      await store.close();
    });
  });
});
