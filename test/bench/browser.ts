import { chromium, type Browser, type Page } from 'playwright';
import type { BenchStack } from './stack.js';
import { ratioOfMediansInterval, summarize, type Summary } from './stats.js';

/**
 * The measurements made in Chromium against the bench stack (stack.ts), on the built, minified
 * files. Every page load is a fresh browser context: an empty HTTP cache and no code cache from an
 * earlier run, as a shopper's first visit.
 */

/** The system Chromium, as for the tests: Playwright's own browser download is not used. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
}

interface ProbeMarks {
  ready: number | null;
  inputs: number | null;
  fcp: number | null;
}

interface LoadMarks extends ProbeMarks {
  /** The page's element script fully received (Resource Timing responseEnd). */
  scriptEnd: number;
}

interface KeyMark {
  keydown: number;
  input: number;
  sync: number;
  done: number;
}

interface QrMarks {
  img: number;
  imgFrame: number;
  svg: number;
  svgFrame: number;
}

declare global {
  interface Window {
    __bench: ProbeMarks;
    __keys: KeyMark[];
    __qr: QrMarks;
  }
}

const YEAR = String((new Date().getFullYear() + 2) % 100).padStart(2, '0');
const TIMEOUT_MS = 15_000;

/**
 * A new context: an empty HTTP cache. The functions given to `page.evaluate` are compiled by tsx,
 * which names functions through a `__name` helper that pages do not have; this defines it as the
 * identity before any page script runs.
 */
async function newContext(browser: Browser) {
  const context = await browser.newContext();
  await context.addInitScript('globalThis.__name ??= (fn) => fn;');
  return context;
}

async function open(browser: Browser, url: string): Promise<{ page: Page; marks: LoadMarks; close: () => Promise<void> }> {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => window.__bench.ready !== null && window.__bench.inputs !== null && window.__bench.fcp !== null, null, { timeout: TIMEOUT_MS });
  const marks = await page.evaluate(() => {
    const script = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((e) => /\/(satang|satang-checkout|lit-floor)\.js$/.test(e.name));
    return { ...window.__bench, scriptEnd: script?.responseEnd ?? Number.NaN };
  });
  return { page, marks, close: () => context.close() };
}

// ---------------------------------------------------------------------------------------------
// First render

export interface FirstRenderResult {
  runs: number;
  /** Navigation start → `satang-ready` / `floor-ready`, ms. */
  checkoutReady: Summary;
  floorReady: Summary;
  /** Navigation start → the card form's inputs rendered (the card form's first update done), ms. */
  checkoutInputs: Summary;
  /** First contentful paint, ms. */
  checkoutFcp: Summary;
  floorFcp: Summary;
  /** The element script received → ready: parsing, running and first render of the script, ms. */
  checkoutScriptToReady: Summary;
  floorScriptToReady: Summary;
  /** The same page with satang-checkout.js (the `satang/checkout` entry: the QR element comes lazily). */
  entryReady: Summary;
  entryInputs: Summary;
  entryFcp: Summary;
  entryScriptToReady: Summary;
  /** Median checkout / median floor: the goal's figure. */
  readyRatio: number;
  /** Median satang-checkout.js page / median floor. */
  entryReadyRatio: number;
  /** `import 'satang'` as a Vite app bundles it (consumer/app.js and its chunks), and the floor bundled the same way. */
  consumerReady: Summary;
  consumerFloorReady: Summary;
  /** Median bundled checkout / median bundled floor: the goal's figure, as a merchant's bundler ships both. */
  consumerReadyRatio: number;
  /** 90% bootstrap interval of `consumerReadyRatio`: how far this run's figure can be trusted. */
  consumerReadyRatioInterval: [low: number, high: number];
  inputsRatio: number;
  fcpRatio: number;
  /** Fastest checkout / fastest floor: the least disturbed runs, a check on the medians on a busy machine. */
  readyRatioOfMinima: number;
}

