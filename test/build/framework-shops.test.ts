import { readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_ORDER_TOKEN_HEADER } from '../../src/core/constants.js';
import { listenSandbox, SANDBOX_DEFAULTS, type RunningSandbox } from '../../src/sandbox/index.js';
import { RATE_LIMIT_CHARGES_PER_WINDOW, RATE_LIMIT_WINDOW_MS } from '../../src/server/checkout/checkout-options.js';
import { buildPackageInto, cleanEnv, freePort, linkTree, ROOT, runNode, startServer, type AppServer, type Finished } from '../support/app-fixture.js';
import { launchChromium, pageLog, payWithTestCard } from '../support/chromium-shopper.js';

/**
 * Three shops as their generators lay them out, on the built package, each paid by card in
 * Chromium against the sandbox:
 *
 *   - fixtures/sveltekit-shop: a SvelteKit app as `npx sv create` makes a minimal one (Svelte 5,
 *     TypeScript), with @sveltejs/adapter-node. Its page (`+page.svelte`) renders
 *     `<satang-checkout>` on the server and listens for `onsatang-success`; `+page.server.ts` signs
 *     the order's token with the checkout handler; `api/checkout/[...path]/+server.ts` mounts the
 *     handler with the client's address from `event.getClientAddress()`. Built with `vite build`
 *     while no key is in the environment, checked by svelte-check (`satang/svelte`), run with
 *     `node build`.
 *   - fixtures/vue-shop: a Vue 3 app as `npm create vue@latest` makes a minimal one (TypeScript),
 *     with the Satang tags as custom elements in `vite.config.ts` (`isSatangElement`); `App.vue`
 *     renders `<satang-checkout>` with the order its server gives it. Built with `vite build`,
 *     checked by vue-tsc (`satang/vue`, strictTemplates), served by its `server.js` (Hono on
 *     @hono/node-server: the built files, the order with its token, and the checkout handler).
 *   - fixtures/astro-shop: an Astro app as `npm create astro@latest` makes a minimal one
 *     (TypeScript strict), with @astrojs/node in middleware mode, served by its `server.mjs`
 *     (Express on node:http): the checkout handler through `toNodeListener`, which takes the
 *     client's address from the socket, the built files, and Astro's handler, which it hands the
 *     checkout handler as `Astro.locals.checkout`. Its page (`index.astro`) signs the order's token
 *     in its frontmatter and renders `<satang-checkout>` on the server; its `<script>` imports
 *     `satang`, bundled by Astro for the browser, and listens for satang-success. Built with
 *     `astro build` while no key is in the environment, its TypeScript (`server.mjs` included)
 *     checked by tsc (Astro's strict tsconfig), run with `node server.mjs`. A client naming another
 *     in `X-Forwarded-For` is still counted by its socket's address.
 *
 * On each, the page hears satang-success with no error in its console, the sandbox's webhooks reach
 * the shop's route, and the order is paid once: one charge, succeeded, nothing refunded, and the
 * shop's handler says the order is paid by it. The handler answers neither the order's state nor a
 * charge for a client it cannot tell, so a paid order also shows the client's address was handed
 * over. The package is compiled once, into the SvelteKit project, and linked into the other two;
 * each app is built once. Every process is started here and stopped by its id.
 */

const FIXTURES = `${ROOT}test/build/fixtures`;
const SVELTEKIT = `${FIXTURES}/sveltekit-shop`;
const VUE = `${FIXTURES}/vue-shop`;
const ASTRO = `${FIXTURES}/astro-shop`;
const VITE = `${ROOT}node_modules/vite/bin/vite.js`;
const SVELTE_CHECK = `${ROOT}node_modules/svelte-check/bin/svelte-check`;
const VUE_TSC = `${ROOT}node_modules/vue-tsc/bin/vue-tsc.js`;
const ASTRO_CLI = `${ROOT}node_modules/astro/astro.js`;
const TSC = `${ROOT}node_modules/typescript/bin/tsc`;

const PACKAGE_TIMEOUT_MS = 300_000;
const BUILD_TIMEOUT_MS = 240_000;
const START_TIMEOUT_MS = 60_000;
const PAY_TIMEOUT_MS = 120_000;

/** One Chromium for the three shops, launched by the first payment; each payment has its own tab. */
let browser: Browser | undefined;

