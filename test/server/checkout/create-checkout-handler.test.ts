import { afterEach, describe, expect, it, vi } from 'vitest';
import { SERVICE_HEADERS } from '../../../src/core/constants.js';
import { CheckoutChargeResponseSchema, CheckoutStatusResponseSchema } from '../../../src/core/schemas/checkout.js';
import type { WebhookEvent } from '../../../src/core/schemas/webhook-events.js';
import { generateTestWebhookHeaders } from '../../../src/core/webhook-signature.js';
import { Sandbox, type SandboxOptions } from '../../../src/sandbox/index.js';
import {
  ConfigurationError,
  createCheckoutHandler,
  type CheckoutHandlerOptions,
  type CheckoutLogEntry,
  type ResolvedOrder,
} from '../../../src/server/index.js';
import { BASE, createCheckoutHarness, longPollListening, SERVICE, serviceReadsOf, SHOP, SHOPPER_ADDRESS, WEBHOOK_KEY, type CheckoutHarness } from '../../support/checkout-harness.js';
import type { SandboxClient } from '../../support/sandbox-client.js';

const ORDERS: Record<string, ResolvedOrder> = {
  'cart-1': { amount: 12_345, currency: 'THB', referenceId: 'order-1001' },
  'cart-big': { amount: 600_000, currency: 'THB', referenceId: 'order-1002' },
  'pre-order': { amount: 45_000, currency: 'THB', referenceId: 'order-1003', intent: 'authorize' },
  'pre-order-2': { amount: 45_000, currency: 'THB', referenceId: 'order-1004', intent: 'authorize' },
  'cart-2': { amount: 12_345, currency: 'THB', referenceId: 'order-1005' },
};

let sandbox: Sandbox;
let service: SandboxClient;
let events: WebhookEvent[];
let logs: CheckoutLogEntry[];
let harness: CheckoutHarness;

function setUp(options: Partial<CheckoutHandlerOptions> = {}, sandboxOptions: SandboxOptions = {}, serviceFetch?: (request: Request) => Promise<Response>) {
  harness = createCheckoutHarness(ORDERS, options, sandboxOptions, serviceFetch);
  ({ sandbox, service, events, logs } = harness);
}

// Unset when a test failed before it started one.
afterEach(() => (sandbox as Sandbox | undefined)?.close());

const call = (...args: Parameters<CheckoutHarness['call']>) => harness.call(...args);

async function payByCard(pan: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const cardTokenId = await service.tokenize(pan);
  return call('POST', '/charges', {
    body: { orderReference: 'cart-1', paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '987' }, ...extra },
    headers,
  });
}

const status = (chargeId: string, token: string, query = '') =>
  call('GET', `/charges/${chargeId}/status${query}`, { headers: { 'X-Satang-Status-Token': token } });

