import type { APIRequestContext } from '@playwright/test';
import { chooseMethod, DEFAULT_TOTAL, expect, expectPaid, onlyChargeFor, openShop, payButton, test } from './support.js';
import { SANDBOX_DEFAULTS } from '../src/sandbox/defaults.js';
import { E2E_SANDBOX_PORT } from '../playwright.config.js';

const SANDBOX = `http://127.0.0.1:${E2E_SANDBOX_PORT}`;
const api = { authorization: `Basic ${Buffer.from(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.apiKey}`).toString('base64')}` };
const client = { authorization: `Basic ${Buffer.from(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.publishableKey}`).toString('base64')}` };
/** Where the hosted pages send the shopper back: any page of the sandbox will do. */
const RETURN_URL = `${SANDBOX}/sandbox/health`;
const expiryYear = (new Date().getUTCFullYear() + 2) % 100;
/** The demo stack names its sandbox merchant after the demo shop. */
const SHOP = 'Baan Craft';

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

/** The payer link of a QR charge, as its merchant gets it (sandbox-only control endpoint). */
async function payerLink(request: APIRequestContext, chargeId: string): Promise<string> {
  const answer = await request.get(`${SANDBOX}/sandbox/v1/charges/${chargeId}/payer-link`, { headers: api });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { payerUrl: string }).payerUrl;
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

  test('a payer pays a pending PromptPay QR on its payer link in one click', async ({ page, request }) => {
    const created = await charge(request, { paymentMethodType: 'QR_PROMPT_PAY', qrPromptPay: {} });
    await page.goto(await payerLink(request, created.chargeId));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Pay ฿250.00 to ${SHOP}`);
    await page.screenshot({ path: 'test-results/screens/promptpay-payer.png', fullPage: true });
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await expect(page).toHaveURL(RETURN_URL);
    expect(await status(request, created.chargeId)).toBe('SUCCEEDED');
  });

  test('the payer simulator lists no one’s charges, and a forged payer link is a 404 that leaves the charge pending', async ({ page, request }) => {
    const created = await charge(request, { paymentMethodType: 'QR_PROMPT_PAY', qrPromptPay: {} });
    await page.goto(`${SANDBOX}/sandbox/pages/promptpay`);
    await expect(page.getByRole('heading', { name: 'Pay a PromptPay QR' })).toBeVisible();
    await expect(page.getByText(created.chargeId)).toHaveCount(0);
    const link = await payerLink(request, created.chargeId);
    const forged = `${link.slice(0, link.lastIndexOf('/') + 1)}${'A'.repeat(43)}`;
    const answer = await page.goto(forged);
    expect(answer?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment not found');
    await expect(page.getByRole('button')).toHaveCount(0);
    expect(await status(request, created.chargeId)).toBe('PENDING');
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

test.describe('the sandbox hosted pages in Thai', () => {
  test.use({ javaScriptEnabled: false, locale: 'th-TH' });

  test('a Thai shopper sees the OTP page in Thai, switches it to English and back, and pays', async ({ page, request }) => {
    const created = await cardCharge(request, '4953261730509988');
    await page.goto(created.redirect.redirectUrl);
    await expect(page.locator('html')).toHaveAttribute('lang', 'th');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('ยืนยันการชำระเงิน');
    await expect(page.getByText(`เพื่อชำระเงินด้วยบัตรให้ ${SHOP}`)).toBeVisible();
    await expect(page.getByText('฿250.00').first()).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/otp-page-th.png', fullPage: true });

    const languages = page.getByRole('navigation', { name: 'ภาษา' });
    await languages.getByRole('link', { name: 'English' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verify your payment');
    await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'ไทย' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'th');

    await page.getByLabel('รหัสผ่านแบบใช้ครั้งเดียว (OTP)').fill('123456');
    await page.getByRole('button', { name: 'ยืนยันและชำระเงิน' }).click();
    await expect(page).toHaveURL(RETURN_URL);
    expect(await status(request, created.chargeId)).toBe('SUCCEEDED');
  });

  test('a Thai payer pays a QR on its payer link, in Thai, naming the shop', async ({ page, request }) => {
    const created = await charge(request, { paymentMethodType: 'QR_PROMPT_PAY', qrPromptPay: {} });
    await page.goto(await payerLink(request, created.chargeId));
    await expect(page.locator('html')).toHaveAttribute('lang', 'th');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`ชำระ ฿250.00 ให้ ${SHOP}`);
    await expect(page.getByText('เวลาประเทศไทย')).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/promptpay-payer-th.png', fullPage: true });
    await page.getByRole('button', { name: 'ชำระเงิน', exact: true }).click();
    await expect(page).toHaveURL(RETURN_URL);
    expect(await status(request, created.chargeId)).toBe('SUCCEEDED');
  });
});

test.describe('the demo’s footer link to the sandbox payer page', () => {
  test('a person trying the demo shows a PromptPay QR and pays it through the footer’s link, which opens that charge’s payer page', async ({ page, context, request }) => {
    const reference = await openShop(page);
    await chooseMethod(page, 'PromptPay QR');
    await payButton(page).click();
    await expect(page.locator('satang-qr-payment').getByText('Scan to pay with PromptPay')).toBeVisible();
    const pending = await onlyChargeFor(request, reference);

    const opening = context.waitForEvent('page');
    await page.locator('.demo-footer p:not([hidden]) .payer-link').click();
    const payer = await opening;
    await expect(payer).toHaveURL(new RegExp(`/sandbox/pages/promptpay/${pending.chargeId}/[A-Za-z0-9_-]{43}\\?lang=en$`));
    await expect(payer.getByRole('heading', { level: 1 })).toHaveText(`Pay ${DEFAULT_TOTAL} to ${SHOP}`);
    await payer.getByRole('button', { name: 'Pay', exact: true }).click();
    await expect(payer).not.toHaveURL(/\/sandbox\/pages\/promptpay/);
    await payer.close();

    await expectPaid(page);
    expect(await onlyChargeFor(request, reference)).toMatchObject({ chargeId: pending.chargeId, status: 'SUCCEEDED' });
  });
});