/** `runs` loads of each page, alternating, after one discarded warm-up load of each. */
export async function measureFirstRender(browser: Browser, origin: string, runs = 15): Promise<FirstRenderResult> {
  const pages = {
    checkout: `${origin}/checkout.html`,
    entry: `${origin}/checkout-entry.html`,
    floor: `${origin}/floor.html`,
    consumer: `${origin}/consumer.html`,
    consumerFloor: `${origin}/consumer-floor.html`,
  };
  for (const url of Object.values(pages)) await (await open(browser, url)).close();
  const marks: Record<keyof typeof pages, LoadMarks[]> = { checkout: [], entry: [], floor: [], consumer: [], consumerFloor: [] };
  const orders = [
    ['consumer', 'consumerFloor', 'checkout', 'entry', 'floor'],
    ['consumerFloor', 'floor', 'consumer', 'checkout', 'entry'],
    ['entry', 'consumer', 'floor', 'consumerFloor', 'checkout'],
  ] as const;
  for (let i = 0; i < runs; i += 1) {
    // Rotate which goes first, so a slow moment of the machine hits all alike.
    for (const which of orders[i % orders.length]!) {
      const run = await open(browser, pages[which]);
      marks[which].push(run.marks);
      await run.close();
    }
  }
  const { checkout, entry, floor, consumer, consumerFloor } = marks;
  const s = (list: LoadMarks[], key: keyof ProbeMarks) => summarize(list.map((m) => m[key]!));
  const result = {
    runs,
    checkoutReady: s(checkout, 'ready'),
    floorReady: s(floor, 'ready'),
    checkoutInputs: s(checkout, 'inputs'),
    checkoutFcp: s(checkout, 'fcp'),
    floorFcp: s(floor, 'fcp'),
    checkoutScriptToReady: summarize(checkout.map((m) => m.ready! - m.scriptEnd)),
    floorScriptToReady: summarize(floor.map((m) => m.ready! - m.scriptEnd)),
    entryReady: s(entry, 'ready'),
    entryInputs: s(entry, 'inputs'),
    entryFcp: s(entry, 'fcp'),
    entryScriptToReady: summarize(entry.map((m) => m.ready! - m.scriptEnd)),
    consumerReady: s(consumer, 'ready'),
    consumerFloorReady: s(consumerFloor, 'ready'),
  };
  return {
    ...result,
    readyRatio: result.checkoutReady.median / result.floorReady.median,
    inputsRatio: result.checkoutInputs.median / result.floorReady.median,
    fcpRatio: result.checkoutFcp.median / result.floorFcp.median,
    readyRatioOfMinima: result.checkoutReady.min / result.floorReady.min,
    entryReadyRatio: result.entryReady.median / result.floorReady.median,
    consumerReadyRatio: result.consumerReady.median / result.consumerFloorReady.median,
    consumerReadyRatioInterval: ratioOfMediansInterval(consumer.map((m) => m.ready!), consumerFloor.map((m) => m.ready!)),
  };
}

// ---------------------------------------------------------------------------------------------
// Keystrokes

export interface KeystrokeResult {
  pages: number;
  keystrokes: number;
  /** From the start of the `input` event to the end of the card form's `input` handler (before Lit renders), ms. */
  handler: Summary;
  /** From the start of the `input` event until the card form's Lit update has completed, ms. */
  handlerAndRender: Summary;
  /** From the start of `keydown` until that update has completed: the whole synchronous chain of a keystroke, ms. */
  keydownToRendered: Summary;
  /** The number as typed, then as formatted by the form: a check that the typing really happened. */
  typed: string;
  shown: string;
}

/**
 * Types a 16-digit card number into the checkout's card form, one key at a time, and times each
 * keystroke inside the page with `performance.now()`: listeners in the capture phase on the input
 * mark the start of `keydown` and `input` (before the form's own listener), a listener on the
 * form's shadow root marks the end of the form's handler, and `updateComplete` marks the end of
 * the Lit render the handler scheduled.
 */
