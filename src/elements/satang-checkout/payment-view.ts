/**
 * What the payment of `<satang-checkout>` shows above the form, or instead of it: the wait, the
 * QR code, a refusal after which nothing was charged (`conflict-view.ts`), the outcome. It reads
 * the payment and hands the shopper's buttons to its flow (`payment-flow.ts`); it decides nothing.
 * Part of the code fetched after the form shows (`pay-path.ts`).
 */
import { html, nothing, type TemplateResult } from 'lit';
import { safeRedirectUrl } from '../../client/redirect.js';
import { formatAmount } from '../../core/money.js';
import { type SatangErrorEvent, SatangFailureEvent, type SatangSuccessEvent } from '../events.js';
import { ORDER_PAID_ELSEWHERE } from '../order-outcome.js';
import { conflictView } from './conflict-view.js';
import { leftPaymentsView } from './left-payments.js';
import { outcomeView } from './outcome-view.js';
import { partsOf, planWords } from './panels.js';
import { holdHeight } from './payment-layout.js';
import type { PaymentFlow } from './payment-flow.js';
import { qrPaymentView } from './qr-payment-view.js';

/**
 * The outcome, the conflict or the QR code to pay; nothing in the other states. The QR element's
 * outcome becomes the checkout's own, told once; `renewQr` hears the shopper ask for a new code.
 */
export function paymentView(flow: PaymentFlow, renewQr: () => void): TemplateResult | typeof nothing {
  const { payment } = flow;
  const { host, localize: l } = payment;
  const { charge, state, leaving, plan } = payment.now;
  // The form is back: its box goes back to its own height.
  if (state === 'idle') holdHeight(payment, false);
  // A QR code and the wait for a charge's status each have a way out: another method, once the server is asked.
  const wayOut = html`<button part="change-method-button" class="secondary" type="button" ?disabled=${leaving} aria-busy=${leaving ? 'true' : 'false'} @click=${() => void flow.abandon()}>
    ${l.msg(leaving ? 'left.asking' : 'method.change')}
  </button>`;
  if (state === 'waiting' || state === 'redirecting') {
    // Back from a bank, wallet or 3-D Secure page without finishing: the way back to it.
    const back = state === 'waiting' ? safeRedirectUrl(charge?.redirect?.redirectUrl) : undefined;
    // A status line, not a box; its spinner turns only while nothing is asked of the shopper.
    return html`<div part="progress" class="progress" role="status" tabindex="-1"><span part="spinner" class="spinner ${back ? 'paused' : ''}" aria-hidden="true"></span><span>${l.msg(state === 'waiting' ? 'status.checking' : 'redirecting')}</span></div>
      ${back ? html`<p part="notice" class="notice">${l.msg('left.stillOpen')}</p><a part="return-link" class="pay link-button" href=${back.href}>${l.msg('left.goBack')}</a>` : nothing}
      ${state === 'waiting' && charge ? wayOut : nothing}`;
  }
  if (state === 'conflict') {
    const { conflict } = payment.now;
    return conflict ? conflictView(l, conflict, { resend: (options) => flow.resend(options), back: flow.again }, leftPaymentsView(payment)) : nothing;
  }
  if (state === 'succeeded' || state === 'failed') {
    const { outcome, failureCode = '' } = payment.now;
    // Paid in installments here: the plan, in the words the plans were chosen in.
    const months = state === 'succeeded' && outcome !== 'duplicate_refunded' ? plan : undefined;
    const planText = months ? html`<p>${l.msg('success.plan', { plan: planWords(l, partsOf(host.amount, months), host.currency) })}</p>` : nothing;
    // After a refund for a changed price: the server is asked for the new total, which the shopper then confirms.
    const review = () => flow.resend({ askTotal: true });
    return outcomeView(l, state === 'succeeded', host.intent === 'authorize', formatAmount(host.amount, host.currency), failureCode, outcome, flow.again, review, html`${planText}${leftPaymentsView(payment)}`);
  }
  if (state !== 'qr' || !charge?.encodedImage) return nothing;
  const qrOutcome = (event: SatangSuccessEvent | SatangFailureEvent): void => {
    event.stopPropagation();
    if (event instanceof SatangFailureEvent && event.outcome === ORDER_PAID_ELSEWHERE) return flow.qrPaidElsewhere();
    const failed = event instanceof SatangFailureEvent;
    flow.qrOutcome({ chargeId: event.chargeId, succeeded: !failed || event.outcome !== undefined, failureCode: failed ? event.failureCode : '', orderOutcome: event.outcome });
  };
  const qrError = (event: SatangErrorEvent): void => {
    if (event.code !== 'STATUS_TOKEN_EXPIRED') return;
    event.stopPropagation();
    flow.qrExpired();
  };
  return html`${qrPaymentView(l, host, charge, charge.encodedImage, qrOutcome, renewQr, qrError)}${wayOut}`;
}
