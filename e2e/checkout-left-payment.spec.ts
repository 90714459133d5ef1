import { devices, type Page } from '@playwright/test';
import { CARDS, chargesFor, DEFAULT_TOTAL, expect, FROM_THE_SERVER, FUTURE_EXPIRY, openShop, OTP, payButton, succeededRefundsFor, test } from './support.js';

/**
 * A payment the shopper left and approved all the same: a 3-D Secure page left with Back, the order
 * paid by another card, then Forward to the old page and approved there. The order stays paid by
 * the other card, the server refunds the one just approved, and the page the shopper lands on says
 * so, in the shopper's language, on a phone.
 */

const { defaultBrowserType: _browser, ...pixel } = devices['Pixel 7'];
test.use({ ...pixel });

const WORDS = {
  en: {
    language: 'English',
    success: 'Payment successful',
    another: 'Choose another method',
    refunded: `The payment you approved afterwards (Card, ${DEFAULT_TOTAL}) was not needed: this order had already been paid, so it has been refunded in full.`,
  },
  th: {
    language: 'ไทย',
    success: 'ชำระเงินสำเร็จ',
    another: 'เลือกวิธีชำระเงินอื่น',
    refunded: `การชำระเงินที่คุณยืนยันภายหลัง (บัตรเครดิต/เดบิต ${DEFAULT_TOTAL}) ไม่จำเป็นแล้ว เพราะคำสั่งซื้อนี้ชำระเงินไปก่อนแล้ว จึงได้รับการคืนเงินเต็มจำนวนแล้ว`,
  },
} as const;

/** Types a card as a shopper does, in whatever language the form speaks; fields kept by the browser across Back are emptied first. */
async function typeCardAfresh(page: Page, number: string): Promise<void> {
  const form = page.locator('satang-card-form');
  for (const [id, text] of [['number', number], ['expiry', FUTURE_EXPIRY], ['cvc', '123'], ['holder', 'Somchai Jaidee']] as const) {
    await form.locator(`#${id}`).fill('');
    await form.locator(`#${id}`).pressSequentially(text);
  }
}

for (const language of ['en', 'th'] as const) {
  const words = WORDS[language];
  test(`(${language}) a 3-D Secure payment left with Back, the order paid by another card, then approved after Forward: the return says it was refunded`, async ({ page, request }) => {
    test.slow();
    const reference = await openShop(page);
    if (language === 'th') await page.getByRole('navigation', { name: 'Language' }).getByRole('button', { name: words.language }).click();
    await typeCardAfresh(page, CARDS.threeDSecure);
    await payButton(page).click();
    await expect(page.locator('#otp')).toBeVisible(FROM_THE_SERVER);
    const otpPage = page.url();

    // Back to the shop, the payment left for another card, which pays the order.
    await page.goBack();
    const checkout = page.locator('satang-checkout');
    await checkout.getByRole('button', { name: words.another }).click();
    await expect(payButton(page)).toBeVisible(FROM_THE_SERVER);
    await typeCardAfresh(page, CARDS.visa);
    await payButton(page).click();
    await expect(checkout.getByRole('heading', { name: words.success })).toBeVisible(FROM_THE_SERVER);
    const paidBy = (await chargesFor(request, reference)).find((c) => c.status === 'SUCCEEDED');
    expect(paidBy, 'the second card paid the order').toBeDefined();

    // Forward to the bank's page left open, and approve there.
    await page.goForward();
    await expect(page).toHaveURL(otpPage);
    await page.locator('#otp').fill(OTP);
    await page.locator('button[type="submit"]').click();

    // Back on the shop: the order paid (by the second card), and the card just approved refunded, said where the shopper lands.
    await expect(page).toHaveURL(new RegExp(`/demo/return\\.html\\?order=${reference}$`), FROM_THE_SERVER);
    const outcome = checkout.locator('[part="outcome"]');
    await expect(outcome.getByRole('heading', { name: words.success })).toBeVisible(FROM_THE_SERVER);
    await expect(outcome.locator('[part="refund-notice"]')).toHaveText(words.refunded, FROM_THE_SERVER);
    // Inside the status region the success is read from, so it is announced as it comes.
    await expect(outcome).toHaveAttribute('role', 'status');
    await expect(page.locator('.charge-id')).toHaveText(paidBy!.chargeId);

    const charges = await chargesFor(request, reference);
    expect(charges.filter((c) => c.status === 'SUCCEEDED')).toHaveLength(2);
    const approved = charges.find((c) => c.chargeId !== paidBy!.chargeId)!;
    await expect.poll(async () => (await succeededRefundsFor(request, reference)).map((r) => r.chargeId), FROM_THE_SERVER).toEqual([approved.chargeId]);
  });
}
