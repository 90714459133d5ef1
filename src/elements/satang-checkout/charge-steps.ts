/**
 * The payment of `<satang-checkout>` from the charge on: sending it, the redirect, QR code or
 * status wait its answer asks for, and the outcome, announced as events; and the refusals after
 * which nothing was charged (`conflict-view.ts`). Part of the code fetched after the form shows
 * (`pay-path.ts`).
 */
import { html, nothing, type TemplateResult } from 'lit';
import { RETURN_PARAM } from '../../client/attempt-key.js';
import { abandonAttempt, clearAttempt, loadAttempt, saveAttempt, wasAbandoned, type SavedAttempt } from '../../client/attempt-store.js';
import { createCheckoutCharge, getCheckoutStatus } from '../../client/checkout-api.js';
import { asClientError, CheckoutClientError } from '../../client/client-error.js';
import { safeRedirectUrl } from '../../client/redirect.js';
import { deviceTypeFromUserAgent } from '../../core/device.js';
import { formatAmount } from '../../core/money.js';
import type { CheckoutChargeRequest, CheckoutStatusResponse } from '../../core/schemas/checkout.js';
import type { DeviceType } from '../../core/schemas/payment-method.js';
import type { InstallmentPeriod } from '../../core/constants.js';
import { SatangAbandonEvent, SatangAlreadyPaidEvent, SatangAmountChangedEvent, SatangResumeEvent } from '../checkout-events.js';
import { StatusPoller } from '../controllers/status-poller.js';
import { SatangActionEvent, type SatangErrorEvent, SatangFailureEvent, SatangSubmitEvent, SatangSuccessEvent } from '../events.js';
import { ORDER_PAID_ELSEWHERE, orderVerdict } from '../order-outcome.js';
import { returnUrlOf } from './checkout-config.js';
import { conflictView } from './conflict-view.js';
import { outcomeView } from './outcome-view.js';
import { methodWords } from './provider-names.js';
import { leftPaymentsView, rememberLeft, tellLeftPayments } from './left-payments.js';
import { tellTabs } from './order-tabs.js';
import { isSettled } from './payment-moves.js';
import type { ChargeConflict, ChargeOptions, Notice, Payment, PaymentChange, PaymentMethod } from './payment-state.js';
import { loadQrElement } from './promptpay-panel.js';
import { qrPaymentView } from './qr-payment-view.js';
import { partsOf, planWords } from './panels.js';
import { CHECKING_AFTER_MS, holdHeight } from './payment-layout.js';

/** The installment plan (months) of the charge this page sent, for its success to name. */
const plans = new WeakMap<Payment, InstallmentPeriod>();

/**
 * Asks the merchant's server to charge the chosen method, then goes where its answer says. The
 * request carries the amount shown, which the server charges only if it is still the order's.
 */
export async function charge(payment: Payment, method: PaymentMethod, deviceType: DeviceType, options: ChargeOptions = {}): Promise<void> {
  const { host } = payment;
  host.dispatchEvent(new SatangSubmitEvent(method.type));
  const attemptKey = payment.attemptKey ?? crypto.randomUUID();
  payment.show(payment.state, { attemptKey });
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
    charge = await createCheckoutCharge(host.endpoint, body, attemptKey, host.orderToken);
  } catch (error) {
    if (refused(payment, error)) return;
    throw error;
  }
  payment.show(payment.state, { charge, method: method.type, replaceNext: false, resumed: false });
  holdHeight(payment, true);
  if (method.type === 'CARD_TOKEN_INSTALLMENTS' && method.installmentPeriod) plans.set(payment, method.installmentPeriod);
  else plans.delete(payment);
  tellTabs(payment, { state: 'paying', chargeId: charge.chargeId });
  const keep = (action: 'redirect' | 'qr' | 'wait', extra?: Pick<SavedAttempt, 'qr' | 'redirectUrl'>) =>
    saveAttempt(host.orderReference, { chargeId: charge.chargeId, statusToken: charge.statusToken, method: method.type, action, ...extra });
  if (charge.actionRequired === 'REDIRECT') {
    const url = safeRedirectUrl(charge.redirect?.redirectUrl);
    if (!url) {
      payment.problem(new CheckoutClientError('rejected', payment.localize.msg('error.redirect'), 'UNSAFE_REDIRECT', false), 'error.redirect');
      return;
    }
    keep('redirect', { redirectUrl: url.href });
    payment.show('redirecting');
    host.dispatchEvent(new SatangActionEvent('redirect', charge.chargeId));
    payment.steps.navigate(url);
    return;
  }
  if (charge.actionRequired === 'ENCODED_IMAGE') {
    const image = charge.encodedImage;
    keep('qr', image ? { qr: { rawData: image.rawData, expiry: image.expiry, ...(image.imageBase64Encoded ? { image: image.imageBase64Encoded } : {}) } } : undefined);
    showQr(payment);
    return;
  }
  keep('wait');
  follow(payment, charge.chargeId, charge.statusToken);
  // Most payments are final within moments: "Processing…" stays until then. Only a wait slow past
  // the deadline shows that the payment is being checked, with its way out.
  setTimeout(() => {
    if (payment.state === 'submitting' && payment.charge === charge) waiting(payment);
  }, CHECKING_AFTER_MS);
}

