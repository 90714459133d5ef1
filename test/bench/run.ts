import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { version as viteVersion } from 'vite';
import { launchChromium, measureFirstRender, measureKeystrokes, measureQr, measureRoundTrips } from './browser.js';
import { measureCheckoutLoad } from './checkout-load.js';
import { measureChargeProxy } from './charge-proxy.js';
import { measureProxy } from './proxy.js';
import { measureStatusWaiters } from './status-waiters.js';
import { measureStoreCalls } from './store-calls.js';
import { goalsOf, renderMarkdown, renderTable, type BenchResults, type PerfBefore, type SizeRow } from './report.js';
import type { SandboxLoadResult } from './sandbox-load.js';
import { measureSandboxMemory } from './sandbox-memory.js';
import { buildCheckout, buildConsumer, buildEntry, buildPackage, buildViteConsumer, checkBudgets, packageEntry, measureFile, REPO_ROOT, writeFiles } from './sizes.js';
import { startPageServer } from './page-server.js';
import { startBenchStack } from './stack.js';

/**
 * `npm run bench`: sizes, first render, keystrokes, QR, round trips, proxy overhead, sandbox
 * throughput, the sandbox's memory under refused bodies and the checkout load, in one run. Prints a table, writes bench-results/bench.json and BENCHMARKS.md.
 */

const RESULTS_DIR = join(REPO_ROOT, 'bench-results');
const WWW_DIR = join(RESULTS_DIR, 'www');
const run = promisify(execFile);
/** Loads of each first-render page: enough for a ratio whose 90% interval is about ±0.1x on this kind of machine. */
const FIRST_RENDER_RUNS = 50;

function step(text: string): void {
  process.stderr.write(`bench: ${text}\n`);
}

async function packageVersion(name: string): Promise<string> {
  const json = JSON.parse(await readFile(join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
  return json.version;
}

async function osName(): Promise<string> {
  try {
    const text = await readFile('/etc/os-release', 'utf8');
    return /^PRETTY_NAME="?([^"\n]+)"?/m.exec(text)?.[1] ?? `Linux ${release()}`;
  } catch {
    return `${process.platform} ${release()}`;
  }
}

