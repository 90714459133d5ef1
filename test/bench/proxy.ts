import autocannon from 'autocannon';
import { Agent, request } from 'node:http';
import { CHECKOUT_STATUS_TOKEN_HEADER } from '../../src/core/constants.js';
import { Sandbox, SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
import { createCheckoutHandler } from '../../src/server/index.js';
import { summarize, type Summary } from './stats.js';
import { startTarget, stopTarget } from './targets.js';
import { pageOrderToken } from '../support/page-tokens.js';

/**
 * What the checkout handler (satang/server) adds over calling the service directly.
 *
 * The sandbox and the shop (toNodeListener(createCheckoutHandler)) each run in a process of their
 * own; the load comes from this process. The request compared is a status read of one charge that
 * stays PENDING (a PromptPay QR charge); the handler answers it from the read of the service it
 * shares among every reader of the charge, renewed each second (see status-cache.ts):
 *
 *   direct   GET {sandbox}/api/v1/charges/{id}                 Basic auth with the API key
 *   proxied  GET {shop}/api/checkout/charges/{id}/status       X-Satang-Status-Token; the handler
 *                                                              verifies it, then makes the direct call
 *
 * - Latency: one connection, one request at a time (keep-alive), timed with hrtime: p50 and p99
 *   with sub-millisecond resolution (autocannon's histogram keeps whole milliseconds).
 * - Throughput: autocannon, 10 connections, runs alternated direct / proxied / proxied / direct.
 * - In-process: the same two calls without sockets (sandbox.fetch vs handler with the sandbox's
 *   fetch as its service), to separate the handler's own cost from HTTP's.
 */

const AUTH = `Basic ${Buffer.from(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.apiKey}`).toString('base64')}`;

export interface ProxySide {
  url: string;
  /** Requests per second of each autocannon run. */
  throughputRuns: number[];
  /** Mean over the runs. */
  throughput: number;
  /** Sequential latency, ms. */
  latency: Summary;
}

export interface ProxyResult {
  connections: number;
  secondsPerRun: number;
  latencySamples: number;
  direct: ProxySide;
  proxied: ProxySide;
  /** proxied / direct throughput. */
  throughputRatio: number;
  addedP50Ms: number;
  addedP99Ms: number;
  /** Without sockets: microseconds per request, mean over `inProcess.samples`. */
  inProcess: { samples: number; directUs: number; handlerUs: number; addedUs: number };
}



/** One GET on a keep-alive agent; answers the time to the last byte of the body, ms. */
function timedGet(agent: Agent, url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(url, { agent, headers }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`GET ${url}: ${res.statusCode}`));
        else resolve(Number(process.hrtime.bigint() - started) / 1e6);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function sequential(agent: Agent, url: string, headers: Record<string, string>, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i += 1) times.push(await timedGet(agent, url, headers));
  return times;
}

async function cannon(url: string, headers: Record<string, string>, connections: number, seconds: number): Promise<number> {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`autocannon ${url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  return result.requests.total / result.duration;
}

async function createQrCharge(shopUrl: string): Promise<{ chargeId: string; statusToken: string }> {
  const orderReference = `order-12345-${crypto.randomUUID()}`;
  const response = await fetch(`${shopUrl}/api/checkout/charges`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID(), 'x-satang-order-token': await pageOrderToken(orderReference) },
    body: JSON.stringify({ orderReference, amount: 12_345, currency: 'THB', paymentMethod: { type: 'QR_PROMPT_PAY' } }),
  });
  if (response.status !== 201) throw new Error(`creating the QR charge: ${response.status} ${await response.text()}`);
  return (await response.json()) as { chargeId: string; statusToken: string };
}

