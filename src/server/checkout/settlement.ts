/**
 * Settling a payment's news against its order: what a decision of `payment-decisions.ts` needs to
 * know is learnt here (what the payment took, the order's price now, an authorization's captures
 * or status), the step is taken on the order's record (`order-book.ts`), and the effects the
 * record says are owed run after it: a refund (one idempotency key per payment and try, so a retry
 * on any instance makes the same refund) and `onOrder` (claimed in the record, so two instances
 * never tell it at once). Runs wherever a success is learnt: a webhook, a status read, a slip, or
 * a second attempt finding the first one's payment.
 */

import type { HttpCall } from '../../core/http-call.js';
import type { CardAuthorization } from '../../core/schemas/card-authorization.js';
import type { Charge } from '../../core/schemas/charge.js';
import type { CheckoutOrderOutcome, CheckoutStatusResponse } from '../../core/schemas/checkout.js';
import { ServiceError, StateConflictError } from '../errors.js';
import type { CheckoutContext } from './checkout-context.js';
import { CheckoutError, upstreamRefusal } from './checkout-error.js';
import { ENDED_AUTHORIZATION_STATUSES, releaseIfEnded, type Facts, type Need } from './order-decisions.js';
import { orderEventType } from './order-events.js';
import { legacyPayer, legacyPayment, readOrder, rememberOrderReference, simpleStep, step } from './order-book.js';
import type { OrderRecord } from './order-record.js';
import {
  decideHeard,
  decideRefundFailed,
  decideRefundHeard,
  decideRefundResult,
  decideSuccess,
  decideTellClaim,
  decideTold,
  owedEffects,
  CLOCK_ALLOWANCE_MS,
  type Effect,
  type RefundResult,
  type SuccessFacts,
  type SuccessNeed,
  type SuccessNews,
} from './payment-decisions.js';
import { askOrder } from './resolve-order.js';
import { serviceDeadlineMs } from './request-deadline.js';
import { limitStatusRead, pendingStatus, readStatus, type StatusReadLimits } from './status-cache.js';
import type { PaymentOrder, StatusTokenKind } from './status-tokens.js';

/** How long `onOrder` may be in hand for one event before another instance may tell it. */
export const TELL_IN_HAND_MS = 60_000;

/** How long after its page's reference was written a payment's success leaves it as it is (see `settlePayment`). */
export const REFERENCE_FRESH_MS = 15 * 60 * 1000;

/** Who settles what: a webhook's failures are thrown (the service brings it again), a shopper's read is answered with what is decided. */
export interface SettleTrigger {
  call: HttpCall;
  fromWebhook: boolean;
  /** The order's record as read just before (by the webhook ledger), to spare a read. */
  known?: OrderRecord;
  /**
   * A webhook whose state its payment's entry keeps: `onOrder` told is not recorded at once but
   * left here, with the record as settling left it, and written with the webhook's state once
   * `onEvent` heard it (`recordWebhookHandled`), in one step.
   */
  later?: WebhookLater;
}

/** What a webhook's settling leaves to its last step (see {@link SettleTrigger.later}). */
export interface WebhookLater {
  order?: OrderRecord;
  /** `onOrder` heard the payment's outcome under this claim. */
  told?: { chargeId: string; holder: string; outcome: CheckoutOrderOutcome };
}

/**
 * Decides (once) what a SUCCEEDED payment does for its order, carries it out and tells `onOrder`.
 * The order is the one its status token names (`news.order`), else its `referenceId`. Undefined for
 * a payment this handler did not start, or one not succeeded after all.
 */
