import { copyFile, cp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Browser, Page, Response } from 'playwright';
import { afterAll, describe, expect, it } from 'vitest';
import { listenSandbox, SANDBOX_DEFAULTS, type RunningSandbox } from '../../src/sandbox/index.js';
import { buildPackageInto, cleanEnv as shopEnv, freePort, linkTree, ROOT as root, runNode, startServer, type AppServer } from '../support/app-fixture.js';
import { launchChromium, pageLog, payWithTestCard } from '../support/chromium-shopper.js';

/**
 * A Next.js App Router shop (test/next/fixture, "Next.js (App Router)" in docs/react.md and the README) on the built
 * package, on Next.js 16 (test/next/fixture, with the next.config.ts and tsconfig.json that
 * create-next-app@16 writes, so Cache Components are on; built by Turbopack) and on Next.js 15
 * (test/next/fixture-next15: the same app copied beside the next.config.ts create-next-app@15 writes
 * and a tsconfig as Next 15 wrote it, with `"moduleResolution": "node"`, built by webpack). satang is compiled with the package's build
 * settings into the project's node_modules/satang, beside a copy of package.json, so `satang/react`
 * and `satang/server` resolve through its `exports` (its `typesVersions` under `node`) as in a
 * merchant's project. Then, on each version:
 *
 *   - `next build` passes with no key in the environment (the handler is made on the first
 *     request), type-checking the app with the project's tsconfig;
 *   - `next start` on a free port with the keys and the sandbox's URL, and Chromium pays on its page
 *     with the test card: the page hears satang-success, and the sandbox's webhooks reach the route;
 *     lit is downloaded and runs once on the page, with the card form and with a PromptPay QR's element.
 *
 * Every process is started here and stopped by its id; one that cannot start fails the test.
 */

/** The shop: its app, its Next.js config and its JSX check. The Next 15 project takes copies of the app and the check. */
const SHOP = `${root}test/next/fixture`;
const require = createRequire(import.meta.url);

const BUILD_TIMEOUT_MS = 360_000;
const START_TIMEOUT_MS = 60_000;
const PAY_TIMEOUT_MS = 120_000;

interface NextVersion {
  name: string;
  major: number;
  /** The project that `next build` and `next start` run in. */
  dir: string;
  /** The `next` command of the project. */
  next: string;
  /** The bundler that the version's `next build` uses by default. */
  bundler: 'Turbopack' | 'webpack';
  /** What `next build` prints as it type-checks the app. */
  typeCheck: string;
  /**
   * How `next build` lists the page: per request (ƒ), or under Cache Components a static shell with
   * the checkout, behind its Suspense boundary, rendered per request (◐, partial prerender).
   */
  pageRendering: RegExp;
  /** What `next build` is given besides `build`. */
  buildArgs: string[];
  /** Lays out the project around the shop's files, once the package is built into its node_modules. */
  layOut: () => Promise<void>;
}

const NEXT_15 = `${root}test/next/fixture-next15`;

const VERSIONS: NextVersion[] = [
  { name: 'Next.js 16', major: 16, dir: SHOP, next: require.resolve('next/dist/bin/next'), bundler: 'Turbopack', typeCheck: 'Running TypeScript', pageRendering: /◐ \/\s/, buildArgs: [], layOut: async () => undefined },
  {
    name: 'Next.js 15',
    major: 15,
    dir: NEXT_15,
    next: `${NEXT_15}/node_modules/next/dist/bin/next`,
    bundler: 'webpack',
    typeCheck: 'Checking validity of types',
    pageRendering: /ƒ \/\s/,
    // Next 15 lints during the build, with the nearest ESLint config: this repository's, which
    // leaves the fixtures alone. A merchant's shop is linted by the merchant's own rules.
    buildArgs: ['--no-lint'],
    layOut: async () => {
      for (const file of ['app', 'jsx-check.tsx', 'next-env.d.ts']) await rm(`${NEXT_15}/${file}`, { recursive: true, force: true });
      await cp(`${SHOP}/app`, `${NEXT_15}/app`, { recursive: true });
      await copyFile(`${SHOP}/jsx-check.tsx`, `${NEXT_15}/jsx-check.tsx`);
      // Next 15 (the next15 alias) as the project's own node_modules/next. Not a symlink: from the
      // link's real path, Next's own require('next/dist/…') would find the repository's Next 16.
      await linkTree(`${root}node_modules/next15`, `${NEXT_15}/node_modules/next`);
    },
  },
];

