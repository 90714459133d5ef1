import { test as base, expect, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { E2E_SANDBOX_PORT, E2E_SHOP_PORT } from '../playwright.config.js';
import { SANDBOX_DEFAULTS, SANDBOX_OTP_CODE } from '../src/sandbox/defaults.js';
import { buildCheckout } from '../test/bench/sizes.js';

/**
 * What the checkout end-to-end tests share: the shop page as a shopper sees it, the sandbox's test
 * cards and payer pages, and the sandbox's merchant API to read back what was really charged.
 */

/**
 * Playwright's `test`, with the pages kept off Vite's live-reload socket: the shop is served by
 * Vite's dev server, which reloads open pages when a source file is saved, and a reload in the
 * middle of a payment would start a new order. The socket opens (so Vite's client is content)
 * but nothing is ever sent on it.
 */
export const test = base.extend({
  context: async ({ context }, use) => {
    await prepareContext(context);
    await use(context);
  },
  // The tests' own calls to the shop and the sandbox open a connection each. Playwright's client
  // keeps an idle connection for as long as the server does not close it, and sends on it again
  // without retrying; the servers here (node:http) close theirs after 5 s idle, as their
  // `Keep-Alive: timeout=5` says. A call sent just as the server closed its connection failed
  // with ECONNRESET (seen reading the sandbox's transactions under load). Browsers honour that
  // timeout, and the handler's own service client asks again.
  request: async ({ playwright, baseURL }, use) => {
    const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { connection: 'close' } });
    await use(request);
    await request.dispose();
  },
});

/** A browser context as a shopper's: kept off Vite's live reload, and on the built elements when the run says so. */
async function prepareContext(context: BrowserContext): Promise<void> {
  await context.routeWebSocket((url) => url.port === String(E2E_SHOP_PORT) && url.searchParams.has('token'), () => undefined);
  if (process.env.E2E_ELEMENTS === 'built') await serveBuiltElements(context);
}

/** Another shopper's device, or the same shopper's other browser: a context of its own (no storage or tabs in common). Close it after use. */
export async function shopperContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext();
  await prepareContext(context);
  return context;
}

let built: Promise<Map<string, string>> | undefined;

/** The requests for the elements a page makes: its script tag's module, and the chunks the built entry loads. */
export const ELEMENT_FILES = /\/src\/elements\/(index\.ts|satang\.js|chunks\/[\w.-]+\.js)(\?.*)?$/;

/**
 * Serves the pages' `<script src="/src/elements/index.ts">` from the production build of
 * vite.config.ts (satang.js, its lazy chunks next to it), made once per worker in memory, instead
 * of the source modules the dev server serves: the files a merchant ships. `npm run test:e2e:built`
 * runs every test so (`E2E_ELEMENTS=built`).
 */
export async function serveBuiltElements(target: Page | BrowserContext): Promise<void> {
  built ??= buildCheckout().then((b) => new Map(b.files.map((f) => [f.fileName, f.code])));
  const files = await built;
  // The lazy chunks import the entry back as `../satang.js`: it is served under that name, and the
  // page's script tag loads it from there, so the entry is evaluated once as on a merchant's site.
  await target.route(ELEMENT_FILES, async (route) => {
    const name = new URL(route.request().url()).pathname.replace('/src/elements/', '');
    const code = name === 'index.ts' ? "import './satang.js';" : files.get(name);
    await (code === undefined ? route.fulfill({ status: 404 }) : route.fulfill({ contentType: 'text/javascript', body: code }));
  });
}
export { expect };

// jsqr is CommonJS whose types declare an ES default export: under NodeNext the function is `.default`.
const jsQR = jsQRModule.default;

/** The sandbox (the payment service) the demo stack runs for the tests. */
export const SANDBOX = `http://127.0.0.1:${E2E_SANDBOX_PORT}`;
export const OTP = SANDBOX_OTP_CODE;

/** The sandbox's test cards the tests pay with (src/sandbox/defaults.ts). */
export const CARDS = {
  visa: '4111111111111111',
  threeDSecure: '4953261730509988',
  force: '4389783280144506',
  insufficientFunds: '4943129900084541',
  installments: '4417704002802961',
} as const;

/** A card as a shopper types it: any future expiry, CVC 123. */
export interface TypedCard {
  number: string;
  expiry?: string;
  cvc?: string;
  name?: string;
}