/** Shows the charge's QR code once its element is here, and moves focus to it. */
export function showQr(payment: Payment): void {
  const { host } = payment;
  loadQrElement().then(
    async () => {
      const chargeId = payment.charge?.chargeId ?? '';
      // Settled meanwhile (another tab paid the order): the code is not shown.
      if (!payment.charge || !payment.show('qr')) return;
      payment.announce(payment.localize.msg('announce.qr'));
      host.dispatchEvent(new SatangActionEvent('qr', chargeId));
      await focusOn(payment, 'satang-qr-payment');
    },
    (error: unknown) => payment.problem(error),
  );
}

/** The charge exists and its outcome is awaited: said (a status region), and focused, so the shopper knows where things are. */
export function waiting(payment: Payment, change?: PaymentChange): void {
  if (payment.show('waiting', change)) void focusOn(payment, '.progress');
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
  forgetReturnMark();
  const saved = loadAttempt(payment.host.orderReference);
  if (!saved) {
    // Kept too long, or not readable: the form, as on a first visit.
    payment.show('idle', { resumed: false });
    return;
  }
  const { chargeId, statusToken, qr, redirectUrl } = saved;
  payment.host.dispatchEvent(new SatangResumeEvent(chargeId, saved.method));
  if (qr) {
    const charge = { chargeId, statusToken, actionRequired: 'ENCODED_IMAGE', encodedImage: { rawData: qr.rawData, expiry: qr.expiry, imageBase64Encoded: qr.image ?? '' } } as const;
    payment.show(payment.state, { method: saved.method, charge });
    showQr(payment);
    return;
  }
  const charge = { chargeId, statusToken, actionRequired: saved.action === 'redirect' ? 'REDIRECT' : 'NONE', ...(redirectUrl ? { redirect: { redirectUrl } } : {}) } as const;
  // Back from the bank's page, the page whole from the back-forward cache: the card is still in the
  // form (nowhere else), but for its security code, which is typed again for any next payment.
  if (saved.action === 'redirect') payment.steps.clearSecurityCode();
  waiting(payment, { method: saved.method, charge });
  follow(payment, chargeId, statusToken);
}

/**
 * Takes the mark of a return ({@link RETURN_PARAM}) out of the address once the payment is picked
 * up: it served its purpose, and a shopper who copies or shares the address should not carry it.
 */
export function forgetReturnMark(): void {
  const url = new URL(location.href);
  if (!url.searchParams.has(RETURN_PARAM)) return;
  url.searchParams.delete(RETURN_PARAM);
  history.replaceState(history.state, '', url);
}

/**
 * The shopper leaves the QR code or the wait for another method. The server is asked first: the
 * payment may have gone through meanwhile, and then that is what the shopper sees. Still open, it
 * is abandoned: no longer followed or resumed, and the next charge replaces it (`replace: true`),
 * which moves the order's lock on. Paid anyway later, it is refunded when another payment paid the
 * order, and otherwise pays it (the next attempt is then told the order is paid): never both. The
 * form says so, visibly, and a QR code left is not chosen again.
 */
