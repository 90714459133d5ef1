import type { Page, Route } from '@playwright/test';
import { CARDS, chargesFor, expect, expectSamePage, markPage, openShop, payButton, spaced, test, typeCard } from './support.js';

/**
 * The checkout follows a charge's redirect only to https, or to plain http on this machine. The
 * sandbox never answers anything else, so the shop's real answer to `POST /api/checkout/charges`
 * (a 3-D Secure card's REDIRECT) is taken and only its `redirect.redirectUrl` replaced, as a
 * compromised or misconfigured server could: the page must stay where it is and say why.
 */

const CREATE_CHARGE = '**/api/checkout/charges';
const REFUSED = 'The payment page address is not safe, so we did not open it. Please choose another method.';

/** Answers the real charge answer with another redirect address. */
function redirectTo(address: (chargeId: string) => string): (route: Route) => Promise<void> {
  return async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    const answer = await route.fetch();
    const body = (await answer.json()) as { chargeId: string; actionRequired: string; redirect?: { redirectUrl: string } };
    expect(body.actionRequired, 'the real answer is a redirect').toBe('REDIRECT');
    await route.fulfill({ response: answer, json: { ...body, redirect: { ...body.redirect, redirectUrl: address(body.chargeId) } } });
  };
}

/** Records the `satang-error` codes the checkout fires. */
async function watchErrors(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const codes: string[] = ((window as unknown as { __errors: string[] }).__errors = []);
    document.addEventListener('satang-error', (event) => void codes.push((event as Event & { code: string }).code));
  });
  return () => page.evaluate(() => (window as unknown as { __errors: string[] }).__errors);
}

const UNSAFE: readonly [string, (chargeId: string) => string][] = [
  ['plain http to another host', (id) => `http://evil.example/3ds/${id}`],
  ['plain http to a private address', (id) => `http://192.168.1.20:4010/sandbox/pages/otp/${id}`],
  ['plain http to a loopback look-alike', (id) => `http://localhost.evil.example/3ds/${id}`],
  ['plain http to a name under 127.0.0.1', (id) => `http://127.0.0.1.nip.io/3ds/${id}`],
  ['a javascript: URL', () => 'javascript:window.__hijacked=true'],
  ['an upper-case JAVASCRIPT: URL with spaces before it', () => '  JAVASCRIPT:window.__hijacked=true'],
  ['a data: URL', () => 'data:text/html,<script>opener&&(opener.__hijacked=true)</script>'],
  ['https with a bank name as credentials before the real host', (id) => `https://bank.example@evil.example/3ds/${id}`],
];

test('a charge answer redirecting anywhere but https or this machine is refused: the page stays, says why, and keeps nothing for a way back', async ({ page, context, request }) => {
  const reference = await openShop(page);
  const shopUrl = page.url();
  await markPage(page);
  const errors = await watchErrors(page);
  const left: string[] = [];
  context.on('request', (r) => {
    if (!['localhost', '127.0.0.1'].includes(new URL(r.url()).hostname)) left.push(r.url());
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) left.push(`navigated to ${frame.url()}`);
  });
  await typeCard(page, { number: CARDS.threeDSecure });

  // One shopper trying again after each refusal: every press is a new attempt with a new charge.
  for (const [index, [what, address]] of UNSAFE.entries()) {
    await test.step(what, async () => {
      await page.unrouteAll();
      await page.route(CREATE_CHARGE, redirectTo(address));
      const message = page.locator('satang-checkout').getByText(REFUSED);
      const created = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/checkout/charges'));
      await payButton(page).click();
      await created;

      // Each refusal is this attempt's own: one more error, and the message (cleared on every press) shown again.
      await expect.poll(errors).toEqual(Array(index + 1).fill('UNSAFE_REDIRECT'));
      await expect(message).toBeVisible();
      await expectSamePage(page);
      expect(page.url()).toBe(shopUrl);
      expect(left).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { __hijacked?: boolean }).__hijacked)).toBeUndefined();
      expect(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('satang:')))).toEqual([]);
      // Back on the form with the card as typed, ready for another try or another method.
      await expect(page.getByLabel('Card number')).toHaveValue(spaced(CARDS.threeDSecure));
      await expect(payButton(page)).toBeEnabled();
    });
  }
  // Nothing was retried behind the shopper's back: one charge per press, each left waiting.
  const charges = await chargesFor(request, reference);
  expect(charges.map((c) => c.status)).toEqual(Array(UNSAFE.length).fill('PENDING'));
});

test('the same answer with an https address is followed: the refusals above are the checkout’s own', async ({ page, context }) => {
  await openShop(page);
  await context.route('https://bank.example/**', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Bank</title><h1>Bank page</h1>' }));
  await page.route(CREATE_CHARGE, redirectTo((id) => `https://bank.example/3ds/${id}`));

  await typeCard(page, { number: CARDS.threeDSecure });
  await payButton(page).click();

  await expect(page).toHaveURL(/^https:\/\/bank\.example\/3ds\/ch_\w+$/);
  await expect(page.getByRole('heading', { name: 'Bank page' })).toBeVisible();
});
