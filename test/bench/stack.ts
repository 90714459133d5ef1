import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { listenSandbox, SANDBOX_DEFAULTS, type RunningSandbox } from '../../src/sandbox/index.js';
import { createCheckoutHandler, toNodeListener, type CheckoutLogEntry } from '../../src/server/index.js';
import { pageOrderToken } from '../support/page-tokens.js';

/**
 * The shop of the browser measurements, on one origin as a real shop's page sees it:
 *
 *   /checkout.html   a page with <satang-checkout> loading the built satang.js (script tag)
 *   /checkout-entry.html  the same with satang-checkout.js (the `satang/checkout` entry)
 *   /floor.html      the baseline: a bare Lit element with four labelled inputs (lit-floor.js)
 *   /consumer.html   the checkout as a bundler ships `import 'satang'` (a Vite app, consumer/app.js
 *                    and its chunks); /consumer-floor.html the floor bundled the same way (floor.js)
 *   /esbuild.html    the same `import 'satang'` bundled by esbuild (esbuild/app.js)
 *   /react.html      a React app rendering `SatangCheckout` of `satang/react` (react/react-app.js),
 *                    the element's attributes as JSON in its root's `data-checkout`
 *   /api/checkout/*  the checkout handler (satang/server), charging a real sandbox
 *   /client/*        the sandbox's browser API (card tokens), as `service-url`
 *   anything else    the built files in `wwwDir`, never cached
 *
 * Every request is counted, so the round trips of a payment are seen from the server too.
 */

export interface BenchStack {
  origin: string;
  sandbox: RunningSandbox;
  /** Requests the server saw since the last `clearLog()`. */
  log: { method: string; path: string; at: number }[];
  /** Answers of the checkout handler with a 5xx status (none expected). */
  handlerErrors: CheckoutLogEntry[];
  clearLog(): void;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** Orders of the bench carry their price, as in the browser tests: order-<satang>-<anything>. */
export const BENCH_AMOUNT_SATANG = 12_345;

function page(title: string, head: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<script src="/bench-probe.js"></script>
${head}
</head>
<body>
${body}
</body>
</html>
`;
}

/**
 * Classic script, first in <head>: records when each element announces its first render, and
 * the first contentful paint, on `window.__bench`. Listening on `document` catches the events
 * however early they fire (they bubble and are composed).
 */
const PROBE = `window.__bench = { ready: null, inputs: null, fcp: null };
document.addEventListener('satang-ready', function (event) {
  if (window.__bench.ready !== null) return;
  window.__bench.ready = performance.now();
  var form = event.target.shadowRoot && event.target.shadowRoot.querySelector('satang-card-form');
  if (form) form.updateComplete.then(function () { window.__bench.inputs = performance.now(); });
});
document.addEventListener('floor-ready', function () {
  if (window.__bench.ready !== null) return;
  window.__bench.ready = window.__bench.inputs = performance.now();
});
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (entry) {
    if (entry.name === 'first-contentful-paint') window.__bench.fcp = entry.startTime;
  });
}).observe({ type: 'paint', buffered: true });
`;

/**
 * The shop's pages (checkout, floor, probe) and the built files in `wwwDir`, for the server at
 * `origin()`. The stack serves them with its APIs; the first render has them served by a process
 * of their own (page-server.ts).
 */
export function pageListener(wwwDir: string, origin: () => string): (req: IncomingMessage, res: ServerResponse) => void {
  // Each page is a new order, rendered with its order's token as a shop's server renders it.
  const newOrder = async () => {
    const orderReference = `order-${BENCH_AMOUNT_SATANG}-${crypto.randomUUID()}`;
    return { orderReference, orderToken: await pageOrderToken(orderReference) };
  };
  const checkoutPage = async (script: string) => {
    const { orderReference, orderToken } = await newOrder();
    return page(
      'Satang checkout (bench)',
      `<script type="module" src="/${script}"></script>`,
      `<satang-checkout merchant-id="${SANDBOX_DEFAULTS.merchantId}" publishable-key="${SANDBOX_DEFAULTS.publishableKey}" service-url="${origin()}" endpoint="/api/checkout" amount="${BENCH_AMOUNT_SATANG}" order-reference="${orderReference}" order-token="${orderToken}" locale="en"></satang-checkout>`,
    );
  };
  const checkoutProps = async () => ({
    merchantId: SANDBOX_DEFAULTS.merchantId,
    publishableKey: SANDBOX_DEFAULTS.publishableKey,
    serviceUrl: origin(),
    endpoint: '/api/checkout',
    amount: BENCH_AMOUNT_SATANG,
    ...(await newOrder()),
    locale: 'en',
  });
  const reactPage = async (script: string) =>
    page(
      'Satang checkout in React (bench)',
      `<script type="module" src="/${script}"></script>`,
      `<div id="root" data-checkout="${JSON.stringify(await checkoutProps()).replaceAll('&', '&amp;').replaceAll('"', '&quot;')}"></div>`,
    );
  const floorPage = (script = '/lit-floor.js') => page('Lit floor (bench)', `<script type="module" src="${script}"></script>`, '<lit-floor></lit-floor>');
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const send = (status: number, type: string, body: string | Buffer) => {
      // Cross-origin isolated pages get performance.now() at 5 µs rather than 100 µs.
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' });
      res.end(body);
    };
    const html = (made: Promise<string>) => void made.then((body) => send(200, TYPES['.html']!, body));
    if (path === '/checkout.html') return html(checkoutPage('satang.js'));
    if (path === '/checkout-entry.html') return html(checkoutPage('satang-checkout.js'));
    if (path === '/floor.html') return send(200, TYPES['.html']!, floorPage());
    if (path === '/consumer.html') return html(checkoutPage('consumer/app.js'));
    if (path === '/esbuild.html') return html(checkoutPage('esbuild/app.js'));
    if (path === '/react.html') return html(reactPage('react/react-app.js'));
    if (path === '/consumer-floor.html') return send(200, TYPES['.html']!, floorPage('/consumer-floor/floor.js'));
    if (path === '/bench-probe.js') return send(200, TYPES['.js']!, PROBE);
    const file = normalize(join(wwwDir, path));
    if (!file.startsWith(wwwDir)) return send(404, 'text/plain', 'not found');
    readFile(file).then(
      (body) => send(200, TYPES[extname(file)] ?? 'application/octet-stream', body),
      () => send(404, 'text/plain', 'not found'),
    );
  };
}

