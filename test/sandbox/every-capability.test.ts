import { describe, expect } from 'vitest';
import { SERVICE_HEADERS } from '../../src/core/constants.js';
import { parseWebhookEvent, WEBHOOK_EVENT_NAMES } from '../../src/core/schemas/webhook-events.js';
import { verifyWebhookSignature } from '../../src/core/webhook-signature.js';
import { SANDBOX_DEFAULTS, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { qrChargeBody } from '../support/qr-charge.js';
import { basic, FUTURE_EXPIRY_YEAR, ORIGIN, type Answer } from '../support/sandbox-client.js';
import { sandboxTest } from '../support/sandbox-fixture.js';

/**
 * Across every resource at once: each of the contract's 12 webhook events is sent, signed and in
 * the shape its schema expects, and a partner key works on every /api endpoint.
 */

const KEY = Buffer.from('a webhook key of thirty-two byte').toString('base64');
const START = Date.parse('2025-03-14T09:26:53.000Z');

let now = START;
let delivered: { event: string; raw: string; signature: string }[];

/** Sandbox options whose clock reads `now`, set back to START, and whose webhooks land in a fresh `delivered`. */
function recordingOptions(): SandboxOptions {
  now = START;
  const received: typeof delivered = [];
  delivered = received;
  return {
    now: () => new Date(now),
    refundSettleDelayMs: 0,
    bolt: { healthCheckDelayMs: 1 },
    webhook: {
      url: 'https://merchant.example/hooks',
      webhookKeyBase64: KEY,
      retryBaseDelayMs: 1,
      fetch: async (input: string | URL | Request, init?: RequestInit) => {
        const request = new Request(input, init);
        received.push({ event: request.headers.get(SERVICE_HEADERS.event)!, signature: request.headers.get(SERVICE_HEADERS.signature)!, raw: await request.text() });
        return new Response(null, { status: 204 });
      },
    },
  };
}

/** The code the default merchant's device `boltDeviceId` shows now. */
function pairingCode(sandbox: Sandbox, boltDeviceId: string): string {
  return sandbox.bolt.pairingCode(sandbox.merchants.get(SANDBOX_DEFAULTS.merchantId)!, boltDeviceId);
}

const ok = (answer: Answer, status = 201) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body;
};

/** The form of a hosted page: where it posts and its hidden fields. */
function formOf(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  expect(action, 'the page has a form').toBeDefined();
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(m[0])?.[1];
    const value = /value="([^"]*)"/.exec(m[0])?.[1];
    if (name) fields[name] = value ?? '';
  }
  return { action: new URL(action!.replace(/&amp;/g, '&'), ORIGIN).href, fields };
}

