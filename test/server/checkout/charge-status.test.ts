import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { createCheckoutHarness, type CheckoutHarness } from '../../support/checkout-harness.js';

/**
 * A long-poll and the webhook that ends it can cross: the webhook may arrive while the long-poll
 * is still reading the charge from the service (which answered PENDING a moment before). Seen
 * under load, where the service's answer takes a while to come back: the shopper who paid by
 * PromptPay then waited out the whole poll interval (or the whole wait) for nothing.
 */

const ORDERS = { 'cart-1': { amount: 12_345, currency: 'THB', referenceId: 'order-2001' } };

let harness: CheckoutHarness;
let sandbox: Sandbox;
// Unset when a test failed before it started one.
afterEach(() => (sandbox as Sandbox | undefined)?.close());

describe('GET /charges/{id}/status?wait=N when the webhook crosses the first read', () => {
  it('answers as soon as the webhook has come, not at the end of the wait', async () => {
    /** Set while the test wants the next charge read to be overtaken by the payment. */
    let payDuringRead: (() => Promise<void>) | undefined;
    harness = createCheckoutHarness(ORDERS, { statusPollIntervalMs: 60_000 }, {}, async (request) => {
      const answer = await harness.sandbox.fetch(request);
      const pay = payDuringRead;
      if (request.method === 'GET' && /\/api\/v1\/charges\/[^/]+$/.test(new URL(request.url).pathname) && pay) {
        payDuringRead = undefined;
        // The service answered PENDING; before that answer reaches the handler, the payer pays
        // and the charge.succeeded webhook is delivered and acknowledged.
        await pay();
      }
      return answer;
    });
    sandbox = harness.sandbox;
    const created = await harness.call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'QR_PROMPT_PAY' } } });
    expect(created.status).toBe(201);
    const { chargeId, statusToken, encodedImage } = created.body;

    payDuringRead = async () => {
      const paid = await harness.service.sandbox.fetch(
        new Request('http://127.0.0.1:4010/sandbox/pages/promptpay', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ rawData: encodedImage.rawData, outcome: 'succeed' }).toString(),
        }),
      );
      expect(paid.status).toBe(200);
      await sandbox.webhooks.idle();
    };
    const started = Date.now();
    const answer = await harness.call('GET', `/charges/${chargeId}/status?wait=10`, { headers: { 'X-Satang-Status-Token': statusToken } });
    expect(payDuringRead).toBeUndefined();
    expect(answer.body).toEqual({ chargeId, status: 'SUCCEEDED', failureCode: null, outcome: 'paid' });
    expect(harness.events.map((e) => e.name)).toContain('charge.succeeded');
    // The wait is 10 s and the handler asks the service only every 60 s: only the webhook can end it early.
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