/** A component with one wrong value, written beside the app's own for the type check: the check must refuse it, so the types are in force. */
const WRONG_THEME = 'theme="purple"';

beforeAll(async () => {
  const built = await buildPackageInto(SVELTEKIT, ['elements', 'server', 'frameworks']);
  expect(built.output, 'the package compiles').toBe('');
  expect(built.code).toBe(0);
  for (const app of [VUE, ASTRO]) {
    await rm(`${app}/node_modules`, { recursive: true, force: true });
    await linkTree(`${SVELTEKIT}/node_modules/satang`, `${app}/node_modules/satang`);
  }
  report('the package (tsc, declarations included)', built);
}, PACKAGE_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
});

function report(what: string, step: Finished): void {
  console.log(`${what}: ${step.wallSeconds.toFixed(1)} s, ${step.cpuSeconds.toFixed(1)} s of CPU`);
}

/** The environment a shop runs with: the sandbox's keys and URL, the shop's own origin. */
function shopEnv(sandbox: RunningSandbox, shop: string, port: number): NodeJS.ProcessEnv {
  return {
    ...cleanEnv(),
    PORT: String(port),
    HOST: '127.0.0.1',
    SATANG_SERVICE_URL: sandbox.url,
    SATANG_MERCHANT_ID: SANDBOX_DEFAULTS.merchantId,
    SATANG_API_KEY: SANDBOX_DEFAULTS.apiKey,
    SATANG_PUBLISHABLE_KEY: SANDBOX_DEFAULTS.publishableKey,
    SATANG_PUBLIC_URL: shop,
    SATANG_WEBHOOK_KEY: SANDBOX_DEFAULTS.webhookKeyBase64,
  };
}

/** A sandbox that sends its webhooks to the shop's route, and the shop's port and origin. */
async function sandboxFor(): Promise<{ sandbox: RunningSandbox; port: number; shop: string }> {
  const port = await freePort();
  const shop = `http://127.0.0.1:${port}`;
  const sandbox = await listenSandbox({ port: 0, webhook: { url: `${shop}/api/checkout/webhooks`, webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64 } });
  return { sandbox, port, shop };
}

/**
 * Opens the shop's page in Chromium and pays with the test card: the order's state reads with the
 * page's token, the page's own handler of satang-success shows the charge, the sandbox delivered
 * charge.succeeded to the shop's route, no script on the page failed and its console shows no
 * error, and the order is paid once (one charge, succeeded, nothing refunded; paid by it in the
 * shop's handler's words).
 */
async function payOnShop(shop: string, sandbox: RunningSandbox, server: AppServer): Promise<void> {
  browser ??= await launchChromium();
  const tab = await browser.newPage();
  const log = pageLog(tab);
  const scriptErrors: string[] = [];
  tab.on('pageerror', (error) => scriptErrors.push(error.message));
  tab.on('console', (message) => {
    // Chromium's own request for the icon of a page that names none (the SvelteKit and Vue shops) is not the page's.
    if (message.type() === 'error' && message.location().url !== `${shop}/favicon.ico`) scriptErrors.push(`console.error: ${message.text()} (${message.location().url})`);
  });
  try {
    const orderState = tab.waitForResponse((answer) => new URL(answer.url()).pathname === '/api/checkout/orders/order-1001/state', { timeout: 30_000 });
    await tab.goto(shop);
    const stateRead = await orderState;
    expect(stateRead.status(), 'the order state read with the page’s order token').toBe(200);
    const orderToken = stateRead.request().headers()[CHECKOUT_ORDER_TOKEN_HEADER.toLowerCase()];
    expect(orderToken, 'the page’s order token, sent with the state read').toMatch(/^[\w.-]+$/);
    await payWithTestCard(tab);
    const status = tab.getByRole('status').filter({ hasText: /^paid ch_\w+$/ });
    await status.waitFor({ timeout: 30_000 });
    const chargeId = (await status.textContent())!.slice('paid '.length);
    await sandbox.sandbox.webhooks.idle();
    const charged = sandbox.sandbox.webhooks.list().find((delivery) => delivery.event === 'charge.succeeded' && delivery.resourceId === chargeId);
    expect(charged, 'the sandbox sent charge.succeeded to the shop').toBeDefined();
    expect(charged!.status, JSON.stringify(charged!.attempts)).toBe('DELIVERED');
    const charges = [...sandbox.sandbox.store.charges.values()].map(({ charge }) => ({ chargeId: charge.chargeId, referenceId: charge.referenceId, status: charge.status }));
    expect(charges, 'the charges the sandbox holds').toEqual([{ chargeId, referenceId: 'order-1001', status: 'SUCCEEDED' }]);
    expect(sandbox.sandbox.store.refunds.size, 'refunds').toBe(0);
    const state = await fetch(`${shop}/api/checkout/orders/order-1001/state`, { headers: { [CHECKOUT_ORDER_TOKEN_HEADER]: orderToken! } });
    expect(await state.json(), 'the order’s state, as the shop’s handler tells it').toMatchObject({ orderReference: 'order-1001', state: 'paid', paidBy: chargeId });
    expect(scriptErrors, 'script errors on the page').toEqual([]);
  } catch (error) {
    throw new Error(`${String(error)}\nwhat the page said:\n${log.join('\n')}\nwhat the shop's server said:\n${server.output()}`, { cause: error });
  } finally {
    await tab.close();
  }
}

