/**
 * The payment of `<satang-checkout>` from the charge on: sending it, the redirect, QR code or
 * status wait its answer asks for, and the outcome, announced as events; and the refusals after
 * which nothing was charged (`conflict-view.ts`). Part of the code fetched after the form shows
 * (`pay-path.ts`).
 */
import { html, nothing, type TemplateResult } from 'lit';
import { RETURN_PARAM } from '../../client/attempt-key.js';
import { abandonAttempt, clearAttempt, loadAttempt, saveAttempt, wasAbandoned, type SavedAttempt } from '../../client/attempt-store.js';
import { createCheckoutCharge } from '../../client/checkout-api.js';
import { asClientError, CheckoutClientError } from '../../client/client-error.js';
import { safeRedirectUrl } from '../../client/redirect.js';
import { deviceTypeFromUserAgent } from '../../core/device.js';
import { formatAmount } from '../../core/money.js';
import type { CheckoutChargeRequest } from '../../core/schemas/checkout.js';
import type { DeviceType } from '../../core/schemas/payment-method.js';
import { SatangAlreadyPaidEvent, SatangAmountChangedEvent } from '../checkout-events.js';
import { StatusPoller } from '../controllers/status-poller.js';
import { SatangActionEvent, type SatangErrorEvent, SatangFailureEvent, SatangSubmitEvent, SatangSuccessEvent } from '../events.js';
import { orderVerdict } from '../order-outcome.js';
import { returnUrlOf } from './checkout-config.js';
import { conflictView } from './conflict-view.js';
import { outcomeView } from './outcome-view.js';
import type { ChargeConflict, ChargeOptions, Payment, PaymentMethod } from './payment-state.js';
import { loadQrElement } from './promptpay-panel.js';
import { qrPaymentView } from './qr-payment-view.js';

/**
 * Asks the merchant's server to charge the chosen method, then goes where its answer says. The
 * request carries the amount shown, which the server charges only if it is still the order's.
 */
export async function charge(payment: Payment, method: PaymentMethod, deviceType: DeviceType, options: ChargeOptions = {}): Promise<void> {
  const { host } = payment;
  host.dispatchEvent(new SatangSubmitEvent(method.type));
  payment.attemptKey ??= crypto.randomUUID();
  // No payment starts while the configuration is wrong, a bad return-url included.
  const returnUrl = returnUrlOf(host);
  if (!returnUrl) throw new CheckoutClientError('config', 'return-url is not an http(s) URL', 'CONFIG', false);
  // The page the shopper comes back to sees at once that there may be a payment to pick up.
  returnUrl.searchParams.set(RETURN_PARAM, '1');
  const body: CheckoutChargeRequest = {
    orderReference: host.orderReference,
    paymentMethod: method,
    returnUrl: returnUrl.href,
    deviceType,
    intent: host.intent,
  };
  // Without an amount (none set, or the shopper asked for the new total) the server charges nothing and answers its own.
  if (Number.isSafeInteger(host.amount) && !options.askTotal) Object.assign(body, { amount: host.amount, currency: host.currency });
  // This tab's own earlier payment still open (a QR that expired, a redirect refused or left): the
  // shopper moved on from it, so it is abandoned rather than resumed or reported as elsewhere.
  // Or one the shopper left for another method, in this page or before a reload.
  if (options.replace || payment.charge || payment.replaceNext || wasAbandoned(host.orderReference)) body.replace = true;
  let charge;
  try {
    charge = payment.charge = await createCheckoutCharge(host.endpoint, body, payment.attemptKey);
  } catch (error) {
    if (refused(payment, error)) return;
    throw error;
  }
  payment.method = method.type;
  payment.replaceNext = payment.resumed = false;
  const keep = (action: 'redirect' | 'qr' | 'wait', qr?: SavedAttempt['qr']) =>
    saveAttempt(host.orderReference, { chargeId: charge.chargeId, statusToken: charge.statusToken, method: method.type, action, ...(qr ? { qr } : {}) });
  if (charge.actionRequired === 'REDIRECT') {
    const url = safeRedirectUrl(charge.redirect?.redirectUrl);
    if (!url) {
      payment.problem(new CheckoutClientError('rejected', payment.localize.msg('error.redirect'), 'UNSAFE_REDIRECT', false), 'error.redirect');
      return;
    }
    keep('redirect');
    payment.show('redirecting');
    host.dispatchEvent(new SatangActionEvent('redirect', charge.chargeId));
    payment.steps.navigate(url);
    return;
  }
  if (charge.actionRequired === 'ENCODED_IMAGE') {
    const image = charge.encodedImage;
    keep('qr', image ? { rawData: image.rawData, expiry: image.expiry, ...(image.imageBase64Encoded ? { image: image.imageBase64Encoded } : {}) } : undefined);
    showQr(payment);
    return;
  }
  keep('wait');
  waiting(payment);
  follow(payment, charge.chargeId, charge.statusToken);
}