async function sandboxLoad(charges: number): Promise<SandboxLoadResult> {
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', join(REPO_ROOT, 'test/bench/sandbox-load.ts'), String(charges)], {
    cwd: REPO_ROOT,
    maxBuffer: 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as SandboxLoadResult;
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const started = performance.now();
  const loadStart = loadavg();

  // ---- Sizes: the real builds (vite.config.ts), a bench-only entry, and the baselines.
  step('building (vite.config.ts, in memory) and measuring sizes');
  const checkout = await buildCheckout();
  const checkoutCard = await buildEntry('test/bench/entries/checkout-card.ts', 'checkout-card');
  const floor = await buildEntry('test/bench/baselines/lit-floor.ts', 'lit-floor');
  // As a merchant's bundler ships them: `import 'satang'` from the package's modules in a Vite app
  // (the budget, and the first-render page) and through esbuild (reported), and the floor in a Vite
  // app built the same way (the first render's baseline) and through esbuild.
  const project = await buildPackage('bench-package');
  const viteConsumer = await buildViteConsumer(project, ['satang'], 'app');
  const consumer = await buildConsumer(packageEntry(project), 'satang');
  const consumerFloor = await buildConsumer('test/bench/baselines/lit-floor.ts', 'lit-floor');
  const viteFloor = await buildViteConsumer(project, [join(REPO_ROOT, 'test/bench/baselines/lit-floor.ts')], 'floor', '/consumer-floor/');
  const adyen = await buildEntry('test/bench/baselines/adyen-card.ts', 'adyen-card');
  const braintree = await buildEntry('test/bench/baselines/braintree-hosted-fields.js', 'braintree-hosted-fields');
  const adyenCss = await measureFile('node_modules/@adyen/adyen-web/dist/es/adyen.css');
  const versions = {
    lit: await packageVersion('lit'),
    adyen: await packageVersion('@adyen/adyen-web'),
    braintree: await packageVersion('braintree-web'),
  };
  // Initial file + lazy chunk: two files, each compressed on its own, as they are served.
  const fullWithQr = {
    minified: checkout.full.minified + checkout.qrChunk.minified,
    gzip: checkout.full.gzip + checkout.qrChunk.gzip,
    brotli: checkout.full.brotli + checkout.qrChunk.brotli,
  };
  const budgets = checkBudgets(checkout, viteConsumer);
  const budgetOf = (file: string) => budgets.find((b) => b.file === file)?.budget;

  const sizes: SizeRow[] = [
    { group: 'satang', label: 'Card checkout, initial', file: 'dist/browser/satang-card.js', what: '`satang/card`: `<satang-card-form>` alone (src/elements/card.ts)', ...pick(checkout.card), budget: budgetOf(checkout.card.fileName) },
    {
      group: 'satang',
      label: 'Drop-in checkout, card only',
      file: '(bench entry, not shipped)',
      what: '`<satang-checkout methods="card">`: checkout + card form, no QR element (test/bench/entries/checkout-card.ts)',
      ...pick(checkoutCard.entry),
    },
    { group: 'satang', label: 'All methods, initial', file: 'dist/browser/satang-checkout.js', what: '`satang/checkout`: the checkout and its card form (src/elements/checkout.ts); the QR element is fetched once PromptPay is chosen', ...pick(checkout.checkout), budget: budgetOf(checkout.checkout.fileName) },
    { group: 'satang', label: 'QR element chunk (lazy)', file: `dist/browser/${checkout.qrElementChunk.fileName}`, what: '`<satang-qr-payment>`, fetched by satang-checkout.js with the QR library', ...pick(checkout.qrElementChunk) },
    { group: 'satang', label: 'QR chunk (lazy)', file: `dist/browser/${checkout.qrChunk.fileName}`, what: 'qrcode, fetched with import() when a QR code is shown', ...pick(checkout.qrChunk), budget: budgetOf(checkout.qrChunk.fileName) },
    { group: 'satang', label: 'Script-tag build', file: 'dist/browser/satang.js', what: 'the checkout and the card form defined at once, the QR element on first use (src/elements/index.ts); qrcode lazy', ...pick(checkout.full) },
    { group: 'satang', label: 'Script-tag build after a QR is shown', file: 'satang.js + chunk', what: 'the two files, each compressed on its own', ...fullWithQr },
    {
      group: 'satang',
      label: "`import 'satang'`, Vite app, initial",
      file: `vite: ${viteConsumer.initial.map((f) => f.fileName).join(' + ')}`,
      what: `the README's first example as a Vite app ships it (vite build): every file before the first render, each compressed on its own; later: ${viteConsumer.lazy.map((f) => f.fileName.replace(/^assets\//, '').replace(/-[\w-]{8}\.js$/, '')).join(', ')}`,
      ...pick(viteConsumer.initialTotal),
      budget: budgets.find((b) => b.file.startsWith("import 'satang'"))?.budget,
    },
    {
      group: 'satang',
      label: "`import 'satang'`, esbuild, initial",
      file: `esbuild: ${consumer.initial.map((f) => f.fileName).join(' + ')}`,
      what: `the same through esbuild (minified, splitting): ${consumer.initial.length} requests before the first render, each compressed on its own; later: ${consumer.lazy.map((f) => f.fileName.replace(/-\w{8}\.js$/, '')).join(', ')}`,
      ...pick(consumer.initialTotal),
    },
    { group: 'baseline', label: 'Floor, bundled', file: 'esbuild: lit-floor.js', what: 'the bare Lit element as the same bundler ships it', ...pick(consumerFloor.initialTotal) },
    { group: 'baseline', label: 'Floor: bare Lit element', file: 'test/bench/baselines/lit-floor.ts', what: `lit ${versions.lit}, one element with four labelled inputs`, ...pick(floor.entry) },
    { group: 'baseline', label: 'Adyen Web, card (tree-shaken)', file: 'test/bench/baselines/adyen-card.ts', what: `@adyen/adyen-web ${versions.adyen}: \`AdyenCheckout\` + \`Card\`; JS only, before its CSS and run-time iframes`, ...pick(adyen.entry) },
    { group: 'baseline', label: 'Adyen Web stylesheet', file: 'adyen.css', what: `@adyen/adyen-web ${versions.adyen}: the CSS a card page also loads`, ...adyenCss },
    { group: 'baseline', label: 'Braintree client + hosted fields', file: 'test/bench/baselines/braintree-hosted-fields.js', what: `braintree-web ${versions.braintree}: \`braintree-web/client\` + \`braintree-web/hosted-fields\`; before its run-time iframes`, ...pick(braintree.entry) },
  ];
  for (const extra of [...adyen.chunks, ...braintree.chunks, ...floor.chunks]) step(`note: a baseline emitted an extra chunk ${extra.fileName} (${extra.brotli} B br), not counted`);

  // ---- Browser: the built files, served with a real sandbox and checkout handler.
  await rm(WWW_DIR, { recursive: true, force: true });
  await writeFiles(WWW_DIR, checkout.files);
  await writeFiles(WWW_DIR, floor.files);
  await writeFiles(join(WWW_DIR, 'consumer'), viteConsumer.chunks);
  await writeFiles(join(WWW_DIR, 'consumer-floor'), viteFloor.chunks);
  const stack = await startBenchStack(WWW_DIR);
  const browser = await launchChromium();
  const chromium = browser.version();
  let browserResults;
  try {
    step('Chromium: round trips of a card payment');
    const roundTrips = await measureRoundTrips(browser, stack);
    step(`Chromium: first render, ${FIRST_RENDER_RUNS} runs of each page (pages served by a process of their own)`);
    const pages = await startPageServer(WWW_DIR);
    const firstRender = await measureFirstRender(browser, pages.origin, FIRST_RENDER_RUNS).finally(() => pages.close());
    step('Chromium: keystrokes');
    const keystrokes = await measureKeystrokes(browser, stack.origin, 5);
    step('Chromium: QR');
    const qr = await measureQr(browser, stack.origin, 7);
    browserResults = { roundTrips, firstRender, keystrokes, qr };
    for (const e of stack.handlerErrors) step(`warning: the checkout handler answered ${e.status} ${e.errorCode ?? ''} to ${e.method} ${e.path} during the browser runs`);
  } finally {
    await browser.close();
    await stack.close();
  }

  // ---- Node: proxy overhead, then the sandbox (each in processes of their own).
  step('proxy overhead (autocannon and sequential latency)');
  const proxy = await measureProxy();
  step('store calls of a charge, its webhook and an order state read');
  const storeCalls = await measureStoreCalls();
  step('charge creation: the checkout handler against a bare forwarding proxy');
  const chargeProxy = await measureChargeProxy();
  step('waiting shoppers: 1,000 long-polls on 10 pending charges, and the node:http floor');
  const statusWaiters = await measureStatusWaiters();
  step('sandbox: 20,000 charges (its retention), the list at 1,000 and 20,000, then 5,000 more');
  const sandbox = await sandboxLoad(20_000);
  step('sandbox memory: 3,000 refused bodies over the cap, against 3,000 small refused requests');
  const sandboxMemory = await measureSandboxMemory(3_000);
  step('checkout load: hundreds of shoppers through the shop, and direct');
  const checkoutLoad = await measureCheckoutLoad();

  const results: BenchResults = {
    date: startedAt.toISOString(),
    durationSeconds: (performance.now() - started) / 1000,
    machine: {
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      memoryGiB: totalmem() / 1024 ** 3,
      os: await osName(),
      node: process.version,
      chromium,
      vite: viteVersion,
      loadAverageStart: loadStart[0]!,
      loadAverageEnd: loadavg()[0]!,
    },
    sizes: {
      rows: sizes,
      budgets,
      modules: { 'satang.js': checkout.full.modules, 'satang-checkout.js': checkout.checkout.modules, 'satang-card.js': checkout.card.modules, [checkout.qrChunk.fileName]: checkout.qrChunk.modules },
    },
    ...browserResults,
    proxy,
    sandbox,
    sandboxMemory,
    checkoutLoad,
    chargeProxy,
    statusWaiters,
    storeCalls,
    perfBefore: await readPerfBefore(),
    goals: [],
  };
  results.goals = goalsOf(results);

  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(join(RESULTS_DIR, 'bench.json'), `${JSON.stringify(results, null, 2)}\n`);
  await writeFile(join(REPO_ROOT, 'BENCHMARKS.md'), renderMarkdown(results));
  process.stdout.write(renderTable(results));
  step(`done in ${results.durationSeconds.toFixed(0)} s: bench-results/bench.json, BENCHMARKS.md`);
}

/** The committed figures of the code before the hot-path work, for the before/after table. */
async function readPerfBefore(): Promise<PerfBefore | undefined> {
  try {
    return JSON.parse(await readFile(join(REPO_ROOT, 'test/bench/baselines/perf-before.json'), 'utf8')) as PerfBefore;
  } catch {
    return undefined;
  }
}

function pick(file: { minified: number; gzip: number; brotli: number }) {
  return { minified: file.minified, gzip: file.gzip, brotli: file.brotli };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
