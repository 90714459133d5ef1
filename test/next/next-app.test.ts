import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright';
import { afterAll, describe, expect, it } from 'vitest';
import { listenSandbox, SANDBOX_DEFAULTS, type RunningSandbox } from '../../src/sandbox/index.js';
import { launchChromium, pageLog, payWithTestCard } from '../support/chromium-shopper.js';

/**
 * A Next.js App Router shop (test/next/fixture, "Next.js (App Router)" in docs/react.md and the README) on the built
 * package: satang is compiled with the package's build settings into the fixture's
 * node_modules/satang, beside a copy of package.json, so `satang/react` and `satang/server` resolve
 * through its `exports` as in a merchant's project. Then:
 *
 *   - `next build` (Turbopack) passes with no key in the environment: the handler is made on the
 *     first request;
 *   - `next start` on a free port with the keys and the sandbox's URL, and Chromium pays on its page
 *     with the test card: the page hears satang-success, and the sandbox's webhooks reach the route;
 *     lit is downloaded and runs once on the page, with the card form and with a PromptPay QR's element.
 *
 * Every process is started here and stopped by its id; one that cannot start fails the test.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = `${root}test/next/fixture`;
const PACKAGE = `${FIXTURE}/node_modules/satang`;
const require = createRequire(import.meta.url);
const TSC = require.resolve('typescript/bin/tsc');
const NEXT = require.resolve('next/dist/bin/next');

const BUILD_TIMEOUT_MS = 360_000;
const START_TIMEOUT_MS = 60_000;
const PAY_TIMEOUT_MS = 120_000;

/** The keys the shop reads at run time, and that must not be there while it is built. */
const SHOP_ENV = ['SATANG_SERVICE_URL', 'SATANG_MERCHANT_ID', 'SATANG_API_KEY', 'SATANG_PUBLISHABLE_KEY', 'SATANG_PUBLIC_URL', 'SATANG_WEBHOOK_KEY'];

let sandbox: RunningSandbox | undefined;
let browser: Browser | undefined;
let server: ChildProcess | undefined;

/** The environment without the shop's keys, and without this process's NODE_ENV (vitest's "test"). */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
  for (const name of [...SHOP_ENV, 'NODE_ENV']) Reflect.deleteProperty(env, name);
  return env;
}

