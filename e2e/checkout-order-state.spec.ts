import { AxeBuilder } from '@axe-core/playwright';
import { devices, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import {
  CARDS,
  chargesFor,
  chooseMethod,
  demoOrder,
  expect,
  expectSamePage,
  expectPaid,
  FROM_THE_SERVER,
  markPage,
  onlyChargeFor,
  openOrderInNewTab,
  openShop,
  OTP,
  payButton,
  payQrInSandbox,
  qrCode,
  scanQr,
  shopperContext,
  succeededRefundsFor,
  test,
  typeCard,
} from './support.js';

/**
 * What the shopper sees is the order as the shop's server knows it (`order-token`): in every tab,
 * on every return, on a slow network. A paid order reads paid without typing; a payment under way
 * is shown wherever the order is opened; no screen offers to pay while a payment may be going
 * through.
 */

const ALREADY_PAID = 'This order is paid';

/** The checkout's heading that says the order is paid: by this tab's payment, or by another. */
function paidHeading(page: Page): Locator {
  return page.locator('satang-checkout').getByRole('heading', { name: new RegExp(`^(Payment successful|${ALREADY_PAID})$`) });
}

/** Keeps the checkout events the page receives from its next load on (and from now, if it is loaded). */
async function recordEvents(page: Page): Promise<void> {
  await page.addInitScript(record);
  if (page.url() !== 'about:blank') await page.evaluate(record);
}

/** Runs in the page: keeps each checkout event's type (and an error's code) in `window.__events`. */
function record(): void {
  const seen: string[] = [];
  (window as unknown as { __events: string[] }).__events = seen;
  for (const type of ['satang-success', 'satang-failure', 'satang-already-paid', 'satang-resume', 'satang-abandon', 'satang-error']) {
    document.addEventListener(type, (event) => {
      const code = (event as Event & { code?: unknown }).code;
      seen.push(typeof code === 'string' ? `${type} ${code}` : type);
    });
  }
}

function events(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __events: string[] }).__events);
}

/**
 * Watches, on every frame from now on, whether the checkout's form (its method picker and pay
 * button) is ever shown: `sawForm` answers whether it was.
 */
async function watchForm(page: Page): Promise<void> {
  await page.evaluate(() => {
    const state: { seen: boolean } = { seen: false };
    (window as unknown as { __form: { seen: boolean } }).__form = state;
    const tick = () => {
      const form = document.querySelector('satang-checkout')?.shadowRoot?.querySelector<HTMLElement>('.form');
      if (form && !form.hidden && form.getClientRects().length > 0) state.seen = true;
      requestAnimationFrame(tick);
    };
    tick();
  });
}

function sawForm(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { __form: { seen: boolean } }).__form.seen);
}

