/**
 * The attempts of an order that called the service and have no answer recorded yet
 * (`pending:{referenceId}`): should the answer be lost (a fault, the shopper gone), the charge may
 * have been made all the same, and its webhook, which may come before the call even gives up,
 * finds its attempt here by the order and the approved amount. At most {@link PENDING_KEPT} per
 * order; one attempt of an order holds its lock at a time, so the list is not written by two at once.
 */

import type { CheckoutContext } from './checkout-context.js';
import type { ResolvedOrder } from './checkout-options.js';
import type { AttemptRecord } from './checkout-records.js';

/** Most attempts of one order kept waiting for an answer that may never come. */
const PENDING_KEPT = 10;

/** Keeps the attempt about to call the service until its answer is recorded (an authorization is not kept: it never pays an order by surprise). */
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
  const pending = (await pendingAttemptsOf(context, input.order.referenceId)).filter((p) => p.attempt !== input.attempt);
  pending.push(record);
  await context.records.pendingAttempts.set(input.order.referenceId, pending.slice(-PENDING_KEPT));
}

/** The attempt's answer is recorded (or it was refused): a later API charge of the order is not its. */
export async function forgetPendingAttempt(context: CheckoutContext, input: { referenceId: string; attempt: string }): Promise<void> {
  const pending = await pendingAttemptsOf(context, input.referenceId);
  const left = pending.filter((p) => p.attempt !== input.attempt);
  if (left.length === pending.length) return;
  if (left.length === 0) await context.records.pendingAttempts.delete(input.referenceId);
  else await context.records.pendingAttempts.set(input.referenceId, left);
}

/**
 * The newest pending attempt of the order `referenceId` for `amount` (any, when the amount is not
 * known), taken off the list: the API charge that names the order is that attempt's, whose answer
 * was lost. Undefined when no attempt of the order waits for an answer.
 */
export async function takePendingAttempt(context: CheckoutContext, referenceId: string, amount: number | undefined): Promise<AttemptRecord | undefined> {
  const pending = await pendingAttemptsOf(context, referenceId);
  const attempt = pending.findLast((p) => amount === undefined || p.amount === amount);
  if (attempt === undefined) return undefined;
  await forgetPendingAttempt(context, { referenceId, attempt: attempt.attempt ?? '' });
  return attempt;
}

async function pendingAttemptsOf(context: CheckoutContext, referenceId: string): Promise<AttemptRecord[]> {
  return (await context.records.pendingAttempts.get(referenceId)) ?? [];
}