/** An expiry two years ahead, as MM/YY. */
export const FUTURE_EXPIRY = `12/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;

/** The default cart: a silk scarf (฿1,290) and two jasmine teas (฿245 each). */
export const DEFAULT_TOTAL = '฿1,780.00';

/**
 * The bound on a tab showing what it learns from the shop's server after it loads: its first
 * render, the payment code fetched after it, the order's state (or, on a return from a page away,
 * the payment picked up and the return's mark taken out of the address), and the QR element
 * drawing the code. The assertion still ends as soon as the screen shows it; on two busy cores serving the
 * source modules, that whole chain has taken more than expect's default 5 s.
 */
export const FROM_THE_SERVER = { timeout: 15_000 };

export const merchantApi = { authorization: `Basic ${Buffer.from(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.apiKey}`).toString('base64')}` };

/** A charge as the sandbox's merchant API answers it (only what the tests read). */
export interface SandboxCharge {
  chargeId: string;
  referenceId: string;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  failureCode: string;
  amount: number;
  paymentMethod: { paymentMethodType: string; cardInstallments?: { installmentPeriod: number } | null };
}

/** A refund as the sandbox's merchant API answers it (only what the tests read). */
export interface SandboxRefund {
  refundId: string;
  chargeId: string;
  amount: number;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
}

/** An order as the demo shop's server holds it (GET /api/demo/orders/{reference}; only what the tests read). */
export interface DemoOrderView {
  orderReference: string;
  amount: number;
  /** The charge the checkout handler's order.paid named: the one payment the shop counts. */
  paidBy?: string;
  lines: { sku: string; quantity: number }[];
}

/** Opens the shop with a new cart and waits for the checkout to be ready; answers the order reference. */
export async function openShop(page: Page): Promise<string> {
  await page.goto('/');
  await expect(payButton(page)).toBeVisible();
  return orderReference(page);
}

/**
 * Opens the shop's page of an existing order in a new tab, as a shopper's second tab or device
 * would; unless `payable` is false, waits for the checkout to offer to pay (the order is open).
 */
export async function openOrderInNewTab(context: BrowserContext, reference: string, { payable = true } = {}): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`/?order=${encodeURIComponent(reference)}`);
  if (payable) await expect(payButton(page)).toBeVisible();
  expect(await orderReference(page), 'the page is for the order named in its URL').toBe(reference);
  return page;
}

/** The order the page is for (`main[data-order]`). */
export async function orderReference(page: Page): Promise<string> {
  const reference = await page.locator('main[data-order]').getAttribute('data-order');
  expect(reference, 'the page names its order').toMatch(/^demo-/);
  return reference!;
}

/** The pay button, in English ("Pay ฿1,780.00") or Thai ("ชำระเงิน ฿1,780.00"). */
export function payButton(page: Page): Locator {
  return page.getByRole('button', { name: /^(Pay|ชำระเงิน) ฿/ });
}

/** Picks a payment method by its label, as a shopper clicks it. */
export async function chooseMethod(page: Page, name: string): Promise<void> {
  const method = page.getByRole('group', { name: /Payment method|วิธีชำระเงิน/ }).getByRole('radio', { name, exact: true });
  await method.check();
  await expect(method).toBeChecked();
}

/**
 * Adds scarves to the cart one at a time until the total reaches the smallest installment amount
 * and the checkout lets installments be chosen (below it, the choice is disabled); chooses them
 * and answers the plan group.
 */
export async function addScarvesUntilInstallments(page: Page): Promise<Locator> {
  const scarves = page.getByRole('group', { name: 'Quantity: Thai silk scarf' });
  const installments = page.getByRole('group', { name: /Payment method|วิธีชำระเงิน/ }).getByRole('radio', { name: 'Installments', exact: true });
  while (await installments.isDisabled()) {
    const total = await page.locator('.total-amount').textContent();
    await scarves.getByRole('button', { name: 'One more' }).click();
    await expect(page.locator('.total-amount')).not.toHaveText(total!);
  }
  await chooseMethod(page, 'Installments');
  const plans = page.getByRole('group', { name: 'Installment plan' });
  await expect(plans).toBeVisible();
  return plans;
}

/** Types a card into the card form, field by field, as a shopper would. */
export async function typeCard(page: Page, card: TypedCard): Promise<void> {
  await page.getByLabel('Card number').pressSequentially(card.number);
  await page.getByLabel('Expiry date').pressSequentially(card.expiry ?? FUTURE_EXPIRY);
  await page.getByLabel('Security code').pressSequentially(card.cvc ?? '123');
  await page.getByLabel('Name on card').pressSequentially(card.name ?? 'Somchai Jaidee');
}