export async function settlePayment(context: CheckoutContext, news: SuccessNews, trigger: SettleTrigger): Promise<CheckoutOrderOutcome | undefined> {
  const referenceId = news.order?.referenceId ?? news.referenceId;
  if (referenceId === undefined || referenceId === '') return undefined;
  return context.settlements.run(news.chargeId, async () => {
    const known = trigger.known?.referenceId === referenceId ? trigger.known : await readOrder(context, referenceId);
    const facts: SuccessFacts = {};
    if (known.payments[news.chargeId] === undefined) {
      // A payment of the version before, still open at the upgrade.
      const legacy = await legacyPayment(context, news.chargeId, referenceId);
      if (legacy) facts.legacy = { [news.chargeId]: legacy };
    }
    const holder = crypto.randomUUID();
    const nowMs = Date.now();
    const { order, result } = await step<SuccessNeed, CheckoutOrderOutcome | undefined, SuccessFacts>(
      context,
      referenceId,
      (record, learnt) => {
        const decided = decideSuccess(record, news, learnt, nowMs);
        if ('need' in decided || decided.result === undefined) return decided;
        // Nothing to refund: the event for onOrder is claimed in the same step.
        const after = decided.order ?? record;
        const claimed = owedEffects(after, news.chargeId)[0]?.type === 'tell' ? decideTellClaim(after, news.chargeId, holder, nowMs, nowMs + TELL_IN_HAND_MS) : undefined;
        return { order: claimed ?? decided.order, result: decided.result };
      },
      (need, learnt) => learnForSuccess(context, referenceId, need, learnt, trigger.call),
      facts,
      known,
    );
    if (result === undefined) return undefined;
    const payer = order.paidBy === news.chargeId && known.paidBy !== news.chargeId ? order.payments[news.chargeId] : undefined;
    // Written again beside the order's record once it is paid, so a store that pushes out its least
    // recently written entries first keeps the way from the page to the paid order as long as the
    // order; unless its own attempt wrote it moments ago (then it goes at most that much sooner).
    const fresh = payer?.referenceKeptAtMs !== undefined && Date.now() - payer.referenceKeptAtMs < REFERENCE_FRESH_MS;
    if (payer && !fresh) await rememberOrderReference(context, payer.orderReference, referenceId);
    const settled = await runEffects(context, order, news.chargeId, trigger, holder);
    if (trigger.later) trigger.later.order = settled;
    if (payer) await announceOrderPaid(context, settled, news.chargeId);
    return settled.payments[news.chargeId]?.outcome?.outcome ?? result;
  });
}

/**
 * Wakes the long-polls of the order's other payments still open (a QR shown in another tab or on
 * another device, a bank page left): they answer `order: 'paid'` now rather than at the end of
 * their wait. Lost only if the store cannot publish; then they still hear it when their wait ends.
 */
async function announceOrderPaid(context: CheckoutContext, order: OrderRecord, payerId: string): Promise<void> {
  const open = Object.entries(order.payments).filter(([chargeId, entry]) => chargeId !== payerId && entry.outcome === undefined);
  await Promise.all(open.map(([chargeId]) => context.records.statusChannel.announce(chargeId, ORDER_PAID_NEWS).catch(() => undefined)));
}

/** What a payment's channel carries when another payment paid its order (its listeners read no more than that there is news). */
const ORDER_PAID_NEWS = 'ORDER_PAID';

/** Learns what a success's decision needs. */
async function learnForSuccess(context: CheckoutContext, referenceId: string, need: SuccessNeed, facts: SuccessFacts, call: HttpCall): Promise<void> {
  const options = { signal: call.signal, deadlineMs: serviceDeadlineMs(context, call) };
  try {
    switch (need.need) {
      case 'taken': {
        facts.taken = { ...facts.taken, [need.chargeId]: await readPaymentTaken(context, need.chargeId, need.kind, options) };
        return;
      }
      case 'price': {
        facts.price = { ...facts.price, [need.orderReference]: await currentPrice(context, need.orderReference, call) };
        return;
      }
      case 'captured': {
        const authorization = await context.client.cardAuthorizations.get(need.authorizationId, options);
        facts.captured = { ...facts.captured, [need.authorizationId]: authorization.capturedAmount ?? 0 };
        return;
      }
      case 'authorization-status':
        await learnAuthorizationStatus(context, need.chargeId, facts, call);
        return;
      case 'legacy-payer':
        facts.legacyPayer = await legacyPayer(context, referenceId);
        return;
      case 'first-success':
        facts.firstSuccess = await firstSuccess(context, referenceId, options);
        return;
      case 'open-payment':
        throw new Error('a success never asks where an open payment stands');
    }
  } catch (error) {
    if (error instanceof CheckoutError) throw error;
    throw upstreamRefusal(error);
  }
}

