import { afterEach, describe, expect, it, vi } from 'vitest';
import { SERVICE_HEADERS } from '../../../src/core/constants.js';
import type { CreateBoltIntentRequest } from '../../../src/core/schemas/bolt.js';
import { parseWebhookEvent } from '../../../src/core/schemas/webhook-events.js';
import { verifyWebhookSignature } from '../../../src/core/webhook-signature.js';
import { Sandbox, SANDBOX_DEFAULTS, type SandboxOptions } from '../../../src/sandbox/index.js';
import { AuthenticationError, NotFoundError, StateConflictError, ValidationError } from '../../../src/server/errors.js';
import { ServiceClient } from '../../../src/server/service/service-client.js';
import { qrChargeBody } from '../../support/qr-charge.js';
import { rejection } from '../../support/rejection.js';

const BASE_URL = 'http://127.0.0.1:4010';
const WEBHOOK_KEY = Buffer.from('a webhook key of thirty-two byte').toString('base64');
const START = Date.parse('2025-03-14T09:26:53.000Z');

interface Hook {
  event: string;
  raw: string;
  signature: string;
}

let sandbox: Sandbox;
let client: ServiceClient;
let hooks: Hook[];
let now = START;
/** A connection to the default merchant's newest device, made as each sandbox starts. */
let connectionId: string;

function start(options: SandboxOptions = {}) {
  now = START;
  const received: Hook[] = [];
  hooks = received;
  sandbox = new Sandbox({
    now: () => new Date(now),
    refundSettleDelayMs: 0,
    webhook: {
      url: 'https://merchant.example/hooks',
      webhookKeyBase64: WEBHOOK_KEY,
      retryBaseDelayMs: 1,
      fetch: async (input: string | URL | Request, init?: RequestInit) => {
        const request = new Request(input, init);
        received.push({ event: request.headers.get(SERVICE_HEADERS.event)!, signature: request.headers.get(SERVICE_HEADERS.signature)!, raw: await request.text() });
        return new Response(null, { status: 204 });
      },
    },
    ...options,
  });
  client = new ServiceClient({
    baseUrl: BASE_URL,
    merchantId: SANDBOX_DEFAULTS.merchantId,
    apiKey: SANDBOX_DEFAULTS.apiKey,
    publishableKey: SANDBOX_DEFAULTS.publishableKey,
    retryBaseDelayMs: 1,
    fetch: sandbox.fetch,
  });
  const merchant = sandbox.merchants.get(SANDBOX_DEFAULTS.merchantId)!;
  const [device] = sandbox.bolt.listDevices(merchant, { limit: 1, offset: 0 }).data;
  connectionId = device ? sandbox.bolt.createConnection(merchant, { pairingCode: sandbox.bolt.pairingCode(merchant, device.boltDeviceId) }).id : 'bc_no_device';
}
// Unset when a test failed before it started one.
afterEach(() => (sandbox as Sandbox | undefined)?.close());


/** Submits a sandbox page's form, as the shopper's browser does. */
async function submit(url: string, fields: Record<string, string>) {
  const response = await sandbox.fetch(
    new Request(new URL(url, BASE_URL), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() }),
  );
  return { status: response.status, location: response.headers.get('location') };
}

/** Every webhook received so far, checked: signed with the key, and a valid body for its event. */
async function receivedEvents() {
  await sandbox.webhooks.idle();
  for (const hook of hooks) {
    expect(await verifyWebhookSignature(new TextEncoder().encode(hook.raw), hook.signature, WEBHOOK_KEY)).toBe(true);
    expect(parseWebhookEvent(hook.event, JSON.parse(hook.raw)).ok, hook.event).toBe(true);
  }
  // In the order the sandbox sent them; deliveries may arrive in another order.
  return sandbox.webhooks.list().reverse().map((delivery) => delivery.event);
}

/** A PAIRING intent to the connection made at start. */
const pairing = (): CreateBoltIntentRequest => ({
  amount: 45_000,
  currency: 'THB',
  referenceId: 'table-12',
  expiryDurationInSec: 120,
  boltConnectionId: connectionId,
  mode: { type: 'PAIRING' },
  paymentMethod: { paymentMethodType: 'CARD' },
});
const deepLink: CreateBoltIntentRequest = {
  amount: 9_900,
  currency: 'THB',
  referenceId: 'order-7',
  expiryDurationInSec: 90,
  mode: { type: 'DEEP_LINK', deepLink: { returnUrl: 'https://shop.example/return' } },
  paymentMethod: { paymentMethodType: 'SPAY_LATER' },
};

