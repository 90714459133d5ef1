import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileLoad, runCheckoutLoad, startInProcessLoadStack, type LoadRun, type Reconciliation } from '../../bench/checkout-load.js';
import type { ShopStats } from '../../bench/load-stack.js';

/**
 * Many checkouts at once through the checkout handler to the sandbox, on real sockets: card, 3-D
 * Secure, PromptPay and declined cards, some charge requests sent twice at once or again after
 * their answer. The same driver as the bench's checkout load (test/bench/checkout-load.ts), sized
 * for CI. Nothing here is timed: it asserts that no request fails, that the sandbox's ledger
 * matches what every shopper was told, and that the handler's bounded state stays bounded.
 */

/**
 * Small on purpose: the run writes more entries than this, so the cap is exercised; large enough to
 * hold the payment records of the checkouts under way, as the default cap (100,000) does.
 */
const STORE_CAP = 600;

describe('checkout load: 150 shoppers at once through the checkout handler', () => {
  let stack: Awaited<ReturnType<typeof startInProcessLoadStack>>;
  let run: LoadRun;
  let ledger: Reconciliation;
  let stats: ShopStats;

  beforeAll(async () => {
    stack = await startInProcessLoadStack({ storeMaxEntries: STORE_CAP, longPollWaitMs: 10_000 });
    run = await runCheckoutLoad(stack, { target: 'proxy', concurrency: 150, durationMs: 2_000, waitSeconds: 10 });
    ledger = await reconcileLoad(stack, run.records);
    stats = await stack.shopStats();
  }, 60_000);

  afterAll(async () => {
    // Unset when the stack failed to start.
    await (stack as typeof stack | undefined)?.close();
  });

  it('ran every kind of checkout, doubles and retries included', () => {
    const kinds = new Set(run.records.map((r) => r.kind));
    expect([...kinds].sort()).toEqual(['card', 'declined', 'promptPay', 'threeDs']);
    expect(run.records.length).toBeGreaterThanOrEqual(150);
    expect(run.records.some((r) => r.send === 'double')).toBe(true);
    expect(run.records.some((r) => r.send === 'retry')).toBe(true);
  });

  it('answers every request without an error or a 5xx', () => {
    expect(run.errors, JSON.stringify(run.errors).slice(0, 2000)).toEqual([]);
    expect(run.serverErrors).toBe(0);
    expect(run.networkErrors).toBe(0);
    expect(run.mismatchedReplays).toBe(0);
    expect(stats.serverErrors).toEqual([]);
    expect(stats.webhooksRefused).toBe(0);
    expect(stats.webhooksAnswered).toBeGreaterThan(0);
    for (const r of run.records) expect(r.final, `${r.kind} ${r.reference}`).toBe(r.expected);
  });

  it('reconciles: one charge per accepted checkout, one transaction per success, none per failure', () => {
    expect(ledger.problems).toEqual([]);
    expect(ledger.accepted).toBe(run.records.length);
    expect(ledger.exactlyOneCharge).toBe(ledger.accepted);
    expect(ledger.chargesInLedger).toBe(ledger.accepted);
    expect(ledger.succeededWithOneTransaction).toBe(ledger.succeeded);
    expect(ledger.failedWithoutTransaction).toBe(ledger.failed);
    expect(ledger.failed).toBe(run.records.filter((r) => r.kind === 'declined').length);
    expect(ledger.transactionsInLedger).toBe(ledger.succeeded);
  });

  it('keeps the handler’s state bounded, wakes every long-poll and gives back its subscription', async () => {
    const end = await stack.sampleShop(false);
    // More entries were written than the cap holds (final statuses, webhook dedupe keys, order
    // records): the store filled up, pushed out its oldest and never held more than its cap.
    const peak = Math.max(...run.shopSamples.map((s) => s.storeSize ?? 0), end.storeSize!);
    expect(peak).toBeLessThanOrEqual(STORE_CAP);
    expect(stack.shop.store.inner.evicted).toBeGreaterThan(0);
    expect(peak).toBeGreaterThan(STORE_CAP * 0.9);
    // Every long-poll subscribed to its charge's wake-ups, was woken by its webhook (when one came
    // while it waited) and gave the subscription back.
    expect(end.missedWakeups).toBe(0);
    expect(stack.shop.store.subscribed).toBeGreaterThanOrEqual(run.records.length);
    expect(end.subscriptions).toBe(0);
    // Every request the shop took was answered, so no charge request is left in flight.
    expect(end.openRequests).toEqual({ charges: 0, status: 0, webhooks: 0, other: 0 });
  });
});