/**
 * The environment without the shop's keys, and without this process's NODE_ENV (vitest's "test").
 * next build looks for a package-lock.json upwards (this repository's) and may rewrite it when it
 * misses Next's compiler packages: NEXT_IGNORE_INCORRECT_LOCKFILE leaves it alone.
 */
function cleanEnv(): NodeJS.ProcessEnv {
  return { ...shopEnv(), NEXT_TELEMETRY_DISABLED: '1', NEXT_IGNORE_INCORRECT_LOCKFILE: '1' };
}

/** The project whose node_modules/satang was compiled first in this run. */
let compiledIn: string | undefined;

/**
 * The package as `npm run build` makes it, with the entries the shop imports, in a new node_modules
 * of the project. Both versions' shops import the same entries compiled with the same settings: the
 * second gets the first's output (hard links) rather than a second compile.
 */
async function buildPackage(project: string): Promise<void> {
  if (compiledIn !== undefined) {
    await rm(`${project}/node_modules`, { recursive: true, force: true });
    await linkTree(`${compiledIn}/node_modules/satang`, `${project}/node_modules/satang`);
    return;
  }
  const built = await buildPackageInto(project, ['elements', 'react', 'server']);
  expect(built.output, 'the package compiles').toBe('');
  expect(built.code).toBe(0);
  compiledIn = project;
}

/** The versions of lit-html that ran on the page: each copy records its own when it runs. */
function litRuns(page: Page): Promise<string[] | undefined> {
  return page.evaluate(() => (window as { litHtmlVersions?: string[] }).litHtmlVersions);
}

/**
 * The page's scripts of `/_next/static` that carry lit-html's code, as they are downloaded: each
 * copy records its version. Asking for them stops the watch, so no body is still being read when
 * the page closes.
 */
function litDownloads(page: Page): () => Promise<string[]> {
  const scripts: Promise<string | undefined>[] = [];
  const watch = (answer: Response): void => {
    const path = new URL(answer.url()).pathname;
    if (!path.startsWith('/_next/static/') || !path.endsWith('.js')) return;
    const read = answer.text().then((text) => (text.includes('litHtmlVersions') ? path : undefined));
    // Should the test end before asking, the page closing fails the read: that is no finding.
    read.catch(() => undefined);
    scripts.push(read);
  };
  page.on('response', watch);
  return async () => {
    page.off('response', watch);
    return (await Promise.all(scripts)).filter((path) => path !== undefined);
  };
}

