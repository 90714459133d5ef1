/**
 * What a payment's news does to its order, as pure functions `(order, event) → (order', result)`:
 * a success (from a webhook, a status read, a slip or another tab finding it), a refund heard of,
 * a refund of the handler's own that failed, and the results of the effects a decision leaves
 * owed (a refund to make, an `onOrder` event to tell), which are states of the payment's entry in
 * the order's ledger, run by `order-book.ts` after the step that records them.
 *
 * The first success that took the order's full amount, at the price the order still has, pays it;
 * any other success is refunded in full; a success whose attempt is unknown (a restart, a lost
 * answer, another instance) is settled the same way against the order its status token names or
 * its `referenceId` does.
 */

import type { CheckoutOrderOutcome } from '../../core/schemas/checkout.js';
import { releaseIfEnded, type Facts, type Need } from './order-decisions.js';
import type { OrderEvent } from './order-events.js';
import { withLegacyPayer, withMember, type LegacyPayer, type Outcome, type OrderRecord, type PaymentEntry, type PendingAttempt } from './order-record.js';

/** A payment's success as it was learnt; what the news carried (a webhook: the whole charge) besides its id. */
export interface SuccessNews {
  chargeId: string;
  kind: PaymentEntry['kind'];
  amount?: number;
  currency?: string;
  referenceId?: string;
  /** The charge's source: only `API` charges can be the handler's. */
  source?: string;
  /** The charge's `sourceId`: for a capture, its card authorization. */
  sourceId?: string;
  /** When the service made it (ISO 8601): an attempt that started after it did not make it. */
  createdAt?: string;
  /** The order its status token names (a shopper's read): the handler signed it for this payment, so the payment is the checkout's even when the record does not know it. */
  order?: { referenceId: string; orderReference: string };
}

/** The payment as the service holds it, once it succeeded; null when it did not after all. */
export interface Taken {
  amount: number;
  currency: string;
  referenceId: string;
  paymentMethodType: string;
}

export interface SuccessFacts extends Facts {
  taken?: Record<string, Taken | null>;
  /**
   * The order's price now, by page reference (`resolveOrder` when confirming); `paidBy` when the
   * shop says which payment paid it; null when it is no longer offered.
   */
  price?: Record<string, { amount: number; currency: string } | { paidBy: string } | null>;
  /** What an authorization's captures add up to. */
  captured?: Record<string, number>;
  /** A payment the version before this one recorded, still open at the upgrade. */
  legacy?: Record<string, PaymentEntry>;
  /** The order's payer as the version before kept it (null: none). */
  legacyPayer?: LegacyPayer | null;
  /** The order's first success at the service (its earliest succeeded API charge), by order; null: none. */
  firstSuccess?: string | null;
}

export type SuccessNeed =
  | Need
  | { need: 'taken'; chargeId: string; kind: PaymentEntry['kind'] }
  | { need: 'price'; orderReference: string }
  | { need: 'captured'; authorizationId: string }
  | { need: 'legacy-payer' }
  | { need: 'first-success' };

/**
 * The payment the news is about, as the ledger should hold it: known, a capture, an attempt whose
 * answer was lost, or adopted by its token. `byClock`: matched to an attempt that started after the
 * service made it, only within {@link CLOCK_ALLOWANCE_MS}: it may be an earlier attempt's, one the
 * record forgot (an emptied store).
 */