/** Shows the charge's QR code once its element is here, and moves focus to it. */
function showQr(payment: Payment): void {
  const { host } = payment;
  loadQrElement().then(
    async () => {
      const chargeId = payment.charge?.chargeId ?? '';
      payment.show('qr');
      payment.announce(payment.localize.msg('announce.qr'));
      host.dispatchEvent(new SatangActionEvent('qr', chargeId));
      await focusOn(payment, 'satang-qr-payment');
    },
    (error: unknown) => payment.problem(error),
  );
}

/** The charge exists and its outcome is awaited: said (a status region), and focused, so the shopper knows where things are. */
function waiting(payment: Payment): void {
  payment.show('waiting');
  void focusOn(payment, '.progress');
}

async function focusOn(payment: Payment, selector: string): Promise<void> {
  const { host } = payment;
  await host.updateComplete;
  // Only where focus was in the checkout, or lost with the view it was in: never taken from where the page put it.
  const active = document.activeElement;
  if (active && active !== document.body && active !== host) return;
  host.shadowRoot?.querySelector<HTMLElement>(selector)?.focus();
}

/**
 * Picks up an attempt saved in this tab (a reload, Back, the return from a redirect): the QR code
 * again, with the time it has left (expired, it offers a new one, and is still followed: it may
 * have been paid just before), or the charge followed to its outcome.
 */
export function resume(payment: Payment): void {
  const saved = loadAttempt(payment.host.orderReference);
  if (!saved) {
    // Kept too long, or not readable: the form, as on a first visit.
    payment.resumed = false;
    payment.show('idle');
    return;
  }
  const { chargeId, statusToken, qr } = saved;
  payment.method = saved.method;
  if (qr) {
    payment.charge = { chargeId, statusToken, actionRequired: 'ENCODED_IMAGE', encodedImage: { rawData: qr.rawData, expiry: qr.expiry, imageBase64Encoded: qr.image ?? '' } };
    showQr(payment);
    return;
  }
  payment.charge = { chargeId, statusToken, actionRequired: saved.action === 'redirect' ? 'REDIRECT' : 'NONE' };
  waiting(payment);
  follow(payment, chargeId, statusToken);
}

/**
 * The shopper leaves the QR code or the wait for another method. The charge is abandoned: no longer
 * followed or resumed, and the next charge replaces it (`replace: true`), which moves the order's
 * lock on. Paid anyway later, it is refunded when another payment paid the order, and otherwise
 * pays it (the next attempt is then told the order is paid): never both.
 */
export function abandon(payment: Payment): void {
  const { host } = payment;
  payment.poller?.stop();
  const charge = payment.charge;
  if (charge) abandonAttempt(host.orderReference, charge.chargeId);
  payment.replaceNext = true;
  payment.resumed = false;
  payment.charge = undefined;
  payment.forget();
  payment.show('idle');
  payment.announce(payment.localize.msg('announce.abandoned'));
  void payment.steps.focusMethod(payment.method);
}

