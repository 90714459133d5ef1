import { createClient } from 'redis';
import { expect } from 'vitest';
import type { WebhookEvent } from '../../src/core/schemas/webhook-events.js';
import { Sandbox } from '../../src/sandbox/index.js';
import { createCheckoutHandler, type CheckoutHandlerOptions, type CheckoutLogEntry, type OrderEvent, type ResolvedOrder } from '../../src/server/index.js';
import { RedisCheckoutStore, type RedisCheckoutStoreOptions } from '../../src/server/redis/index.js';
import { BASE, SERVICE, SHOP, SHOPPER_ADDRESS, WEBHOOK_KEY, withOrderToken } from './checkout-harness.js';
import { ORIGIN, SandboxClient } from './sandbox-client.js';

/** What the fleet's handlers answer, as the harness's `call` does. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
  /** How long the handler took, in ms. */
  ms: number;
}

/** One checkout handler instance of the fleet, with its own Redis connections. */
export interface Instance {
  name: string;
  handler: (request: Request) => Promise<Response>;
  store: RedisCheckoutStore;
  call(method: string, path: string, init?: { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal }): Promise<Answer>;
}

/**
 * Shops behind a load balancer: `count` checkout handler instances, each with its own node-redis
 * client and `RedisCheckoutStore` on the same Redis and prefix, and the same `statusTokenSecret`,
 * in front of one sandbox. The sandbox's webhooks go where `deliverWebhook` sends them (the
 * first instance by default), signed and delivered as over a socket.
 */
export interface CheckoutFleet {
  sandbox: Sandbox;
  service: SandboxClient;
  instances: Instance[];
  /** Every `onEvent` call of every instance, with the instance that made it. */
  events: { instance: string; event: WebhookEvent }[];
  /** Every `onOrder` call of every instance. */
  orderEvents: (OrderEvent & { instance: string })[];
  logs: (CheckoutLogEntry & { instance: string })[];
  /** Where the sandbox's next webhooks go: replace it to route them. */
  deliverWebhook: (request: Request) => Promise<Response>;
  /** The orders the shop sells (the same for every instance), by the page's reference. */
  orders: Map<string, ResolvedOrder>;
  close(): Promise<void>;
}

export const STATUS_TOKEN_SECRET = 'one-secret-for-every-instance-0001';