/** An authorization's status at the service, for a decision that must know whether it still holds money. */
export async function learnAuthorizationStatus(context: CheckoutContext, chargeId: string, facts: Facts, call: HttpCall): Promise<void> {
  try {
    const { status } = await context.client.cardAuthorizations.get(chargeId, { signal: call.signal, deadlineMs: serviceDeadlineMs(context, call) });
    facts.authorizationStatus = { ...facts.authorizationStatus, [chargeId]: status };
  } catch (error) {
    throw upstreamRefusal(error);
  }
}

/** The payment as the service holds it, once it succeeded (an authorization: AUTHORIZED or CAPTURED); null otherwise. */
async function readPaymentTaken(context: CheckoutContext, chargeId: string, kind: StatusTokenKind, options: { signal: AbortSignal | undefined; deadlineMs: number }) {
  if (kind === 'authorization') {
    const authorization = await context.client.cardAuthorizations.get(chargeId, options);
    if (authorization.status !== 'AUTHORIZED' && authorization.status !== 'CAPTURED') return null;
    const { amount, currency, referenceId, paymentMethod } = authorization;
    return { amount, currency, referenceId: referenceId ?? '', paymentMethodType: paymentMethod?.paymentMethodType ?? 'CARD_TOKEN' };
  }
  const charge = await context.client.charges.get(chargeId, options);
  if (charge.status !== 'SUCCEEDED') return null;
  return { amount: charge.amount, currency: charge.currency, referenceId: charge.referenceId ?? '', paymentMethodType: charge.paymentMethod.paymentMethodType };
}

/** Most charges of one order read at the service. */
const ORDER_CHARGES_SCAN = 100;
/** Most card authorizations read for one whose answer was lost (the service lists them by no order). */
const AUTHORIZATIONS_SCAN = 1_000;

/** The order's API charges at the service (captures of an authorization apart): the ones a checkout's attempts make. */
async function checkoutChargesOf(context: CheckoutContext, referenceId: string, options: { signal: AbortSignal | undefined; deadlineMs: number }): Promise<Charge[]> {
  const charges: Charge[] = [];
  let seen = 0;
  for await (const charge of context.client.charges.iterate({ referenceId }, options)) {
    if (charge.source === 'API' && !charge.sourceId) charges.push(charge);
    if (++seen >= ORDER_CHARGES_SCAN) break;
  }
  return charges;
}

/** The first to succeed first (the earlier id first at one time): `at` is when each succeeded. */
function bySuccess<T extends { chargeId: string; at: number }>(payments: T[]): T[] {
  return payments.sort((a, b) => a.at - b.at || (a.chargeId < b.chargeId ? -1 : 1));
}

/** The charges that succeeded, with when each did. */
function successesOf(charges: Charge[]): (Charge & { at: number })[] {
  return charges.filter((charge) => charge.status === 'SUCCEEDED').map((charge) => ({ ...charge, at: succeededAt(charge) }));
}

/**
 * The order's card authorizations at the service that hold (or took) money, made since `sinceMs`.
 * The service lists them by no order and filters them by no `referenceId`: listed newest first, as
 * the sandbox lists them, the read stops at the first one older; in any other order, at
 * {@link AUTHORIZATIONS_SCAN}.
 */
async function authorizationsSince(context: CheckoutContext, referenceId: string, sinceMs: number, options: { signal: AbortSignal | undefined; deadlineMs: number }): Promise<CardAuthorization[]> {
  const found: CardAuthorization[] = [];
  let seen = 0;
  let newestFirst = true;
  let previous = Number.POSITIVE_INFINITY;
  for await (const authorization of context.client.cardAuthorizations.iterate({}, options)) {
    const madeAt = Date.parse(authorization.createdAt);
    newestFirst &&= madeAt <= previous;
    previous = madeAt;
    if ((newestFirst && madeAt < sinceMs) || ++seen > AUTHORIZATIONS_SCAN) break;
    if (authorization.referenceId === referenceId && (authorization.status === 'AUTHORIZED' || authorization.status === 'CAPTURED')) found.push(authorization);
  }
  return found;
}