/**
 * Shows a refusal after which nothing was charged as the shopper's choice (or, for a paid order,
 * as the end); answers false for any other error. The attempt is over either way: whatever is
 * sent next goes with a new idempotency key and, for cards, a new token from the form as filled.
 */
function refused(payment: Payment, error: unknown): boolean {
  const { host } = payment;
  const { code, details } = asClientError(error);
  let conflict: ChargeConflict | undefined;
  if (code === 'AMOUNT_CHANGED') {
    const { amount, currency } = details ?? {};
    if (!Number.isSafeInteger(amount) || (amount as number) <= 0 || currency !== host.currency) return false;
    conflict = { kind: 'amount', amount: amount as number, previous: host.amount, currency };
    host.amount = conflict.amount;
    host.dispatchEvent(new SatangAmountChangedEvent(conflict.amount, conflict.previous, currency));
  } else if (code === 'PAYMENT_IN_PROGRESS') {
    const method = details?.paymentMethodType;
    conflict = { kind: 'elsewhere', method: typeof method === 'string' ? method : undefined, replaceable: details?.replaceable === true };
  } else if (code === 'ORDER_ALREADY_PAID') {
    conflict = { kind: 'paid' };
    clearAttempt(host.orderReference);
    host.dispatchEvent(new SatangAlreadyPaidEvent(host.orderReference));
  } else {
    return false;
  }
  payment.forget();
  conflicted(payment, conflict);
  return true;
}

function conflicted(payment: Payment, conflict: ChargeConflict): void {
  payment.conflict = conflict;
  payment.show('conflict');
  void focusHeading(payment);
}

/**
 * Moves focus to the heading of the view just shown, so a keyboard or screen reader starts there;
 * not when the page moved it meanwhile (to its own confirmation, say).
 */
function focusHeading(payment: Payment): Promise<void> {
  return focusOn(payment, 'h2[tabindex]');
}

/**
 * The status token was refused as expired: whatever was being followed cannot be read from this
 * page any more. The saved attempt goes too, so the reload starts from the order as it stands.
 */
function expired(payment: Payment): void {
  payment.poller?.stop();
  clearAttempt(payment.host.orderReference);
  payment.forget();
  if (payment.resumed) {
    // Picked up from storage: nothing of it can be read any more, so the page starts afresh (a
    // paid order is then refused as paid, should the shopper press pay).
    payment.resumed = false;
    payment.charge = undefined;
    payment.show('idle');
    return;
  }
  conflicted(payment, { kind: 'expired' });
}

/** Long-polls the charge's status until it is final. */
export function follow(payment: Payment, chargeId: string, statusToken: string): void {
  payment.poller ??= new StatusPoller(
    payment.host,
    (status) => {
      if (status.status !== 'PENDING') outcome(payment, status.chargeId, status.status === 'SUCCEEDED', status.failureCode ?? '', status.outcome);
    },
    (error) => {
      if (error.retryable) return;
      if (error.code === 'STATUS_TOKEN_EXPIRED') return expired(payment);
      payment.poller?.stop();
      payment.problem(error);
    },
  );
  payment.poller.start(payment.host.endpoint, chargeId, statusToken);
}

/**
 * Shows and announces a final status. A charge that went through without paying the order (the
 * server refunded it, or took the wrong amount: its `orderOutcome`) is a failure for the shopper
 * and the page: never `satang-success`.
 */