describe('ServiceClient.boltIntents against the sandbox', () => {
  it('creates and reads a PAIRING intent, which the terminal page pays', async () => {
    start();
    const intent = await client.boltIntents.create(pairing());
    expect(intent).toMatchObject({ status: 'ACTIVE', result: '', mode: { type: 'PAIRING', deepLink: null }, expiresAt: '2025-03-14T09:28:53.000Z' });
    expect(await client.boltIntents.get(intent.id)).toEqual(intent);

    expect((await submit(`/sandbox/pages/bolt/${intent.id}`, { action: 'pay' })).status).toBe(200);
    const paid = await client.boltIntents.get(intent.id);
    expect(paid).toMatchObject({ status: 'PAID', result: 'CH_SUCCEEDED', latestChargeStatus: 'SUCCEEDED' });
    const charge = await client.charges.get(paid.latestChargeId!);
    expect(charge).toMatchObject({ status: 'SUCCEEDED', source: 'API', sourceId: intent.id, amount: 45_000 });
    expect((await client.transactions.get(charge.chargeId)).transactionType).toBe('PAYMENT');
    expect(await receivedEvents()).toEqual(['charge.succeeded', 'transaction.created', 'bolt_intent.paid']);
  });

  it('follows a DEEP_LINK intent through a decline, then a payment that returns to the merchant', async () => {
    start();
    const intent = await client.boltIntents.create(deepLink);
    const url = intent.mode.deepLink?.deepLinkUrl;
    expect(url).toBe(`${BASE_URL}/sandbox/pages/bolt/${intent.id}`);
    await submit(url!, { action: 'decline', failureCode: 'CH_AUTHENTICATION_FAILED' });
    expect(await client.boltIntents.get(intent.id)).toMatchObject({ status: 'ACTIVE', latestChargeStatus: 'FAILED', latestChargeFailureCode: 'CH_AUTHENTICATION_FAILED', result: 'CH_AUTHENTICATION_FAILED' });
    expect(await submit(url!, { action: 'pay' })).toEqual({ status: 303, location: 'https://shop.example/return' });
    const paid = await client.boltIntents.get(intent.id);
    expect(paid).toMatchObject({ status: 'PAID', result: 'CH_SUCCEEDED' });
    expect((await client.charges.get(paid.latestChargeId!)).paymentMethod.paymentMethodType).toBe('SPAY_LATER');
    expect((await client.charges.list({ sourceId: intent.id })).totalCount).toBe(2);
  });

  it('reads CANCELED after the shopper cancels, and EXPIRED once the sandbox clock passes expiresAt', async () => {
    start();
    const canceled = await client.boltIntents.create(pairing());
    await submit(`/sandbox/pages/bolt/${canceled.id}`, { action: 'cancel' });
    expect(await client.boltIntents.get(canceled.id)).toMatchObject({ status: 'CANCELED', result: 'BI_CANCELED' });
    const expiring = await client.boltIntents.create(deepLink);
    now += 90_000;
    expect(await client.boltIntents.get(expiring.id)).toMatchObject({ status: 'EXPIRED', result: 'BI_EXPIRED' });
    expect(await receivedEvents()).toEqual(['bolt_intent.canceled', 'bolt_intent.expired']);
  });

  it('throws ValidationError naming the field for a bad request, NotFoundError for an unknown id', async () => {
    start();
    const missingConnection = await rejection(client.boltIntents.create({ ...pairing(), boltConnectionId: undefined }));
    expect(missingConnection).toBeInstanceOf(ValidationError);
    expect(missingConnection).toMatchObject({ status: 400, errorCode: 'API_VALIDATION_ERROR', field: 'boltConnectionId' });
    const shortExpiry = await rejection(client.boltIntents.create({ ...pairing(), expiryDurationInSec: 30 }));
    expect(shortExpiry.field).toBe('expiryDurationInSec');
    expect(await rejection(client.boltIntents.get('bi_nope'))).toBeInstanceOf(NotFoundError);
  });

  it('sends a PAIRING intent when mode is left out, and throws NotFoundError for a connection that does not exist', async () => {
    start();
    const { mode: _mode, ...withoutMode } = pairing();
    const intent = await client.boltIntents.create(withoutMode);
    expect(intent).toMatchObject({ mode: { type: 'PAIRING', deepLink: null }, boltConnectionId: connectionId, status: 'ACTIVE' });
    const unknown = await rejection(client.boltIntents.create({ ...pairing(), boltConnectionId: 'bc_8Hs3Kd1Wp9Rb4Nc7Lm2Xv5Tq' }));
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown).toMatchObject({ status: 404, errorCode: 'NOT_FOUND_ERROR' });
    const { boltConnectionId: _connection, ...nowhere } = withoutMode;
    const neither = await rejection(client.boltIntents.create(nowhere));
    expect(neither).toBeInstanceOf(ValidationError);
    expect(neither.field).toBe('mode');
  });

  it('cancels an ACTIVE intent: 202 {message: "canceled"}, then CANCELED with BI_CANCELED and bolt_intent.canceled', async () => {
    start();
    const intent = await client.boltIntents.create(pairing());
    expect(await client.boltIntents.cancel(intent.id)).toEqual({ message: 'canceled' });
    expect(await client.boltIntents.get(intent.id)).toMatchObject({ status: 'CANCELED', result: 'BI_CANCELED', updatedBy: SANDBOX_DEFAULTS.merchantId });
    const again = await rejection(client.boltIntents.cancel(intent.id));
    expect(again).toBeInstanceOf(StateConflictError);
    expect(again).toMatchObject({ status: 409, errorCode: 'REQUEST_CONFLICT_ERROR' });
    expect(await rejection(client.boltIntents.cancel('bi_nope'))).toBeInstanceOf(NotFoundError);
    expect(await receivedEvents()).toEqual(['bolt_intent.canceled']);
  });

  it('replays a cancel retried with the same idempotency key instead of refusing it', async () => {
    start();
    const intent = await client.boltIntents.create(pairing());
    const idempotencyKey = '6c5b4a39-2817-4f6e-9d5c-4b3a29180f7e';
    expect(await client.boltIntents.cancel(intent.id, { idempotencyKey })).toEqual({ message: 'canceled' });
    expect(await client.boltIntents.cancel(intent.id, { idempotencyKey })).toEqual({ message: 'canceled' });
    expect(await receivedEvents()).toEqual(['bolt_intent.canceled']);
  });

  it('refuses to cancel a paid intent with StateConflictError, and it stays PAID', async () => {
    start();
    const intent = await client.boltIntents.create(pairing());
    await submit(`/sandbox/pages/bolt/${intent.id}`, { action: 'pay' });
    const refused = await rejection(client.boltIntents.cancel(intent.id));
    expect(refused).toBeInstanceOf(StateConflictError);
    expect((await client.boltIntents.get(intent.id)).status).toBe('PAID');
  });

  it('makes one intent when the same idempotency key is sent twice', async () => {
    start();
    const idempotencyKey = '1f0c4b9e-7d2a-4e51-8c3b-9a6d5e4f3c21';
    const a = await client.boltIntents.create(pairing(), { idempotencyKey });
    const b = await client.boltIntents.create(pairing(), { idempotencyKey });
    expect(b.id).toBe(a.id);
  });
});