export async function measureKeystrokes(browser: Browser, origin: string, pages = 5): Promise<KeystrokeResult> {
  const number = '4111111111111111';
  const all: KeyMark[] = [];
  let shown = '';
  for (let i = 0; i < pages; i += 1) {
    const run = await open(browser, `${origin}/checkout.html`);
    await run.page.evaluate(() => {
      const checkout = document.querySelector('satang-checkout')!;
      const form = checkout.shadowRoot!.querySelector('satang-card-form')!;
      const input = form.shadowRoot!.querySelector<HTMLInputElement>('#number')!;
      const keys: KeyMark[] = (window.__keys = []);
      input.addEventListener('keydown', () => keys.push({ keydown: performance.now(), input: Number.NaN, sync: Number.NaN, done: Number.NaN }), { capture: true });
      input.addEventListener(
        'input',
        () => {
          const mark = keys[keys.length - 1];
          if (mark) mark.input = performance.now();
        },
        { capture: true },
      );
      form.shadowRoot!.addEventListener('input', () => {
        const mark = keys[keys.length - 1];
        if (!mark) return;
        mark.sync = performance.now();
        void form.updateComplete.then(() => (mark.done = performance.now()));
      });
    });
    await run.page.locator('satang-checkout satang-card-form #number').pressSequentially(number);
    await run.page.waitForFunction(() => window.__keys.length > 0 && !Number.isNaN(window.__keys[window.__keys.length - 1]!.done));
    const { keys, value } = await run.page.evaluate(() => ({
      keys: window.__keys,
      value: document.querySelector('satang-checkout')!.shadowRoot!.querySelector('satang-card-form')!.shadowRoot!.querySelector<HTMLInputElement>('#number')!.value,
    }));
    if (keys.length !== number.length || keys.some((k) => Number.isNaN(k.done))) throw new Error(`expected ${number.length} timed keystrokes, got ${JSON.stringify(keys)}`);
    all.push(...keys);
    shown = value;
    await run.close();
  }
  return {
    pages,
    keystrokes: all.length,
    handler: summarize(all.map((k) => k.sync - k.input)),
    handlerAndRender: summarize(all.map((k) => k.done - k.input)),
    keydownToRendered: summarize(all.map((k) => k.done - k.keydown)),
    typed: number,
    shown,
  };
}

// ---------------------------------------------------------------------------------------------
// QR

export interface QrResult {
  runs: number;
  /** The proxy's ENCODED_IMAGE answer fully received (Resource Timing responseEnd) → the PNG code in the DOM, ms. */
  answerToPngInDom: Summary;
  /** … → the first animation frame after it: the PNG code on screen, ms. */
  answerToPngFrame: Summary;
  /** … → the SVG code drawn from raw-data (lazy qrcode chunk fetched and run) in the DOM, ms. */
  answerToSvgInDom: Summary;
  answerToSvgFrame: Summary;
  /** Fetch of the lazy chunk over loopback (Resource Timing duration), ms. */
  chunkFetch: Summary;
}

export async function measureQr(browser: Browser, origin: string, runs = 7): Promise<QrResult> {
  const rows: ({ answer: number; chunkFetch: number } & QrMarks)[] = [];
  for (let i = 0; i < runs; i += 1) {
    const run = await open(browser, `${origin}/checkout.html`);
    const { page } = run;
    await page.locator('satang-checkout [part="method"]', { hasText: 'PromptPay' }).click();
    await page.evaluate(() => {
      const checkout = document.querySelector('satang-checkout')!;
      const marks: QrMarks = (window.__qr = { img: Number.NaN, imgFrame: Number.NaN, svg: Number.NaN, svgFrame: Number.NaN });
      const watch = (qr: Element) => {
        const root = qr.shadowRoot!;
        const check = () => {
          if (Number.isNaN(marks.img) && root.querySelector('img')) {
            marks.img = performance.now();
            requestAnimationFrame(() => (marks.imgFrame = performance.now()));
          }
          if (Number.isNaN(marks.svg) && root.querySelector('svg')) {
            marks.svg = performance.now();
            requestAnimationFrame(() => (marks.svgFrame = performance.now()));
          }
        };
        new MutationObserver(check).observe(root, { childList: true, subtree: true });
        check();
      };
      new MutationObserver((_records, observer) => {
        const qr = checkout.shadowRoot!.querySelector('satang-qr-payment');
        if (!qr) return;
        observer.disconnect();
        watch(qr);
      }).observe(checkout.shadowRoot!, { childList: true, subtree: true });
    });
    await page.locator('satang-checkout [part="pay-button"]').click();
    await page.waitForFunction(() => !Number.isNaN(window.__qr.svgFrame) && !Number.isNaN(window.__qr.imgFrame), null, { timeout: TIMEOUT_MS });
    const row = await page.evaluate(() => {
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const answer = entries.find((e) => new URL(e.name).pathname === '/api/checkout/charges');
      const chunk = entries.find((e) => /\/chunks\/qrcode-[\w-]+\.js$/.test(e.name));
      if (!answer || !chunk) throw new Error('no resource timing for the charge or the QR chunk');
      return { ...window.__qr, answer: answer.responseEnd, chunkFetch: chunk.duration };
    });
    rows.push(row);
    await run.close();
  }
  return {
    runs,
    answerToPngInDom: summarize(rows.map((r) => r.img - r.answer)),
    answerToPngFrame: summarize(rows.map((r) => r.imgFrame - r.answer)),
    answerToSvgInDom: summarize(rows.map((r) => r.svg - r.answer)),
    answerToSvgFrame: summarize(rows.map((r) => r.svgFrame - r.answer)),
    chunkFetch: summarize(rows.map((r) => r.chunkFetch)),
  };
}