describe.each(VERSIONS.map((version) => [version.name, version] as const))('a %s App Router shop with satang/react and satang/server', (_name, version) => {
  let sandbox: RunningSandbox | undefined;
  let browser: Browser | undefined;
  let server: AppServer | undefined;

  afterAll(async () => {
    await server?.stop();
    await browser?.close();
    await sandbox?.close();
  });

  it(
    `builds with next build (${version.bundler}) while no key is in the environment`,
    async () => {
      await rm(`${version.dir}/.next`, { recursive: true, force: true });
      await buildPackage(version.dir);
      await version.layOut();
      const tsconfig = await readFile(`${version.dir}/tsconfig.json`, 'utf8');
      const started = performance.now();
      const build = await runNode([version.next, 'build', ...version.buildArgs], { cwd: version.dir, env: cleanEnv(), timeoutMs: BUILD_TIMEOUT_MS });
      console.log(`${version.name}: next build took ${((performance.now() - started) / 1000).toFixed(1)} s`);
      expect(build.code, build.output).toBe(0);
      expect(build.output, `built by ${version.name}`).toContain(`▲ Next.js ${version.major}.`);
      // The app is type-checked with the project's tsconfig as it is: the build has not rewritten it.
      expect(build.output, 'the app type-checked').toContain(version.typeCheck);
      expect(await readFile(`${version.dir}/tsconfig.json`, 'utf8'), 'the tsconfig as the build found it').toBe(tsconfig);
      // The page and the route handler are both rendered per request.
      expect(build.output).toMatch(version.pageRendering);
      expect(build.output).toContain('ƒ /api/checkout/[...path]');
      if (version.bundler === 'Turbopack') expect(build.output, 'built by Turbopack').toMatch(/Turbopack/);
      else {
        expect(build.output, 'built by webpack').not.toMatch(/Turbopack/);
        expect(await readdir(`${version.dir}/.next/server`), 'built by webpack').toContain('webpack-runtime.js');
      }
      // Turbopack writes lit's code into each chunk group that a component of satang/react loads
      // (the checkout, the card form alone, the QR element alone), webpack into one chunk they
      // share: reported here; that the checkout page downloads it once, and runs it once, is
      // checked on the page below.
      const chunks = (await readdir(`${version.dir}/.next/static`, { recursive: true })).filter((file) => file.endsWith('.js'));
      const withLit: string[] = [];
      for (const file of chunks) if ((await readFile(`${version.dir}/.next/static/${file}`, 'utf8')).includes('litHtmlVersions')) withLit.push(file);
      console.log(`${version.name}: lit-html's code is in ${withLit.length} of the ${chunks.length} scripts of .next/static: ${withLit.join(', ')}`);
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
      // Listening once it says it is ready ("✓ Ready in …"), in a process group of its own.
      const next = await startServer([version.next, 'start', '--port', String(port), '--hostname', '127.0.0.1'], {
        cwd: version.dir,
        env: {
          ...cleanEnv(),
          SATANG_SERVICE_URL: sandbox.url,
          SATANG_MERCHANT_ID: SANDBOX_DEFAULTS.merchantId,
          SATANG_API_KEY: SANDBOX_DEFAULTS.apiKey,
          SATANG_PUBLISHABLE_KEY: SANDBOX_DEFAULTS.publishableKey,
          SATANG_PUBLIC_URL: shop,
          SATANG_WEBHOOK_KEY: SANDBOX_DEFAULTS.webhookKeyBase64,
        },
        ready: /Ready in/,
        timeoutMs: START_TIMEOUT_MS,
      });
      server = next;
      browser = await launchChromium();
      const tab = await browser.newPage();
      const log = pageLog(tab);
      try {
        // The page signs the order's token with the handler, and the route takes it: the order's state reads.
        const orderState = tab.waitForResponse((answer) => new URL(answer.url()).pathname === '/api/checkout/orders/order-1001/state', { timeout: 15_000 });
        await tab.goto(shop);
        expect((await orderState).status(), 'the order state read with the page’s order token').toBe(200);
        // Choosing PromptPay brings the QR element's chunk, which the bundler plans as the
        // checkout's: with no lit of its own, so lit is downloaded once and runs once. (In a tab of
        // its own, before the order is paid.)
        const another = await browser.newPage();
        const downloaded = litDownloads(another);
        try {
          await another.goto(shop);
          await another.locator('satang-checkout [part="method"]', { hasText: 'PromptPay' }).click();
          await another.evaluate(() => customElements.whenDefined('satang-qr-payment'));
          const withLit = await downloaded();
          console.log(`${version.name}: the checkout page with PromptPay downloaded lit-html in ${withLit.length} script(s): ${withLit.join(', ')}`);
          expect(withLit, 'the scripts downloaded with lit-html in them, with the QR element').toHaveLength(1);
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
        throw new Error(`${String(error)}\nwhat the page said:\n${log.join('\n')}\nwhat next start said:\n${next.output()}`, { cause: error });
      }
    },
    PAY_TIMEOUT_MS,
  );
});