describe('ServiceClient.boltConnections against the sandbox', () => {
  const devices = { [SANDBOX_DEFAULTS.merchantId]: [{ boltDeviceId: 'bd_till', name: 'Till', pairingCode: '246810' }, { boltDeviceId: 'bd_bar', name: 'Bar', pairingCode: '135790' }] };
  /** The code a device's screen shows, read as a person reads it. */
  async function shownCode(boltDeviceId: string): Promise<string> {
    const html = await (await sandbox.fetch(new Request(`${BASE_URL}/sandbox/pages/bolt/devices/${boltDeviceId}`))).text();
    return /id="pairing-code">(\d+)</.exec(html)![1]!;
  }

  it('pairs with the code a device shows, reads the connection back, and sends PAIRING intents through it to that device', async () => {
    start({ bolt: { devices } });
    now += 2_000;
    const connection = await client.boltConnections.create({ pairingCode: '246810' });
    expect(connection).toEqual({ id: expect.stringMatching(/^bc_/), deviceId: 'bd_till', merchantId: SANDBOX_DEFAULTS.merchantId, createdAt: new Date(now).toISOString() });
    expect(await client.boltConnections.get(connection.id)).toEqual(connection);
    expect(await shownCode('bd_till')).not.toBe('246810');

    const intent = await client.boltIntents.create({ ...pairing(), boltConnectionId: connection.id });
    const screen = await (await sandbox.fetch(new Request(`${BASE_URL}/sandbox/pages/bolt/devices/bd_till`))).text();
    expect(screen).toContain(`/sandbox/pages/bolt/${intent.id}`);
  });

  it('throws ValidationError on pairingCode for a used or unknown code, and NotFoundError for an unknown connection', async () => {
    start({ bolt: { devices } });
    await client.boltConnections.create({ pairingCode: '246810' });
    for (const pairingCode of ['246810', '000000', '']) {
      const refused = await rejection(client.boltConnections.create({ pairingCode }));
      expect(refused).toBeInstanceOf(ValidationError);
      expect(refused).toMatchObject({ status: 400, errorCode: 'API_VALIDATION_ERROR', field: 'pairingCode' });
    }
    expect(await rejection(client.boltConnections.get('bc_nope'))).toBeInstanceOf(NotFoundError);
  });

  it('throws NotFoundError for another merchant’s connection', async () => {
    const other = { merchantId: 'mch_other', apiKey: 'sk_other_000000000000000000000000', publishableKey: 'pk_other_000000000000000000000000' };
    start({ merchants: [{ merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey, publishableKey: SANDBOX_DEFAULTS.publishableKey }, other], bolt: { devices: { ...devices, mch_other: [{ boltDeviceId: 'bd_theirs', name: 'Theirs', pairingCode: '112233' }] } } });
    const theirClient = new ServiceClient({ baseUrl: BASE_URL, merchantId: other.merchantId, apiKey: other.apiKey, fetch: sandbox.fetch });
    const theirs = await theirClient.boltConnections.create({ pairingCode: '112233' });
    expect(theirs.merchantId).toBe(other.merchantId);
    expect(await rejection(client.boltConnections.get(theirs.id))).toBeInstanceOf(NotFoundError);
    expect(await rejection(client.boltIntents.create({ ...pairing(), boltConnectionId: theirs.id }))).toBeInstanceOf(NotFoundError);
    // Nor can the code of their device pair this merchant.
    expect(await rejection(client.boltConnections.create({ pairingCode: await shownCode('bd_theirs') }))).toBeInstanceOf(ValidationError);
  });

  it('refuses a PAIRING intent on a deleted connection', async () => {
    start({ bolt: { devices } });
    const connection = await client.boltConnections.create({ pairingCode: '246810' });
    expect(await client.boltConnections.delete(connection.id)).toEqual({ code: 200, message: 'deleted' });
    expect(await rejection(client.boltConnections.delete(connection.id))).toBeInstanceOf(NotFoundError);
    expect(await rejection(client.boltConnections.get(connection.id))).toBeInstanceOf(NotFoundError);
    expect(await rejection(client.boltIntents.create({ ...pairing(), boltConnectionId: connection.id }))).toBeInstanceOf(NotFoundError);
  });
});

