/**
 * `satang/server/redis`: the checkout handler's store on Redis, for more than one server behind a
 * load balancer. Needs `redis` (node-redis, v5 or v6) installed beside `satang`; `satang/server`
 * itself never loads it.
 */
export { RedisCheckoutStore, REDIS_COMMAND_TIMEOUT_MS, REDIS_KEY_PREFIX, type RedisCheckoutStoreOptions } from './redis-checkout-store.js';
export type { RedisCommandClient, RedisMessageListener, RedisScriptOptions, RedisSetOptions, RedisSubscriber } from './redis-client.js';
export { CheckoutStoreError, type CheckoutStore } from '../checkout/checkout-store.js';