export async function createCheckoutFleet(options: {
  redisUrl: string;
  keyPrefix: string;
  count?: number;
  handler?: Partial<CheckoutHandlerOptions>;
  store?: Partial<RedisCheckoutStoreOptions>;
  /** Between the handlers and the sandbox's API, e.g. to slow charge creation down. */
  serviceFetch?: (request: Request, sandboxFetch: (request: Request) => Promise<Response>) => Promise<Response>;
  webhookRetryBaseDelayMs?: number;
}): Promise<CheckoutFleet> {
  const fleet: Partial<CheckoutFleet> & Pick<CheckoutFleet, 'instances' | 'events' | 'orderEvents' | 'logs' | 'orders'> = {
    instances: [],
    events: [],
    orderEvents: [],
    logs: [],
    orders: new Map(),
  };
  const closers: (() => Promise<unknown>)[] = [];
  const sandbox = new Sandbox({
    refundSettleDelayMs: 0,
    webhook: {
      url: `${BASE}/webhooks`,
      webhookKeyBase64: WEBHOOK_KEY,
      retryBaseDelayMs: options.webhookRetryBaseDelayMs ?? 5,
      fetch: (input, init) => fleet.deliverWebhook!(new Request(input, init)),
    },
  });
  const serviceFetch = (request: Request) => (options.serviceFetch ? options.serviceFetch(request, sandbox.fetch) : sandbox.fetch(request));
  for (let i = 0; i < (options.count ?? 2); i += 1) {
    const name = String.fromCharCode(65 + i);
    const client = createClient({ url: options.redisUrl });
    client.on('error', () => undefined);
    await client.connect();
    const store = new RedisCheckoutStore({ client, keyPrefix: options.keyPrefix, onError: () => undefined, ...options.store });
    closers.push(() => store.close(), () => client.close());
    const handler = createCheckoutHandler({
      service: { ...SERVICE, fetch: serviceFetch, retryBaseDelayMs: 1 },
      resolveOrder: (reference) => fleet.orders.get(reference) ?? null,
      basePath: '/api/checkout',
      publicUrl: SHOP,
      webhookKeyBase64: WEBHOOK_KEY,
      statusTokenSecret: STATUS_TOKEN_SECRET,
      store,
      onEvent: (event) => {
        fleet.events.push({ instance: name, event });
      },
      onOrder: (event) => {
        fleet.orderEvents.push({ ...event, instance: name });
      },
      log: (entry) => fleet.logs.push({ ...entry, instance: name }),
      ...options.handler,
    });
    fleet.instances.push({
      name,
      handler,
      store,
      async call(method, path, init = {}) {
        const headers: Record<string, string> = { ...init.headers };
        if (init.body !== undefined) headers['content-type'] ??= 'application/json';
        await withOrderToken(handler, method, path, init.body, headers);
        const started = performance.now();
        const response = await handler(
          new Request(`${BASE}${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body), ...(init.signal ? { signal: init.signal } : {}) }),
          { clientAddress: SHOPPER_ADDRESS },
        );
        const text = await response.text();
        return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined, ms: performance.now() - started };
      },
    });
  }
  fleet.deliverWebhook = (request) => fleet.instances[0]!.handler(request);
  fleet.sandbox = sandbox;
  fleet.service = new SandboxClient(sandbox);
  fleet.close = async () => {
    sandbox.close();
    for (const close of closers) await close().catch(() => undefined);
  };
  return fleet as CheckoutFleet;
}

/** A card payment method as the widget sends it, with a fresh token. */
export async function cardOf(fleet: CheckoutFleet, pan = '4111111111111111') {
  return { type: 'CARD_TOKEN', cardTokenId: await fleet.service.tokenize(pan), securityCode: '123' };
}

export const QR = { type: 'QR_PROMPT_PAY' };

/** `POST /charges` for an order on one instance, with the total the shop asks. */
export function pay(fleet: CheckoutFleet, on: Instance, orderReference: string, paymentMethod: unknown, key: string, extra: Record<string, unknown> = {}) {
  const order = fleet.orders.get(orderReference);
  return on.call('POST', '/charges', { body: { orderReference, amount: order?.amount, currency: order?.currency, paymentMethod, ...extra }, headers: { 'Idempotency-Key': key } });
}

/** `GET /charges/{id}/status` on one instance. */
export function readStatus(on: Instance, chargeId: string, token: string, wait?: number, signal?: AbortSignal) {
  return on.call('GET', `/charges/${chargeId}/status${wait === undefined ? '' : `?wait=${wait}`}`, { headers: { 'X-Satang-Status-Token': token }, ...(signal ? { signal } : {}) });
}

/** The payer scans the QR and pays it on the sandbox's PromptPay page. */
export async function scanAndPay(fleet: CheckoutFleet, rawData: string): Promise<void> {
  const page = await fleet.service.submitPage(`${ORIGIN}/sandbox/pages/promptpay`, { rawData, outcome: 'succeed' });
  expect(page.status).toBeLessThan(400);
}

/** The sandbox's charges of an order (by its `referenceId`). */
export function chargesOf(fleet: CheckoutFleet, referenceId: string) {
  return [...fleet.sandbox.store.charges.values()].map((r) => r.charge).filter((c) => c.referenceId === referenceId);
}

/** The sandbox's refunds of a charge. */
export function refundsOf(fleet: CheckoutFleet, chargeId: string) {
  return [...fleet.sandbox.store.refunds.values()].map((r) => r.refund).filter((r) => r.chargeId === chargeId);
}
