/**
 * `POST {basePath}/webhooks` under hostile and unlucky delivery: duplicates, redeliveries, events
 * out of order, replays, tampered and oversized bodies. The webhooks are the sandbox's own,
 * captured from its dispatcher with their signature headers and sent to the handler in the order a
 * test needs; states the sandbox cannot reach in that order are signed with the real webhook key.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { SERVICE_HEADERS } from '../../../src/core/constants.js';
import type { WebhookEvent } from '../../../src/core/schemas/webhook-events.js';
import { signWebhookPayload } from '../../../src/core/webhook-signature.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { WEBHOOK_DEDUPE_TTL_MS, WEBHOOK_MAX_BODY_BYTES } from '../../../src/server/checkout/checkout-options.js';
import { MemoryCheckoutStore, toNodeListener, type CheckoutHandlerOptions, type ResolvedOrder } from '../../../src/server/index.js';
import { CheckoutRecords, WEBHOOK_MARKS, WebhookRecords } from '../../../src/server/checkout/checkout-records.js';
import { TELL_IN_HAND_MS } from '../../../src/server/checkout/settlement.js';
import { WEBHOOK_IN_HAND_MS } from '../../../src/server/webhooks/webhook-ledger.js';
import { webhookState } from '../../../src/server/webhooks/webhook-state.js';
import { BASE, createCheckoutHarness, WEBHOOK_KEY, type CheckoutHarness } from '../../support/checkout-harness.js';
import { ORIGIN, type SandboxClient } from '../../support/sandbox-client.js';

const ORDERS: Record<string, ResolvedOrder> = {
  'cart-1': { amount: 12_345, currency: 'THB', referenceId: 'order-2001' },
  'cart-2': { amount: 12_345, currency: 'THB', referenceId: 'order-2003' },
  'pre-order': { amount: 45_000, currency: 'THB', referenceId: 'order-2002', intent: 'authorize' },
};

/** The documented error shape of every refusal. */
const ErrorShape = z.object({
  code: z.number(),
  message: z.string(),
  error: z.object({ errorCode: z.string(), errorMessage: z.string(), retryable: z.boolean(), field: z.optional(z.string()) }),
});

/** One webhook as the sandbox's dispatcher sent it. */
interface Delivery {
  event: string;
  signature: string;
  body: string;
}

let harness: CheckoutHarness;
let sandbox: Sandbox;
let service: SandboxClient;
let events: WebhookEvent[];
let store: MemoryCheckoutStore;
/** Every delivery the sandbox made, in order. */
let sent: Delivery[];
/** The handler's answers to the deliveries it was passed. */
let answers: unknown[];
/** Whether the sandbox's deliveries reach the handler, or are only captured. */
let passThrough: boolean;
/** The handler's reads of the service, by path. */
let serviceReads: string[];

afterEach(() => {
  vi.useRealTimers();
  // Unset when a test failed before it started one.
  (sandbox as Sandbox | undefined)?.close();
});

/** The memory store answering each call a turn of the event loop later, as a networked store would. */
class RemoteStore extends MemoryCheckoutStore {
  override async increment(...args: Parameters<MemoryCheckoutStore['increment']>) {
    return later(() => super.increment(...args));
  }
  override async setIfAbsent(...args: Parameters<MemoryCheckoutStore['setIfAbsent']>) {
    return later(() => super.setIfAbsent(...args));
  }
  override async setIfNewer(...args: Parameters<MemoryCheckoutStore['setIfNewer']>) {
    return later(() => super.setIfNewer(...args));
  }
  override async get(...args: Parameters<MemoryCheckoutStore['get']>) {
    return later(() => super.get(...args));
  }
  override async set(...args: Parameters<MemoryCheckoutStore['set']>) {
    return later(() => super.set(...args));
  }
  override async delete(...args: Parameters<MemoryCheckoutStore['delete']>) {
    return later(() => super.delete(...args));
  }
}

async function later<T>(call: () => Promise<T>): Promise<T> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  const value = await call();
  await new Promise((resolve) => setTimeout(resolve, 0));
  return value;
}

function setUp(options: Partial<CheckoutHandlerOptions> = {}, { pass = false, remote = false } = {}) {
  sent = [];
  answers = [];
  serviceReads = [];
  passThrough = pass;
  // The clock is read at each call, so a test that moves Date moves the store too.
  store = remote ? new RemoteStore({ now: () => Date.now() }) : new MemoryCheckoutStore({ now: () => Date.now() });
  let deliverToHandler: (request: Request) => Promise<Response> = () => Promise.resolve(new Response(null, { status: 503 }));
  harness = createCheckoutHarness(
    ORDERS,
    { store, statusPollIntervalMs: 60_000, ...options },
    {
      refundSettleDelayMs: 0,
      webhook: {
        url: `${BASE}/webhooks`,
        webhookKeyBase64: WEBHOOK_KEY,
        retryBaseDelayMs: 5,
        fetch: async (input, init) => {
          const request = new Request(input, init);
          const headers = request.headers;
          sent.push({ event: headers.get(SERVICE_HEADERS.event)!, signature: headers.get(SERVICE_HEADERS.signature)!, body: await request.clone().text() });
          if (!passThrough) return new Response(null, { status: 204 });
          const response = await deliverToHandler(request);
          answers.push(await response.clone().json());
          return response;
        },
      },
    },
    async (request) => {
      if (request.method === 'GET') serviceReads.push(new URL(request.url).pathname);
      return harness.sandbox.fetch(request);
    },
  );
  deliverToHandler = harness.handler;
  ({ sandbox, service, events } = harness);
}

