import { CHECKOUT_MAX_WAIT_SECONDS, CHECKOUT_STATUS_TOKEN_HEADER, type CheckoutStatusResponse } from '../../core/schemas/checkout.js';
import { sleep } from '../abortable.js';
import type { CheckoutContext, RouteCall } from './checkout-context.js';
import { CheckoutError } from './checkout-error.js';
import { STATUS_POLL_INTERVAL_MS } from './checkout-options.js';
import { requireStatusToken } from './checkout-request.js';
import { jsonResponse } from './json-response.js';
import { readStatus, statusChannel } from './status-cache.js';

/**
 * `GET /charges/{chargeId}/status?wait=N`: the payment's status for the holder of its status
 * token (a charge's, or a card authorization's made with the authorize intent), held up to N
 * seconds while it is PENDING. The token is read from the `X-Satang-Status-Token` header only: in
 * the address it would end up in access logs and browser history, so one in the query is ignored
 * (403). The wait ends as soon as a webhook or a slip on any instance sharing the store tells of
 * a final status, and otherwise asks the service every `statusPollIntervalMs`, so it ends even
 * when no webhook reaches this instance.
 */
export async function chargeStatus(context: CheckoutContext, { request, url, params, entry }: RouteCall): Promise<Response> {
  const { chargeId = '' } = params;
  entry.chargeId = chargeId;
  // The token says what the id is: a charge, or a card authorization made with the authorize intent.
  const { kind } = await requireStatusToken(context.tokens, chargeId, request.headers.get(CHECKOUT_STATUS_TOKEN_HEADER), ['charge', 'authorization']);
  await context.limiter.check(request, 'status');
  const waitText = url.searchParams.get('wait');
  let waitSeconds = 0;
  if (waitText !== null && waitText !== '') {
    if (!/^\d{1,3}$/.test(waitText) || Number(waitText) > CHECKOUT_MAX_WAIT_SECONDS) {
      throw new CheckoutError(400, 'INVALID_REQUEST', `wait must be a whole number of seconds from 0 to ${CHECKOUT_MAX_WAIT_SECONDS}.`, { field: 'wait' });
    }
    waitSeconds = Number(waitText);
  }

  const read = () => readStatus(context, chargeId, kind, request.signal, request);
  if (waitSeconds === 0) return jsonResponse(200, await read());

  const deadline = Date.now() + waitSeconds * 1000;
  const pollMs = context.options.statusPollIntervalMs ?? STATUS_POLL_INTERVAL_MS;
  // Listening before each read, not after: a webhook that lands while a read is under way (the
  // service answered PENDING just before the payment) still ends the wait, instead of being
  // published to nobody and leaving the shopper waiting for the next poll or the deadline.
  let hear: () => void = () => undefined;
  const listen = () => new Promise<void>((resolve) => (hear = resolve));
  const unsubscribe = context.store.subscribe(statusChannel(chargeId), () => hear());
  let status: CheckoutStatusResponse;
  try {
    let news = listen();
    status = await read();
    while (status.status === 'PENDING' && Date.now() < deadline && !request.signal.aborted) {
      // Over at once when the news came during the read; else at the next poll, or sooner on news
      // or when the shopper leaves.
      const pause = new AbortController();
      const pauseOver = sleep(Math.min(pollMs, deadline - Date.now()), AbortSignal.any([pause.signal, request.signal])).catch(() => undefined);
      await Promise.race([news, pauseOver]);
      pause.abort();
      // The shopper left: nobody is there to answer, and a read now would only fail as cancelled.
      if (shopperLeft(request)) break;
      news = listen();
      status = await read();
    }
  } finally {
    unsubscribe();
  }
  return jsonResponse(200, status);
}

/** Whether the shopper's request was given up; read afresh each time, as it changes while a wait is under way. */
function shopperLeft(request: Request): boolean {
  return request.signal.aborted;
}
