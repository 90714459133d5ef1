import { afterEach, describe, expect, it } from 'vitest';
import { createCheckoutHarness, type CheckoutHarness } from '../../support/checkout-harness.js';

/**
 * A shop's mobile app gets its shopper back after a redirect payment, through the handler and the
 * sandbox: the app's scheme and its universal links' origin, allowed by `returnUrls`, reach the
 * charge and are where the sandbox's approval page sends the shopper; anything else is refused
 * before the service is called.
 */

const APP = 'https://app.myshop.example';
const ORDERS = {
  'cart-1': { amount: 10_000, currency: 'THB', referenceId: 'order-1' },
  'cart-2': { amount: 10_000, currency: 'THB', referenceId: 'order-2', intent: 'authorize' as const },
  'cart-3': { amount: 10_000, currency: 'THB', referenceId: 'order-3' },
};
const OTP_CARD = '4953261730509988';
const FORCE_CARD = '4389783280144506';

let harness: CheckoutHarness;
afterEach(() => harness.sandbox.close());

function setUp(): CheckoutHarness {
  harness = createCheckoutHarness(ORDERS, { rateLimit: false, returnUrls: { schemes: ['myshop'], origins: [APP] } });
  return harness;
}

/** Pays an order (`cart-1` unless said) with a wallet, returning to `returnUrl`. */
function payWithWallet(returnUrl: string, orderReference = 'cart-1') {
  return harness.call('POST', '/charges', { body: { orderReference, paymentMethod: { type: 'TRUE_MONEY' }, returnUrl } });
}

/** The return URL the sandbox's charge holds: what the handler sent the service. */
function sentReturnUrl(chargeId: string): string | undefined {
  return [...harness.sandbox.store.charges.values()].find((record) => record.charge.chargeId === chargeId)?.returnUrl;
}

async function chargesMade(): Promise<number> {
  return (await harness.service.request('GET', '/api/v1/charges')).body.totalCount;
}

describe('a return to the shop’s app', () => {
  it('goes through by its scheme: to the charge, and back from the approval page', async () => {
    setUp();
    const answer = await payWithWallet('myshop://paid?order=cart-1');
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.actionRequired).toBe('REDIRECT');
    expect(sentReturnUrl(answer.body.chargeId)).toBe('myshop://paid?order=cart-1');

    const approved = await harness.service.submitPage(answer.body.redirect.redirectUrl, { decision: 'approve' });
    expect(approved.status).toBe(303);
    expect(approved.location).toBe('myshop://paid?order=cart-1');
    const status = await harness.call('GET', `/charges/${answer.body.chargeId}/status`, { headers: { 'X-Satang-Status-Token': answer.body.statusToken } });
    expect(status.body).toMatchObject({ status: 'SUCCEEDED', outcome: 'paid' });
  });

  it('goes through by its universal links’ origin, after 3-D Secure', async () => {
    setUp();
    const cardTokenId = await harness.service.tokenize(OTP_CARD);
    const answer = await harness.call('POST', '/charges', {
      body: { orderReference: 'cart-1', paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '123' }, returnUrl: `${APP}/paid?order=cart-1` },
    });
    expect(answer.status, answer.text).toBe(201);
    expect(sentReturnUrl(answer.body.chargeId)).toBe(`${APP}/paid?order=cart-1`);
    const entered = await harness.service.submitPage(answer.body.redirect.redirectUrl, { otp: '123456' });
    expect([entered.status, entered.location]).toEqual([303, `${APP}/paid?order=cart-1`]);
  });

  it('goes through for a card authorization too', async () => {
    setUp();
    const cardTokenId = await harness.service.tokenize(FORCE_CARD);
    const answer = await harness.call('POST', '/charges', {
      body: { orderReference: 'cart-2', intent: 'authorize', paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '123' }, returnUrl: 'myshop://authorized' },
    });
    expect(answer.status, answer.text).toBe(201);
    expect(harness.sandbox.authorizations.records.get(answer.body.chargeId)?.request.returnUrl).toBe('myshop://authorized');
    const forced = await harness.service.submitPage(answer.body.redirect.redirectUrl, { outcome: 'succeed' });
    expect([forced.status, forced.location]).toEqual([303, 'myshop://authorized']);
  });

  it('is sent on in one form: the scheme in lower case, and what a parser leaves bare percent-encoded', async () => {
    setUp();
    const cased = await payWithWallet('MyShop://Paid/ชำระ?order=cart 1');
    expect(cased.status, cased.text).toBe(201);
    expect(sentReturnUrl(cased.body.chargeId)).toBe('myshop://Paid/%E0%B8%8A%E0%B8%B3%E0%B8%A3%E0%B8%B0?order=cart%201');

    // Another order: a second wallet payment of cart-1 would be handed its open one back.
    const opaque = await payWithWallet('myshop:paid now "at once" <x> {y}|^`\\', 'cart-3');
    expect(opaque.status, opaque.text).toBe(201);
    const sent = sentReturnUrl(opaque.body.chargeId)!;
    expect(sent).toBe('myshop:paid%20now%20%22at%20once%22%20%3Cx%3E%20%7By%7D%7C%5E%60%5C');
    expect(new URL(sent).href).toBe(sent);
    const approved = await harness.service.submitPage(opaque.body.redirect.redirectUrl, { decision: 'approve' });
    expect(approved.location).toBe(sent);
  });
});

