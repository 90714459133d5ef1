/**
 * What a charge's final status means for its order, as the QR element and the checkout tell the
 * shopper. A SUCCEEDED charge pays the order unless the merchant's server says otherwise in
 * `outcome` (see `CHECKOUT_ORDER_OUTCOMES`).
 */
import type { CheckoutStatusResponse } from '../core/schemas/checkout.js';
import type { MessageKey } from './i18n/localize.js';

/**
 * - `paid`: the order is paid, by this charge or (`duplicate_refunded`) by another one, this
 *   charge refunded; also an authorization that reserved the order's amount;
 * - `repriced`: the order's price changed while paying; this charge is refunded and the order is
 *   not paid: the shopper reviews the new total and pays again;
 * - `unpaid`: the charge went through but did not pay the order (`amount_mismatch`,
 *   `refund_failed`, or an outcome this version does not know): the shop settles it with the shopper;
 * - `failed`: the charge failed.
 */
export type OrderVerdict = 'paid' | 'repriced' | 'unpaid' | 'failed';

/**
 * The `outcome` of the `satang-failure` a QR element fires when its code need not be paid: the
 * charge is still open, but the order was paid by another payment meanwhile (the status answer's
 * `order: 'paid'`). Paid all the same, it is refunded.
 */
export const ORDER_PAID_ELSEWHERE = 'paid_elsewhere';

/**
 * Outcomes of a SUCCEEDED charge after which the order is paid. A success without an outcome is not
 * one of them: the server says what every success of the checkout did for its order.
 */
const PAID_OUTCOMES: readonly (string | undefined)[] = ['paid', 'authorized', 'duplicate_refunded'];

/**
 * The verdict of a final status (PENDING reads as `failed`: the caller asks only once it is final).
 * An outcome not known to this version is not taken for a payment: claiming an order paid when it
 * is not is the one mistake a checkout must not make.
 */
export function orderVerdict({ status, outcome }: Pick<CheckoutStatusResponse, 'status' | 'outcome'>): OrderVerdict {
  if (status !== 'SUCCEEDED') return 'failed';
  if (PAID_OUTCOMES.includes(outcome)) return 'paid';
  return outcome === 'repriced_refunded' ? 'repriced' : 'unpaid';
}

/** What to tell the shopper about a charge that went through without paying the order. */
export function unpaidMessageKey(verdict: OrderVerdict): MessageKey | undefined {
  return verdict === 'repriced' ? 'outcome.repricedBody' : verdict === 'unpaid' ? 'outcome.unpaidBody' : undefined;
}
