/**
 * What a successful payment did for its order, decided once per payment and kept in the store:
 * the first success that took the order's full amount, at the price the order still has, pays it
 * (`paid:{referenceId}`, claimed with `setIfAbsent`, so of two successes on two instances exactly
 * one pays); any other success is refunded in full, and the merchant hears of each outcome once
 * through `onOrder`. Runs wherever a success is learnt: a webhook, a status read, a slip, or a
 * second attempt finding the first one's payment.
 */

import type { HttpCall } from '../../core/http-call.js';
import type { CheckoutOrderOutcome } from '../../core/schemas/checkout.js';
import { ServiceError, StateConflictError } from '../errors.js';
import type { CheckoutContext } from './checkout-context.js';
import { CheckoutError, upstreamRefusal } from './checkout-error.js';
import { ORDER_RECORD_TTL_MS, type ResolvedOrder } from './checkout-options.js';
import { orderEventType, type OrderEvent } from './order-events.js';
import { resolveOrder } from './resolve-order.js';
import type { StatusTokenKind } from './status-tokens.js';

/** How long one instance may hold a payment's settlement before another may take it over. */
const SETTLE_LEASE_MS = 30_000;
/** How long a settlement waits for another instance settling the same payment. */
const SETTLE_WAIT_MS = 10_000;
const SETTLE_POLL_MS = 50;

/** A refund that cannot be made now but may be later: the same key is tried again on the next news of the payment. */
class UndoLater extends Error {
  constructor(cause: unknown) {
    super('the refund will be tried again', { cause });
    this.name = 'UndoLater';
  }
}

/** An attempt as the handler started it: the order and the amount the shopper approved. */
export interface AttemptRecord {
  referenceId: string;
  orderReference: string;
  amount: number;
  currency: string;
  kind: StatusTokenKind;
  paymentMethodType: string;
  createdAtMs: number;
  /** For a capture: the card authorization (of the authorize intent) it takes money from. */
  captureOf?: string;
  /** The widget's attempt (its idempotency key) that made it, or that waits for its answer. */
  attempt?: string;
}

/** Marks of an order event: being told (for {@link TELL_IN_HAND_MS} at most), then told. */
const TELLING = 'telling';
const TOLD = 'told';
const TELL_IN_HAND_MS = 60_000;

/** Most attempts of one order kept waiting for an answer that may never come. */
const PENDING_KEPT = 10;

/** The decided outcome of one payment, and how far its consequences went. */
interface OutcomeRecord {
  outcome: CheckoutOrderOutcome;
  /** For a refund outcome: which refund undid it, once the service accepted it. */
  refundId?: string;
  /** What the order cost when the payment settled; null when `resolveOrder` no longer offered it. */
  orderAmount?: number | null;
  /** The payment that paid the order, for a duplicate. */
  paidBy?: string;
  /** Why the refund failed, for `refund_failed`. */
  refundError?: string;
  refundReason?: 'duplicate_refunded' | 'repriced_refunded';
  /** How many tries of the refund the service refused for now (another refund of the charge pending). */
  refundTries?: number;
  /** For a capture: what the authorization's captures add up to so far. */
  capturedAmount?: number;
  /** What the payment took. */
  amount: number;
  currency: string;
  /** Whether `onOrder` has heard of it. */
  told: boolean;
}

/** A payment's success as it was learnt; what the news carried (a webhook: the whole charge) besides its id. */
export interface SucceededPayment {
  chargeId: string;
  kind: StatusTokenKind;
  amount?: number;
  currency?: string;
  referenceId?: string;
  /** The charge's source: only `API` charges can be the handler's. */
  source?: string;
  /** The charge's `sourceId`: for a capture, its card authorization. */
  sourceId?: string;
}

export const paidByKey = (referenceId: string) => `paid:${referenceId}`;
export const attemptKey = (chargeId: string) => `attempt:${chargeId}`;
const outcomeKey = (chargeId: string) => `outcome:${chargeId}`;
const pendingKey = (referenceId: string) => `pending:${referenceId}`;
const referenceOfKey = (orderReference: string) => `order-reference:${orderReference}`;
const refundsKey = (chargeId: string) => `refunds:${chargeId}`;
/** Most tries to add a refund to a payment's refunds when other instances keep adding theirs at the same time. */
const REFUND_NOTE_TRIES = 8;

