/**
 * The order record in the store, changed one atomic step at a time: the record is read, a pure
 * decision (`order-decisions.ts`, `payment-decisions.ts`) says what it becomes, and the new record
 * is written only over the version that was read (`setIfNewer` with the next version: on Redis one
 * script that compares and writes, in memory one synchronous step). Two instances deciding at once
 * on one order: one writes, the other decides again on what it wrote. What a decision needs to know
 * of the world is learnt between tries, never inside one.
 *
 * Records of the version before (`paid:`, `attempt:`, `outcome:`, `refunds:`) are read when an
 * order has no record yet: an order paid before an upgrade stays paid, and an open payment of then
 * is still the checkout's when its success comes.
 */

import type { CheckoutContext } from './checkout-context.js';
import type { AttemptRecord } from './checkout-records.js';
import { CheckoutError } from './checkout-error.js';
import type { Need } from './order-decisions.js';
import { emptyOrder, withLegacyPayer, type LegacyPayer, type OrderRecord, type PaymentEntry } from './order-record.js';

/** Most tries of one step while other instances keep writing the same order. */
const STEP_TRIES = 16;
/** Most facts one step learns (all its tries together). */
const MOST_NEEDS = 32;

/**
 * The order as its record has it; an order with no record yet is read from the records of the
 * version before (its payer, if it was paid then), else empty, version 0.
 */
export async function readOrder(context: CheckoutContext, referenceId: string): Promise<OrderRecord> {
  return (await context.records.order.get(referenceId)) ?? withLegacyPayer(emptyOrder(referenceId), await legacyPayer(context, referenceId));
}

/**
 * The order as its record has it, without looking at the records of the version before: for a
 * new charge, which then costs one read. Its success is settled with them read (see
 * `legacyRead`), so an order paid before the upgrade is never paid twice.
 */
export async function readOrderRecord(context: CheckoutContext, referenceId: string): Promise<OrderRecord> {
  return (await context.records.order.get(referenceId)) ?? emptyOrder(referenceId);
}

/** What one try of a step decides: what it needs to know first, or the record it writes (undefined: nothing) and its result. */
export type StepDecision<N, R> = N | { order: OrderRecord | undefined; result: R };

/**
 * One atomic step on the order `referenceId`: `decide` (pure) on the record as read, with the facts
 * `learn` gathered for its needs; written only over that version, or decided again on the newer
 * record. `known` is a record read just before, to spare a read. Rejects with a retryable 503 when
 * the record keeps changing under it.
 */
export async function step<N extends { need: string }, R, F>(
  context: CheckoutContext,
  referenceId: string,
  decide: (order: OrderRecord, facts: F) => StepDecision<N, R>,
  learn: (need: N, facts: F, order: OrderRecord) => Promise<void>,
  facts: F,
  known?: OrderRecord,
): Promise<{ order: OrderRecord; result: R }> {
  let order = known ?? (await readOrder(context, referenceId));
  for (let tries = 0, learnt = 0; tries < STEP_TRIES; ) {
    const decision = decide(order, facts);
    if ('need' in decision) {
      // Each need is learnt once per fact: a decision that keeps asking is a fault of this code.
      if (++learnt > MOST_NEEDS) throw new Error(`an order step kept needing to know more (${decision.need})`);
      await learn(decision, facts, order);
      continue;
    }
    if (decision.order === undefined) return { order, result: decision.result };
    const next = { ...decision.order, v: order.v + 1 };
    if (await context.records.order.setIfNewer(referenceId, next.v, next)) return { order: next, result: decision.result };
    order = await readOrder(context, referenceId);
    tries += 1;
  }
  throw new CheckoutError(503, 'UPSTREAM_UNAVAILABLE', 'This order is busy. Please try again in a moment.', { retryable: true, headers: { 'retry-after': '1' } });
}

/** A step whose decision needs nothing it cannot know. */
export function simpleStep<R>(context: CheckoutContext, referenceId: string, decide: (order: OrderRecord) => { order: OrderRecord | undefined; result: R }, known?: OrderRecord): Promise<{ order: OrderRecord; result: R }> {
  return step<Need, R, undefined>(
    context,
    referenceId,
    (order) => decide(order),
    () => Promise.reject(new Error('a simple step needs nothing')),
    undefined,
    known,
  );
}

/** Keeps which order a page's reference named, to tell a later visit of it where the order stands. */
export async function rememberOrderReference(context: CheckoutContext, orderReference: string, referenceId: string): Promise<void> {
  await context.records.orderReference.set(orderReference, referenceId);
}

/** The order (`referenceId`) a page's reference named when it was last charged here; undefined for a reference never charged. */
export function referenceIdOf(context: CheckoutContext, orderReference: string): Promise<string | undefined> {
  return context.records.orderReference.get(orderReference);
}

/**
 * The payer of an order paid before the upgrade to one record (told already), what it took, and
 * the refunds heard of it; null when the order had no payer then.
 */
export async function legacyPayer(context: CheckoutContext, referenceId: string): Promise<LegacyPayer | null> {
  const { legacy } = context.records;
  const paidBy = await legacy.paidBy.get(referenceId);
  if (paidBy === undefined) return null;
  const [attempt, outcome, refunds] = await Promise.all([legacy.attempt.get(paidBy), legacy.outcome.get(paidBy), legacy.refunds.get(paidBy)]);
  const entry: PaymentEntry | undefined = attempt && {
    ...legacyEntry(attempt),
    outcome: { outcome: outcome?.outcome ?? (attempt.kind === 'authorization' ? 'authorized' : 'paid'), amount: outcome?.amount ?? attempt.amount, currency: outcome?.currency ?? attempt.currency, told: true },
  };
  return { paidBy, entry, refunds: refunds?.refunds };
}

/** A payment of the version before, whose success was not settled then (an open QR at the upgrade); undefined when there is none. */
export async function legacyPayment(context: CheckoutContext, chargeId: string, referenceId: string): Promise<PaymentEntry | undefined> {
  const attempt = await context.records.legacy.attempt.get(chargeId);
  return attempt?.referenceId === referenceId ? legacyEntry(attempt) : undefined;
}

function legacyEntry(attempt: AttemptRecord): PaymentEntry {
  const { kind, amount, currency, paymentMethodType, orderReference, createdAtMs } = attempt;
  return {
    kind,
    amount,
    currency,
    paymentMethodType,
    orderReference,
    createdAtMs,
    ...(attempt.attempt !== undefined ? { attempt: attempt.attempt } : {}),
    ...(attempt.captureOf !== undefined ? { captureOf: attempt.captureOf } : {}),
  };
}
