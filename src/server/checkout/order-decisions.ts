/**
 * What an attempt to pay does to its order, as pure functions `(order, event) → (order', result)`:
 * an attempt asks to charge (it may, resumes an open payment, or is refused), the service answers
 * it, refuses it, or its answer is lost. No I/O here: what a decision must know of the world (where
 * an open payment stands, whether an authorization still holds money) it asks for with a `need`,
 * and `order-book.ts` learns it and decides again. One live attempt per order: a second tab, a
 * second device, a QR then a card find it and resume it, replace it when the shopper says so, or
 * are refused with a 409 the widget explains.
 *
 * The lock keeps the common cases to one charge; it is not what guarantees one payment per order.
 * That is `payment-decisions.ts`: whichever payment succeeds first pays the order, and every other
 * success is refunded.
 */

import type { CheckoutIntent } from '../../core/schemas/checkout.js';
import { ATTEMPTS_KEPT, liveLock, newest, ORDER_REFERENCES_KEPT, PENDING_KEPT, withMember, type AttemptAnswer, type OrderLock, type OrderRecord, type PaymentEntry, type PendingAttempt } from './order-record.js';

/** How long an attempt may take to create its charge before another attempt may go ahead. */
export const ATTEMPT_CREATE_TTL_MS = 2 * 60 * 1000;
/** How long an open attempt (a QR shown, a redirect followed) holds its order. */
export const ATTEMPT_OPEN_TTL_MS = 24 * 60 * 60 * 1000;

/** Something a decision cannot know from the record: `order-book.ts` learns it and decides again. */
export type Need =
  /** Where the order's open payment stands at the service (a success found is settled first). */
  | { need: 'open-payment'; chargeId: string; kind: PaymentEntry['kind'] }
  /** Whether a card authorization still holds money (its status at the service). */
  | { need: 'authorization-status'; chargeId: string };

/** What was learnt for the needs of a decision, by payment id. */
export interface Facts {
  openPayment?: Record<string, 'pending' | 'paid' | 'over'>;
  /** An authorization's status at the service. */
  authorizationStatus?: Record<string, string>;
}

/** A decision: a need, or the record after the event (undefined: unchanged) and what the caller is told. */
export type Decision<R> = Need | { order: OrderRecord | undefined; result: R };

/** Card authorization statuses that hold no money any more: the order they held is free again. */
export const ENDED_AUTHORIZATION_STATUSES: ReadonlySet<string> = new Set(['CANCELED', 'EXPIRED', 'FAILED']);

export interface ClaimInput {
  /** The attempt with its body: its key and a hash of the request. */
  id: string;
  /** The widget's attempt, its idempotency key. */
  attempt: string;
  orderReference: string;
  amount: number;
  currency: string;
  intent: CheckoutIntent;
  paymentMethodType: string;
  replace: boolean;
  nowMs: number;
}

/** What a claim may need besides: whether charges of attempts whose answers were lost went through. */
export type ClaimNeed = Need | { need: 'lost-charges' };

export interface ClaimFacts extends Facts {
  /** The order's charges at the service were read, and those that succeeded without the record knowing settled. */
  lostChargesSettled?: true;
}

export type ClaimResult =
  | { kind: 'create'; generation: number }
  | { kind: 'resume'; answer: AttemptAnswer; statusKind: PaymentEntry['kind'] }
  | { kind: 'paid' }
  | { kind: 'busy'; replaceable: boolean; paymentMethodType: string | undefined }
  /** The attempt's key was sent before with other details: one key names one request. */
  | { kind: 'conflict' };

/** Methods whose open attempt another tab may simply show again: nothing of the shopper's is in them. */
const isResumableMethod = (type: string) => type !== 'CARD_TOKEN' && type !== 'CARD_TOKEN_INSTALLMENTS';

/**
 * An authorization that paid the order but holds no money any more frees it: a need while its
 * status is not known, else the record with the order free (or unchanged, when it still holds).
 */
export function releaseIfEnded(order: OrderRecord, facts: Facts): Need | OrderRecord {
  const payerId = order.paidBy;
  const payer = payerId === undefined ? undefined : order.payments[payerId];
  if (payerId === undefined || payer?.kind !== 'authorization' || payer.captureOf !== undefined) return order;
  const status = facts.authorizationStatus?.[payerId];
  if (status === undefined) return { need: 'authorization-status', chargeId: payerId };
  if (!ENDED_AUTHORIZATION_STATUSES.has(status)) return order;
  const { paidBy: _freed, ...rest } = order;
  return { ...rest, payments: withMember(order.payments, payerId, { ...payer, released: status }) };
}