/** Keeps which order a page's reference named, to tell a later visit of it that the order is paid. */
export async function rememberOrderReference(context: CheckoutContext, input: { order: ResolvedOrder; orderReference: string }): Promise<void> {
  await context.store.set(referenceOfKey(input.orderReference), input.order.referenceId, ORDER_RECORD_TTL_MS);
}

/**
 * Keeps the attempt about to call the service until its answer is recorded: should the answer be
 * lost (a fault, the shopper gone), the charge may have been made all the same, and its webhook,
 * which may come before the call even gives up, finds it here by its order and approved amount.
 */
export async function rememberPendingAttempt(
  context: CheckoutContext,
  input: { order: ResolvedOrder; orderReference: string; paymentMethodType: string; intent: string; attempt: string },
): Promise<void> {
  if (input.intent === 'authorize') return;
  const record: AttemptRecord = {
    referenceId: input.order.referenceId,
    orderReference: input.orderReference,
    amount: input.order.amount,
    currency: input.order.currency,
    kind: 'charge',
    paymentMethodType: input.paymentMethodType,
    createdAtMs: Date.now(),
    attempt: input.attempt,
  };
  // One attempt of an order holds its lock at a time, so the list is not written by two at once.
  const pending = (await pendingOf(context, input.order.referenceId)).filter((p) => p.attempt !== input.attempt);
  pending.push(record);
  await context.store.set(pendingKey(input.order.referenceId), JSON.stringify(pending.slice(-PENDING_KEPT)), ORDER_RECORD_TTL_MS);
}

/** The attempt's answer is recorded (or it was refused): a later API charge of the order is not its. */
export async function forgetPendingAttempt(context: CheckoutContext, input: { order: ResolvedOrder; attempt: string }): Promise<void> {
  const pending = await pendingOf(context, input.order.referenceId);
  const left = pending.filter((p) => p.attempt !== input.attempt);
  if (left.length === pending.length) return;
  if (left.length === 0) await context.store.delete(pendingKey(input.order.referenceId));
  else await context.store.set(pendingKey(input.order.referenceId), JSON.stringify(left), ORDER_RECORD_TTL_MS);
}

async function pendingOf(context: CheckoutContext, referenceId: string): Promise<AttemptRecord[]> {
  const text = await context.store.get(pendingKey(referenceId));
  return text === undefined ? [] : (JSON.parse(text) as AttemptRecord[]);
}

/**
 * The payment that paid the order a page names (its `orderReference`) through this handler, with
 * the attempt that made it when that is still known; undefined while the order is not paid.
 */
export async function paymentOfOrder(context: CheckoutContext, orderReference: string): Promise<{ chargeId: string; attempt: AttemptRecord | undefined } | undefined> {
  const referenceId = await referenceIdOf(context, orderReference);
  const chargeId = referenceId === undefined ? undefined : await payerOf(context, referenceId);
  if (chargeId === undefined) return undefined;
  const attempt = await context.store.get(attemptKey(chargeId));
  return { chargeId, attempt: attempt === undefined ? undefined : (JSON.parse(attempt) as AttemptRecord) };
}

/** The order (`referenceId`) a page's reference named when it was last charged here; undefined for a reference never charged. */
export function referenceIdOf(context: CheckoutContext, orderReference: string): Promise<string | undefined> {
  return context.store.get(referenceOfKey(orderReference));
}

/** The payment that paid the order `referenceId` (or, with the authorize intent, authorized it): one store read. */
export function payerOf(context: CheckoutContext, referenceId: string): Promise<string | undefined> {
  return context.store.get(paidByKey(referenceId));
}

/** Card authorization statuses that hold no money any more: the order they held is free again. */
const ENDED_AUTHORIZATION_STATUSES: ReadonlySet<string> = new Set(['CANCELED', 'EXPIRED', 'FAILED']);
const releasedKey = (authorizationId: string) => `released:${authorizationId}`;
/** How long one instance has to free an order once it marked the authorization released; then another may. */
const RELEASE_MARK_TTL_MS = 30_000;
/** How long a request waits for another instance that is freeing the same order. */
const RELEASE_WAIT_MS = 2_000;

