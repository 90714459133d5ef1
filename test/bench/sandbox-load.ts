import { SERVICE_HEADERS } from '../../src/core/constants.js';
import { Sandbox, SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';

/**
 * Sandbox throughput and memory, in a process of its own so the heap holds nothing else:
 *
 *   node --expose-gc --import tsx test/bench/sandbox-load.ts [charges]
 *
 * Creates `charges` card tokens, then `charges` CARD_TOKEN charges with them (test card 4111…,
 * succeeds at once), one request at a time through `sandbox.fetch` (the whole request path:
 * routing, authentication, body parsing and validation, idempotency record, store), and prints
 * one line of JSON. Heap figures are after a forced GC when node runs with --expose-gc.
 *
 * Along the way it times the charge list (`GET /api/v1/charges?limit=20`, and filtered by a
 * reference) at 1,000 charges and again at `charges`: an index kept in creation order makes the
 * two the same. The sandbox keeps `charges` charges (`maxCharges`); a last phase makes another
 * `charges / 4` payments and reads the heap again: past its cap the sandbox forgets the oldest, so
 * the heap stays where it was.
 */

export interface SandboxLoadResult {
  charges: number;
  tokensPerSecond: number;
  chargesPerSecond: number;
  /** Charges per second of each block of `charges / 10` charges: spread shows the machine's noise. */
  chargeBlocksPerSecond: number[];
  /** Token and charge together: what one card payment costs the sandbox. */
  paymentsPerSecond: number;
  /** Charges answered with `actionRequired: NONE` (settled at once, as test card 4111… does). */
  settledAtOnce: number;
  /** Status of the last charge, read back with GET /api/v1/charges/{id}: SUCCEEDED expected. */
  lastStatus: string;
  gcForced: boolean;
  heapUsedBefore: number;
  heapUsedAfter: number;
  /** (after - before) / charges, bytes: the charge, its token, its idempotency records. */
  heapBytesPerCharge: number;
  rssAfter: number;
  /** Mean time of one list call (limit 20, newest first) at 1,000 charges and at `charges`, ms. */
  listMsAt1k: number;
  listMsAtFull: number;
  /** listMsAtFull / listMsAt1k: 1 when the list costs the same whatever the store holds. */
  listRatio: number;
  /** The same for a list filtered by `referenceId`. */
  filteredListMsAt1k: number;
  filteredListMsAtFull: number;
  filteredListRatio: number;
  /** Payments made past the cap, and the heap after them over the heap at the cap. */
  overflowCharges: number;
  heapUsedAfterOverflow: number;
  overflowHeapRatio: number;
  /** Charges the sandbox held at the end: its cap. */
  chargesHeld: number;
}

/** List calls per timing; the first tenth warms up and is not counted. */
const LIST_CALLS = 400;

async function timeList(sandbox: Sandbox, query: string): Promise<number> {
  const call = async () => {
    const response = await sandbox.fetch(new Request(`${ORIGIN}/api/v1/charges?${query}`, { headers: { authorization: API_AUTH } }));
    const body = (await response.json()) as { data?: unknown[] };
    if (response.status !== 200 || body.data?.length === undefined) throw new Error(`GET /api/v1/charges?${query}: ${response.status}`);
  };
  // Warmed as long as timed: the list at 1,000 is measured first, when the code is still cold.
  for (let i = 0; i < LIST_CALLS; i += 1) await call();
  // The median call after a full GC, at 1,000 charges as at 20,000: a major GC of the larger heap
  // landing in the timed calls is the heap's size, not the list's cost (it moved the mean by 1.5x).
  gc?.();
  const times: number[] = [];
  for (let i = 0; i < LIST_CALLS; i += 1) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

const ORIGIN = 'http://127.0.0.1:4010';
const basic = (key: string) => `Basic ${Buffer.from(`${SANDBOX_DEFAULTS.merchantId}:${key}`).toString('base64')}`;
const CLIENT_AUTH = basic(SANDBOX_DEFAULTS.publishableKey);
const API_AUTH = basic(SANDBOX_DEFAULTS.apiKey);
const EXPIRY_YEAR = (new Date().getUTCFullYear() + 2) % 100;

const gc = (globalThis as { gc?: () => void }).gc;

function heapUsed(): number {
  if (gc) {
    gc();
    gc();
  }
  return process.memoryUsage().heapUsed;
}

async function post(sandbox: Sandbox, path: string, auth: string, body: unknown, key: string): Promise<Record<string, unknown>> {
  const response = await sandbox.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json', [SERVICE_HEADERS.idempotencyKey]: key },
      body: JSON.stringify(body),
    }),
  );
  const answer = (await response.json()) as Record<string, unknown>;
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