function entryOf(order: OrderRecord, news: SuccessNews, facts: SuccessFacts, nowMs: number): SuccessNeed | { entry: PaymentEntry; order: OrderRecord; byClock?: true } | undefined {
  const known = order.payments[news.chargeId];
  if (known) return { entry: known, order };
  const legacy = facts.legacy?.[news.chargeId];
  if (legacy) return { entry: legacy, order };
  const api = news.kind === 'charge' && news.source === 'API';
  const authorization = api && news.sourceId !== undefined ? order.payments[news.sourceId] : undefined;
  if (authorization?.kind === 'authorization' && news.sourceId !== undefined) {
    // A capture of an authorization the handler made: it settles the order's money.
    const { kind: _k, answer: _a, outcome: _o, released: _r, telling: _t, heard: _h, ...rest } = authorization;
    return { entry: { ...rest, kind: 'charge', captureOf: news.sourceId, createdAtMs: nowMs }, order };
  }
  // An API charge (or a card authorization) of the order is the handler's only if one of its
  // attempts of that kind lost its answer, for that amount: the shop's own payments of the same
  // order (from its back office) are not touched.
  if ((api || news.kind === 'authorization') && news.referenceId === order.referenceId) {
    const matched = pendingAttemptOf(order, news);
    if (matched) {
      const { pending, byClock } = matched;
      const entry: PaymentEntry = { kind: news.kind, amount: pending.amount, currency: pending.currency, paymentMethodType: pending.paymentMethodType, orderReference: pending.orderReference, attempt: pending.attempt, createdAtMs: pending.createdAtMs };
      return { entry, order: { ...order, pending: order.pending.filter((p) => p !== pending) }, ...(byClock ? { byClock } : {}) };
    }
  }
  if (news.order?.referenceId !== order.referenceId) return undefined;
  // Its token names this order: the amount it took is the one to settle, and the order decides.
  const taken = facts.taken?.[news.chargeId];
  if (taken === undefined) return { need: 'taken', chargeId: news.chargeId, kind: news.kind };
  if (taken?.referenceId !== order.referenceId) return undefined;
  const entry: PaymentEntry = { kind: news.kind, amount: taken.amount, currency: taken.currency, paymentMethodType: taken.paymentMethodType, orderReference: news.order.orderReference, createdAtMs: nowMs };
  return { entry, order };
}

/** How far the service's clock may run behind the shop's when an attempt is matched to a charge made after it started. */
export const CLOCK_ALLOWANCE_MS = 2_000;

/**
 * The pending attempt of the order that made an API charge (or a card authorization) whose answer
 * never came: one of that kind and amount, the newest that started before the service made the
 * payment (an attempt started after it cannot have made it), or, the clocks apart, within
 * {@link CLOCK_ALLOWANCE_MS} of it.
 */
function pendingAttemptOf(order: OrderRecord, news: SuccessNews): { pending: PendingAttempt; byClock: boolean } | undefined {
  const candidates = order.pending.filter((p) => (p.kind ?? 'charge') === news.kind && (news.amount === undefined || p.amount === news.amount));
  const madeAt = news.createdAt === undefined ? Number.NaN : Date.parse(news.createdAt);
  const before = Number.isNaN(madeAt) ? candidates.at(-1) : candidates.findLast((p) => p.createdAtMs <= madeAt);
  if (before) return { pending: before, byClock: false };
  const near = Number.isNaN(madeAt) ? undefined : candidates.find((p) => p.createdAtMs <= madeAt + CLOCK_ALLOWANCE_MS);
  return near && { pending: near, byClock: true };
}

/**
 * Decides (once) what a SUCCEEDED payment does for its order. The result is its outcome; undefined
 * for a payment this handler did not start (a payment link's, the shop's own), or one not
 * succeeded after all. The refund it owes and the event `onOrder` is owed are in the record.
 */
