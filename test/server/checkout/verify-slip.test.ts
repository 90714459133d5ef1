import { afterEach, describe, expect, it, vi } from 'vitest';
import { CheckoutSlipResponseSchema } from '../../../src/core/schemas/checkout.js';
import { buildSlipQrPayload, type Sandbox, type SandboxOptions } from '../../../src/sandbox/index.js';
import { type CheckoutHandlerOptions, type CheckoutLogEntry, type ResolvedOrder } from '../../../src/server/index.js';
import { createCheckoutHarness, longPollListening, serviceReadsOf, type CheckoutHarness } from '../../support/checkout-harness.js';
import type { SandboxClient } from '../../support/sandbox-client.js';

/**
 * `POST {basePath}/charges/{chargeId}/slip`: a shopper who paid a PromptPay QR by bank transfer
 * sends the text of the QR code on the transfer slip, and the charge succeeds. Run against the
 * sandbox, whose payer issues real slips (`GET /sandbox/v1/charges/{id}/slip`).
 */

const ORDERS: Record<string, ResolvedOrder> = {
  'cart-1': { amount: 12_345, currency: 'THB', referenceId: 'order-2001' },
  'cart-2': { amount: 54_000, currency: 'THB', referenceId: 'order-2002' },
  'pre-order': { amount: 45_000, currency: 'THB', referenceId: 'order-2003', intent: 'authorize' },
};

let sandbox: Sandbox;
let service: SandboxClient;
let logs: CheckoutLogEntry[];
let harness: CheckoutHarness;

/** A sandbox whose webhooks reach the handler in process, unless `sandboxOptions` says otherwise. */
function setUp(options: Partial<CheckoutHandlerOptions> = {}, sandboxOptions: SandboxOptions = {}) {
  harness = createCheckoutHarness(ORDERS, options, sandboxOptions);
  ({ sandbox, service, logs } = harness);
}

// Unset when a test failed before it started one.
afterEach(() => (sandbox as Sandbox | undefined)?.close());

const call = (...args: Parameters<CheckoutHarness['call']>) => harness.call(...args);

/** A PromptPay QR charge made through the proxy, as the widget makes it. */
async function qrCharge(orderReference = 'cart-1'): Promise<{ chargeId: string; statusToken: string; rawData: string }> {
  const created = await call('POST', '/charges', { body: { orderReference, paymentMethod: { type: 'QR_PROMPT_PAY' } } });
  expect(created.status, created.text).toBe(201);
  return { chargeId: created.body.chargeId, statusToken: created.body.statusToken, rawData: created.body.encodedImage.rawData };
}