export async function startBenchStack(wwwDir: string): Promise<BenchStack> {
  const sandbox = await listenSandbox({ port: 0 });
  const handlerErrors: CheckoutLogEntry[] = [];
  let closed = false;
  // Made once the page server listens: return addresses must lead to its origin (publicUrl).
  const handlerFor = (publicUrl: string) => toNodeListener(
    createCheckoutHandler({
      publicUrl,
      service: { baseUrl: sandbox.url, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey },
      resolveOrder: (reference) => {
        const match = /^order-(\d+)-/.exec(reference);
        return match ? { amount: Number(match[1]), currency: 'THB', referenceId: reference } : null;
      },
      basePath: '/api/checkout',
      rateLimit: false,
      // A status long-poll outlives its page (the Node adapter does not abort a GET whose client
      // went away) and fails once the sandbox is closed: only errors before close() count.
      log: (entry) => {
        if (entry.status >= 500 && !closed) handlerErrors.push(entry);
      },
    }),
  );
  const made: { handler?: ReturnType<typeof handlerFor> } = {};
  const sandboxListener = toNodeListener(sandbox.sandbox.fetch);
  const log: BenchStack['log'] = [];
  let origin = '';

  const pages = pageListener(wwwDir, () => origin);

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    log.push({ method: req.method ?? 'GET', path: req.url ?? '/', at: performance.now() });
    if (path.startsWith('/api/checkout/')) return made.handler?.(req, res);
    if (path.startsWith('/client/')) return sandboxListener(req, res);
    pages(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  made.handler = handlerFor(origin);

  return {
    origin,
    sandbox,
    log,
    handlerErrors,
    clearLog: () => void log.splice(0),
    close: async () => {
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sandbox.close();
    },
  };
}
