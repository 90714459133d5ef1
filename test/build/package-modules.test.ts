import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright';
import { parseSync } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsumer, buildPackage, buildViteConsumer, packageEntry, REPO_ROOT, writeFiles, type ConsumerBuild, type ViteConsumerBuild } from '../bench/sizes.js';
import { startBenchStack, type BenchStack } from '../bench/stack.js';
import { CHROMIUM_PATH } from '../support/chromium-path.js';

/**
 * What a bundler gets from the package: dist/elements and dist/react, TypeScript's output
 * (tsconfig.build.json), one plain ES module per source module, which every browser entry
 * (`satang`, `satang/checkout`, `satang/card`, `satang/react`, `satang/jsx`) reaches. Built here
 * as `npm run build` builds them ({@link buildPackage}), then taken in by Vite apps as a merchant's:
 *
 *   - one importing `satang/react`, `satang/card` and `satang`: each module of satang is in one
 *     output file, however many entries reach it;
 *   - one importing `satang`, paid with in Chromium against the sandbox: the code fetched after
 *     the first render (the card rules, the payment code, the QR element and renderer) works;
 *   - a React app rendering `SatangCheckout` of `satang/react`, paid with the same way: the app
 *     hears the payment through its `onSatangSuccess` prop.
 * And `import 'satang'` bundled by esbuild, paid with too.
 */

const exec = promisify(execFile);
const YEAR = String((new Date().getFullYear() + 2) % 100).padStart(2, '0');
const BROWSER_ENTRIES = ['satang', 'satang/checkout', 'satang/card', 'satang/react', 'satang/jsx'];
/** What a module of the package may import besides its own files: its dependencies and peers. */
const PACKAGES = /^(lit|lit-html|lit-element|@lit\/reactive-element|@lit\/react|react|qr|zod)(\/|$)/;

let project: string;
let manyEntries: ViteConsumerBuild;
let shop: ViteConsumerBuild;
let reactShop: ViteConsumerBuild;
let esbuildShop: ConsumerBuild;
let www: string;
let stack: BenchStack;
let browser: Browser;

beforeAll(async () => {
  project = await buildPackage('package-modules');
  manyEntries = await buildViteConsumer(project, ['satang/react', 'satang/card', 'satang'], 'many-entries');
  shop = await buildViteConsumer(project, ['satang'], 'app');
  // A merchant's React app: SatangCheckout with the page's order, saying what it heard.
  const reactApp = join(project, 'react-app.js');
  await writeFile(reactApp, REACT_APP);
  reactShop = await buildViteConsumer(project, [reactApp], 'react-app', '/react/');
  esbuildShop = await buildConsumer(packageEntry(project), 'app');
  www = await mkdtemp(join(tmpdir(), 'satang-package-modules-'));
  await writeFiles(join(www, 'consumer'), shop.chunks);
  await writeFiles(join(www, 'react'), reactShop.chunks);
  await writeFiles(join(www, 'esbuild'), esbuildShop.files);
  stack = await startBenchStack(www);
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}, 300_000);

afterAll(async () => {
  await browser.close();
  await stack.close();
  await rm(www, { recursive: true, force: true });
});

/** `path` inside the installed package, as `dist/elements/index.js`. */
const inPackage = (path: string) => relative(join(project, 'node_modules/satang'), path).replaceAll('\\', '/');

describe('the browser entries for bundlers', () => {
  it('resolve to modules of dist/elements and dist/react, one per source module', async () => {
    const script = `console.log(JSON.stringify(${JSON.stringify(BROWSER_ENTRIES)}.map((s) => import.meta.resolve(s))))`;
    const { stdout } = await exec(process.execPath, ['--input-type=module', '-e', script], { cwd: project });
    const resolved = (JSON.parse(stdout) as string[]).map((url) => inPackage(new URL(url).pathname));
    expect(resolved).toEqual(['dist/elements/index.js', 'dist/elements/checkout.js', 'dist/elements/card.js', 'dist/react/index.js', 'dist/react/jsx.js']);
    for (const part of ['elements', 'react']) {
      const sources = (await readdir(join(REPO_ROOT, 'src', part), { recursive: true })).filter((f) => f.endsWith('.ts')).map((f) => f.replace(/\.ts$/, '.js'));
      const built = (await readdir(join(project, 'node_modules/satang/dist', part), { recursive: true })).filter((f) => f.endsWith('.js'));
      expect(built.sort(), `dist/${part}`).toEqual(sources.sort());
    }
  });

  it('import only their own files and the packages satang depends on', async () => {
    const dist = join(project, 'node_modules/satang/dist');
    const strays: string[] = [];
    for (const part of ['elements', 'react', 'client', 'core']) {
      for (const file of (await readdir(join(dist, part), { recursive: true })).filter((f) => f.endsWith('.js'))) {
        const code = await readFile(join(dist, part, file), 'utf8');
        const { module } = parseSync(file, code);
        const specifiers = [
          ...module.staticImports.map((i) => i.moduleRequest.value),
          ...module.staticExports.flatMap((e) => e.entries.flatMap((entry) => entry.moduleRequest?.value ?? [])),
          // The quoted text inside `import(…)`.
          ...module.dynamicImports.map((i) => code.slice(i.moduleRequest.start + 1, i.moduleRequest.end - 1)),
        ];
        for (const specifier of specifiers) if (!specifier.startsWith('.') && !PACKAGES.test(specifier)) strays.push(`${part}/${file}: ${specifier}`);
        expect(specifiers.length > 0 || /\b(export|import)\b/.test(code), `${part}/${file} is an ES module`).toBe(true);
      }
    }
    expect(strays).toEqual([]);
  });

  it('put each module of satang in one file of a Vite app that imports satang/react, satang/card and satang', () => {
    const filesOf = new Map<string, string[]>();
    for (const chunk of manyEntries.chunks) {
      for (const id of chunk.moduleIds) {
        if (!/[\\/]node_modules[\\/](satang|lit-html|lit-element|@lit[\\/]reactive-element)[\\/]/.test(id)) continue;
        filesOf.set(id, [...(filesOf.get(id) ?? []), chunk.fileName]);
      }
    }
    const card = [...filesOf.keys()].filter((id) => id.endsWith('satang-card-form/satang-card-form.js'));
    expect(card, 'the card form, reached from all three').toHaveLength(1);
    expect([...filesOf].filter(([, files]) => files.length > 1).map(([id, files]) => `${inPackage(id)}: ${files.join(', ')}`)).toEqual([]);
  });
});