export async function abandon(payment: Payment): Promise<void> {
  const { host } = payment;
  const charge = payment.charge;
  if (!charge || payment.leaving) return;
  payment.show(payment.state, { leaving: true });
  try {
    const status = await getCheckoutStatus(host.endpoint, charge.chargeId, charge.statusToken, 0);
    if (payment.charge !== charge) return;
    if (status.status !== 'PENDING') {
      payment.poller?.stop();
      outcome(payment, status.chargeId, status.status === 'SUCCEEDED', status.failureCode ?? '', status.outcome);
      return;
    }
    if (status.order === 'paid') {
      paidElsewhere(payment);
      return;
    }
  } catch {
    // Not answered: the shopper still leaves, and the notice says the payment may yet arrive.
  } finally {
    payment.show(payment.state, { leaving: false });
  }
  if (payment.charge !== charge) return;
  const qr = payment.state === 'qr' ? charge.encodedImage : undefined;
  payment.poller?.stop();
  abandonAttempt(host.orderReference, charge.chargeId);
  rememberLeft(payment, charge);
  payment.forget();
  if (!payment.show('idle', { replaceNext: true, resumed: false, charge: undefined })) return;
  // Another method is chosen first (which clears the notice over the form), then the notice is set.
  await payment.steps.focusMethod(payment.method, Boolean(qr));
  const l = payment.localize;
  // In words at each render, in the language of the moment; not an error, so not drawn as one.
  const words = () => {
    const method = methodWords(l, payment.method);
    if (qr) return l.msg('left.qr', { time: new Date(qr.expiry).toLocaleTimeString(l.locale === 'th' ? 'th-TH' : 'en-GB', { hour: '2-digit', minute: '2-digit' }) });
    return method ? l.msg('left.payment', { method }) : l.msg('left.paymentAny');
  };
  const notice: Notice = () => html`<span class="info">${words()}</span>`;
  payment.show(payment.state, { notice });
  payment.announce(words());
  tellTabs(payment, { state: 'open', chargeId: charge.chargeId });
  host.dispatchEvent(new SatangAbandonEvent(charge.chargeId));
}

/**
 * The order was paid by another payment (another tab, another device) while this one was open: it
 * is no longer followed, and the order shows paid. Should this payment go through all the same, it
 * is refunded.
 */
export function paidElsewhere(payment: Payment): void {
  const { host } = payment;
  payment.poller?.stop();
  payment.forget();
  clearAttempt(host.orderReference);
  if (isSettled(payment)) return;
  conflicted(payment, { kind: 'paid' }, { charge: undefined, resumed: false });
  host.dispatchEvent(new SatangAlreadyPaidEvent(host.orderReference));
  void tellLeftPayments(payment, undefined);
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

/** Shows `conflict` (with `change`, what else the step changes), unless the order is shown paid already. */
export function conflicted(payment: Payment, conflict: ChargeConflict, change?: PaymentChange): void {
  if (isSettled(payment) || !payment.show('conflict', { ...change, conflict })) return;
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
    payment.show('idle', { resumed: false, charge: undefined });
    return;
  }
  conflicted(payment, { kind: 'expired' });
}

/** Long-polls the charge's status until it is final. */
export function follow(payment: Payment, chargeId: string, statusToken: string): void {
  const poller = payment.poller ?? new StatusPoller(payment.host, (status) => heardStatus(payment, status), (error) => statusFailed(payment, error));
  payment.show(payment.state, { poller });
  poller.start(payment.host.endpoint, chargeId, statusToken);
}

/** A status the wait answered: final, it is the outcome; still pending, the order may have been paid by another payment. */
function heardStatus(payment: Payment, status: CheckoutStatusResponse): void {
  if (status.status !== 'PENDING') outcome(payment, status.chargeId, status.status === 'SUCCEEDED', status.failureCode ?? '', status.outcome);
  else if (status.order === 'paid') paidElsewhere(payment);
}

/** The wait failed for good (a retryable failure is retried by the poller): an expired token, or a problem shown over the form. */
function statusFailed(payment: Payment, error: CheckoutClientError): void {
  if (error.retryable) return;
  if (error.code === 'STATUS_TOKEN_EXPIRED') return expired(payment);
  payment.poller?.stop();
  payment.problem(error);
}

/**
 * Shows and announces a final status. A charge that went through without paying the order (the
 * server refunded it, or took the wrong amount: its `orderOutcome`) is a failure for the shopper
 * and the page: never `satang-success`.
 */
