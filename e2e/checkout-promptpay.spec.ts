import type { Page } from '@playwright/test';
import {
  chargesFor,
  chooseMethod,
  DEFAULT_TOTAL,
  expect,
  expectPaid,
  expectSamePage,
  markPage,
  onlyChargeFor,
  openShop,
  payButton,
  payQrInSandbox,
  qrCode,
  scanQr,
  test,
} from './support.js';

/** PromptPay QR on the shop page: the code, paying it from another "phone", and its expiry. */

/** What the shop's checkout endpoint answered when the charge was created. */
interface CreatedCharge {
  chargeId: string;
  actionRequired: string;
  encodedImage: { rawData: string; expiry: string };
}

/** Presses pay (or "new QR") and answers the charge the shop created for it. */
async function createsCharge(page: Page, press: () => Promise<void>): Promise<CreatedCharge> {
  const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/checkout/charges');
  await press();
  const answer = await created;
  expect(answer.status()).toBe(201);
  return (await answer.json()) as CreatedCharge;
}

// A sharper screenshot of the code, as a phone camera would see it.
test.use({ deviceScaleFactor: 2 });

test('a shopper shows a PromptPay QR, pays it from their banking app, and sees success without reloading', async ({ page, context, request }) => {
  const reference = await openShop(page);
  await markPage(page);
  await chooseMethod(page, 'PromptPay QR');
  await expect(page.getByText(`Pay with any Thai banking app: press pay, then scan the QR code with the app and confirm ${DEFAULT_TOTAL}.`)).toBeVisible();
  const charge = await createsCharge(page, () => payButton(page).click());
  expect(charge.actionRequired).toBe('ENCODED_IMAGE');

  const qr = page.locator('satang-qr-payment');
  await expect(qr.getByText('Scan to pay with PromptPay')).toBeVisible();
  await expect(qr.getByText(DEFAULT_TOTAL, { exact: true })).toBeVisible();
  await expect(qr.getByRole('timer')).toHaveText(/^Expires in (10:00|09:\d\d)$/);
  await expect(qr.getByText('Waiting for your payment…')).toBeVisible();

  // What the code on screen says is exactly the charge's payload.
  const scanned = await scanQr(qrCode(page));
  expect(scanned).toBe(charge.encodedImage.rawData);
  await expect(qr).toHaveAttribute('raw-data', scanned);
  expect(scanned).toMatch(/^000201/); // an EMVCo QR payload
  const pending = await onlyChargeFor(request, reference);
  expect(pending).toMatchObject({ chargeId: charge.chargeId, status: 'PENDING', paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY' } });

  await payQrInSandbox(context, scanned);

  await expectPaid(page);
  await expectSamePage(page);
  expect(await onlyChargeFor(request, reference)).toMatchObject({ chargeId: charge.chargeId, status: 'SUCCEEDED' });
});

test('a QR code left until it expires offers a new one, which is a new charge that can be paid', async ({ page, context, request }) => {
  // The page's clock is Playwright's, so ten minutes pass in an instant. The shop and the sandbox
  // keep real time; the status long-poll is a real request and is not affected.
  await page.clock.install();
  const reference = await openShop(page);
  await markPage(page);
  await chooseMethod(page, 'PromptPay QR');
  const first = await createsCharge(page, () => payButton(page).click());
  const qr = page.locator('satang-qr-payment');
  await expect(qrCode(page)).toBeVisible();
  await expect(qr.getByRole('timer')).toHaveText(/^Expires in (10:00|09:\d\d)$/);

  await page.clock.fastForward(Date.parse(first.encodedImage.expiry) - Date.now() + 1_000);

  await expect(qr.getByRole('paragraph').filter({ hasText: 'This QR code has expired.' })).toBeVisible();
  await expect(qr.getByRole('status')).toHaveText('This QR code has expired.');
  await expect(qr.getByRole('timer')).toBeHidden();
  await expect(qrCode(page)).toBeHidden();
  // Only the page jumped ahead: the service's new code will expire ten minutes from real now, so
  // the page's clock is put back in step with it before asking for one.
  await page.clock.setSystemTime(Date.now());
  const second = await createsCharge(page, () => qr.getByRole('button', { name: 'Get a new QR code' }).click());

  expect(second.chargeId).not.toBe(first.chargeId);
  await expect(qr).toHaveAttribute('raw-data', second.encodedImage.rawData);
  await expect(qr.getByRole('timer')).toHaveText(/^Expires in (10:00|09:\d\d)$/);
  const scanned = await scanQr(qrCode(page));
  expect(scanned).toBe(second.encodedImage.rawData);
  expect(scanned).not.toBe(first.encodedImage.rawData);
  expect((await chargesFor(request, reference)).map((c) => [c.chargeId, c.status])).toEqual([
    [second.chargeId, 'PENDING'],
    [first.chargeId, 'PENDING'],
  ]);

  await payQrInSandbox(context, scanned);
  await expectPaid(page);
  await expectSamePage(page);
  expect((await chargesFor(request, reference)).map((c) => c.status)).toEqual(['SUCCEEDED', 'PENDING']);
});
