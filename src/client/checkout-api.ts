import { CHECKOUT_IDEMPOTENCY_HEADER, CHECKOUT_ORDER_TOKEN_HEADER, CHECKOUT_STATUS_TOKEN_HEADER } from '../core/constants.js';
import type { CheckoutChargeRequest, CheckoutChargeResponse, CheckoutOrderStateResponse, CheckoutSlipResponse, CheckoutStatusResponse } from '../core/schemas/checkout.js';
import { CheckoutClientError } from './client-error.js';
import { CLIENT_REQUEST_DEADLINE_MS, fetchJson } from './http.js';

function join(endpoint: string, path: string): string {
  return `${endpoint.replace(/\/+$/, '')}${path}`;
}

/**
 * Asks the merchant's server to charge, with the order's token (signed by that server for this
 * order; without it the server refuses). `idempotencyKey` is one per payment attempt: sending the
 * same attempt twice (a double click, a retry after a lost answer) makes one charge.
 */
export async function createCheckoutCharge(
  endpoint: string,
  body: CheckoutChargeRequest,
  idempotencyKey: string,
  orderToken: string,
  signal?: AbortSignal,
): Promise<CheckoutChargeResponse> {
  const answer = (await fetchJson(
    join(endpoint, '/charges'),
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', [CHECKOUT_IDEMPOTENCY_HEADER]: idempotencyKey, [CHECKOUT_ORDER_TOKEN_HEADER]: orderToken },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    },
    signal,
  )) as Partial<Record<keyof CheckoutChargeResponse, unknown>> | null;
  if (typeof answer?.chargeId !== 'string' || typeof answer.statusToken !== 'string') {
    throw new CheckoutClientError('server', 'unexpected answer from the checkout endpoint');
  }
  return answer as CheckoutChargeResponse;
}

/** The charge's status; with `waitSeconds` the server holds the answer while it is PENDING. */
export async function getCheckoutStatus(
  endpoint: string,
  chargeId: string,
  statusToken: string,
  waitSeconds: number,
  signal?: AbortSignal,
): Promise<CheckoutStatusResponse> {
  const url = join(endpoint, `/charges/${encodeURIComponent(chargeId)}/status${waitSeconds > 0 ? `?wait=${waitSeconds}` : ''}`);
  // Held by the server up to the wait: the deadline starts after it.
  const answer = (await fetchJson(url, { headers: { [CHECKOUT_STATUS_TOKEN_HEADER]: statusToken }, credentials: 'same-origin' }, signal, waitSeconds * 1000 + CLIENT_REQUEST_DEADLINE_MS)) as Partial<
    Record<keyof CheckoutStatusResponse, unknown>
  > | null;
  if (answer?.status !== 'PENDING' && answer?.status !== 'SUCCEEDED' && answer?.status !== 'FAILED') {
    throw new CheckoutClientError('server', 'unexpected status answer');
  }
  return answer as CheckoutStatusResponse;
}

const ORDER_STATES: readonly unknown[] = ['open', 'paying', 'paid', 'refunded'];

/**
 * Where the order stands, as the merchant's server knows it, for the holder of the order's token
 * (signed by that server for this order). A payment under way comes with what the shopper does
 * next and a status token to follow it.
 */
export async function getOrderState(endpoint: string, orderReference: string, orderToken: string, signal?: AbortSignal): Promise<CheckoutOrderStateResponse> {
  const url = join(endpoint, `/orders/${encodeURIComponent(orderReference)}/state`);
  const answer = (await fetchJson(url, { headers: { [CHECKOUT_ORDER_TOKEN_HEADER]: orderToken }, credentials: 'same-origin', cache: 'no-store' }, signal)) as Partial<
    Record<keyof CheckoutOrderStateResponse, unknown>
  > | null;
  const payment = answer?.payment as Partial<Record<string, unknown>> | undefined;
  if (answer?.orderReference !== orderReference || !ORDER_STATES.includes(answer.state)) throw new CheckoutClientError('server', 'unexpected order state answer');
  if (payment !== undefined && (typeof payment.chargeId !== 'string' || typeof payment.statusToken !== 'string' || typeof payment.paymentMethodType !== 'string')) {
    throw new CheckoutClientError('server', 'unexpected order state answer');
  }
  return answer as CheckoutOrderStateResponse;
}

/**
 * Sends the text of the QR code on the shopper's bank transfer slip for this charge; the merchant's
 * server has the service check it. Answers once the charge is SUCCEEDED; a slip of no payment is
 * refused with the code `SLIP_NOT_FOUND`, a slip of another payment with `SLIP_MISMATCH`.
 */
export async function verifyCheckoutSlip(
  endpoint: string,
  chargeId: string,
  statusToken: string,
  raw: string,
  signal?: AbortSignal,
): Promise<CheckoutSlipResponse> {
  const answer = (await fetchJson(
    join(endpoint, `/charges/${encodeURIComponent(chargeId)}/slip`),
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', [CHECKOUT_STATUS_TOKEN_HEADER]: statusToken },
      body: JSON.stringify({ raw }),
      credentials: 'same-origin',
    },
    signal,
  )) as Partial<Record<keyof CheckoutSlipResponse, unknown>> | null;
  if (answer?.chargeId !== chargeId || answer.status !== 'SUCCEEDED') throw new CheckoutClientError('server', 'unexpected slip answer');
  return answer as CheckoutSlipResponse;
}