/** The QR text of the slip the sandbox's payer got for transferring the charge's amount. */
async function slipOf(chargeId: string): Promise<string> {
  const answer = await service.get(`/sandbox/v1/charges/${chargeId}/slip`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.raw as string;
}

const sendSlip = (chargeId: string, token: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
  call('POST', `/charges/${chargeId}/slip`, { body, headers: { ...(token === undefined ? {} : { 'X-Satang-Status-Token': token }), ...headers } });

const status = (chargeId: string, token: string, query = '') => call('GET', `/charges/${chargeId}/status${query}`, { headers: { 'X-Satang-Status-Token': token } });

describe('POST /charges/:id/slip', () => {
  describe('with the slip of this charge', () => {
    it('has the service match it, and answers the charge SUCCEEDED', async () => {
      setUp();
      const charge = await qrCharge();
      expect((await service.getCharge(charge.chargeId)).status).toBe('PENDING');

      const answer = await sendSlip(charge.chargeId, charge.statusToken, { raw: await slipOf(charge.chargeId) });

      expect(answer.status, answer.text).toBe(200);
      expect(CheckoutSlipResponseSchema.parse(answer.body)).toEqual({ chargeId: charge.chargeId, status: 'SUCCEEDED', verificationResult: 'UPDATED_TO_SUCCEEDED', outcome: 'paid' });
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(await service.getCharge(charge.chargeId)).toMatchObject({ status: 'SUCCEEDED', amount: 12_345 });
      expect((await status(charge.chargeId, charge.statusToken)).body).toEqual({ chargeId: charge.chargeId, status: 'SUCCEEDED', failureCode: null, outcome: 'paid' });
    });

    it('answers ALREADY_SUCCEEDED when the charge had succeeded before, changing nothing', async () => {
      setUp();
      const charge = await qrCharge();
      const raw = await slipOf(charge.chargeId);
      expect((await sendSlip(charge.chargeId, charge.statusToken, { raw })).body.verificationResult).toBe('UPDATED_TO_SUCCEEDED');
      await sandbox.webhooks.idle();
      const before = await service.getCharge(charge.chargeId);

      const again = await sendSlip(charge.chargeId, charge.statusToken, { raw });

      expect(again.status).toBe(200);
      expect(again.body).toEqual({ chargeId: charge.chargeId, status: 'SUCCEEDED', verificationResult: 'ALREADY_SUCCEEDED', outcome: 'paid' });
      expect(await service.getCharge(charge.chargeId)).toEqual(before);
      expect((await service.get('/api/v1/transactions?referenceId=order-2001')).body.data).toHaveLength(1);
    });

    it('wakes a long-poll of the charge at once, without a webhook', async () => {
      // No webhooks, and the service would only be asked again a minute later.
      setUp({ statusPollIntervalMs: 60_000 }, { webhook: {} });
      const charge = await qrCharge();
      const raw = await slipOf(charge.chargeId);
      const started = Date.now();
      const readsBefore = serviceReadsOf(harness, charge.chargeId);
      const waiting = status(charge.chargeId, charge.statusToken, '?wait=20');
      await longPollListening(harness, charge.chargeId, readsBefore);

      expect((await sendSlip(charge.chargeId, charge.statusToken, { raw })).status).toBe(200);

      expect((await waiting).body).toEqual({ chargeId: charge.chargeId, status: 'SUCCEEDED', failureCode: null, outcome: 'paid' });
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('never writes the slip text to the log', async () => {
      setUp();
      const charge = await qrCharge();
      const raw = await slipOf(charge.chargeId);
      await sendSlip(charge.chargeId, charge.statusToken, { raw });
      await sendSlip(charge.chargeId, charge.statusToken, { raw: `${raw}0` });
      const slipLogs = logs.filter((entry) => entry.path.endsWith('/slip'));
      expect(slipLogs.map((entry) => [entry.status, entry.chargeId, entry.errorCode])).toEqual([
        [200, charge.chargeId, undefined],
        [404, charge.chargeId, 'SLIP_NOT_FOUND'],
      ]);
      expect(JSON.stringify(slipLogs, (_key, value: unknown) => (value instanceof Error ? value.message : value))).not.toContain(raw);
    });
  });

  describe('with the slip of another charge', () => {
    it('answers 409 SLIP_MISMATCH saying the other payment is paid, without naming it, and leaves both charges as they were', async () => {
      setUp();
      const mine = await qrCharge('cart-1');
      const theirs = await qrCharge('cart-2');
      const theirSlip = await slipOf(theirs.chargeId);
      expect((await sendSlip(theirs.chargeId, theirs.statusToken, { raw: theirSlip })).status).toBe(200);
      await sandbox.webhooks.idle();
      const theirsBefore = await service.getCharge(theirs.chargeId);
      const webhooksBefore = sandbox.webhooks.list().length;

      const answer = await sendSlip(mine.chargeId, mine.statusToken, { raw: theirSlip });

      expect(answer.status).toBe(409);
      const message = 'This slip is for another payment, which is already paid: it does not pay this one.';
      expect(answer.body).toEqual({
        code: 409,
        message,
        error: { errorCode: 'SLIP_MISMATCH', errorMessage: message, retryable: false },
        slipPayment: 'another',
        slipPaymentStatus: 'SUCCEEDED',
      });
      expect(answer.text).not.toContain(theirs.chargeId);
      expect(answer.text).not.toMatch(/amount|referenceId/);
      expect((await service.getCharge(mine.chargeId)).status).toBe('PENDING');
      expect((await status(mine.chargeId, mine.statusToken)).body.status).toBe('PENDING');
      expect(await service.getCharge(theirs.chargeId)).toEqual(theirsBefore);
      await sandbox.webhooks.idle();
      expect(sandbox.webhooks.list()).toHaveLength(webhooksBefore);
    });

    it('lets the charge the transfer really paid succeed, and its own shopper hear it, while this one stays PENDING', async () => {
      setUp({ statusPollIntervalMs: 60_000 }, { webhook: {} });
      const mine = await qrCharge('cart-1');
      const theirs = await qrCharge('cart-2');
      const readsBefore = serviceReadsOf(harness, theirs.chargeId);
      const theirWait = status(theirs.chargeId, theirs.statusToken, '?wait=20');
      await longPollListening(harness, theirs.chargeId, readsBefore);

      const answer = await sendSlip(mine.chargeId, mine.statusToken, { raw: await slipOf(theirs.chargeId) });

      expect(answer.body.error.errorCode).toBe('SLIP_MISMATCH');
      expect((await theirWait).body.status).toBe('SUCCEEDED');
      expect((await service.getCharge(theirs.chargeId)).status).toBe('SUCCEEDED');
      expect((await service.getCharge(mine.chargeId)).status).toBe('PENDING');
      expect((await status(mine.chargeId, mine.statusToken)).body.status).toBe('PENDING');
    });
  });

  describe('with text that is no slip of this merchant', () => {
    it.each([
      ['text that is no slip QR', 'hello'],
      ['the payment QR instead of the slip', 'payment-qr'],
      ['a slip with a wrong checksum', 'crc'],
      ['a well-formed slip of a transfer nobody made', 'unknown'],
    ])('answers 404 SLIP_NOT_FOUND for %s, and the charge stays PENDING', async (_, kind) => {
      setUp();
      const charge = await qrCharge();
      const slip = await slipOf(charge.chargeId);
      const raw =
        kind === 'payment-qr'
          ? charge.rawData
          : kind === 'crc'
            ? slip.slice(0, -4) + (slip.endsWith('0000') ? '1111' : '0000')
            : kind === 'unknown'
              ? buildSlipQrPayload({ sendingBankCode: '004', transactionRef: '20250101ABCDEFGHIJKL' })
              : kind;

      const answer = await sendSlip(charge.chargeId, charge.statusToken, { raw });

      expect(answer.status, answer.text).toBe(404);
      expect(answer.body.error).toEqual({ errorCode: 'SLIP_NOT_FOUND', errorMessage: 'This slip does not match a payment.', retryable: false });
      expect((await service.getCharge(charge.chargeId)).status).toBe('PENDING');
    });
  });

  describe('with a bad body', () => {
    it.each([
      ['no raw', {}, 'raw'],
      ['an empty raw', { raw: '' }, 'raw'],
      ['a raw that is not text', { raw: 12345 }, 'raw'],
      ['a raw over 2048 characters', { raw: 'A'.repeat(2049) }, 'raw'],
      ['an array', ['x'], undefined],
    ])('answers 400 INVALID_REQUEST for %s', async (_, body, field) => {
      setUp();
      const charge = await qrCharge();
      const answer = await sendSlip(charge.chargeId, charge.statusToken, body);
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.error.errorCode).toBe('INVALID_REQUEST');
      if (field) expect(answer.body.error.field).toBe(field);
      expect((await service.getCharge(charge.chargeId)).status).toBe('PENDING');
    });

    it('wants JSON: 400 for broken JSON, 415 for another type, 413 past 16 KiB', async () => {
      setUp();
      const charge = await qrCharge();
      const headers = { 'X-Satang-Status-Token': charge.statusToken };
      const broken = await call('POST', `/charges/${charge.chargeId}/slip`, { raw: '{"raw":', headers: { ...headers, 'content-type': 'application/json' } });
      expect([broken.status, broken.body.error.errorCode]).toEqual([400, 'INVALID_REQUEST']);
      const form = await call('POST', `/charges/${charge.chargeId}/slip`, { raw: 'raw=x', headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' } });
      expect([form.status, form.body.error.errorCode]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
      const large = await sendSlip(charge.chargeId, charge.statusToken, { raw: 'x', padding: 'y'.repeat(17 * 1024) });
      expect([large.status, large.body.error.errorCode]).toEqual([413, 'BODY_TOO_LARGE']);
    });

    it('answers 405 to anything but POST', async () => {
      setUp();
      const charge = await qrCharge();
      const answer = await call('GET', `/charges/${charge.chargeId}/slip`, { headers: { 'X-Satang-Status-Token': charge.statusToken } });
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('POST');
    });
  });

  describe('without the charge’s status token', () => {
    it('answers 403 to a missing, forged or another charge’s token, before reading the body or calling the service', async () => {
      setUp();
      const charge = await qrCharge('cart-1');
      const other = await qrCharge('cart-2');
      const raw = await slipOf(charge.chargeId);
      for (const token of [undefined, '', 'x', 'A'.repeat(43), other.statusToken]) {
        const answer = await sendSlip(charge.chargeId, token, { raw });
        expect(answer.status, String(token)).toBe(403);
        expect(answer.body.error.errorCode).toBe('INVALID_STATUS_TOKEN');
      }
      // Not in the address either: a token in a URL ends up in logs.
      const inQuery = await call('POST', `/charges/${charge.chargeId}/slip?token=${charge.statusToken}`, { body: { raw } });
      expect(inQuery.status).toBe(403);
      const badBody = await sendSlip(charge.chargeId, 'x', { nope: true });
      expect(badBody.status).toBe(403);
      expect((await service.getCharge(charge.chargeId)).status).toBe('PENDING');
    });

    it('answers 403 STATUS_TOKEN_EXPIRED to the charge’s own token once it expired, sending the service nothing', async () => {
      setUp({ statusTokenTtlMs: 60_000 });
      const charge = await qrCharge('cart-1');
      const raw = await slipOf(charge.chargeId);
      vi.useFakeTimers({ toFake: ['Date'], now: Number(charge.statusToken.split('.')[1]) });
      try {
        const answer = await sendSlip(charge.chargeId, charge.statusToken, { raw });
        expect([answer.status, answer.body.error.errorCode]).toEqual([403, 'STATUS_TOKEN_EXPIRED']);
      } finally {
        vi.useRealTimers();
      }
      expect((await service.getCharge(charge.chargeId)).status).toBe('PENDING');
    });

    it('refuses the token of a card authorization: those are never paid by transfer', async () => {
      setUp();
      const cardTokenId = await service.tokenize('4111111111111111');
      const reserved = await call('POST', '/charges', { body: { orderReference: 'pre-order', intent: 'authorize', paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '123' } } });
      expect(reserved.status).toBe(201);
      const answer = await sendSlip(reserved.body.chargeId, reserved.body.statusToken, { raw: 'anything' });
      expect(answer.status).toBe(403);
      expect(answer.body.error.errorCode).toBe('INVALID_STATUS_TOKEN');
    });
  });

  describe('rate limits', () => {
    it('limits each client to its share of slip checks per minute, apart from its charges', async () => {
      // In process there is no socket: the shop names its clients, as on a runtime without the Node adapter.
      setUp({ rateLimit: { chargesPerWindow: 3 }, getClientId: (request) => request.headers.get('x-test-client') ?? undefined });
      const charge = await qrCharge();
      const from = (address: string) => sendSlip(charge.chargeId, charge.statusToken, { raw: 'not a slip' }, { 'x-test-client': address });
      for (let i = 0; i < 3; i += 1) expect((await from('10.0.0.1')).status).toBe(404);
      const limited = await from('10.0.0.1');
      expect(limited.status).toBe(429);
      expect(limited.body.error).toMatchObject({ errorCode: 'RATE_LIMITED', retryable: true });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await from('10.0.0.2')).status).toBe(404);
    });
  });
});