export function decideSuccess(record: OrderRecord, news: SuccessNews, facts: SuccessFacts, nowMs: number): SuccessNeed | { order: OrderRecord | undefined; result: CheckoutOrderOutcome | undefined } {
  const found = entryOf(record, news, facts, nowMs);
  if (found === undefined) return { order: undefined, result: undefined };
  if ('need' in found) return found;
  const { entry } = found;
  let order = found.order;
  if (entry.outcome) return { order: order === record ? undefined : { ...order, payments: withMember(order.payments, news.chargeId, entry) }, result: entry.outcome.outcome };
  let money: { amount: number; currency: string } | null | undefined = news.amount !== undefined && news.currency !== undefined ? { amount: news.amount, currency: news.currency } : facts.taken?.[news.chargeId];
  if (money === undefined) return { need: 'taken', chargeId: news.chargeId, kind: news.kind };
  if (money === null) return { order: undefined, result: undefined };
  money = { amount: money.amount, currency: money.currency };
  const base = { ...money, told: false };
  let outcome: Outcome;
  const success: CheckoutOrderOutcome = news.kind === 'authorization' ? 'authorized' : 'paid';
  if (entry.captureOf !== undefined) {
    // A capture pays the order once the authorization's captures add up to the whole approved
    // amount; before that it is partially captured. The merchant's own act: never refunded here.
    const captured = facts.captured?.[entry.captureOf];
    if (base.currency !== entry.currency) outcome = { ...base, outcome: 'amount_mismatch' };
    else if (captured === undefined) return { need: 'captured', authorizationId: entry.captureOf };
    else outcome = { ...base, outcome: captured === entry.amount ? 'paid' : 'partially_captured', capturedAmount: captured };
  } else if (money.amount !== entry.amount || money.currency !== entry.currency) {
    outcome = { ...base, outcome: 'amount_mismatch' };
  } else {
    if (order.paidBy === undefined && order.legacyRead !== true) {
      // Paid before the upgrade to one record? Read once per order, before anything pays it.
      if (facts.legacyPayer === undefined) return { need: 'legacy-payer' };
      order = withLegacyPayer(order, facts.legacyPayer);
    }
    if (order.paidBy !== undefined && order.paidBy !== news.chargeId) {
      // An authorization canceled, expired or failed since it held the order holds it no more.
      const freed = releaseIfEnded(order, facts);
      if ('need' in freed) return freed;
      order = freed;
    }
    if (order.paidBy !== undefined && order.paidBy !== news.chargeId) {
      outcome = { ...base, outcome: 'duplicate_refunded', refundReason: 'duplicate_refunded', paidBy: order.paidBy };
    } else if (order.paidBy === news.chargeId) {
      outcome = { ...base, outcome: success };
    } else {
      const answer = facts.price?.[entry.orderReference];
      if (answer === undefined) return { need: 'price', orderReference: entry.orderReference };
      // The shop's own word on who paid the order outweighs the service's first success: it is
      // the payment `onOrder` told it of, maybe before the store forgot the order.
      const shopPayer = answer !== null && 'paidBy' in answer ? answer.paidBy : undefined;
      const price = answer === null || 'paidBy' in answer ? null : answer;
      // A payment the record did not know (its store emptied since), or matched to an attempt only
      // within the clocks' allowance (it may be a forgotten earlier attempt's), for an order no
      // longer offered: the shop stops offering an order once paid, maybe by this very payment.
      // The service says which success came first; that one paid it.
      const unknownAndUnsold = shopPayer === undefined && price === null && (entry.attempt === undefined || found.byClock === true);
      if (unknownAndUnsold && facts.firstSuccess === undefined) return { need: 'first-success' };
      const first = shopPayer ?? (unknownAndUnsold ? facts.firstSuccess : undefined);
      if (first === news.chargeId) {
        outcome = { ...base, outcome: success };
        order = { ...order, paidBy: news.chargeId };
      } else if (first !== undefined && first !== null) {
        outcome = { ...base, outcome: 'duplicate_refunded', refundReason: 'duplicate_refunded', paidBy: first };
      } else if (price?.amount !== entry.amount || price.currency !== entry.currency) {
        outcome = { ...base, outcome: 'repriced_refunded', refundReason: 'repriced_refunded', orderAmount: price?.amount ?? null };
      } else {
        outcome = { ...base, outcome: success };
        order = { ...order, paidBy: news.chargeId };
      }
    }
  }
  return { order: { ...order, payments: withMember(order.payments, news.chargeId, { ...entry, outcome }) }, result: outcome.outcome };
}

