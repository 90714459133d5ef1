import { Agent, request } from 'node:http';
import { CHECKOUT_STATUS_TOKEN_HEADER } from '../../src/core/constants.js';
import { askTarget, startTarget, stopTarget, type Target } from './targets.js';
import { pageOrderToken } from '../support/page-tokens.js';

/**
 * Shoppers waiting on PromptPay QRs that nobody pays: `waiters` long-polls (`?wait=25`, as the
 * widget asks) spread over `charges` PENDING charges, held against the shop's handler
 * (toNodeListener(createCheckoutHandler), no webhooks, in a process of its own) for `seconds`.
 *
 * - Upstream reads: the charge reads (`GET /api/v1/charges/{id}`) the sandbox answered while the
 *   waits were held, per charge per second. However many wait, one read per charge per interval.
 * - Memory per waiter: the shop's RSS and heap after a forced GC with every waiter held, less
 *   before, per waiter; against the same for a bare node:http server holding as many idle
 *   requests (proxy-target.ts idle), the floor a long-poll cannot go below. The shop runs
 *   `satang/server` as built (targets.ts). RSS includes V8's young generation, which V8 grows with
 *   the allocation rate and keeps after a GC: RSS is counted without its resizing, both sides, and
 *   the raw figures are reported beside.
 */



interface Memory {
  rss: number;
  heapUsed: number;
  /** V8's young generation, which it grows with the allocation rate and keeps: part of RSS. */
  newSpace: number;
  gcForced: boolean;
}

export interface StatusWaitersResult {
  waiters: number;
  charges: number;
  seconds: number;
  /** Charge reads of the sandbox while the waits were held. */
  upstreamReads: number;
  upstreamReadsPerChargePerSecond: number;
  upstreamReadsPerSecond: number;
  /**
   * Bytes per held request, after GC: the handler's waits and the bare floor. RSS less what the
   * young generation grew or shrank meanwhile (V8 sizes it by the allocation rate, not by what is held).
   */
  handlerRssPerWaiter: number;
  handlerHeapPerWaiter: number;
  floorRssPerWaiter: number;
  floorHeapPerWaiter: number;
  /** How much V8's young generation grew while the waiters were held (bytes): handler, floor. */
  handlerNewSpaceGrowth: number;
  floorNewSpaceGrowth: number;
  /** RSS per held request with the young generation's resizing left in. */
  handlerRawRssPerWaiter: number;
  floorRawRssPerWaiter: number;
  /** handler / floor, RSS and heap: the goal is at most 2. */
  rssRatio: number;
  heapRatio: number;
  /** Waits that ended before they were released (they must not: nobody paid). */
  endedEarly: number;
  gcForced: boolean;
}




const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens `count` requests that the server holds; resolves once all are sent, with a way to end them. */
async function hold(url: (i: number) => string, headers: (i: number) => Record<string, string>, count: number) {
  const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  let ended = 0;
  const requests: ReturnType<typeof request>[] = [];
  for (let i = 0; i < count; i += 1) {
    const sent = request(url(i), { agent, headers: headers(i) }, (res) => {
      res.resume();
      res.on('end', () => (ended += 1));
    });
    sent.on('error', () => undefined);
    sent.end();
    requests.push(sent);
    if (i % 100 === 99) await sleep(20);
  }
  return {
    ended: () => ended,
    release: () => {
      for (const sent of requests) sent.destroy();
      agent.destroy();
    },
  };
}

