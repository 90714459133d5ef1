/**
 * The order as the merchant's server knows it, shown whenever the checkout starts or resumes, and
 * whenever another tab of the order says it changed: a paid order reads paid, a payment under way
 * (a QR code, a bank or 3-D Secure page, a card being checked) is picked up, in any tab or device.
 * Asked with the order's token (`order-token`), which the merchant's server signs for this order
 * alone. Part of the payment code (`pay-path.ts`), fetched after the form shows.
 */
import { abandonedCharge, clearAttempt, loadAttempt, saveAttempt } from '../../client/attempt-store.js';
import { getOrderState } from '../../client/checkout-api.js';
import { asClientError } from '../../client/client-error.js';
import type { CheckoutOrderPayment, CheckoutOrderStateResponse } from '../../core/schemas/checkout.js';
import { SatangResumeEvent } from '../checkout-events.js';
import { SatangErrorEvent } from '../events.js';
import { conflicted, follow, forgetReturnMark, outcome, paidElsewhere, showQr, waiting } from './charge-steps.js';
import { listenToTabs, type TabMessage } from './order-tabs.js';
import { isSettled } from './payment-moves.js';
import type { Payment } from './payment-state.js';

/** While another tab or device is creating the order's payment: how soon to ask again, and how often at most. */
export const ORDER_CREATING_RETRY_MS = 1_500;
export const ORDER_CREATING_RETRIES = 40;

const creatingAsked = new WeakMap<Payment, number>();

/**
 * Asks the server where the order stands and shows it; listens to the other tabs of the order
 * first. Without an order token only the tabs are heard. A refused token is the page's set-up
 * (`satang-error`, and the console): the checkout goes on with what this tab kept.
 */
export async function syncOrder(payment: Payment): Promise<void> {
  const { host } = payment;
  listenToTabs(payment, (message) => heard(payment, message));
  forgetReturnMark();
  if (!host.orderToken || isSettled(payment)) return;
  let answer: CheckoutOrderStateResponse;
  try {
    answer = await getOrderState(host.endpoint, host.orderReference, host.orderToken);
  } catch (error) {
    const e = asClientError(error);
    if (e.kind === 'rejected') {
      console.error(`<satang-checkout>: the order token was refused (${e.code}): ${e.message}`);
      host.dispatchEvent(new SatangErrorEvent(e.code, e.message));
    }
    // Unanswered: what this tab kept stands, and the server still refuses to charge a paid order.
    return;
  }
  showOrderState(payment, answer);
}

/** Another tab says the order's payment moved: with a token the server is asked; without, only "paid" is taken. */
function heard(payment: Payment, message: TabMessage): void {
  if (payment.host.orderToken) {
    payment.sync();
    return;
  }
  if (message.state !== 'paid' || isSettled(payment)) return;
  if (message.chargeId !== undefined && message.chargeId === payment.charge?.chargeId) return;
  paidElsewhere(payment);
}

/** Shows the order as the server answered: the truth wins over what this tab remembered. */
export function showOrderState(payment: Payment, answer: CheckoutOrderStateResponse): void {
  if (isSettled(payment)) return;
  const { host } = payment;
  if (answer.state !== 'paying') creatingAsked.delete(payment);
  switch (answer.state) {
    case 'paid': {
      const paidBy = answer.paidBy;
      // This tab's own payment (followed now, or kept from before a reload): its success, as the status would say.
      const own = paidBy !== undefined && (payment.charge?.chargeId === paidBy || loadAttempt(host.orderReference)?.chargeId === paidBy);
      if (own) outcome(payment, paidBy, true, '', answer.outcome);
      else paidElsewhere(payment);
      return;
    }
    case 'refunded':
      payment.poller?.stop();
      payment.forget();
      clearAttempt(host.orderReference);
      conflicted(payment, { kind: 'refunded' }, { charge: undefined });
      return;
    case 'paying':
      if (answer.payment) pickUp(payment, answer.payment);
      else creating(payment);
      return;
    case 'open':
      // Shown "checking" for a payment that is not there (its creation was given up): back to the form.
      if (payment.state === 'waiting' && !payment.charge) payment.show('idle');
  }
}

/**
 * The order's payment is under way: shown here too, followed to its outcome, and kept in this
 * tab's storage. The page hears `satang-resume` (to lock its cart). Nothing changes when this tab
 * already shows it, or is sending a payment of its own.
 */
function pickUp(payment: Payment, open: CheckoutOrderPayment): void {
  const { host } = payment;
  // This tab's shopper left that payment for another method: it may still be paid (a QR until it
  // expires), but it is not offered again here; the next charge replaces it.
  if (payment.state === 'submitting' || payment.leaving || abandonedCharge(host.orderReference) === open.chargeId) return;
  if (payment.charge?.chargeId === open.chargeId) {
    // The same payment; the server's answer may name the page to go back to, which this tab lost.
    if (open.redirect && !payment.charge.redirect) payment.show(payment.state, { charge: { ...payment.charge, redirect: open.redirect } });
    return;
  }
  const { chargeId, statusToken, paymentMethodType, actionRequired } = open;
  payment.poller?.stop();
  payment.show(payment.state, {
    method: paymentMethodType,
    resumed: true,
    charge: {
      chargeId,
      statusToken,
      actionRequired,
      ...(open.intent ? { intent: open.intent } : {}),
      ...(open.redirect ? { redirect: open.redirect } : {}),
      ...(open.encodedImage ? { encodedImage: open.encodedImage } : {}),
    },
  });
  const image = actionRequired === 'ENCODED_IMAGE' ? open.encodedImage : undefined;
  saveAttempt(host.orderReference, {
    chargeId,
    statusToken,
    method: paymentMethodType,
    action: image ? 'qr' : actionRequired === 'REDIRECT' ? 'redirect' : 'wait',
    ...(image ? { qr: { rawData: image.rawData, expiry: image.expiry, ...(image.imageBase64Encoded ? { image: image.imageBase64Encoded } : {}) } } : {}),
    ...(open.redirect?.redirectUrl ? { redirectUrl: open.redirect.redirectUrl } : {}),
  });
  host.dispatchEvent(new SatangResumeEvent(chargeId, paymentMethodType));
  if (image) {
    showQr(payment);
    return;
  }
  waiting(payment);
  follow(payment, chargeId, statusToken);
}

/**
 * Another tab or device is creating the order's payment right now: nothing is offered to pay
 * meanwhile ("checking"), and the server is asked again shortly, a bounded number of times.
 */
function creating(payment: Payment): void {
  if (payment.state === 'submitting' || payment.charge) return;
  const asked = (creatingAsked.get(payment) ?? 0) + 1;
  creatingAsked.set(payment, asked);
  if (asked > ORDER_CREATING_RETRIES) {
    if (payment.state === 'waiting') payment.show('idle');
    return;
  }
  payment.show('waiting');
  setTimeout(() => payment.sync(), ORDER_CREATING_RETRY_MS);
}
