/**
 * The moves the payment of `<satang-checkout>` may make (see `PaymentState` in `payment-state.ts`),
 * checked by its one writer, `CheckoutPayment.show`. Part of the payment code (`pay-path.ts`): every
 * move after the press is made by that code, which brings the table with it; before it arrives
 * only the press (idle → submitting), a resume (idle → waiting) and a failure to fetch it (back to
 * idle) can happen, all of them allowed; and an order is shown paid only by that code.
 */
import type { Payment, PaymentChange, PaymentState } from './payment-state.js';

/**
 * Every move the payment may make, from each state. The payment's one writer (`show`) refuses any
 * other, so no sequence of presses, reloads, tabs or late answers can, say, put the form back
 * (`idle`) over an order shown paid: `succeeded` and a paid `conflict` lead nowhere but to the
 * views' own buttons (`again`, after a failure or a refusal the shopper can act on).
 *
 * - `waiting` → `idle` is the shopper leaving a payment for another method (after the server said
 *   it was still open), a decline, or a saved attempt that cannot be read any more;
 * - `conflict` → `idle` is "back to the form" from a refusal;
 * - `succeeded` is final: nothing moves out of it.
 */
export const PAYMENT_MOVES: Readonly<Record<PaymentState, readonly PaymentState[]>> = {
  idle: ['submitting', 'waiting', 'qr', 'succeeded', 'conflict'],
  submitting: ['idle', 'redirecting', 'qr', 'waiting', 'succeeded', 'failed', 'conflict'],
  redirecting: ['idle', 'waiting', 'qr', 'succeeded', 'failed', 'conflict'],
  qr: ['idle', 'submitting', 'waiting', 'succeeded', 'failed', 'conflict'],
  waiting: ['idle', 'redirecting', 'qr', 'succeeded', 'failed', 'conflict'],
  succeeded: [],
  failed: ['idle', 'conflict', 'succeeded'],
  conflict: ['idle', 'submitting', 'waiting', 'qr', 'succeeded'],
};

/** Whether the payment may move from `from` to `to` (staying put is always allowed). */
export function canMove(from: PaymentState, to: PaymentState): boolean {
  return from === to || PAYMENT_MOVES[from].includes(to);
}

/** Whether the order is shown paid (or refunded): final, whatever comes later. */
export function isSettled({ state, conflict }: Pick<Payment, 'state' | 'conflict'>): boolean {
  return state === 'succeeded' || (state === 'conflict' && (conflict?.kind === 'paid' || conflict?.kind === 'refunded'));
}

/**
 * Whether `payment` may move to `to` with `change`: allowed by the table, and never out of an
 * order shown paid, nor to another reason for it (a paid order does not become an expired page).
 */
export function mayMove(payment: Pick<Payment, 'state' | 'conflict'>, to: PaymentState, change?: PaymentChange): boolean {
  return canMove(payment.state, to) && !(isSettled(payment) && (to !== payment.state || (change !== undefined && 'conflict' in change)));
}

