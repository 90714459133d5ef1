/**
 * One live payment attempt per order. Before a charge is created the attempt takes the order's
 * lock in the store (`order-lock:{referenceId}`); another attempt of the same order (a second tab,
 * a second device, a QR then a card) finds it and either resumes it, replaces it when the shopper
 * says so, or is refused with a 409 the widget explains. The lock is one record written only with
 * `setIfNewer`, its version counting the attempts (two per attempt: creating, then open or
 * released), so of two instances racing for an order exactly one wins, whatever the store.
 *
 * The lock keeps the common cases to one charge; it is not what guarantees one payment per order.
 * That is {@link settlePayment}: whichever payment succeeds first pays the order, and every other
 * success is refunded.
 */

import type { HttpCall } from '../../core/http-call.js';
import type { CheckoutIntent } from '../../core/schemas/checkout.js';
import type { CheckoutContext } from './checkout-context.js';
import { CheckoutError } from './checkout-error.js';
import type { ResolvedOrder } from './checkout-options.js';
import type { AttemptAnswer, AttemptRecord, OrderLock } from './checkout-records.js';
import { releaseEndedAuthorization, settlePayment } from './settle-payment.js';
import { readStatus } from './status-cache.js';
import type { StatusTokenKind } from './status-tokens.js';

// The lock's expiries (2 minutes while creating, a day once open) are its record's, in checkout-records.ts.
export { ATTEMPT_CREATE_TTL_MS, ATTEMPT_OPEN_TTL_MS, type AttemptAnswer } from './checkout-records.js';

/** What the attempt may do: create its charge under `generation`, or hand back an open attempt's answer. */
export type Claim = { kind: 'create'; generation: number } | { kind: 'resume'; answer: AttemptAnswer; statusKind: StatusTokenKind };

export interface AttemptInput {
  order: ResolvedOrder;
  orderReference: string;
  attempt: string;
  paymentMethodType: string;
  intent: CheckoutIntent;
  replace: boolean;
  call: HttpCall;
}

/** The lock's version: two steps per attempt, creating then open or released, so versions only grow. */
const lockVersion = (generation: number, state: OrderLock['state']) => generation * 2 + (state === 'creating' ? 0 : 1);

/** Methods whose open attempt another tab may simply show again: nothing of the shopper's is in them. */
const isResumableMethod = (type: string) => type !== 'CARD_TOKEN' && type !== 'CARD_TOKEN_INSTALLMENTS';

/**
 * Takes the order for this attempt, or says why not:
 * - the order is paid → 409 ORDER_ALREADY_PAID;
 * - another attempt is creating its charge → 409 PAYMENT_IN_PROGRESS, not replaceable (a moment);
 * - another attempt's payment is open (PENDING): the same non-card method at the same amount is
 *   resumed; one at another amount (the order was repriced and the shopper approved the new total)
 *   is abandoned; otherwise 409 PAYMENT_IN_PROGRESS, replaceable, unless `replace` says to abandon it.
 * An abandoned payment paid anyway settles like any other: refunded when another payment paid the
 * order first or the order's price changed, else it pays the order (and the newer attempt, if it
 * succeeds too, is the one refunded).
 */
export async function claimOrder(context: CheckoutContext, input: AttemptInput): Promise<Claim> {
  const { records } = context;
  const { referenceId } = input.order;
  const held = await records.orderLock.get(referenceId);
  const retry = held?.attempt === input.attempt;
  if (retry) {
    // The same attempt again (an answer lost on the way): the service's idempotency key makes it
    // one charge, so it may go on even when that charge has paid the order meanwhile.
    if (held.state === 'open' && held.answer && held.kind) return { kind: 'resume', answer: held.answer, statusKind: held.kind };
    if (held.state === 'creating') return { kind: 'create', generation: held.generation };
  } else {
    const paidBy = await records.paidBy.get(referenceId);
    // An authorization canceled, expired or failed since it held the order holds it no more.
    if (paidBy !== undefined && !(await releaseEndedAuthorization(context, paidBy, input.call))) {
      // This very attempt paid it (its answer lost, its lock and replay forgotten since): its
      // charge again, to follow to its success.
      const record = await records.attempt.get(paidBy);
      if (record?.attempt === input.attempt) {
        const answer: AttemptAnswer = { chargeId: paidBy, actionRequired: 'NONE', ...(record.kind === 'authorization' ? { intent: 'authorize' as const } : {}) };
        return { kind: 'resume', answer, statusKind: record.kind };
      }
      throw alreadyPaid();
    }
    if (held?.state === 'creating') throw inProgress(held, false);
  }
  if (!retry && held?.state === 'open' && held.chargeId && held.kind) {
    const live = await openPaymentState(context, { chargeId: held.chargeId, kind: held.kind }, input.call);
    if (live === 'paid') throw alreadyPaid();
    if (live === 'pending') {
      const sameAmount = held.amount === input.order.amount && held.currency === input.order.currency;
      if (sameAmount && !input.replace) {
        if (held.paymentMethodType === input.paymentMethodType && isResumableMethod(input.paymentMethodType) && held.answer) {
          return { kind: 'resume', answer: held.answer, statusKind: held.kind };
        }
        throw inProgress(held, true);
      }
      // Abandoned: the lock moves on. Paid anyway, it settles like any payment: refunded when the
      // order was paid first by another, or when its price is no longer the order's.
    }
  }
  const generation = (held?.generation ?? 0) + 1;
  const lock: OrderLock = {
    generation,
    state: 'creating',
    attempt: input.attempt,
    paymentMethodType: input.paymentMethodType,
    amount: input.order.amount,
    currency: input.order.currency,
  };
  if (!(await records.orderLock.setIfNewer(referenceId, lockVersion(generation, 'creating'), lock))) {
    // Another attempt took the order between the read and the write.
    const winner = await records.orderLock.get(referenceId);
    throw inProgress(winner, false);
  }
  return { kind: 'create', generation };
}

