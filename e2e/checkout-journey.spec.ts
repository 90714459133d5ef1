import { devices, type Page } from '@playwright/test';
import {
  CARDS,
  chargesFor,
  chooseMethod,
  demoOrder,
  expect,
  expectPaid,
  FROM_THE_SERVER,
  onlyChargeFor,
  openShop,
  payButton,
  payQrInSandbox,
  qrCode,
  spaced,
  succeededRefundsFor,
  test,
  typeCard,
} from './support.js';

/**
 * The shopper never gets lost: a reload or Back during a payment shows the same payment, every
 * screen of a payment has a way out that can never lead to paying twice, a decline keeps the card,
 * Enter pays, the methods and card brands have their marks, and a phone is told how to pay from
 * itself.
 */

/** Presses pay with PromptPay chosen and answers the QR's payload once the code shows. */
async function showQr(page: Page): Promise<string> {
  await chooseMethod(page, 'PromptPay QR');
  await payButton(page).click();
  await expect(qrCode(page)).toBeVisible();
  const rawData = await page.locator('satang-qr-payment').getAttribute('raw-data');
  expect(rawData).toMatch(/^000201/);
  return rawData!;
}

/** The seconds the QR's countdown shows ("Expires in 09:58" is 598). */
async function secondsLeft(page: Page): Promise<number> {
  const text = await page.locator('satang-qr-payment').getByRole('timer').textContent();
  const [, minutes, seconds] = /(\d\d):(\d\d)$/.exec(text ?? '') ?? [];
  return Number(minutes) * 60 + Number(seconds);
}

const checkout = (page: Page) => page.locator('satang-checkout');
const wayOut = (page: Page) => checkout(page).getByRole('button', { name: 'Choose another method' });

test('a reload while the QR shows brings the same QR back with the time it has left, and its payment shows as paid', async ({ page, context, request }) => {
  const reference = await openShop(page);
  const rawData = await showQr(page);
  const before = await secondsLeft(page);

  await page.reload();
  await expect(qrCode(page)).toBeVisible();
  await expect(page.locator('satang-qr-payment')).toHaveAttribute('raw-data', rawData);
  const after = await secondsLeft(page);
  expect(after).toBeLessThanOrEqual(before);
  expect(after).toBeGreaterThan(before - 60);
  // The checkout speaks of the code, and offers the way out.
  await expect(wayOut(page)).toBeVisible();

  await payQrInSandbox(context, rawData);
  await expectPaid(page);
  expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED', paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY' } });
});

test('coming to the checkout again by a link while the QR is open shows the same QR, read just after the first frame', async ({ page, context, request }) => {
  const reference = await openShop(page);
  const rawData = await showQr(page);
  const address = page.url();

  // A new navigation in the same tab (the shopper followed a link to the checkout): neither a
  // reload nor a return, so the kept attempt is looked for after the first frame, not before it.
  await page.goto('about:blank');
  await page.goto(address);
  expect(await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).type)).toBe('navigate');
  await expect(qrCode(page)).toBeVisible();
  await expect(page.locator('satang-qr-payment')).toHaveAttribute('raw-data', rawData);

  await payQrInSandbox(context, rawData);
  await expectPaid(page);
  expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED', paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY' } });
});

test('in the React SPA, a reload while the QR shows brings the same QR back, and its payment shows', async ({ page, context, request }) => {
  await page.goto('/demo/spa/');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  const reference = new URL(page.url()).searchParams.get('order') ?? '';
  expect(reference).toMatch(/^demo-/);
  const rawData = await showQr(page);

  await page.reload();
  await expect(qrCode(page)).toBeVisible();
  await expect(page.locator('satang-qr-payment')).toHaveAttribute('raw-data', rawData);
  await payQrInSandbox(context, rawData);
  await expect.poll(async () => (await onlyChargeFor(request, reference)).status, { timeout: 15_000 }).toBe('SUCCEEDED');
  await expect(checkout(page).getByRole('heading', { name: 'Payment successful' }).or(page.getByRole('heading', { name: /confirmed/ })).first()).toBeVisible();
});