describe('a return URL the shop did not allow', () => {
  const refused = async (returnUrl: string) => {
    const answer = await payWithWallet(returnUrl);
    expect([answer.status, answer.body.error?.errorCode, answer.body.error?.field], `${returnUrl}: ${answer.text}`).toEqual([400, 'INVALID_RETURN_URL', 'returnUrl']);
    return answer.body.message as string;
  };

  it('is refused for another app’s scheme, naming it', async () => {
    setUp();
    expect(await refused('othershop://paid')).toBe("The return address must be a page of this shop or of its app (othershop: is not one of the shop's returnUrls.schemes).");
    expect(await refused('myshopx://paid')).toContain('myshopx: is not one of');
    expect(await refused('myshop-evil://paid')).toContain('myshop-evil: is not one of');
    expect(await chargesMade()).toBe(0);
  });

  it.each([
    'javascript:alert(document.cookie)',
    'JavaScript://app.myshop.example/%0aalert(1)',
    'vbscript:msgbox(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'blob:https://shop.example/6f1c3c1e-1d7b-4b8e-9a55-2d3f0c7e9a11',
    'intent://paid#Intent;scheme=myshop;package=com.evil.app;end',
    'about:blank',
    'ftp://app.myshop.example/paid',
  ])('is refused for %s, a scheme that never leads back', async (returnUrl) => {
    setUp();
    const scheme = new URL(returnUrl).protocol;
    expect(await refused(returnUrl)).toBe(`The return address must be a page of this shop or of its app (${scheme} never is).`);
    expect(await chargesMade()).toBe(0);
  });

  it.each(['myshop://user:secret@paid', 'myshop://user@paid', 'https://user:pass@app.myshop.example/paid', `https://app.myshop.example@evil.example/paid`])(
    'is refused when it carries a user name or password: %s',
    async (returnUrl) => {
      setUp();
      expect(await refused(returnUrl)).toBe('The return address must not carry a user name or password.');
      expect(await chargesMade()).toBe(0);
    },
  );

  it.each([
    'https://app.myshop.example.evil.example/paid',
    'https://evil.example/app.myshop.example/paid',
    'https://app.myshop.example:8443/paid',
    'http://app.myshop.example/paid',
    'https://app-myshop.example/paid',
    'https://myshop.example/paid',
    'https://xapp.myshop.example/paid',
    'https://app.myshop.example./paid',
    'https://аpp.myshop.example/paid', // a Cyrillic а
  ])('is refused for a lookalike of the app’s origin: %s', async (returnUrl) => {
    setUp();
    const origin = new URL(returnUrl).origin;
    expect(await refused(returnUrl)).toBe(
      `The return address must be a page of this shop (${origin} is not https://shop.example: set publicUrl to the address shoppers use, or add the origin to returnUrls.origins).`,
    );
    expect(await chargesMade()).toBe(0);
  });

  it('is refused for a scheme when the shop allowed none', async () => {
    harness = createCheckoutHarness(ORDERS, { rateLimit: false });
    expect(await refused('myshop://paid')).toContain('myshop: is not one of');
    expect(await chargesMade()).toBe(0);
  });
});