describe('createCheckoutHandler', () => {
  describe('POST /charges with a card token', () => {
    it('charges the amount the server resolved, and answers the next action with a status token', async () => {
      setUp();
      const answer = await payByCard('4111111111111111');
      expect(answer.status).toBe(201);
      const body = CheckoutChargeResponseSchema.parse(answer.body);
      expect(body.actionRequired).toBe('NONE');
      const charge = await service.getCharge(body.chargeId);
      expect(charge).toMatchObject({ amount: 12_345, currency: 'THB', referenceId: 'order-1001', status: 'SUCCEEDED' });
      const read = await status(body.chargeId, body.statusToken);
      expect(CheckoutStatusResponseSchema.parse(read.body)).toEqual({ chargeId: body.chargeId, status: 'SUCCEEDED', failureCode: null, outcome: 'paid' });
    });

    it('answers a retry of an attempt with its first answer, even once the order is paid and no longer for sale', async () => {
      const paid = new Set<string>();
      setUp({
        resolveOrder: (reference) => (paid.has(reference) ? null : (ORDERS[reference] ?? null)),
        onEvent: (event) => {
          if (event.name === 'charge.succeeded') paid.add('cart-1');
        },
      });
      const attempt = { orderReference: 'cart-1', paymentMethod: { type: 'CARD_TOKEN', cardTokenId: await service.tokenize('4111111111111111'), securityCode: '987' } };
      const first = await call('POST', '/charges', { body: attempt, headers: { 'Idempotency-Key': 'attempt-1' } });
      expect(first.status).toBe(201);
      await vi.waitFor(() => expect(paid.has('cart-1')).toBe(true));
      // The browser never saw the first answer and sends the same attempt again.
      const again = await call('POST', '/charges', { body: attempt, headers: { 'Idempotency-Key': 'attempt-1' } });
      expect(again.status).toBe(201);
      expect(again.body.chargeId).toBe(first.body.chargeId);
      // A new attempt for the paid order is refused: it is paid, not missing.
      const fresh = await payByCard('4111111111111111', {}, { 'Idempotency-Key': 'attempt-2' });
      expect([fresh.status, fresh.body.error.errorCode]).toEqual([409, 'ORDER_ALREADY_PAID']);
      expect((await service.get('/api/v1/charges?referenceId=order-1001')).body.totalCount).toBe(1);
    });

    it('charges nothing without an Idempotency-Key, and says that one is needed per attempt', async () => {
      setUp();
      const cardTokenId = await service.tokenize('4111111111111111');
      for (const headers of [{ 'Idempotency-Key': '' }, { 'Idempotency-Key': 'é'.repeat(3) }, {}] as Record<string, string>[]) {
        const answer = await harness.handler(
          new Request(`${BASE}/charges`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-satang-order-token': await harness.handler.orderToken('cart-1'), ...headers },
            body: JSON.stringify({ orderReference: 'cart-1', amount: 12_345, currency: 'THB', paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '123' } }),
          }),
          { clientAddress: SHOPPER_ADDRESS },
        );
        const body = (await answer.json()) as { message: string; error: { errorCode: string; field: string } };
        expect([answer.status, body.error.errorCode, body.error.field], JSON.stringify(headers)).toEqual([400, 'INVALID_REQUEST', 'Idempotency-Key']);
        if (!('Idempotency-Key' in headers)) expect(body.message).toContain('is required');
      }
      expect(sandbox.store.charges.size).toBe(0);
    });

    it('charges nothing when the amount the shopper saw is not the server\'s: 409 AMOUNT_CHANGED with the server\'s amount', async () => {
      setUp();
      for (const shown of [{ amount: 100 }, { amount: 12_345, currency: 'USD' }, { amount: undefined }]) {
        const answer = await payByCard('4111111111111111', shown);
        expect(answer.status, JSON.stringify(shown)).toBe(409);
        expect(answer.body).toMatchObject({ amount: 12_345, currency: 'THB', error: { errorCode: 'AMOUNT_CHANGED', field: 'amount', retryable: false } });
        expect(answer.body.message).toContain('123.45');
      }
      expect(sandbox.store.charges.size).toBe(0);
      // The shopper confirms the total they were shown: that is what is charged.
      const confirmed = await payByCard('4111111111111111', { amount: 12_345, currency: 'THB' });
      expect(confirmed.status).toBe(201);
      expect((await service.getCharge(confirmed.body.chargeId)).amount).toBe(12_345);
    });

    it('refuses a non-integer or negative amount as invalid, not as a new price', async () => {
      setUp();
      for (const amount of [123.45, -1, '12345']) {
        const answer = await payByCard('4111111111111111', { amount });
        expect([answer.status, answer.body.error.errorCode, answer.body.error.field], String(amount)).toEqual([400, 'INVALID_REQUEST', 'amount']);
      }
    });

    it('reports a declined card through the status, not as an HTTP error', async () => {
      setUp();
      const answer = await payByCard('4943129900084541');
      expect(answer.status).toBe(201);
      expect((await status(answer.body.chargeId, answer.body.statusToken)).body).toMatchObject({ status: 'FAILED', failureCode: 'CH_INSUFFICIENT_FUNDS' });
    });

    it('never echoes or logs the CVC', async () => {
      setUp();
      const ok = await payByCard('4111111111111111');
      const bad = await call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'CARD_TOKEN', cardTokenId: 'ctk_x', securityCode: '98x7' } } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.field).toBe('paymentMethod.securityCode');
      // As a value of its own: the random ids in the answer may carry the digits 987 by chance.
      for (const text of [ok.text, bad.text, JSON.stringify(logs)]) {
        expect(text).not.toMatch(/(?<![\w.-])987(?![\w-])/);
        expect(text).not.toContain('98x7');
      }
    });

    it('answers 404 ORDER_NOT_FOUND for an order the server does not know, creating nothing', async () => {
      setUp();
      const answer = await call('POST', '/charges', { body: { orderReference: 'cart-404', paymentMethod: { type: 'QR_PROMPT_PAY' } } });
      expect(answer.status).toBe(404);
      expect(answer.body.error.errorCode).toBe('ORDER_NOT_FOUND');
      expect(sandbox.store.charges.size).toBe(0);
    });

    it('answers a retryable 500 when resolveOrder throws, without its message', async () => {
      setUp({
        resolveOrder: () => {
          throw new Error('database password is hunter2');
        },
      });
      const answer = await call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'QR_PROMPT_PAY' } } });
      expect(answer.status).toBe(500);
      expect(answer.body.error).toMatchObject({ errorCode: 'INTERNAL_ERROR', retryable: true });
      expect(answer.text).not.toContain('hunter2');
      expect(sandbox.store.charges.size).toBe(0);
    });

    it('answers 409 ORDER_ALREADY_PAID, charging nothing, for an order resolveOrder says a payment paid', async () => {
      setUp({ resolveOrder: () => ({ paidBy: 'ch_paid' }) });
      for (const paymentMethod of [{ type: 'QR_PROMPT_PAY' }, { type: 'CARD_TOKEN', cardTokenId: 'ctk_x', securityCode: '123' }]) {
        const answer = await call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod } });
        expect([answer.status, answer.body.error.errorCode], paymentMethod.type).toEqual([409, 'ORDER_ALREADY_PAID']);
        // Nothing about the order beyond that: no amount, no payment.
        expect(answer.text).not.toContain('ch_paid');
        expect(answer.body.amount).toBeUndefined();
      }
      expect(sandbox.store.charges.size).toBe(0);
    });

    it('answers a new attempt 409 ORDER_ALREADY_PAID once the shop names a payer, even for an order whose earlier payment the record keeps, while a retry of that payment still learns its charge', async () => {
      const shop: { paidBy?: string } = {};
      setUp({ resolveOrder: (reference) => (reference !== 'cart-1' ? null : shop.paidBy ? { paidBy: shop.paidBy } : { amount: 12_345, currency: 'THB', referenceId: 'order-1' }) });
      const qr = { orderReference: 'cart-1', amount: 12_345, currency: 'THB', paymentMethod: { type: 'QR_PROMPT_PAY' } };
      const first = await call('POST', '/charges', { body: qr, headers: { 'Idempotency-Key': 'attempt-1' } });
      expect(first.status).toBe(201);
      // Paid elsewhere (the shop's own word), with this QR still open and unpaid.
      shop.paidBy = 'ch_paid_elsewhere';
      const next = await call('POST', '/charges', { body: qr, headers: { 'Idempotency-Key': 'attempt-2' } });
      expect([next.status, next.body.error.errorCode]).toEqual([409, 'ORDER_ALREADY_PAID']);
      const retry = await call('POST', '/charges', { body: qr, headers: { 'Idempotency-Key': 'attempt-1' } });
      expect([retry.status, retry.body.chargeId]).toEqual([201, first.body.chargeId]);
      expect(sandbox.store.charges.size).toBe(1);
    });

    it('refuses a payer resolveOrder names wrongly, as its own error', async () => {
      for (const paidBy of ['', 42, 'x'.repeat(256), null]) {
        setUp({ resolveOrder: () => ({ paidBy }) as never });
        const answer = await call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'QR_PROMPT_PAY' } } });
        expect(answer.status, String(paidBy)).toBe(500);
        expect((logs.at(-1)?.error as Error).message).toContain('paidBy');
      }
      expect(sandbox.store.charges.size).toBe(0);
    });

    it('tells the server\'s console of a 500 when no log is set, with its cause, and the shopper nothing of it', async () => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        setUp({
          log: undefined,
          resolveOrder: () => {
            throw new Error('database password is hunter2');
          },
        });
        const answer = await call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'QR_PROMPT_PAY' } } });
        expect(answer.status).toBe(500);
        expect(answer.text).not.toContain('hunter2');
        const told = logged.mock.calls.filter(([text]) => text === 'satang checkout: INTERNAL_ERROR');
        expect(told).toHaveLength(1);
        expect((told[0]![1] as Error).message).toBe('database password is hunter2');
      } finally {
        logged.mockRestore();
      }
    });

    it('refuses an order priced wrongly by resolveOrder', async () => {
      setUp({ resolveOrder: () => ({ amount: 12.5, currency: 'THB', referenceId: 'x' }) });
      const answer = await call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'QR_PROMPT_PAY' } } });
      expect(answer.status).toBe(500);
      expect(logs.at(-1)?.error).toBeInstanceOf(ConfigurationError);
    });
  });

  describe('card data in the body', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['a pan field in the payment method', { paymentMethod: { type: 'CARD_TOKEN', pan: '4111111111111111' } }, 'paymentMethod.pan'],
      ['a cardNumber field at the top', { cardNumber: '4111 1111 1111 1111', paymentMethod: { type: 'QR_PROMPT_PAY' } }, 'cardNumber'],
      ['an expiry month', { paymentMethod: { type: 'CARD_TOKEN', expiryMonth: 12 } }, 'paymentMethod.expiryMonth'],
      ['a card number hidden in another field', { paymentMethod: { type: 'QR_PROMPT_PAY' }, customer: { email: '4111111111111111' } }, 'customer.email'],
      ['a card number as a number', { paymentMethod: { type: 'QR_PROMPT_PAY' }, note: 4111111111111111 }, 'note'],
      ['a card number where the card token goes', { paymentMethod: { type: 'CARD_TOKEN', cardTokenId: '4111111111111111', securityCode: '123' } }, 'paymentMethod.cardTokenId'],
    ];
    for (const [what, body, field] of cases) {
      it(`refuses ${what} with 400 CARD_DATA_REFUSED naming ${field}`, async () => {
        setUp();
        const answer = await call('POST', '/charges', { body: { orderReference: 'cart-1', ...body } });
        expect(answer.status).toBe(400);
        expect(answer.body.error).toMatchObject({ errorCode: 'CARD_DATA_REFUSED', field });
        expect(answer.text).not.toMatch(/(?<![\w.-])4111/);
        expect(sandbox.store.charges.size).toBe(0);
      });
    }

    it('does not mistake a long numeric order reference or a phone number for a card', async () => {
      setUp({ resolveOrder: () => ({ amount: 1_000, currency: 'THB', referenceId: 'r' }) });
      const answer = await call('POST', '/charges', {
        body: { orderReference: '4111111111111111', amount: 1_000, currency: 'THB', paymentMethod: { type: 'QR_PROMPT_PAY' }, customer: { primaryPhone: { countryCode: '66', number: '812345678' } } },
      });
      expect(answer.status).toBe(201);
    });
  });

  describe('the payment method', () => {
    it('refuses fields beyond type, token, CVC and installment period', async () => {
      setUp();
      const answer = await call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'QR_PROMPT_PAY', amount: 1 } } });
      expect(answer.status).toBe(400);
      expect(answer.body.error.errorCode).toBe('INVALID_REQUEST');
      expect(answer.body.message).toContain('paymentMethod has unknown field(s) amount');
    });

    it('needs the token and CVC for a card, and refuses them for other methods', async () => {
      setUp();
      const noCvc = await call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'CARD_TOKEN', cardTokenId: 'ctk_1' } } });
      expect(noCvc.body.error.field).toBe('paymentMethod.securityCode');
      const stray = await call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'ALIPAY', securityCode: '123' } } });
      expect(stray.body.error.field).toBe('paymentMethod.securityCode');
    });

    it('refuses a method the shop does not offer', async () => {
      setUp({ paymentMethods: ['QR_PROMPT_PAY'] });
      const answer = await call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'ALIPAY' } } });
      expect(answer.status).toBe(400);
      expect(answer.body.error.errorCode).toBe('PAYMENT_METHOD_NOT_ALLOWED');
    });

    it('answers ENCODED_IMAGE with the QR for PromptPay', async () => {
      setUp();
      const answer = await call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'QR_PROMPT_PAY' } } });
      expect(answer.body.actionRequired).toBe('ENCODED_IMAGE');
      expect(answer.body.encodedImage.rawData).toMatch(/^000201/);
      expect(answer.body.encodedImage.imageBase64Encoded.length).toBeGreaterThan(100);
    });

    it('passes installments through and words the service refusal for a shopper', async () => {
      setUp();
      const cardTokenId = await service.tokenize('4417704002802961');
      const tooSmall = await call('POST', '/charges', {
        body: { orderReference: 'cart-1', paymentMethod: { type: 'CARD_TOKEN_INSTALLMENTS', cardTokenId, securityCode: '123', installmentPeriod: 3 } },
      });
      expect(tooSmall.status).toBe(400);
      expect(tooSmall.body.error).toMatchObject({ errorCode: 'PAYMENT_DETAILS_REJECTED', field: 'paymentMethod.cardTokenInstallments.installmentPeriod' });
      expect(tooSmall.body.message).toBe('This installment plan is not available for this amount.');
      const fresh = await service.tokenize('4417704002802961');
      const ok = await call('POST', '/charges', {
        body: { orderReference: 'cart-big', paymentMethod: { type: 'CARD_TOKEN_INSTALLMENTS', cardTokenId: fresh, securityCode: '123', installmentPeriod: 6 } },
      });
      expect(ok.status).toBe(201);
    });

    it('says a banking app needs a phone when deviceType is missing', async () => {
      setUp();
      const answer = await call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'BANGKOK_BANK_APP' } } });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe('This banking app can only be used on a phone.');
      const onPhone = await call('POST', '/charges', { body: { orderReference: 'cart-1', deviceType: 'ANDROID', paymentMethod: { type: 'BANGKOK_BANK_APP' } } });
      expect(onPhone.body.actionRequired).toBe('REDIRECT');
    });

    it('only lets returnUrl lead back to this shop', async () => {
      setUp({ returnUrlOrigins: ['https://pay.shop.example'] });
      const body = (returnUrl: string) => ({ orderReference: 'cart-1', returnUrl, paymentMethod: { type: 'TRUE_MONEY' } });
      const refused = await call('POST', '/charges', { body: body('https://evil.example/steal') });
      expect(refused.body.error.errorCode).toBe('INVALID_RETURN_URL');
      // It names what was refused and what the shop takes, for the developer who set publicUrl wrong.
      expect(refused.body.message).toContain(`https://evil.example is not ${SHOP}`);
      expect(refused.body.message).toContain('returnUrls.origins');
      expect((await call('POST', '/charges', { body: body(`${SHOP}/thanks`) })).status).toBe(201);
      expect((await call('POST', '/charges', { body: body('https://pay.shop.example/thanks') })).status).toBe(201);
    });
  });

  describe('double submits', () => {
    it('make exactly one charge from 50 identical submits sent at once', async () => {
      setUp({ rateLimit: false });
      const cardTokenId = await service.tokenize('4111111111111111');
      const submit = () =>
        call('POST', '/charges', {
          body: { orderReference: 'cart-1', paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '123' } },
          headers: { 'Idempotency-Key': 'attempt-1' },
        });
      const answers = await Promise.all(Array.from({ length: 50 }, submit));
      expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201));
      expect(new Set(answers.map((a) => a.body.chargeId)).size).toBe(1);
      expect(sandbox.store.charges.size).toBe(1);
      const later = await submit();
      expect(later.body.chargeId).toBe(answers[0]!.body.chargeId);
      expect(sandbox.store.charges.size).toBe(1);
    });

    it('still make the charge for the submit that stays when the first one goes away mid-call', async () => {
      // The service's answer to the charge creation is held until both submits wait on it.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let creations = 0;
      setUp({ rateLimit: false }, {}, async (request) => {
        if (request.method === 'POST' && new URL(request.url).pathname === '/api/v1/charges') {
          creations += 1;
          await held;
        }
        return sandbox.fetch(request);
      });
      const body = JSON.stringify({ orderReference: 'cart-1', amount: 12_345, currency: 'THB', paymentMethod: { type: 'QR_PROMPT_PAY' } });
      const headers = { 'content-type': 'application/json', 'idempotency-key': 'attempt-1', 'x-satang-order-token': await harness.handler.orderToken('cart-1') };
      const leaving = new AbortController();
      const left = harness.handler(new Request(`${SHOP}/api/checkout/charges`, { method: 'POST', headers, body, signal: leaving.signal })).catch((error: unknown) => error);
      await vi.waitFor(() => expect(creations).toBe(1), { timeout: 10_000 });
      const staying = call('POST', '/charges', { raw: body, headers });
      leaving.abort();
      release();
      await left;
      const answer = await staying;
      expect(answer.status).toBe(201);
      expect(answer.body.actionRequired).toBe('ENCODED_IMAGE');
      expect(sandbox.store.charges.size).toBe(1);
      expect(creations).toBe(1);
    });

    it('make two charges for two attempts with different keys on two orders', async () => {
      setUp();
      await call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'QR_PROMPT_PAY' } }, headers: { 'Idempotency-Key': 'a' } });
      await call('POST', '/charges', { body: { orderReference: 'cart-2', paymentMethod: { type: 'QR_PROMPT_PAY' } }, headers: { 'Idempotency-Key': 'b' } });
      expect(sandbox.store.charges.size).toBe(2);
    });
  });

  describe('GET /charges/:id/status', () => {
    it('refuses a missing, forged or foreign status token', async () => {
      setUp();
      const a = await payByCard('4111111111111111');
      const b = await payByCard('4111111111111111', { orderReference: 'cart-2' });
      for (const token of ['', 'x', 'A'.repeat(43), b.body.statusToken]) {
        const answer = await status(a.body.chargeId, token);
        expect(answer.status, token).toBe(403);
        expect(answer.body.error.errorCode).toBe('INVALID_STATUS_TOKEN');
      }
      expect((await call('GET', `/charges/${a.body.chargeId}/status`)).status).toBe(403);
      expect((await status(a.body.chargeId, a.body.statusToken)).status).toBe(200);
    });

    it('reads the token from the header only: one in the address is ignored', async () => {
      setUp();
      const a = await payByCard('4111111111111111');
      const inQuery = await call('GET', `/charges/${a.body.chargeId}/status?token=${encodeURIComponent(a.body.statusToken)}`);
      expect([inQuery.status, inQuery.body.error.errorCode]).toEqual([403, 'INVALID_STATUS_TOKEN']);
    });

    it('opens only the payment it was issued with, not one of another order', async () => {
      setUp();
      const mine = await payByCard('4111111111111111');
      const cardTokenId = await service.tokenize('4111111111111111');
      const theirs = await call('POST', '/charges', { body: { orderReference: 'cart-big', paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '987' } } });
      expect(theirs.status).toBe(201);
      for (const [id, token] of [[theirs.body.chargeId, mine.body.statusToken], [mine.body.chargeId, theirs.body.statusToken]]) {
        const answer = await status(id, token);
        expect([answer.status, answer.body.error.errorCode]).toEqual([403, 'INVALID_STATUS_TOKEN']);
      }
      expect((await status(theirs.body.chargeId, theirs.body.statusToken)).status).toBe(200);
    });

    describe('once the token is older than statusTokenTtlMs', () => {
      afterEach(() => vi.useRealTimers());

      it('answers 403 STATUS_TOKEN_EXPIRED asking to reload; a moved expiry is a forged token', async () => {
        setUp({ statusTokenTtlMs: 60_000 });
        const created = await call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'QR_PROMPT_PAY' } } });
        const { chargeId, statusToken } = created.body as { chargeId: string; statusToken: string };
        expect((await status(chargeId, statusToken)).body.status).toBe('PENDING');
        const expiry = Number(statusToken.split('.')[1]);
        vi.useFakeTimers({ toFake: ['Date'], now: expiry });
        const expired = await status(chargeId, statusToken);
        expect(expired.status).toBe(403);
        expect(expired.body.error).toMatchObject({ errorCode: 'STATUS_TOKEN_EXPIRED', errorMessage: 'This payment page has expired. Please reload the page.' });
        const extended = statusToken.replace(`.${expiry}.`, `.${expiry + 3_600_000}.`);
        expect((await status(chargeId, extended)).body.error.errorCode).toBe('INVALID_STATUS_TOKEN');
        // Expired is said only of a genuine token for this payment.
        const other = await call('POST', '/charges', { body: { orderReference: 'cart-2', paymentMethod: { type: 'QR_PROMPT_PAY' } } });
        expect((await status(other.body.chargeId, statusToken)).body.error.errorCode).toBe('INVALID_STATUS_TOKEN');
        expect((await status(other.body.chargeId, other.body.statusToken)).body.status).toBe('PENDING');
      });
    });

    it('holds a long-poll until a verified webhook says the charge succeeded', async () => {
      setUp({ statusPollIntervalMs: 60_000 });
      const created = await payByCard('4953261730509988', { returnUrl: `${SHOP}/return` });
      expect(created.body.actionRequired).toBe('REDIRECT');
      const started = Date.now();
      const readsBefore = serviceReadsOf(harness, created.body.chargeId);
      const waiting = status(created.body.chargeId, created.body.statusToken, '?wait=20');
      await longPollListening(harness, created.body.chargeId, readsBefore);
      await service.submitPage(created.body.redirect.redirectUrl, { otp: '123456' });
      const answer = await waiting;
      expect(answer.body.status).toBe('SUCCEEDED');
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('polls the service when no webhook reaches it', async () => {
      setUp({ statusPollIntervalMs: 20 }, { webhook: {} });
      const created = await payByCard('4389783280144506');
      const readsBefore = serviceReadsOf(harness, created.body.chargeId);
      const waiting = status(created.body.chargeId, created.body.statusToken, '?wait=10');
      await longPollListening(harness, created.body.chargeId, readsBefore);
      await service.submitPage(created.body.redirect.redirectUrl, { outcome: 'fail' });
      expect((await waiting).body).toMatchObject({ status: 'FAILED', failureCode: 'CH_PROCESSING_FAILED' });
    });

    it('answers PENDING when the wait ends with nothing new', async () => {
      setUp({ statusPollIntervalMs: 20 });
      const created = await call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'QR_PROMPT_PAY' } } });
      const answer = await status(created.body.chargeId, created.body.statusToken, '?wait=1');
      expect(answer.body).toEqual({ chargeId: created.body.chargeId, status: 'PENDING', failureCode: null });
    });

    it('refuses a wait outside 0 to 30 seconds', async () => {
      setUp();
      const created = await payByCard('4111111111111111');
      for (const wait of ['31', '-1', 'x', '1.5']) {
        expect((await status(created.body.chargeId, created.body.statusToken, `?wait=${wait}`)).status, wait).toBe(400);
      }
    });
  });

  describe('the authorize intent', () => {
    const reserve = async (pan: string, orderReference = 'pre-order', intent: string | null = 'authorize') => {
      const cardTokenId = await service.tokenize(pan);
      return call('POST', '/charges', { body: { orderReference, paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '123' }, ...(intent !== null ? { intent } : {}) } });
    };

    it('reserves the order on the card without charging it, and reads SUCCEEDED once authorized', async () => {
      setUp();
      const created = await reserve('4111111111111111');
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ intent: 'authorize', actionRequired: 'NONE' });
      const id = created.body.chargeId as string;
      const authorization = await service.request('GET', `/api/v1/card-authorizations/${id}`);
      expect(authorization.body).toMatchObject({ status: 'AUTHORIZED', amount: 45_000, referenceId: 'order-1003' });
      expect((await service.request('GET', '/api/v1/charges?referenceId=order-1003')).body.totalCount).toBe(0);
      const read = await status(id, created.body.statusToken);
      expect(read.status).toBe(200);
      expect(CheckoutStatusResponseSchema.parse(read.body)).toMatchObject({ chargeId: id, status: 'SUCCEEDED', authorizationStatus: 'AUTHORIZED', failureCode: null });
    });

    it('follows a 3-D Secure authorization: REDIRECT, then the webhook wakes the long-poll', async () => {
      setUp({}, {}, undefined);
      const created = await reserve('4953261730509988');
      expect(created.body).toMatchObject({ actionRequired: 'REDIRECT', intent: 'authorize' });
      const waiting = status(created.body.chargeId, created.body.statusToken, '?wait=10');
      const page = new URL(created.body.redirect.redirectUrl);
      const otp = await sandbox.fetch(new Request(page, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'otp=123456' }));
      expect(otp.status).toBeLessThan(400);
      const read = await waiting;
      expect(read.body).toMatchObject({ status: 'SUCCEEDED', authorizationStatus: 'AUTHORIZED' });
      await vi.waitFor(() => expect(events.map((e) => e.name)).toContain('card_authorization.authorized'));
    });

    it('reads a declined card as FAILED with its failure code', async () => {
      setUp();
      const created = await reserve('4943129900084541');
      const read = await status(created.body.chargeId, created.body.statusToken);
      expect(read.body).toMatchObject({ status: 'FAILED', failureCode: 'CH_INSUFFICIENT_FUNDS', authorizationStatus: 'FAILED' });
    });

    it('refuses an intent that is not the order\'s, either way, before anything is created', async () => {
      setUp();
      const charged = await reserve('4111111111111111', 'cart-1', 'authorize');
      expect(charged.status).toBe(400);
      expect(charged.body.error).toMatchObject({ errorCode: 'INTENT_MISMATCH', field: 'intent' });
      for (const intent of ['charge', null]) {
        const reserved = await reserve('4111111111111111', 'pre-order', intent);
        expect(reserved.status, String(intent)).toBe(400);
        expect(reserved.body.error.errorCode).toBe('INTENT_MISMATCH');
      }
      expect((await service.request('GET', '/api/v1/card-authorizations')).body.totalCount).toBe(0);
      expect((await service.request('GET', '/api/v1/charges')).body.totalCount).toBe(0);
      const bad = await call('POST', '/charges', { body: { orderReference: 'pre-order', paymentMethod: { type: 'QR_PROMPT_PAY' }, intent: 'reserve' } });
      expect(bad.body.error).toMatchObject({ errorCode: 'INVALID_REQUEST', field: 'intent' });
    });

    it('authorizes cards only', async () => {
      setUp();
      const answer = await call('POST', '/charges', { body: { orderReference: 'pre-order', paymentMethod: { type: 'QR_PROMPT_PAY' }, intent: 'authorize' } });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ errorCode: 'PAYMENT_METHOD_NOT_ALLOWED', field: 'paymentMethod.type' });
    });

    it('keeps the token kinds apart: a charge token reads no authorization, and the other way round', async () => {
      setUp();
      const reserved = await reserve('4111111111111111');
      const charged = await payByCard('4111111111111111');
      expect((await status(reserved.body.chargeId, charged.body.statusToken)).status).toBe(403);
      expect((await status(charged.body.chargeId, reserved.body.statusToken)).status).toBe(403);
      expect((await status(charged.body.chargeId, charged.body.statusToken)).body.authorizationStatus).toBeUndefined();
    });

    it('captures or cancels later with the server helpers', async () => {
      setUp();
      const { captureAuthorization, cancelAuthorization, ServiceClient } = await import('../../../src/server/index.js');
      const client = new ServiceClient({ ...SERVICE, fetch: sandbox.fetch });
      const first = await reserve('4111111111111111');
      const captured = await captureAuthorization(client, first.body.chargeId);
      expect(captured.authorization).toMatchObject({ status: 'CAPTURED', capturedAmount: 45_000, capturableAmount: 0 });
      expect((await client.charges.get(captured.chargeId))).toMatchObject({ status: 'SUCCEEDED', amount: 45_000, referenceId: 'order-1003' });
      await expect(captureAuthorization(client, first.body.chargeId)).rejects.toThrow();

      const second = await reserve('4111111111111111', 'pre-order-2');
      expect(await cancelAuthorization(client, second.body.chargeId)).toMatchObject({ status: 'CANCELED' });
      // Its webhook reaches the handler: a page still following it learns the reservation is gone.
      await vi.waitFor(async () => expect((await status(second.body.chargeId, second.body.statusToken)).body).toMatchObject({ status: 'FAILED', failureCode: 'CANCELED', authorizationStatus: 'CANCELED' }));
    });
  });

  describe('POST /webhooks', () => {
    const charge = async () => {
      const created = await service.chargeCard('4111111111111111');
      return service.getCharge(created.body.chargeId);
    };
    const deliver = async (event: string, payload: unknown, headers?: Record<string, string>) => {
      const raw = JSON.stringify(payload);
      return call('POST', '/webhooks', { raw, headers: headers ?? (await generateTestWebhookHeaders(event, raw, WEBHOOK_KEY)) });
    };

    it('hands each verified event to onEvent once, typed', async () => {
      setUp({}, { webhook: {} });
      const payload = await charge();
      const first = await deliver('charge.succeeded', payload);
      expect(first.status).toBe(200);
      expect(events).toHaveLength(1);
      expect(events[0]!.name).toBe('charge.succeeded');
      const again = await deliver('charge.succeeded', payload);
      expect(again.body).toMatchObject({ duplicate: true });
      expect(events).toHaveLength(1);
    });

    it('handles a later state of the same resource, and events out of order', async () => {
      setUp({}, { webhook: {} });
      const payload = await charge();
      const transaction = (await service.get(`/api/v1/transactions/${payload.chargeId}`)).body;
      await deliver('transaction.created', transaction);
      await deliver('charge.succeeded', payload);
      await deliver('charge.succeeded', { ...payload, updatedAt: '2099-01-01T00:00:00Z' });
      expect(events.map((e) => e.name)).toEqual(['transaction.created', 'charge.succeeded', 'charge.succeeded']);
    });

    it('answers 401 to a tampered body, a wrong key or no signature, and calls nothing', async () => {
      setUp({}, { webhook: {} });
      const payload = await charge();
      const raw = JSON.stringify(payload);
      const headers = await generateTestWebhookHeaders('charge.succeeded', raw, WEBHOOK_KEY);
      expect(raw).toContain('"SUCCEEDED"');
      const tampered = await call('POST', '/webhooks', { raw: raw.replace('"SUCCEEDED"', '"FAILED"'), headers });
      const otherKey = await generateTestWebhookHeaders('charge.succeeded', raw, Buffer.alloc(32, 9).toString('base64'));
      const wrongKey = await call('POST', '/webhooks', { raw, headers: otherKey });
      const unsigned = await call('POST', '/webhooks', { raw, headers: { 'content-type': 'application/json', [SERVICE_HEADERS.event]: 'charge.succeeded' } });
      for (const answer of [tampered, wrongKey, unsigned]) {
        expect(answer.status).toBe(401);
        expect(answer.body.error.errorCode).toBe('INVALID_SIGNATURE');
      }
      expect(events).toHaveLength(0);
    });

    it('answers 500 when onEvent throws, so the retry is handled and not dropped as a duplicate', async () => {
      let fail = true;
      setUp(
        {
          onEvent: (event) => {
            if (fail) throw new Error('database down');
            events.push(event);
          },
        },
        { webhook: {} },
      );
      const payload = await charge();
      expect((await deliver('charge.succeeded', payload)).status).toBe(500);
      fail = false;
      expect((await deliver('charge.succeeded', payload)).status).toBe(200);
      expect(events).toHaveLength(1);
    });

    it('acknowledges an event name it does not know, and refuses a malformed payload', async () => {
      setUp({}, { webhook: {} });
      expect((await deliver('charge.refunded_later', { chargeId: 'ch_1' })).body).toMatchObject({ ignored: true });
      expect((await deliver('charge.succeeded', { chargeId: 'ch_1' })).status).toBe(400);
      expect(events).toHaveLength(0);
    });

    it('receives the sandbox’s own deliveries end to end', async () => {
      setUp();
      await payByCard('4111111111111111');
      await vi.waitFor(() => expect(events.map((e) => e.name).sort()).toEqual(['charge.succeeded', 'transaction.created']));
      await sandbox.webhooks.idle();
      expect(sandbox.webhooks.list().every((d) => d.status === 'DELIVERED')).toBe(true);
    });
  });

  describe('guard rails', () => {
    it('refuses calls from an origin that is not allowed, and answers CORS for one that is', async () => {
      setUp({ allowedOrigins: ['https://widget.example'] });
      const body = { orderReference: 'cart-1', paymentMethod: { type: 'QR_PROMPT_PAY' } };
      const evil = await call('POST', '/charges', { body, headers: { origin: 'https://evil.example' } });
      expect(evil.status).toBe(403);
      expect(evil.body.error.errorCode).toBe('ORIGIN_NOT_ALLOWED');
      expect(evil.headers.get('access-control-allow-origin')).toBeNull();
      const allowed = await call('POST', '/charges', { body, headers: { origin: 'https://widget.example' } });
      expect(allowed.status).toBe(201);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://widget.example');
      const preflight = await call('OPTIONS', '/charges', { headers: { origin: 'https://widget.example', 'access-control-request-method': 'POST' } });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-headers')).toContain('idempotency-key');
      expect(sandbox.store.charges.size).toBe(1);
    });

    it('takes its own pages at publicUrl for its own, whatever host the request URL names (Next.js writes localhost), and no other', async () => {
      setUp({ publicUrl: 'https://shop.example' });
      const body = JSON.stringify({ orderReference: 'cart-1', amount: 12_345, currency: 'THB', paymentMethod: { type: 'QR_PROMPT_PAY' } });
      const orderToken = await harness.handler.orderToken('cart-1');
      // A Next.js route handler's Request: its URL is the server's own address, not the shopper's.
      const from = (origin: string) =>
        harness.handler(new Request('http://localhost:3000/api/checkout/charges', { method: 'POST', headers: { origin, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID(), 'x-satang-order-token': orderToken }, body }), { clientAddress: SHOPPER_ADDRESS });
      const own = await from('https://shop.example');
      expect(own.status).toBe(201);
      expect(own.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      const other = await from('https://evil.example');
      expect(other.status).toBe(403);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      expect(sandbox.store.charges.size).toBe(1);
    });

    it('wants JSON within 16 KiB', async () => {
      setUp();
      expect((await call('POST', '/charges', { raw: 'orderReference=cart-1', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
      expect((await call('POST', '/charges', { body: { orderReference: 'x'.repeat(17_000) } })).status).toBe(413);
      expect((await call('POST', '/charges', { raw: '{', headers: { 'content-type': 'application/json' } })).body.error.errorCode).toBe('INVALID_REQUEST');
    });

    it('limits each client to its share of charges per minute', async () => {
      // In process there is no socket: the shop names its clients, as on a runtime without the Node adapter.
      setUp({ rateLimit: { chargesPerWindow: 3 }, getClientId: (request) => request.headers.get('x-test-client') ?? undefined });
      const body = { orderReference: 'cart-404', paymentMethod: { type: 'QR_PROMPT_PAY' } };
      const from = (address: string) => call('POST', '/charges', { body, headers: { 'x-test-client': address } });
      for (let i = 0; i < 3; i += 1) expect((await from('10.0.0.1')).status).toBe(404);
      const limited = await from('10.0.0.1');
      expect(limited.status).toBe(429);
      expect(limited.body.error).toMatchObject({ errorCode: 'RATE_LIMITED', retryable: true });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await from('10.0.0.2')).status).toBe(404);
    });

    it('answers with security headers, 404 for unknown paths and 405 for wrong methods', async () => {
      setUp();
      const unknown = await call('GET', '/nope');
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('x-content-type-options')).toBe('nosniff');
      expect(unknown.headers.get('cache-control')).toBe('no-store');
      const wrong = await call('GET', '/charges');
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toBe('POST');
    });

    it('turns a service that does not answer into a retryable 503, and the retry makes one charge', async () => {
      let down = true;
      setUp({}, {}, async (request) => {
        if (down) throw new TypeError('fetch failed');
        return sandbox.fetch(request);
      });
      const body = { orderReference: 'cart-1', paymentMethod: { type: 'QR_PROMPT_PAY' } };
      const headers = { 'Idempotency-Key': 'flaky-1' };
      const failed = await call('POST', '/charges', { body, headers });
      expect(failed.status).toBe(503);
      expect(failed.body.error).toMatchObject({ errorCode: 'UPSTREAM_UNAVAILABLE', retryable: true });
      down = false;
      const retried = await call('POST', '/charges', { body, headers });
      expect(retried.status).toBe(201);
      expect(sandbox.store.charges.size).toBe(1);
    });
  });

  describe('configuration', () => {
    const base = { service: SERVICE, resolveOrder: () => null } as CheckoutHandlerOptions;
    const cases: [string, Partial<CheckoutHandlerOptions> | Record<string, unknown>, RegExp][] = [
      ['no resolveOrder', { resolveOrder: undefined }, /resolveOrder/],
      ['no service', { service: undefined }, /service/],
      ['an API key over plain http to a remote host', { service: { ...SERVICE, baseUrl: 'http://api.example' } }, /https/],
      ['a webhook key that is not base64', { webhookKeyBase64: 'not base64!' }, /webhook/i],
      ['an allowed origin that is not one', { allowedOrigins: ['shop'] }, /allowedOrigins/],
      ['a payment method that does not exist', { paymentMethods: ['CASH'] }, /paymentMethods/],
      ['a base path without a leading slash', { basePath: 'api' }, /basePath/],
      ['a status token lifetime that is not a positive whole number of ms', { statusTokenTtlMs: 0 }, /statusTokenTtlMs/],
      ['a status poll of 0 ms, which would poll for as long as a shopper waits', { statusPollIntervalMs: 0 }, /statusPollIntervalMs must be a whole number of milliseconds, at least 10/],
      ['a status poll that is not a whole number', { statusPollIntervalMs: 2.5 }, /statusPollIntervalMs/],
      ['a trustProxy that is not false, a number or a list of addresses', { trustProxy: true }, /trustProxy/],
      ['a trustProxy list with something that is not an address', { trustProxy: ['10.0.0.0/8', 'proxy.internal'] }, /trustProxy: "proxy\.internal"/],
    ];
    for (const [what, override, message] of cases) {
      it(`fails at start on ${what}, saying what to set`, () => {
        expect(() => createCheckoutHandler({ ...base, ...override })).toThrow(message);
      });
    }
  });
});