describe('a SvelteKit shop (Svelte 5, adapter-node) with satang and satang/server', () => {
  let sandbox: RunningSandbox | undefined;
  let server: AppServer | undefined;
  const probe = `${SVELTEKIT}/src/lib/TypeProbe.svelte`;

  afterAll(async () => {
    await server?.stop();
    await sandbox?.close();
  });

  it(
    'builds with vite build while no key is in the environment, and passes svelte-check',
    async () => {
      await rm(`${SVELTEKIT}/.svelte-kit`, { recursive: true, force: true });
      await rm(`${SVELTEKIT}/build`, { recursive: true, force: true });
      const build = await runNode([VITE, 'build'], { cwd: SVELTEKIT, timeoutMs: BUILD_TIMEOUT_MS });
      report('SvelteKit: vite build', build);
      expect(build.code, build.output).toBe(0);
      expect(build.output, 'built for Node by adapter-node').toContain('Using @sveltejs/adapter-node');
      await readFile(`${SVELTEKIT}/build/index.js`);

      await writeFile(probe, `<satang-checkout ${WRONG_THEME}></satang-checkout>\n`);
      try {
        const check = await runNode([SVELTE_CHECK, '--tsconfig', './tsconfig.json', '--output', 'machine', '--threshold', 'warning'], { cwd: SVELTEKIT, timeoutMs: BUILD_TIMEOUT_MS });
        report('SvelteKit: svelte-check', check);
        // svelte-check's `--output machine` lines: `1234 ERROR "File.svelte" 3:18 "…"`, the file and the message as JSON strings.
        const problems = [...check.output.matchAll(/^\d+ (ERROR|WARNING) ("(?:[^"\\]|\\.)*") \d+:\d+ ("(?:[^"\\]|\\.)*")$/gm)].map(([, kind, file, message]) => ({
          kind,
          file: JSON.parse(file!) as string,
          message: JSON.parse(message!) as string,
        }));
        expect(problems, check.output).toEqual([{ kind: 'ERROR', file: 'src/lib/TypeProbe.svelte', message: expect.stringMatching(/"purple".*not assignable/) as string }]);
      } finally {
        await rm(probe, { force: true });
      }
    },
    BUILD_TIMEOUT_MS * 2,
  );

  it(
    'renders the checkout on the server with node build, and a card payment on it reaches the page as satang-success, its webhooks the route',
    async () => {
      const { sandbox: running, port, shop } = await sandboxFor();
      sandbox = running;
      // adapter-node reads its port and host, and the origin the shop is reached at, from the environment.
      server = await startServer(['build'], { cwd: SVELTEKIT, env: { ...shopEnv(running, shop, port), ORIGIN: shop }, ready: /Listening on /, timeoutMs: START_TIMEOUT_MS });

      const page = await fetch(shop);
      const html = await page.text();
      expect(page.status, html).toBe(200);
      const element = /<satang-checkout [^>]*>/.exec(html)?.[0];
      expect(element, 'the checkout in the server-rendered page').toBeDefined();
      expect(element).toContain('amount="12900"');
      expect(element).toContain('order-reference="order-1001"');
      expect(element).toMatch(/ order-token="[\w.-]+"/);

      await payOnShop(shop, running, server);
      expect(server.output(), 'what node build printed').not.toMatch(/error/i);
    },
    PAY_TIMEOUT_MS,
  );
});

