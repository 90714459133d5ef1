import { expect, test, type APIRequestContext } from '@playwright/test';
import { SANDBOX_DEFAULTS } from '../src/sandbox/defaults.js';
import { E2E_SANDBOX_PORT } from '../playwright.config.js';

const SANDBOX = `http://127.0.0.1:${E2E_SANDBOX_PORT}`;
const api = { authorization: `Basic ${Buffer.from(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.apiKey}`).toString('base64')}` };
const client = { authorization: `Basic ${Buffer.from(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.publishableKey}`).toString('base64')}` };
/** Where the hosted pages send the shopper back: any page of the sandbox will do. */
const RETURN_URL = `${SANDBOX}/sandbox/health`;
const expiryYear = (new Date().getUTCFullYear() + 2) % 100;

async function charge(request: APIRequestContext, paymentMethod: object, extra: object = {}) {
  const answer = await request.post(`${SANDBOX}/api/v1/charges`, {
    headers: api,
    data: { amount: 25_000, currency: 'THB', referenceId: `e2e-${Date.now()}`, returnUrl: RETURN_URL, paymentMethod, ...extra },
  });
  expect(answer.status()).toBe(201);
  return answer.json();
}

async function cardCharge(request: APIRequestContext, pan: string) {
  const token = await request.post(`${SANDBOX}/client/v1/card-tokens`, {
    headers: client,
    data: { pan, expiryMonth: 12, expiryYear, cardHolderName: 'Somchai Jaidee' },
  });
  const { id } = await token.json();
  return charge(request, { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId: id, securityCode: '123' } });
}

async function status(request: APIRequestContext, chargeId: string) {
  return (await (await request.get(`${SANDBOX}/api/v1/charges/${chargeId}`, { headers: api })).json()).status;
}

test.describe('the sandbox hosted pages, with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('a shopper types the OTP 123456, is sent back to the shop, and the charge has succeeded', async ({ page, request }) => {
    const created = await cardCharge(request, '4953261730509988');
    await page.goto(created.redirect.redirectUrl);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verify your payment');
    await expect(page.getByText('฿250.00').first()).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/otp-page.png', fullPage: true });
    await page.getByLabel('One-time password').fill('123456');
    await page.getByRole('button', { name: 'Verify and pay' }).click();
    await expect(page).toHaveURL(RETURN_URL);
    expect(await status(request, created.chargeId)).toBe('SUCCEEDED');
  });

  test('a shopper declines in the wallet page and the charge fails', async ({ page, request }) => {
    const created = await charge(request, { paymentMethodType: 'LINE_PAY', linePay: {} });
    await page.goto(created.redirect.redirectUrl);
    await page.screenshot({ path: 'test-results/screens/authorize-page.png', fullPage: true });
    await page.getByRole('button', { name: 'Decline' }).click();
    await expect(page).toHaveURL(RETURN_URL);
    expect(await status(request, created.chargeId)).toBe('FAILED');
  });

  test('a payer pays a pending PromptPay QR from the simulator list in one click', async ({ page, request }) => {
    const created = await charge(request, { paymentMethodType: 'QR_PROMPT_PAY', qrPromptPay: {} });
    await page.goto(`${SANDBOX}/sandbox/pages/promptpay`);
    const row = page.getByRole('listitem').filter({ hasText: created.chargeId });
    await page.screenshot({ path: 'test-results/screens/promptpay-payer.png', fullPage: true });
    await row.getByRole('button', { name: /^Pay/ }).click();
    await expect(page).toHaveURL(RETURN_URL);
    expect(await status(request, created.chargeId)).toBe('SUCCEEDED');
  });

  test('a payer forces a failure on the force page', async ({ page, request }) => {
    const created = await cardCharge(request, '4389783280144506');
    await page.goto(created.redirect.redirectUrl);
    await page.screenshot({ path: 'test-results/screens/force-page.png', fullPage: true });
    await page.getByRole('button', { name: 'Make payment fail' }).click();
    await expect(page).toHaveURL(RETURN_URL);
    expect(await status(request, created.chargeId)).toBe('FAILED');
  });
});
