/**
 * The card-only page of docs/elements.md ("The card form alone"): its markup and its script as
 * they are written, the script bundled by Vite with `satang/card` as a shop's bundler would, served
 * by a shop with the checkout handler, against the sandbox. A shopper pays in Chromium with the
 * sandbox's test cards: one paid at once, a declined one followed by another card, and a 3-D Secure
 * one that leaves for the bank's page and is picked up on the way back. Only the markup's values
 * change (the service's address, the keys, the order and its token), as a shop's server fills them.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright';
import { build, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenSandbox, SANDBOX_DEFAULTS, type RunningSandbox } from '../../src/sandbox/index.js';
import { createCheckoutHandler, ServiceClient, toNodeListener, toRequest, type CheckoutHandler, type OrderEvent } from '../../src/server/index.js';
import { FUTURE_EXPIRY, launchChromium, pageLog } from '../support/chromium-shopper.js';
import { codeBlockWith, PACKAGE_SOURCES } from '../support/doc-code.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SECTION = '## The card form alone';
/** The amount the page shows (its `data-amount`, as written); the shop prices every order so. */
const PRICE = 178_000;
const BUILD_TIMEOUT_MS = 120_000;

let markup = '';
/** The bundle, by URL path: /assets/pay.js and its chunks. */
const assets = new Map<string, string>();
let sandbox: RunningSandbox | undefined;
let shop: Server | undefined;
let shopUrl = '';
let checkout: CheckoutHandler | undefined;
let browser: Browser | undefined;
const orderEvents: OrderEvent[] = [];
/**
 * How many answers of `POST /charges` to lose: the handler charges, then the connection drops
 * part-way through the answer (a fault the shop's network can have, made here at the shop's server).
 */
let chargeAnswersToLose = 0;
/** The statuses of the answers lost. */
const lostAnswers: number[] = [];

/** Bundles the documented script, in memory, with `satang/card` from the sources. */
async function buildScript(script: string): Promise<void> {
  const dir = `${root}reports/doc-code/`;
  await mkdir(dir, { recursive: true });
  const entry = `${dir}pay-${randomUUID()}.js`;
  await writeFile(entry, script);
  try {
    const result = await build({
      root,
      configFile: false,
      logLevel: 'error',
      publicDir: false,
      mode: 'production',
      resolve: { alias: [{ find: /^satang\/card$/, replacement: PACKAGE_SOURCES['satang/card']! }] },
      build: {
        write: false,
        target: 'es2022',
        minify: false,
        modulePreload: false,
        rolldownOptions: { input: { pay: entry }, output: { entryFileNames: 'assets/[name].js', chunkFileNames: 'assets/[name]-[hash].js' } },
      },
    });
    const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
    for (const chunk of outputs.flatMap((output) => output.output)) {
      if (chunk.type === 'chunk') assets.set(`/${chunk.fileName}`, chunk.code);
    }
  } finally {
    await rm(entry, { force: true });
  }
  if (!assets.has('/assets/pay.js')) throw new Error(`the build wrote no assets/pay.js: ${[...assets.keys()].join(', ')}`);
}

/** The documented markup with the values a shop's server renders into it. */
function fill(values: Record<string, string>): string {
  let page = markup;
  for (const [name, value] of Object.entries(values)) {
    const attribute = new RegExp(`${name}="[^"]*"`, 'g');
    expect(page.match(attribute), `the markup has one ${name}`).toHaveLength(1);
    page = page.replace(attribute, `${name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`);
  }
  return page;
}

