import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { SatangCheckout } from '../src/elements/index.js';
import {
  CARDS,
  chargesFor,
  chooseMethod,
  DEFAULT_TOTAL,
  demoOrder,
  expect,
  expectPaid,
  FROM_THE_SERVER,
  onlyChargeFor,
  openOrderInNewTab,
  openShop,
  payButton,
  payQrInSandbox,
  qrCode,
  succeededRefundsFor,
  test,
  typeCard,
  type SandboxCharge,
} from './support.js';

/**
 * One payment per order, at the total the shopper approved, as shoppers meet it on the shop's
 * page: a second tab of a paid order, a QR left open while the order is paid by card elsewhere,
 * and a cart changed elsewhere after the page loaded. What the sandbox really charged and
 * refunded, and what the shop recorded, are read back from their APIs.
 */

/** The cart the repricing tests change the order to from "another tab": two scarves, two teas. */
const BIGGER_CART = [
  { sku: 'silk-scarf', quantity: 2 },
  { sku: 'jasmine-tea', quantity: 2 },
];
const BIGGER_TOTAL = '฿3,070.00';

const CONFIRMED = 'Thank you, your order is confirmed';

/** The checkout's notice (a conflict or an outcome) whose heading is `title`. */
function notice(page: Page, role: 'alert' | 'status', title: string): Locator {
  return page.locator('satang-checkout').getByRole(role).filter({ has: page.getByRole('heading', { name: title }) });
}

/**
 * Keeps the checkout events the page receives from now on, each with what it carries, so a test
 * can tell which event a view came with (`satang-already-paid`, not `satang-success`).
 */
async function recordCheckoutEvents(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __checkoutEvents: string[] }).__checkoutEvents = seen;
    const describe = (event: Event): string => {
      const { amount, previousAmount, chargeId, outcome } = event as Event & Record<string, unknown>;
      return [event.type, amount, previousAmount, chargeId, outcome].filter((part) => typeof part === 'string' || typeof part === 'number').join(' ');
    };
    for (const type of ['satang-submit', 'satang-success', 'satang-failure', 'satang-amount-changed', 'satang-already-paid']) {
      document.addEventListener(type, (event) => seen.push(describe(event)));
    }
  });
}

function checkoutEvents(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __checkoutEvents: string[] }).__checkoutEvents.filter((e) => !e.startsWith('satang-submit')));
}

/** The charges that went through and were not refunded: the ones the shopper really paid. */
function kept(charges: readonly SandboxCharge[], refundedChargeIds: readonly string[]): string[] {
  return charges.filter((c) => c.status === 'SUCCEEDED' && !refundedChargeIds.includes(c.chargeId)).map((c) => c.chargeId);
}

/**
 * Screenshots of a final state, kept with the test's results: as on a desktop, on a 375 px phone,
 * and on that phone in Thai (the language switch redraws the shop and the checkout in place).
 */
