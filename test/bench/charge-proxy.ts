import autocannon from 'autocannon';
import { median } from './stats.js';
import { askTarget, startTarget, stopTarget, type Target } from './targets.js';
import { pageOrderToken } from '../support/page-tokens.js';

/**
 * Charge creation through the checkout handler against its floor, a bare forwarding proxy, in
 * front of the same sandbox, in one run:
 *
 *   handler  POST {shop}/api/checkout/charges   toNodeListener(createCheckoutHandler(…)) on node:http:
 *                                               prices the order, takes the attempt lock, calls
 *                                               the service, signs a status token
 *   bare     POST {bare}/charges                adds the API key and an idempotency key, pipes
 *                                               the body to POST /api/v1/charges (proxy-target.ts)
 *   json     POST {json}/charges                the floor of a handler that reads what it forwards:
 *                                               parses the checkout's request, sends the service
 *                                               JSON of its own, parses the answer, answers JSON;
 *                                               no checks, tokens or store (proxy-target.ts)
 *
 * Every request is a new PromptPay QR charge of a new order (so no answer is replayed), 16 at a
 * time (autocannon). Each server runs in a process of its own and reports its CPU time, so the CPU
 * per request is the server's own. The runs come in rounds, one of each side back to back, in
 * turning order (bare, handler, json; handler, json, bare; …): a round's runs share the machine's
 * state of the moment, and the ratios are each round's, summed up by their median with the lowest
 * and highest round beside it. On a shared machine one busy moment moves one round, not the
 * result. The goals are against the bare proxy; the handler against the JSON floor is reported
 * beside them, as the share of its cost that is its own logic.
 */



export interface ChargeProxySide {
  throughputRuns: number[];
  /** Requests per second, mean over the runs. */
  throughput: number;
  /** The server's CPU per answered request, ms (its process alone). */
  cpuMsPerRequest: number;
  p50Ms: number;
  p99Ms: number;
}

export interface ChargeProxyResult {
  connections: number;
  secondsPerRun: number;
  /** Rounds of runs, one run of each side in each. */
  rounds: number;
  bare: ChargeProxySide;
  handler: ChargeProxySide;
  /** The JSON floor (see the module comment). */
  json: ChargeProxySide;
  /** handler / bare throughput, the median of the rounds: the goal is at least 0.95 (`CHARGE_THROUGHPUT_RATIO_GOAL`). */
  throughputRatio: number;
  /** The lowest and highest round's throughput ratio. */
  throughputRatioRange: [number, number];
  /** handler / bare CPU per request, the median of the rounds: the goal is at most 1.5 (`CHARGE_CPU_RATIO_GOAL`). */
  cpuRatio: number;
  cpuRatioRange: [number, number];
  /** handler / JSON floor CPU per request, the median of the rounds (reported, no goal). */
  cpuRatioToJson: number;
  cpuRatioToJsonRange: [number, number];
  addedP50Ms: number;
  addedP99Ms: number;
}


const cpuOf = (target: Target) => askTarget<{ cpuUs: number; requests: number }>(target, 'cpu');


let orders = 0;

/** Order tokens signed before a run (autocannon builds each request synchronously), as many as a run may send. */
const PAGES_PER_SECOND = 6_000;

/** The three servers compared (see the module comment). */
type Kind = 'bare' | 'handler' | 'json';