/** Runs a command to its end; answers its exit code and what it printed. */
function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    // A process group of its own, so that a command past its time goes with its workers (next build starts some).
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      output += `\n(stopped after ${options.timeoutMs} ms)`;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The package as `npm run build` makes it (tsconfig.build.json's settings), with the entries the shop imports. */
async function buildPackage(): Promise<void> {
  await rm(`${FIXTURE}/node_modules`, { recursive: true, force: true });
  await mkdir(PACKAGE, { recursive: true });
  await copyFile(`${root}package.json`, `${PACKAGE}/package.json`);
  const tsconfig = { extends: `${root}tsconfig.build.json`, compilerOptions: { rootDir: `${root}src`, outDir: `${PACKAGE}/dist` }, include: [`${root}src/elements`, `${root}src/react`, `${root}src/server`] };
  await writeFile(`${PACKAGE}/tsconfig.json`, JSON.stringify(tsconfig));
  const built = await run(process.execPath, [TSC, '-p', `${PACKAGE}/tsconfig.json`], { cwd: root, timeoutMs: BUILD_TIMEOUT_MS });
  expect(built.output, 'the package compiles').toBe('');
  expect(built.code).toBe(0);
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Starts `next start` in a process group of its own, and waits until its page answers. */
async function startNext(port: number, env: NodeJS.ProcessEnv): Promise<() => string> {
  const child = spawn(process.execPath, [NEXT, 'start', '--port', String(port), '--hostname', '127.0.0.1'], { cwd: FIXTURE, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  server = child;
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<never>((_resolve, reject) => child.on('exit', (code) => reject(new Error(`next start exited with ${String(code)}:\n${output}`))));
  exited.catch(() => undefined);
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const answer = await Promise.race([fetch(`http://127.0.0.1:${port}/`).catch(() => undefined), exited]);
    if (answer?.ok) return () => output;
    if (Date.now() > deadline) throw new Error(`next start did not answer within ${START_TIMEOUT_MS} ms:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Stops the server by its process group, the one it was started in. */
async function stopNext(): Promise<void> {
  const child = server;
  server = undefined;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  process.kill(-child.pid, 'SIGTERM');
  const stopped = await Promise.race([gone.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000))]);
  if (!stopped) {
    process.kill(-child.pid, 'SIGKILL');
    await gone;
  }
}

/** The versions of lit-html that ran on the page: each copy records its own when it runs. */
function litRuns(page: Page): Promise<string[] | undefined> {
  return page.evaluate(() => (window as { litHtmlVersions?: string[] }).litHtmlVersions);
}

/** The page's scripts of `/_next/static` that carry lit-html's code, as they are downloaded: each copy records its version. */
function litDownloads(page: Page): () => Promise<string[]> {
  const scripts: Promise<string | undefined>[] = [];
  page.on('response', (answer) => {
    const path = new URL(answer.url()).pathname;
    if (!path.startsWith('/_next/static/') || !path.endsWith('.js')) return;
    scripts.push(answer.text().then((text) => (text.includes('litHtmlVersions') ? path : undefined)));
  });
  return async () => (await Promise.all(scripts)).filter((path) => path !== undefined);
}

afterAll(async () => {
  await stopNext();
  await browser?.close();
  await sandbox?.close();
});

describe('a Next.js App Router shop with satang/react and satang/server', () => {
  it(
    'builds with next build while no key is in the environment',
    async () => {
      await rm(`${FIXTURE}/.next`, { recursive: true, force: true });
      await buildPackage();
      const build = await run(process.execPath, [NEXT, 'build'], { cwd: FIXTURE, env: cleanEnv(), timeoutMs: BUILD_TIMEOUT_MS });
      expect(build.code, build.output).toBe(0);
      // The page and the route handler are both rendered per request.
      expect(build.output).toMatch(/ƒ \/\s/);
      expect(build.output).toContain('ƒ /api/checkout/[...path]');
      expect(build.output, 'built by Turbopack').toMatch(/Turbopack/);
      // Turbopack writes lit's code into each chunk group that a component of satang/react loads
      // (the checkout, the card form alone, the QR element alone): reported here; that the checkout
      // page downloads it once, and runs it once, is checked on the page below.
      const chunks = (await readdir(`${FIXTURE}/.next/static`, { recursive: true })).filter((file) => file.endsWith('.js'));
      const withLit: string[] = [];
      for (const file of chunks) if ((await readFile(`${FIXTURE}/.next/static/${file}`, 'utf8')).includes('litHtmlVersions')) withLit.push(file);
      console.log(`lit-html's code is in ${withLit.length} of the ${chunks.length} scripts of .next/static: ${withLit.join(', ')}`);
      expect(withLit.length, 'lit-html in the browser files').toBeGreaterThan(0);
    },
    BUILD_TIMEOUT_MS * 2,
  );

  it(
    'serves the page with next start, and a card payment on it reaches the page as satang-success, its webhooks the route',
    async () => {
      const port = await freePort();
      const shop = `http://127.0.0.1:${port}`;
      sandbox = await listenSandbox({ port: 0, webhook: { url: `${shop}/api/checkout/webhooks`, webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64 } });
      const output = await startNext(port, {
        ...cleanEnv(),
        SATANG_SERVICE_URL: sandbox.url,
        SATANG_MERCHANT_ID: SANDBOX_DEFAULTS.merchantId,
        SATANG_API_KEY: SANDBOX_DEFAULTS.apiKey,
        SATANG_PUBLISHABLE_KEY: SANDBOX_DEFAULTS.publishableKey,
        SATANG_PUBLIC_URL: shop,
        SATANG_WEBHOOK_KEY: SANDBOX_DEFAULTS.webhookKeyBase64,
      });
      browser = await launchChromium();
      const tab = await browser.newPage();
      const log = pageLog(tab);
      try {
        // The page signs the order's token with the handler, and the route takes it: the order's state reads.
        const orderState = tab.waitForResponse((answer) => new URL(answer.url()).pathname === '/api/checkout/orders/order-1001/state', { timeout: 15_000 });
        await tab.goto(shop);
        expect((await orderState).status(), 'the order state read with the page’s order token').toBe(200);
        // Choosing PromptPay brings the QR element's chunk, planned by Turbopack as the checkout's:
        // with no lit of its own, so lit is downloaded once and runs once. (In a tab of its own,
        // before the order is paid.)
        const another = await browser.newPage();
        const downloaded = litDownloads(another);
        try {
          await another.goto(shop);
          await another.locator('satang-checkout [part="method"]', { hasText: 'PromptPay' }).click();
          await another.evaluate(() => customElements.whenDefined('satang-qr-payment'));
          expect(await downloaded(), 'the scripts downloaded with lit-html in them, with the QR element').toHaveLength(1);
          expect(await litRuns(another), 'lit-html ran once on the page with the QR element').toHaveLength(1);
        } finally {
          await another.close();
        }
        await payWithTestCard(tab);
        expect(await litRuns(tab), 'lit-html ran once on the page').toHaveLength(1);
        const status = tab.getByRole('status').filter({ hasText: /^paid ch_\w+$/ });
        await status.waitFor({ timeout: 30_000 });
        const chargeId = (await status.textContent())!.slice('paid '.length);
        await sandbox.sandbox.webhooks.idle();
        const charged = sandbox.sandbox.webhooks.list().find((delivery) => delivery.event === 'charge.succeeded' && delivery.resourceId === chargeId);
        expect(charged, 'the sandbox sent charge.succeeded to the shop').toBeDefined();
        expect(charged!.status, JSON.stringify(charged!.attempts)).toBe('DELIVERED');
      } catch (error) {
        throw new Error(`${String(error)}\nwhat the page said:\n${log.join('\n')}\nwhat next start said:\n${output()}`, { cause: error });
      }
    },
    PAY_TIMEOUT_MS,
  );
});