describe('a Vue 3 shop (Vite) with satang and satang/server on Hono', () => {
  let sandbox: RunningSandbox | undefined;
  let server: AppServer | undefined;
  const probe = `${VUE}/src/TypeProbe.vue`;

  afterAll(async () => {
    await server?.stop();
    await sandbox?.close();
  });

  it(
    'builds with vite build, and passes vue-tsc',
    async () => {
      await rm(`${VUE}/dist`, { recursive: true, force: true });
      await writeFile(probe, `<template>\n  <satang-checkout ${WRONG_THEME} />\n</template>\n`);
      try {
        const [build, check] = await Promise.all([
          runNode([VITE, 'build'], { cwd: VUE, timeoutMs: BUILD_TIMEOUT_MS }),
          runNode([VUE_TSC, '--build', '--pretty', 'false'], { cwd: VUE, timeoutMs: BUILD_TIMEOUT_MS }),
        ]);
        report('Vue: vite build and vue-tsc --build, together', { ...build, cpuSeconds: Math.max(build.cpuSeconds, check.cpuSeconds), wallSeconds: Math.max(build.wallSeconds, check.wallSeconds) });
        expect(build.code, build.output).toBe(0);
        const html = await readFile(`${VUE}/dist/index.html`, 'utf8');
        expect(html, 'the built page loads the app’s script').toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js">/);
        const errors = [...check.output.matchAll(/^(.+?)\((\d+),\d+\): error (TS\d+: .*)$/gm)].map(([, file, , message]) => ({ file, message }));
        expect(errors, check.output).toEqual([{ file: 'src/TypeProbe.vue', message: expect.stringMatching(/"purple".*not assignable/) as string }]);
      } finally {
        await rm(probe, { force: true });
      }
    },
    BUILD_TIMEOUT_MS * 2,
  );

  it(
    'serves the app with its server.js, and a card payment on it reaches the page as satang-success, its webhooks the route',
    async () => {
      const { sandbox: running, port, shop } = await sandboxFor();
      sandbox = running;
      server = await startServer(['server.js'], { cwd: VUE, env: shopEnv(running, shop, port), ready: /Listening on /, timeoutMs: START_TIMEOUT_MS });

      const order = await fetch(`${shop}/api/order`);
      expect(order.status).toBe(200);
      expect(await order.json()).toMatchObject({ orderReference: 'order-1001', amount: 12900, orderToken: expect.stringMatching(/^[\w.-]+$/) as string });

      await payOnShop(shop, running, server);
      expect(server.output(), 'what server.js printed').not.toMatch(/error/i);
    },
    PAY_TIMEOUT_MS,
  );
});

/** A charge with no order token from `localAddress`, naming `forwardedFor` as its client: refused (403) and counted by the handler's rate limit, 429 once its client's count is full. */
function strayCharge(shop: string, localAddress: string, forwardedFor?: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(shop);
  const headers = { 'content-type': 'application/json', ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }) };
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: hostname, port, localAddress, agent: false, method: 'POST', path: '/api/checkout/charges', headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(JSON.stringify({ orderReference: 'order-1001', amount: 129_00, currency: 'THB', paymentMethod: { type: 'QR_PROMPT_PAY' } }));
  });
}

/**
 * One more charge than the limit allows a client, all from 127.0.0.1, each naming a client of its
 * own in `X-Forwarded-For` (the last, 127.0.0.2); their answers. Sent again should the handler's
 * fixed window turn over while they go, which would start its count from nothing.
 */
async function chargesNamingOthers(shop: string): Promise<{ status: number; body: string }[]> {
  const named = [...Array.from({ length: RATE_LIMIT_CHARGES_PER_WINDOW }, (_, index) => `203.0.113.${index + 1}`), '127.0.0.2'];
  for (;;) {
    const window = Math.floor(Date.now() / RATE_LIMIT_WINDOW_MS);
    const answers = [];
    for (const client of named) answers.push(await strayCharge(shop, '127.0.0.1', client));
    if (Math.floor(Date.now() / RATE_LIMIT_WINDOW_MS) === window) return answers;
  }
}