/**
 * Frees the order held by `payerId` (its `paid:` claim) when that payment is a
 * card authorization that no longer holds money: canceled by the merchant, expired or failed, as
 * the service says now. True when the order is free of it; false while it still holds the order
 * (AUTHORIZED or CAPTURED: the order is never paid twice), or when `payerId` is no authorization
 * of this handler (a charge, a capture). A service that cannot say is a retryable 503.
 *
 * Only one instance deletes the claim (the one that marks the authorization released first), and
 * only while the claim is still that authorization's: the claim of a payment made since is never
 * touched. Others wait for it.
 */
export async function releaseEndedAuthorization(context: CheckoutContext, payerId: string, call: HttpCall): Promise<boolean> {
  const { store } = context;
  const text = await store.get(attemptKey(payerId));
  const attempt = text === undefined ? undefined : (JSON.parse(text) as AttemptRecord);
  if (attempt?.kind !== 'authorization' || attempt.captureOf !== undefined) return false;
  let status: string;
  try {
    status = (await context.client.cardAuthorizations.get(payerId, { signal: call.signal, deadlineMs: context.serviceDeadlineMs })).status;
  } catch (error) {
    throw upstreamRefusal(error);
  }
  if (!ENDED_AUTHORIZATION_STATUSES.has(status)) return false;
  const paidKey = paidByKey(attempt.referenceId);
  if (await store.setIfAbsent(releasedKey(payerId), status, RELEASE_MARK_TTL_MS)) {
    if ((await store.get(paidKey)) === payerId) await store.delete(paidKey);
    return true;
  }
  for (const until = Date.now() + RELEASE_WAIT_MS; Date.now() < until; ) {
    if ((await store.get(paidKey)) !== payerId) return true;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
  throw new CheckoutError(503, 'UPSTREAM_UNAVAILABLE', 'This order is being freed for another payment. Please try again in a moment.', { retryable: true, headers: { 'retry-after': '1' } });
}

/** How the order's state tells its payer: which payment, what it did, and whether it was refunded in full since. */
export interface OrderPayer {
  chargeId: string;
  outcome: 'paid' | 'authorized';
  /**
   * The refunds of the payment heard of (`refund.succeeded` webhooks, see {@link noteRefund}) add up
   * to what it took. Never guessed: without webhooks, or for a card authorization, it stays false.
   */
  refunded: boolean;
}

/** The payment that paid the order `referenceId`, as its state tells it; undefined while the order is not paid. */
export async function payerOfOrder(context: CheckoutContext, referenceId: string): Promise<OrderPayer | undefined> {
  const chargeId = await payerOf(context, referenceId);
  if (chargeId === undefined) return undefined;
  const text = await context.store.get(attemptKey(chargeId));
  const attempt = text === undefined ? undefined : (JSON.parse(text) as AttemptRecord);
  const outcome = attempt?.kind === 'authorization' ? 'authorized' : 'paid';
  const refunded = attempt?.kind === 'charge' && (await refundedAmount(context, chargeId, attempt.currency)) >= attempt.amount;
  return { chargeId, outcome, refunded };
}

/** The successful refunds heard of for one payment, by refund id: written only with `setIfNewer`, its version their count. */
interface RefundsRecord {
  refunds: Record<string, { amount: number; currency: string }>;
}

/**
 * Keeps a refund of one of the handler's payments that succeeded (from its `refund.succeeded`
 * webhook): whoever made it (the shop from its dashboard or its own code, or this handler undoing
 * a duplicate), so the order's state can tell a paid order refunded in full since. Each refund is
 * counted once, however often it is heard of; refunds of one payment heard at the same time on
 * several instances are all kept (the record's version is their count, so a write that missed
 * another's is retried on top of it).
 */
export async function noteRefund(context: CheckoutContext, refund: { refundId: string; chargeId: string; amount: number; currency: string }): Promise<void> {
  const { store } = context;
  if ((await store.get(attemptKey(refund.chargeId))) === undefined) return;
  const key = refundsKey(refund.chargeId);
  for (let tries = 0; tries < REFUND_NOTE_TRIES; tries++) {
    const text = await store.get(key);
    const kept = text === undefined ? { refunds: {} } : (JSON.parse(text) as RefundsRecord);
    if (Object.hasOwn(kept.refunds, refund.refundId)) return;
    const next: RefundsRecord = { refunds: { ...kept.refunds, [refund.refundId]: { amount: refund.amount, currency: refund.currency } } };
    if (await store.setIfNewer(key, Object.keys(next.refunds).length, JSON.stringify(next), ORDER_RECORD_TTL_MS)) return;
  }
  // The webhook is answered 500 and brought again.
  throw new Error(`the refunds of ${refund.chargeId} kept changing while ${refund.refundId} was being added`);
}

/** What the refunds heard of for a payment add up to, in `currency`. */
async function refundedAmount(context: CheckoutContext, chargeId: string, currency: string): Promise<number> {
  const text = await context.store.get(refundsKey(chargeId));
  if (text === undefined) return 0;
  return Object.values((JSON.parse(text) as RefundsRecord).refunds).reduce((sum, refund) => (refund.currency === currency ? sum + refund.amount : sum), 0);
}

/** The attempt that made a payment: by its id; for a capture, its authorization's; for an API charge whose answer was lost, that attempt. */
async function attemptOf(context: CheckoutContext, payment: SucceededPayment): Promise<AttemptRecord | undefined> {
  const text = await context.store.get(attemptKey(payment.chargeId));
  if (text !== undefined) return JSON.parse(text) as AttemptRecord;
  if (payment.kind !== 'charge' || payment.source !== 'API') return undefined;
  const authorized = payment.sourceId ? await context.store.get(attemptKey(payment.sourceId)) : undefined;
  if (authorized !== undefined && payment.sourceId) {
    // A capture of an authorization the handler made: it settles the order's money.
    const authorization = JSON.parse(authorized) as AttemptRecord;
    if (authorization.kind !== 'authorization') return undefined;
    const capture: AttemptRecord = { ...authorization, kind: 'charge', captureOf: payment.sourceId };
    await context.store.set(attemptKey(payment.chargeId), JSON.stringify(capture), ORDER_RECORD_TTL_MS);
    return capture;
  }
  // An API charge of the order is the handler's only if one of its attempts lost its answer, for
  // that amount: the shop's own charges of the same order (from its back office) are not touched.
  if (!payment.referenceId) return undefined;
  const pending = await pendingOf(context, payment.referenceId);
  const attempt = pending.findLast((p) => payment.amount === undefined || p.amount === payment.amount);
  if (attempt === undefined) return undefined;
  await forgetPendingAttempt(context, { order: { referenceId: payment.referenceId, amount: attempt.amount, currency: attempt.currency }, attempt: attempt.attempt ?? '' });
  await context.store.set(attemptKey(payment.chargeId), JSON.stringify(attempt), ORDER_RECORD_TTL_MS);
  return attempt;
}
const leaseKey = (chargeId: string) => `settling:${chargeId}`;

/** The outcome already decided for a payment, without deciding it. */
export async function knownOutcome(context: CheckoutContext, chargeId: string): Promise<CheckoutOrderOutcome | undefined> {
  const text = await context.store.get(outcomeKey(chargeId));
  return text === undefined ? undefined : (JSON.parse(text) as OutcomeRecord).outcome;
}

/**
 * Decides (once) what a SUCCEEDED payment does for its order, carries it out (a refund, once,
 * under an idempotency key of its own) and tells `onOrder` (once). Undefined for a payment this
 * handler did not start (a payment link's, a capture's), or one not succeeded after all.
 *
 * `fromWebhook`: a failing `onOrder` is thrown (the service retries the webhook) instead of being
 * logged (a shopper's status read must not fail for the shop's bookkeeping; the next read or the
 * webhook tells it again).
 */
export async function settlePayment(
  context: CheckoutContext,
  payment: SucceededPayment,
  trigger: { call: HttpCall; fromWebhook: boolean },
): Promise<CheckoutOrderOutcome | undefined> {
  return context.settlements.run(payment.chargeId, () => settleLeased(context, payment, trigger));
}

async function settleLeased(context: CheckoutContext, payment: SucceededPayment, trigger: { call: HttpCall; fromWebhook: boolean }): Promise<CheckoutOrderOutcome | undefined> {
  const { store } = context;
  const attempt = await attemptOf(context, payment);
  if (attempt === undefined) return undefined;
  const known = await store.get(outcomeKey(payment.chargeId));
  if (known !== undefined && (JSON.parse(known) as OutcomeRecord).told) return (JSON.parse(known) as OutcomeRecord).outcome;

  const lease = leaseKey(payment.chargeId);
  const holder = crypto.randomUUID();
  const waitUntil = Date.now() + SETTLE_WAIT_MS;
  while (!(await store.setIfAbsent(lease, holder, SETTLE_LEASE_MS))) {
    // Another instance is settling it: its outcome is the one.
    const decided = await store.get(outcomeKey(payment.chargeId));
    if (decided !== undefined && (JSON.parse(decided) as OutcomeRecord).told) return (JSON.parse(decided) as OutcomeRecord).outcome;
    if (Date.now() > waitUntil || trigger.call.gone) {
      throw new CheckoutError(503, 'UPSTREAM_UNAVAILABLE', 'This payment is being confirmed. Please try again in a moment.', { retryable: true, headers: { 'retry-after': '1' } });
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
  try {
    const decided = await store.get(outcomeKey(payment.chargeId));
    let record = decided === undefined ? await decide(context, payment, attempt, trigger.call) : (JSON.parse(decided) as OutcomeRecord);
    if (record === undefined) return undefined;
    await keep(context, payment.chargeId, record);
    try {
      record = await undo(context, payment, record);
    } catch (error) {
      if (!(error instanceof UndoLater)) throw error;
      // A webhook is answered 503, so the service brings it again; a shopper's read is answered
      // with the outcome already decided, and the next read tries the refund again.
      if (trigger.fromWebhook) throw new CheckoutError(503, 'UPSTREAM_UNAVAILABLE', 'The refund of this payment could not be made yet; it will be retried.', { retryable: true, cause: error.cause });
      return record.outcome;
    }
    if (!record.told) record = await tell(context, payment.chargeId, attempt, record, trigger.fromWebhook);
    return record.outcome;
  } finally {
    // Only a lease still ours: past its expiry another instance may hold it now.
    if ((await store.get(lease)) === holder) await store.delete(lease);
  }
}

/** The outcome of a success: paid, a duplicate, a payment at a price the order no longer has, or not the approved amount. */
async function decide(context: CheckoutContext, payment: SucceededPayment, attempt: AttemptRecord, call: HttpCall): Promise<OutcomeRecord | undefined> {
  const taken = payment.amount !== undefined && payment.currency !== undefined ? { amount: payment.amount, currency: payment.currency } : await readPayment(context, payment, call);
  if (taken === undefined) return undefined;
  const base = { amount: taken.amount, currency: taken.currency, told: false };
  if (attempt.captureOf !== undefined) return decideCapture(context, attempt.captureOf, attempt, base, call);
  if (taken.amount !== attempt.amount || taken.currency !== attempt.currency) return { ...base, outcome: 'amount_mismatch' };
  const paidKey = paidByKey(attempt.referenceId);
  const paidBy = await context.store.get(paidKey);
  if (paidBy !== undefined && paidBy !== payment.chargeId && !(await releaseEndedAuthorization(context, paidBy, call))) {
    return { ...base, outcome: 'duplicate_refunded', refundReason: 'duplicate_refunded', paidBy };
  }
  const success: CheckoutOrderOutcome = payment.kind === 'authorization' ? 'authorized' : 'paid';
  if (paidBy === payment.chargeId) return { ...base, outcome: success };
  const order = await currentOrder(context, attempt, call);
  if (order?.amount !== attempt.amount || order.currency !== attempt.currency) {
    return { ...base, outcome: 'repriced_refunded', refundReason: 'repriced_refunded', orderAmount: order?.amount ?? null };
  }
  if (await context.store.setIfAbsent(paidKey, payment.chargeId, ORDER_RECORD_TTL_MS)) {
    await keepWithClaim(context, payment.chargeId, attempt);
    return { ...base, outcome: success };
  }
  const winner = (await context.store.get(paidKey)) ?? '';
  return winner === payment.chargeId ? { ...base, outcome: success } : { ...base, outcome: 'duplicate_refunded', refundReason: 'duplicate_refunded', paidBy: winner };
}

/**
 * Writes the payer's attempt and the page's reference to its order again, now that the order's
 * paid claim is written: a store pushes out its least recently written records first (and expires
 * each at its own time), so these last at least as long as the claim. A retry of the attempt that
 * paid (its answer lost, its lock and replay pushed out by a busy shop) then still finds its own
 * charge instead of hearing that the order is paid, or gone.
 */
async function keepWithClaim(context: CheckoutContext, chargeId: string, attempt: AttemptRecord): Promise<void> {
  await context.store.set(attemptKey(chargeId), JSON.stringify(attempt), ORDER_RECORD_TTL_MS);
  await context.store.set(referenceOfKey(attempt.orderReference), attempt.referenceId, ORDER_RECORD_TTL_MS);
}

/**
 * A capture pays the order once the authorization's captures add up to the whole approved amount
 * (one final capture, or the last of several); before that it is `partially_captured`. A capture
 * is the merchant's own act: it is never refunded here.
 */
async function decideCapture(
  context: CheckoutContext,
  cardAuthorizationId: string,
  attempt: AttemptRecord,
  base: Pick<OutcomeRecord, 'amount' | 'currency' | 'told'>,
  call: HttpCall,
): Promise<OutcomeRecord> {
  if (base.currency !== attempt.currency) return { ...base, outcome: 'amount_mismatch' };
  let captured: number;
  try {
    captured = (await context.client.cardAuthorizations.get(cardAuthorizationId, { signal: call.signal, deadlineMs: context.serviceDeadlineMs })).capturedAmount ?? 0;
  } catch (error) {
    throw upstreamRefusal(error);
  }
  return captured === attempt.amount ? { ...base, outcome: 'paid', capturedAmount: captured } : { ...base, outcome: 'partially_captured', capturedAmount: captured };
}

/** What the payment took, read from the service; undefined when it did not succeed after all. */
async function readPayment(context: CheckoutContext, payment: SucceededPayment, call: HttpCall): Promise<{ amount: number; currency: string } | undefined> {
  try {
    if (payment.kind === 'authorization') {
      const authorization = await context.client.cardAuthorizations.get(payment.chargeId, { signal: call.signal, deadlineMs: context.serviceDeadlineMs });
      return authorization.status === 'AUTHORIZED' || authorization.status === 'CAPTURED' ? { amount: authorization.amount, currency: authorization.currency } : undefined;
    }
    const charge = await context.client.charges.get(payment.chargeId, { signal: call.signal, deadlineMs: context.serviceDeadlineMs });
    return charge.status === 'SUCCEEDED' ? { amount: charge.amount, currency: charge.currency } : undefined;
  } catch (error) {
    throw upstreamRefusal(error);
  }
}

/** The order as the merchant prices it now; null when it can no longer be paid. */
async function currentOrder(context: CheckoutContext, attempt: AttemptRecord, call: HttpCall): Promise<ResolvedOrder | null> {
  try {
    return await resolveOrder(context.options, attempt.orderReference, call, 'confirm');
  } catch (error) {
    if (error instanceof CheckoutError && error.code === 'ORDER_NOT_FOUND') return null;
    throw error;
  }
}

/**
 * Refunds (a card authorization: cancels) a payment that must not stand, once: the idempotency key
 * is the payment's, so a retry on any instance makes the same refund. A refusal by the service is
 * final (`refund_failed`, for the merchant to settle by hand); a fault is thrown, to try again.
 */
async function undo(context: CheckoutContext, payment: SucceededPayment, record: OutcomeRecord): Promise<OutcomeRecord> {
  if (record.refundReason === undefined || record.refundId !== undefined || record.outcome === 'refund_failed') return record;
  // One key per try the service refused (it answers a key again as it did the first time, refusal
  // included); a fault keeps the key, since that refund may have been made.
  const tries = record.refundTries ?? 0;
  const idempotencyKey = `satang-refund-${payment.chargeId}${tries > 0 ? `-${tries}` : ''}`;
  let refundId: string;
  try {
    if (payment.kind === 'authorization') {
      await context.client.cardAuthorizations.cancel(payment.chargeId, { idempotencyKey, deadlineMs: context.serviceDeadlineMs });
      refundId = payment.chargeId;
    } else {
      const reason = record.refundReason === 'duplicate_refunded' ? 'the order was already paid' : 'the order changed after this payment started';
      refundId = (await context.client.refunds.create({ chargeId: payment.chargeId, reason }, { idempotencyKey, deadlineMs: context.serviceDeadlineMs })).refundId;
    }
  } catch (error) {
    if (error instanceof ServiceError && error.status === 409) {
      // Refunded in full already (by the shop, from its dashboard): nothing is left to undo.
      refundId = '';
      await keep(context, payment.chargeId, { ...record, refundId });
      return { ...record, refundId };
    }
    // A refund of the charge still pending (one at a time), or a fault: try again on the next news.
    if (error instanceof StateConflictError) {
      await keep(context, payment.chargeId, { ...record, refundTries: tries + 1 });
      throw new UndoLater(error);
    }
    if (!(error instanceof ServiceError) || error.retryable) throw new UndoLater(error);
    const failed: OutcomeRecord = { ...record, outcome: 'refund_failed', refundError: error.errorCode };
    await keep(context, payment.chargeId, failed);
    return failed;
  }
  const refunded = { ...record, refundId };
  await context.store.set(`auto-refund:${refundId}`, payment.chargeId, ORDER_RECORD_TTL_MS);
  await keep(context, payment.chargeId, refunded);
  return refunded;
}

/** Tells `onOrder` of the outcome, once it is carried out. */
async function tell(context: CheckoutContext, chargeId: string, attempt: AttemptRecord, record: OutcomeRecord, fromWebhook: boolean): Promise<OutcomeRecord> {
  const onOrder = context.options.onOrder;
  const told = { ...record, told: true };
  if (onOrder) {
    // Claimed before the call, so two instances (one past an expired lease) never both tell it;
    // in hand for a minute only, so a process dying in onOrder leaves it to the next news.
    const claim = `told:${chargeId}:${record.outcome}`;
    if (!(await context.store.setIfAbsent(claim, TELLING, TELL_IN_HAND_MS))) {
      if ((await context.store.get(claim)) !== TOLD) return record;
      await keep(context, chargeId, told);
      return told;
    }
    try {
      await onOrder(orderEvent(chargeId, attempt, record));
    } catch (error) {
      await context.store.delete(claim);
      if (fromWebhook) throw new CheckoutError(500, 'INTERNAL_ERROR', 'The order event could not be handled; it will be retried.', { retryable: true, cause: error });
      context.options.log?.({ method: 'EVENT', path: orderEventType(record.outcome), status: 500, durationMs: 0, chargeId, error });
      return record;
    }
    await context.store.set(claim, TOLD, ORDER_RECORD_TTL_MS);
  }
  await keep(context, chargeId, told);
  return told;
}

/**
 * A refund the handler made to undo a payment failed at the service after it was accepted: the
 * payment's outcome becomes `refund_failed`, and `onOrder` hears it. False when the refund is not
 * one of the handler's.
 */
export async function noteRefundFailed(context: CheckoutContext, refundId: string, errorCode: string): Promise<boolean> {
  const chargeId = await context.store.get(`auto-refund:${refundId}`);
  if (chargeId === undefined) return false;
  const [attemptText, outcomeText] = await Promise.all([context.store.get(attemptKey(chargeId)), context.store.get(outcomeKey(chargeId))]);
  if (attemptText === undefined || outcomeText === undefined) return false;
  const record = JSON.parse(outcomeText) as OutcomeRecord;
  if (record.outcome === 'refund_failed') return true;
  const failed: OutcomeRecord = { ...record, outcome: 'refund_failed', refundError: errorCode || 'REFUND_FAILED', told: false };
  await keep(context, chargeId, failed);
  await tell(context, chargeId, JSON.parse(attemptText) as AttemptRecord, failed, true);
  return true;
}

async function keep(context: CheckoutContext, chargeId: string, record: OutcomeRecord): Promise<void> {
  await context.store.set(outcomeKey(chargeId), JSON.stringify(record), ORDER_RECORD_TTL_MS);
}

function orderEvent(chargeId: string, attempt: AttemptRecord, record: OutcomeRecord): OrderEvent {
  const base = { referenceId: attempt.referenceId, orderReference: attempt.orderReference, chargeId, amount: record.amount, currency: record.currency };
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
      return { ...base, type: 'order.amount_mismatch', expectedAmount: attempt.amount, expectedCurrency: attempt.currency };
    case 'partially_captured':
      return { ...base, type: 'order.partially_captured', cardAuthorizationId: attempt.captureOf ?? '', capturedAmount: record.capturedAmount ?? 0, expectedAmount: attempt.amount };
    case 'refund_failed':
      return { ...base, type: 'order.refund_failed', reason: record.refundReason ?? 'duplicate_refunded', errorCode: record.refundError ?? '' };
  }
}
