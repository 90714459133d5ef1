/**
 * An attempt to pay an order, as steps on the order's record: it takes the order (or resumes its
 * open payment, or is refused: see `decideClaim`), then records what the service answered, or
 * that it refused or did not answer. Where the order's open payment stands, or whether an
 * authorization that paid it still holds money, is learnt from the service between tries.
 */

import type { HttpCall } from '../../core/http-call.js';
import type { CheckoutIntent } from '../../core/schemas/checkout.js';
import type { CheckoutContext } from './checkout-context.js';
import { CheckoutError } from './checkout-error.js';
import type { ResolvedOrder } from './checkout-options.js';
import { decideClaim, decideCreated, decideFailed, type ClaimFacts, type ClaimNeed, type ClaimResult } from './order-decisions.js';
import { rememberOrderReference, simpleStep, step } from './order-book.js';
import { liveLock, type AttemptAnswer, type OrderRecord } from './order-record.js';
import { learnAuthorizationStatus, openPaymentState, settleLostCharges } from './settlement.js';
import type { StatusTokenKind } from './status-tokens.js';

export interface AttemptInput {
  order: ResolvedOrder;
  orderReference: string;
  /** The attempt with its body (its key and a hash of the request). */
  id: string;
  /** The widget's attempt, its idempotency key. */
  attempt: string;
  paymentMethodType: string;
  intent: CheckoutIntent;
  replace: boolean;
  call: HttpCall;
}

/** What the attempt may do: create its charge under `generation`, or hand back an open payment's answer. */
export type Claim = Extract<ClaimResult, { kind: 'create' | 'resume' }>;

/**
 * Takes the order for this attempt, or says why not (409 ORDER_ALREADY_PAID, 409 PAYMENT_IN_PROGRESS, 409 IDEMPOTENCY_CONFLICT): see `decideClaim`.
 * `referenceKeptAtMs`: when the page's reference to the order was written, if this claim wrote it.
 */
export async function claimOrder(context: CheckoutContext, input: AttemptInput, known: OrderRecord): Promise<{ claim: Claim; order: OrderRecord; referenceKeptAtMs?: number }> {
  const { referenceId } = input.order;
  const nowMs = Date.now();
  const page = { named: false };
  const { order, result } = await step<ClaimNeed, ClaimResult, ClaimFacts>(
    context,
    referenceId,
    (record, facts) => {
      page.named = record.orderReferences.includes(input.orderReference);
      return decideClaim(
        record,
        { id: input.id, attempt: input.attempt, orderReference: input.orderReference, amount: input.order.amount, currency: input.order.currency, intent: input.intent, paymentMethodType: input.paymentMethodType, replace: input.replace, nowMs },
        facts,
      );
    },
    async (need, facts) => {
      if (need.need === 'open-payment') facts.openPayment = { ...facts.openPayment, [need.chargeId]: await openPaymentState(context, referenceId, need, input.call) };
      else if (need.need === 'lost-charges') facts.lostChargesSettled = await settleLostCharges(context, referenceId, input.call);
      else await learnAuthorizationStatus(context, need.chargeId, facts, input.call);
    },
    {},
    known,
  );
  if (result.kind === 'conflict') throw new CheckoutError(409, 'IDEMPOTENCY_CONFLICT', 'This payment attempt was already sent with other details. Please start again.');
  if (result.kind === 'paid') throw alreadyPaid();
  if (result.kind === 'busy') throw inProgress(result.replaceable, result.paymentMethodType);
  // The page's reference leads to the order from now on (its state), unless it already did.
  if (result.kind === 'create' && !page.named) {
    await rememberOrderReference(context, input.orderReference, referenceId);
    return { claim: result, order, referenceKeptAtMs: nowMs };
  }
  return { claim: result, order };
}

/**
 * Records the payment an attempt created: in the order's ledger, with the amount the shopper
 * approved, and the lock open on it. `known`: the record as the claim left it; `referenceKeptAtMs`:
 * when the claim wrote the page's reference (so its success need not write it again).
 */
export async function recordCreated(context: CheckoutContext, input: AttemptInput, generation: number, answer: AttemptAnswer, kind: StatusTokenKind, known: OrderRecord, referenceKeptAtMs?: number): Promise<void> {
  const created = {
    id: input.id,
    attempt: input.attempt,
    generation,
    orderReference: input.orderReference,
    paymentMethodType: input.paymentMethodType,
    kind,
    answer,
    nowMs: Date.now(),
    ...(referenceKeptAtMs !== undefined ? { referenceKeptAtMs } : {}),
  };
  await simpleStep(context, input.order.referenceId, (order) => ({ order: decideCreated(order, { ...created, amount: input.order.amount, currency: input.order.currency }), result: undefined }), known);
}

/** Frees the order after its attempt was refused by the service (`refused`: nothing was made) or got no answer. */
export async function recordFailed(context: CheckoutContext, input: AttemptInput, generation: number, refused: boolean, known: OrderRecord): Promise<void> {
  await simpleStep(context, input.order.referenceId, (order) => ({ order: decideFailed(order, { attempt: input.attempt, generation, refused }), result: undefined }), known);
}

/**
 * The order's attempt as its lock has it, for reading only (the order's state): none (never taken,
 * released after a refusal or a failure, or lapsed), a charge being created, or an open payment
 * with the answer its attempt got (its status token apart).
 */
export type OrderAttempt =
  | { state: 'none' }
  | { state: 'creating'; paymentMethodType: string }
  | { state: 'open'; paymentMethodType: string; chargeId: string; kind: StatusTokenKind; answer: AttemptAnswer };

export function orderAttemptOf(order: OrderRecord, nowMs: number): OrderAttempt {
  const held = liveLock(order, nowMs);
  if (held?.state === 'creating') return { state: 'creating', paymentMethodType: held.paymentMethodType };
  const answer = held?.chargeId === undefined ? undefined : order.payments[held.chargeId]?.answer;
  if (held?.state === 'open' && held.chargeId !== undefined && held.kind !== undefined && answer) {
    return { state: 'open', paymentMethodType: held.paymentMethodType, chargeId: held.chargeId, kind: held.kind, answer };
  }
  return { state: 'none' };
}

function alreadyPaid(): CheckoutError {
  return new CheckoutError(409, 'ORDER_ALREADY_PAID', 'This order has already been paid.');
}

function inProgress(replaceable: boolean, paymentMethodType: string | undefined): CheckoutError {
  return new CheckoutError(
    409,
    'PAYMENT_IN_PROGRESS',
    replaceable
      ? 'This order is already being paid in another window. Finish that payment, or pay here instead.'
      : 'This order is being paid right now. Please wait a moment and try again.',
    { retryable: !replaceable, details: { replaceable, ...(paymentMethodType !== undefined ? { paymentMethodType } : {}) } },
  );
}