async function runSandboxLoad(charges: number): Promise<SandboxLoadResult> {
  const sandbox = new Sandbox({ maxCharges: charges });
  const before = heapUsed();

  const tokens: string[] = [];
  let started = performance.now();
  for (let i = 0; i < charges; i += 1) {
    const token = await post(
      sandbox,
      '/client/v1/card-tokens',
      CLIENT_AUTH,
      { pan: '4111111111111111', expiryMonth: 12, expiryYear: EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee' },
      `token-${i}`,
    );
    tokens.push(token.id as string);
  }
  const tokenSeconds = (performance.now() - started) / 1000;

  let listMsAt1k = Number.NaN;
  let filteredListMsAt1k = Number.NaN;
  let settledAtOnce = 0;
  let lastChargeId = '';
  const blockSize = Math.max(1, Math.floor(charges / 10));
  const chargeBlocksPerSecond: number[] = [];
  started = performance.now();
  let blockStarted = started;
  for (let i = 0; i < charges; i += 1) {
    if (i > 0 && i % blockSize === 0) {
      const now = performance.now();
      chargeBlocksPerSecond.push(blockSize / ((now - blockStarted) / 1000));
      blockStarted = now;
    }
    const charge = await post(
      sandbox,
      '/api/v1/charges',
      API_AUTH,
      { amount: 10_000, currency: 'THB', referenceId: `order-${i}`, paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId: tokens[i], securityCode: '123' } } },
      `charge-${i}`,
    );
    if (charge.actionRequired === 'NONE') settledAtOnce += 1;
    lastChargeId = charge.chargeId as string;
    if (i + 1 === 1_000) {
      // The timing is left out of the charge rate.
      const paused = performance.now();
      listMsAt1k = await timeList(sandbox, 'limit=20');
      filteredListMsAt1k = await timeList(sandbox, 'limit=20&referenceId=order-500');
      const pause = performance.now() - paused;
      blockStarted += pause;
      started += pause;
    }
  }
  const ended = performance.now();
  if (charges % blockSize === 0) chargeBlocksPerSecond.push(blockSize / ((ended - blockStarted) / 1000));
  const chargeSeconds = (ended - started) / 1000;
  tokens.length = 0;
  const last = await sandbox.fetch(new Request(`${ORIGIN}/api/v1/charges/${lastChargeId}`, { headers: { authorization: API_AUTH } }));
  const lastStatus = String(((await last.json()) as { status?: unknown }).status);

  const after = heapUsed();
  const listMsAtFull = await timeList(sandbox, 'limit=20');
  const filteredListMsAtFull = await timeList(sandbox, 'limit=20&referenceId=order-500');

  // Past the cap: every new payment makes the sandbox forget its oldest.
  const overflowCharges = Math.floor(charges / 4);
  for (let i = 0; i < overflowCharges; i += 1) {
    const token = await post(sandbox, '/client/v1/card-tokens', CLIENT_AUTH, { pan: '4111111111111111', expiryMonth: 12, expiryYear: EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee' }, `more-token-${i}`);
    await post(
      sandbox,
      '/api/v1/charges',
      API_AUTH,
      { amount: 10_000, currency: 'THB', referenceId: `more-${i}`, paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId: token.id, securityCode: '123' } } },
      `more-charge-${i}`,
    );
  }
  const afterOverflow = heapUsed();
  const result: SandboxLoadResult = {
    charges,
    tokensPerSecond: charges / tokenSeconds,
    chargesPerSecond: charges / chargeSeconds,
    chargeBlocksPerSecond,
    paymentsPerSecond: charges / (tokenSeconds + chargeSeconds),
    settledAtOnce,
    lastStatus,
    gcForced: Boolean(gc),
    heapUsedBefore: before,
    heapUsedAfter: after,
    heapBytesPerCharge: (after - before) / charges,
    rssAfter: process.memoryUsage().rss,
    listMsAt1k,
    listMsAtFull,
    listRatio: listMsAtFull / listMsAt1k,
    filteredListMsAt1k,
    filteredListMsAtFull,
    filteredListRatio: filteredListMsAtFull / filteredListMsAt1k,
    overflowCharges,
    heapUsedAfterOverflow: afterOverflow,
    overflowHeapRatio: (afterOverflow - before) / (after - before),
    chargesHeld: sandbox.store.charges.size,
  };
  sandbox.close();
  return result;
}

// A script only (run.ts imports its types): runs when started.
console.log(JSON.stringify(await runSandboxLoad(Number(process.argv[2] ?? 10_000))));