export function outcome(payment: Payment, chargeId: string, succeeded: boolean, failureCode: string, orderOutcome: string | undefined): void {
  const { host } = payment;
  // Shown paid already (the same news from the other tab, or from the QR element and a status read): told once.
  if (isSettled(payment)) return;
  payment.poller?.stop();
  payment.forget();
  // A card entered before the page went away (a 3-D Secure page) is not in the form any more.
  const cardKept = !payment.resumed;
  const verdict = orderVerdict({ status: succeeded ? 'SUCCEEDED' : 'FAILED', outcome: orderOutcome });
  const paid = verdict === 'paid';
  // A paid order stays saved, so a reload or Back shows it paid rather than a form to pay again.
  if (!paid) clearAttempt(host.orderReference);
  const change: PaymentChange = {
    charge: undefined,
    resumed: false,
    outcome: succeeded ? orderOutcome : undefined,
    failureCode: paid ? '' : succeeded ? (orderOutcome ?? '') : failureCode,
  };
  if (verdict === 'failed') {
    // Declined: back to the form as it was (the card still filled in, its security code to type
    // again), the reason over it, in the words of the method paid with.
    payment.steps.clearSecurityCode();
    payment.show('idle', { ...change, declined: { failureCode, type: payment.method ?? '', cardKept } });
    tellTabs(payment, { state: 'open', chargeId });
    host.dispatchEvent(new SatangFailureEvent(chargeId, failureCode));
    // The picker shows the method that failed (after a reload it may show another); the reason is
    // an alert, and takes focus last.
    void payment.steps.focusMethod(payment.method);
    void payment.focusNotice();
    return;
  }
  if (!payment.show(paid ? 'succeeded' : 'failed', change)) return;
  tellTabs(payment, { state: paid ? 'paid' : 'open', chargeId });
  host.dispatchEvent(paid ? new SatangSuccessEvent(chargeId, orderOutcome) : new SatangFailureEvent(chargeId, payment.failureCode, payment.outcome));
  void focusHeading(payment);
  if (paid) void tellLeftPayments(payment, chargeId);
}

/**
 * The outcome, the conflict or the QR code to pay; nothing in the other states. The QR element's
 * outcome becomes the checkout's own, announced once; `renewQr` hears the shopper ask for a new code.
 */
export function paymentView(payment: Payment, renewQr: () => void): TemplateResult | typeof nothing {
  const { host, localize: l, charge, state } = payment;
  if (state === 'idle') holdHeight(payment, false);
  // A QR code and the wait for a charge's status each have a way out: another method, once the server is asked.
  const wayOut = html`<button part="change-method-button" class="secondary" type="button" ?disabled=${payment.leaving} aria-busy=${payment.leaving ? 'true' : 'false'} @click=${() => void abandon(payment)}>
    ${l.msg(payment.leaving ? 'left.asking' : 'method.change')}
  </button>`;
  if (state === 'waiting' || state === 'redirecting') {
    // Back from a bank, wallet or 3-D Secure page without finishing: the way back to it.
    const back = state === 'waiting' ? safeRedirectUrl(charge?.redirect?.redirectUrl) : undefined;
    // A status line, not a box; its spinner turns only while nothing is asked of the shopper.
    return html`<div part="progress" class="progress" role="status" tabindex="-1"><span part="spinner" class="spinner ${back ? 'paused' : ''}" aria-hidden="true"></span><span>${l.msg(state === 'waiting' ? 'status.checking' : 'redirecting')}</span></div>
      ${back ? html`<p part="notice" class="notice">${l.msg('left.stillOpen')}</p><a part="return-link" class="pay link-button" href=${back.href}>${l.msg('left.goBack')}</a>` : nothing}
      ${state === 'waiting' && charge ? wayOut : nothing}`;
  }
  if (state === 'conflict') return payment.conflict ? conflictView(l, payment.conflict, { resend: (options) => resend(payment, options), back: payment.again }, leftPaymentsView(payment)) : nothing;
  if (state === 'succeeded' || state === 'failed') {
    // Paid in installments here: the plan, in the words the plans were chosen in.
    const months = state === 'succeeded' && payment.outcome !== 'duplicate_refunded' ? plans.get(payment) : undefined;
    const plan = months ? html`<p>${l.msg('success.plan', { plan: planWords(l, partsOf(host.amount, months), host.currency) })}</p>` : nothing;
    return outcomeView(l, state === 'succeeded', host.intent === 'authorize', formatAmount(host.amount, host.currency), payment.failureCode, payment.outcome, payment.again, () => review(payment), html`${plan}${leftPaymentsView(payment)}`);
  }
  if (state !== 'qr' || !charge?.encodedImage) return nothing;
  const qrOutcome = (event: SatangSuccessEvent | SatangFailureEvent): void => {
    event.stopPropagation();
    if (event instanceof SatangFailureEvent && event.outcome === ORDER_PAID_ELSEWHERE) return paidElsewhere(payment);
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
  payment.show('idle', { conflict: undefined });
  void payment.pay(deviceTypeFromUserAgent(navigator.userAgent, navigator.maxTouchPoints), options);
}

/** After a refund for a changed price: asks the server for the new total, which the shopper then confirms. */
function review(payment: Payment): void {
  resend(payment, { askTotal: true });
}