/**
 * Takes the order for this attempt, or says why not:
 * - the attempt's key came before with another body → `conflict` (409 IDEMPOTENCY_CONFLICT);
 * - another attempt's answer was lost (it is still pending) → the order's charges at the service
 *   are read first, and one that succeeded settled: it may have paid the order;
 * - the order is paid → `paid` (409 ORDER_ALREADY_PAID), unless this very attempt paid it (its
 *   answer lost): its payment again, to follow to its success;
 * - another attempt is creating its charge → `busy`, not replaceable (a moment);
 * - another attempt's payment is open (PENDING): the same non-card method at the same amount is
 *   resumed; one at another amount (the order was repriced and the shopper approved the new total)
 *   is abandoned; otherwise `busy`, replaceable, unless `replace` says to abandon it.
 * An abandoned payment paid anyway settles like any other: refunded when another payment paid the
 * order first or the order's price changed, else it pays the order.
 */
export function decideClaim(record: OrderRecord, input: ClaimInput, facts: ClaimFacts): ClaimNeed | { order: OrderRecord | undefined; result: ClaimResult } {
  // The same key with another body (another method, amount or card) is not a retry of that
  // attempt: neither its payment handed back nor a second request the service would refuse.
  for (const id of Object.keys(record.attempts)) if (id !== input.id && record.attempts[id]?.key === input.attempt) return { order: undefined, result: { kind: 'conflict' } };
  const held = liveLock(record, input.nowMs);
  const retry = held?.attempt === input.attempt;
  let order = record;
  if (retry && held.state === 'open') {
    // The same attempt again (an answer lost on the way): its payment, even if it paid the order meanwhile.
    const answer = held.chargeId === undefined ? undefined : order.payments[held.chargeId]?.answer;
    if (answer && held.kind) return resumed(order, input, answer, held.kind);
  }
  if (!retry) {
    const freed = releaseIfEnded(order, facts);
    if ('need' in freed) return freed;
    order = freed;
    const payer = order.paidBy === undefined ? undefined : order.payments[order.paidBy];
    if (order.paidBy !== undefined && payer?.attempt === input.attempt && payer.answer !== undefined) {
      // This very attempt paid it, as the service answered it (its answer lost on the way back, its
      // lock lapsed since): its charge again, to follow to its success.
      const answer: AttemptAnswer = { chargeId: order.paidBy, actionRequired: 'NONE', ...(payer.kind === 'authorization' ? { intent: 'authorize' as const } : {}) };
      return resumed(order, input, answer, payer.kind);
    }
    // A payer taken for this attempt's only by its order and amount (its answer never came): the
    // retry sends its key to the service again, which answers with the charge that key made.
    if (order.paidBy !== undefined && payer?.attempt !== input.attempt) return { order: changed(record, order), result: { kind: 'paid' } };
    if (held?.state === 'creating') return { order: changed(record, order), result: busy(held, false) };
    if (held?.state === 'open' && held.chargeId !== undefined && held.kind !== undefined) {
      const live = facts.openPayment?.[held.chargeId];
      if (live === undefined) return { need: 'open-payment', chargeId: held.chargeId, kind: held.kind };
      if (live === 'paid') return { order: changed(record, order), result: { kind: 'paid' } };
      if (live === 'pending') {
        const sameAmount = held.amount === input.amount && held.currency === input.currency;
        if (sameAmount && !input.replace) {
          const answer = order.payments[held.chargeId]?.answer;
          if (held.paymentMethodType === input.paymentMethodType && isResumableMethod(input.paymentMethodType) && answer) return resumed(order, input, answer, held.kind);
          return { order: changed(record, order), result: busy(held, true) };
        }
        // Abandoned: the lock moves on. Paid anyway, it settles like any payment.
      }
    }
  }
  // Another attempt's charge may have been made, its answer lost: with no webhook to tell of it
  // (none set up, or late), it could have paid the order already. Read at the service first.
  if (!retry && facts.lostChargesSettled !== true && order.pending.some((p) => p.attempt !== input.attempt)) return { need: 'lost-charges' };
  // A retry of an attempt still creating keeps its generation: the service's idempotency key makes it one charge.
  const generation = retry && held.state === 'creating' ? held.generation : (order.lock?.generation ?? 0) + 1;
  const lock: OrderLock = {
    generation,
    state: 'creating',
    attempt: input.attempt,
    paymentMethodType: input.paymentMethodType,
    amount: input.amount,
    currency: input.currency,
    untilMs: input.nowMs + ATTEMPT_CREATE_TTL_MS,
  };
  // Kept only now that the attempt may charge: a refused request leaves nothing behind. An
  // authorization too: made with its answer lost, it holds the shopper's money like a charge takes it.
  // A retry keeps its first try's place and start: the payment that try made (its answer lost) was
  // made before the retry started, and is matched to the attempt only by when it started.
  const { attempt, amount, currency, paymentMethodType, orderReference, nowMs } = input;
  const kept: PendingAttempt = { attempt, amount, currency, paymentMethodType, orderReference, createdAtMs: nowMs, ...(input.intent === 'authorize' ? { kind: 'authorization' as const } : {}) };
  const earlier = order.pending.find((p) => p.attempt === input.attempt);
  const pending = earlier ? order.pending.map((p) => (p === earlier ? { ...kept, createdAtMs: earlier.createdAtMs } : p)) : [...order.pending, kept];
  const next: OrderRecord = {
    ...withAttempt(withReference(order, input.orderReference), input.id, { key: input.attempt, amount: input.amount, currency: input.currency, ...(input.intent === 'authorize' ? { intent: input.intent } : {}) }),
    lock,
    pending: pending.slice(-PENDING_KEPT),
  };
  return { order: next, result: { kind: 'create', generation } };
}