/** An effect a payment's entry says is still owed, to run after the step that recorded it. */
export type Effect =
  | { type: 'refund'; chargeId: string; kind: PaymentEntry['kind']; idempotencyKey: string; reason: 'duplicate_refunded' | 'repriced_refunded' }
  | { type: 'tell'; chargeId: string; event: OrderEvent };

/**
 * What is owed for the order's payments (or one of them): a refund not made yet (one key per try the
 * service refused; a fault keeps the key, since that refund may have been made), else an outcome
 * `onOrder` has not heard of.
 */
export function owedEffects(order: OrderRecord, chargeId?: string): Effect[] {
  const effects: Effect[] = [];
  for (const [id, entry] of Object.entries(order.payments)) {
    if (chargeId !== undefined && id !== chargeId) continue;
    const outcome = entry.outcome;
    if (outcome === undefined) continue;
    if (outcome.refundReason !== undefined && outcome.refundId === undefined && outcome.outcome !== 'refund_failed') {
      const tries = outcome.refundTries ?? 0;
      effects.push({ type: 'refund', chargeId: id, kind: entry.kind, idempotencyKey: `satang-refund-${id}${tries > 0 ? `-${tries}` : ''}`, reason: outcome.refundReason });
    } else if (!outcome.told) {
      effects.push({ type: 'tell', chargeId: id, event: orderEvent(order.referenceId, id, entry, outcome) });
    }
  }
  return effects;
}

/** What became of a refund (an authorization: a cancel) the handler tried. */
export type RefundResult =
  /** Made (its id; an authorization: its own; `''`: the shop had refunded it in full itself). */
  | { made: string }
  /** Refused for now (another refund of the charge pending): the next try gets a key of its own. */
  | { refusedForNow: true }
  /** Refused for good: the merchant settles it by hand. */
  | { failed: string };

export function decideRefundResult(order: OrderRecord, chargeId: string, result: RefundResult): OrderRecord | undefined {
  const entry = order.payments[chargeId];
  const outcome = entry?.outcome;
  if (!entry || !outcome || outcome.refundId !== undefined || outcome.outcome === 'refund_failed') return undefined;
  const failedAlready = 'made' in result ? order.refundsFailed?.[chargeId]?.[result.made] : undefined;
  const next: Outcome =
    'made' in result
      ? failedAlready === undefined
        ? { ...outcome, refundId: result.made }
        : { ...outcome, refundId: result.made, outcome: 'refund_failed', refundError: failedAlready, told: false }
      : 'failed' in result
        ? { ...outcome, outcome: 'refund_failed', refundError: result.failed, told: false }
        : { ...outcome, refundTries: (outcome.refundTries ?? 0) + 1 };
  return withOutcome(order, chargeId, entry, next);
}

/** A refund of the handler's own failed at the service after it was accepted: the payment is `refund_failed`, to tell again. */
export function decideRefundFailed(order: OrderRecord, input: { refundId: string; chargeId: string; errorCode: string }): OrderRecord | undefined {
  const entry = order.payments[input.chargeId];
  const outcome = entry?.outcome;
  if (!entry || !outcome || input.refundId === '' || outcome.outcome === 'refund_failed') return undefined;
  const refundError = input.errorCode || 'REFUND_FAILED';
  if (outcome.refundId === input.refundId) return withOutcome(order, input.chargeId, entry, { ...outcome, outcome: 'refund_failed', refundError, told: false });
  // A refund of it is owed or on its way, its id not known yet: this may be it, its answer still to
  // come (or lost, to be asked again under the same key). Kept, so that answer finds it failed.
  if (outcome.refundReason === undefined || outcome.refundId !== undefined) return undefined;
  const failed = order.refundsFailed?.[input.chargeId] ?? {};
  if (Object.hasOwn(failed, input.refundId)) return undefined;
  return { ...order, refundsFailed: withMember(order.refundsFailed ?? {}, input.chargeId, withMember(failed, input.refundId, refundError)) };
}

