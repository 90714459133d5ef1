import { AxeBuilder } from '@axe-core/playwright';
import type { Locator, Page, Route } from '@playwright/test';
import { CARDS, chooseMethod, expect, expectNotPaid, expectPaid, FUTURE_EXPIRY, openShop, payButton, qrCode, spaced, test, typeCard } from './support.js';

/**
 * The checkout for people who use a keyboard or assistive technology: a whole payment without a
 * mouse, and axe-core scans of the page in each state the checkout goes through.
 */

/** Scans the whole page (the checkout's shadow trees included) and fails on serious or critical findings. */
async function expectNoSeriousViolations(page: Page, state: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${JSON.stringify(n.target)}\n      ${n.failureSummary?.replace(/\n/g, '\n      ')}`).join('\n')}`)
    .join('\n');
  expect(serious, `serious or critical axe violations ${state}:\n${report}`).toEqual([]);
}

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab', max = 30): Promise<void> {
  for (let presses = 0; presses < max; presses += 1) {
    await page.keyboard.press(key);
    if (await target.evaluate((element) => element.matches(':focus'))) return;
  }
  throw new Error(`${target.toString()} never got the focus after ${max} presses of ${key}`);
}

/** Holds the requests a route matches until `release()`; `held` resolves when the first one arrives. */
function holdRequests(): { handler: (route: Route) => Promise<void>; held: Promise<void>; release: () => void } {
  let arrived!: () => void;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (arrived = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    held,
    release,
    handler: async (route) => {
      arrived();
      await released;
      await route.continue();
    },
  };
}

test('a shopper pays by card with the keyboard alone', async ({ page }) => {
  await openShop(page);
  const method = (name: string) => page.getByRole('radio', { name, exact: true });

  await tabTo(page, method('Card'));
  await expect(method('Card')).toBeChecked();
  // Installments are disabled for this ฿1,780 order: the arrow keys pass them by.
  await expect(method('Installments')).toBeDisabled();
  await page.keyboard.press('ArrowDown');
  await expect(method('PromptPay QR')).toBeChecked();
  await expect(page.getByText('Pay with any Thai banking app: press pay, then scan the QR code with the app and confirm ฿1,780.00.')).toBeVisible();
  await page.keyboard.press('ArrowUp');
  await expect(method('Card')).toBeFocused();
  await page.keyboard.press('Space');
  await expect(method('Card')).toBeChecked();

  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Card number')).toBeFocused();
  await page.keyboard.type(CARDS.visa);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Expiry date')).toBeFocused();
  await page.keyboard.type(FUTURE_EXPIRY.replace('/', ''));
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Security code')).toBeFocused();
  await page.keyboard.type('123');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Name on card')).toBeFocused();
  await page.keyboard.type('Somchai Jaidee');
  await page.keyboard.press('Tab');
  await expect(payButton(page)).toBeFocused();
  // A look back at the card number, and on to pay again.
  await tabTo(page, page.getByLabel('Card number'), 'Shift+Tab', 4);
  await expect(page.getByLabel('Card number')).toHaveValue(spaced(CARDS.visa));
  await expect(page.getByLabel('Expiry date')).toHaveValue(FUTURE_EXPIRY);
  await tabTo(page, payButton(page), 'Tab', 4);
  await page.keyboard.press('Enter');

  await expectPaid(page);
  // The shop moves the focus to its confirmation, so a screen reader reads it next.
  await expect(page.getByRole('region', { name: 'Thank you, your order is confirmed' })).toBeFocused();
});

test.describe('axe-core finds no serious or critical violations', () => {
  test('on the page as it opens, and with the card errors shown', async ({ page }) => {
    await openShop(page);
    await expectNoSeriousViolations(page, 'on the page as it opens');

    await payButton(page).click();
    await expect(page.getByLabel('Card number')).toHaveAttribute('aria-invalid', 'true');
    await expectNoSeriousViolations(page, 'with the card errors shown');
  });

  test('with the wallets listed, and with installments disabled for the order, their minimum beside them', async ({ page }) => {
    await openShop(page);
    await expect(page.getByRole('radio', { name: 'Installments', exact: true })).toHaveAccessibleDescription('From ฿3,000.00');
    await expectNoSeriousViolations(page, 'with installments disabled');
    await chooseMethod(page, 'E-wallet');
    await expectNoSeriousViolations(page, 'with E-wallet chosen');
  });

  test('while a card payment is processing, while it is being checked, and once it succeeded', async ({ page }) => {
    // Three full axe-core scans and a payment: on a machine at a load of 16 on two cores it took
    // longer than the default 60 s. A longer deadline, not a wait: it ends when the page is scanned.
    test.slow();
    await openShop(page);
    const create = holdRequests();
    const status = holdRequests();
    await page.route('**/api/checkout/charges', create.handler);
    await page.route('**/api/checkout/charges/*/status*', status.handler);
    await typeCard(page, { number: CARDS.visa });
    await payButton(page).click();

    await create.held;
    await expect(page.getByRole('button', { name: 'Processing…' })).toBeDisabled();
    await expectNoSeriousViolations(page, 'while the payment is processing');
    create.release();

    await status.held;
    await expect(page.getByRole('status').filter({ hasText: 'Checking your payment…' })).toBeVisible();
    await expectNoSeriousViolations(page, 'while the payment is being checked');
    status.release();

    await expectPaid(page);
    await expectNoSeriousViolations(page, 'once the payment succeeded');
  });

  test('once a card payment failed', async ({ page }) => {
    await openShop(page);
    await typeCard(page, { number: CARDS.insufficientFunds });
    await payButton(page).click();
    await expectNotPaid(page, 'insufficient funds');
    await expectNoSeriousViolations(page, 'once the payment failed');
  });

  test('while a PromptPay QR code is shown, and once it has expired', async ({ page }) => {
    // Two full axe-core scans and a QR charge: a longer deadline for the same reason as above.
    test.slow();
    await page.clock.install();
    await openShop(page);
    await chooseMethod(page, 'PromptPay QR');
    await payButton(page).click();
    await expect(qrCode(page)).toBeVisible();
    await expectNoSeriousViolations(page, 'while the QR code is shown');

    await page.clock.fastForward('10:01');
    await expect(page.getByRole('button', { name: 'Get a new QR code' })).toBeVisible();
    await expectNoSeriousViolations(page, 'once the QR code has expired');
  });
});