test('a reload after a card payment shows the order paid, with nothing to pay again', async ({ page, request }) => {
  const reference = await openShop(page);
  await typeCard(page, { number: CARDS.visa });
  await payButton(page).click();
  await expectPaid(page);

  await page.reload();
  await expect(checkout(page).getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Thank you, your order is confirmed' })).toBeVisible();
  await expect(payButton(page)).toBeHidden();
  expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED' });
});

test('Back from a wallet’s page shows the payment being checked; another method pays, and the wallet approved later is refunded', async ({ page, context, request }) => {
  const reference = await openShop(page);
  await chooseMethod(page, 'E-wallet');
  await page.getByRole('group', { name: 'Wallet' }).getByRole('radio', { name: 'TrueMoney' }).check();
  await payButton(page).click();
  await expect(page.getByRole('heading', { name: /with TrueMoney\?$/ })).toBeVisible();
  const walletPage = page.url();

  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`\\?order=${reference}$`), FROM_THE_SERVER);
  await expect(checkout(page).getByRole('status').filter({ hasText: 'Checking your payment…' })).toBeVisible();
  await wayOut(page).click();
  // Back at the methods, focus on the chosen one; nothing was paid.
  await expect(checkout(page).getByRole('radio', { name: 'E-wallet', exact: true })).toBeFocused();
  await chooseMethod(page, 'Card');
  await typeCard(page, { number: CARDS.visa });
  await payButton(page).click();
  await expectPaid(page);
  const card = (await chargesFor(request, reference)).find((c) => c.paymentMethod.paymentMethodType === 'CARD');
  expect(card?.status).toBe('SUCCEEDED');

  // The wallet payment, left behind, is approved all the same: it does not pay the order twice.
  const wallet = await context.newPage();
  await wallet.goto(walletPage);
  await wallet.getByRole('button', { name: 'Approve' }).click();
  await expect.poll(async () => (await succeededRefundsFor(request, reference)).map((r) => r.amount), { timeout: 15_000 }).toEqual([178_000]);
  expect((await demoOrder(request, reference)).paidBy).toBe(card!.chargeId);
});

test('the way out of a QR: the shopper pays by card instead, and the old QR paid later is refunded in full', async ({ page, context, request }) => {
  const reference = await openShop(page);
  const rawData = await showQr(page);
  await wayOut(page).click();
  // The server said the QR was not paid: another method is chosen, and the form says the QR can still be paid.
  await expect(checkout(page).getByRole('radio', { name: 'Card', exact: true })).toBeFocused();
  await expect(checkout(page).locator('[part="message"]')).toContainText('The QR code you left can still be paid until');
  await expect(qrCode(page)).toBeHidden();

  // A reload now does not bring the QR back, though the shop's server still names it: the shopper left it.
  await page.reload();
  await expect(payButton(page)).toBeVisible();
  await expect(qrCode(page)).toBeHidden();

  await chooseMethod(page, 'Card');
  await typeCard(page, { number: CARDS.visa });
  await payButton(page).click();
  await expectPaid(page);
  const card = (await chargesFor(request, reference)).find((c) => c.paymentMethod.paymentMethodType === 'CARD')!;

  await payQrInSandbox(context, rawData);
  await expect.poll(async () => (await succeededRefundsFor(request, reference)).map((r) => r.amount), { timeout: 15_000 }).toEqual([178_000]);
  const qr = (await chargesFor(request, reference)).find((c) => c.paymentMethod.paymentMethodType === 'QR_PROMPT_PAY')!;
  expect((await succeededRefundsFor(request, reference))[0]!.chargeId).toBe(qr.chargeId);
  expect((await demoOrder(request, reference)).paidBy).toBe(card.chargeId);
});

test('Enter in the security code pays, as in any form', async ({ page, request }) => {
  const reference = await openShop(page);
  await typeCard(page, { number: CARDS.visa });
  await page.getByLabel('Security code').press('Enter');
  await expectPaid(page);
  expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED' });
});

test('a declined card stays filled in but for its security code, with the reason above it and focus on it', async ({ page, request }) => {
  const reference = await openShop(page);
  await typeCard(page, { number: CARDS.insufficientFunds });
  await payButton(page).click();

  const reason = checkout(page).getByRole('alert').filter({ hasText: 'Payment not completed' });
  await expect(reason).toContainText('The card was declined for insufficient funds. Try another card, or pay with PromptPay.');
  await expect(reason).toBeFocused();
  await expect(page.getByLabel('Card number')).toHaveValue(spaced(CARDS.insufficientFunds));
  await expect(page.getByLabel('Name on card')).toHaveValue('Somchai Jaidee');
  await expect(page.getByLabel('Security code')).toHaveValue('');
  const box = (await reason.boundingBox())!;
  expect(box.y).toBeLessThan((await page.getByLabel('Card number').boundingBox())!.y);

  // Another card, the security code again, and Enter.
  await page.getByLabel('Card number').fill('');
  await page.getByLabel('Card number').pressSequentially(CARDS.visa);
  await page.getByLabel('Security code').pressSequentially('123');
  await page.getByLabel('Security code').press('Enter');
  await expectPaid(page);
  const charges = await chargesFor(request, reference);
  expect(charges.map((c) => c.status).sort()).toEqual(['FAILED', 'SUCCEEDED']);
});

test('every method has its mark, and the card brand shows at the number as it is detected', async ({ page }) => {
  await openShop(page);
  const methods = checkout(page).locator('[part="method"]');
  await expect(methods).toHaveCount(4); // mobile banking is for phones
  for (const method of await methods.all()) await expect(method.locator('svg.mark')).toBeVisible();

  const brand = checkout(page).locator('satang-card-form [part="brand"]');
  const colours: [string, string][] = [
    [CARDS.visa, '#1A1F71'],
    ['5555555555554444', '#EB001B'],
    ['378282246310005', '#2E77BC'],
    ['3530111333300000', '#0B4EA2'],
    ['6200000000000005', '#D7262A'],
  ];
  for (const [number, colour] of colours) {
    await page.getByLabel('Card number').fill('');
    await page.getByLabel('Card number').pressSequentially(number.slice(0, 6));
    await expect(brand.locator('svg path').first()).toHaveAttribute('fill', colour);
  }

  await chooseMethod(page, 'E-wallet');
  const wallets = page.getByRole('group', { name: 'Wallet' }).locator('[part="option"]');
  await expect(wallets).toHaveCount(6);
  for (const wallet of await wallets.all()) await expect(wallet.locator('svg.mark')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('marks.png') });
});

