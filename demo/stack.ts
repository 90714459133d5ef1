import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createServer as createViteServer, type ViteDevServer } from 'vite';
import { defaultSandboxMerchant, listenSandbox, SANDBOX_DEFAULTS, type RunningSandbox } from '../src/sandbox/index.js';
import type { NodeListener } from '../src/node/node-adapter.js';
import { createCheckoutHandler, ServiceClient, toNodeListener } from '../src/server/index.js';
import { createOrderApi } from './order-api.js';
import { createSandboxPayerRedirect, SANDBOX_PAYER_PATH } from './sandbox-payer.js';
import type { CheckoutIntent } from '../src/core/schemas/checkout.js';
import { DemoOrders, type DemoOrder } from './orders.js';

/**
 * The whole demo in one process: the sandbox (the payment service), and the shop - Vite serving
 * the pages, with the shop's server routes mounted on it:
 *
 *   /api/checkout/*   satang/server's checkout handler (charges, status, webhooks)
 *   /api/demo/*       the shop's carts (the server prices them)
 *
 * `npm start` runs it (demo/dev-server.ts); the end-to-end tests start it on other ports.
 */

export interface DemoStackOptions {
  /** The shop's port (5173 by default; 0 picks a free one). */
  port?: number;
  /** The sandbox's port (4010 by default; 0 picks a free one). */
  sandboxPort?: number;
  /** Log sandbox and checkout-handler lines. */
  log?: (line: string) => void;
  /** The checkout handler's per-client rate limits; `false` for test runs that pay from one address all the time. */
  rateLimit?: false;
}

export interface DemoStack {
  /** The shop, e.g. http://localhost:5173 */
  url: string;
  /** The sandbox, e.g. http://localhost:4010 */
  sandboxUrl: string;
  sandbox: RunningSandbox;
  vite: ViteDevServer;
  orders: DemoOrders;
  close(): Promise<void>;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HOST = '127.0.0.1';

/**
 * Pages the shop renders with the visitor's order and the service settings, before Vite's own HTML
 * handling: `{{ORDER_REFERENCE}}`, `{{ORDER_TOKEN}}` (signed by the checkout handler for that order), `{{ORDER_AMOUNT}}`, `{{MERCHANT_ID}}`, `{{PUBLISHABLE_KEY}}`,
 * `{{SERVICE_URL}}`. A page with `newOrder` starts a cart when the URL names no known `?order=`.
 */
const PAGES: Record<string, { file: string; newOrder: boolean; intent?: CheckoutIntent }> = {
  '/': { file: 'index.html', newOrder: true },
  '/index.html': { file: 'index.html', newOrder: true },
  // Where redirect payments come back: the same page, for the order named in the URL.
  '/demo/return.html': { file: 'index.html', newOrder: false },
  '/demo/csp/': { file: 'demo/csp/index.html', newOrder: true },
  // Redirect payments started on the strict-CSP page come back under the same policy.
  '/demo/csp/return.html': { file: 'demo/csp/index.html', newOrder: false },
  '/demo/theming/': { file: 'demo/theming/index.html', newOrder: true },
  // A pre-order: the card is authorized now, and captured (or released) from the back-office panel.
  '/demo/authorize/': { file: 'demo/authorize/index.html', newOrder: true, intent: 'authorize' },
  '/demo/spa/': { file: 'demo/spa/index.html', newOrder: false },
};

/** The policy of the strict-CSP page: no inline script or style, no eval, Trusted Types enforced. */
export function strictCsp(shopPort: number, sandboxPort: number): string {
  const hosts = (scheme: string, port: number) => `${scheme}://localhost:${port} ${scheme}://${HOST}:${port}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    // The page talks to its shop (and Vite's reload socket) and tokenizes cards with the service.
    `connect-src 'self' ${hosts('ws', shopPort)} ${hosts('http', sandboxPort)}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
  ].join('; ');
}

