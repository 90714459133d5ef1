import fc from 'fast-check';
import { afterAll, describe } from 'vitest';
import { modelParameters, printModelTally, runScenario, scenarios, type ModelBackend } from '../../support/order-model.js';
import { redisTest } from '../../support/redis-fixture.js';

/**
 * The order model of test/support/order-model.ts with its store on a real Redis: one or two
 * handler instances, each with its own `RedisCheckoutStore` on one key prefix (a fresh prefix per
 * run), and a restart of an instance is a new handler, with a new store object, on the same Redis,
 * which keeps every record.
 */

afterAll(() => printModelTally('order model, Redis store'));

describe('one order under generated events, on Redis', () => {
  redisTest('keeps the money, the ledger, the shown state and onOrder in agreement with the service', { timeout: 90_000 }, async ({ redisClient, redisStore }) => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(scenarios(), async (scenario) => {
        run += 1;
        const keyPrefix = `order-model-${process.pid}-${run}:`;
        const redis: ModelBackend = { name: 'redis', openStore: () => redisStore({ client: redisClient, keyPrefix, onError: () => undefined }), restartLosesStore: false };
        await runScenario(scenario, redis);
      }),
      modelParameters(100, 60_000),
    );
  });
});