describe('ServiceClient.boltDevices against the sandbox', () => {
  it('lists, iterates, reads and renames devices', async () => {
    start({
      bolt: {
        devices: {
          [SANDBOX_DEFAULTS.merchantId]: [
            { boltDeviceId: 'bd_a', name: 'A', createdAt: '2025-01-01T00:00:00Z' },
            { boltDeviceId: 'bd_b', name: 'B', createdAt: '2025-02-01T00:00:00Z' },
            { boltDeviceId: 'bd_c', name: 'C', createdAt: '2025-03-01T00:00:00Z', latestMetric: null },
          ],
        },
      },
    });
    const page = await client.boltDevices.list({ limit: 2 });
    expect(page.totalCount).toBe(3);
    expect(page.data.map((d) => d.boltDeviceId)).toEqual(['bd_c', 'bd_b']);
    const all = [];
    for await (const device of client.boltDevices.iterate({ limit: 1 })) all.push(device.boltDeviceId);
    expect(all).toEqual(['bd_c', 'bd_b', 'bd_a']);
    expect((await client.boltDevices.get('bd_c')).latestMetric).toBeNull();
    expect((await client.boltDevices.get('bd_a')).latestMetric).toMatchObject({ reportedAt: new Date(START).toISOString() });

    const renamed = await client.boltDevices.rename('bd_a', { name: 'Till 1' });
    expect(renamed).toMatchObject({ boltDeviceId: 'bd_a', name: 'Till 1' });
    expect((await client.boltDevices.get('bd_a')).name).toBe('Till 1');
    const blank = await rejection(client.boltDevices.rename('bd_a', { name: '  ' }));
    expect(blank).toBeInstanceOf(ValidationError);
    expect(blank.field).toBe('name');
    expect(await rejection(client.boltDevices.rename('bd_nope', { name: 'X' }))).toBeInstanceOf(NotFoundError);
  });

  it('health-checks a device: the call resolves on 202 and latestMetric changes after the delay', async () => {
    start({ bolt: { healthCheckDelayMs: 30, devices: { [SANDBOX_DEFAULTS.merchantId]: [{ boltDeviceId: 'bd_x', name: 'X', latestMetric: null }] } } });
    now += 5 * 60_000;
    await expect(client.boltDevices.healthCheck('bd_x')).resolves.toBeUndefined();
    expect((await client.boltDevices.get('bd_x')).latestMetric).toBeNull();
    await vi.waitFor(async () => expect((await client.boltDevices.get('bd_x')).latestMetric?.reportedAt).toBe(new Date(now).toISOString()), {
      timeout: 2_000,
      interval: 10,
    });
    expect(await rejection(client.boltDevices.healthCheck('bd_nope'))).toBeInstanceOf(NotFoundError);
  });

  it('throws AuthenticationError with a wrong key', async () => {
    start();
    const wrong = new ServiceClient({ baseUrl: BASE_URL, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: 'sk_wrong', fetch: sandbox.fetch, maxRetries: 0 });
    expect(await rejection(wrong.boltDevices.list())).toBeInstanceOf(AuthenticationError);
  });
});

