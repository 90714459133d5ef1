import { CARDS, expect, FROM_THE_SERVER, FUTURE_EXPIRY, onlyChargeFor, openShop, payButton, test } from './support.js';

/** The shop and its checkout in Thai: the language switch, the labels, the errors and a payment. */

test('a shopper switches the page to Thai, reads the checkout in Thai and pays by card', async ({ page, request }) => {
  const reference = await openShop(page);
  await page.getByRole('navigation', { name: 'Language' }).getByRole('button', { name: 'ไทย' }).click();

  await expect(page.locator('html')).toHaveAttribute('lang', 'th');
  await expect(page.getByRole('button', { name: 'ไทย' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('heading', { name: 'คำสั่งซื้อของคุณ' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'การชำระเงิน' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'จำนวน: ผ้าพันคอไหมไทย' })).toBeVisible();
  const methods = page.getByRole('group', { name: 'วิธีชำระเงิน' });
  // Mobile banking is for phones: on this computer it is left out.
  for (const name of ['บัตรเครดิต/เดบิต', 'ผ่อนชำระ', 'พร้อมเพย์ QR', 'อีวอลเล็ต']) {
    await expect(methods.getByRole('radio', { name, exact: true })).toBeVisible();
  }
  await expect(methods.getByRole('radio', { name: 'บัตรเครดิต/เดบิต' })).toBeChecked();
  await expect(page.getByRole('button', { name: 'ชำระเงิน ฿1,780.00' })).toBeVisible();

  // Pay with nothing entered: the errors are in Thai too.
  await payButton(page).click();
  await expect(page.getByLabel('หมายเลขบัตร')).toHaveAccessibleDescription('กรุณากรอกหมายเลขบัตร');
  await expect(page.getByLabel('วันหมดอายุ')).toHaveAccessibleDescription(/กรุณากรอกวันหมดอายุ/);
  await expect(page.getByLabel('รหัสความปลอดภัย')).toHaveAccessibleDescription(/กรุณากรอกรหัสความปลอดภัย/);
  await expect(page.getByLabel('ชื่อบนบัตร')).toHaveAccessibleDescription('กรุณากรอกชื่อตามที่ปรากฏบนบัตร');

  await page.getByLabel('หมายเลขบัตร').pressSequentially(CARDS.visa);
  await page.getByLabel('วันหมดอายุ').pressSequentially(FUTURE_EXPIRY);
  await page.getByLabel('รหัสความปลอดภัย').pressSequentially('123');
  await page.getByLabel('ชื่อบนบัตร').pressSequentially('สมชาย ใจดี');
  await page.getByRole('button', { name: 'ชำระเงิน ฿1,780.00' }).click();

  const checkout = page.locator('satang-checkout');
  await expect(checkout.getByRole('heading', { name: 'ชำระเงินสำเร็จ' })).toBeVisible({ timeout: 15_000 });
  await expect(checkout.getByRole('status')).toContainText('ขอบคุณ การชำระเงิน ฿1,780.00 เสร็จสมบูรณ์');
  await expect(page.getByRole('heading', { name: 'ขอบคุณ คำสั่งซื้อของคุณได้รับการยืนยันแล้ว' })).toBeVisible();
  expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED' });
});

test('a shopper reading in Thai is told in Thai that the card lacks funds', async ({ page }) => {
  await openShop(page);
  await page.getByRole('button', { name: 'ไทย' }).click();
  await page.getByLabel('หมายเลขบัตร').pressSequentially(CARDS.insufficientFunds);
  await page.getByLabel('วันหมดอายุ').pressSequentially(FUTURE_EXPIRY);
  await page.getByLabel('รหัสความปลอดภัย').pressSequentially('123');
  await page.getByLabel('ชื่อบนบัตร').pressSequentially('Somchai Jaidee');
  await payButton(page).click();

  const outcome = page.locator('satang-checkout').getByRole('alert');
  await expect(outcome).toContainText('การชำระเงินไม่สำเร็จ', { timeout: 15_000 });
  await expect(outcome).toContainText('บัตรถูกปฏิเสธเนื่องจากยอดเงินไม่เพียงพอ กรุณาใช้บัตรอื่น หรือชำระด้วยพร้อมเพย์');
  await expect(outcome).toBeFocused();
  await expect(page.getByLabel('หมายเลขบัตร')).toBeVisible();
});

test('a shopper reading in Thai sees the PromptPay QR code explained in Thai', async ({ page }) => {
  await openShop(page);
  await page.getByRole('button', { name: 'ไทย' }).click();
  await page.getByRole('radio', { name: 'พร้อมเพย์ QR' }).check();
  await expect(page.getByText('ชำระได้ด้วยแอปธนาคารไทยทุกแอป: กดชำระเงิน แล้วสแกนคิวอาร์โค้ดด้วยแอป และยืนยันยอด ฿1,780.00')).toBeVisible();
  await payButton(page).click();

  const qr = page.locator('satang-qr-payment');
  await expect(qr.getByText('สแกนเพื่อชำระด้วยพร้อมเพย์')).toBeVisible();
  await expect(qr.getByRole('img', { name: 'คิวอาร์โค้ดพร้อมเพย์ ยอด ฿1,780.00' })).toBeVisible();
  await expect(qr.getByRole('timer')).toHaveText(/^หมดอายุใน (10:00|09:\d\d)$/);
  await expect(qr.getByText('กำลังรอการชำระเงิน…')).toBeVisible();
});

test('a shopper reading in Thai who pays with TrueMoney comes back to the shop still in Thai', async ({ page }) => {
  const reference = await openShop(page);
  await page.getByRole('button', { name: 'ไทย' }).click();
  await page.getByRole('radio', { name: 'อีวอลเล็ต' }).check();
  await page.getByRole('group', { name: 'วอลเล็ต' }).getByRole('radio', { name: 'TrueMoney' }).check();
  await payButton(page).click();
  await page.getByRole('button', { name: 'Approve' }).click();

  await expect(page).toHaveURL(`/demo/return.html?order=${reference}`, FROM_THE_SERVER);
  await expect(page.locator('satang-checkout').getByRole('heading', { name: /Payment successful|ชำระเงินสำเร็จ/ })).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('html')).toHaveAttribute('lang', 'th', { timeout: 1_000 });
  await expect(page.locator('satang-checkout').getByRole('heading', { name: 'ชำระเงินสำเร็จ' })).toBeVisible({ timeout: 1_000 });
});