/** Scans the whole page (the checkout's shadow trees included): no violation of any impact. */
async function expectNoAxeViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`)).toEqual([]);
}

/** A QR shown in `page` for its order; answers the order reference and the QR charge's id. */
async function showQr(page: Page, request: Parameters<typeof onlyChargeFor>[0]): Promise<{ reference: string; qrCharge: string }> {
  const reference = await openShop(page);
  await chooseMethod(page, 'PromptPay QR');
  await payButton(page).click();
  await expect(qrCode(page)).toBeVisible();
  const qr = await onlyChargeFor(request, reference);
  expect(qr).toMatchObject({ status: 'PENDING', paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY' } });
  return { reference, qrCharge: qr.chargeId };
}

/** Leaves the QR shown for another method, as the shopper presses "Choose another method"; checks what the form then says. */
async function leaveQr(page: Page): Promise<void> {
  await page.locator('satang-checkout').getByRole('button', { name: 'Choose another method' }).click();
  const notice = page.locator('satang-checkout').locator('[part="message"]');
  await expect(notice).toContainText(/The QR code you left can still be paid until \d\d:\d\d\. If you pay it and another way too, one of the payments is refunded\./);
  await expect(page.getByRole('radio', { name: 'PromptPay QR', exact: true })).not.toBeChecked();
  await expect(page.getByRole('radio', { name: 'Card', exact: true })).toBeChecked();
}

/** A payment paid on a page away from the shop: how it starts, where it is paid, what the service records. */
interface PageAway {
  page: string;
  /** Offered on a phone only (bank apps). */
  phone: boolean;
  start(page: Page): Promise<void>;
  /** On the page away: shown once it is there. */
  shown(tab: Page): Locator;
  pay(tab: Page): Promise<void>;
  type: string;
}

const PAGES_AWAY: readonly PageAway[] = [
  {
    page: '3-D Secure',
    phone: false,
    start: (page) => typeCard(page, { number: CARDS.threeDSecure }),
    shown: (tab) => tab.getByLabel('One-time password'),
    async pay(tab) {
      await tab.getByLabel('One-time password').fill(OTP);
      await tab.getByRole('button', { name: /Verify and pay|ยืนยันและชำระ/ }).click();
    },
    type: 'CARD',
  },
  {
    page: 'wallet',
    phone: false,
    async start(page) {
      await chooseMethod(page, 'E-wallet');
      await page.getByRole('group', { name: 'Wallet' }).getByRole('radio', { name: 'TrueMoney' }).check();
    },
    shown: (tab) => tab.getByRole('button', { name: 'Approve' }),
    pay: (tab) => tab.getByRole('button', { name: 'Approve' }).click(),
    type: 'TRUE_MONEY',
  },
  {
    page: 'bank app',
    phone: true,
    async start(page) {
      await chooseMethod(page, 'Mobile banking');
      await page.getByRole('group', { name: 'Bank app' }).getByRole('radio', { name: 'SCB EASY' }).check();
    },
    shown: (tab) => tab.getByRole('button', { name: 'Approve' }),
    pay: (tab) => tab.getByRole('button', { name: 'Approve' }).click(),
    type: 'SCB_EASY',
  },
];

/**
 * The shopper leaves for `method`'s page, comes Back without paying, and is also sent back in a new
 * tab (a bank app does that on phones): each shows progress and a way back to that page, never
 * Pay, with the cart locked. Paid there from the new tab: both tabs read paid, one charge.
 */
async function leaveAndComeBack(method: PageAway, page: Page, context: BrowserContext, request: Parameters<typeof onlyChargeFor>[0]): Promise<void> {
  test.slow();
  const reference = await openShop(page);
  await method.start(page);
  await payButton(page).click();
  await expect(method.shown(page)).toBeVisible();
  const awayUrl = page.url();

  // Back from the page away, not paid: progress, the cart locked, a way back, no Pay.
  await page.goBack();
  const backHere = page.locator('satang-checkout');
  await expect(backHere.getByRole('status').filter({ hasText: 'Checking your payment…' })).toBeVisible();
  await expect(backHere.locator('.spinner')).toBeVisible();
  // Nothing turns while the payment waits on the shopper at the other page.
  await expect(backHere.locator('.spinner')).toHaveCSS('animation-name', 'none');
  await expect(backHere.getByRole('link', { name: 'Go back to finish paying' })).toHaveAttribute('href', awayUrl);
  await expect(payButton(page)).toBeHidden();
  await expect(page.getByRole('group', { name: 'Quantity: Thai silk scarf' }).getByRole('button', { name: 'One more' })).toBeDisabled();
  await expectNoAxeViolations(page);

  // Sent back in a new tab, with nothing of the first tab's storage: the server's word picks it up.
  const returned = await context.newPage();
  await returned.goto(`/demo/return.html?order=${encodeURIComponent(reference)}&satang-return=1`);
  const there = returned.locator('satang-checkout');
  await expect(there.getByRole('status').filter({ hasText: 'Checking your payment…' })).toBeVisible(FROM_THE_SERVER);
  const back = there.getByRole('link', { name: 'Go back to finish paying' });
  await expect(back).toHaveAttribute('href', awayUrl);
  await expect(payButton(returned)).toBeHidden();
  // The mark of the return leaves the address once the payment is picked up.
  await expect(returned).toHaveURL(`/demo/return.html?order=${reference}`);

  await back.click();
  await method.pay(returned);
  await expectPaid(returned);
  // The first tab, still checking, reads paid too, with nothing offered to pay.
  await expect(paidHeading(page)).toBeVisible(FROM_THE_SERVER);
  await expect(payButton(page)).toBeHidden();
  expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED', paymentMethod: { paymentMethodType: method.type } });
}

/** A second shopper's device: a browser context of its own (no storage, no tabs in common). */
async function otherDevice(browser: Browser): Promise<BrowserContext> {
  return shopperContext(browser);
}

test.describe('a paid order', () => {
  test('opened on another device, it shows paid within seconds, with no pay button and nothing to type', async ({ page, browser, request }) => {
    test.slow();
    const reference = await openShop(page);
    await typeCard(page, { number: CARDS.visa });
    await payButton(page).click();
    await expectPaid(page);
    const charge = await onlyChargeFor(request, reference);

    const device = await otherDevice(browser);
    const other = await device.newPage();
    await recordEvents(other);
    await other.goto(`/?order=${encodeURIComponent(reference)}`);
    await expect(other.locator('satang-checkout').getByRole('heading', { name: ALREADY_PAID })).toBeVisible(FROM_THE_SERVER);
    await expect(payButton(other)).toBeHidden();
    await expect(other.getByRole('region', { name: 'Thank you, your order is confirmed' })).toContainText(`Payment ${charge.chargeId}`);
    await expect.poll(() => events(other)).toContain('satang-already-paid');
    await expectNoAxeViolations(other);
    expect((await chargesFor(request, reference)).map((c) => c.chargeId)).toEqual([charge.chargeId]);
    await device.close();
  });

  for (const back of ['shown again', 'back online'] as const) {
    test(`paid on another device while this one sits on the form: ${back}, the form reads paid, with nothing offered to pay`, async ({ page: idle, browser, request }) => {
      const reference = await openShop(idle);
      const device = await otherDevice(browser);
      const payer = await device.newPage();
      await payer.goto(`/?order=${encodeURIComponent(reference)}`);
      await typeCard(payer, { number: CARDS.visa });
      await payButton(payer).click();
      await expectPaid(payer);
      // No tab of its browser can tell the idle device: it learns it from the server when the shopper comes back to it.
      await expect(payButton(idle)).toBeVisible();
      if (back === 'back online') {
        await idle.context().setOffline(true);
        await idle.context().setOffline(false);
      } else {
        // The page hidden (another app in front), then shown: what the browser tells a page that comes back.
        await idle.evaluate(() => {
          Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
          document.dispatchEvent(new Event('visibilitychange'));
          Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
          document.dispatchEvent(new Event('visibilitychange'));
        });
      }
      await expect(paidHeading(idle)).toBeVisible(FROM_THE_SERVER);
      await expect(payButton(idle)).toBeHidden();
      expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED' });
      await device.close();
    });
  }

  test('opened in a new tab of the same browser after a reload of the first, it reads paid there too', async ({ page, context, request }) => {
    const reference = await openShop(page);
    await typeCard(page, { number: CARDS.visa });
    await payButton(page).click();
    await expectPaid(page);
    const tab = await context.newPage();
    await tab.goto(`/demo/return.html?order=${encodeURIComponent(reference)}`);
    await expect(paidHeading(tab)).toBeVisible(FROM_THE_SERVER);
    await expect(payButton(tab)).toBeHidden();
    expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED' });
  });

  test('a forged order token is reported (satang-error) and the checkout still takes the payment', async ({ page }) => {
    await page.goto('/demo/theming/');
    await recordEvents(page);
    const errors = page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const source = document.querySelector('satang-checkout')!;
          const checkout = document.createElement('satang-checkout');
          for (const { name, value } of source.attributes) checkout.setAttribute(name, value);
          checkout.setAttribute('order-token', 'o1.9999999999999.forged-token-forged-token-forged-token-00000');
          checkout.addEventListener('satang-error', (event) => resolve((event as Event & { code: string }).code), { once: true });
          document.body.append(checkout);
        }),
    );
    expect(await errors).toBe('INVALID_ORDER_TOKEN');
    const added = page.locator('satang-checkout').last();
    await expect(added.getByRole('button', { name: /^Pay ฿/ })).toBeEnabled();
  });
});

test('a QR code left for a card and paid after the card paid the order: the page showing the order paid says it was refunded, without a reload', async ({ page, context, request }) => {
  const { reference, qrCharge } = await showQr(page, request);
  const rawData = await scanQr(qrCode(page));
  await leaveQr(page);
  await typeCard(page, { number: CARDS.visa });
  await payButton(page).click();
  await expectPaid(page);
  await markPage(page);

  // The payer scans the old code after all, on another device.
  await payQrInSandbox(context, rawData);
  const notice = page.locator('satang-checkout').locator('[part="refund-notice"]');
  await expect(notice).toContainText('was not needed: this order had already been paid, so it has been refunded in full.', FROM_THE_SERVER);
  await expectSamePage(page);
  expect((await chargesFor(request, reference)).find((c) => c.chargeId === qrCharge)).toMatchObject({ status: 'SUCCEEDED' });
  expect((await succeededRefundsFor(request, reference)).map((r) => r.chargeId)).toEqual([qrCharge]);
});

test.describe('two tabs of one order agree', () => {
  test('a tab opened while a QR is shown shows the same QR and locks the cart; paid by card there, the QR tab leaves its QR within a second', async ({
    page: qrTab,
    context,
    request,
  }) => {
    const { reference, qrCharge } = await showQr(qrTab, request);
    test.slow();
    await recordEvents(qrTab);

    const cardTab = await context.newPage();
    await recordEvents(cardTab);
    await cardTab.goto(`/?order=${encodeURIComponent(reference)}`);
    // The second tab shows the payment under way, not a form to pay again.
    await expect(qrCode(cardTab)).toBeVisible(FROM_THE_SERVER);
    expect(await cardTab.locator('satang-qr-payment').getAttribute('charge-id')).toBe(qrCharge);
    await expect(cardTab.getByRole('group', { name: 'Quantity: Thai silk scarf' }).getByRole('button', { name: 'One more' })).toBeDisabled();
    await expect.poll(() => events(cardTab)).toContain('satang-resume');

    await leaveQr(cardTab);
    await expectNoAxeViolations(cardTab);
    await expect.poll(() => events(cardTab)).toContain('satang-abandon');
    await typeCard(cardTab, { number: CARDS.visa });
    await payButton(cardTab).click();
    await expectPaid(cardTab);
    const paidAt = Date.now();

    await expect(qrCode(qrTab)).toBeHidden({ timeout: 5_000 });
    const leftAfterMs = Date.now() - paidAt;
    await expect(paidHeading(qrTab)).toBeVisible();
    await expect(payButton(qrTab)).toBeHidden();
    // Told by the other tab, not by its own status wait (25 s).
    expect(leftAfterMs, 'the QR tab left its QR within a second or so of the payment').toBeLessThan(3_000);

    const card = (await chargesFor(request, reference)).find((c) => c.chargeId !== qrCharge);
    expect(card).toMatchObject({ status: 'SUCCEEDED', paymentMethod: { paymentMethodType: 'CARD' } });
    expect(await demoOrder(request, reference)).toMatchObject({ paidBy: card!.chargeId });
  });

  for (const where of ['on another device', 'in a tab of a browser without BroadcastChannel'] as const) {
    test(`a QR ${where} learns from the server, within its status wait, that the order was paid by card`, async ({ page: qrPage, context, browser, request }) => {
      test.setTimeout(75_000);
      const sameBrowser = where !== 'on another device';
      // The same browser with no channel between its tabs: only the server can tell the QR tab.
      if (sameBrowser) await qrPage.addInitScript(() => Reflect.deleteProperty(window, 'BroadcastChannel'));
      const { reference } = await showQr(qrPage, request);
      expect(await qrPage.evaluate(() => typeof BroadcastChannel)).toBe(sameBrowser ? 'undefined' : 'function');
      const device = sameBrowser ? context : await otherDevice(browser);
      const cardPage = await device.newPage();
      await cardPage.goto(`/?order=${encodeURIComponent(reference)}`);
      await expect(qrCode(cardPage)).toBeVisible({ timeout: 20_000 });
      await leaveQr(cardPage);
      await typeCard(cardPage, { number: CARDS.visa });
      await payButton(cardPage).click();
      await expectPaid(cardPage);

      // No tab of its own browser told it: the server ends its status wait with the news as soon as
      // the card is settled (at the latest, the wait's end, 25 s, brings it).
      await expect(qrCode(qrPage)).toBeHidden({ timeout: 35_000 });
      await expect(qrPage.locator('satang-checkout').getByRole('heading', { name: ALREADY_PAID })).toBeVisible();
      await expect(payButton(qrPage)).toBeHidden();
      if (!sameBrowser) await device.close();
    });
  }
});

test.describe('a payment that may be going through', () => {
  test('on a slow network, "Checking your payment" shows progress, and its way out asks the server first: a card that went through shows paid, never the form', async ({
    page,
    request,
  }) => {
    test.slow();
    const reference = await openShop(page);
    await typeCard(page, { number: CARDS.visa });
    // Every answer now comes slowly, as on a weak phone signal, and the status wait's never.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 1_500, downloadThroughput: 20_000, uploadThroughput: 20_000 });
    let waitHeld!: () => void;
    const held = new Promise<void>((resolve) => (waitHeld = resolve));
    await page.route(
      (url) => /\/charges\/[^/]+\/status\?wait=/.test(url.pathname + url.search),
      () => {
        waitHeld();
        // Never answered: the long-poll hangs as on a network that lost it.
      },
    );
    await payButton(page).click();
    await held;
    const checking = page.locator('satang-checkout').getByRole('status').filter({ hasText: 'Checking your payment…' });
    await expect(checking).toBeVisible();
    await watchForm(page);
    await expect(checking.locator('.spinner')).toBeVisible();
    await page.locator('satang-checkout').getByRole('button', { name: 'Choose another method' }).click();
    await expect(paidHeading(page)).toBeVisible({ timeout: 20_000 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    expect(await sawForm(page), 'the form with its pay button never showed while the payment was going through').toBe(false);
    expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED' });
  });

  for (const method of PAGES_AWAY.filter((m) => !m.phone)) {
    test(`back from the ${method.page} page, and its return in a new tab: both offer that page again, never Pay; paid there, both tabs read paid`, async ({ page, context, request }) => {
      await leaveAndComeBack(method, page, context, request);
    });
  }

  test.describe('on a phone', () => {
    // A phone's screen and user agent, in the configured Chromium: mobile banking is offered there.
    const { defaultBrowserType: _browser, ...pixel } = devices['Pixel 7'];
    test.use({ ...pixel });
    for (const method of PAGES_AWAY.filter((m) => m.phone)) {
      test(`back from the ${method.page} page, and its return in a new tab: both offer that page again, never Pay; paid there, both tabs read paid`, async ({ page, context, request }) => {
        await leaveAndComeBack(method, page, context, request);
      });
    }
  });

  test('a tab opened on an order whose QR is open in another tab never offers to pay', async ({ page, context, request }) => {
    const { reference } = await showQr(page, request);
    const other = await openOrderInNewTab(context, reference, { payable: false });
    await expect(qrCode(other)).toBeVisible(FROM_THE_SERVER);
    await expect(payButton(other)).toBeHidden();
  });
});