// ---------------------------------------------------------------------------------------------
// Round trips

export type RequestKind = 'tokenize' | 'charge' | 'status' | 'other';

export interface RoundTripResult {
  /** Requests the page made from the click on pay to `satang-success`, in order. */
  requests: { kind: RequestKind; method: string; path: string }[];
  /** The same window, as the server saw it (would include CORS preflights, which the page's request events do not show). */
  serverRequests: { kind: RequestKind; method: string; path: string }[];
  tokenize: number;
  charge: number;
  status: number;
  other: number;
  /** Round trips before the outcome is known: tokenize + charge (+ anything else but the status wait). */
  beforeOutcome: number;
  /** Click on pay → `satang-success`, ms (loopback). */
  clickToOutcomeMs: number;
  /** Requests of the page load up to `satang-ready` (the bench's own probe script left out). */
  loadRequests: string[];
  outcome: string;
}

function classify(method: string, path: string): RequestKind {
  if (method === 'POST' && path.startsWith('/client/v1/card-tokens')) return 'tokenize';
  if (method === 'POST' && path === '/api/checkout/charges') return 'charge';
  if (method === 'GET' && /^\/api\/checkout\/charges\/[^/]+\/status/.test(path)) return 'status';
  return 'other';
}

/** Pays by card (a test card that succeeds at once) and counts the requests from pay to the outcome. */
export async function measureRoundTrips(browser: Browser, stack: BenchStack): Promise<RoundTripResult> {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto(`${stack.origin}/checkout.html`);
  await page.waitForFunction(() => window.__bench.inputs !== null, null, { timeout: TIMEOUT_MS });
  // What the page asked for until the card inputs were rendered, by the page's own clock (the
  // polling above notices that moment a frame or more later; code fetched after it does not count).
  const loadRequests = [
    new URL(page.url()).pathname,
    ...(await page.evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => e.startTime <= window.__bench.inputs!).map((e) => new URL(e.name).pathname),
    )),
  ];

  const field = (id: string) => page.locator(`satang-checkout satang-card-form #${id}`);
  await field('number').fill('4111111111111111');
  await field('expiry').fill(`12/${YEAR}`);
  await field('cvc').fill('123');
  await field('holder').fill('Somchai Jaidee');

  const requests: RoundTripResult['requests'] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    requests.push({ kind: classify(request.method(), url.pathname), method: request.method(), path: url.pathname + url.search });
  });
  const outcome = page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        document.addEventListener('satang-success', () => resolve('success'), { once: true });
        document.addEventListener('satang-failure', (e) => resolve(`failure ${e.failureCode}`), { once: true });
        document.addEventListener('satang-error', (e) => resolve(`error ${e.code} ${e.message}`), { once: true });
      }),
  );
  stack.clearLog();
  const started = performance.now();
  await page.locator('satang-checkout [part="pay-button"]').click();
  const result = await outcome;
  const clickToOutcomeMs = performance.now() - started;
  const serverRequests = stack.log.map((r) => ({ kind: classify(r.method, r.path.split('?')[0]!), method: r.method, path: r.path }));
  await context.close();

  const count = (kind: RequestKind) => requests.filter((r) => r.kind === kind).length;
  return {
    requests,
    serverRequests,
    tokenize: count('tokenize'),
    charge: count('charge'),
    status: count('status'),
    other: count('other'),
    beforeOutcome: requests.filter((r) => r.kind !== 'status').length,
    clickToOutcomeMs,
    loadRequests: loadRequests.filter((p) => p !== '/bench-probe.js'),
    outcome: result,
  };
}
