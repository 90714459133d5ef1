import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright';
import { build as viteBuild, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsumer, buildModule, REPO_ROOT, writeFiles, type ConsumerBuild } from '../bench/sizes.js';
import { startBenchStack, type BenchStack } from '../bench/stack.js';

/**
 * dist/module/ (what `import 'satang'` resolves to), bundled by esbuild as a merchant's app
 * bundles it, then paid with in Chromium: the first render comes from one file, and the lazy
 * chunks, which take lit and the entry's code from the entry when it has run
 * (build/link-lazy-chunks.ts), work: the payment code after a card payment, the QR element and
 * the QR renderer after a PromptPay one.
 */

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const YEAR = String((new Date().getFullYear() + 2) % 100).padStart(2, '0');

let consumer: ConsumerBuild;
let modulePath: string;
let www: string;
let stack: BenchStack;
let browser: Browser;

beforeAll(async () => {
  modulePath = join(REPO_ROOT, await buildModule());
  consumer = await buildConsumer(modulePath, 'satang');
  www = await mkdtemp(join(tmpdir(), 'satang-module-'));
  await writeFiles(join(www, 'consumer'), consumer.files);
  stack = await startBenchStack(www);
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}, 180_000);

afterAll(async () => {
  await browser.close();
  await stack.close();
  await rm(www, { recursive: true, force: true });
});

/** The bundled checkout's page, with every script error and failed request of the page kept. */
async function openCheckout(): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
  await page.goto(`${stack.origin}/consumer.html`);
  await page.waitForFunction(() => window.__bench.ready !== null, null, { timeout: 15_000 });
  return { page, problems, close: () => context.close() };
}

function outcome(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        document.addEventListener('satang-success', () => resolve('success'), { once: true });
        document.addEventListener('satang-failure', (e) => resolve(`failure ${e.failureCode}`), { once: true });
        document.addEventListener('satang-error', (e) => resolve(`error ${e.code} ${e.message}`), { once: true });
      }),
  );
}

describe("import 'satang' bundled by esbuild from dist/module", () => {
  it('loads one file before the first render, lit included, and everything else lazily', () => {
    expect(consumer.initial.map((f) => f.fileName)).toEqual(['satang.js']);
    const entry = consumer.files.find((f) => f.fileName === 'satang.js')!.code;
    expect(entry).toContain('customElements.define');
    // The payment code and the QR libraries are not in it.
    expect(consumer.lazy.length).toBeGreaterThanOrEqual(4);
    expect(entry).not.toContain('createCheckoutCharge');
  });

  it('carries its templates prepared at build time, in the entry and the lazy chunks alike', async () => {
    const dir = dirname(modulePath);
    const files = [modulePath, ...(await readdir(join(dir, 'chunks'))).filter((f) => f.endsWith('.js')).map((f) => join(dir, 'chunks', f))];
    const code = await Promise.all(files.map((f) => readFile(f, 'utf8')));
    // Not one left for lit-html to prepare at the first render.
    expect(code.filter((c) => /\bhtml\s*`/.test(c))).toEqual([]);
    expect(code[0]).toContain('_$litType$');
    // lit-html's part classes reach the lazy chunks through the entry, like lit.
    expect(code[0]).toContain('"lit-html/private-ssr-support.js": Object.freeze(');
  });

  // Vite's app build keeps code shared with a lazy chunk in the entry whatever it is given: this
  // checks that dist/module keeps it one file there too, and builds.
  it('is one file before the first render for a Vite app too', async () => {
    const app = await mkdtemp(join(tmpdir(), 'satang-vite-app-'));
    try {
      await writeFile(join(app, 'main.js'), `import ${JSON.stringify(modulePath)};\n`);
      await writeFile(join(app, 'index.html'), '<!doctype html><script type="module" src="./main.js"></script><satang-checkout></satang-checkout>\n');
      const output = (await viteBuild({ root: app, configFile: false, logLevel: 'error', mode: 'production', build: { write: false } })) as Rolldown.RolldownOutput;
      const chunks = output.output.filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
      const [entry] = chunks.filter((c) => c.isEntry);
      expect(entry?.imports, 'files the entry waits for').toEqual([]);
      expect(entry?.code).toContain('customElements.define');
      expect(entry?.dynamicImports.length, 'the lazy chunks').toBeGreaterThanOrEqual(4);
    } finally {
      await rm(app, { recursive: true, force: true });
    }
  }, 60_000);

  it('pays by card: the card rules, the token call and the payment code come lazily and work', async () => {
    const { page, problems, close } = await openCheckout();
    try {
      const field = (id: string) => page.locator(`satang-checkout satang-card-form #${id}`);
      await field('number').fill('4111111111111111');
      await field('expiry').fill(`12/${YEAR}`);
      await field('cvc').fill('123');
      await field('holder').fill('Somchai Jaidee');
      const result = outcome(page);
      await page.locator('satang-checkout [part="pay-button"]').click();
      expect(await result).toBe('success');
      await expect.poll(() => page.locator('satang-checkout [part="outcome"]').textContent()).toMatch(/paid|success/i);
      const loaded = await page.evaluate(() => (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => new URL(e.name).pathname));
      expect(loaded.some((path) => /\/consumer\/pay-path-[\w-]+\.js$/.test(path))).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('shows a PromptPay QR code: the QR element and the QR renderer come lazily and work', async () => {
    const { page, problems, close } = await openCheckout();
    try {
      await page.locator('satang-checkout [part="method"]', { hasText: 'PromptPay' }).click();
      await page.locator('satang-checkout [part="pay-button"]').click();
      await expect
        .poll(() => page.evaluate(() => Boolean(document.querySelector('satang-checkout')?.shadowRoot?.querySelector('satang-qr-payment')?.shadowRoot?.querySelector('svg, img'))), { timeout: 15_000 })
        .toBe(true);
      expect(await page.evaluate(() => customElements.get('satang-qr-payment') !== undefined)).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