describe('ServiceClient.charges.verifyQrSlip against the sandbox', () => {
  async function qrChargeWithSlip() {
    const created = await client.charges.create(qrChargeBody({ amount: 20_000, referenceId: 'order-slip' }));
    const response = await sandbox.fetch(
      new Request(`${BASE_URL}/sandbox/v1/charges/${created.chargeId}/slip`, {
        headers: { authorization: `Basic ${Buffer.from(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.apiKey}`).toString('base64')}` },
      }),
    );
    expect(response.status).toBe(200);
    return { chargeId: created.chargeId, rawData: created.encodedImage!.rawData, slip: (await response.json()) as { raw: string; imageBase64Encoded: string } };
  }

  it('turns the charge SUCCEEDED with its transaction and webhooks, then answers ALREADY_SUCCEEDED', async () => {
    start();
    const { chargeId, slip } = await qrChargeWithSlip();
    expect((await client.charges.get(chargeId)).status).toBe('PENDING');
    expect(await client.charges.verifyQrSlip({ format: 'RAW', raw: slip.raw })).toEqual({ chargeId, verificationResult: 'UPDATED_TO_SUCCEEDED' });
    expect((await client.charges.get(chargeId)).status).toBe('SUCCEEDED');
    expect((await client.transactions.get(chargeId)).grossAmount).toBe(20_000);
    expect(await client.charges.verifyQrSlip({ format: 'RAW', raw: slip.raw })).toEqual({ chargeId, verificationResult: 'ALREADY_SUCCEEDED' });
    expect(await receivedEvents()).toEqual(['charge.succeeded', 'transaction.created']);
  });

  it('verifies a slip picture sent as format IMAGE', async () => {
    start();
    const { chargeId, slip } = await qrChargeWithSlip();
    expect(await client.charges.verifyQrSlip({ format: 'IMAGE', imageBase64Encoded: slip.imageBase64Encoded })).toEqual({ chargeId, verificationResult: 'UPDATED_TO_SUCCEEDED' });
  });

  it('gets the slip from the payer page’s transfer, as a shopper would show it', async () => {
    start();
    const { chargeId, rawData } = await qrChargeWithSlip();
    const issued = await submit('/sandbox/pages/slips', { rawData });
    expect(issued.status).toBe(303);
    const html = await (await sandbox.fetch(new Request(`${BASE_URL}${issued.location}`))).text();
    const raw = /id="slip-raw"[^>]*>([^<]+)</.exec(html)?.[1];
    expect(await client.charges.verifyQrSlip({ format: 'RAW', raw: raw! })).toEqual({ chargeId, verificationResult: 'UPDATED_TO_SUCCEEDED' });
  });

  it('throws NotFoundError for a slip that matches nothing and ValidationError for a bad body', async () => {
    start();
    const { chargeId, slip } = await qrChargeWithSlip();
    const unknown = await rejection(client.charges.verifyQrSlip({ format: 'RAW', raw: `${slip.raw.slice(0, -4)}FFFF` }));
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown).toMatchObject({ status: 404, errorCode: 'NOT_FOUND_ERROR' });
    const empty = await rejection(client.charges.verifyQrSlip({ format: 'RAW', raw: '' }));
    expect(empty).toBeInstanceOf(ValidationError);
    expect(empty.field).toBe('raw');
    expect((await client.charges.get(chargeId)).status).toBe('PENDING');
  });
});
