import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { build, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenSandbox, SANDBOX_DEFAULTS, type RunningSandbox } from '../../src/sandbox/index.js';
import { createCheckoutHandler, toNodeListener, type NodeListener, type OrderEvent } from '../../src/server/index.js';
import { launchChromium, pageLog, payWithTestCard } from '../support/chromium-shopper.js';
import { ShopPage, type ShopSettings } from './fixture/ssr-app.js';

/**
 * A React 19 app rendered on the server and hydrated in Chromium, paying with a card through
 * satang/react's wrapper against the sandbox and a checkout handler: the app must hear the
 * checkout's events (its `satang-ready` and, after the payment, its `satang-success`). React 19
 * attaches no `on<event>` listener of a custom element while it hydrates, so an SSR app that
 * relies on it loses them; the wrappers attach theirs after hydration.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const ORDER = { referenceId: 'order-ssr-1', amount: 12_900, currency: 'THB' };
const BUILD_TIMEOUT_MS = 120_000;

let sandbox: RunningSandbox | undefined;
let shop: Server | undefined;
let browser: Browser | undefined;
/** The client bundle, by URL path: /assets/ssr-client.js and its chunks. */
const assets = new Map<string, string>();
const orderEvents: OrderEvent[] = [];

/** Builds ssr-client.tsx for the browser, in memory, as a shop's bundler would. */
async function buildClient(): Promise<void> {
  const result = await build({
    root,
    configFile: false,
    logLevel: 'error',
    publicDir: false,
    mode: 'production',
    build: {
      write: false,
      target: 'es2022',
      minify: false,
      modulePreload: false,
      rolldownOptions: {
        input: { 'ssr-client': `${root}/test/react/fixture/ssr-client.tsx` },
        output: { entryFileNames: 'assets/[name].js', chunkFileNames: 'assets/[name]-[hash].js' },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  for (const chunk of outputs.flatMap((output) => output.output)) {
    if (chunk.type === 'chunk') assets.set(`/${chunk.fileName}`, chunk.code);
  }
  if (!assets.has('/assets/ssr-client.js')) throw new Error(`the client build wrote no assets/ssr-client.js: ${[...assets.keys()].join(', ')}`);
}

/** The shop's page: the app rendered to HTML, its settings, and the client bundle that hydrates it. */
function page(settings: ShopSettings): string {
  const app = renderToString(createElement(ShopPage, { settings }));
  const json = JSON.stringify(settings).replace(/</g, '\\u003c');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Baan Craft</title><script type="module" src="/assets/ssr-client.js"></script></head><body><div id="root">${app}</div><script type="application/json" id="settings">${json}</script></body></html>`;
}

beforeAll(async () => {
  await buildClient();
  // Set once the sandbox, whose address the handler needs, is up.
  const api: { checkout?: NodeListener; orderToken?: (orderReference: string) => Promise<string> } = {};
  shop = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://shop').pathname;
    if (path.startsWith('/api/checkout/') && api.checkout) return api.checkout(req, res);
    const asset = assets.get(path);
    if (asset !== undefined) return res.writeHead(200, { 'content-type': 'text/javascript' }).end(asset);
    if (path === '/' && sandbox && api.orderToken) {
      const { url } = sandbox;
      void api.orderToken(ORDER.referenceId).then((orderToken) => {
        const settings = { merchantId: SANDBOX_DEFAULTS.merchantId, publishableKey: SANDBOX_DEFAULTS.publishableKey, serviceUrl: url, orderReference: ORDER.referenceId, orderToken, amount: ORDER.amount };
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(settings));
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => shop!.listen(0, '127.0.0.1', resolve));
  const shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  sandbox = await listenSandbox({ port: 0, webhook: { url: `${shopUrl}/api/checkout/webhooks`, webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64 } });
  const checkout = createCheckoutHandler({
    service: { baseUrl: sandbox.url, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey },
    resolveOrder: (reference) => (reference === ORDER.referenceId ? ORDER : null),
    basePath: '/api/checkout',
    publicUrl: shopUrl,
    webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64,
    onOrder: (event) => {
      orderEvents.push(event);
    },
  });
  api.checkout = toNodeListener(checkout);
  api.orderToken = (orderReference) => checkout.orderToken(orderReference);
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

describe('a server-rendered React app with satang/react', () => {
  it('renders the checkout on the server, hydrates it, and hears satang-ready and satang-success from a card payment', async () => {
    const shopUrl = `http://127.0.0.1:${(shop!.address() as AddressInfo).port}`;
    const served = await (await fetch(shopUrl)).text();
    expect(served).toContain('<satang-checkout class="checkout"></satang-checkout>');
    expect(served).toContain('<p role="status">not paid yet</p>');

    const context = await browser!.newContext();
    const tab = await context.newPage();
    const log = pageLog(tab);
    try {
      await tab.goto(shopUrl);
      // The element is defined once hydrated (the wrapper loads it from an effect), then renders its form.
      await tab.locator('satang-checkout').getByRole('button', { name: /^Pay ฿/ }).waitFor({ timeout: 15_000 });
      await tab.getByRole('listitem').filter({ hasText: 'satang-ready' }).waitFor({ timeout: 5_000 });
      await payWithTestCard(tab);
      await tab.getByRole('status').filter({ hasText: /^paid ch_\w+$/ }).waitFor({ timeout: 30_000 });
      const chargeId = (await tab.getByRole('status').filter({ hasText: /^paid / }).textContent())!.slice('paid '.length);
      expect(await tab.getByRole('list', { name: 'Events heard' }).getByRole('listitem').allTextContents()).toEqual(['satang-ready', 'satang-submit', 'satang-success']);
      const charge = await sandbox!.sandbox.fetch(
        new Request(`${sandbox!.url}/api/v1/charges/${chargeId}`, { headers: { authorization: `Basic ${Buffer.from(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.apiKey}`).toString('base64')}` } }),
      );
      expect(await charge.json()).toMatchObject({ chargeId, status: 'SUCCEEDED', amount: ORDER.amount, referenceId: ORDER.referenceId });
      expect(orderEvents.map((event) => [event.type, event.chargeId])).toEqual([['order.paid', chargeId]]);
      expect(log.filter((line) => line.includes('hydration') || line.startsWith('page error'))).toEqual([]);
    } catch (error) {
      throw new Error(`${String(error)}\nwhat the page said:\n${log.join('\n')}`, { cause: error });
    } finally {
      await context.close();
    }
  }, 90_000);
});