/** "4111 1111 1111 1111": how the card form shows a number it formatted. */
export function spaced(number: string): string {
  return number.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** The checkout's own success panel and the shop's confirmation that follows it. */
export async function expectPaid(page: Page, amount = DEFAULT_TOTAL): Promise<void> {
  const checkout = page.locator('satang-checkout');
  await expect(checkout.getByRole('heading', { name: 'Payment successful' })).toBeVisible({ timeout: 15_000 });
  await expect(checkout.getByRole('status')).toContainText(`Thank you. Your payment of ${amount} is complete.`);
  await expect(page.getByRole('heading', { name: 'Thank you, your order is confirmed' })).toBeVisible();
}

/** The checkout's word that the payment failed (over the form, which stays as it was), with its explanation. */
export async function expectNotPaid(page: Page, explanation: string): Promise<void> {
  const outcome = page.locator('satang-checkout').getByRole('alert').filter({ hasText: 'Payment not completed' });
  await expect(outcome).toBeVisible({ timeout: 15_000 });
  await expect(outcome).toContainText(explanation);
  await expect(page.getByRole('heading', { name: 'Thank you, your order is confirmed' })).toBeHidden();
}

/** The charges the sandbox holds for an order, newest first. */
export async function chargesFor(request: APIRequestContext, reference: string): Promise<SandboxCharge[]> {
  const answer = await request.get(`${SANDBOX}/api/v1/charges`, { params: { referenceId: reference, limit: 100 }, headers: merchantApi });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { data: SandboxCharge[] }).data;
}

/** The one charge of an order, after checking there is exactly one. */
export async function onlyChargeFor(request: APIRequestContext, reference: string): Promise<SandboxCharge> {
  const charges = await chargesFor(request, reference);
  expect(charges.map((c) => `${c.chargeId} ${c.status}`), `the sandbox holds exactly one charge for ${reference}`).toHaveLength(1);
  return charges[0]!;
}

/**
 * The refunds of an order's charges that succeeded, oldest first. The sandbox lists no refunds by
 * order; each succeeded one is recorded as a REFUND transaction carrying its id.
 */
export async function succeededRefundsFor(request: APIRequestContext, reference: string): Promise<SandboxRefund[]> {
  const answer = await request.get(`${SANDBOX}/api/v1/transactions`, { params: { referenceId: reference, limit: 100 }, headers: merchantApi });
  expect(answer.status(), await answer.text()).toBe(200);
  const transactions = ((await answer.json()) as { data: { transactionId: string; transactionType: string }[] }).data;
  const refunds: SandboxRefund[] = [];
  for (const { transactionId } of transactions.filter((t) => t.transactionType === 'REFUND').reverse()) {
    const refund = await request.get(`${SANDBOX}/api/v1/refunds/${transactionId}`, { headers: merchantApi });
    expect(refund.status(), await refund.text()).toBe(200);
    refunds.push((await refund.json()) as SandboxRefund);
  }
  return refunds;
}

/** The order as the demo shop's server holds it. */
export async function demoOrder(request: APIRequestContext, reference: string): Promise<DemoOrderView> {
  const answer = await request.get(`/api/demo/orders/${encodeURIComponent(reference)}`);
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()) as DemoOrderView;
}

/**
 * Reads the QR code on screen as a phone would: a screenshot of the drawn code, decoded. Answers
 * its text (the EMVCo payload).
 */
export async function scanQr(qr: Locator): Promise<string> {
  const png = PNG.sync.read(await qr.screenshot({ animations: 'disabled' }));
  const code = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.byteLength), png.width, png.height);
  expect(code, 'the QR code on screen can be decoded').not.toBeNull();
  return code!.data;
}

/** The drawn PromptPay code (the SVG in <satang-qr-payment>). */
export function qrCode(page: Page): Locator {
  return page.locator('satang-qr-payment').getByRole('img', { name: /PromptPay QR code for|คิวอาร์โค้ดพร้อมเพย์/ });
}

/**
 * Pays a QR payload on the sandbox's PromptPay payer page, in a tab of its own, as the payer's
 * banking app would after scanning the code.
 */
export async function payQrInSandbox(context: BrowserContext, rawData: string): Promise<void> {
  const payer = await context.newPage();
  try {
    // In English whatever the browser's language, since the labels below are the English ones.
    await payer.goto(`${SANDBOX}/sandbox/pages/promptpay?lang=en`);
    await expect(payer.getByRole('heading', { name: 'Pay a PromptPay QR' })).toBeVisible();
    await payer.getByLabel('QR payload (rawData)').fill(rawData);
    await payer.getByRole('button', { name: 'Pay', exact: true }).click();
    // Paid, the payer page sends its tab back to the shop's return page.
    await expect(payer).not.toHaveURL(/\/sandbox\/pages\/promptpay/);
  } finally {
    await payer.close();
  }
}

/**
 * Leaves a marker on the page's window: it survives only as long as the page is not reloaded or
 * navigated away from.
 */
export async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { __stayed?: boolean }).__stayed = true));
}

export async function expectSamePage(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __stayed?: boolean }).__stayed), 'the page was not reloaded or left').toBe(true);
}