/** The sandbox's deliveries so far, after the ones in flight are done. */
async function captured(event: string, resourceId?: string): Promise<Delivery[]> {
  await sandbox.webhooks.idle();
  return sent.filter((d) => d.event === event && (resourceId === undefined || (JSON.parse(d.body) as Record<string, unknown>)[idField(event)] === resourceId));
}

async function one(event: string, resourceId?: string): Promise<Delivery> {
  // A refund settles on a timer of its own, so its webhook may not be sent yet.
  await vi.waitFor(async () => expect(await captured(event, resourceId), `${event} ${resourceId ?? ''}`).toHaveLength(1), { timeout: 5_000 });
  return (await captured(event, resourceId))[0]!;
}

function idField(event: string): string {
  if (event.startsWith('charge.')) return 'chargeId';
  if (event.startsWith('refund.')) return 'refundId';
  if (event.startsWith('card_authorization.')) return 'cardAuthorizationId';
  return 'transactionId';
}

/** Posts a delivery to the handler, its headers as the dispatcher sent them unless overridden. */
function deliver(delivery: Delivery, init: { body?: string | Uint8Array<ArrayBuffer>; headers?: Record<string, string | null>; append?: [string, string][] } = {}) {
  const headers = new Headers({ 'content-type': 'application/json', [SERVICE_HEADERS.event]: delivery.event, [SERVICE_HEADERS.signature]: delivery.signature });
  for (const [name, value] of Object.entries(init.headers ?? {})) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  for (const [name, value] of init.append ?? []) headers.append(name, value);
  return answer(new Request(`${BASE}/webhooks`, { method: 'POST', headers, body: init.body ?? delivery.body }));
}

async function answer(request: Request) {
  const response = await harness.handler(request);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** A delivery of `resource` as `event`, signed with the real webhook key: a state the service could send. */
async function signed(event: string, resource: unknown): Promise<Delivery> {
  const body = JSON.stringify(resource);
  return { event, body, signature: await signWebhookPayload(body, WEBHOOK_KEY) };
}

const status = (chargeId: string, token: string, query = '') =>
  harness.call('GET', `/charges/${chargeId}/status${query}`, { headers: { 'X-Satang-Status-Token': token } });

async function payByCard(pan: string, orderReference = 'cart-1') {
  const cardTokenId = await service.tokenize(pan);
  const created = await harness.call('POST', '/charges', {
    body: { orderReference, paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '123' }, ...(orderReference === 'pre-order' ? { intent: 'authorize' } : {}) },
  });
  expect(created.status, created.text).toBe(201);
  return created.body as { chargeId: string; statusToken: string };
}

async function qrCharge() {
  const created = await harness.call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'QR_PROMPT_PAY' } } });
  expect(created.status, created.text).toBe(201);
  return { chargeId: created.body.chargeId as string, statusToken: created.body.statusToken as string, rawData: created.body.encodedImage.rawData as string };
}

/** The payer declines the QR charge on the sandbox's PromptPay page. */
async function decline(rawData: string) {
  const page = await service.submitPage(`${ORIGIN}/sandbox/pages/promptpay`, { rawData, outcome: 'fail' });
  expect(page.status).toBeLessThan(400);
}

/** A QR charge the payer declined and then paid by bank transfer: FAILED, then SUCCEEDED by its slip. */
async function declinedThenPaidBySlip() {
  const charge = await qrCharge();
  const slip = (await service.get(`/sandbox/v1/charges/${charge.chargeId}/slip`)).body.raw as string;
  await decline(charge.rawData);
  const verified = await service.post('/api/v1/charges/verify-qr-slip', { format: 'RAW', raw: slip });
  expect(verified.body).toEqual({ chargeId: charge.chargeId, verificationResult: 'UPDATED_TO_SUCCEEDED' });
  return charge;
}

/** A time a second before `at`. */
const before = (at: unknown) => new Date(Date.parse(String(at)) - 1_000).toISOString();

const names = () => events.map((event) => `${event.name} ${(event.payload as { status?: string }).status ?? ''}`.trim());

