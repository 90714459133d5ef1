/**
 * The moves the payment of `<satang-checkout>` may make (see `PaymentState` in `payment-state.ts`),
 * and the one function every change of it goes through, {@link transition}: pure, and loaded with
 * the element, so the table holds from the first press, before the code after the press arrives.
 */
import type { PaymentChange, PaymentNow, PaymentState } from './payment-state.js';

/**
 * The moves the payment may not make, from each state (by name); every other move is allowed, but
 * none out of an order shown paid ({@link isSettled}): `succeeded` and a paid `conflict` lead
 * nowhere but to the views' own buttons. So no sequence of presses, reloads, tabs or late answers
 * can, say, put the form back (`idle`) over an order shown paid. Written as what is refused, the
 * shorter list, since the table is loaded with the element; the moves allowed are listed in full
 * in its test.
 *
 * - a redirect and a failed charge come only from a payment sent or followed, never from the form
 *   (`idle`) or a refusal (`conflict`);
 * - no press is sent while the shopper is sent away (`redirecting`) or a charge is checked
 *   (`waiting`): the shopper leaves it first;
 * - a QR code does not turn into a redirect;
 * - after a failure (`failed`), only the form, a refusal, or the order paid.
 */
export const REFUSED_MOVES: Readonly<Record<PaymentState, string>> = {
  idle: 'redirecting failed',
  submitting: '',
  redirecting: 'submitting',
  qr: 'redirecting',
  waiting: 'submitting',
  succeeded: '',
  failed: 'submitting redirecting qr waiting',
  conflict: 'redirecting failed',
};

/** Whether the order is shown paid (or refunded): final, whatever comes later. */
export function isSettled({ state, conflict }: Pick<PaymentNow, 'state' | 'conflict'>): boolean {
  return state === 'succeeded' || (state === 'conflict' && (conflict?.kind === 'paid' || conflict?.kind === 'refunded'));
}

/**
 * The payment after moving from `now` to `to` with `change`, or undefined when the move is refused:
 * in the table of refusals, or out of an order shown paid, or to another reason for it (a paid order
 * does not become an expired page). Staying in the state is a change of fields alone. A new state
 * clears what the live region said of the last one.
 */
export function transition(now: PaymentNow, to: PaymentState, change?: PaymentChange): PaymentNow | undefined {
  const stays = to === now.state;
  if (isSettled(now) ? !stays || (change !== undefined && 'conflict' in change) : !stays && REFUSED_MOVES[now.state].split(' ').includes(to)) return undefined;
  return { ...now, ...(stays ? {} : { announcement: '' }), ...change, state: to };
}
