/**
 * How the payment of `<satang-checkout>` keeps the page still: "Checking your payment…" only once
 * the status is slow, and the checkout's box at the form's height while the payment's views stand
 * in for it. Part of the payment code (`pay-path.ts`).
 */
import type { Payment } from './payment-state.js';

/**
 * How long a payment's status may take, once its charge is made and it asks nothing of the shopper
 * (a card without 3-D Secure), before the checkout calls the wait slow: until then it stays
 * "Processing…" over the form as it was sent, then shows "Checking your payment…" with "Choose
 * another method". Most card payments are final well within it, and show their outcome straight
 * from "Processing…"; a way out offered sooner would only invite leaving a payment about to succeed.
 */
export const CHECKING_AFTER_MS = 2_000;

/**
 * Keeps the checkout's box at the height it has with the form (measured as the charge is answered,
 * the form still shown) while the payment's views stand in for the form: "Processing…", the check,
 * the outcome are each no taller than the form, so the page around does not move as they follow
 * each other. Let go when the form comes back (`paymentView` of `payment-view.ts`).
 */
export function holdHeight(payment: Payment, hold: boolean): void {
  const box = payment.host.shadowRoot?.querySelector<HTMLElement>('.container');
  if (box) box.style.minHeight = hold ? getComputedStyle(box).height : '';
}