describe('webhooks under abuse', () => {
  describe('duplicates', () => {
    it('hands one state to onEvent once, delivered twice, ten times in a row or ten times at once', async () => {
      setUp({
        onEvent: async (event) => {
          // Slow enough that concurrent copies overlap while the first is being handled.
          await new Promise((resolve) => setTimeout(resolve, 5));
          events.push(event);
        },
      });
      const first = await payByCard('4111111111111111');
      const second = await payByCard('4111111111111111', 'cart-2');
      const a = await one('charge.succeeded', first.chargeId);
      const b = await one('charge.succeeded', second.chargeId);

      expect((await deliver(a)).body).toEqual({ received: true });
      expect((await deliver(a)).body).toEqual({ received: true, duplicate: true });
      for (let i = 0; i < 10; i += 1) expect((await deliver(a)).body).toEqual({ received: true, duplicate: true });
      expect(names()).toEqual(['charge.succeeded SUCCEEDED']);

      const together = await Promise.all(Array.from({ length: 10 }, () => deliver(b)));
      expect(together.every((r) => r.status === 200)).toBe(true);
      expect(together.filter((r) => r.body.duplicate !== true)).toHaveLength(1);
      expect(events.map((e) => (e.payload as { chargeId: string }).chargeId)).toEqual([first.chargeId, second.chargeId]);
    });

    it('acknowledges a redelivery through the sandbox as a duplicate', async () => {
      setUp({}, { pass: true });
      const charge = await payByCard('4111111111111111');
      await sandbox.webhooks.idle();
      expect(names().sort()).toEqual(['charge.succeeded SUCCEEDED', 'transaction.created']);
      const deliveries = (await service.get('/sandbox/v1/webhook-deliveries')).body.data as { deliveryId: string; event: string; resourceId: string }[];
      const original = deliveries.find((d) => d.event === 'charge.succeeded' && d.resourceId === charge.chargeId)!;
      const again = await service.post(`/sandbox/v1/webhook-deliveries/${original.deliveryId}/redeliver`, {});
      expect(again.status).toBe(202);
      await sandbox.webhooks.idle();
      expect(sandbox.webhooks.get(again.body.deliveryId)?.status).toBe('DELIVERED');
      expect(answers.at(-1)).toEqual({ received: true, duplicate: true });
      expect(names().sort()).toEqual(['charge.succeeded SUCCEEDED', 'transaction.created']);
    });
  });

  describe('out of order', () => {
    it('keeps a card authorization canceled when its AUTHORIZED webhook comes after CANCELED', async () => {
      setUp();
      const reserved = await payByCard('4111111111111111', 'pre-order');
      const cancel = await service.post(`/api/v1/card-authorizations/${reserved.chargeId}/cancel`, {});
      expect(cancel.body.status).toBe('CANCELED');
      const authorized = await one('card_authorization.authorized', reserved.chargeId);
      const canceled = await one('card_authorization.canceled', reserved.chargeId);

      expect((await deliver(canceled)).body).toEqual({ received: true });
      expect((await deliver(authorized)).body).toEqual({ received: true, stale: true });
      expect((await deliver(canceled)).body).toEqual({ received: true, duplicate: true });
      expect((await deliver(authorized)).body).toEqual({ received: true, duplicate: true });
      expect(names()).toEqual(['card_authorization.canceled CANCELED']);
      expect((await status(reserved.chargeId, reserved.statusToken)).body).toMatchObject({ status: 'FAILED', authorizationStatus: 'CANCELED' });
      // Read from what the webhook left, not from the service.
      expect(serviceReads.filter((path) => path.endsWith(reserved.chargeId))).toEqual([]);
    });

    it('hands both states on, each once, when they come in order', async () => {
      setUp();
      const reserved = await payByCard('4111111111111111', 'pre-order');
      await service.post(`/api/v1/card-authorizations/${reserved.chargeId}/cancel`, {});
      const authorized = await one('card_authorization.authorized', reserved.chargeId);
      const canceled = await one('card_authorization.canceled', reserved.chargeId);
      for (const delivery of [authorized, authorized, canceled, authorized, canceled]) expect((await deliver(delivery)).status).toBe(200);
      expect(names()).toEqual(['card_authorization.authorized AUTHORIZED', 'card_authorization.canceled CANCELED']);
      expect((await status(reserved.chargeId, reserved.statusToken)).body).toMatchObject({ status: 'FAILED', authorizationStatus: 'CANCELED' });
    });

    it('never hands an older state on after a newer one, even delivered at the same moment', async () => {
      setUp({
        onEvent: async (event) => {
          // The older state takes longer to handle: were both handled side by side, it would land last.
          await new Promise((resolve) => setTimeout(resolve, event.name === 'card_authorization.authorized' ? 20 : 0));
          events.push(event);
        },
      });
      const reserved = await payByCard('4111111111111111', 'pre-order');
      await service.post(`/api/v1/card-authorizations/${reserved.chargeId}/cancel`, {});
      const authorized = await one('card_authorization.authorized', reserved.chargeId);
      const canceled = await one('card_authorization.canceled', reserved.chargeId);
      const results = await Promise.all([deliver(canceled), deliver(authorized), deliver(canceled), deliver(authorized)]);
      expect(results.every((r) => r.status === 200)).toBe(true);
      expect(names().at(-1)).toBe('card_authorization.canceled CANCELED');
      expect(new Set(names()).size).toBe(names().length);
      expect((await status(reserved.chargeId, reserved.statusToken)).body).toMatchObject({ authorizationStatus: 'CANCELED' });
    });

    it('holds the same with a store that answers a turn later, as a networked one does', async () => {
      setUp({ onEvent: (event) => void events.push(event) }, { remote: true });
      const reserved = await payByCard('4111111111111111', 'pre-order');
      await service.post(`/api/v1/card-authorizations/${reserved.chargeId}/cancel`, {});
      const authorized = await one('card_authorization.authorized', reserved.chargeId);
      const canceled = await one('card_authorization.canceled', reserved.chargeId);
      const results = await Promise.all([...Array.from({ length: 5 }, () => deliver(canceled)), ...Array.from({ length: 5 }, () => deliver(authorized))]);
      expect(results.every((r) => r.status === 200)).toBe(true);
      expect(results.filter((r) => r.body.duplicate !== true && r.body.stale !== true).length).toBe(names().length);
      expect(names().at(-1)).toBe('card_authorization.canceled CANCELED');
      expect(new Set(names()).size).toBe(names().length);
      expect((await status(reserved.chargeId, reserved.statusToken)).body).toMatchObject({ authorizationStatus: 'CANCELED' });
    });

    it('keeps a refund SUCCEEDED when an older state of it comes later, and refuses a PENDING body under a final event', async () => {
      setUp();
      const charge = await payByCard('4111111111111111');
      const refund = await service.post('/api/v1/refunds', { chargeId: charge.chargeId });
      expect(refund.status).toBe(201);
      const succeeded = await one('refund.succeeded', refund.body.refundId);
      const resource = JSON.parse(succeeded.body) as Record<string, unknown>;
      // The refund as it was before it settled: PENDING, and an older updatedAt (a settlement in the
      // same millisecond would tie).
      const pending = { ...resource, status: 'PENDING', updatedAt: before(resource.updatedAt), transactionTime: null };
      const olderFailure = await signed('refund.failed', { ...pending, status: 'FAILED', failureCode: 'RF_FAILED' });

      expect((await deliver(succeeded)).body).toEqual({ received: true });
      expect((await deliver(olderFailure)).body).toEqual({ received: true, stale: true });
      for (const event of ['refund.succeeded', 'refund.failed']) {
        const answer = await deliver(await signed(event, pending));
        expect(answer.status, event).toBe(400);
        expect(ErrorShape.parse(answer.body).error.errorCode).toBe('INVALID_REQUEST');
      }
      expect((await deliver(succeeded)).body).toEqual({ received: true, duplicate: true });
      expect(names()).toEqual(['refund.succeeded SUCCEEDED']);
    });

    it('finds the order of a refund whose webhook names none by reading its charge, and acknowledges one of a charge the service does not know', async () => {
      setUp();
      const charge = await payByCard('4111111111111111');
      expect((await deliver(await one('charge.succeeded', charge.chargeId))).body).toEqual({ received: true });
      const refund = await service.post('/api/v1/refunds', { chargeId: charge.chargeId });
      expect(refund.status).toBe(201);
      const resource = JSON.parse((await one('refund.succeeded', refund.body.refundId)).body) as Record<string, unknown>;
      serviceReads = [];
      expect((await deliver(await signed('refund.succeeded', { ...resource, referenceId: '' }))).body).toEqual({ received: true });
      expect(serviceReads, 'the charge read for its order').toEqual([`/api/v1/charges/${charge.chargeId}`]);
      const state = await harness.call('GET', '/orders/cart-1/state', { headers: { 'X-Satang-Order-Token': await harness.handler.orderToken('cart-1') } });
      expect(state.body).toMatchObject({ state: 'refunded', paidBy: charge.chargeId });

      // A refund of a charge the service does not know: nothing to settle, acknowledged.
      const unknown = { ...resource, refundId: 're_unknown0000000000000000', chargeId: 'ch_unknown0000000000000000', referenceId: null };
      expect((await deliver(await signed('refund.succeeded', unknown))).body).toEqual({ received: true });
      expect(names().filter((name) => name.startsWith('refund.'))).toEqual(['refund.succeeded SUCCEEDED', 'refund.succeeded SUCCEEDED']);
    });

    it('hands on both partial refunds of one charge, the later one delivered first: each refund is its own resource', async () => {
      setUp();
      const charge = await payByCard('4111111111111111');
      const first = await service.post('/api/v1/refunds', { chargeId: charge.chargeId, amount: 1_000 });
      const firstDone = await one('refund.succeeded', first.body.refundId);
      // Ordered in time, so the second refund's updatedAt is later than the first's.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = await service.post('/api/v1/refunds', { chargeId: charge.chargeId, amount: 2_000 });
      const secondDone = await one('refund.succeeded', second.body.refundId);

      expect((await deliver(secondDone)).body).toEqual({ received: true });
      expect((await deliver(firstDone)).body).toEqual({ received: true });
      expect((await deliver(firstDone)).body).toEqual({ received: true, duplicate: true });
      expect(events.map((e) => (e.payload as { refundId?: string }).refundId)).toEqual([second.body.refundId, first.body.refundId]);
    });

    it('hands a charge on SUCCEEDED only when its earlier FAILED comes after it, transaction.created apart', async () => {
      setUp();
      const charge = await declinedThenPaidBySlip();
      const failed = await one('charge.failed', charge.chargeId);
      const succeeded = await one('charge.succeeded', charge.chargeId);
      const transaction = await one('transaction.created', charge.chargeId);

      const order = [transaction, succeeded, failed, succeeded, transaction, failed];
      const bodies = [];
      for (const delivery of order) bodies.push((await deliver(delivery)).body);
      expect(bodies).toEqual([
        { received: true },
        { received: true },
        { received: true, stale: true },
        { received: true, duplicate: true },
        { received: true, duplicate: true },
        { received: true, duplicate: true },
      ]);
      expect(names()).toEqual(['transaction.created', 'charge.succeeded SUCCEEDED']);
      // Paid by its slip after all: that success pays the order.
      expect((await status(charge.chargeId, charge.statusToken)).body).toEqual({ chargeId: charge.chargeId, status: 'SUCCEEDED', failureCode: null, outcome: 'paid' });
    });

    it('does not record a state onEvent failed on, so an older state and then its retry are both handled', async () => {
      let fail = true;
      setUp({
        onEvent: (event) => {
          if (fail && event.name === 'card_authorization.canceled') throw new Error('database down');
          events.push(event);
        },
      });
      const reserved = await payByCard('4111111111111111', 'pre-order');
      await service.post(`/api/v1/card-authorizations/${reserved.chargeId}/cancel`, {});
      const authorized = await one('card_authorization.authorized', reserved.chargeId);
      const canceled = await one('card_authorization.canceled', reserved.chargeId);

      const refused = await deliver(canceled);
      expect(refused.status).toBe(500);
      expect(ErrorShape.parse(refused.body).error).toMatchObject({ errorCode: 'INTERNAL_ERROR', retryable: true });
      expect((await deliver(authorized)).body).toEqual({ received: true });
      fail = false;
      expect((await deliver(canceled)).body).toEqual({ received: true });
      expect(names()).toEqual(['card_authorization.authorized AUTHORIZED', 'card_authorization.canceled CANCELED']);
      // The verified CANCELED was known from the first attempt on: the older AUTHORIZED never showed.
      expect((await status(reserved.chargeId, reserved.statusToken)).body).toMatchObject({ authorizationStatus: 'CANCELED' });
    });
  });

  describe('a payment’s states, kept in its order’s record', () => {
    it('calls a copy a duplicate after its mark in hand ran out, and tells onOrder and onEvent of the payment once', async () => {
      const told: string[] = [];
      setUp({ onOrder: (event) => void told.push(`${event.type} ${event.chargeId}`) });
      const charge = await payByCard('4111111111111111');
      const succeeded = await one('charge.succeeded', charge.chargeId);
      expect((await deliver(succeeded)).body).toEqual({ received: true });
      expect((await deliver(succeeded)).body).toEqual({ received: true, duplicate: true });
      // The state's own mark is only ever in hand: past it, the order's record still says it was handled.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + WEBHOOK_IN_HAND_MS + 1_000);
      expect(await store.get(`webhook:charge:${charge.chargeId}:SUCCEEDED:${(JSON.parse(succeeded.body) as { updatedAt: string }).updatedAt}`)).toBeUndefined();
      expect((await deliver(succeeded)).body).toEqual({ received: true, duplicate: true });
      expect((await deliver(succeeded)).body).toEqual({ received: true, duplicate: true });
      expect(names()).toEqual(['charge.succeeded SUCCEEDED']);
      expect(told).toEqual([`order.paid ${charge.chargeId}`]);
    });

    it('keeps what onOrder heard when onEvent fails, so the retry hands the state to onEvent without telling onOrder again', async () => {
      const told: string[] = [];
      let fail = true;
      setUp({
        onOrder: (event) => void told.push(event.type),
        onEvent: (event) => {
          if (fail) throw new Error('database down');
          events.push(event);
        },
      });
      const charge = await payByCard('4111111111111111');
      const succeeded = await one('charge.succeeded', charge.chargeId);
      const refused = await deliver(succeeded);
      expect(refused.status).toBe(500);
      expect(ErrorShape.parse(refused.body).error).toMatchObject({ errorCode: 'INTERNAL_ERROR', retryable: true });
      expect(told).toEqual(['order.paid']);
      fail = false;
      // Past its claim: had onOrder's answer not been kept, the retry would tell it again.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + TELL_IN_HAND_MS + 1_000);
      expect((await deliver(succeeded)).body).toEqual({ received: true });
      expect((await deliver(succeeded)).body).toEqual({ received: true, duplicate: true });
      expect(names()).toEqual(['charge.succeeded SUCCEEDED']);
      expect(told).toEqual(['order.paid']);
    });

    it('still finds a state handled by the version that kept it in the ledger’s own records, and what is older than it', async () => {
      const told: string[] = [];
      setUp({ onOrder: (event) => void told.push(event.type) });
      const charge = await payByCard('4111111111111111');
      const succeeded = await one('charge.succeeded', charge.chargeId);
      const resource = JSON.parse(succeeded.body) as Record<string, unknown>;
      // As the version before left it: the state marked handled and newest in the ledger's records,
      // the payment's entry saying nothing of its webhooks.
      const records = new CheckoutRecords(store);
      const ledger = new WebhookRecords(store);
      const state = webhookState({ name: 'charge.succeeded', payload: resource } as unknown as WebhookEvent);
      await ledger.handled.set(state, WEBHOOK_MARKS.handled);
      await ledger.newest.setIfNewer(state.resource, state.version!, state.version!);
      const order = (await records.order.get('order-2001'))!;
      const { heard: _heard, ...entry } = order.payments[charge.chargeId]!;
      expect(_heard).toBe(0);
      expect(await records.order.setIfNewer('order-2001', order.v + 1, { ...order, v: order.v + 1, payments: { ...order.payments, [charge.chargeId]: entry } })).toBe(true);

      expect((await deliver(succeeded)).body).toEqual({ received: true, duplicate: true });
      const olderFailure = await signed('charge.failed', { ...resource, status: 'FAILED', failureCode: 'PAYMENT_DECLINED', updatedAt: before(resource.updatedAt) });
      expect((await deliver(olderFailure)).body).toEqual({ received: true, stale: true });
      expect(names()).toEqual([]);
      expect(told).toEqual([]);
    });
  });

  describe('replays', () => {
    it('ignores an old genuine event sent again after a newer state, while remembered and after', async () => {
      setUp();
      const charge = await declinedThenPaidBySlip();
      const failed = await one('charge.failed', charge.chargeId);
      const succeeded = await one('charge.succeeded', charge.chargeId);
      expect((await deliver(failed)).body).toEqual({ received: true });
      expect((await deliver(succeeded)).body).toEqual({ received: true });
      expect((await deliver(failed)).body).toEqual({ received: true, duplicate: true });
      expect(names()).toEqual(['charge.failed FAILED', 'charge.succeeded SUCCEEDED']);

      // Days later every memory of them is gone; the service's own retries stopped long before.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + WEBHOOK_DEDUPE_TTL_MS + 60_000);
      expect(await store.get(`status:${charge.chargeId}`)).toBeUndefined();
      for (const replay of [failed, succeeded]) expect((await deliver(replay)).body).toEqual({ received: true, stale: true });
      expect(names()).toEqual(['charge.failed FAILED', 'charge.succeeded SUCCEEDED']);
      expect(await store.get(`status:${charge.chargeId}`)).toBeUndefined();
    });
  });

  describe('tampered', () => {
    it('refuses forged, altered and mislabelled deliveries in the error shape, and keeps nothing', async () => {
      setUp();
      const charge = await payByCard('4111111111111111');
      const genuine = await one('charge.succeeded', charge.chargeId);
      const transaction = await one('transaction.created', charge.chargeId);
      const flip = (at: number) => {
        const bytes = new TextEncoder().encode(genuine.body);
        bytes[at] = bytes[at]! ^ 0x01;
        return bytes;
      };
      const otherKey = Buffer.alloc(32, 7).toString('base64');
      const half = genuine.signature.length / 2;
      const cases: [string, Parameters<typeof deliver>[1], number, string][] = [
        ['the first byte flipped', { body: flip(0) }, 401, 'INVALID_SIGNATURE'],
        ['a byte in the middle flipped', { body: flip(Math.floor(genuine.body.length / 2)) }, 401, 'INVALID_SIGNATURE'],
        ['the last byte flipped', { body: flip(genuine.body.length - 1) }, 401, 'INVALID_SIGNATURE'],
        ['the status rewritten', { body: genuine.body.replace('"SUCCEEDED"', '"FAILED"') }, 401, 'INVALID_SIGNATURE'],
        ['the signature of another body', { headers: { [SERVICE_HEADERS.signature]: transaction.signature } }, 401, 'INVALID_SIGNATURE'],
        ['a signature made with another key', { headers: { [SERVICE_HEADERS.signature]: await signWebhookPayload(genuine.body, otherKey) } }, 401, 'INVALID_SIGNATURE'],
        ['no signature', { headers: { [SERVICE_HEADERS.signature]: null } }, 401, 'INVALID_SIGNATURE'],
        ['an empty signature', { headers: { [SERVICE_HEADERS.signature]: '' } }, 401, 'INVALID_SIGNATURE'],
        ['a garbage signature', { headers: { [SERVICE_HEADERS.signature]: 'garbage!' } }, 401, 'INVALID_SIGNATURE'],
        ['a signature of the wrong length', { headers: { [SERVICE_HEADERS.signature]: Buffer.alloc(31).toString('base64') } }, 401, 'INVALID_SIGNATURE'],
        ['the signature without padding', { headers: { [SERVICE_HEADERS.signature]: genuine.signature.replace(/=+$/, '') } }, 401, 'INVALID_SIGNATURE'],
        ['the signature twice', { append: [[SERVICE_HEADERS.signature, genuine.signature]] }, 401, 'INVALID_SIGNATURE'],
        ['a forged signature beside the genuine one', { append: [[SERVICE_HEADERS.signature, transaction.signature]] }, 401, 'INVALID_SIGNATURE'],
        ['whitespace inside the signature', { headers: { [SERVICE_HEADERS.signature]: `${genuine.signature.slice(0, half)} ${genuine.signature.slice(half)}` } }, 401, 'INVALID_SIGNATURE'],
        ['no event header', { headers: { [SERVICE_HEADERS.event]: null } }, 400, 'INVALID_REQUEST'],
        ['the charge body under refund.succeeded', { headers: { [SERVICE_HEADERS.event]: 'refund.succeeded' } }, 400, 'INVALID_REQUEST'],
        ['the charge body under transaction.created', { headers: { [SERVICE_HEADERS.event]: 'transaction.created' } }, 400, 'INVALID_REQUEST'],
        ['the charge body under card_authorization.authorized', { headers: { [SERVICE_HEADERS.event]: 'card_authorization.authorized' } }, 400, 'INVALID_REQUEST'],
        ['a SUCCEEDED charge under charge.failed', { headers: { [SERVICE_HEADERS.event]: 'charge.failed' } }, 400, 'INVALID_REQUEST'],
        ['the transaction body under charge.succeeded', { body: transaction.body, headers: { [SERVICE_HEADERS.signature]: transaction.signature } }, 400, 'INVALID_REQUEST'],
      ];
      const entriesBefore = store.size;
      for (const [label, init, code, errorCode] of cases) {
        const refused = await deliver(genuine, init);
        expect(refused.status, label).toBe(code);
        expect(ErrorShape.parse(refused.body).error, label).toMatchObject({ errorCode, retryable: false });
        expect(refused.body.code, label).toBe(code);
      }
      // A name of no known event is acknowledged (the service may add events), and also keeps nothing.
      expect((await deliver(genuine, { headers: { [SERVICE_HEADERS.event]: 'charge.refunded' } })).body).toEqual({ received: true, ignored: true });
      expect(store.size).toBe(entriesBefore);
      expect(events).toEqual([]);
      // Whitespace around a header value is not part of it (HTTP strips it): that is the genuine signature.
      expect((await deliver(genuine, { headers: { [SERVICE_HEADERS.signature]: ` ${genuine.signature}\t` } })).status).toBe(200);
      expect(names()).toEqual(['charge.succeeded SUCCEEDED']);
    });

    it('keeps nothing and calls nothing for a refused delivery', async () => {
      setUp();
      const charge = await qrCharge();
      await decline(charge.rawData);
      const failed = await one('charge.failed', charge.chargeId);
      const entriesBefore = store.size;
      const forged = [
        deliver(failed, { body: failed.body.replace('"FAILED"', '"SUCCEEDED"'), headers: { [SERVICE_HEADERS.event]: 'charge.succeeded' } }),
        deliver(failed, { headers: { [SERVICE_HEADERS.event]: 'charge.succeeded' } }),
        deliver(failed, { headers: { [SERVICE_HEADERS.signature]: 'A'.repeat(43) + '=' } }),
      ];
      expect((await Promise.all(forged)).map((r) => r.status)).toEqual([401, 400, 401]);
      expect(store.size).toBe(entriesBefore);
      expect(events).toEqual([]);
      expect((await status(charge.chargeId, charge.statusToken)).body).toMatchObject({ status: 'FAILED' });
      expect(serviceReads.filter((path) => path.endsWith(charge.chargeId))).toHaveLength(1);
    });
  });

  describe('oversized', () => {
    const CHUNK = 16 * 1024;

    /** A body stream that counts what is pulled from it and whether it was cancelled. */
    function countingStream(totalBytes: number) {
      const seen = { pulled: 0, cancelled: false };
      const stream = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            const size = Math.min(CHUNK, totalBytes - seen.pulled);
            if (size <= 0) {
              controller.close();
              return;
            }
            seen.pulled += size;
            controller.enqueue(new Uint8Array(size).fill(0x20));
          },
          cancel() {
            seen.cancelled = true;
          },
        },
        { highWaterMark: 0 },
      );
      return { stream, seen };
    }

    const post = (body: BodyInit, headers: Record<string, string>) =>
      answer(new Request(`${BASE}/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', [SERVICE_HEADERS.event]: 'charge.succeeded', ...headers }, body, duplex: 'half' } as RequestInit));

    it('answers 413 past WEBHOOK_MAX_BODY_BYTES, with or without a length, reading nothing past the cap', async () => {
      setUp();
      const charge = await payByCard('4111111111111111');
      const genuine = await one('charge.succeeded', charge.chargeId);
      // A genuine body padded to the cap, and one byte more: both signed with the real key.
      const atCap = genuine.body + ' '.repeat(WEBHOOK_MAX_BODY_BYTES - Buffer.byteLength(genuine.body));
      const overCap = `${atCap} `;
      const sign = async (body: string) => ({ [SERVICE_HEADERS.signature]: await signWebhookPayload(body, WEBHOOK_KEY) });

      const declared = countingStream(WEBHOOK_MAX_BODY_BYTES + 1);
      const refusals = [
        await post(overCap, await sign(overCap)),
        await post(overCap, { ...(await sign(overCap)), 'content-length': String(WEBHOOK_MAX_BODY_BYTES + 1) }),
        await post(declared.stream, { 'content-length': String(WEBHOOK_MAX_BODY_BYTES + 1) }),
      ];
      expect(declared.seen.pulled).toBe(0);

      const chunked = countingStream(4 * WEBHOOK_MAX_BODY_BYTES);
      refusals.push(await post(chunked.stream, {}));
      expect(chunked.seen.pulled).toBeLessThanOrEqual(WEBHOOK_MAX_BODY_BYTES + 2 * CHUNK);
      expect(chunked.seen.cancelled).toBe(true);

      const lying = countingStream(4 * WEBHOOK_MAX_BODY_BYTES);
      refusals.push(await post(lying.stream, { 'content-length': '100' }));
      expect(lying.seen.pulled).toBeLessThanOrEqual(WEBHOOK_MAX_BODY_BYTES + 2 * CHUNK);

      for (const refused of refusals) {
        expect(refused.status).toBe(413);
        expect(ErrorShape.parse(refused.body).error).toMatchObject({ errorCode: 'BODY_TOO_LARGE', retryable: false });
      }
      expect(events).toEqual([]);

      // Exactly the cap is still read, verified and handled.
      expect((await post(atCap, await sign(atCap))).body).toEqual({ received: true });
      expect(names()).toEqual(['charge.succeeded SUCCEEDED']);
    });
    it('answers 413 over a socket while a chunked body is still being sent', async () => {
      setUp();
      const listener = toNodeListener(harness.handler);
      const server = createServer(listener);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const LIMIT = 64 * 1024 * 1024;
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let written = 0;
        const answered = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const outgoing = httpRequest(
            { host: '127.0.0.1', port, path: '/api/checkout/webhooks', method: 'POST', headers: { 'content-type': 'application/json', [SERVICE_HEADERS.event]: 'charge.succeeded' } },
            (response) => {
              let body = '';
              response.setEncoding('utf8');
              response.on('data', (data: string) => (body += data));
              response.on('end', () => resolve({ status: response.statusCode!, body }));
            },
          );
          outgoing.on('error', reject);
          let stop = false;
          outgoing.once('response', () => (stop = true));
          // No Content-Length: Node sends the body chunked, for as long as the server reads it.
          const pump = () => {
            while (!stop && written < LIMIT) {
              written += chunk.length;
              if (!outgoing.write(chunk)) return void outgoing.once('drain', pump);
            }
            outgoing.end();
          };
          pump();
        });
        expect(answered.status).toBe(413);
        expect(ErrorShape.parse(JSON.parse(answered.body)).error.errorCode).toBe('BODY_TOO_LARGE');
        // Answered long before the sender was done: the rest sat in socket buffers, unread.
        expect(written).toBeLessThan(LIMIT);
        expect(events).toEqual([]);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });

  describe('the long-poll', () => {
    it('resolves on the genuine webhook while forged, duplicate and stale ones hit the endpoint, never on a forged success', async () => {
      setUp();
      const charge = await qrCharge();
      const waiting = status(charge.chargeId, charge.statusToken, '?wait=25');
      let settled = false;
      void waiting.finally(() => (settled = true));
      await vi.waitFor(() => expect(serviceReads.filter((path) => path.endsWith(charge.chargeId))).toHaveLength(1), { timeout: 5_000 });

      await decline(charge.rawData);
      const failed = await one('charge.failed', charge.chargeId);
      const resource = JSON.parse(failed.body) as Record<string, unknown>;
      const forgeries = async () => [
        // The declined charge made to read as paid: the signature no longer matches.
        deliver(failed, { body: failed.body.replace('"FAILED"', '"SUCCEEDED"').replace(/"failureCode":"[^"]*"/, '"failureCode":""'), headers: { [SERVICE_HEADERS.event]: 'charge.succeeded' } }),
        // The genuine declined body, announced as a success.
        deliver(failed, { headers: { [SERVICE_HEADERS.event]: 'charge.succeeded' } }),
        // A success signed with another key.
        deliver(failed, { body: JSON.stringify({ ...resource, status: 'SUCCEEDED' }), headers: { [SERVICE_HEADERS.event]: 'charge.succeeded', [SERVICE_HEADERS.signature]: await signWebhookPayload(JSON.stringify({ ...resource, status: 'SUCCEEDED' }), Buffer.alloc(32, 3).toString('base64')) } }),
        deliver(failed, { headers: { [SERVICE_HEADERS.signature]: null } }),
        deliver(failed, { headers: { [SERVICE_HEADERS.event]: 'charge.refunded' } }),
      ];
      const early = await Promise.all(await forgeries());
      expect(early.map((r) => r.status)).toEqual([401, 400, 401, 401, 200]);
      await new Promise((resolve) => setTimeout(resolve, 0));
      // Nothing woke the long-poll: it has not read the service again, and still waits.
      expect(serviceReads.filter((path) => path.endsWith(charge.chargeId))).toHaveLength(1);
      expect(settled).toBe(false);

      // The genuine webhook, ten times at once, among more forgeries.
      const storm = await Promise.all([...(await forgeries()), ...Array.from({ length: 10 }, () => deliver(failed)), ...(await forgeries())]);
      expect(storm.filter((r) => r.status === 200 && r.body.duplicate !== true && r.body.ignored !== true)).toHaveLength(1);
      const resolved = await waiting;
      expect(resolved.body).toEqual({ chargeId: charge.chargeId, status: 'FAILED', failureCode: 'CH_PROCESSING_FAILED' });

      // A success signed with the real key but older than the decline is stale: nothing changes.
      const olderSuccess = await signed('charge.succeeded', { ...resource, status: 'SUCCEEDED', failureCode: '', updatedAt: before(resource.updatedAt) });
      expect((await deliver(olderSuccess)).body).toEqual({ received: true, stale: true });
      expect((await status(charge.chargeId, charge.statusToken)).body).toMatchObject({ status: 'FAILED' });
      expect(names()).toEqual(['charge.failed FAILED']);
    });

    it('still resolves by reading the service when no genuine webhook arrives', async () => {
      setUp({ statusPollIntervalMs: 20 });
      const charge = await qrCharge();
      const waiting = status(charge.chargeId, charge.statusToken, '?wait=10');
      const progress = { settled: false };
      void waiting.finally(() => (progress.settled = true));
      await decline(charge.rawData);
      const failed = await one('charge.failed', charge.chargeId);
      // Only forgeries reach the handler; the genuine delivery is held back.
      while (!progress.settled) {
        await Promise.all([
          deliver(failed, { headers: { [SERVICE_HEADERS.event]: 'charge.succeeded' } }),
          deliver(failed, { body: failed.body.replace('"FAILED"', '"SUCCEEDED"') }),
        ]);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect((await waiting).body).toEqual({ chargeId: charge.chargeId, status: 'FAILED', failureCode: 'CH_PROCESSING_FAILED' });
      expect(events).toEqual([]);
    });
  });
});
