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
  const sandbox = new Sandbox();
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
  }
  const ended = performance.now();
  if (charges % blockSize === 0) chargeBlocksPerSecond.push(blockSize / ((ended - blockStarted) / 1000));
  const chargeSeconds = (ended - started) / 1000;
  tokens.length = 0;
  const last = await sandbox.fetch(new Request(`${ORIGIN}/api/v1/charges/${lastChargeId}`, { headers: { authorization: API_AUTH } }));
  const lastStatus = String(((await last.json()) as { status?: unknown }).status);

  const after = heapUsed();
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
  };
  sandbox.close();
  return result;
}

// A script only (run.ts imports its types): runs when started.
console.log(JSON.stringify(await runSandboxLoad(Number(process.argv[2] ?? 10_000))));