function outcome(payment: Payment, chargeId: string, succeeded: boolean, failureCode: string, orderOutcome: string | undefined): void {
  const { host } = payment;
  payment.poller?.stop();
  payment.forget();
  payment.charge = undefined;
  payment.resumed = false;
  const verdict = orderVerdict({ status: succeeded ? 'SUCCEEDED' : 'FAILED', outcome: orderOutcome });
  const paid = verdict === 'paid';
  // A paid order stays saved, so a reload or Back shows it paid rather than a form to pay again.
  if (!paid) clearAttempt(host.orderReference);
  payment.outcome = succeeded ? orderOutcome : undefined;
  payment.failureCode = paid ? '' : succeeded ? (orderOutcome ?? '') : failureCode;
  if (verdict === 'failed') {
    // Declined: back to the form as it was (the card still filled in, its security code to type
    // again), the reason over it, in the words of the method paid with.
    payment.declined = { failureCode, type: payment.method ?? '' };
    payment.steps.clearSecurityCode();
    payment.show('idle');
    host.dispatchEvent(new SatangFailureEvent(chargeId, failureCode));
    // The picker shows the method that failed (after a reload it may show another); the reason is
    // an alert, and takes focus last.
    void payment.steps.focusMethod(payment.method);
    void payment.focusNotice();
    return;
  }
  payment.show(paid ? 'succeeded' : 'failed');
  host.dispatchEvent(paid ? new SatangSuccessEvent(chargeId, orderOutcome) : new SatangFailureEvent(chargeId, payment.failureCode, payment.outcome));
  void focusHeading(payment);
}

/**
 * The outcome, the conflict or the QR code to pay; nothing in the other states. The QR element's
 * outcome becomes the checkout's own, announced once; `renewQr` hears the shopper ask for a new code.
 */
export function paymentView(payment: Payment, renewQr: () => void): TemplateResult | typeof nothing {
  const { host, localize: l, charge, state } = payment;
  // A QR code and the wait for a charge's status each have a way out: another method.
  const wayOut = html`<button part="change-method-button" class="secondary" type="button" @click=${() => abandon(payment)}>${l.msg('method.change')}</button>`;
  if (state === 'waiting' || state === 'redirecting') {
    return html`<p part="message" class="progress" role="status" tabindex="-1">${l.msg(state === 'waiting' ? 'status.checking' : 'redirecting')}</p>
      ${state === 'waiting' ? wayOut : nothing}`;
  }
  if (state === 'conflict') return payment.conflict ? conflictView(l, payment.conflict, { resend: (options) => resend(payment, options), back: payment.again }) : nothing;
  if (state === 'succeeded' || state === 'failed') {
    return outcomeView(l, state === 'succeeded', host.intent === 'authorize', formatAmount(host.amount, host.currency), payment.failureCode, payment.outcome, payment.again, () => review(payment));
  }
  if (state !== 'qr' || !charge?.encodedImage) return nothing;
  const qrOutcome = (event: SatangSuccessEvent | SatangFailureEvent): void => {
    event.stopPropagation();
    const succeeded = event instanceof SatangSuccessEvent || event.outcome !== undefined;
    outcome(payment, event.chargeId, succeeded, event instanceof SatangFailureEvent ? event.failureCode : '', event.outcome);
  };
  const qrError = (event: SatangErrorEvent): void => {
    if (event.code !== 'STATUS_TOKEN_EXPIRED') return;
    event.stopPropagation();
    expired(payment);
  };
  return html`${qrPaymentView(l, host, charge, charge.encodedImage, qrOutcome, renewQr, qrError)}${wayOut}`;
}

/**
 * Asks again from a conflict's or an outcome's view: a new attempt, sent as `options` say. The
 * form has not changed since it was last sent (it is hidden meanwhile), so it needs no new check.
 */
function resend(payment: Payment, options: ChargeOptions): void {
  payment.forget();
  payment.conflict = undefined;
  payment.show('idle');
  void payment.pay(deviceTypeFromUserAgent(navigator.userAgent, navigator.maxTouchPoints), options);
}

/** After a refund for a changed price: asks the server for the new total, which the shopper then confirms. */
function review(payment: Payment): void {
  resend(payment, { askTotal: true });
}