/**
 * The order's first succeeded API charge at the service (captures of an authorization apart), by
 * when it succeeded (its `transactionTime`; its `createdAt` only where the service gives none): a QR
 * code made before a card payment but paid after it did not pay the order first. Only a success at
 * the price of the order's newest charge counts, where one is: every attempt is priced when it is
 * made, so a success at an older price was refunded as repriced, or will be. null when the order
 * has no success.
 */
async function firstSuccess(context: CheckoutContext, referenceId: string, options: { signal: AbortSignal | undefined; deadlineMs: number }): Promise<string | null> {
  const charges = await checkoutChargesOf(context, referenceId, options);
  const newest = charges.reduce<Charge | undefined>((last, charge) => (last === undefined || Date.parse(charge.createdAt) > Date.parse(last.createdAt) ? charge : last), undefined);
  const successes = bySuccess(successesOf(charges));
  const atPrice = successes.filter((c) => c.amount === newest?.amount && c.currency === newest.currency);
  return (atPrice[0] ?? successes[0])?.chargeId ?? null;
}

/**
 * Settles the order's payments that succeeded without its record knowing of them: the API charges
 * and card authorizations of attempts whose answers were lost, which a webhook would settle, but
 * none may come (none set up, or late). Each pays (or holds) the order if it is still open at its
 * price, and is refunded (cancelled) otherwise, the first to succeed first. The service lists card
 * authorizations by no order: they are read, only while an authorization's answer is lost, back to
 * the first such attempt's start (newest first), at most {@link AUTHORIZATIONS_SCAN} of them.
 */
export async function settleLostCharges(context: CheckoutContext, referenceId: string, call: HttpCall): Promise<true> {
  const { payments, pending } = await readOrder(context, referenceId);
  const options = { signal: call.signal, deadlineMs: serviceDeadlineMs(context, call) };
  const lost: (SuccessNews & { at: number })[] = [];
  try {
    if (pending.some((p) => p.kind === undefined)) {
      for (const { chargeId, amount, currency, source, createdAt, at } of successesOf(await checkoutChargesOf(context, referenceId, options))) {
        lost.push({ chargeId, kind: 'charge', amount, currency, referenceId, source, createdAt, at });
      }
    }
    const lostAuthorizations = pending.filter((p) => p.kind === 'authorization');
    if (lostAuthorizations.length > 0) {
      // Made after the first of them started, the clocks apart.
      const sinceMs = Math.min(...lostAuthorizations.map((p) => p.createdAtMs)) - CLOCK_ALLOWANCE_MS;
      for (const { cardAuthorizationId, amount, currency, createdAt, authorizedAt } of await authorizationsSince(context, referenceId, sinceMs, options)) {
        lost.push({ chargeId: cardAuthorizationId, kind: 'authorization', amount, currency, referenceId, createdAt, at: succeededAt({ transactionTime: authorizedAt, createdAt }) });
      }
    }
  } catch (error) {
    throw upstreamRefusal(error);
  }
  // The first to succeed first: it is the one that would have paid the order.
  for (const { at: _at, ...news } of bySuccess(lost)) {
    if (payments[news.chargeId] === undefined) await settlePayment(context, news, { call, fromWebhook: false });
  }
  return true;
}

/** When a charge succeeded: its `transactionTime`, its `createdAt` where the service gives none. */
function succeededAt(charge: { transactionTime?: string | null | undefined; createdAt: string }): number {
  const at = charge.transactionTime ? Date.parse(charge.transactionTime) : Number.NaN;
  return Number.isNaN(at) ? Date.parse(charge.createdAt) : at;
}

/** The order's price as the merchant sets it now, or the payment it says paid it; null when it can no longer be paid. */
async function currentPrice(context: CheckoutContext, orderReference: string, call: HttpCall): Promise<{ amount: number; currency: string } | { paidBy: string } | null> {
  try {
    const order = await askOrder(context.options, orderReference, call, 'confirm');
    return 'paidBy' in order ? { paidBy: order.paidBy } : { amount: order.amount, currency: order.currency };
  } catch (error) {
    if (error instanceof CheckoutError && error.code === 'ORDER_NOT_FOUND') return null;
    throw error;
  }
}