/** Handler cost without sockets: sandbox.fetch directly vs the handler calling sandbox.fetch. */
async function inProcess(samples: number): Promise<ProxyResult['inProcess']> {
  const sandbox = new Sandbox();
  const base = 'http://127.0.0.1:4010';
  const handler = createCheckoutHandler({
    service: { baseUrl: base, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey, fetch: sandbox.fetch },
    resolveOrder: () => ({ amount: 12_345, currency: 'THB', referenceId: 'order-in-process' }),
    basePath: '/api/checkout',
    rateLimit: false,
  });
  const created = await handler(
    new Request('http://127.0.0.1:8080/api/checkout/charges', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID(), 'x-satang-order-token': await handler.orderToken('order-in-process') },
      body: JSON.stringify({ orderReference: 'order-in-process', amount: 12_345, currency: 'THB', paymentMethod: { type: 'QR_PROMPT_PAY' } }),
    }),
  );
  if (created.status !== 201) throw new Error(`in-process: creating the QR charge: ${created.status} ${await created.text()}`);
  const { chargeId, statusToken } = (await created.json()) as { chargeId: string; statusToken: string };
  const direct = async () => {
    const r = await sandbox.fetch(new Request(`${base}/api/v1/charges/${chargeId}`, { headers: { authorization: AUTH } }));
    if (r.status !== 200) throw new Error(`in-process direct: ${r.status}`);
    await r.text();
  };
  const viaHandler = async () => {
    const r = await handler(new Request(`http://127.0.0.1:8080/api/checkout/charges/${chargeId}/status`, { headers: { [CHECKOUT_STATUS_TOKEN_HEADER]: statusToken } }));
    if (r.status !== 200) throw new Error(`in-process handler: ${r.status}`);
    await r.text();
  };
  const time = async (fn: () => Promise<void>, n: number) => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i += 1) await fn();
    return Number(process.hrtime.bigint() - started) / 1e3 / n;
  };
  await time(direct, 500);
  await time(viaHandler, 500);
  const directRuns: number[] = [];
  const handlerRuns: number[] = [];
  const block = samples / 4;
  for (let i = 0; i < 4; i += 1) {
    directRuns.push(await time(direct, block));
    handlerRuns.push(await time(viaHandler, block));
  }
  sandbox.close();
  const directUs = directRuns.reduce((a, b) => a + b, 0) / directRuns.length;
  const handlerUs = handlerRuns.reduce((a, b) => a + b, 0) / handlerRuns.length;
  return { samples, directUs, handlerUs, addedUs: handlerUs - directUs };
}

export async function measureProxy(options: { connections?: number; seconds?: number; latencySamples?: number } = {}): Promise<ProxyResult> {
  const connections = options.connections ?? 10;
  const seconds = options.seconds ?? 4;
  const latencySamples = options.latencySamples ?? 2000;
  const sandbox = await startTarget(['sandbox']);
  const shop = await startTarget(['shop', sandbox.url]).catch(async (error: unknown) => {
    await stopTarget(sandbox.child);
    throw error;
  });
  try {
    const { chargeId, statusToken } = await createQrCharge(shop.url);
    const directUrl = `${sandbox.url}/api/v1/charges/${chargeId}`;
    const directHeaders = { authorization: AUTH };
    const proxiedUrl = `${shop.url}/api/checkout/charges/${chargeId}/status`;
    const proxiedHeaders = { [CHECKOUT_STATUS_TOKEN_HEADER]: statusToken };
    const check = await fetch(proxiedUrl, { headers: proxiedHeaders });
    const status = (await check.json()) as { status?: string };
    if (status.status !== 'PENDING') throw new Error(`expected a PENDING charge to read, got ${JSON.stringify(status)}`);

    // Latency, one request at a time, blocks alternated.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    await sequential(agent, directUrl, directHeaders, 300);
    await sequential(agent, proxiedUrl, proxiedHeaders, 300);
    const directTimes: number[] = [];
    const proxiedTimes: number[] = [];
    const block = latencySamples / 5;
    for (let i = 0; i < 5; i += 1) {
      directTimes.push(...(await sequential(agent, directUrl, directHeaders, block)));
      proxiedTimes.push(...(await sequential(agent, proxiedUrl, proxiedHeaders, block)));
    }
    agent.destroy();

    // Throughput: a short warm-up each, then ABBA.
    await cannon(directUrl, directHeaders, connections, 1);
    await cannon(proxiedUrl, proxiedHeaders, connections, 1);
    const directRuns: number[] = [];
    const proxiedRuns: number[] = [];
    for (const which of ['direct', 'proxied', 'proxied', 'direct'] as const) {
      if (which === 'direct') directRuns.push(await cannon(directUrl, directHeaders, connections, seconds));
      else proxiedRuns.push(await cannon(proxiedUrl, proxiedHeaders, connections, seconds));
    }

    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const direct: ProxySide = { url: '/api/v1/charges/{id}', throughputRuns: directRuns, throughput: mean(directRuns), latency: summarize(directTimes) };
    const proxied: ProxySide = { url: '/api/checkout/charges/{id}/status', throughputRuns: proxiedRuns, throughput: mean(proxiedRuns), latency: summarize(proxiedTimes) };
    return {
      connections,
      secondsPerRun: seconds,
      latencySamples,
      direct,
      proxied,
      throughputRatio: proxied.throughput / direct.throughput,
      addedP50Ms: proxied.latency.median - direct.latency.median,
      addedP99Ms: proxied.latency.p99 - direct.latency.p99,
      inProcess: await inProcess(4000),
    };
  } finally {
    await stopTarget(shop.child);
    await stopTarget(sandbox.child);
  }
}
