import type { CheckoutOrderOutcome } from '../../core/schemas/checkout.js';

/** What every order event names: the order, and the payment the event is about. */
interface OrderEventBase {
  /** The merchant's reference of the order (`ResolvedOrder.referenceId`), as written on the charge. */
  referenceId: string;
  /** The reference the page sent (`orderReference`), as `resolveOrder` received it. */
  orderReference: string;
  /** The charge (or, with the authorize intent, the card authorization) this event is about. */
  chargeId: string;
  /** What the payment took, in satang. */
  amount: number;
  currency: string;
}

/**
 * What became of an order, told once per payment by the checkout handler's `onOrder`. Mark an
 * order paid on `order.paid` only: a `charge.succeeded` webhook alone does not say that the
 * charge paid the order in full, nor that it was the only one.
 *
 * - `order.paid`: the charge took the order's full amount, in its currency, and is the order's
 *   only payment. Comes once per order.
 * - `order.authorized`: with the authorize intent, the card authorization reserved the full amount.
 *   The order is paid (`order.paid`, for the capture charge) once its captures add up to that
 *   amount: one final capture of all of it, or the last of several.
 * - `order.partially_captured`: a capture of the order's authorization took less than the whole
 *   (`capturedAmount` so far of `expectedAmount`). The order is not paid (yet).
 * - `order.duplicate_refunded`: the order was already paid (`paidBy`); this later payment was
 *   refunded in full (an authorization: canceled). The order stays paid by `paidBy`. `refundId` is
 *   `""` when the shop had already refunded it in full itself.
 * - `order.repriced_refunded`: the order's price changed (`orderAmount`, null when `resolveOrder`
 *   no longer offers it) after this payment started; it was refunded in full. The order is not paid.
 * - `order.amount_mismatch`: what was captured is not the amount or currency the shopper approved
 *   (`expectedAmount`, `expectedCurrency`). The order is not paid by it; nothing is refunded
 *   automatically: settle it by hand.
 * - `order.refund_failed`: a payment that had to be refunded (`reason`) could not be: the service
 *   refused the refund. The order is not paid by it. Refund it by hand.
 */
export type OrderEvent =
  | (OrderEventBase & { type: 'order.paid' })
  | (OrderEventBase & { type: 'order.authorized' })
  | (OrderEventBase & { type: 'order.duplicate_refunded'; paidBy: string; refundId: string })
  | (OrderEventBase & { type: 'order.repriced_refunded'; orderAmount: number | null; refundId: string })
  | (OrderEventBase & { type: 'order.amount_mismatch'; expectedAmount: number; expectedCurrency: string })
  | (OrderEventBase & { type: 'order.partially_captured'; cardAuthorizationId: string; capturedAmount: number; expectedAmount: number })
  | (OrderEventBase & { type: 'order.refund_failed'; reason: 'duplicate_refunded' | 'repriced_refunded'; errorCode: string });

export type OrderEventType = OrderEvent['type'];

/** The order event a payment's outcome is told as. */
export function orderEventType(outcome: CheckoutOrderOutcome): OrderEventType {
  return `order.${outcome}`;
}