/** A refund that cannot be made now but may be later: tried again on the next news of the order. */
class RefundLater extends Error {
  constructor(cause: unknown) {
    super('the refund will be tried again', { cause });
    this.name = 'RefundLater';
  }
}

/** Most effects run for one news: a refund, then its event. */
const MOST_EFFECTS = 4;

/**
 * Runs what the record says is owed for the payment `chargeId`, each result one step on the
 * record; the record as it is after them. A refund that must wait is answered 503 to a webhook
 * (brought again) and left for the next news otherwise.
 */
async function runEffects(context: CheckoutContext, known: OrderRecord, chargeId: string, trigger: SettleTrigger, holder: string): Promise<OrderRecord> {
  let order = known;
  for (let ran = 0; ran < MOST_EFFECTS; ran++) {
    const effect = owedEffects(order, chargeId)[0];
    if (effect === undefined) return order;
    if (effect.type === 'refund') {
      let result: RefundResult;
      try {
        result = await makeRefund(context, effect);
      } catch (error) {
        if (!(error instanceof RefundLater)) throw error;
        if (trigger.fromWebhook) throw new CheckoutError(503, 'UPSTREAM_UNAVAILABLE', 'The refund of this payment could not be made yet; it will be retried.', { retryable: true, cause: error.cause });
        return order;
      }
      order = (await simpleStep(context, order.referenceId, (record) => ({ order: decideRefundResult(record, chargeId, result), result: undefined }), order)).order;
      if ('refusedForNow' in result) {
        if (trigger.fromWebhook) throw new CheckoutError(503, 'UPSTREAM_UNAVAILABLE', 'The refund of this payment could not be made yet; it will be retried.', { retryable: true });
        return order;
      }
    } else {
      const told = await tell(context, order, effect, trigger, holder);
      if (told.kind === 'held' && trigger.fromWebhook) {
        // Another holder has it in hand (an instance telling it now, or one that died doing so, or
        // this one's own claim whose write went unanswered): acknowledged now, the event might
        // never be told. Brought again once the claim has lapsed, the webhook tells it then.
        const waitS = Math.max(1, Math.ceil((told.untilMs - Date.now()) / 1000));
        throw new CheckoutError(503, 'UPSTREAM_UNAVAILABLE', 'The order event of this payment is in the hands of another holder; send the webhook again once it lapses.', { retryable: true, headers: { 'retry-after': String(waitS) } });
      }
      if (told.kind !== 'told') return order;
      order = told.order;
    }
  }
  return order;
}

/** What became of an `onOrder` event to tell: told (the record after), left to the webhook's last step, in another holder's hands (until when), or failed on a shopper's read. */
type TellResult = { kind: 'told'; order: OrderRecord } | { kind: 'later' } | { kind: 'held'; untilMs: number } | { kind: 'failed' };

/**
 * Refunds (a card authorization: cancels) a payment that must not stand. A refusal by the service
 * is final (`refund_failed`, for the merchant to settle by hand); a fault is a {@link RefundLater}.
 */
async function makeRefund(context: CheckoutContext, effect: Extract<Effect, { type: 'refund' }>): Promise<RefundResult> {
  const { chargeId, idempotencyKey } = effect;
  const options = { idempotencyKey, deadlineMs: context.serviceDeadlineMs };
  try {
    if (effect.kind === 'authorization') {
      await context.client.cardAuthorizations.cancel(chargeId, options);
      return { made: chargeId };
    }
    const reason = effect.reason === 'duplicate_refunded' ? 'the order was already paid' : 'the order changed after this payment started';
    return { made: (await context.client.refunds.create({ chargeId, reason }, options)).refundId };
  } catch (error) {
    // Refunded in full already (by the shop, from its dashboard): nothing is left to undo.
    if (error instanceof ServiceError && error.status === 409) return { made: '' };
    // Canceled or expired already (by the shop, or by time): nothing is held any more, as a cancel would leave it.
    if (effect.kind === 'authorization' && error instanceof StateConflictError && (await authorizationEnded(context, chargeId))) return { made: chargeId };
    // A refund of the charge still pending (one at a time): the next try gets a key of its own.
    if (error instanceof StateConflictError) return { refusedForNow: true };
    if (!(error instanceof ServiceError) || error.retryable) throw new RefundLater(error);
    return { failed: error.errorCode };
  }
}