/** The attempt resumes `answer`: kept as its own, for its next retry. */
function resumed(order: OrderRecord, input: ClaimInput, answer: AttemptAnswer, statusKind: PaymentEntry['kind']): Decision<ClaimResult> {
  const kept = withAttempt(withReference(order, input.orderReference), input.id, { key: input.attempt, amount: input.amount, currency: input.currency, chargeId: answer.chargeId });
  return { order: { ...kept, answered: input.attempt }, result: { kind: 'resume', answer, statusKind } };
}

function busy(held: OrderLock, replaceable: boolean): ClaimResult {
  return { kind: 'busy', replaceable, paymentMethodType: held.paymentMethodType };
}

/** `next` unless it is `record` itself (nothing to write). */
function changed(record: OrderRecord, next: OrderRecord): OrderRecord | undefined {
  return next === record ? undefined : next;
}

export interface CreatedInput {
  id: string;
  attempt: string;
  generation: number;
  orderReference: string;
  amount: number;
  currency: string;
  paymentMethodType: string;
  kind: PaymentEntry['kind'];
  answer: AttemptAnswer;
  nowMs: number;
  /** When the attempt wrote its page's `order-reference:` record (it named the order for the first time). */
  referenceKeptAtMs?: number;
}

/**
 * The service made the attempt's payment: it joins the ledger with the amount the shopper
 * approved (keeping what was already heard of it: a webhook may come before the answer), the lock
 * opens on it (for other tabs to resume or replace), and its retries get the same answer.
 */
export function decideCreated(order: OrderRecord, input: CreatedInput): OrderRecord {
  const { chargeId } = input.answer;
  const known = order.payments[chargeId];
  const entry: PaymentEntry = {
    ...known,
    kind: input.kind,
    amount: input.amount,
    currency: input.currency,
    paymentMethodType: input.paymentMethodType,
    orderReference: input.orderReference,
    attempt: input.attempt,
    createdAtMs: known?.createdAtMs ?? input.nowMs,
    answer: input.answer,
    // New to the ledger: its webhooks' states are kept in it from now on. One handled before (its
    // webhook ahead of this answer) stays in the ledger's records, where its copies are found; a
    // success heard before is in the entry already (adopted from the pending attempt).
    ...(known ? {} : { heard: 0 }),
    ...(input.referenceKeptAtMs !== undefined ? { referenceKeptAtMs: input.referenceKeptAtMs } : {}),
  };
  const held = order.lock;
  const ours = held?.attempt === input.attempt && held.generation === input.generation;
  const lock: OrderLock | undefined = ours ? { ...held, state: 'open', untilMs: input.nowMs + ATTEMPT_OPEN_TTL_MS, chargeId, kind: input.kind } : held;
  const attempt = order.attempts[input.id] ?? { key: input.attempt, amount: input.amount, currency: input.currency };
  return {
    ...withAttempt(order, input.id, { ...attempt, chargeId }),
    ...(lock ? { lock } : {}),
    payments: withMember(order.payments, chargeId, entry),
    pending: order.pending.filter((p) => p.attempt !== input.attempt),
    answered: input.attempt,
  };
}

/**
 * The service did not make the attempt's payment, or its answer was lost: the order is free for
 * another attempt. A refusal made nothing, so the attempt is forgotten; after a fault the charge
 * may exist all the same, and its webhook finds the attempt still pending.
 */
export function decideFailed(order: OrderRecord, input: { attempt: string; generation: number; refused: boolean }): OrderRecord {
  const ours = order.lock?.attempt === input.attempt && order.lock.generation === input.generation && order.lock.state === 'creating';
  return {
    ...order,
    ...(ours && order.lock ? { lock: { ...order.lock, state: 'released' as const } } : {}),
    pending: input.refused ? order.pending.filter((p) => p.attempt !== input.attempt) : order.pending,
  };
}

function withReference(order: OrderRecord, orderReference: string): OrderRecord {
  if (order.orderReferences.at(-1) === orderReference) return order;
  return { ...order, orderReferences: [...order.orderReferences.filter((r) => r !== orderReference), orderReference].slice(-ORDER_REFERENCES_KEPT) };
}

/** The attempt kept as the newest (last) of the order's attempts. */
function withAttempt(order: OrderRecord, id: string, attempt: OrderRecord['attempts'][string]): OrderRecord {
  return { ...order, attempts: newest(withMember(order.attempts, id, attempt, true), ATTEMPTS_KEPT) };
}