async function snapshot(page: Page, name: string): Promise<void> {
  const shot = (suffix: string) => page.screenshot({ path: test.info().outputPath(`${name}-${suffix}.png`), fullPage: true, animations: 'disabled' });
  await shot('desktop');
  await page.setViewportSize({ width: 375, height: 812 });
  await shot('375-en');
  await page.getByRole('button', { name: 'ไทย' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'th');
  await shot('375-th');
}

test.describe('two tabs of one order', () => {
  test('the order paid by card in one tab, the other tab shows it paid at once with nothing typed, charges nothing, and the shop confirms the first payment there', async ({
    page: tabA,
    context,
    request,
  }) => {
    const reference = await openShop(tabA);
    const tabB = await openOrderInNewTab(context, reference);
    await recordCheckoutEvents(tabB);

    await typeCard(tabA, { number: CARDS.visa });
    await payButton(tabA).click();
    await expectPaid(tabA);
    const paid = await onlyChargeFor(request, reference);
    expect(paid).toMatchObject({ status: 'SUCCEEDED', amount: 178_000, paymentMethod: { paymentMethodType: 'CARD' } });
    expect(await demoOrder(request, reference)).toMatchObject({ paidBy: paid.chargeId });

    // Tab A tells tab B at once: B asks the shop's server and shows the order paid, with nothing typed.
    await expect(notice(tabB, 'alert', 'This order is paid')).toContainText('There is nothing more to pay. Thank you.');
    await expect(payButton(tabB)).toBeHidden();
    await expect(tabB.locator('satang-checkout').getByRole('heading', { name: 'Payment successful' })).toBeHidden();
    await expect.poll(() => checkoutEvents(tabB)).toEqual(['satang-already-paid']);
    // The shop confirms the order in tab B too, naming the payment that paid it in tab A.
    const confirmation = tabB.getByRole('region', { name: CONFIRMED });
    await expect(confirmation).toContainText(`Order ${reference}`);
    await expect(confirmation).toContainText(`Payment ${paid.chargeId}`);
    await expect(tabB.getByRole('group', { name: 'Quantity: Thai silk scarf' }).getByRole('button', { name: 'One more' })).toBeDisabled();

    expect((await chargesFor(request, reference)).map((c) => [c.chargeId, c.status])).toEqual([[paid.chargeId, 'SUCCEEDED']]);
    expect(await demoOrder(request, reference)).toMatchObject({ paidBy: paid.chargeId, amount: 178_000 });
    await snapshot(tabB, 'already-paid');
  });

  test('both tabs pay by card at the same moment: one charge is made, and the other tab is refused and ends on "already paid" with the order confirmed', async ({
    page: tabA,
    context,
    request,
  }) => {
    const reference = await openShop(tabA);
    const tabB = await openOrderInNewTab(context, reference);
    await typeCard(tabA, { number: CARDS.visa });
    await typeCard(tabB, { number: CARDS.visa });

    // Both presses in the same instant: a DOM click each, since a tab told first that the order is
    // paid hides its button (a press there then does nothing, as it must).
    await Promise.all([tabA, tabB].map((tab) => payButton(tab).evaluate((button: HTMLButtonElement) => button.click())));

    // Exactly one tab succeeds; which one is the race's.
    const succeeded = (tab: Page) => tab.locator('satang-checkout').getByRole('heading', { name: 'Payment successful' });
    await expect.poll(async () => (await succeeded(tabA).isVisible()) || (await succeeded(tabB).isVisible()), { timeout: 15_000 }).toBe(true);
    const [winner, loser] = (await succeeded(tabA).isVisible()) ? [tabA, tabB] : [tabB, tabA];
    await expectPaid(winner);
    // The other tab was refused before any charge (while the winner's charge was being made, or
    // once it had paid the order), and then heard from the winner that the order is paid.
    const alreadyPaid = notice(loser, 'alert', 'This order is paid');
    await expect(alreadyPaid).toBeVisible({ timeout: 15_000 });
    await expect(succeeded(loser)).toBeHidden();

    const charge = await onlyChargeFor(request, reference);
    expect(charge).toMatchObject({ status: 'SUCCEEDED', amount: 178_000 });
    expect(await demoOrder(request, reference)).toMatchObject({ paidBy: charge.chargeId });
    for (const tab of [winner, loser]) await expect(tab.getByRole('region', { name: CONFIRMED })).toContainText(`Payment ${charge.chargeId}`);
  });
});

test('a QR left open in one tab while the order is paid by card in another: the QR tab shows the order paid, and the QR paid later all the same is refunded in full', async ({
  page: tabA,
  context,
  request,
}) => {
  const reference = await openShop(tabA);
  await chooseMethod(tabA, 'PromptPay QR');
  await payButton(tabA).click();
  await expect(qrCode(tabA)).toBeVisible();
  const rawData = await tabA.locator('satang-qr-payment').getAttribute('raw-data');
  expect(rawData).toMatch(/^000201/);
  const qr = await onlyChargeFor(request, reference);
  expect(qr).toMatchObject({ status: 'PENDING', amount: 178_000, paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY' } });

  // Tab B shows the QR under way rather than a form; its shopper leaves it and pays by card.
  const tabB = await openOrderInNewTab(context, reference, { payable: false });
  await expect(qrCode(tabB)).toBeVisible(FROM_THE_SERVER);
  await tabB.locator('satang-checkout').getByRole('button', { name: 'Choose another method' }).click();
  await expect(tabB.locator('satang-checkout').locator('[part="message"]')).toContainText('The QR code you left can still be paid until');
  expect((await chargesFor(request, reference)).map((c) => c.chargeId)).toEqual([qr.chargeId]);
  await typeCard(tabB, { number: CARDS.visa });
  await payButton(tabB).click();
  await expectPaid(tabB);
  const card = (await chargesFor(request, reference)).find((c) => c.chargeId !== qr.chargeId);
  expect(card).toMatchObject({ status: 'SUCCEEDED', amount: 178_000, paymentMethod: { paymentMethodType: 'CARD' } });
  expect(await demoOrder(request, reference)).toMatchObject({ paidBy: card!.chargeId });

  // Tab A leaves its QR for the order paid, and the shop confirms the card payment there.
  await expect(qrCode(tabA)).toBeHidden(FROM_THE_SERVER);
  await expect(tabA.locator('satang-checkout').getByRole('heading', { name: /^(Payment successful|This order is paid)$/ })).toBeVisible();
  await expect(payButton(tabA)).toBeHidden();
  await expect(tabA.getByRole('region', { name: CONFIRMED })).toContainText(`Payment ${card!.chargeId}`);

  // The QR's payer, who scanned it before, pays it anyway: refunded in full, the card pays the order.
  await payQrInSandbox(context, rawData!);
  await expect.poll(() => succeededRefundsFor(request, reference)).toEqual([expect.objectContaining({ chargeId: qr.chargeId, amount: 178_000, status: 'SUCCEEDED' })]);
  const charges = await chargesFor(request, reference);
  expect(charges.map((c) => [c.chargeId, c.status])).toEqual([
    [card!.chargeId, 'SUCCEEDED'],
    [qr.chargeId, 'SUCCEEDED'],
  ]);
  expect(kept(charges, [qr.chargeId])).toEqual([card!.chargeId]);
  expect(await demoOrder(request, reference)).toMatchObject({ paidBy: card!.chargeId });
  await expect(payButton(tabA)).toBeHidden();
  // Tab A, whose QR it was, says so (the card's tab never showed that QR paid): not needed, refunded in full.
  const refunded = 'was not needed: this order had already been paid, so it has been refunded in full.';
  await expect(tabA.locator('satang-checkout').locator('[part="refund-notice"]')).toContainText(refunded, FROM_THE_SERVER);
  // And again after a reload: what the tab left is kept with it.
  await tabA.reload();
  await expect(tabA.locator('satang-checkout').locator('[part="refund-notice"]')).toContainText(refunded, FROM_THE_SERVER);
  await snapshot(tabA, 'qr-left-paid-elsewhere');
});

test.describe('a cart changed in another tab after the page loaded', () => {
  /** Loads the checkout, then changes the cart behind the page's back; answers the order reference. */
  async function repriceBehindThePage(page: Page, request: APIRequestContext): Promise<string> {
    const reference = await openShop(page);
    await expect(page.locator('.total-amount')).toHaveText(DEFAULT_TOTAL);
    const changed = await request.put(`/api/demo/orders/${encodeURIComponent(reference)}`, { data: { lines: BIGGER_CART } });
    expect(changed.status(), await changed.text()).toBe(200);
    expect(await demoOrder(request, reference)).toMatchObject({ amount: 307_000 });
    // The page still shows what it loaded.
    await expect(payButton(page)).toHaveText(`Pay ${DEFAULT_TOTAL}`);
    await expect(page.locator('.total-amount')).toHaveText(DEFAULT_TOTAL);
    return reference;
  }

  test('paying shows the new total to confirm, with nothing charged; confirmed, the new total is charged', async ({ page, request }) => {
    const reference = await repriceBehindThePage(page, request);
    await recordCheckoutEvents(page);
    await typeCard(page, { number: CARDS.visa });
    await payButton(page).click();

    const changed = notice(page, 'alert', 'The total has changed');
    await expect(changed).toContainText(`The total is now ${BIGGER_TOTAL} (was ${DEFAULT_TOTAL}). Confirm to pay the new total.`);
    const confirm = changed.getByRole('button', { name: `Confirm and pay ${BIGGER_TOTAL}` });
    await expect(confirm).toBeVisible();
    await expect.poll(() => checkoutEvents(page)).toEqual(['satang-amount-changed 307000 178000']);
    // The shop's own cart follows: the total and the lines that make it.
    await expect(page.locator('.total-amount')).toHaveText(BIGGER_TOTAL);
    await expect(page.getByRole('group', { name: 'Quantity: Thai silk scarf' }).locator('output')).toHaveText('2');
    expect(await chargesFor(request, reference), 'nothing is charged before the shopper confirms').toEqual([]);
    await snapshot(page, 'amount-changed');
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.getByRole('button', { name: 'English' }).click();

    await confirm.click();
    await expectPaid(page, BIGGER_TOTAL);
    const charge = await onlyChargeFor(request, reference);
    expect(charge).toMatchObject({ status: 'SUCCEEDED', amount: 307_000, paymentMethod: { paymentMethodType: 'CARD' } });
    expect(await page.locator('satang-checkout').evaluate((element) => (element as SatangCheckout).amount)).toBe(307_000);
    expect(await demoOrder(request, reference)).toMatchObject({ paidBy: charge.chargeId, amount: 307_000 });
    await expect(page.getByRole('region', { name: CONFIRMED })).toContainText(`Payment ${charge.chargeId}`);
    await snapshot(page, 'repriced-paid');
  });

  test('going back from the new total, the pay button shows it and pays it', async ({ page, request }) => {
    const reference = await repriceBehindThePage(page, request);
    await typeCard(page, { number: CARDS.visa });
    await payButton(page).click();
    const changed = notice(page, 'alert', 'The total has changed');
    await expect(changed).toBeVisible();

    await changed.getByRole('button', { name: 'Back to payment methods' }).click();
    await expect(payButton(page)).toHaveText(`Pay ${BIGGER_TOTAL}`);
    await expect(page.locator('.total-amount')).toHaveText(BIGGER_TOTAL);
    expect(await chargesFor(request, reference)).toEqual([]);
    await payButton(page).click();

    await expectPaid(page, BIGGER_TOTAL);
    expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED', amount: 307_000 });
  });

  test('in the React SPA, the order summary beside the checkout follows the new total, which is then charged', async ({ page, request }) => {
    await page.goto('/demo/spa/');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await expect(payButton(page)).toHaveText(`Pay ${DEFAULT_TOTAL}`);
    const reference = new URL(page.url()).searchParams.get('order') ?? '';
    expect(reference).toMatch(/^demo-/);
    const changed = await request.put(`/api/demo/orders/${encodeURIComponent(reference)}`, { data: { lines: BIGGER_CART } });
    expect(changed.status(), await changed.text()).toBe(200);
    await typeCard(page, { number: CARDS.visa });
    await payButton(page).click();

    const confirm = notice(page, 'alert', 'The total has changed').getByRole('button', { name: `Confirm and pay ${BIGGER_TOTAL}` });
    await expect(confirm).toBeVisible();
    await expect(page.getByRole('heading', { name: `Pay ${BIGGER_TOTAL}` })).toBeVisible();
    await expect(page.locator('.total-amount')).toHaveText(BIGGER_TOTAL);
    await expect(page.locator('.summary-lines li').filter({ hasText: 'Thai silk scarf' })).toContainText('× 2');
    expect(await chargesFor(request, reference)).toEqual([]);

    await confirm.click();
    await expect(page.getByRole('heading', { name: CONFIRMED })).toBeVisible({ timeout: 15_000 });
    const charge = await onlyChargeFor(request, reference);
    expect(charge).toMatchObject({ status: 'SUCCEEDED', amount: 307_000 });
    await expect(page.locator('.charge-id')).toHaveText(charge.chargeId);
  });
});
