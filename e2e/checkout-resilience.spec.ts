import { CARDS, chargesFor, expect, expectPaid, onlyChargeFor, openShop, payButton, test, typeCard } from './support.js';

/** What a shopper's impatience and a bad connection must not do: charge twice, or lose the card. */

const CREATE_CHARGE = '**/api/checkout/charges';

test('a shopper who double-clicks pay is charged exactly once', async ({ page, request }) => {
  const reference = await openShop(page);
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/checkout/charges') posts.push(r.url());
  });
  await typeCard(page, { number: CARDS.visa });
  await payButton(page).dblclick();

  await expectPaid(page);
  expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED' });
  expect(posts, 'the page asked the shop for one charge').toHaveLength(1);
});

test('a shopper whose connection drops while paying, after the shop made the charge, sees it paid: asked again under the same key, one charge', async ({ page, request }) => {
  const reference = await openShop(page);
  // The first answer is lost on the way back: the shop did create the charge, the page never hears.
  let dropped = 0;
  const keys: (string | undefined)[] = [];
  await page.route(CREATE_CHARGE, async (route) => {
    keys.push(route.request().headers()['idempotency-key']);
    if (dropped > 0) return route.continue();
    dropped += 1;
    await route.fetch();
    await route.abort('failed');
  });
  await typeCard(page, { number: CARDS.visa });
  await payButton(page).click();

  // The page asks where the order stands (paying), and sends the same attempt again.
  await expectPaid(page);
  expect(dropped).toBe(1);
  expect(keys).toHaveLength(2);
  expect(new Set(keys).size, 'one attempt, one key').toBe(1);
  expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED' });
});

test('a shopper whose request never leaves the browser is told clearly, and a retry pays once', async ({ page, request }) => {
  const reference = await openShop(page);
  let dropped = 0;
  await page.route(CREATE_CHARGE, async (route) => {
    if (dropped > 0) return route.continue();
    dropped += 1;
    await route.abort('internetdisconnected');
  });
  await typeCard(page, { number: CARDS.visa });
  await payButton(page).click();

  await expect(page.locator('satang-checkout').getByRole('alert')).toHaveText('We could not reach the payment service. Your details are kept: try again.');
  expect(await chargesFor(request, reference), 'nothing reached the shop').toHaveLength(0);
  await page.locator('satang-checkout').getByRole('button', { name: 'Try again' }).click();

  await expectPaid(page);
  expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED' });
});

test('a shopper whose answer was lost cannot change the cart before retrying, and is charged once', async ({ page, request }) => {
  const reference = await openShop(page);
  let dropped = 0;
  await page.route(CREATE_CHARGE, async (route) => {
    if (dropped > 0) return route.continue();
    dropped += 1;
    await route.fetch();
    await route.abort('failed');
  });
  // The connection stays down a moment longer: where the order stands cannot be asked either.
  let stateDropped = false;
  await page.route('**/api/checkout/orders/*/state', async (route) => {
    if (dropped === 0 || stateDropped) return route.continue();
    stateDropped = true;
    await route.abort('failed');
  });
  await typeCard(page, { number: CARDS.visa });
  await payButton(page).click();
  const checkout = page.locator('satang-checkout');
  await expect(checkout.getByRole('alert')).toHaveText('We could not reach the payment service. Your details are kept: try again.');

  const oneMoreScarf = page.getByRole('group', { name: 'Quantity: Thai silk scarf' }).getByRole('button', { name: 'One more' });
  await expect(oneMoreScarf, 'the cart stays as it was charged').toBeDisabled({ timeout: 2_000 });
  await checkout.getByRole('button', { name: 'Try again' }).click();
  await expectPaid(page);
  expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED', amount: 178_000 });
});

test('a shopper who opens a paid order again cannot pay it a second time', async ({ page, request }) => {
  const reference = await openShop(page);
  await typeCard(page, { number: CARDS.visa });
  await payButton(page).click();
  await expectPaid(page);

  // In the same tab, the page shows the order paid, with nothing to pay.
  await page.goto(`/demo/return.html?order=${reference}`);
  await expect(page.locator('satang-checkout').getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  await expect(payButton(page)).toBeHidden();

  // In another tab (which has not kept this one's payment): the shop's server says the order is
  // paid, with nothing left to pay and nothing to type.
  const other = await page.context().newPage();
  await other.goto(`/demo/return.html?order=${reference}`);
  const alert = other.locator('satang-checkout').getByRole('alert');
  await expect(alert).toContainText('This order is paid', { timeout: 10_000 });
  await expect(payButton(other)).toBeHidden();
  expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED' });
});