/** Whether the card authorization no longer holds money, as the service says now; a fault is tried again later. */
async function authorizationEnded(context: CheckoutContext, cardAuthorizationId: string): Promise<boolean> {
  try {
    const { status } = await context.client.cardAuthorizations.get(cardAuthorizationId, { deadlineMs: context.serviceDeadlineMs });
    return ENDED_AUTHORIZATION_STATUSES.has(status);
  } catch (error) {
    throw new RefundLater(error);
  }
}

/**
 * Tells `onOrder` of the outcome, under the claim `holder` took in the record (taken here when the
 * settling step did not). Undefined when another instance holds the claim; the record after it
 * otherwise. A failing `onOrder` lets the claim go: a webhook is answered 500 (brought again), a
 * shopper's read only logs it (the next news tells it again).
 */
async function tell(context: CheckoutContext, known: OrderRecord, effect: Extract<Effect, { type: 'tell' }>, trigger: SettleTrigger, holder: string): Promise<TellResult> {
  const { chargeId, event } = effect;
  const outcome = known.payments[chargeId]?.outcome?.outcome;
  if (outcome === undefined) return { kind: 'failed' };
  let order = known;
  if (order.payments[chargeId]?.telling?.holder !== holder) {
    const nowMs = Date.now();
    const claimed = await simpleStep(
      context,
      order.referenceId,
      (record) => {
        const next = decideTellClaim(record, chargeId, holder, nowMs, nowMs + TELL_IN_HAND_MS);
        return { order: next, result: next !== undefined };
      },
      order,
    );
    if (!claimed.result) {
      const entry = claimed.order.payments[chargeId];
      // Told meanwhile (by the holder): nothing is owed any more.
      if (entry?.outcome?.told !== false) return { kind: 'told', order: claimed.order };
      return { kind: 'held', untilMs: entry.telling?.untilMs ?? nowMs + TELL_IN_HAND_MS };
    }
    order = claimed.order;
  }
  let told = true;
  try {
    await context.options.onOrder?.(event);
  } catch (error) {
    told = false;
    if (trigger.fromWebhook) {
      await simpleStep(context, order.referenceId, (record) => ({ order: decideTold(record, chargeId, holder, outcome, false), result: undefined }), order);
      throw new CheckoutError(500, 'INTERNAL_ERROR', 'The order event could not be handled; it will be retried.', { retryable: true, cause: error });
    }
    context.options.log?.({ method: 'EVENT', path: orderEventType(outcome), status: 500, durationMs: 0, chargeId, error });
  }
  if (told && trigger.later) {
    // Recorded with the webhook's state, once onEvent heard it (the claim holds meanwhile).
    trigger.later.told = { chargeId, holder, outcome };
    return { kind: 'later' };
  }
  const after = await simpleStep(context, order.referenceId, (record) => ({ order: decideTold(record, chargeId, holder, outcome, told), result: undefined }), order);
  return told ? { kind: 'told', order: after.order } : { kind: 'failed' };
}

/**
 * A webhook of the payment `chargeId` handled, its state (`version`) kept in the payment's entry,
 * and the `onOrder` its settling told (`later`) recorded with it: one step. Without `version`
 * (`onEvent` failed: the webhook comes again), only what `onOrder` heard.
 */
export async function recordWebhookHandled(context: CheckoutContext, referenceId: string, chargeId: string, later: WebhookLater, version?: number): Promise<void> {
  const { told } = later;
  if (told === undefined && version === undefined) return;
  await simpleStep(
    context,
    referenceId,
    (record) => {
      const afterTold = told === undefined ? record : (decideTold(record, chargeId, told.holder, told.outcome, true) ?? record);
      const next = version === undefined ? afterTold : (decideHeard(afterTold, chargeId, version) ?? afterTold);
      return { order: next === record ? undefined : next, result: undefined };
    },
    later.order,
  );
}

