import { devices, type Page } from '@playwright/test';
import { CARDS, chooseMethod, DEFAULT_TOTAL, expect, expectNotPaid, expectPaid, FROM_THE_SERVER, onlyChargeFor, openShop, OTP, payButton, SANDBOX, test, typeCard } from './support.js';

/**
 * Payments that leave the shop: 3-D Secure, the sandbox's force page, e-wallets and banking apps.
 * Each one goes to a sandbox page and comes back to the shop's return page, which picks the
 * payment up and shows its outcome.
 */

/** Back on the shop's return page for this order. */
async function expectBackOnShop(page: Page, reference: string): Promise<void> {
  await expect(page).toHaveURL(`/demo/return.html?order=${reference}`, FROM_THE_SERVER);
}

test('a shopper with a 3-D Secure card types the right one-time password and pays', async ({ page, request }) => {
  const reference = await openShop(page);
  await typeCard(page, { number: CARDS.threeDSecure });
  await payButton(page).click();

  await expect(page).toHaveURL(new RegExp(`:${new URL(SANDBOX).port}/sandbox/pages/otp/ch_\\w+$`));
  await expect(page.getByRole('heading', { name: 'Verify your payment' })).toBeVisible();
  await expect(page.getByText(DEFAULT_TOTAL).first()).toBeVisible();
  await page.getByLabel('One-time password').fill(OTP);
  await page.getByRole('button', { name: 'Verify and pay' }).click();

  await expectBackOnShop(page, reference);
  await expectPaid(page);
  expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED', paymentMethod: { paymentMethodType: 'CARD' } });
});

test('a shopper who types a wrong one-time password comes back to a payment that was not approved', async ({ page, request }) => {
  const reference = await openShop(page);
  await typeCard(page, { number: CARDS.threeDSecure });
  await payButton(page).click();

  await expect(page.getByRole('heading', { name: 'Verify your payment' })).toBeVisible();
  await page.getByLabel('One-time password').fill('000000');
  await page.getByRole('button', { name: 'Verify and pay' }).click();

  await expectBackOnShop(page, reference);
  // It says what went wrong (the code), and that the card must be typed again (the page was left).
  await expectNotPaid(page, 'Your bank did not confirm the payment: the one-time code (OTP) was wrong, or was not entered in time. Nothing was charged. Enter your card details to try again, or choose another method.');
  expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'FAILED', failureCode: 'CH_AUTHENTICATION_FAILED' });
});

test('a shopper sent to the force page makes the payment succeed and comes back paid', async ({ page, request }) => {
  const reference = await openShop(page);
  await typeCard(page, { number: CARDS.force });
  await payButton(page).click();

  await expect(page.getByRole('heading', { name: 'Choose how this payment ends' })).toBeVisible();
  await page.getByRole('button', { name: 'Make payment succeed' }).click();

  await expectBackOnShop(page, reference);
  await expectPaid(page);
  expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED' });
});

test('a shopper pays with TrueMoney: approves in the wallet and comes back to a confirmed order', async ({ page, request }) => {
  const reference = await openShop(page);
  await chooseMethod(page, 'E-wallet');
  const wallets = page.getByRole('group', { name: 'Wallet' });
  await wallets.getByRole('radio', { name: 'TrueMoney' }).check();
  await expect(page.getByText('You will go to TrueMoney to approve the payment, then come back here.')).toBeVisible();
  await payButton(page).click();

  await expect(page.getByRole('heading', { name: `Pay ${DEFAULT_TOTAL} to Baan Craft with TrueMoney?` })).toBeVisible();
  await page.getByRole('button', { name: 'Approve' }).click();

  await expectBackOnShop(page, reference);
  await expectPaid(page);
  expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED', amount: 178_000, paymentMethod: { paymentMethodType: 'TRUE_MONEY' } });
});

test('on a computer offered mobile banking alone, it explains that it needs a phone and cannot be paid', async ({ page }) => {
  await page.goto('/demo/theming/');
  const checkout = page.locator('satang-checkout').first();
  await checkout.evaluate((element) => element.setAttribute('methods', 'mobile-banking'));
  await expect(checkout.getByRole('alert')).toHaveText('Bank apps open on a phone. Open this page on your phone, or pay with PromptPay QR.');
  await expect(checkout.getByRole('button', { name: /^Pay ฿/ })).toBeDisabled();
});

test.describe('on a phone', () => {
  // A phone's screen and user agent, in the configured Chromium.
  const { defaultBrowserType: _browser, ...pixel } = devices['Pixel 7'];
  test.use({ ...pixel });

  test('a shopper pays with their bank app: chooses SCB EASY, approves it and comes back paid', async ({ page, request }) => {
    const reference = await openShop(page);
    await chooseMethod(page, 'Mobile banking');
    const banks = page.getByRole('group', { name: 'Bank app' });
    await banks.getByRole('radio', { name: 'SCB EASY' }).check();
    await expect(page.getByText('The SCB EASY app opens to approve the payment, then you come back here.')).toBeVisible();
    await expect(payButton(page)).toBeEnabled();
    await payButton(page).click();

    await expect(page.getByRole('heading', { name: `Pay ${DEFAULT_TOTAL} to Baan Craft with SCB EASY?` })).toBeVisible();
    await page.getByRole('button', { name: 'Approve' }).click();

    await expectBackOnShop(page, reference);
    await expectPaid(page);
    expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED', paymentMethod: { paymentMethodType: 'SCB_EASY' } });
  });
});