test('the chosen method stands out by more than colour, in the light and dark themes and in forced colours', async ({ page }) => {
  await page.goto('/demo/theming/');
  for (const theme of ['light', 'dark']) {
    const element = page.locator(theme === 'dark' ? 'satang-checkout[theme="dark"]' : 'satang-checkout').first();
    const looks = await element.evaluate((node) =>
      [...node.shadowRoot!.querySelectorAll('[part="method"]')].map((label) => {
        const style = getComputedStyle(label);
        return {
          checked: label.querySelector('input')!.checked,
          ring: style.boxShadow,
          background: style.backgroundColor,
          weight: style.fontWeight,
          textHeight: label.querySelector('span')!.getBoundingClientRect().height,
        };
      }),
    );
    const chosen = looks.find((l) => l.checked)!;
    const other = looks.find((l) => !l.checked)!;
    // A thicker border, drawn inward, and a tint: not by colour alone, and nothing in the label moves.
    expect(chosen.ring, theme).toContain('inset');
    expect(other.ring, theme).toBe('none');
    expect(chosen.background, theme).not.toBe(other.background);
    expect(chosen.weight, theme).toBe(other.weight);
    expect(chosen.textHeight, theme).toBe(other.textHeight);
  }
  await page.emulateMedia({ forcedColors: 'active' });
  const outlines = await page
    .locator('satang-checkout')
    .first()
    .evaluate((node) => [...node.shadowRoot!.querySelectorAll('[part="method"]')].map((label) => [label.querySelector('input')!.checked, getComputedStyle(label).outlineStyle, getComputedStyle(label).outlineWidth]));
  expect(outlines.filter(([checked]) => checked)).toEqual([[true, 'solid', '3px']]);
  expect(outlines.filter(([checked]) => !checked).every(([, style]) => style === 'none')).toBe(true);
});

test('on a computer, mobile banking is left out and PromptPay is offered for bank apps', async ({ page }) => {
  await openShop(page);
  await expect(checkout(page).getByRole('radio', { name: 'Mobile banking' })).toHaveCount(0);
  await expect(checkout(page).getByText('Paying with a bank app? On a computer, choose PromptPay QR and scan it with the app.')).toBeVisible();
});

test.describe('on a phone', () => {
  const { defaultBrowserType: _browser, ...pixel } = devices['Pixel 7'];
  test.use({ ...pixel });

  test('the QR screen says how to pay from this same phone, with the image to save, and mobile banking is offered', async ({ page }) => {
    await openShop(page);
    await expect(checkout(page).getByRole('radio', { name: 'Mobile banking', exact: true })).toBeVisible();
    await chooseMethod(page, 'PromptPay QR');
    await expect(checkout(page).getByText('On this phone, save its image, then open your banking app')).toBeVisible();
    await payButton(page).click();

    const qr = page.locator('satang-qr-payment');
    await expect(qr.getByText('Paying from this phone?')).toBeVisible();
    await expect(qr.getByText('1. Save the QR image.')).toBeVisible();
    await expect(qr.getByRole('link', { name: 'Save QR image' })).toHaveAttribute('download', 'promptpay-qr.png');
    await expect(qr.getByText('2. Open your banking app, choose Scan, and pick the image from your photos.')).toBeVisible();
    await expect(wayOut(page)).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('qr-on-a-phone.png'), fullPage: true });
  });

  test('at 320 pixels, in Thai, each method and the pay button take one line', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 800 });
    await openShop(page);
    await page.getByRole('navigation', { name: 'Language' }).getByRole('button', { name: 'ไทย' }).click();
    await expect(payButton(page)).toHaveText('ชำระเงิน ฿1,780.00');
    const lines = await checkout(page).evaluate((element) =>
      [...element.shadowRoot!.querySelectorAll('[part="method"] span, [part="pay-button"]')].map((node) => {
        const range = document.createRange();
        range.selectNodeContents(node);
        // One line box per line: the distinct tops of the text's rectangles.
        return [node.textContent.trim(), new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size] as const;
      }),
    );
    expect(lines.map(([text]) => text)).toEqual(['บัตรเครดิต/เดบิต', 'ผ่อนชำระ', 'พร้อมเพย์ QR', 'อีวอลเล็ต', 'โมบายแบงกิ้ง', 'ชำระเงิน ฿1,780.00']);
    for (const [text, count] of lines) expect(count, text).toBe(1);
    await page.screenshot({ path: test.info().outputPath('thai-320.png'), fullPage: true });
  });
});