async function page(orderReference: string): Promise<string> {
  const body = fill({
    'data-service-url': sandbox!.url,
    'data-merchant-id': SANDBOX_DEFAULTS.merchantId,
    'data-publishable-key': SANDBOX_DEFAULTS.publishableKey,
    'data-order-reference': orderReference,
    'data-order-token': await checkout!.orderToken(orderReference),
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Baan Craft</title></head><body>\n${body}</body></html>`;
}

beforeAll(async () => {
  markup = await codeBlockWith('docs/elements.md', ['<satang-card-form>', 'data-order-token'], SECTION);
  await buildScript(await codeBlockWith('docs/elements.md', ["import 'satang/card'", 'tokenize('], SECTION));
  shop = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://shop');
    if (req.method === 'POST' && url.pathname === '/api/checkout/charges' && checkout && chargeAnswersToLose > 0) {
      chargeAnswersToLose -= 1;
      // Cut inside the answer: a connection closed before any answer would be sent again by Chromium itself.
      void checkout(toRequest(req)).then((answer) => {
        lostAnswers.push(answer.status);
        res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"chargeId":', () => res.destroy());
      });
      return;
    }
    if (url.pathname.startsWith('/api/checkout/') && checkout) return toNodeListener(checkout)(req, res);
    const asset = assets.get(url.pathname);
    if (asset !== undefined) return res.writeHead(200, { 'content-type': 'text/javascript' }).end(asset);
    const reference = url.searchParams.get('order');
    if (url.pathname === '/' && reference) {
      void page(reference).then((html) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => shop!.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${String((shop.address() as AddressInfo).port)}`;
  sandbox = await listenSandbox({ port: 0, host: '127.0.0.1', webhook: { url: `${shopUrl}/api/checkout/webhooks`, webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64 } });
  checkout = createCheckoutHandler({
    service: { baseUrl: sandbox.url, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey },
    resolveOrder: (reference) => (reference.startsWith('order-') ? { amount: PRICE, currency: 'THB', referenceId: reference } : null),
    basePath: '/api/checkout',
    publicUrl: shopUrl,
    webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64,
    rateLimit: false,
    onOrder: (event) => {
      orderEvents.push(event);
    },
  });
  browser = await launchChromium();
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  if (shop) {
    const closed = new Promise<void>((resolve) => shop!.close(() => resolve()));
    shop.closeAllConnections();
    await closed;
  }
  await sandbox?.close();
});

/** Types a card into the page's card form as a shopper does, replacing what its fields held. */
async function typeCard(tab: Page, card: { number?: string; cvc: string }): Promise<void> {
  const form = tab.locator('satang-card-form');
  if (card.number !== undefined) {
    await form.getByLabel('Card number').clear();
    await form.getByLabel('Card number').pressSequentially(card.number);
    await form.getByLabel('Expiry date').clear();
    await form.getByLabel('Expiry date').pressSequentially(FUTURE_EXPIRY);
    await form.getByLabel('Name on card').clear();
    await form.getByLabel('Name on card').pressSequentially('Somchai Jaidee');
  }
  await form.getByLabel('Security code').clear();
  await form.getByLabel('Security code').pressSequentially(card.cvc);
}

/** Opens the page of a new order and runs `shopper` on it; answers the order's reference. A failure carries what the page said. */
async function onPage(shopper: (tab: Page, reference: string) => Promise<void>): Promise<string> {
  const reference = `order-${randomUUID()}`;
  const context = await browser!.newContext();
  const tab = await context.newPage();
  const log = pageLog(tab);
  try {
    await tab.goto(`${shopUrl}/?order=${reference}`);
    await shopper(tab, reference);
    return reference;
  } catch (error) {
    throw new Error(`${String(error)}\nwhat the page said:\n${log.join('\n')}`, { cause: error });
  } finally {
    await context.close();
  }
}

const pay = (tab: Page) => tab.getByRole('button', { name: 'Pay ฿1,780.00' }).click();
/** The page's own status line (the card form has a live region of its own inside it). */
const status = (tab: Page) => tab.locator('#pay > [role="status"]');
const PAID = /^Paid: (ch_\w+)$/;

/** The service's charges of an order, oldest first. */
async function chargesOf(reference: string) {
  const service = new ServiceClient({ baseUrl: sandbox!.url, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey });
  const { data } = await service.charges.list({ referenceId: reference });
  return data.map((charge) => ({ chargeId: charge.chargeId, status: charge.status, amount: charge.amount, type: charge.paymentMethod.paymentMethodType })).reverse();
}

describe("docs/elements.md's card form page", () => {
  it('pays with a card: tokenized, charged through the handler, followed to the order paid', async () => {
    let chargeId = '';
    const reference = await onPage(async (tab) => {
      await typeCard(tab, { number: '4111111111111111', cvc: '123' });
      await pay(tab);
      await expect.poll(() => status(tab).textContent(), { timeout: 30_000 }).toMatch(PAID);
      chargeId = PAID.exec((await status(tab).textContent())!)![1]!;
    });
    expect(await chargesOf(reference)).toEqual([{ chargeId, status: 'SUCCEEDED', amount: PRICE, type: 'CARD' }]);
    expect(orderEvents.filter((event) => event.referenceId === reference).map((event) => [event.type, event.chargeId])).toEqual([['order.paid', chargeId]]);
  }, 60_000);

  it('says a decline, asks for the security code again, and pays with another card as a new attempt', async () => {
    let chargeId = '';
    const reference = await onPage(async (tab) => {
      await typeCard(tab, { number: '4943129900084541', cvc: '123' });
      await pay(tab);
      await expect.poll(() => status(tab).textContent(), { timeout: 30_000 }).toContain('The card was declined (CH_INSUFFICIENT_FUNDS)');
      await expect.poll(() => tab.locator('satang-card-form').getByLabel('Security code').inputValue()).toBe('');
      await typeCard(tab, { number: '4111111111111111', cvc: '123' });
      await pay(tab);
      await expect.poll(() => status(tab).textContent(), { timeout: 30_000 }).toMatch(PAID);
      chargeId = PAID.exec((await status(tab).textContent())!)![1]!;
    });
    const charges = await chargesOf(reference);
    expect(charges.map((charge) => charge.status)).toEqual(['FAILED', 'SUCCEEDED']);
    expect(charges[1]!.chargeId).toBe(chargeId);
  }, 60_000);

  it('sends the attempt again under its key after a lost answer, and the handler answers the one charge it made', async () => {
    let chargeId = '';
    chargeAnswersToLose = 1;
    const reference = await onPage(async (tab) => {
      await typeCard(tab, { number: '4111111111111111', cvc: '123' });
      await pay(tab);
      await expect.poll(() => status(tab).textContent(), { timeout: 30_000 }).toBe('The payment could not be sent: check your connection and press Pay again.');
      await pay(tab);
      await expect.poll(() => status(tab).textContent(), { timeout: 30_000 }).toMatch(PAID);
      chargeId = PAID.exec((await status(tab).textContent())!)![1]!;
    });
    expect(lostAnswers).toEqual([201]);
    expect(await chargesOf(reference)).toEqual([{ chargeId, status: 'SUCCEEDED', amount: PRICE, type: 'CARD' }]);
  }, 60_000);

  it('sends a 3-D Secure card to the bank’s page and picks the charge up on the way back', async () => {
    let chargeId = '';
    const reference = await onPage(async (tab, orderReference) => {
      await typeCard(tab, { number: '4953261730509988', cvc: '123' });
      await pay(tab);
      await tab.getByLabel('One-time password').fill('123456');
      await tab.getByRole('button', { name: 'Verify and pay' }).click();
      await tab.waitForURL(`${shopUrl}/?order=${orderReference}`);
      await expect.poll(() => status(tab).textContent(), { timeout: 30_000 }).toMatch(PAID);
      chargeId = PAID.exec((await status(tab).textContent())!)![1]!;
      expect(await tab.evaluate((key) => sessionStorage.getItem(key), `payment:${orderReference}`)).toBeNull();
    });
    expect(await chargesOf(reference)).toEqual([{ chargeId, status: 'SUCCEEDED', amount: PRICE, type: 'CARD' }]);
  }, 60_000);
});
