import { afterEach, describe, expect, it } from 'vitest';
import { CHECKOUT_ROUTES, originPolicyOf } from '../../../src/server/checkout/routes.js';
import type { ResolvedOrder } from '../../../src/server/index.js';
import { createCheckoutHarness, type CheckoutHarness } from '../../support/checkout-harness.js';

const ORDERS: Record<string, ResolvedOrder> = { 'cart-1': { amount: 12_345, currency: 'THB', referenceId: 'order-1001' } };

let harness: CheckoutHarness | undefined;

afterEach(() => harness?.sandbox.close());

describe('the checkout route table', () => {
  it('says of every route who may call it from another origin: the shop’s pages, but anyone for the signed webhooks', () => {
    const policies = Object.fromEntries(CHECKOUT_ROUTES.routes.map((route) => [`${route.method} ${route.path}`, route.origin]));
    expect(policies).toEqual({
      'POST /charges': 'shop',
      'GET /charges/:chargeId/status': 'shop',
      'POST /charges/:chargeId/slip': 'shop',
      'GET /orders/:orderReference/state': 'shop',
      'POST /webhooks': 'any',
    });
  });

  describe('when a path is asked with another method than its route’s', () => {
    it('keeps the policy of the routes at that path (a preflight, a wrong method)', () => {
      expect(originPolicyOf('OPTIONS', '/webhooks')).toBe('any');
      expect(originPolicyOf('GET', '/webhooks')).toBe('any');
      expect(originPolicyOf('OPTIONS', '/charges')).toBe('shop');
    });
  });

  describe('when a path is no route', () => {
    it('is the shop’s only, whatever it ends with', () => {
      expect(originPolicyOf('POST', '/nope/webhooks')).toBe('shop');
      expect(originPolicyOf('POST', '/webhooks/extra')).toBe('shop');
    });
  });
});

describe('the handler reading the route table', () => {
  it('refuses a page of another origin on the shop’s routes, and lets the webhooks through to their signature check', async () => {
    harness = createCheckoutHarness(ORDERS, { allowedOrigins: ['https://widget.example'] });
    const headers = { origin: 'https://evil.example' };
    const charge = await harness.call('POST', '/charges', { body: { orderReference: 'cart-1', paymentMethod: { type: 'QR_PROMPT_PAY' } }, headers });
    expect(charge.status).toBe(403);
    expect(charge.body.error.errorCode).toBe('ORIGIN_NOT_ALLOWED');
    const webhook = await harness.call('POST', '/webhooks', { body: { chargeId: 'ch_1' }, headers });
    expect(webhook.status).toBe(401);
    expect(webhook.body.error.errorCode).toBe('INVALID_SIGNATURE');
    const elsewhere = await harness.call('POST', '/nope/webhooks', { body: {}, headers });
    expect(elsewhere.status).toBe(403);
  });
});