/**
 * A refund of a payment heard of: whoever made it, kept even before its payment is known (its
 * charge's answer lost, its webhook late), so the order it then pays reads refunded. Once per refund.
 */
export function decideRefundHeard(order: OrderRecord, refund: { refundId: string; chargeId: string; amount: number; currency: string }): OrderRecord | undefined {
  const kept = order.refunds[refund.chargeId] ?? {};
  if (Object.hasOwn(kept, refund.refundId)) return undefined;
  return { ...order, refunds: withMember(order.refunds, refund.chargeId, withMember(kept, refund.refundId, { amount: refund.amount, currency: refund.currency })) };
}

/** Claims telling `onOrder` of the payment's outcome for `holder` until `untilMs`: unchanged when told, or another holds it. */
export function decideTellClaim(order: OrderRecord, chargeId: string, holder: string, nowMs: number, untilMs: number): OrderRecord | undefined {
  const entry = order.payments[chargeId];
  if (!entry?.outcome || entry.outcome.told) return undefined;
  if (entry.telling && entry.telling.untilMs > nowMs && entry.telling.holder !== holder) return undefined;
  return { ...order, payments: withMember(order.payments, chargeId, { ...entry, telling: { holder, untilMs } }) };
}

/** `onOrder` heard of `outcome` (or failed, `told: false`): the claim is let go, and the outcome marked told if it is still that one. */
export function decideTold(order: OrderRecord, chargeId: string, holder: string, outcome: CheckoutOrderOutcome, told: boolean): OrderRecord | undefined {
  const entry = order.payments[chargeId];
  if (!entry?.outcome || entry.telling?.holder !== holder) return undefined;
  const { telling: _released, ...rest } = entry;
  const done = told && entry.outcome.outcome === outcome;
  return { ...order, payments: withMember(order.payments, chargeId, { ...rest, outcome: { ...entry.outcome, told: entry.outcome.told || done } }) };
}

/** A webhook state of the payment (its `version`) handled: kept in its entry unless a newer one is; unchanged for a payment the ledger does not hold. */
export function decideHeard(order: OrderRecord, chargeId: string, version: number): OrderRecord | undefined {
  const entry = order.payments[chargeId];
  if (!entry || (entry.heard !== undefined && entry.heard >= version)) return undefined;
  return { ...order, payments: withMember(order.payments, chargeId, { ...entry, heard: version }) };
}

function withOutcome(order: OrderRecord, chargeId: string, entry: PaymentEntry, outcome: Outcome): OrderRecord {
  return { ...order, payments: withMember(order.payments, chargeId, { ...entry, outcome }) };
}

/** The order event an outcome is told as. */
export function orderEvent(referenceId: string, chargeId: string, entry: PaymentEntry, record: Outcome): OrderEvent {
  const base = { referenceId, orderReference: entry.orderReference, chargeId, amount: record.amount, currency: record.currency };
  switch (record.outcome) {
    case 'paid':
      return { ...base, type: 'order.paid' };
    case 'authorized':
      return { ...base, type: 'order.authorized' };
    case 'duplicate_refunded':
      return { ...base, type: 'order.duplicate_refunded', paidBy: record.paidBy ?? '', refundId: record.refundId ?? '' };
    case 'repriced_refunded':
      return { ...base, type: 'order.repriced_refunded', orderAmount: record.orderAmount ?? null, refundId: record.refundId ?? '' };
    case 'amount_mismatch':
      return { ...base, type: 'order.amount_mismatch', expectedAmount: entry.amount, expectedCurrency: entry.currency };
    case 'partially_captured':
      return { ...base, type: 'order.partially_captured', cardAuthorizationId: entry.captureOf ?? '', capturedAmount: record.capturedAmount ?? 0, expectedAmount: entry.amount };
    case 'refund_failed':
      return { ...base, type: 'order.refund_failed', reason: record.refundReason ?? 'duplicate_refunded', errorCode: record.refundError ?? '' };
  }
}
