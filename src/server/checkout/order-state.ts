import type { HttpAnswer, HttpCall } from '../../core/http-call.js';
import { CHECKOUT_ORDER_TOKEN_HEADER, type CheckoutOrderPayment, type CheckoutOrderStateResponse } from '../../core/schemas/checkout.js';
import type { CheckoutContext, RouteCall } from './checkout-context.js';
import { requireOrderToken } from './checkout-request.js';
import { jsonAnswer } from './json-response.js';
import { orderAttemptOf, type OrderAttempt } from './order-attempts.js';
import { readOrder, referenceIdOf } from './order-book.js';
import { payerOf, type OrderPayer } from './order-record.js';
import { openPaymentState, settleLostCharges } from './settlement.js';
import type { PaymentOrder } from './status-tokens.js';

/**
 * `GET /orders/{orderReference}/state`: where the order a page shows stands, for the holder of its
 * order token (`X-Satang-Order-Token`, signed by `handler.orderToken(orderReference)` and rendered
 * into the page): so a page loaded, reloaded or opened in a second tab shows what the server
 * knows, not what one tab remembers. Counted in the status reads' rate limit. From the store:
 * - `paid` (or `refunded`, once the payment's refunds heard of add up to all it took) when a
 *   payment paid the order;
 * - `paying` while the order's attempt lock is open on a payment still PENDING (its status read
 *   through the status cache), with that payment
 *   (its QR code, its redirect) and a fresh status token to follow it; without `payment` while the
 *   charge is being created. A payment found SUCCEEDED is settled first, and the answer is its
 *   result;
 * - `open` otherwise: never charged here, or the last attempt failed or was released. While an
 *   attempt's answer is lost (it is still pending), the order's charges at the service are read
 *   first, and one that went through settled: it may have paid the order.
 */
export async function orderState(context: CheckoutContext, { call, params }: RouteCall): Promise<HttpAnswer> {
  const { orderReference = '' } = params;
  await requireOrderToken(context.orderTokens, orderReference, call.header(CHECKOUT_ORDER_TOKEN_HEADER));
  await context.limiter.check(call, 'status');
  return jsonAnswer(200, await stateOfOrder(context, orderReference, call));
}

async function stateOfOrder(context: CheckoutContext, orderReference: string, call: HttpCall): Promise<CheckoutOrderStateResponse> {
  // The page's reference names the order (its referenceId) it was charged for; never charged, it is open.
  const referenceId = await referenceIdOf(context, orderReference);
  if (referenceId === undefined) return { orderReference, state: 'open' };
  const order = await readOrder(context, referenceId);
  const payer = payerOf(order);
  if (payer) return paidState(orderReference, payer);
  const attempt = orderAttemptOf(order, Date.now());
  if (attempt.state === 'creating') return { orderReference, state: 'paying' };
  if (attempt.state === 'none') {
    // An attempt whose answer was lost may have paid the order all the same, its webhook late or
    // none set up: the order's charges at the service say so (as before another attempt charges).
    if (order.pending.length === 0) return { orderReference, state: 'open' };
    await settleLostCharges(context, referenceId, call);
    return settledState(context, referenceId, orderReference);
  }
  const live = await openPaymentState(context, referenceId, attempt, call);
  if (live === 'pending') return { orderReference, state: 'paying', payment: await openPaymentAnswer(context, attempt, { referenceId, orderReference }) };
  return settledState(context, referenceId, orderReference);
}

/** After payments were settled just now (or found over): whichever paid the order, if any, read again; else open. */
async function settledState(context: CheckoutContext, referenceId: string, orderReference: string): Promise<CheckoutOrderStateResponse> {
  const payer = payerOf(await readOrder(context, referenceId));
  return payer ? paidState(orderReference, payer) : { orderReference, state: 'open' };
}

function paidState(orderReference: string, payer: OrderPayer): CheckoutOrderStateResponse {
  if (payer.refunded) return { orderReference, state: 'refunded', paidBy: payer.chargeId };
  return { orderReference, state: 'paid', paidBy: payer.chargeId, outcome: payer.outcome };
}

/** The open payment as the page that created it was answered, with a status token signed now for this page. */
async function openPaymentAnswer(context: CheckoutContext, attempt: Extract<OrderAttempt, { state: 'open' }>, order: PaymentOrder): Promise<CheckoutOrderPayment> {
  const { chargeId, kind, answer, paymentMethodType } = attempt;
  const intent = answer.intent ?? (kind === 'authorization' ? 'authorize' : undefined);
  return {
    chargeId,
    paymentMethodType,
    ...(intent ? { intent } : {}),
    actionRequired: answer.actionRequired,
    ...(answer.redirect ? { redirect: answer.redirect } : {}),
    ...(answer.encodedImage ? { encodedImage: answer.encodedImage } : {}),
    statusToken: await context.tokens.sign(chargeId, kind, order),
  };
}
