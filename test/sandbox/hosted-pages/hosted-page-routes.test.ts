import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { newSandbox, ORIGIN, type SandboxClient } from '../../support/sandbox-client.js';

let sandbox: Sandbox;
let client: SandboxClient;
let now = Date.now();
function start() {
  now = Date.now();
  ({ sandbox, client } = newSandbox({ now: () => new Date(now) }));
}
// eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset until a test starts one
afterEach(() => sandbox?.close());

const RETURN_URL = 'https://shop.example/checkout/return?order=1';

describe('the OTP page', () => {
  it('shows a form for the charge, and 123456 makes the charge SUCCEEDED and returns to the merchant', async () => {
    start();
    const created = await client.chargeCard('4953261730509988', { returnUrl: RETURN_URL });
    const url: string = created.body.redirect.redirectUrl;
    const page = await client.sandbox.fetch(new Request(url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('name="otp"');
    expect(html).toContain('100.00');
    const submitted = await client.submitPage(url, { otp: '123456' });
    expect(submitted.status).toBe(303);
    expect(submitted.location).toBe(RETURN_URL);
    expect((await client.getCharge(created.body.chargeId)).status).toBe('SUCCEEDED');
  });

  it('fails the charge with CH_AUTHENTICATION_FAILED on any other code', async () => {
    start();
    const created = await client.chargeCard('4953261730509988');
    const submitted = await client.submitPage(created.body.redirect.redirectUrl, { otp: '000000' });
    expect(submitted.status).toBe(200);
    expect(submitted.html).toContain('CH_AUTHENTICATION_FAILED');
    const charge = await client.getCharge(created.body.chargeId);
    expect(charge).toMatchObject({ status: 'FAILED', failureCode: 'CH_AUTHENTICATION_FAILED' });
  });

  it('asks again, without failing the charge, when the code is empty', async () => {
    start();
    const created = await client.chargeCard('4953261730509988');
    const submitted = await client.submitPage(created.body.redirect.redirectUrl, { otp: '  ' });
    expect(submitted.status).toBe(400);
    expect(submitted.html).toContain('role="alert"');
    expect((await client.getCharge(created.body.chargeId)).status).toBe('PENDING');
  });

  it('says the payment is complete when opened again, and does not complete it twice', async () => {
    start();
    const created = await client.chargeCard('4953261730509988');
    await client.submitPage(created.body.redirect.redirectUrl, { otp: '123456' });
    const again = await client.submitPage(created.body.redirect.redirectUrl, { otp: '000000' });
    expect(again.html).toContain('already complete');
    expect((await client.getCharge(created.body.chargeId)).status).toBe('SUCCEEDED');
  });

  it('is not offered for a charge that needs no OTP', async () => {
    start();
    const created = await client.chargeCard('4389783280144506');
    const page = await client.sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/otp/${created.body.chargeId}`));
    expect(page.status).toBe(404);
  });
});

describe('the force page', () => {
  it('lets the payer force success or failure', async () => {
    start();
    const a = await client.chargeCard('4389783280144506');
    expect(a.body.redirect.redirectUrl).toBe(`${ORIGIN}/sandbox/pages/force/${a.body.chargeId}`);
    await client.submitPage(a.body.redirect.redirectUrl, { outcome: 'succeed' });
    expect((await client.getCharge(a.body.chargeId)).status).toBe('SUCCEEDED');
    const b = await client.chargeCard('4389783280144506');
    await client.submitPage(b.body.redirect.redirectUrl, { outcome: 'fail' });
    expect((await client.getCharge(b.body.chargeId)).status).toBe('FAILED');
  });

  it('refuses an outcome it does not know, leaving the charge pending', async () => {
    start();
    const created = await client.chargeCard('4389783280144506');
    const submitted = await client.submitPage(created.body.redirect.redirectUrl, { outcome: 'maybe' });
    expect(submitted.status).toBe(400);
    expect((await client.getCharge(created.body.chargeId)).status).toBe('PENDING');
  });
});

describe('the wallet and banking-app authorize page', () => {
  it('approves a TrueMoney payment and returns to the merchant', async () => {
    start();
    const created = await client.createCharge({ returnUrl: RETURN_URL, paymentMethod: { paymentMethodType: 'TRUE_MONEY', trueMoney: {} } });
    const html = await (await client.sandbox.fetch(new Request(created.body.redirect.redirectUrl))).text();
    expect(html).toContain('TrueMoney');
    const submitted = await client.submitPage(created.body.redirect.redirectUrl, { decision: 'approve' });
    expect(submitted.location).toBe(RETURN_URL);
    expect((await client.getCharge(created.body.chargeId)).status).toBe('SUCCEEDED');
  });

  it('declines a K PLUS payment as CH_AUTHENTICATION_FAILED', async () => {
    start();
    const created = await client.createCharge({ paymentMethod: { paymentMethodType: 'KPLUS' } });
    await client.submitPage(created.body.redirect.redirectUrl, { decision: 'decline' });
    expect(await client.getCharge(created.body.chargeId)).toMatchObject({ status: 'FAILED', failureCode: 'CH_AUTHENTICATION_FAILED' });
  });
});

describe('the PromptPay payer simulator', () => {
  const payer = `${ORIGIN}/sandbox/pages/promptpay`;

  it('lists pending QR charges and pays one by its rawData', async () => {
    start();
    const created = await client.createCharge({ returnUrl: RETURN_URL, paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY' } });
    const rawData: string = created.body.encodedImage.rawData;
    const list = await (await client.sandbox.fetch(new Request(payer))).text();
    expect(list).toContain(created.body.chargeId);
    const paid = await client.submitPage(payer, { rawData, outcome: 'succeed' });
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(RETURN_URL);
    expect((await client.getCharge(created.body.chargeId)).status).toBe('SUCCEEDED');
    const again = await client.submitPage(payer, { rawData, outcome: 'succeed' });
    expect(again.status).toBe(409);
    expect(again.html).toContain('already used');
  });

  it('can decline a QR charge', async () => {
    start();
    const created = await client.createCharge({ paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY' } });
    await client.submitPage(payer, { rawData: created.body.encodedImage.rawData, outcome: 'fail' });
    expect((await client.getCharge(created.body.chargeId)).status).toBe('FAILED');
  });

  it('refuses an expired QR, which stays PENDING', async () => {
    start();
    const created = await client.createCharge({ paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY' } });
    now += 11 * 60 * 1000;
    const answer = await client.submitPage(payer, { rawData: created.body.encodedImage.rawData, outcome: 'succeed' });
    expect(answer.status).toBe(410);
    expect(answer.html).toContain('expired');
    expect((await client.getCharge(created.body.chargeId)).status).toBe('PENDING');
  });

  it('says so when no charge matches the QR', async () => {
    start();
    const created = await client.createCharge({ paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY' } });
    const tampered = created.body.encodedImage.rawData.replace('5406100.00', '5406999.00');
    const answer = await client.submitPage(payer, { rawData: tampered, outcome: 'succeed' });
    expect(answer.status).toBe(404);
    expect((await client.getCharge(created.body.chargeId)).status).toBe('PENDING');
  });
});

describe('addresses and methods the pages do not have', () => {
  const send = (path: string, method = 'GET') => client.sandbox.fetch(new Request(`${ORIGIN}${path}`, { method }));

  it('answers a missing page under /sandbox/pages with the HTML "Page not found", the payment links’ own address included', async () => {
    start();
    for (const path of ['/sandbox/pages/nope', '/sandbox/pages/', '/sandbox/pages/payment-links']) {
      const answer = await send(path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('content-type'), path).toContain('text/html');
      expect(await answer.text(), path).toContain('Page not found');
    }
    const outside = await send('/sandbox/pages');
    expect(outside.status).toBe(404);
    expect(outside.headers.get('content-type')).toContain('application/json');
  });

  it('refuses another method on a page with 405, its Allow and the pages’ wording', async () => {
    start();
    const created = await client.chargeCard('4953261730509988');
    const head = await send(new URL(created.body.redirect.redirectUrl as string).pathname, 'HEAD');
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('GET, POST');
    const stylesheet = await send('/sandbox/pages/style.css', 'POST');
    expect(stylesheet.status).toBe(405);
    expect(stylesheet.headers.get('allow')).toBe('GET');
    expect(await stylesheet.json()).toMatchObject({ error: { errorCode: 'METHOD_NOT_ALLOWED_ERROR', errorMessage: 'POST is not allowed here; use GET' } });
  });
});