/**
 * Records the charge an attempt created: the lock opens on it (for other tabs to resume or
 * replace), and the attempt is kept for its settlement, with the amount the shopper approved.
 */
export async function recordCreated(
  context: CheckoutContext,
  input: AttemptInput,
  generation: number,
  answer: AttemptAnswer,
  kind: StatusTokenKind,
): Promise<void> {
  const { records } = context;
  const record: AttemptRecord = {
    referenceId: input.order.referenceId,
    orderReference: input.orderReference,
    amount: input.order.amount,
    currency: input.order.currency,
    kind,
    paymentMethodType: input.paymentMethodType,
    createdAtMs: Date.now(),
    attempt: input.attempt,
  };
  await records.attempt.set(answer.chargeId, record);
  const lock: OrderLock = {
    generation,
    state: 'open',
    attempt: input.attempt,
    paymentMethodType: input.paymentMethodType,
    amount: input.order.amount,
    currency: input.order.currency,
    chargeId: answer.chargeId,
    kind,
    answer,
  };
  await records.orderLock.setIfNewer(input.order.referenceId, lockVersion(generation, 'open'), lock);
}

/** Frees the order after its attempt was refused by the service: nothing was created, another attempt may go. */
export async function releaseClaim(context: CheckoutContext, input: AttemptInput, generation: number): Promise<void> {
  const lock: OrderLock = {
    generation,
    state: 'released',
    attempt: input.attempt,
    paymentMethodType: input.paymentMethodType,
    amount: input.order.amount,
    currency: input.order.currency,
  };
  await context.records.orderLock.setIfNewer(input.order.referenceId, lockVersion(generation, 'released'), lock);
}

/**
 * The order's attempt as its lock has it, for reading only (the order's state): none (never taken,
 * released after a refusal or a failure, or forgotten), a charge being created, or an open payment
 * with the answer its attempt got (its status token apart).
 */
export type OrderAttempt =
  | { state: 'none' }
  | { state: 'creating'; paymentMethodType: string }
  | { state: 'open'; paymentMethodType: string; chargeId: string; kind: StatusTokenKind; answer: AttemptAnswer };

/** Where the order's attempt lock stands; writes nothing. */
export async function readOrderAttempt(context: CheckoutContext, referenceId: string): Promise<OrderAttempt> {
  const held = await context.records.orderLock.get(referenceId);
  if (held?.state === 'creating') return { state: 'creating', paymentMethodType: held.paymentMethodType };
  if (held?.state === 'open' && held.chargeId && held.kind && held.answer) {
    return { state: 'open', paymentMethodType: held.paymentMethodType, chargeId: held.chargeId, kind: held.kind, answer: held.answer };
  }
  return { state: 'none' };
}

/**
 * Where an open attempt's payment stands: still payable, paid the order, or over (failed, or
 * refunded). A success found here is settled, as a status read settles it.
 */
export async function openPaymentState(context: CheckoutContext, { chargeId, kind }: { chargeId: string; kind: StatusTokenKind }, call: HttpCall): Promise<'pending' | 'paid' | 'over'> {
  const status = await readStatus(context, chargeId, kind, call);
  if (status.status === 'PENDING') return 'pending';
  if (status.status === 'FAILED') return 'over';
  const outcome = await settlePayment(context, { chargeId, kind }, { call, fromWebhook: false });
  if (outcome === 'authorized' && (await releaseEndedAuthorization(context, chargeId, call))) return 'over';
  return outcome === 'paid' || outcome === 'authorized' ? 'paid' : 'over';
}

function alreadyPaid(): CheckoutError {
  return new CheckoutError(409, 'ORDER_ALREADY_PAID', 'This order has already been paid.');
}

function inProgress(held: OrderLock | undefined, replaceable: boolean): CheckoutError {
  return new CheckoutError(
    409,
    'PAYMENT_IN_PROGRESS',
    replaceable
      ? 'This order is already being paid in another window. Finish that payment, or pay here instead.'
      : 'This order is being paid right now. Please wait a moment and try again.',
    { retryable: !replaceable, details: { replaceable, ...(held ? { paymentMethodType: held.paymentMethodType } : {}) } },
  );
}