/** One autocannon run of new QR charges; the server's CPU and requests over the run. */
async function run(target: Target, kind: Kind, connections: number, seconds: number) {
  // Each order's page was rendered with its token by the shop: signed here, before the clock starts.
  const pages: { reference: string; token: string }[] = [];
  let sent = 0;
  if (kind === 'handler') {
    for (let i = 0; i < PAGES_PER_SECOND * seconds; i += 1) {
      const reference = `order-12345-${process.pid}-${orders + i + 1}`;
      pages.push({ reference, token: await pageOrderToken(reference) });
    }
  }
  const before = await cpuOf(target);
  const result = await autocannon({
    url: target.url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: kind === 'handler' ? '/api/checkout/charges' : '/charges',
        setupRequest: (request) => {
          orders += 1;
          const reference = `order-12345-${process.pid}-${orders}`;
          const body =
            kind === 'bare'
              ? { amount: 12_345, currency: 'THB', referenceId: reference, paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY', qrPromptPay: {} } }
              : { orderReference: reference, amount: 12_345, currency: 'THB', paymentMethod: { type: 'QR_PROMPT_PAY' } };
          const headers: Record<string, string> = { 'content-type': 'application/json', 'idempotency-key': `bench-${reference}` };
          if (kind === 'handler') {
            const page = pages[sent++];
            if (page?.reference !== reference) throw new Error(`more than ${PAGES_PER_SECOND} charges a second: sign more pages before the run`);
            headers['x-satang-order-token'] = page.token;
          }
          return { ...request, headers, body: JSON.stringify(body) };
        },
      },
    ],
  });
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`autocannon ${kind}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  const after = await cpuOf(target);
  return { throughput: result.requests.total / result.duration, cpuUs: after.cpuUs - before.cpuUs, requests: after.requests - before.requests, p50: result.latency.p50, p99: result.latency.p99 };
}

export async function measureChargeProxy(options: { connections?: number; seconds?: number; rounds?: number } = {}): Promise<ChargeProxyResult> {
  const connections = options.connections ?? 16;
  const seconds = options.seconds ?? 4;
  const rounds = options.rounds ?? 6;
  const sandbox = await startTarget(['sandbox']);
  const targets: Target[] = [sandbox];
  try {
    const shop = await startTarget(['shop', sandbox.url]);
    targets.push(shop);
    const bare = await startTarget(['bare', sandbox.url]);
    targets.push(bare);
    const json = await startTarget(['json', sandbox.url]);
    targets.push(json);
    const servers: Record<Kind, Target> = { bare, handler: shop, json };
    const kinds: readonly Kind[] = ['bare', 'handler', 'json'];
    for (const kind of kinds) await run(servers[kind], kind, connections, 1);
    type Run = Awaited<ReturnType<typeof run>>;
    const runs: Record<Kind, Run[]> = { bare: [], handler: [], json: [] };
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < kinds.length; k++) {
        const kind = kinds[(round + k) % kinds.length]!;
        runs[kind].push(await run(servers[kind], kind, connections, seconds));
      }
    }
    const perRequest = (x: Run) => x.cpuUs / x.requests;
    const roundRatios = (f: (x: Run) => number, floor: Kind = 'bare') => runs.handler.map((h, i) => f(h) / f(runs[floor][i]!)).sort((a, b) => a - b);
    const cpuRatios = roundRatios(perRequest);
    const cpuRatiosToJson = roundRatios(perRequest, 'json');
    const throughputRatios = roundRatios((x) => x.throughput);
    const side = (xs: Awaited<ReturnType<typeof run>>[]): ChargeProxySide => {
      const mean = (f: (x: (typeof xs)[number]) => number) => xs.reduce((sum, x) => sum + f(x), 0) / xs.length;
      return {
        throughputRuns: xs.map((x) => x.throughput),
        throughput: mean((x) => x.throughput),
        cpuMsPerRequest: xs.reduce((sum, x) => sum + x.cpuUs, 0) / xs.reduce((sum, x) => sum + x.requests, 0) / 1000,
        p50Ms: mean((x) => x.p50),
        p99Ms: mean((x) => x.p99),
      };
    };
    const b = side(runs.bare);
    const h = side(runs.handler);
    return {
      connections,
      secondsPerRun: seconds,
      rounds,
      bare: b,
      handler: h,
      json: side(runs.json),
      throughputRatio: median(throughputRatios),
      throughputRatioRange: [throughputRatios[0]!, throughputRatios.at(-1)!],
      cpuRatio: median(cpuRatios),
      cpuRatioRange: [cpuRatios[0]!, cpuRatios.at(-1)!],
      cpuRatioToJson: median(cpuRatiosToJson),
      cpuRatioToJsonRange: [cpuRatiosToJson[0]!, cpuRatiosToJson.at(-1)!],
      addedP50Ms: h.p50Ms - b.p50Ms,
      addedP99Ms: h.p99Ms - b.p99Ms,
    };
  } finally {
    for (const target of targets.reverse()) await stopTarget(target.child);
  }
}

// Run alone: `npx tsx test/bench/charge-proxy.ts`.
if (process.argv[1]?.endsWith('charge-proxy.ts')) console.log(JSON.stringify(await measureChargeProxy(), null, 2));
