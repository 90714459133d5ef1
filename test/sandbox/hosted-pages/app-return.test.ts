import type { Browser } from 'playwright';
import { afterAll, describe, expect } from 'vitest';
import { PAGE_HEADERS } from '../../../src/sandbox/http/page-layout.js';
import { launchChromium } from '../../support/chromium-shopper.js';
import { API_AUTH } from '../../support/sandbox-client.js';
import { sandboxTest } from '../../support/sandbox-fixture.js';

/**
 * A charge whose returnUrl is a mobile app's own (`myshop://paid`): the sandbox takes it, as the
 * service does, and its hosted pages send the shopper there once the payment is approved, in a
 * real browser too (whose CSP `form-action` also governs the redirect after the form's post).
 */

const APP_RETURN = 'myshop://paid?order=1';
const WALLET = { paymentMethodType: 'TRUE_MONEY', trueMoney: {} };

describe('a charge returning to an app', () => {
  sandboxTest('is taken with its scheme, and refused for a scheme the browser handles', async ({ startInProcess }) => {
    const { client } = startInProcess();
    const created = await client.createCharge({ returnUrl: APP_RETURN, paymentMethod: WALLET });
    expect(created.status).toBe(201);
    for (const returnUrl of ['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'intent://x#Intent;end', 'vbscript:x', 'blob:https://shop.example/1']) {
      const refused = await client.createCharge({ returnUrl, paymentMethod: WALLET });
      expect(refused.status, returnUrl).toBe(400);
      expect(refused.body.message, returnUrl).toContain("returnUrl must be an absolute http or https URL, or a URL of an app's own scheme");
    }
  });

  sandboxTest('is shown a page whose form may lead to the app’s scheme, and only that one', async ({ startInProcess }) => {
    const { client } = startInProcess();
    const app = await client.createCharge({ returnUrl: APP_RETURN, paymentMethod: WALLET });
    const page = await client.sandbox.fetch(new Request(app.body.redirect.redirectUrl));
    expect(page.status).toBe(200);
    const policy = page.headers.get('content-security-policy')!;
    expect(policy).toContain("form-action 'self' http: https: myshop:;");
    expect(policy.replace(' myshop:', '')).toBe(PAGE_HEADERS['content-security-policy']);

    // A return to the web keeps the page's usual policy.
    const web = await client.createCharge({ referenceId: 'order-2', returnUrl: 'https://shop.example/return', paymentMethod: WALLET });
    const webPage = await client.sandbox.fetch(new Request(web.body.redirect.redirectUrl));
    expect(webPage.headers.get('content-security-policy')).toBe(PAGE_HEADERS['content-security-policy']);
  });

  sandboxTest('keeps that policy on the OTP page asked again after an empty code', async ({ startInProcess }) => {
    const { client } = startInProcess();
    const created = await client.chargeCard('4953261730509988', { returnUrl: APP_RETURN });
    const url: string = created.body.redirect.redirectUrl;
    const again = await client.sandbox.fetch(
      new Request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'otp=', redirect: 'manual' }),
    );
    expect(again.status).toBe(400);
    expect(again.headers.get('content-security-policy')).toContain(' myshop:;');
    const entered = await client.submitPage(url, { otp: '123456' });
    expect([entered.status, entered.location]).toEqual([303, APP_RETURN]);
  });

  sandboxTest('is sent back with what a URL parser leaves bare percent-encoded, never a 500', async ({ startInProcess }) => {
    const { client } = startInProcess();
    const created = await client.createCharge({ returnUrl: 'myshop:paid now "at once" ไทย', paymentMethod: WALLET });
    expect(created.status).toBe(201);
    const approved = await client.submitPage(created.body.redirect.redirectUrl, { decision: 'approve' });
    expect(approved.status).toBe(303);
    expect(approved.location).toBe('myshop:paid%20now%20%22at%20once%22%20%E0%B9%84%E0%B8%97%E0%B8%A2');
    expect(approved.location).toMatch(/^[\x21-\x7e]+$/);
  });
});

describe('a shopper in Chromium approving a payment for an app', () => {
  let browser: Browser | undefined;
  afterAll(async () => browser?.close());

  sandboxTest('is sent on to the app’s URL, with nothing blocked on the way', async ({ sandbox }) => {
    const created = await fetch(`${sandbox.url}/api/v1/charges`, {
      method: 'POST',
      headers: { authorization: API_AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 10_000, currency: 'THB', referenceId: 'order-1', returnUrl: APP_RETURN, paymentMethod: WALLET }),
    });
    expect(created.status).toBe(201);
    const { chargeId, redirect } = (await created.json()) as { chargeId: string; redirect: { redirectUrl: string } };

    browser ??= await launchChromium();
    const page = await browser.newPage();
    const said: string[] = [];
    page.on('console', (message) => said.push(message.text()));
    try {
      await page.goto(redirect.redirectUrl);
      // The browser asks for the app's URL (headless Chromium has no app for it, so it goes no further).
      const toApp = page.waitForEvent('request', { predicate: (request) => request.url().startsWith('myshop:'), timeout: 20_000 });
      await page.locator('button[value="approve"]').click();
      expect((await toApp).url()).toBe(APP_RETURN);
      expect(said.filter((line) => line.includes('Content Security Policy'))).toEqual([]);
    } finally {
      await page.close();
    }
    expect(sandbox.sandbox.store.charges.get(chargeId)?.charge.status).toBe('SUCCEEDED');
  }, 60_000);
});
