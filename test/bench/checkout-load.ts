import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHECKOUT_IDEMPOTENCY_HEADER, CHECKOUT_ORDER_TOKEN_HEADER, CHECKOUT_STATUS_TOKEN_HEADER, LIST_MAX_LIMIT, SERVICE_HEADERS } from '../../src/core/constants.js';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
import { LOAD_BASE_PATH, startLoadSandbox, startLoadShop, type LoadShopOptions, type MemorySample, type ShopStats } from './load-stack.js';
import { summarize, type Summary } from './stats.js';
import { seededRandom } from '../support/seeded-random.js';
import { pageOrderToken } from '../support/page-tokens.js';

/**
 * Many shoppers checking out at once, through the shop's checkout handler to the sandbox, on real
 * sockets. Each virtual shopper runs whole checkouts back to back, as the widget does them:
 *
 * - card: `POST {sandbox}/client/v1/card-tokens` with the publishable key, then
 *   `POST {shop}/api/checkout/charges` (Idempotency-Key), then the status long-poll;
 * - 3-D Secure card: the same, then the OTP page the redirect points to (read, its form submitted
 *   with the code, as a browser does; it answers 303 back to the shop), then the long-poll;
 * - PromptPay: the charge, the long-poll started at once, and the payer pays on the sandbox's
 *   PromptPay payer page (its form, with the QR code's text) while the long-poll waits;
 * - declined card (insufficient funds): the charge, then the long-poll answers FAILED.
 *
 * Some shoppers send their charge request twice at once (a double click), some again after the
 * answer (a retry): same key, same body, the same charge expected back. In `direct` mode the same
 * driver makes the same checkouts on the sandbox's merchant API instead (API key, polling
 * `GET /api/v1/charges/{id}`), the baseline of the bench.
 *
 * At the end the sandbox's ledger is read back through its API (every charge and transaction,
 * page by page) and reconciled with what the shoppers were told.
 *
 *   npx tsx test/bench/checkout-load.ts [concurrency] [seconds]   # this section of the bench alone
 */

export type ShopperKind = 'card' | 'threeDs' | 'promptPay' | 'declined';
export type LoadTarget = 'proxy' | 'direct';

/** Share of each kind of checkout; the rest of 1 is plain card payments. */
export const LOAD_MIX: Record<Exclude<ShopperKind, 'card'>, number> = { threeDs: 0.15, promptPay: 0.2, declined: 0.15 };
/** Share of checkouts whose charge request is sent twice at once, and again after its answer. */
export const DOUBLE_SEND_SHARE = 0.15;
export const RETRY_SHARE = 0.1;

const CARDS: Record<Exclude<ShopperKind, 'promptPay'>, string> = {
  card: '4111111111111111',
  threeDs: '4953261730509988',
  declined: '4943129900084541',
};
const EXPIRY_YEAR = (new Date().getUTCFullYear() + 2) % 100;
const basic = (key: string) => `Basic ${Buffer.from(`${SANDBOX_DEFAULTS.merchantId}:${key}`).toString('base64')}`;
const CLIENT_AUTH = basic(SANDBOX_DEFAULTS.publishableKey);
const API_AUTH = basic(SANDBOX_DEFAULTS.apiKey);
/** `wait` of the shoppers' status long-polls, seconds. */
export const LOAD_WAIT_SECONDS = 10;
/** Longest a single request may take before the driver counts it as an error (a hang). */
const REQUEST_TIMEOUT_MS = 60_000;
/** A long-poll that runs its whole wait though the payer paid this long before its end is counted as slow. */
const SLOW_LONG_POLL_MS = 5_000;

// ---------------------------------------------------------------------------------------------
// The stack