describe('every capability of the service', () => {
  sandboxTest('sends each of the 12 webhook events, signed, with a body its schema accepts', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(recordingOptions());
    // Charges, transactions and refunds.
    const paid = ok(await client.chargeCard('4111111111111111'));
    ok(await client.chargeCard('4943129900084541'));
    const refunded = ok(await client.post('/api/v1/refunds', { chargeId: paid.chargeId }));
    const refundFails = ok(await client.chargeCard('4000000000005126'));
    const refundFailing = ok(await client.post('/api/v1/refunds', { chargeId: refundFails.chargeId }));

    // Card authorizations: authorized then canceled, and failed.
    const card = async (pan: string) => ({ paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId: await client.tokenize(pan), securityCode: '123' } });
    const authorized = ok(await client.post('/api/v1/card-authorizations', { amount: 10_000, currency: 'THB', referenceId: 'auth-1', paymentMethod: await card('4111111111111111') }));
    ok(await client.post(`/api/v1/card-authorizations/${authorized.cardAuthorizationId}/cancel`, {}), 200);
    ok(await client.post('/api/v1/card-authorizations', { amount: 10_000, currency: 'THB', referenceId: 'auth-2', paymentMethod: await card('4943129900084541') }));

    // A payment link paid by card on its page.
    const link = ok(await client.post('/api/v1/payment-links', { order: { netAmount: 25_000, currency: 'THB', description: 'Celadon bowl' }, collectPhoneNumber: false }));
    const page = await sandbox.fetch(new Request(link.url));
    const form = formOf(await page.text());
    const year = String(FUTURE_EXPIRY_YEAR).padStart(2, '0');
    const cardFields = { method: 'CARD', cardHolderName: 'Somchai Jaidee', cardNumber: '4111111111111111', expiryMonth: '12', expiryYear: year, securityCode: '123' };
    const submitted = await client.submitPage(form.action, { ...form.fields, ...cardFields });
    expect(submitted.status, submitted.html).toBeLessThan(400);

    // Bolt intents, sent to a paired device: paid, canceled, expired.
    const device = ok(await client.get('/api/v1/bolt-devices'), 200).data[0];
    const connection = ok(await client.post('/api/v1/bolt-connections', { pairingCode: pairingCode(sandbox, device.boltDeviceId) }));
    const intent = (ref: string) => ({ amount: 45_000, currency: 'THB', referenceId: ref, expiryDurationInSec: 90, boltConnectionId: connection.id, mode: { type: 'PAIRING' }, paymentMethod: { paymentMethodType: 'CARD' } });
    const toPay = ok(await client.post('/api/v1/bolt-intents', intent('bolt-pay')));
    expect((await client.submitPage(`${ORIGIN}/sandbox/pages/bolt/${toPay.id}`, { action: 'pay' })).status).toBeLessThan(400);
    const toCancel = ok(await client.post('/api/v1/bolt-intents', intent('bolt-cancel')));
    expect((await client.submitPage(`${ORIGIN}/sandbox/pages/bolt/${toCancel.id}`, { action: 'cancel' })).status).toBeLessThan(400);
    const toExpire = ok(await client.post('/api/v1/bolt-intents', intent('bolt-expire')));
    now += 91_000;
    expect(ok(await client.get(`/api/v1/bolt-intents/${toExpire.id}`), 200).status).toBe('EXPIRED');

    // A refund settles on a timer of its own (after refundSettleDelayMs), which the webhooks' idle
    // does not count: each is read back until it has settled, and its webhook is then sent.
    for (const { refundId } of [refunded, refundFailing]) {
      await expect.poll(async () => ok(await client.get(`/api/v1/refunds/${refundId}`), 200).status).not.toBe('PENDING');
    }
    await sandbox.webhooks.idle();
    expect(new Set(delivered.map((d) => d.event))).toEqual(new Set(WEBHOOK_EVENT_NAMES));
    for (const { event, raw, signature } of delivered) {
      expect(await verifyWebhookSignature(raw, signature, KEY), event).toBe(true);
      const parsed = parseWebhookEvent(event, JSON.parse(raw));
      expect(parsed.ok, `${event}: ${parsed.ok ? '' : parsed.error}`).toBe(true);
    }
  });

  sandboxTest('lets a partner key act for the merchant on every /api endpoint, and refuses it without the partner id', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(recordingOptions());
    const partner = basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.partnerApiKey);
    const asPartner = { auth: partner, headers: { [SERVICE_HEADERS.partnerId]: SANDBOX_DEFAULTS.partnerId } };
    const charge = ok(await client.chargeCard('4111111111111111'));
    const cardTokenId = await client.tokenize('4111111111111111');
    const authorization = ok(
      await client.post('/api/v1/card-authorizations', {
        amount: 10_000,
        currency: 'THB',
        referenceId: 'p-auth',
        paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } },
        supportsMulticapture: true,
      }),
    );
    const link = ok(await client.post('/api/v1/payment-links', { order: { netAmount: 25_000, currency: 'THB', description: 'Bowl' } }));
    const device = ok(await client.get('/api/v1/bolt-devices'), 200).data[0];
    const connection = ok(await client.post('/api/v1/bolt-connections', { pairingCode: pairingCode(sandbox, device.boltDeviceId) }));
    const spare = ok(await client.post('/api/v1/bolt-connections', { pairingCode: pairingCode(sandbox, device.boltDeviceId) }));
    const intentBody = { amount: 45_000, currency: 'THB', referenceId: 'p-bolt', expiryDurationInSec: 120, boltConnectionId: connection.id, mode: { type: 'PAIRING' }, paymentMethod: { paymentMethodType: 'CARD' } };
    const intent = ok(await client.post('/api/v1/bolt-intents', intentBody));
    const slip = ok(await client.post('/api/v1/charges', qrChargeBody({ referenceId: 'p-qr' })));
    const slipRaw = (await sandbox.fetch(new Request(`${ORIGIN}/sandbox/v1/charges/${slip.chargeId}/slip?format=raw`, { headers: { authorization: basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.apiKey) } }))).text();

    const calls: [string, string, unknown?][] = [
      ['POST', '/api/v1/charges', { amount: 10_000, currency: 'THB', referenceId: 'p-1', paymentMethod: { paymentMethodType: 'ALIPAY', alipay: {} } }],
      ['GET', '/api/v1/charges'],
      ['GET', `/api/v1/charges/${charge.chargeId}`],
      ['POST', '/api/v1/charges/verify-qr-slip', { format: 'RAW', raw: await slipRaw }],
      ['POST', '/api/v1/refunds', { chargeId: charge.chargeId, amount: 100 }],
      ['GET', '/api/v1/transactions'],
      ['GET', `/api/v1/transactions/${charge.chargeId}`],
      ['GET', '/api/v1/card-authorizations'],
      ['GET', `/api/v1/card-authorizations/${authorization.cardAuthorizationId}`],
      ['POST', `/api/v1/card-authorizations/${authorization.cardAuthorizationId}/charges`, { amount: 1_000, currency: 'THB', referenceId: 'p-cap', isFinal: false }],
      ['GET', `/api/v1/card-authorizations/${authorization.cardAuthorizationId}/charges`],
      ['POST', `/api/v1/card-authorizations/${authorization.cardAuthorizationId}/cancel`, {}],
      ['POST', '/api/v1/payment-links', { order: { netAmount: 25_000, currency: 'THB', description: 'Mug' } }],
      ['GET', `/api/v1/payment-links/${link.id}`],
      ['PATCH', `/api/v1/payment-links/${link.id}/disable`, {}],
      ['POST', '/api/v1/bolt-intents', intentBody],
      ['GET', `/api/v1/bolt-intents/${intent.id}`],
      ['PATCH', `/api/v1/bolt-intents/${intent.id}/cancel`, {}],
      ['POST', '/api/v1/bolt-connections', { pairingCode: pairingCode(sandbox, device.boltDeviceId) }],
      ['GET', `/api/v1/bolt-connections/${connection.id}`],
      ['DELETE', `/api/v1/bolt-connections/${spare.id}`],
      ['GET', '/api/v1/bolt-devices'],
      ['GET', `/api/v1/bolt-devices/${device.boltDeviceId}`],
      ['PATCH', `/api/v1/bolt-devices/${device.boltDeviceId}/name`, { name: 'Counter 2' }],
      ['POST', `/api/v1/bolt-devices/${device.boltDeviceId}/health-check`, {}],
    ];
    for (const [method, path, body] of calls) {
      const answer = await client.request(method, path, { ...asPartner, ...(body === undefined ? {} : { body }) });
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      const withoutHeader = await client.request(method, path, { auth: partner, ...(body === undefined ? {} : { body }) });
      expect(withoutHeader.status, `${method} ${path} without the partner id`).toBe(401);
    }
  });
});
