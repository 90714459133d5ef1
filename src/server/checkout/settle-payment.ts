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
import type { ResolvedOrder } from './checkout-options.js';
import type { AttemptRecord, OutcomeRecord, RefundsRecord } from './checkout-records.js';
import { orderEventType, type OrderEvent } from './order-events.js';
import { takePendingAttempt } from './pending-attempts.js';
import { resolveOrder } from './resolve-order.js';
import type { PaymentOrder, StatusTokenKind } from './status-tokens.js';
import { serviceDeadlineMs } from './request-deadline.js';

/** How long a settlement waits for another instance settling the same payment. */
const SETTLE_WAIT_MS = 10_000;
const SETTLE_POLL_MS = 50;

/** A refund that cannot be made now but may be later: the same key is tried again on the next news of the payment. */
class RefundLater extends Error {
  constructor(cause: unknown) {
    super('the refund will be tried again', { cause });
    this.name = 'RefundLater';
  }
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
  /**
   * The order the payment's status token names (a shopper's status read): the handler signed that
   * token for this payment, so the payment is the checkout's even when the store no longer knows
   * it (an in-memory store restarted, or its records pushed out), and it is settled against that
   * order.
   */
  order?: PaymentOrder;
}

/** Most tries to add a refund to a payment's refunds when other instances keep adding theirs at the same time. */
const REFUND_NOTE_TRIES = 8;

/** Keeps which order a page's reference named, to tell a later visit of it that the order is paid. */
export async function rememberOrderReference(context: CheckoutContext, input: { order: ResolvedOrder; orderReference: string }): Promise<void> {
  await context.records.orderReference.set(input.orderReference, input.order.referenceId);
}

/**
 * The payment that paid the order a page names (its `orderReference`) through this handler, with
 * the attempt that made it when that is still known; undefined while the order is not paid.
 */
export async function paymentOfOrder(context: CheckoutContext, orderReference: string): Promise<{ chargeId: string; attempt: AttemptRecord | undefined } | undefined> {
  const referenceId = await referenceIdOf(context, orderReference);
  const chargeId = referenceId === undefined ? undefined : await payerOf(context, referenceId);
  if (chargeId === undefined) return undefined;
  return { chargeId, attempt: await context.records.attempt.get(chargeId) };
}

/** The order (`referenceId`) a page's reference named when it was last charged here; undefined for a reference never charged. */
export function referenceIdOf(context: CheckoutContext, orderReference: string): Promise<string | undefined> {
  return context.records.orderReference.get(orderReference);
}

/** The payment that paid the order `referenceId` (or, with the authorize intent, authorized it): one store read. */
export function payerOf(context: CheckoutContext, referenceId: string): Promise<string | undefined> {
  return context.records.paidBy.get(referenceId);
}

/** Card authorization statuses that hold no money any more: the order they held is free again. */
const ENDED_AUTHORIZATION_STATUSES: ReadonlySet<string> = new Set(['CANCELED', 'EXPIRED', 'FAILED']);
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
  const { records } = context;
  const attempt = await records.attempt.get(payerId);
  if (attempt?.kind !== 'authorization' || attempt.captureOf !== undefined) return false;
  let status: string;
  try {
    status = (await context.client.cardAuthorizations.get(payerId, { signal: call.signal, deadlineMs: serviceDeadlineMs(context, call) })).status;
  } catch (error) {
    throw upstreamRefusal(error);
  }
  if (!ENDED_AUTHORIZATION_STATUSES.has(status)) return false;
  const { referenceId } = attempt;
  if (await records.releaseMark.setIfAbsent(payerId, status)) {
    if ((await records.paidBy.get(referenceId)) === payerId) await records.paidBy.delete(referenceId);
    return true;
  }
  for (const until = Date.now() + RELEASE_WAIT_MS; Date.now() < until; ) {
    if ((await records.paidBy.get(referenceId)) !== payerId) return true;
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
  const attempt = await context.records.attempt.get(chargeId);
  const outcome = attempt?.kind === 'authorization' ? 'authorized' : 'paid';
  const refunded = attempt?.kind === 'charge' && (await refundedAmount(context, chargeId, attempt.currency)) >= attempt.amount;
  return { chargeId, outcome, refunded };
}