/**
 * Keeps a refund of a payment heard of (from its `refund.succeeded` webhook), whoever made it, in
 * the ledger of its order, so the order's state can tell a paid order refunded in full since.
 */
export async function noteRefund(context: CheckoutContext, refund: { refundId: string; chargeId: string; amount: number; currency: string; referenceId: string }): Promise<void> {
  await simpleStep(context, refund.referenceId, (order) => ({ order: decideRefundHeard(order, refund), result: undefined }));
}

/**
 * A refund the handler made to undo a payment failed at the service after it was accepted: the
 * payment's outcome becomes `refund_failed`, and `onOrder` hears it. Heard before the refund's
 * answer (its id not recorded yet), the failure is kept in the order's record and the refund asked
 * for again under its key, which answers with its id. False when the refund is not (or cannot be)
 * one of the handler's.
 */
export async function noteRefundFailed(context: CheckoutContext, refund: { refundId: string; chargeId: string; referenceId: string; errorCode: string }, call: HttpCall): Promise<boolean> {
  const { order, result } = await simpleStep(context, refund.referenceId, (record) => {
    const next = decideRefundFailed(record, refund);
    return { order: next, result: next !== undefined || record.payments[refund.chargeId]?.outcome?.outcome === 'refund_failed' };
  });
  if (result) await runEffects(context, order, refund.chargeId, { call, fromWebhook: true }, crypto.randomUUID());
  return result;
}

/**
 * Where an order's open payment stands: still payable, paid the order, or over (failed, refunded,
 * or an authorization that holds no money any more). A success found here is settled, as a status
 * read settles it.
 */
export async function openPaymentState(context: CheckoutContext, referenceId: string, { chargeId, kind }: { chargeId: string; kind: StatusTokenKind }, call: HttpCall): Promise<'pending' | 'paid' | 'over'> {
  const status = await readStatus(context, chargeId, kind, call);
  if (status.status === 'PENDING') return 'pending';
  if (status.status === 'FAILED') return 'over';
  const outcome = await settlePayment(context, { chargeId, kind, referenceId }, { call, fromWebhook: false });
  if (outcome === 'authorized' && (await freeIfEnded(context, referenceId, chargeId, call))) return 'over';
  return outcome === 'paid' || outcome === 'authorized' ? 'paid' : 'over';
}

/** Frees the order an authorization paid once it holds no money (canceled, expired, failed); true when the order is free of it. */
export async function freeIfEnded(context: CheckoutContext, referenceId: string, chargeId: string, call: HttpCall): Promise<boolean> {
  const { order } = await step<Need, undefined, Facts>(
    context,
    referenceId,
    (record, facts) => {
      if (record.paidBy !== chargeId) return { order: undefined, result: undefined };
      const freed = releaseIfEnded(record, facts);
      return 'need' in freed ? freed : { order: freed === record ? undefined : freed, result: undefined };
    },
    (need, facts) => learnAuthorizationStatus(context, need.chargeId, facts, call),
    {},
  );
  return order.paidBy !== chargeId;
}

/**
 * A payment's status for the shopper holding its token: a success is settled against the order
 * the token names, and carries its `outcome`; one that cannot be settled yet (the store or the
 * service failing) answers PENDING, never a success without what it did for the order.
 */
export function readSettledStatus(context: CheckoutContext, id: string, kind: StatusTokenKind, call: HttpCall, order: PaymentOrder, limits: StatusReadLimits = {}): Promise<CheckoutStatusResponse> {
  const read = (async () => {
    const status = await readStatus(context, id, kind, call);
    if (status.status !== 'SUCCEEDED') return status;
    const outcome = await settlePayment(context, { chargeId: id, kind, order }, { call, fromWebhook: false });
    return outcome === undefined ? pendingStatus(id, kind) : { ...status, outcome };
  })();
  return limitStatusRead(read, id, kind, call, limits);
}
