import { CARDS, expect, expectPaid, payButton, test, typeCard } from './support.js';

test('a shopper pays on the page served under a strict Content-Security-Policy, and the browser blocks nothing', async ({ page }) => {
  const violations: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const seen = window as unknown as { violations?: string[] };
      (seen.violations ??= []).push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content.Security.Policy|Trusted Type/i.test(message.text())) violations.push(message.text());
  });
  const answer = await page.goto('/demo/csp/');
  expect(answer!.headers()['content-security-policy']).toContain("require-trusted-types-for 'script'");
  await expect(payButton(page)).toBeVisible();
  await typeCard(page, { number: CARDS.visa });
  await payButton(page).click();
  await expectPaid(page);
  violations.push(...(await page.evaluate(() => (window as unknown as { violations?: string[] }).violations ?? [])));
  expect(violations).toEqual([]);
});

test('a shopper pays in the React SPA, which follows the payment through the checkout events', async ({ page }) => {
  await page.goto('/demo/spa/');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(payButton(page)).toBeVisible();
  await typeCard(page, { number: CARDS.visa });
  await payButton(page).click();
  await expect(page.getByRole('heading', { name: 'Thank you, your order is confirmed' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(/ch_\w+/).first()).toBeVisible();
});

test('a tab of the React SPA still on the cart of an order paid in another tab says the order is paid, not that the connection failed', async ({ page, context }) => {
  await page.goto('/demo/spa/');
  await expect(page.getByRole('button', { name: 'Continue to payment' })).toBeVisible();
  await expect(page).toHaveURL(/order=/);
  const other = await context.newPage();
  await other.goto(page.url());
  await other.getByRole('button', { name: 'Continue to payment' }).click();
  await typeCard(other, { number: CARDS.visa });
  await payButton(other).click();
  await expect(other.getByRole('heading', { name: 'Thank you, your order is confirmed' })).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'One more' }).first().click();
  await expect(page.getByText('This order is paid and can no longer change.')).toBeVisible();
  await expect(page.getByText(/Check your connection/)).toHaveCount(0);
});

test('a designer sees the same checkout in three themes, styled only from the page', async ({ page }) => {
  await page.goto('/demo/theming/');
  const buttons = page.locator('satang-checkout').getByRole('button', { name: /^Pay/ });
  await expect(buttons).toHaveCount(3);
  const looks = await buttons.evaluateAll((all) =>
    all.map((button) => {
      const style = getComputedStyle(button);
      return `${style.backgroundColor} ${style.borderTopLeftRadius}`;
    }),
  );
  expect(new Set(looks).size).toBe(3);
  const inputs = page.locator('satang-checkout').getByLabel('Card number');
  const fields = await inputs.evaluateAll((all) => all.map((input) => getComputedStyle(input).backgroundColor));
  expect(new Set(fields).size, 'the themes reach the card fields inside the checkout').toBeGreaterThan(1);
});