/**
 * Keeps a refund of a payment that succeeded (from its `refund.succeeded` webhook): whoever made it
 * (the shop from its dashboard or its own code, or this handler undoing a duplicate), so the order's
 * state can tell a paid order refunded in full since. Kept whether or not the payment is known to be
 * the handler's yet: a refund may be heard before its charge (the charge's answer lost, its
 * `charge.succeeded` delivered late), and the order it then pays reads refunded. Each refund is
 * counted once, however often it is heard of; refunds of one payment heard at the same time on
 * several instances are all kept (the record's version is their count, so a write that missed
 * another's is retried on top of it).
 */
export async function noteRefund(context: CheckoutContext, refund: { refundId: string; chargeId: string; amount: number; currency: string }): Promise<void> {
  const { records } = context;
  for (let tries = 0; tries < REFUND_NOTE_TRIES; tries++) {
    const kept = (await records.refunds.get(refund.chargeId)) ?? { refunds: {} };
    if (Object.hasOwn(kept.refunds, refund.refundId)) return;
    const next: RefundsRecord = { refunds: { ...kept.refunds, [refund.refundId]: { amount: refund.amount, currency: refund.currency } } };
    if (await records.refunds.setIfNewer(refund.chargeId, Object.keys(next.refunds).length, next)) return;
  }
  // The webhook is answered 500 and brought again.
  throw new Error(`the refunds of ${refund.chargeId} kept changing while ${refund.refundId} was being added`);
}

/** What the refunds heard of for a payment add up to, in `currency`. */
async function refundedAmount(context: CheckoutContext, chargeId: string, currency: string): Promise<number> {
  const kept = await context.records.refunds.get(chargeId);
  if (kept === undefined) return 0;
  return Object.values(kept.refunds).reduce((sum, refund) => (refund.currency === currency ? sum + refund.amount : sum), 0);
}

/** The attempt that made a payment: by its id; for a capture, its authorization's; for an API charge whose answer was lost, that attempt. */
async function attemptOfPayment(context: CheckoutContext, payment: SucceededPayment): Promise<AttemptRecord | undefined> {
  const { records } = context;
  const known = await records.attempt.get(payment.chargeId);
  if (known !== undefined) return known;
  if (payment.kind !== 'charge' || payment.source !== 'API') return undefined;
  const authorization = payment.sourceId ? await records.attempt.get(payment.sourceId) : undefined;
  if (authorization !== undefined && payment.sourceId) {
    // A capture of an authorization the handler made: it settles the order's money.
    if (authorization.kind !== 'authorization') return undefined;
    const capture: AttemptRecord = { ...authorization, kind: 'charge', captureOf: payment.sourceId };
    await records.attempt.set(payment.chargeId, capture);
    return capture;
  }
  // An API charge of the order is the handler's only if one of its attempts lost its answer, for
  // that amount: the shop's own charges of the same order (from its back office) are not touched.
  if (!payment.referenceId) return undefined;
  const attempt = await takePendingAttempt(context, payment.referenceId, payment.amount);
  if (attempt === undefined) return undefined;
  await records.attempt.set(payment.chargeId, attempt);
  return attempt;
}

/**
 * The attempt of a payment the store does not know, made up from the payment as the service holds
 * it and the order its status token names: the amount it took is the one to settle, and its order
 * decides (see {@link decideOutcome}: the order's payment if the order is still open at that
 * price, else refunded). Kept, so the next read finds it. Undefined when the payment did not
 * succeed after all, or names another order than its token (never, for a token this handler signed).
 */
