import { CARDS, chargesFor, expect, merchantApi, orderReference, OTP, payButton, SANDBOX, test, typeCard } from './support.js';

/** Pre-orders: the checkout with intent="authorize" reserves the amount; the shop captures or releases it later. */

async function openPreOrder(page: import('@playwright/test').Page): Promise<string> {
  await page.goto('/demo/authorize/');
  await expect(payButton(page)).toBeVisible();
  // Only card payments can be authorized: the checkout offers nothing else.
  await expect(page.getByRole('group', { name: 'Payment method' }).getByRole('radio')).toHaveCount(1);
  return orderReference(page);
}

async function authorizations(request: import('@playwright/test').APIRequestContext) {
  const answer = await request.get(`${SANDBOX}/api/v1/card-authorizations`, { params: { limit: 100 }, headers: merchantApi });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { data: { cardAuthorizationId: string; referenceId: string; status: string; amount: number; capturedAmount: number }[] }).data;
}

test('a shopper reserves a pre-order by card, nothing is charged, and the shop captures it when it ships', async ({ page, request }) => {
  const reference = await openPreOrder(page);
  await typeCard(page, { number: CARDS.visa });
  await payButton(page).click();

  const checkout = page.locator('satang-checkout');
  await expect(checkout.getByRole('heading', { name: 'Payment authorized' })).toBeVisible({ timeout: 15_000 });
  await expect(checkout.getByRole('status')).toContainText('฿1,780.00 is reserved on your card');
  const [authorization] = (await authorizations(request)).filter((a) => a.referenceId === reference);
  expect(authorization).toMatchObject({ status: 'AUTHORIZED', amount: 178_000 });
  expect(await chargesFor(request, reference), 'an authorization charges nothing').toEqual([]);
  await expect(page.locator('.authorization-id')).toHaveText(authorization!.cardAuthorizationId);

  await page.getByRole('button', { name: 'Capture (the order ships)' }).click();
  await expect(page.locator('.order-state')).toContainText('captured: charge ');
  const charges = await chargesFor(request, reference);
  expect(charges).toHaveLength(1);
  expect(charges[0]).toMatchObject({ status: 'SUCCEEDED', amount: 178_000 });
  const [captured] = (await authorizations(request)).filter((a) => a.referenceId === reference);
  expect(captured).toMatchObject({ status: 'CAPTURED', capturedAmount: 178_000 });
});

test('a shopper authorizes through 3-D Secure, and the shop releases the reservation without charging', async ({ page, request }) => {
  const reference = await openPreOrder(page);
  await typeCard(page, { number: CARDS.threeDSecure });
  await payButton(page).click();
  await page.getByLabel('One-time password').fill(OTP);
  await page.getByRole('button', { name: /^Verify/ }).click();

  await expect(page.locator('satang-checkout').getByRole('heading', { name: 'Payment authorized' })).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Cancel (release the card)' }).click();
  await expect(page.locator('.order-state')).toHaveText('canceled: the reservation is released');
  const [authorization] = (await authorizations(request)).filter((a) => a.referenceId === reference);
  expect(authorization).toMatchObject({ status: 'CANCELED' });
  expect(await chargesFor(request, reference)).toEqual([]);
});
