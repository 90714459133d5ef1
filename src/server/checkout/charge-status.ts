import { CHECKOUT_MAX_WAIT_SECONDS, CHECKOUT_STATUS_TOKEN_HEADER, type CheckoutStatusResponse } from '../../core/schemas/checkout.js';
import type { HttpAnswer, HttpCall } from '../../core/http-call.js';
import type { CheckoutContext, RouteCall } from './checkout-context.js';
import { CheckoutError } from './checkout-error.js';
import { STATUS_ANSWER_MARGIN_MS, STATUS_FALLBACK_POLL_MS, STATUS_POLL_INTERVAL_MS } from './checkout-options.js';
import { requireStatusToken } from './checkout-request.js';
import { jsonAnswer } from './json-response.js';
import { readOrder } from './order-book.js';
import { readSettledStatus } from './settlement.js';
import { watchStatus } from './status-watch.js';

/**
 * `GET /charges/{chargeId}/status?wait=N`: the payment's status for the holder of its status
 * token (a charge's, or a card authorization's made with the authorize intent), held up to N
 * seconds while it is PENDING. The token is read from the `X-Satang-Status-Token` header only: in
 * the address it would end up in access logs and browser history, so one in the query is ignored
 * (403). The wait ends as soon as a webhook or a slip on any instance sharing the store tells of
 * a final status, and otherwise asks the service every `statusPollIntervalMs`, so it ends even
 * when no webhook reaches this instance. A PENDING answer carries `order: 'paid'` once another
 * payment paid its order, and the wait ends as soon as that payment is settled on any instance.
 */
export async function chargeStatus(context: CheckoutContext, { call, params, entry }: RouteCall): Promise<HttpAnswer> {
  const { chargeId = '' } = params;
  entry.chargeId = chargeId;
  // The token says what the id is: a charge, or a card authorization made with the authorize intent.
  const { kind, order } = await requireStatusToken(context.tokens, chargeId, call.header(CHECKOUT_STATUS_TOKEN_HEADER), ['charge', 'authorization']);
  await context.limiter.check(call, 'status');
  const waitText = call.query('wait');
  let waitSeconds = 0;
  if (waitText !== null && waitText !== '') {
    if (!/^\d{1,3}$/.test(waitText) || Number(waitText) > CHECKOUT_MAX_WAIT_SECONDS) {
      throw new CheckoutError(400, 'INVALID_REQUEST', `wait must be a whole number of seconds from 0 to ${CHECKOUT_MAX_WAIT_SECONDS}.`, { field: 'wait' });
    }
    waitSeconds = Number(waitText);
  }

  // Whatever the service does, the answer comes by the wait plus a small margin: a read not done
  // by then answers the status last known (PENDING); within a wait, a failed read is no news.
  const answerBy = Date.now() + waitSeconds * 1000 + STATUS_ANSWER_MARGIN_MS;
  // A success is settled against the token's order, even one whose records the store lost.
  const readStatusNow = () => readSettledStatus(context, chargeId, kind, call, order, { answerBy, pendingOnFailure: waitSeconds > 0 });
  if (waitSeconds === 0) return jsonAnswer(200, await withOrder(context, await readStatusNow(), order.referenceId));

  const deadline = Date.now() + waitSeconds * 1000;
  // Listening before the first read, not after: news that lands while it is under way (the
  // service answered PENDING just before the payment) still ends the wait, instead of being
  // published to nobody. The payment's watch polls the service for every waiter on this instance
  // and wakes them only with news: one timer and one listener per waiter, nothing more, however
  // many shoppers wait.
  const news = { heard: false };
  let wake: (() => void) | undefined;
  const unsubscribe = watchStatus(context, chargeId, kind, () => pollIntervalMs(context), () => {
    news.heard = true;
    wake?.();
  });
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      let stopListening: () => void = () => undefined;
      const done = () => {
        clearTimeout(timer);
        stopListening();
        wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      stopListening = call.onGone(done);
      wake = done;
    });
  let status: CheckoutStatusResponse;
  try {
    status = await readStatusNow();
    while (status.status === 'PENDING' && Date.now() < deadline && !call.gone) {
      // Over at once when the news came during the read; else on news, when the shopper leaves,
      // or at the deadline (then one last read).
      if (!news.heard) await pause(deadline - Date.now());
      // The shopper left: nobody is there to answer, and a read now would only fail as cancelled.
      if (shopperLeft(call)) break;
      news.heard = false;
      status = await readStatusNow();
      // News while still PENDING: maybe another payment paid the order (it wakes this one's waiters).
      if (status.status === 'PENDING') {
        const answered = await withOrder(context, status, order.referenceId);
        if (answered.order === 'paid') return jsonAnswer(200, answered);
      }
    }
  } finally {
    unsubscribe();
  }
  return jsonAnswer(200, await withOrder(context, status, order.referenceId));
}

/**
 * A PENDING answer says so when its order (the token's) was paid by another payment meanwhile
 * (`order: 'paid'`): the shopper has nothing left to pay here. One store read, on PENDING answers only.
 */
async function withOrder(context: CheckoutContext, status: CheckoutStatusResponse, referenceId: string): Promise<CheckoutStatusResponse> {
  if (status.status !== 'PENDING') return status;
  const { paidBy } = await readOrder(context, referenceId);
  return paidBy !== undefined && paidBy !== status.chargeId ? { ...status, order: 'paid' } : status;
}

/** The fallback poll of a payment's waiters: the option, else 2 s without webhooks, else a random 15 to 30 s. */
function pollIntervalMs(context: CheckoutContext): number {
  const set = context.options.statusPollIntervalMs;
  if (set !== undefined) return set;
  if (context.options.webhookKeyBase64 === undefined) return STATUS_POLL_INTERVAL_MS;
  const { min, max } = STATUS_FALLBACK_POLL_MS;
  return min + Math.random() * (max - min);
}

/** Whether the shopper's request was given up; read afresh each time, as it changes while a wait is under way. */
function shopperLeft(call: HttpCall): boolean {
  return call.gone;
}