describe('an Astro shop (@astrojs/node, middleware, on its server.mjs) with satang and satang/server', () => {
  let sandbox: RunningSandbox | undefined;
  let server: AppServer | undefined;

  afterAll(async () => {
    await server?.stop();
    await sandbox?.close();
  });

  it(
    'builds with astro build while no key is in the environment, and its TypeScript passes tsc under astro/tsconfigs/strict',
    async () => {
      await rm(`${ASTRO}/.astro`, { recursive: true, force: true });
      await rm(`${ASTRO}/dist`, { recursive: true, force: true });
      const build = await runNode([ASTRO_CLI, 'build'], { cwd: ASTRO, env: { ...cleanEnv(), ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1', FORCE_COLOR: '0' }, timeoutMs: BUILD_TIMEOUT_MS });
      report('Astro: astro build', build);
      expect(build.code, build.output).toBe(0);
      expect(build.output, 'built for Node by @astrojs/node').toContain('adapter: @astrojs/node');
      await readFile(`${ASTRO}/dist/server/entry.mjs`);

      // server.mjs (the handler, its mount, Astro's handler as astro build wrote it), astro.config.mjs and the page's Astro.locals, with the types of astro:env that astro build wrote in .astro/.
      const check = await runNode([TSC, '-p', 'tsconfig.json', '--noEmit', '--pretty', 'false'], { cwd: ASTRO, timeoutMs: BUILD_TIMEOUT_MS });
      report('Astro: tsc --noEmit', check);
      expect(check.output, 'tsc').toBe('');
      expect(check.code).toBe(0);
    },
    BUILD_TIMEOUT_MS * 2,
  );

  it(
    'renders the checkout on the server with node server.mjs, a card payment on it reaches the page as satang-success, its webhooks the route, and a forged X-Forwarded-For names no client',
    async () => {
      const { sandbox: running, port, shop } = await sandboxFor();
      sandbox = running;
      // server.mjs reads its port and host from the environment.
      server = await startServer(['server.mjs'], { cwd: ASTRO, env: shopEnv(running, shop, port), ready: /Listening on /, timeoutMs: START_TIMEOUT_MS });

      const page = await fetch(shop);
      const html = await page.text();
      expect(page.status, html).toBe(200);
      const element = /<satang-checkout [^>]*>/.exec(html)?.[0];
      expect(element, 'the checkout in the server-rendered page').toBeDefined();
      expect(element).toContain(`merchant-id="${SANDBOX_DEFAULTS.merchantId}"`);
      expect(element).toContain(`publishable-key="${SANDBOX_DEFAULTS.publishableKey}"`);
      expect(element).toContain(`service-url="${running.url}"`);
      expect(element).toContain('endpoint="/api/checkout"');
      expect(element).toContain('amount="12900"');
      expect(element).toContain('order-reference="order-1001"');
      expect(element).toMatch(/ order-token="[\w.-]+"/);
      expect(html, 'the page’s script, bundled by Astro for the browser').toMatch(/<script type="module" src="\/_astro\/[\w.-]+\.js"><\/script>/);

      await payOnShop(shop, running, server);

      // The charges' limit counts 127.0.0.1 as one client whatever each request says it is: were
      // X-Forwarded-For believed, each of these would be a new client's first charge (403).
      const answers = await chargesNamingOthers(shop);
      const statuses = answers.map(({ status }) => status).join(' ');
      expect(answers[0]!.status, 'the first charge, refused for its missing order token').toBe(403);
      expect(answers.at(-1)!.status, `one client's charges past the limit, the last naming 127.0.0.2: ${statuses}`).toBe(429);
      expect(JSON.parse(answers.at(-1)!.body)).toMatchObject({ error: { errorCode: 'RATE_LIMITED', retryable: true } });
      // A shopper at 127.0.0.2 has a count of its own.
      const other = await strayCharge(shop, '127.0.0.2');
      expect(other.status, other.body).toBe(403);
      expect(JSON.parse(other.body)).toMatchObject({ error: { errorCode: 'INVALID_ORDER_TOKEN' } });

      expect(server.output(), 'what node server.mjs printed').not.toMatch(/error/i);
    },
    PAY_TIMEOUT_MS,
  );
});
