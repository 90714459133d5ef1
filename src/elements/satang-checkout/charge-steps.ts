/**
 * The payment of `<satang-checkout>` from the charge on: sending it, the redirect, QR code or
 * status wait its answer asks for, and the outcome, announced as events. Part of the code fetched
 * after the form shows (`pay-path.ts`).
 */
import type { nothing, TemplateResult } from 'lit';
import { clearAttempt, saveAttempt } from '../../client/attempt-store.js';
import { createCheckoutCharge } from '../../client/checkout-api.js';
import { CheckoutClientError } from '../../client/client-error.js';
import { safeRedirectUrl } from '../../client/redirect.js';
import { formatAmount } from '../../core/money.js';
import type { CheckoutChargeRequest } from '../../core/schemas/checkout.js';
import type { DeviceType } from '../../core/schemas/payment-method.js';
import { StatusPoller } from '../controllers/status-poller.js';
import { SatangActionEvent, SatangFailureEvent, SatangSubmitEvent, SatangSuccessEvent } from '../events.js';
import { returnUrlOf } from './checkout-config.js';
import { outcomeView } from './outcome-view.js';
import type { Payment, PaymentMethod } from './payment-state.js';
import { loadQrElement } from './promptpay-panel.js';
import { qrPaymentView } from './qr-payment-view.js';

/** Asks the merchant's server to charge the chosen method, then goes where its answer says. */
export async function charge(payment: Payment, method: PaymentMethod, deviceType: DeviceType): Promise<void> {
  const { host } = payment;
  host.dispatchEvent(new SatangSubmitEvent(method.type));
  payment.attemptKey ??= crypto.randomUUID();
  // No payment starts while the configuration is wrong, a bad return-url included.
  const returnUrl = returnUrlOf(host);
  if (!returnUrl) throw new CheckoutClientError('config', 'return-url is not an http(s) URL', 'CONFIG', false);
  const body: CheckoutChargeRequest = {
    orderReference: host.orderReference,
    paymentMethod: method,
    returnUrl: returnUrl.href,
    deviceType,
    intent: host.intent,
  };
  const charge = (payment.charge = await createCheckoutCharge(host.endpoint, body, payment.attemptKey));
  if (charge.actionRequired === 'REDIRECT') {
    const url = safeRedirectUrl(charge.redirect?.redirectUrl);
    if (!url) {
      payment.problem(new CheckoutClientError('rejected', payment.localize.msg('error.redirect'), 'UNSAFE_REDIRECT', false), 'error.redirect');
      return;
    }
    saveAttempt(host.orderReference, { chargeId: charge.chargeId, statusToken: charge.statusToken, method: method.type });
    payment.show('redirecting');
    host.dispatchEvent(new SatangActionEvent('redirect', charge.chargeId));
    payment.steps.navigate(url);
    return;
  }
  if (charge.actionRequired === 'ENCODED_IMAGE') {
    loadQrElement().then(
      () => {
        payment.show('qr');
        host.dispatchEvent(new SatangActionEvent('qr', charge.chargeId));
      },
      (error: unknown) => payment.problem(error),
    );
    return;
  }
  payment.show('waiting');
  follow(payment, charge.chargeId, charge.statusToken);
}

/** Long-polls the charge's status until it is final. */
export function follow(payment: Payment, chargeId: string, statusToken: string): void {
  payment.poller ??= new StatusPoller(
    payment.host,
    (status) => {
      if (status.status !== 'PENDING') outcome(payment, status.chargeId, status.status === 'SUCCEEDED', status.failureCode ?? '');
    },
    (error) => {
      if (error.retryable) return;
      payment.poller?.stop();
      payment.problem(error);
    },
  );
  payment.poller.start(payment.host.endpoint, chargeId, statusToken);
}

function outcome(payment: Payment, chargeId: string, succeeded: boolean, failureCode: string): void {
  payment.poller?.stop();
  clearAttempt(payment.host.orderReference);
  payment.forget();
  payment.failureCode = failureCode;
  payment.show(succeeded ? 'succeeded' : 'failed');
  payment.host.dispatchEvent(succeeded ? new SatangSuccessEvent(chargeId) : new SatangFailureEvent(chargeId, failureCode));
}

/**
 * The outcome, or the QR code to pay; nothing in the other states. The QR element's outcome
 * becomes the checkout's own, announced once; `renewQr` hears the shopper ask for a new code.
 */
export function paymentView(payment: Payment, renewQr: () => void): TemplateResult | typeof nothing | undefined {
  const { host, localize: l, charge, state } = payment;
  if (state === 'succeeded' || state === 'failed') {
    return outcomeView(l, state === 'succeeded', host.intent === 'authorize', formatAmount(host.amount, host.currency), payment.failureCode, payment.again);
  }
  if (state !== 'qr' || !charge?.encodedImage) return undefined;
  const qrOutcome = (event: SatangSuccessEvent | SatangFailureEvent): void => {
    event.stopPropagation();
    outcome(payment, event.chargeId, event instanceof SatangSuccessEvent, event instanceof SatangFailureEvent ? event.failureCode : '');
  };
  return qrPaymentView(l, host, charge, charge.encodedImage, qrOutcome, renewQr);
}