async function createQrCharge(shopUrl: string, i: number): Promise<{ chargeId: string; statusToken: string }> {
  const orderReference = `order-12345-waiters-${i}-${crypto.randomUUID()}`;
  const response = await fetch(`${shopUrl}/api/checkout/charges`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID(), 'x-satang-order-token': await pageOrderToken(orderReference) },
    body: JSON.stringify({ orderReference, amount: 12_345, currency: 'THB', paymentMethod: { type: 'QR_PROMPT_PAY' } }),
  });
  if (response.status !== 201) throw new Error(`creating QR charge ${i}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { chargeId: string; statusToken: string };
}

export async function measureStatusWaiters(options: { waiters?: number; charges?: number; seconds?: number } = {}): Promise<StatusWaitersResult> {
  const waiters = options.waiters ?? 1_000;
  const charges = options.charges ?? 10;
  const seconds = options.seconds ?? 10;
  const targets: Target[] = [];
  try {
    const sandbox = await startTarget(['sandbox']);
    targets.push(sandbox);
    const shop = await startTarget(['shop', sandbox.url], { gc: true });
    targets.push(shop);
    const floor = await startTarget(['idle'], { gc: true });
    targets.push(floor);

    const pending: { chargeId: string; statusToken: string }[] = [];
    for (let i = 0; i < charges; i += 1) pending.push(await createQrCharge(shop.url, i));

    // The shop: memory before, then with every waiter held, and the reads meanwhile.
    const shopBefore = await askTarget<Memory>(shop, 'mem');
    const held = await hold(
      (i) => `${shop.url}/api/checkout/charges/${pending[i % charges]!.chargeId}/status?wait=25`,
      (i) => ({ [CHECKOUT_STATUS_TOKEN_HEADER]: pending[i % charges]!.statusToken }),
      waiters,
    );
    await sleep(1_000);
    const readsBefore = (await askTarget<{ reads: number }>(sandbox, 'reads')).reads;
    await sleep(seconds * 1000);
    const readsAfter = (await askTarget<{ reads: number }>(sandbox, 'reads')).reads;
    const shopHeld = await askTarget<Memory>(shop, 'mem');
    const endedEarly = held.ended();
    held.release();

    // The floor: the same number of requests held by a bare node:http server.
    const floorBefore = await askTarget<Memory>(floor, 'mem');
    const idle = await hold(() => `${floor.url}/status?wait=25`, () => ({ [CHECKOUT_STATUS_TOKEN_HEADER]: pending[0]!.statusToken }), waiters);
    await sleep(1_000);
    const floorHeld = await askTarget<Memory>(floor, 'mem');
    idle.release();

    const upstreamReads = readsAfter - readsBefore;
    // RSS without the young generation's resizing, which follows the allocation rate of the
    // moment (it moved by ±13 to 18 MB between runs, more than the floor's whole cost), not the
    // requests held; the raw figures are kept beside.
    const handlerNewSpaceGrowth = shopHeld.newSpace - shopBefore.newSpace;
    const floorNewSpaceGrowth = floorHeld.newSpace - floorBefore.newSpace;
    const handlerRssPerWaiter = (shopHeld.rss - shopBefore.rss - handlerNewSpaceGrowth) / waiters;
    const handlerHeapPerWaiter = (shopHeld.heapUsed - shopBefore.heapUsed) / waiters;
    const floorRssPerWaiter = (floorHeld.rss - floorBefore.rss - floorNewSpaceGrowth) / waiters;
    const floorHeapPerWaiter = (floorHeld.heapUsed - floorBefore.heapUsed) / waiters;
    return {
      waiters,
      charges,
      seconds,
      upstreamReads,
      upstreamReadsPerSecond: upstreamReads / seconds,
      upstreamReadsPerChargePerSecond: upstreamReads / seconds / charges,
      handlerRssPerWaiter,
      handlerHeapPerWaiter,
      floorRssPerWaiter,
      floorHeapPerWaiter,
      handlerNewSpaceGrowth,
      floorNewSpaceGrowth,
      handlerRawRssPerWaiter: (shopHeld.rss - shopBefore.rss) / waiters,
      floorRawRssPerWaiter: (floorHeld.rss - floorBefore.rss) / waiters,
      rssRatio: handlerRssPerWaiter / floorRssPerWaiter,
      heapRatio: handlerHeapPerWaiter / floorHeapPerWaiter,
      endedEarly,
      gcForced: shopHeld.gcForced && floorHeld.gcForced,
    };
  } finally {
    for (const target of targets.reverse()) await stopTarget(target.child);
  }
}

// Run alone: `npx tsx test/bench/status-waiters.ts`.
if (process.argv[1]?.endsWith('status-waiters.ts')) console.log(JSON.stringify(await measureStatusWaiters(), null, 2));