async function adoptPayment(
  context: CheckoutContext,
  payment: SucceededPayment,
  order: PaymentOrder,
  call: HttpCall,
): Promise<{ attempt: AttemptRecord; amount: number; currency: string } | undefined> {
  const taken = await readPaymentTaken(context, payment, call);
  if (taken?.referenceId !== order.referenceId) return undefined;
  const attempt: AttemptRecord = {
    referenceId: order.referenceId,
    orderReference: order.orderReference,
    amount: taken.amount,
    currency: taken.currency,
    kind: payment.kind,
    paymentMethodType: taken.paymentMethodType,
    createdAtMs: Date.now(),
  };
  await context.records.attempt.set(payment.chargeId, attempt);
  return { attempt, amount: taken.amount, currency: taken.currency };
}

/** The outcome already decided for a payment, without deciding it. */
export async function knownOutcome(context: CheckoutContext, chargeId: string): Promise<CheckoutOrderOutcome | undefined> {
  return (await context.records.outcome.get(chargeId))?.outcome;
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

async function settleLeased(context: CheckoutContext, news: SucceededPayment, trigger: { call: HttpCall; fromWebhook: boolean }): Promise<CheckoutOrderOutcome | undefined> {
  const { records } = context;
  const { chargeId } = news;
  let payment = news;
  let attempt = await attemptOfPayment(context, payment);
  if (attempt === undefined && payment.order !== undefined) {
    const adopted = await adoptPayment(context, payment, payment.order, trigger.call);
    if (adopted === undefined) return undefined;
    attempt = adopted.attempt;
    payment = { ...payment, amount: adopted.amount, currency: adopted.currency };
  }
  if (attempt === undefined) return undefined;
  const known = await records.outcome.get(chargeId);
  if (known?.told) return known.outcome;

  const holder = crypto.randomUUID();
  const waitUntil = Date.now() + SETTLE_WAIT_MS;
  while (!(await records.settleLease.setIfAbsent(chargeId, holder))) {
    // Another instance is settling it: its outcome is the one.
    const decided = await records.outcome.get(chargeId);
    if (decided?.told) return decided.outcome;
    if (Date.now() > waitUntil || trigger.call.gone) {
      throw new CheckoutError(503, 'UPSTREAM_UNAVAILABLE', 'This payment is being confirmed. Please try again in a moment.', { retryable: true, headers: { 'retry-after': '1' } });
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
  try {
    let record = (await records.outcome.get(chargeId)) ?? (await decideOutcome(context, payment, attempt, trigger.call));
    if (record === undefined) return undefined;
    await records.outcome.set(chargeId, record);
    try {
      record = await refundUnwantedPayment(context, payment, record);
    } catch (error) {
      if (!(error instanceof RefundLater)) throw error;
      // A webhook is answered 503, so the service brings it again; a shopper's read is answered
      // with the outcome already decided, and the next read tries the refund again.
      if (trigger.fromWebhook) throw new CheckoutError(503, 'UPSTREAM_UNAVAILABLE', 'The refund of this payment could not be made yet; it will be retried.', { retryable: true, cause: error.cause });
      return record.outcome;
    }
    if (!record.told) record = await tellOnOrder(context, chargeId, attempt, record, trigger.fromWebhook);
    return record.outcome;
  } finally {
    // Only a lease still ours: past its expiry another instance may hold it now.
    if ((await records.settleLease.get(chargeId)) === holder) await records.settleLease.delete(chargeId);
  }
}

/** The outcome of a success: paid, a duplicate, a payment at a price the order no longer has, or not the approved amount. */
async function decideOutcome(context: CheckoutContext, payment: SucceededPayment, attempt: AttemptRecord, call: HttpCall): Promise<OutcomeRecord | undefined> {
  const taken = payment.amount !== undefined && payment.currency !== undefined ? { amount: payment.amount, currency: payment.currency } : await readAmountTaken(context, payment, call);
  if (taken === undefined) return undefined;
  const base = { amount: taken.amount, currency: taken.currency, told: false };
  if (attempt.captureOf !== undefined) return decideCapture(context, attempt.captureOf, attempt, base, call);
  if (taken.amount !== attempt.amount || taken.currency !== attempt.currency) return { ...base, outcome: 'amount_mismatch' };
  const { records } = context;
  const { referenceId } = attempt;
  const paidBy = await records.paidBy.get(referenceId);
  if (paidBy !== undefined && paidBy !== payment.chargeId && !(await releaseEndedAuthorization(context, paidBy, call))) {
    return { ...base, outcome: 'duplicate_refunded', refundReason: 'duplicate_refunded', paidBy };
  }
  const success: CheckoutOrderOutcome = payment.kind === 'authorization' ? 'authorized' : 'paid';
  if (paidBy === payment.chargeId) return { ...base, outcome: success };
  const order = await currentOrder(context, attempt, call);
  if (order?.amount !== attempt.amount || order.currency !== attempt.currency) {
    return { ...base, outcome: 'repriced_refunded', refundReason: 'repriced_refunded', orderAmount: order?.amount ?? null };
  }
  if (await records.paidBy.setIfAbsent(referenceId, payment.chargeId)) {
    await rewriteBesideClaim(context, payment.chargeId, attempt);
    return { ...base, outcome: success };
  }
  const winner = (await records.paidBy.get(referenceId)) ?? '';
  return winner === payment.chargeId ? { ...base, outcome: success } : { ...base, outcome: 'duplicate_refunded', refundReason: 'duplicate_refunded', paidBy: winner };
}

/**
 * Writes the payer's attempt and the page's reference to its order again, now that the order's
 * paid claim is written: a store pushes out its least recently written records first (and expires
 * each at its own time), so these last at least as long as the claim. A retry of the attempt that
 * paid (its answer lost, its lock and replay pushed out by a busy shop) then still finds its own
 * charge instead of hearing that the order is paid, or gone.
 */
async function rewriteBesideClaim(context: CheckoutContext, chargeId: string, attempt: AttemptRecord): Promise<void> {
  await context.records.attempt.set(chargeId, attempt);
  await context.records.orderReference.set(attempt.orderReference, attempt.referenceId);
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
    captured = (await context.client.cardAuthorizations.get(cardAuthorizationId, { signal: call.signal, deadlineMs: serviceDeadlineMs(context, call) })).capturedAmount ?? 0;
  } catch (error) {
    throw upstreamRefusal(error);
  }
  return captured === attempt.amount ? { ...base, outcome: 'paid', capturedAmount: captured } : { ...base, outcome: 'partially_captured', capturedAmount: captured };
}

/** What the payment took, read from the service; undefined when it did not succeed after all. */
async function readAmountTaken(context: CheckoutContext, payment: SucceededPayment, call: HttpCall): Promise<{ amount: number; currency: string } | undefined> {
  const taken = await readPaymentTaken(context, payment, call);
  return taken && { amount: taken.amount, currency: taken.currency };
}

/** The payment as the service holds it, once it succeeded (an authorization: AUTHORIZED or CAPTURED); undefined otherwise. */
async function readPaymentTaken(
  context: CheckoutContext,
  payment: SucceededPayment,
  call: HttpCall,
): Promise<{ amount: number; currency: string; referenceId: string; paymentMethodType: string } | undefined> {
  const options = { signal: call.signal, deadlineMs: serviceDeadlineMs(context, call) };
  try {
    if (payment.kind === 'authorization') {
      const authorization = await context.client.cardAuthorizations.get(payment.chargeId, options);
      if (authorization.status !== 'AUTHORIZED' && authorization.status !== 'CAPTURED') return undefined;
      const { amount, currency, referenceId, paymentMethod } = authorization;
      return { amount, currency, referenceId: referenceId ?? '', paymentMethodType: paymentMethod?.paymentMethodType ?? 'CARD_TOKEN' };
    }
    const charge = await context.client.charges.get(payment.chargeId, options);
    if (charge.status !== 'SUCCEEDED') return undefined;
    return { amount: charge.amount, currency: charge.currency, referenceId: charge.referenceId ?? '', paymentMethodType: charge.paymentMethod.paymentMethodType };
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
async function refundUnwantedPayment(context: CheckoutContext, payment: SucceededPayment, record: OutcomeRecord): Promise<OutcomeRecord> {
  const { records } = context;
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
      await records.outcome.set(payment.chargeId, { ...record, refundId });
      return { ...record, refundId };
    }
    if (payment.kind === 'authorization' && error instanceof StateConflictError && (await authorizationEnded(context, payment.chargeId))) {
      // Canceled or expired already (by the shop, or by time): nothing is held any more, as a cancel would leave it.
      return carriedOut(context, payment, record, payment.chargeId);
    }
    // A refund of the charge still pending (one at a time), or a fault: try again on the next news.
    if (error instanceof StateConflictError) {
      await records.outcome.set(payment.chargeId, { ...record, refundTries: tries + 1 });
      throw new RefundLater(error);
    }
    if (!(error instanceof ServiceError) || error.retryable) throw new RefundLater(error);
    const failed: OutcomeRecord = { ...record, outcome: 'refund_failed', refundError: error.errorCode };
    await records.outcome.set(payment.chargeId, failed);
    return failed;
  }
  return carriedOut(context, payment, record, refundId);
}

/** The refund (or cancel) `refundId` undid the payment: kept with its outcome, and as the handler's own. */
async function carriedOut(context: CheckoutContext, payment: SucceededPayment, record: OutcomeRecord, refundId: string): Promise<OutcomeRecord> {
  const refunded = { ...record, refundId };
  await context.records.autoRefund.set(refundId, payment.chargeId);
  await context.records.outcome.set(payment.chargeId, refunded);
  return refunded;
}

/** Whether the card authorization no longer holds money (canceled, expired, failed), as the service says now; a fault is tried again later. */
async function authorizationEnded(context: CheckoutContext, cardAuthorizationId: string): Promise<boolean> {
  try {
    const { status } = await context.client.cardAuthorizations.get(cardAuthorizationId, { deadlineMs: context.serviceDeadlineMs });
    return ENDED_AUTHORIZATION_STATUSES.has(status);
  } catch (error) {
    throw new RefundLater(error);
  }
}

/** Tells `onOrder` of the outcome, once it is carried out. */
async function tellOnOrder(context: CheckoutContext, chargeId: string, attempt: AttemptRecord, record: OutcomeRecord, fromWebhook: boolean): Promise<OutcomeRecord> {
  const { records } = context;
  const onOrder = context.options.onOrder;
  const told = { ...record, told: true };
  if (onOrder) {
    // Claimed before the call, so two instances (one past an expired lease) never both tell it;
    // in hand for a minute only, so a process dying in onOrder leaves it to the next news.
    const claim = { chargeId, outcome: record.outcome };
    if (!(await records.told.setIfAbsent(claim, 'telling'))) {
      if ((await records.told.get(claim)) !== 'told') return record;
      await records.outcome.set(chargeId, told);
      return told;
    }
    try {
      await onOrder(orderEvent(chargeId, attempt, record));
    } catch (error) {
      await records.told.delete(claim);
      if (fromWebhook) throw new CheckoutError(500, 'INTERNAL_ERROR', 'The order event could not be handled; it will be retried.', { retryable: true, cause: error });
      context.options.log?.({ method: 'EVENT', path: orderEventType(record.outcome), status: 500, durationMs: 0, chargeId, error });
      return record;
    }
    await records.told.set(claim, 'told');
  }
  await records.outcome.set(chargeId, told);
  return told;
}

/**
 * A refund the handler made to undo a payment failed at the service after it was accepted: the
 * payment's outcome becomes `refund_failed`, and `onOrder` hears it. False when the refund is not
 * one of the handler's.
 */
export async function noteRefundFailed(context: CheckoutContext, refundId: string, errorCode: string): Promise<boolean> {
  const { records } = context;
  const chargeId = await records.autoRefund.get(refundId);
  if (chargeId === undefined) return false;
  const [attempt, record] = await Promise.all([records.attempt.get(chargeId), records.outcome.get(chargeId)]);
  if (attempt === undefined || record === undefined) return false;
  if (record.outcome === 'refund_failed') return true;
  const failed: OutcomeRecord = { ...record, outcome: 'refund_failed', refundError: errorCode || 'REFUND_FAILED', told: false };
  await records.outcome.set(chargeId, failed);
  await tellOnOrder(context, chargeId, attempt, failed, true);
  return true;
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
