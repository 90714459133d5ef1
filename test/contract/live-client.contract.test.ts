/**
 * A client written for the live service, by someone else, from its documentation
 * (`./live-integration.ts`), runs against `satang-sandbox --header-prefix X-Beam-` without an
 * edit: the sandbox's real CLI, started here as a developer starts it, on a socket; webhooks
 * delivered to the stranger's receiver and checked with `node:crypto`. Satang's own server
 * (service client and checkout handler, default options) works against the same process.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/defaults.js';
import { createCheckoutHandler, ServiceClient } from '../../src/server/index.js';
import { startCli, stopCli, type RunningCli } from '../support/sandbox-cli.js';
import { FUTURE_EXPIRY_YEAR } from '../support/sandbox-client.js';
import { LiveIntegration, startLiveWebhookReceiver, type ReceivedWebhook } from './live-integration.js';

const WEBHOOK_KEY = Buffer.alloc(32, 11).toString('base64');
const PARTNER = { partnerId: SANDBOX_DEFAULTS.partnerId, apiKey: SANDBOX_DEFAULTS.partnerApiKey };

let cli: RunningCli;
let receiver: Awaited<ReturnType<typeof startLiveWebhookReceiver>>;
let live: LiveIntegration;

beforeAll(async () => {
  receiver = await startLiveWebhookReceiver(WEBHOOK_KEY);
  cli = await startCli(['--header-prefix', 'X-Beam-', '--webhook-url', receiver.url, '--webhook-key', WEBHOOK_KEY]);
  live = new LiveIntegration({ baseUrl: cli.url, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey, publishableKey: SANDBOX_DEFAULTS.publishableKey });
}, 20_000);

afterAll(async () => {
  await stopCli(cli);
  await (receiver as typeof receiver | undefined)?.close();
});

async function cardCharge(referenceId: string, pan = '4111111111111111', amount = 25_000) {
  const cardTokenId = await live.tokenizeCard({ pan, expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee' });
  return { amount, currency: 'THB', referenceId, paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } } };
}

async function webhooksFor(resourceId: string, event: string, count = 1): Promise<ReceivedWebhook[]> {
  return vi.waitFor(
    () => {
      const found = receiver.received.filter((w) => w.event === event && Object.values(w.body).includes(resourceId));
      if (found.length < count) throw new Error(`no ${event} webhook for ${resourceId}; got ${receiver.received.map((w) => w.event).join(', ')}`);
      return found;
    },
    { timeout: 5_000, interval: 20 },
  );
}

describe('a client written for the live service, against satang-sandbox --header-prefix X-Beam-', () => {
  it('says on start which prefix it speaks', () => {
    expect(cli.banner).toMatch(/header prefix\s+X-Beam-\s+\(X-Beam-Idempotency-Key, X-Beam-Signature/);
  });

  it('pays by card and reads the charge back, with the request id under X-Beam-', async () => {
    const created = await live.createCharge(await cardCharge('live-order-1'));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ paymentMethodType: 'CARD_TOKEN', actionRequired: 'NONE' });
    expect(created.headers.get('x-beam-request-id')).toMatch(/^req_/);
    expect(created.headers.has('x-service-request-id')).toBe(false);
    const read = await live.getCharge(created.body.chargeId as string);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ chargeId: created.body.chargeId, status: 'SUCCEEDED', amount: 25_000, referenceId: 'live-order-1' });
  });

  it('honours x-beam-idempotency-key: a retry answers the first charge and creates nothing, another body is 412', async () => {
    const key = randomUUID();
    const body = await cardCharge('live-order-2');
    const first = await live.createCharge(body, key);
    const retry = await live.createCharge(body, key);
    expect(retry.status).toBe(201);
    expect(retry.body.chargeId).toBe(first.body.chargeId);
    expect(retry.headers.get('x-beam-idempotent-replayed')).toBe('true');
    const listed = await live.listCharges({ referenceId: 'live-order-2' });
    expect(listed.body.totalCount).toBe(1);

    const other = await live.createCharge({ ...body, amount: 26_000 }, key);
    expect(other.status).toBe(412);
    expect(other.body).toMatchObject({ error: { errorCode: 'IDEMPOTENCY_KEY_ERROR' } });
  });

  it('ignores a key under another prefix, as the live service does, and tells the developer once on stderr', async () => {
    const key = randomUUID();
    // A card token pays once: each call brings its own, as a retry after a lost answer would not.
    const a = await live.createChargeWithHeaders(await cardCharge('live-order-3'), { 'X-Service-Idempotency-Key': key });
    const b = await live.createChargeWithHeaders(await cardCharge('live-order-3'), { 'X-Service-Idempotency-Key': key });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    // The live service would charge twice: so does the emulator, which is why it warns.
    expect(b.body.chargeId).not.toBe(a.body.chargeId);
    expect(cli.stderr()).toMatch(/ignoring the x-service-idempotency-key header: this sandbox reads X-Beam-Idempotency-Key.*--header-prefix x-service-/);
    expect(cli.stderr().match(/ignoring the x-service-idempotency-key/g)).toHaveLength(1);
  });

  it('takes a partner key with X-Beam-Partner-ID, and names that header when another is sent', async () => {
    const created = await live.createCharge(await cardCharge('live-order-4'));
    const asPartner = await live.getChargeAsPartner(created.body.chargeId as string, PARTNER);
    expect(asPartner.status).toBe(200);
    expect(asPartner.body.chargeId).toBe(created.body.chargeId);
    const wrong = await live.getChargeAsPartner(created.body.chargeId as string, PARTNER, 'X-Service-Partner-ID');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: { errorCode: 'INVALID_CREDENTIALS_ERROR' } });
    expect(JSON.stringify(wrong.body)).toContain('X-Beam-Partner-ID');
  });

  it('delivers charge and refund webhooks with X-Beam-Event and an X-Beam-Signature the receiver verifies', async () => {
    const created = await live.createCharge(await cardCharge('live-order-5'));
    const chargeId = created.body.chargeId as string;
    const [succeeded] = await webhooksFor(chargeId, 'charge.succeeded');
    expect(succeeded!.signatureValid).toBe(true);
    expect(succeeded!.headers['x-service-signature']).toBeUndefined();
    expect(succeeded!.headers['x-service-event']).toBeUndefined();
    // The body is the charge exactly as its GET returns it.
    expect(succeeded!.body).toEqual((await live.getCharge(chargeId)).body);

    const refund = await live.refund(chargeId);
    expect(refund.status).toBe(201);
    const refundId = refund.body.refundId as string;
    const [refunded] = await webhooksFor(refundId, 'refund.succeeded');
    expect(refunded!.signatureValid).toBe(true);
    expect(receiver.received.every((w) => w.signatureValid)).toBe(true);
  });

  it('reads a charge in the live shape: every member present, empty ones as "" and null method members', async () => {
    const created = await live.createCharge(await cardCharge('live-order-6'));
    const charge = (await live.getCharge(created.body.chargeId as string)).body;
    expect(charge).toMatchObject({
      source: 'API',
      sourceId: '',
      failureCode: '',
      customer: {
        primaryPhone: { countryCode: '', number: '' },
        email: '',
        deliveryAddress: { contactName: '', phone: { countryCode: '', number: '' }, address: { streetAddress: '', city: '', country: '', postCode: '' } },
      },
    });
    const methods = charge.paymentMethod as Record<string, unknown>;
    expect(methods.card).not.toBeNull();
    for (const member of ['cardInstallments', 'cardNetworkToken', 'qrPromptPay', 'alipay', 'weChatPay', 'trueMoney', 'linePay', 'shopeePay', 'kPlus', 'scbEasy', 'krungsriApp', 'bangkokBankApp', 'make']) {
      expect(methods[member], member).toBeNull();
    }
    const [listed] = (await live.listCharges({ referenceId: 'live-order-6' })).body.data as Record<string, unknown>[];
    expect(listed).toEqual(charge);
  });

  it('charges a network token with the live fields', async () => {
    const answer = await live.createCharge({
      amount: 15_000,
      currency: 'THB',
      referenceId: 'live-order-7',
      paymentMethod: {
        paymentMethodType: 'CARD_NETWORK_TOKEN',
        cardNetworkToken: {
          number: '4111111111111111',
          cryptogram: '',
          cardHolderName: 'Somchai Jaidee',
          expiryMonth: 12,
          expiryYear: FUTURE_EXPIRY_YEAR,
          first8: '41111111',
          last4: '1111',
          initiatorType: 'MERCHANT',
        },
      },
    });
    expect(answer.status).toBe(201);
    const charge = (await live.getCharge(answer.body.chargeId as string)).body;
    expect(charge).toMatchObject({ status: 'SUCCEEDED', paymentMethod: { paymentMethodType: 'CARD_NETWORK_TOKEN', card: null } });
    expect((charge.paymentMethod as Record<string, unknown>).cardNetworkToken).toMatchObject({ initiatorType: 'MERCHANT' });
  });

  it('creates a payment link without a description, below the 3-month minimum, whose netAmount is what is paid whatever the items add up to', async () => {
    const answer = await live.api('POST', '/api/v1/payment-links', {
      order: { netAmount: 120_000, currency: 'THB', referenceId: 'live-link-1', orderItems: [{ itemName: 'Mango sticky rice', price: 10_000, quantity: 2 }] },
      linkSettings: { card: { isEnabled: true }, cardInstallments: { isEnabled: true, installments3m: { isEnabled: true } } },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const link = await live.api('GET', `/api/v1/payment-links/${answer.body.id as string}`);
    expect(link.body).toMatchObject({ status: 'ACTIVE', order: { netAmount: 120_000 } });
  });

  it('pairs a bolt device by the code it shows, sends it an intent without a mode and cancels it', async () => {
    const devices = (await live.api('GET', '/api/v1/bolt-devices')).body.data as { boltDeviceId: string }[];
    const deviceId = devices[0]!.boltDeviceId;
    // The person at the till reads the code off the device's screen.
    const page = await (await fetch(`${cli.url}/sandbox/pages/bolt/devices/${deviceId}`)).text();
    const pairingCode = /id="pairing-code">(\d+)</.exec(page)?.[1];
    expect(pairingCode).toMatch(/^\d{6}$/);
    const connection = await live.api('POST', '/api/v1/bolt-connections', { pairingCode });
    expect(connection.status).toBe(201);
    expect(connection.body).toMatchObject({ id: expect.stringMatching(/^bc_/), deviceId, merchantId: SANDBOX_DEFAULTS.merchantId });

    const intent = await live.api('POST', '/api/v1/bolt-intents', {
      amount: 9_900,
      currency: 'THB',
      referenceId: 'live-till-1',
      expiryDurationInSec: 300,
      boltConnectionId: connection.body.id,
      paymentMethod: { paymentMethodType: 'CARD' },
    });
    expect(intent.status).toBe(201);
    const intentId = (intent.body.boltIntentId ?? intent.body.id) as string;
    const cancel = await live.api('PATCH', `/api/v1/bolt-intents/${intentId}/cancel`);
    expect(cancel.status).toBe(202);
    expect(cancel.body).toEqual({ message: 'canceled' });
    expect((await live.api('GET', `/api/v1/bolt-intents/${intentId}`)).body).toMatchObject({ status: 'CANCELED', result: 'BI_CANCELED' });
    expect((await live.api('POST', `/api/v1/bolt-intents/${intentId}/cancel`)).status).toBe(405);

    const unpaired = await live.api('DELETE', `/api/v1/bolt-connections/${connection.body.id as string}`);
    expect(unpaired.status).toBe(200);
    expect(unpaired.body).toMatchObject({ code: 200 });
  });

  it('answers a browser preflight allowing x-beam-idempotency-key and exposing x-beam-request-id', async () => {
    const answer = await fetch(`${cli.url}/client/v1/card-tokens`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-headers')).toContain('x-beam-idempotency-key');
    expect(answer.headers.get('access-control-expose-headers')).toBe('X-Beam-Request-Id');
  });
});

describe("Satang's server with default options, against the same sandbox", () => {
  it('sends the idempotency key the sandbox reads: a retried charge is the first one', async () => {
    const client = new ServiceClient({ baseUrl: cli.url, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey });
    expect(client.headers.idempotencyKey).toBe('X-Beam-Idempotency-Key');
    const body = await cardCharge('satang-order-1');
    const key = randomUUID();
    const first = await client.charges.create(body as Parameters<typeof client.charges.create>[0], { idempotencyKey: key });
    const again = await client.charges.create(body as Parameters<typeof client.charges.create>[0], { idempotencyKey: key });
    expect(again.chargeId).toBe(first.chargeId);
    expect((await live.listCharges({ referenceId: 'satang-order-1' })).body.totalCount).toBe(1);
  });

  it("accepts the sandbox's deliveries at the checkout handler's webhook endpoint", async () => {
    const events: string[] = [];
    const handler = createCheckoutHandler({
      service: { baseUrl: cli.url, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey },
      resolveOrder: () => null,
      webhookKeyBase64: WEBHOOK_KEY,
      onEvent: (event) => {
        events.push(event.name);
      },
    });
    const created = await live.createCharge(await cardCharge('satang-order-2'));
    const [delivery] = await webhooksFor(created.body.chargeId as string, 'charge.succeeded');
    const headers = new Headers();
    for (const [name, value] of Object.entries(delivery!.headers)) if (typeof value === 'string') headers.set(name, value);
    const answer = await handler(new Request('http://127.0.0.1/webhooks', { method: 'POST', headers, body: new Uint8Array(delivery!.raw) }));
    expect(answer.status).toBe(200);
    expect(events).toEqual(['charge.succeeded']);
  });
});