/** The React app of /react.html: its root's `data-checkout` holds the checkout's props; what the app hears goes to `#said`. */
const REACT_APP = `import { createElement, Fragment, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { SatangCheckout } from 'satang/react';

const root = document.getElementById('root');
const props = JSON.parse(root.dataset.checkout);
function Shop() {
  const [said, setSaid] = useState('not paid yet');
  return createElement(Fragment, null,
    createElement(SatangCheckout, { ...props, onSatangSuccess: (event) => setSaid('paid ' + event.chargeId), onSatangError: (event) => setSaid('error ' + event.code) }),
    createElement('p', { id: 'said', role: 'status' }, said));
}
createRoot(root).render(createElement(Shop));
`;

/** The checkout page of an app (`/consumer.html`: the Vite app's), with every script error and failed request of the page kept. */
async function openCheckout(pagePath: string): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
  await page.goto(`${stack.origin}${pagePath}`);
  await page.waitForFunction(() => window.__bench.ready !== null, null, { timeout: 15_000 });
  return { page, problems, close: () => context.close() };
}

/** Fills the checkout's card form with the test card and presses Pay; answers what the checkout said: `success`, `failure …` or `error …`. */
async function payByCard(page: Page): Promise<string> {
  const field = (id: string) => page.locator(`satang-checkout satang-card-form #${id}`);
  await field('number').fill('4111111111111111');
  await field('expiry').fill(`12/${YEAR}`);
  await field('cvc').fill('123');
  await field('holder').fill('Somchai Jaidee');
  const result = outcome(page);
  await page.locator('satang-checkout [part="pay-button"]').click();
  return result;
}

/** Runs `use` on an app's checkout page ({@link openCheckout}), then checks that the page had no script error and no failed request. */
async function onCheckoutPage(pagePath: string, use: (page: Page) => Promise<void>): Promise<void> {
  const { page, problems, close } = await openCheckout(pagePath);
  try {
    await use(page);
    expect(problems).toEqual([]);
  } finally {
    await close();
  }
}

/** How many copies of lit-html ran on the page: each records its version when it runs. */
const litRuns = (page: Page) => page.evaluate(() => (window as { litHtmlVersions?: string[] }).litHtmlVersions?.length);

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

describe("import 'satang' in a Vite app, in Chromium", () => {
  it('loads one file before the first render, and the rest with import()', () => {
    expect(shop.initial.map((f) => f.fileName)).toEqual(['app.js']);
    expect(shop.lazy.length).toBeGreaterThanOrEqual(4);
    expect(shop.initial[0]!.modules.some((m) => m.id.endsWith('satang-checkout/pay-path.js'))).toBe(false);
  });

  it('pays by card: the card rules, the token call and the payment code come lazily and work', async () => {
    await onCheckoutPage('/consumer.html', async (page) => {
      expect(await payByCard(page)).toBe('success');
      const loaded = await page.evaluate(() => (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => new URL(e.name).pathname));
      expect(loaded.some((path) => /\/consumer\/pay-path-[\w-]+\.js$/.test(path)), loaded.join(', ')).toBe(true);
      expect(await litRuns(page), 'one lit-html on the page').toBe(1);
    });
  });

  it('shows a PromptPay QR code: the QR element and the QR renderer come lazily and work', async () => {
    await onCheckoutPage('/consumer.html', async (page) => {
      await page.locator('satang-checkout [part="method"]', { hasText: 'PromptPay' }).click();
      await page.locator('satang-checkout [part="pay-button"]').click();
      await expect
        .poll(() => page.evaluate(() => Boolean(document.querySelector('satang-checkout')?.shadowRoot?.querySelector('satang-qr-payment')?.shadowRoot?.querySelector('svg, img'))), { timeout: 15_000 })
        .toBe(true);
    });
  });
});

describe("import 'satang' bundled by esbuild, in Chromium", () => {
  it('pays by card', async () => {
    await onCheckoutPage('/esbuild.html', async (page) => {
      expect(await payByCard(page)).toBe('success');
      expect(await litRuns(page), 'one lit-html on the page').toBe(1);
    });
  });
});

describe('SatangCheckout of satang/react in a Vite + React app, in Chromium', () => {
  it('pays by card, and the app hears it through onSatangSuccess', async () => {
    await onCheckoutPage('/react.html', async (page) => {
      expect(await payByCard(page)).toBe('success');
      await expect.poll(() => page.locator('#said').textContent(), { timeout: 15_000 }).toMatch(/^paid ch_\w+$/);
      expect(await litRuns(page), 'one lit-html on the page').toBe(1);
    });
  });
});