/** The shop and the sandbox of a run, wherever they run. */
export interface LoadStack {
  sandboxUrl: string;
  shopOrigin: string;
  /** `${shopOrigin}/api/checkout` */
  endpoint: string;
  where: 'in-process' | 'child processes';
  sampleShop(forceGc: boolean): Promise<MemorySample>;
  sampleSandbox(forceGc: boolean): Promise<MemorySample & { charges: number; transactions: number }>;
  shopStats(): Promise<ShopStats>;
  /** Every webhook delivered (or failed for good). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** The shop and the sandbox in this process (the CI test). */
export async function startInProcessLoadStack(options: LoadShopOptions = {}): Promise<LoadStack & { shop: Awaited<ReturnType<typeof startLoadShop>> }> {
  const shop = await startLoadShop(options);
  const sandbox = await startLoadSandbox(`${shop.endpoint}/webhooks`);
  shop.attach(sandbox.url);
  return {
    sandboxUrl: sandbox.url,
    shopOrigin: shop.origin,
    endpoint: shop.endpoint,
    where: 'in-process',
    shop,
    sampleShop: async (forceGc) => shop.sample(forceGc),
    sampleSandbox: async (forceGc) => sandbox.sample(forceGc),
    shopStats: async () => shop.stats(),
    idle: () => sandbox.idle(),
    close: async () => {
      await shop.close();
      await sandbox.close();
    },
  };
}

const CHILD = join(import.meta.dirname, 'load-stack-child.ts');

interface Child {
  url: string;
  call<T>(op: string, arg?: unknown): Promise<T>;
  stop(): Promise<void>;
}

async function startChild(args: string[]): Promise<Child> {
  const child: ChildProcess = fork(CHILD, args, { execArgv: ['--expose-gc', '--import', 'tsx', ...(process.env.LOAD_CHILD_ARGS ?? '').split(' ').filter(Boolean)], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map<number, (result: unknown) => void>();
  let nextId = 1;
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`load-stack-child ${args[0]} exited with ${code}`)));
    child.on('message', (message: { ready?: boolean; url?: string; id?: number; result?: unknown }) => {
      if (message.ready) return resolve(message.url!);
      waiting.get(message.id!)?.(message.result);
      waiting.delete(message.id!);
    });
  });
  child.removeAllListeners('exit');
  return {
    url,
    call: <T>(op: string, arg?: unknown) =>
      new Promise<T>((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve as (result: unknown) => void);
        child.send({ id, op, arg });
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The shop and the sandbox each in a Node process of its own (the bench). */
export async function startChildLoadStack(options: LoadShopOptions = {}): Promise<LoadStack> {
  const shop = await startChild(['shop', JSON.stringify(options)]);
  const endpoint = `${shop.url}${LOAD_BASE_PATH}`;
  const sandbox = await startChild(['sandbox', `${endpoint}/webhooks`]).catch(async (error: unknown) => {
    await shop.stop();
    throw error;
  });
  await shop.call('attach', sandbox.url);
  return {
    sandboxUrl: sandbox.url,
    shopOrigin: shop.url,
    endpoint,
    where: 'child processes',
    sampleShop: (forceGc) => shop.call('sample', forceGc),
    sampleSandbox: (forceGc) => sandbox.call('sample', forceGc),
    shopStats: () => shop.call('stats'),
    idle: () => sandbox.call('idle'),
    close: async () => {
      await Promise.all([shop.stop(), sandbox.stop()]);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The driver

/** What one checkout did and was told. */
export interface CheckoutRecord {
  kind: ShopperKind;
  reference: string;
  /** once, twice at once (double click), or again after the answer (retry). */
  send: 'once' | 'double' | 'retry';
  expected: 'SUCCEEDED' | 'FAILED';
  /** Set once the charge request was answered 201 (an accepted checkout). */
  chargeId?: string;
  final?: 'SUCCEEDED' | 'FAILED';
  failureCode?: string | null;
  /** POST of the charge (the first of a double), ms. */
  chargeMs?: number;
  /** From the charge request to the final status in hand, ms (includes the payer's step). */
  finalMs?: number;
  /** When it ended, ms after the run started. */
  doneAtMs?: number;
  /** Status answers that were still PENDING. */
  pendingAnswers: number;
  error?: string;
}

export interface LoadOptions {
  target: LoadTarget;
  /** Shoppers at once. */
  concurrency: number;
  /** New checkouts start for this long; the ones under way then finish. */
  durationMs: number;
  /** `wait` of each long-poll, seconds. */
  waitSeconds?: number;
  /** Seed of the mix, so a run can be repeated. */
  seed?: number;
  /** Reads the shop's memory this often during the run (and after a GC at start, half-time and end). */
  sampleEveryMs?: number;
  /** The shoppers arrive spread over this long rather than all in the same millisecond; a quarter of the run, 1 s at most, by default. */
  rampMs?: number;
}

export interface LoadRun {
  target: LoadTarget;
  concurrency: number;
  durationMs: number;
  /** From the first checkout to the last one finished, ms. */
  elapsedMs: number;
  records: CheckoutRecord[];
  /** Requests the driver sent, by kind. */
  requests: Record<string, number>;
  /** Driver-side errors: an unexpected status, a network error, a timeout, a wrong outcome. */
  errors: string[];
  /** 5xx answers seen by the driver (part of `errors`). */
  serverErrors: number;
  /** Network errors and timeouts at the driver (part of `errors`). */
  networkErrors: number;
  /** Long-polls that ran their whole wait, seen from the driver, though the payer paid long before its end (not an error by itself). */
  slowLongPolls: number;
  /** A double or a retry told of another charge than the first answer (part of `errors`). */
  mismatchedReplays: number;
  shopSamples: MemorySample[];
  /** After a full GC (when available): at start, half-time, the end of new checkouts, and after the drain. */
  shopHeapGc: MemorySample[];
  sandboxHeapGc: (MemorySample & { charges: number; transactions: number })[];
}

class LoadError extends Error {}


function pickKind(r: number): ShopperKind {
  let edge = 0;
  for (const [kind, share] of Object.entries(LOAD_MIX) as [ShopperKind, number][]) {
    edge += share;
    if (r < edge) return kind;
  }
  return 'card';
}

interface Answer {
  status: number;
  body: any;
  location: string | null;
  text: string;
}

class Driver {
  readonly requests: Record<string, number> = {};
  readonly errors: string[] = [];
  serverErrors = 0;
  networkErrors = 0;
  slowLongPolls = 0;
  mismatchedReplays = 0;

  constructor(
    readonly stack: LoadStack,
    readonly options: Required<Pick<LoadOptions, 'target' | 'waitSeconds'>>,
  ) {}

  fail(message: string): never {
    this.errors.push(message);
    throw new LoadError(message);
  }

  /** One request; anything but an expected status is an error of the run. */
  async request(label: string, url: string, init: RequestInit, expect: number[], timeoutMs = REQUEST_TIMEOUT_MS): Promise<Answer> {
    this.requests[label] = (this.requests[label] ?? 0) + 1;
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      text = await response.text();
    } catch (error) {
      this.networkErrors += 1;
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      this.fail(`${label}: ${error instanceof Error ? error.message : String(error)}${cause}`);
    }
    if (!expect.includes(response.status)) {
      if (response.status >= 500) this.serverErrors += 1;
      this.fail(`${label}: answered ${response.status} ${text.slice(0, 200)}`);
    }
    let body: unknown;
    try {
      body = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined;
    } catch {
      this.fail(`${label}: answered ${response.status} with a body that is not JSON`);
    }
    return { status: response.status, body, location: response.headers.get('location'), text };
  }

  async tokenize(pan: string): Promise<string> {
    const answer = await this.request(
      'card token',
      `${this.stack.sandboxUrl}/client/v1/card-tokens`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: CLIENT_AUTH },
        body: JSON.stringify({ pan, expiryMonth: 12, expiryYear: EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee' }),
      },
      [201],
    );
    return answer.body.id as string;
  }

  /** The charge request, through the shop or (direct) on the merchant API; answers chargeId and what follows. */
  chargeRequest(record: CheckoutRecord, amount: number, cardTokenId: string | undefined, key: string): () => Promise<Answer> {
    const returnUrl = `${this.stack.shopOrigin}/checkout/return`;
    if (this.options.target === 'proxy') {
      const body = {
        orderReference: record.reference,
        amount,
        currency: 'THB',
        paymentMethod: cardTokenId ? { type: 'CARD_TOKEN', cardTokenId, securityCode: '123' } : { type: 'QR_PROMPT_PAY' },
        ...(record.kind === 'threeDs' ? { returnUrl } : {}),
      };
      // The page the shopper pays on was rendered with its order's token.
      const orderToken = pageOrderToken(record.reference);
      return async () =>
        this.request('charge (shop)', `${this.stack.endpoint}/charges`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [CHECKOUT_IDEMPOTENCY_HEADER]: key, [CHECKOUT_ORDER_TOKEN_HEADER]: await orderToken },
          body: JSON.stringify(body),
        }, [201]);
    }
    const body = {
      amount,
      currency: 'THB',
      referenceId: record.reference,
      paymentMethod: cardTokenId ? { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } } : { paymentMethodType: 'QR_PROMPT_PAY', qrPromptPay: {} },
      ...(record.kind === 'threeDs' ? { returnUrl } : {}),
    };
    return () =>
      this.request('charge (direct)', `${this.stack.sandboxUrl}/api/v1/charges`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: API_AUTH, [SERVICE_HEADERS.idempotencyKey]: key },
        body: JSON.stringify(body),
      }, [201]);
  }

  /** The status until final: long-polls through the shop, or reads of the charge (direct). */
  async followStatus(record: CheckoutRecord, chargeId: string, statusToken: string | undefined, paidAt: () => number | undefined): Promise<{ status: 'SUCCEEDED' | 'FAILED'; failureCode: string | null }> {
    for (;;) {
      let answer: Answer;
      const asked = performance.now();
      if (this.options.target === 'proxy') {
        answer = await this.request(
          'status long-poll (shop)',
          `${this.stack.endpoint}/charges/${encodeURIComponent(chargeId)}/status?wait=${this.options.waitSeconds}`,
          { headers: { [CHECKOUT_STATUS_TOKEN_HEADER]: statusToken! } },
          [200],
          REQUEST_TIMEOUT_MS + this.options.waitSeconds * 1000,
        );
      } else {
        answer = await this.request('charge read (direct)', `${this.stack.sandboxUrl}/api/v1/charges/${encodeURIComponent(chargeId)}`, { headers: { authorization: API_AUTH } }, [200]);
      }
      // Seen from here, a long-poll that ran its whole wait though the payer paid long before its
      // end was not woken in time: by a lost wake-up, or by a queue in front of the shop (the shop
      // itself tells which: see CountingStore.lateWakeups).
      const waitEnd = asked + this.options.waitSeconds * 1000;
      const paid = paidAt();
      if (this.options.target === 'proxy' && paid !== undefined && paid < waitEnd - SLOW_LONG_POLL_MS && performance.now() >= waitEnd) this.slowLongPolls += 1;
      const status = answer.body.status as string;
      if (status === 'SUCCEEDED' || status === 'FAILED') return { status, failureCode: answer.body.failureCode ? String(answer.body.failureCode) : null };
      if (status !== 'PENDING') this.fail(`status of ${chargeId}: ${JSON.stringify(answer.body)}`);
      record.pendingAnswers += 1;
      // Direct: the merchant polls; through the shop the next long-poll starts at once (as the widget's poller, 1 s apart at least).
      await new Promise((resolve) => setTimeout(resolve, this.options.target === 'proxy' ? 1000 : 50));
    }
  }

  /** The 3-D Secure page: read it, then submit its form with the code, as a browser does. */
  async threeDs(redirectUrl: string): Promise<void> {
    const page = await this.request('3-D Secure page (GET)', redirectUrl, {}, [200]);
    const action = /<form[^>]*\saction="([^"]+)"/.exec(page.text)?.[1]?.replace(/&amp;/g, '&');
    if (!action || !page.text.includes('name="otp"')) this.fail(`3-D Secure page ${redirectUrl}: no OTP form`);
    const answer = await this.request('3-D Secure page (POST)', new URL(action, redirectUrl).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ otp: '123456' }).toString(),
    }, [303]);
    if (answer.location !== `${this.stack.shopOrigin}/checkout/return`) this.fail(`3-D Secure page: sent back to ${answer.location}`);
  }

  /** The payer's banking app pays the QR code: the sandbox's PromptPay payer page, its form posted. */
  async payPromptPay(rawData: string): Promise<void> {
    await this.request('PromptPay payer page (POST)', `${this.stack.sandboxUrl}/sandbox/pages/promptpay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ rawData, outcome: 'succeed' }).toString(),
    }, [200]);
  }

  async checkout(kind: ShopperKind, send: CheckoutRecord['send']): Promise<CheckoutRecord> {
    const amount = kind === 'promptPay' ? 25_000 : 12_345;
    const record: CheckoutRecord = { kind, reference: `order-${amount}-${crypto.randomUUID()}`, send, expected: kind === 'declined' ? 'FAILED' : 'SUCCEEDED', pendingAnswers: 0 };
    try {
      const cardTokenId = kind === 'promptPay' ? undefined : await this.tokenize(CARDS[kind]);
      const key = crypto.randomUUID();
      const post = this.chargeRequest(record, amount, cardTokenId, key);
      const started = performance.now();
      let answers: Answer[];
      if (send === 'double') {
        answers = await Promise.all([post(), post()]);
      } else {
        answers = [await post()];
      }
      record.chargeMs = performance.now() - started;
      const first = answers[0]!.body;
      const chargeId = first.chargeId as string;
      record.chargeId = chargeId;
      if (send === 'retry') answers.push(await post());
      for (const other of answers.slice(1)) {
        if (other.body.chargeId !== first.chargeId) {
          this.mismatchedReplays += 1;
          this.fail(`${send} of ${record.reference}: told of ${other.body.chargeId} after ${first.chargeId}`);
        }
      }
      // A replay may carry a status token of its own (a later expiry): the page follows with the last
      // one it was given, which must open the same charge.
      const statusToken = answers.at(-1)!.body.statusToken as string | undefined;

      let paidAt: number | undefined;
      let final: { status: 'SUCCEEDED' | 'FAILED'; failureCode: string | null };
      if (kind === 'promptPay') {
        const rawData = first.encodedImage?.rawData as string | undefined;
        if (first.actionRequired !== 'ENCODED_IMAGE' || !rawData) this.fail(`PromptPay ${chargeId}: answered ${first.actionRequired} without a QR code`);
        // The page long-polls while the shopper pays on the phone.
        const following = this.followStatus(record, chargeId, statusToken, () => paidAt);
        following.catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80));
        await this.payPromptPay(rawData);
        paidAt = performance.now();
        final = await following;
      } else {
        if (kind === 'threeDs') {
          if (first.actionRequired !== 'REDIRECT' || !first.redirect?.redirectUrl) this.fail(`3-D Secure ${chargeId}: answered ${first.actionRequired} without a redirect`);
          await this.threeDs(first.redirect.redirectUrl);
          paidAt = performance.now();
        }
        final = await this.followStatus(record, chargeId, statusToken, () => paidAt);
      }
      record.finalMs = performance.now() - started;
      record.final = final.status;
      record.failureCode = final.failureCode;
      if (final.status !== record.expected || (kind === 'declined' && final.failureCode !== 'CH_INSUFFICIENT_FUNDS')) {
        this.fail(`${kind} ${chargeId}: ended ${final.status} ${final.failureCode ?? ''}, expected ${record.expected}`);
      }
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
      if (!(error instanceof LoadError)) this.errors.push(`${kind} ${record.reference}: ${record.error}`);
    }
    return record;
  }
}

/** Runs `concurrency` shoppers for `durationMs`, then lets the checkouts under way finish. */
export async function runCheckoutLoad(stack: LoadStack, options: LoadOptions): Promise<LoadRun> {
  const waitSeconds = options.waitSeconds ?? LOAD_WAIT_SECONDS;
  const driver = new Driver(stack, { target: options.target, waitSeconds });
  const next = seededRandom(options.seed ?? 20_261_121);
  const records: CheckoutRecord[] = [];
  const shopSamples: MemorySample[] = [];
  const shopHeapGc: MemorySample[] = [await stack.sampleShop(true)];
  const sandboxHeapGc = [await stack.sampleSandbox(true)];

  const started = performance.now();
  const endAt = started + options.durationMs;
  const sampling = new AbortController();
  const sampler = (async () => {
    let halfDone = false;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, options.sampleEveryMs ?? 250));
      if (sampling.signal.aborted) break;
      if (!halfDone && performance.now() - started >= options.durationMs / 2) {
        halfDone = true;
        shopHeapGc.push(await stack.sampleShop(true));
        sandboxHeapGc.push(await stack.sampleSandbox(true));
      } else {
        shopSamples.push(await stack.sampleShop(false));
      }
    }
  })();

  const rampMs = options.rampMs ?? Math.min(1000, options.durationMs / 4);
  const shopper = async (_: unknown, index: number) => {
    await new Promise((resolve) => setTimeout(resolve, (index / options.concurrency) * rampMs));
    while (performance.now() < endAt) {
      const kind = pickKind(next());
      const r = next();
      const send = r < DOUBLE_SEND_SHARE ? 'double' : r < DOUBLE_SEND_SHARE + RETRY_SHARE ? 'retry' : 'once';
      const record = await driver.checkout(kind, send);
      record.doneAtMs = performance.now() - started;
      records.push(record);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, shopper));
  const elapsedMs = performance.now() - started;
  sampling.abort();
  await sampler;
  shopHeapGc.push(await stack.sampleShop(true));
  sandboxHeapGc.push(await stack.sampleSandbox(true));

  return {
    target: options.target,
    concurrency: options.concurrency,
    durationMs: options.durationMs,
    elapsedMs,
    records,
    requests: driver.requests,
    errors: driver.errors,
    serverErrors: driver.serverErrors,
    networkErrors: driver.networkErrors,
    slowLongPolls: driver.slowLongPolls,
    mismatchedReplays: driver.mismatchedReplays,
    shopSamples,
    shopHeapGc,
    sandboxHeapGc,
  };
}

// ---------------------------------------------------------------------------------------------
// Reconciliation

export interface Reconciliation {
  /** Checkouts answered 201 with a charge. */
  accepted: number;
  chargesInLedger: number;
  transactionsInLedger: number;
  /** Accepted checkouts with exactly one charge of their reference, the one they were told of. */
  exactlyOneCharge: number;
  succeeded: number;
  failed: number;
  /** SUCCEEDED charges with exactly one PAYMENT transaction. */
  succeededWithOneTransaction: number;
  /** FAILED charges with no transaction. */
  failedWithoutTransaction: number;
  /** Every disagreement, in words (empty when the ledger matches). */
  problems: string[];
}

async function listAll(sandboxUrl: string, path: string): Promise<any[]> {
  const items: any[] = [];
  for (let offset = 0; ; offset += LIST_MAX_LIMIT) {
    const response = await fetch(`${sandboxUrl}${path}?limit=${LIST_MAX_LIMIT}&offset=${offset}`, { headers: { authorization: API_AUTH } });
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    const page = (await response.json()) as { data: any[]; totalCount: number };
    items.push(...page.data);
    if (page.data.length < LIST_MAX_LIMIT || items.length >= page.totalCount) return items;
  }
}

/**
 * Reads the sandbox's whole ledger through its API (`GET /api/v1/charges`, `GET /api/v1/transactions`,
 * page by page) once every webhook is delivered, and checks it against the checkouts: each accepted
 * checkout has exactly one charge of its reference (the one it was told of), in the state it was
 * told; each SUCCEEDED charge exactly one PAYMENT transaction; each FAILED one none; no charge
 * belongs to no checkout; and, for a sample, `?referenceId=` finds that same one charge.
 */
export async function reconcileLoad(stack: LoadStack, records: readonly CheckoutRecord[]): Promise<Reconciliation> {
  await stack.idle();
  const charges = await listAll(stack.sandboxUrl, '/api/v1/charges');
  const transactions = await listAll(stack.sandboxUrl, '/api/v1/transactions');
  const problems: string[] = [];
  const chargesByReference = new Map<string, any[]>();
  for (const charge of charges) {
    const list = chargesByReference.get(charge.referenceId) ?? [];
    list.push(charge);
    chargesByReference.set(charge.referenceId, list);
  }
  const paymentsByCharge = new Map<string, number>();
  for (const t of transactions) {
    if (t.transactionType === 'PAYMENT') paymentsByCharge.set(t.transactionId, (paymentsByCharge.get(t.transactionId) ?? 0) + 1);
  }
  const known = new Set(records.map((r) => r.reference));
  for (const reference of chargesByReference.keys()) {
    if (!known.has(reference)) problems.push(`charge(s) of ${reference}, which no checkout made`);
  }

  const result: Reconciliation = {
    accepted: 0,
    chargesInLedger: charges.length,
    transactionsInLedger: transactions.length,
    exactlyOneCharge: 0,
    succeeded: 0,
    failed: 0,
    succeededWithOneTransaction: 0,
    failedWithoutTransaction: 0,
    problems,
  };
  for (const record of records) {
    const found = chargesByReference.get(record.reference) ?? [];
    if (record.chargeId === undefined) {
      if (found.length > 1) problems.push(`${record.reference} (not accepted): ${found.length} charges`);
      continue;
    }
    result.accepted += 1;
    if (found.length !== 1 || found[0].chargeId !== record.chargeId) {
      problems.push(`${record.reference}: ${found.length} charges (${found.map((c) => c.chargeId).join(', ')}), told of ${record.chargeId}`);
      continue;
    }
    result.exactlyOneCharge += 1;
    const charge = found[0];
    if (record.final !== undefined && charge.status !== record.final) problems.push(`${charge.chargeId}: ${charge.status} in the ledger, ${record.final} told to the shopper`);
    const payments = paymentsByCharge.get(charge.chargeId) ?? 0;
    if (charge.status === 'SUCCEEDED') {
      result.succeeded += 1;
      if (payments === 1) result.succeededWithOneTransaction += 1;
      else problems.push(`${charge.chargeId} SUCCEEDED with ${payments} PAYMENT transactions`);
    } else if (charge.status === 'FAILED') {
      result.failed += 1;
      if (payments === 0) result.failedWithoutTransaction += 1;
      else problems.push(`${charge.chargeId} FAILED with ${payments} PAYMENT transactions`);
    } else {
      problems.push(`${charge.chargeId} still ${charge.status}`);
    }
  }
  // The filter the merchant would use for one order answers the same, for a spread of checkouts.
  const accepted = records.filter((r) => r.chargeId !== undefined);
  for (let i = 0; i < accepted.length; i += Math.max(1, Math.floor(accepted.length / 20))) {
    const record = accepted[i]!;
    const response = await fetch(`${stack.sandboxUrl}/api/v1/charges?referenceId=${encodeURIComponent(record.reference)}`, { headers: { authorization: API_AUTH } });
    const page = (await response.json()) as { data: { chargeId: string }[]; totalCount: number };
    if (page.totalCount !== 1 || page.data[0]?.chargeId !== record.chargeId) problems.push(`?referenceId=${record.reference}: ${page.totalCount} charges`);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Figures

export interface CheckoutLoadSide {
  target: LoadTarget;
  concurrency: number;
  seconds: number;
  /** Checkouts started and finished, accepted ones (charge answered 201), and each kind. */
  checkouts: number;
  accepted: number;
  byKind: Record<ShopperKind, number>;
  doubles: number;
  retries: number;
  elapsedSeconds: number;
  /** Accepted checkouts finished per second of the run (drain included). */
  checkoutsPerSecond: number;
  /** The charge request, ms. */
  chargeLatency: Summary;
  /** Charge request to final status in hand, ms, all kinds; and card payments alone. */
  timeToFinal: Summary;
  timeToFinalCard: Summary;
  pendingAnswers: number;
  requests: Record<string, number>;
  errors: number;
  errorSamples: string[];
  serverErrors: number;
  networkErrors: number;
  /** Long-polls that ended over 1 s after their charge's webhook (seen by the shop's store; a slow read under way included). */
  lateWakeups: number;
  /** Of those, the ones that ran to their deadline: not woken by the news at all. */
  missedWakeups: number;
  maxWakeDelayMs: number;
  slowLongPolls: number;
  mismatchedReplays: number;
  reconciliation: Reconciliation;
  shop: {
    /** Heap after a full GC at start, half-time and end (the run's end, checkouts drained). */
    heapStart: number;
    heapHalf: number;
    heapEnd: number;
    /** Highest heap read during the run (no GC). */
    heapPeak: number;
    rssPeak: number;
    /** Heap kept per checkout (after GC) in the first half and in the second. */
    bytesPerCheckoutFirstHalf: number;
    bytesPerCheckoutSecondHalf: number;
    storeCap: number | undefined;
    storeMax: number;
    storeEnd: number;
    subscriptionsMax: number;
    subscriptionsEnd: number;
    openRequestsEnd: Record<string, number>;
    gcForced: boolean;
    stats: ShopStats;
  };
  sandbox: { heapStart: number; heapEnd: number; bytesPerCheckout: number; charges: number; transactions: number };
}

export function summarizeLoad(run: LoadRun, reconciliation: Reconciliation, stats: ShopStats, storeCap: number | undefined): CheckoutLoadSide {
  const accepted = run.records.filter((r) => r.chargeId !== undefined);
  const byKind = { card: 0, threeDs: 0, promptPay: 0, declined: 0 } as Record<ShopperKind, number>;
  for (const r of run.records) byKind[r.kind] += 1;
  const [gcStart, gcHalf, gcEnd] = [run.shopHeapGc[0]!, run.shopHeapGc[1] ?? run.shopHeapGc[0]!, run.shopHeapGc[run.shopHeapGc.length - 1]!];
  const halfMs = gcHalf.atMs - gcStart.atMs;
  const firstHalf = run.records.filter((r) => (r.doneAtMs ?? 0) <= halfMs).length;
  const secondHalf = run.records.length - firstHalf;
  const samples = [...run.shopSamples, ...run.shopHeapGc];
  const sandboxStart = run.sandboxHeapGc[0]!;
  const sandboxEnd = run.sandboxHeapGc[run.sandboxHeapGc.length - 1]!;
  const lastSample = run.shopHeapGc[run.shopHeapGc.length - 1]!;
  return {
    target: run.target,
    concurrency: run.concurrency,
    seconds: run.durationMs / 1000,
    checkouts: run.records.length,
    accepted: accepted.length,
    byKind,
    doubles: run.records.filter((r) => r.send === 'double').length,
    retries: run.records.filter((r) => r.send === 'retry').length,
    elapsedSeconds: run.elapsedMs / 1000,
    checkoutsPerSecond: accepted.filter((r) => r.final !== undefined).length / (run.elapsedMs / 1000),
    chargeLatency: summarize(accepted.map((r) => r.chargeMs!)),
    timeToFinal: summarize(accepted.filter((r) => r.finalMs !== undefined).map((r) => r.finalMs!)),
    timeToFinalCard: summarize(accepted.filter((r) => r.kind === 'card' && r.finalMs !== undefined).map((r) => r.finalMs!)),
    pendingAnswers: run.records.reduce((n, r) => n + r.pendingAnswers, 0),
    requests: run.requests,
    errors: run.errors.length,
    errorSamples: run.errors.slice(0, 10),
    serverErrors: run.serverErrors,
    networkErrors: run.networkErrors,
    lateWakeups: lastSample.lateWakeups ?? 0,
    missedWakeups: lastSample.missedWakeups ?? 0,
    maxWakeDelayMs: lastSample.maxWakeDelayMs ?? 0,
    slowLongPolls: run.slowLongPolls,
    mismatchedReplays: run.mismatchedReplays,
    reconciliation,
    shop: {
      heapStart: gcStart.heapUsed,
      heapHalf: gcHalf.heapUsed,
      heapEnd: gcEnd.heapUsed,
      heapPeak: Math.max(...samples.map((s) => s.heapUsed)),
      rssPeak: Math.max(...samples.map((s) => s.rss)),
      bytesPerCheckoutFirstHalf: firstHalf > 0 ? (gcHalf.heapUsed - gcStart.heapUsed) / firstHalf : Number.NaN,
      bytesPerCheckoutSecondHalf: secondHalf > 0 ? (gcEnd.heapUsed - gcHalf.heapUsed) / secondHalf : Number.NaN,
      storeCap,
      storeMax: Math.max(...samples.map((s) => s.storeSize ?? 0)),
      storeEnd: lastSample.storeSize ?? 0,
      subscriptionsMax: Math.max(...samples.map((s) => s.subscriptions ?? 0)),
      subscriptionsEnd: lastSample.subscriptions ?? 0,
      openRequestsEnd: lastSample.openRequests ?? {},
      gcForced: gcEnd.gcForced,
      stats,
    },
    sandbox: {
      heapStart: sandboxStart.heapUsed,
      heapEnd: sandboxEnd.heapUsed,
      bytesPerCheckout: (sandboxEnd.heapUsed - sandboxStart.heapUsed) / Math.max(1, run.records.length),
      charges: sandboxEnd.charges,
      transactions: sandboxEnd.transactions,
    },
  };
}

/** One run on a fresh stack: the load, then the ledger reconciled and the shop's figures read. */
export async function loadOnFreshStack(
  start: (options: LoadShopOptions) => Promise<LoadStack>,
  options: LoadOptions & { storeMaxEntries?: number },
): Promise<CheckoutLoadSide> {
  const stack = await start({
    ...(options.storeMaxEntries === undefined ? {} : { storeMaxEntries: options.storeMaxEntries }),
    longPollWaitMs: (options.waitSeconds ?? LOAD_WAIT_SECONDS) * 1000,
  });
  try {
    const run = await runCheckoutLoad(stack, options);
    const reconciliation = await reconcileLoad(stack, run.records);
    // After the webhooks: the end sample sees the shop at rest.
    run.shopHeapGc.push(await stack.sampleShop(true));
    return summarizeLoad(run, reconciliation, await stack.shopStats(), options.storeMaxEntries);
  } finally {
    await stack.close();
  }
}

/** The bench's section: the load through the shop, between two direct runs (the baseline). */
export interface CheckoutLoadResult {
  where: LoadStack['where'];
  concurrency: number;
  mix: typeof LOAD_MIX;
  doubleSendShare: number;
  retryShare: number;
  storeMaxEntries: number;
  direct: CheckoutLoadSide[];
  proxied: CheckoutLoadSide;
  /** Checkouts per second through the shop over the mean of the direct runs. */
  throughputRatio: number;
  /** Charge request p50 and p99, through the shop minus direct (mean of the direct runs). */
  addedChargeP50Ms: number;
  addedChargeP99Ms: number;
}

/** Store cap of the bench's shop: small enough that a 10 s run fills it, so the plateau shows; large enough for the payment records of 300 checkouts under way. */
export const LOAD_BENCH_STORE_MAX_ENTRIES = 10_000;

export async function measureCheckoutLoad(options: { concurrency?: number; seconds?: number; directSeconds?: number } = {}): Promise<CheckoutLoadResult> {
  const concurrency = options.concurrency ?? 300;
  const seconds = options.seconds ?? 10;
  const directSeconds = options.directSeconds ?? seconds;
  const storeMaxEntries = LOAD_BENCH_STORE_MAX_ENTRIES;
  const step = (text: string) => process.stderr.write(`bench: checkout load: ${text}\n`);
  step(`direct, ${concurrency} shoppers, ${directSeconds} s`);
  const directA = await loadOnFreshStack(startChildLoadStack, { target: 'direct', concurrency, durationMs: directSeconds * 1000, storeMaxEntries });
  step(`through the shop, ${concurrency} shoppers, ${seconds} s`);
  const proxied = await loadOnFreshStack(startChildLoadStack, { target: 'proxy', concurrency, durationMs: seconds * 1000, storeMaxEntries });
  step(`direct again, ${directSeconds} s`);
  const directB = await loadOnFreshStack(startChildLoadStack, { target: 'direct', concurrency, durationMs: directSeconds * 1000, storeMaxEntries });
  const direct = [directA, directB];
  const mean = (f: (side: CheckoutLoadSide) => number) => direct.reduce((s, side) => s + f(side), 0) / direct.length;
  return {
    where: 'child processes',
    concurrency,
    mix: LOAD_MIX,
    doubleSendShare: DOUBLE_SEND_SHARE,
    retryShare: RETRY_SHARE,
    storeMaxEntries,
    direct,
    proxied,
    throughputRatio: proxied.checkoutsPerSecond / mean((d) => d.checkoutsPerSecond),
    addedChargeP50Ms: proxied.chargeLatency.median - mean((d) => d.chargeLatency.median),
    addedChargeP99Ms: proxied.chargeLatency.p99 - mean((d) => d.chargeLatency.p99),
  };
}

// Run as a script: this section of the bench alone, printed, and written to bench-results/
// (checkout-load.json, checkout-load.md); BENCHMARKS.md is left to the whole bench.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [concurrency, seconds] = process.argv.slice(2).map(Number);
  const result = await measureCheckoutLoad({ ...(concurrency ? { concurrency } : {}), ...(seconds ? { seconds } : {}) });
  // Imported here, not at the top: the report and sizes.ts build on vite, which the CI test has no use for.
  const { checkoutLoadSection, renderCheckoutLoadTable } = await import('./report.js');
  const { REPO_ROOT } = await import('./sizes.js');
  const { mkdir, writeFile } = await import('node:fs/promises');
  const { cpus } = await import('node:os');
  const dir = join(REPO_ROOT, 'bench-results');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'checkout-load.json'), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(join(dir, 'checkout-load.md'), checkoutLoadSection(result, cpus().length));
  process.stdout.write(`${renderCheckoutLoadTable(result)}\n\nbench-results/checkout-load.json, bench-results/checkout-load.md\n`);
}