export async function startDemoStack(options: DemoStackOptions = {}): Promise<DemoStack> {
  const orders = new DemoOrders();
  // The shop's server listens before the sandbox whose address its handlers need: until they are
  // set, its API answers that it is starting.
  const api: { checkout?: NodeListener; orders?: NodeListener; orderToken?: (orderReference: string) => Promise<string> } = {};
  // Sends a visitor to the sandbox's payer page of their order's QR code (the footer's link).
  const payer: { listener?: NodeListener } = {};
  let shopPort = options.port ?? 5173;
  let sandboxUrl = '';
  let sandboxPort = 0;

  const vite = await createViteServer({
    configFile: false,
    root: ROOT,
    appType: 'mpa',
    logLevel: options.log ? 'info' : 'warn',
    clearScreen: false,
    server: { host: HOST, port: shopPort, strictPort: true },
    optimizeDeps: { include: ['lit', 'lit/decorators.js', 'lit/directives/live.js', 'qr', 'qr/decode.js', 'react', 'react-dom/client'] },
    plugins: [
      {
        name: 'satang-demo-shop',
        configureServer(server) {
          server.middlewares.use('/api/checkout', (req: IncomingMessage, res: ServerResponse) => answer(api.checkout, req, res));
          server.middlewares.use('/api/demo', (req: IncomingMessage, res: ServerResponse) => answer(api.orders, req, res));
          server.middlewares.use(SANDBOX_PAYER_PATH, (req: IncomingMessage, res: ServerResponse) => answer(payer.listener, req, res));
          server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
            const url = new URL(req.url ?? '/', 'http://shop');
            if (url.pathname.startsWith('/demo/csp/')) res.setHeader('content-security-policy', strictCsp(shopPort, sandboxPort));
            const page = PAGES[url.pathname] ?? PAGES[`${url.pathname}/`];
            if (!page || req.method !== 'GET') return next();
            if (!url.pathname.endsWith('/') && !url.pathname.endsWith('.html')) {
              res.writeHead(301, { location: `${url.pathname}/${url.search}` }).end();
              return;
            }
            void renderPage(server, orders, page, url, sandboxUrl, api.orderToken).then(
              (html) => {
                res.setHeader('content-type', 'text/html; charset=utf-8');
                res.setHeader('cache-control', 'no-store');
                res.end(html);
              },
              (error: unknown) => {
                res.statusCode = 500;
                res.end(String(error));
              },
            );
          });
        },
      },
    ],
  });
  await vite.listen();
  const address = vite.httpServer?.address();
  if (address && typeof address === 'object') shopPort = address.port;
  const shopUrl = `http://localhost:${shopPort}`;

  let sandbox: RunningSandbox;
  try {
    sandbox = await listenSandbox({
      port: options.sandboxPort ?? SANDBOX_DEFAULTS.port,
      merchants: [{ ...defaultSandboxMerchant(), name: 'Baan Craft' }],
      webhook: { url: `http://${HOST}:${shopPort}/api/checkout/webhooks`, webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64 },
      ...(options.log ? { log: options.log } : {}),
    });
  } catch (error) {
    await vite.close();
    throw error;
  }
  sandboxUrl = sandbox.url.replace(HOST, 'localhost');
  sandboxPort = Number(new URL(sandbox.url).port);
  const client = new ServiceClient({ baseUrl: sandbox.url, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey });
  payer.listener = toNodeListener(createSandboxPayerRedirect(client, sandbox.url));
  const log = options.log;
  const checkout = createCheckoutHandler({
      service: client,
      // Its own secret, never a key printed in the README: whoever knows it can forge status tokens.
      statusTokenSecret: randomBytes(32).toString('base64url'),
      publicUrl: shopUrl,
      resolveOrder: orders.resolve,
      basePath: '/api/checkout',
      webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64,
      // The shop learns that an order is paid from the handler's order events, never from the page:
      // only a payment of the whole order, at its current price, and the order's first, pays it.
      onOrder: (event) => {
        if (event.type === 'order.paid') orders.markPaid(event.referenceId, event.chargeId);
        if (event.type === 'order.authorized') orders.markAuthorized(event.referenceId, event.chargeId);
        if (event.type !== 'order.paid' && event.type !== 'order.authorized') log?.(`order ${event.referenceId}: ${event.type} (${event.chargeId})`);
      },
      ...(options.rateLimit === false ? { rateLimit: false as const } : {}),
      // The pages are served on both names of the loopback address.
      allowedOrigins: [`http://${HOST}:${shopPort}`, shopUrl],
      ...(log ? { log: (entry) => log(`checkout ${entry.method} ${entry.path} ${entry.status} ${entry.durationMs}ms${entry.errorCode ? ` ${entry.errorCode}` : ''}`) } : {}),
  });
  api.checkout = toNodeListener(checkout);
  // Each page gets its order's token, signed by the handler, so the checkout reads that order's state and no other.
  api.orderToken = (orderReference) => checkout.orderToken(orderReference);
  api.orders = toNodeListener(createOrderApi(orders, client, api.orderToken));

  return {
    url: shopUrl,
    sandboxUrl,
    sandbox,
    vite,
    orders,
    close: async () => {
      await Promise.all([vite.close(), sandbox.close()]);
    },
  };
}

/** A page with the visitor's order written into it, as a shop's server renders its checkout. */
async function renderPage(
  server: ViteDevServer,
  orders: DemoOrders,
  { file, newOrder, intent }: { file: string; newOrder: boolean; intent?: CheckoutIntent },
  url: URL,
  sandboxUrl: string,
  orderToken: ((orderReference: string) => Promise<string>) | undefined,
): Promise<string> {
  const asked = url.searchParams.get('order');
  let order: DemoOrder | undefined = asked ? orders.get(asked) : undefined;
  if (!order && newOrder) order = orders.create(undefined, intent);
  const values: Record<string, string> = {
    ORDER_REFERENCE: order?.orderReference ?? '',
    ORDER_TOKEN: order && orderToken ? await orderToken(order.orderReference) : '',
    ORDER_AMOUNT: String(order?.amountSatang ?? 0),
    MERCHANT_ID: SANDBOX_DEFAULTS.merchantId,
    PUBLISHABLE_KEY: SANDBOX_DEFAULTS.publishableKey,
    SERVICE_URL: sandboxUrl,
  };
  const template = await readFile(new URL(`../${file}`, import.meta.url), 'utf8');
  const html = template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => escapeAttribute(values[name] ?? whole));
  return server.transformIndexHtml(url.pathname + url.search, html);
}

/** Hands a request to one of the shop's API listeners, or answers 503 while the stack is starting. */
function answer(listener: NodeListener | undefined, req: IncomingMessage, res: ServerResponse): void {
  if (listener) listener(req, res);
  else res.writeHead(503, { 'retry-after': '1' }).end();
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
