import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { chooseMethod, expect, expectPaid, expectSamePage, markPage, onlyChargeFor, openShop, payButton, qrCode, SANDBOX, scanQr, test } from './support.js';

/**
 * PromptPay paid by bank transfer: the payer's banking app transfers the money and hands over a
 * slip, but the charge stays PENDING until the slip is verified. The shopper uploads the slip in
 * the checkout, whose element reads its QR code in the browser and has the shop verify it.
 */

/** What the shop's checkout endpoint answered when the charge was created. */
interface CreatedCharge {
  chargeId: string;
  actionRequired: string;
  encodedImage: { rawData: string };
}

async function createsCharge(page: Page, press: () => Promise<void>): Promise<CreatedCharge> {
  const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/checkout/charges');
  await press();
  const answer = await created;
  expect(answer.status()).toBe(201);
  return (await answer.json()) as CreatedCharge;
}

// A sharper screenshot of the code, as a phone camera would see it.
test.use({ deviceScaleFactor: 2 });

test('a shopper pays the QR by bank transfer, uploads the slip, and sees success without reloading', async ({ page, context, request }) => {
  const reference = await openShop(page);
  await markPage(page);
  await chooseMethod(page, 'PromptPay QR');
  const charge = await createsCharge(page, () => payButton(page).click());
  expect(charge.actionRequired).toBe('ENCODED_IMAGE');
  const qr = page.locator('satang-qr-payment');
  // The service's PNG shows first; the drawn SVG replaces it.
  await expect(qr.locator('svg[role="img"]')).toBeVisible();
  const scanned = await scanQr(qrCode(page));
  expect(scanned).toBe(charge.encodedImage.rawData);

  // The payer's banking app, in a tab of its own: a transfer, and a slip to download.
  const payer = await context.newPage();
  await payer.goto(`${SANDBOX}/sandbox/pages/promptpay`);
  await payer.getByLabel('QR payload (rawData)').fill(scanned);
  await payer.getByRole('button', { name: 'Pay by bank transfer and get a slip' }).click();
  await expect(payer.getByRole('heading', { name: /^Transfer of ฿[\d,.]+ made$/ })).toBeVisible();
  const slipText = (await payer.locator('#slip-raw').textContent())!;
  const downloading = payer.waitForEvent('download');
  await payer.getByRole('link', { name: 'Download the slip image' }).click();
  const slipPath = test.info().outputPath('slip.png');
  await (await downloading).saveAs(slipPath);
  await payer.close();

  // The money moved, but nothing told the shop: the charge is still waiting.
  expect(await onlyChargeFor(request, reference)).toMatchObject({ chargeId: charge.chargeId, status: 'PENDING' });
  await expect(qr.getByText('Waiting for your payment…')).toBeVisible();

  const verified = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === `/api/checkout/charges/${charge.chargeId}/slip`);
  // Beside the code the slip is a quiet question, opened when the shopper asks.
  await expect(qr.getByLabel('Paid by bank transfer? Upload the slip')).toBeHidden();
  await qr.getByText('Paid but the page hasn’t updated?').click();
  await qr.getByLabel('Paid by bank transfer? Upload the slip').setInputFiles(slipPath);

  // Only the text of the slip's QR code went to the shop, not the picture.
  expect((await verified).postDataJSON()).toEqual({ raw: slipText });
  await expectPaid(page);
  await expectSamePage(page);
  const paid = await onlyChargeFor(request, reference);
  expect(paid).toMatchObject({ chargeId: charge.chargeId, status: 'SUCCEEDED', paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY' } });
});

/** A photo with no QR code in it: light paper with a dark band, as PNG. */
function photoWithoutQr(): Buffer {
  const png = new PNG({ width: 320, height: 240 });
  for (let y = 0; y < png.height; y += 1) {
    for (let x = 0; x < png.width; x += 1) {
      const i = (y * png.width + x) * 4;
      const shade = y > 100 && y < 140 ? 40 : 235;
      png.data[i] = png.data[i + 1] = png.data[i + 2] = shade;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

test('a picture without a QR code is refused with a clear message, reached by keyboard and announced, and nothing is charged', async ({ page, request }) => {
  const reference = await openShop(page);
  await chooseMethod(page, 'PromptPay QR');
  const charge = await createsCharge(page, () => payButton(page).click());
  const qr = page.locator('satang-qr-payment');
  const picker = qr.getByLabel('Paid by bank transfer? Upload the slip');
  await expect(qrCode(page)).toBeVisible();

  // The question is in the tab order, after the code; opened with Enter, the picker follows it.
  await qr.getByText('Save QR image').focus();
  await page.keyboard.press('Tab');
  await expect(qr.getByText('Paid but the page hasn’t updated?')).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(picker).toBeFocused();

  let slipPosts = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/slip')) slipPosts += 1;
  });
  await picker.setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: photoWithoutQr() });

  const notice = 'No QR code found in this picture. Try a sharper photo of the slip.';
  await expect(qr.locator('[part="slip-status"]')).toHaveText(notice);
  await expect(qr.locator('[part="slip-status"]')).toBeVisible();
  await expect(picker).toHaveAccessibleDescription(notice);
  await expect(qr.getByRole('status')).toHaveText(notice);
  await expect(picker).toBeEnabled();
  await expect(qr.getByText('Waiting for your payment…')).toBeVisible();
  expect(slipPosts).toBe(0);
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  expect(await onlyChargeFor(request, reference)).toMatchObject({ chargeId: charge.chargeId, status: 'PENDING' });
});
