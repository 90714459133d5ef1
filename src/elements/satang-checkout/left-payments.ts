/**
 * Payments the shopper left for another method, told once the order shows paid. One left may still
 * go through: a 3-D Secure, bank or wallet page approved after Back, another method paid, and
 * Forward to it; a QR code scanned late. The merchant's server then refunds it (its status's
 * `outcome` is `duplicate_refunded`), and the page the shopper lands on says so, beside the order's
 * success, instead of leaving a payment just approved unexplained. Part of the payment code
 * (`pay-path.ts`).
 */
import { html, nothing, type TemplateResult } from 'lit';
import { forgetLeftPayment, keepLeftPayment, leftPayments, type LeftPayment } from '../../client/attempt-store.js';
import { getCheckoutStatus } from '../../client/checkout-api.js';
import type { CheckoutChargeResponse } from '../../core/schemas/checkout.js';
import { formatAmount } from '../../core/money.js';
import type { Payment } from './payment-state.js';
import { methodWords } from './provider-names.js';

/** A payment left that went through all the same, and whether it was refunded (`duplicate_refunded`) or not yet (`refund_failed`, say). */
interface LeftOutcome {
  readonly left: LeftPayment;
  readonly refunded: boolean;
}

const told = new WeakMap<Payment, LeftOutcome[]>();

/** Keeps the payment the shopper just left (see `abandon`), for the page that later shows the order paid. */
export function rememberLeft(payment: Payment, charge: CheckoutChargeResponse): void {
  const { host } = payment;
  keepLeftPayment(host.orderReference, {
    chargeId: charge.chargeId,
    statusToken: charge.statusToken,
    method: payment.now.method ?? '',
    amount: host.amount,
    currency: host.currency,
  });
}

/**
 * The order shows paid (by `paidBy` when known): asks once after each payment this tab left, and
 * tells those that went through all the same. A left payment still open is asked again the next
 * time the order shows paid (a reload, a return); one that failed is forgotten.
 */
export async function tellLeftPayments(payment: Payment, paidBy: string | undefined): Promise<void> {
  const { host } = payment;
  const outcomes: LeftOutcome[] = [];
  for (const left of leftPayments(host.orderReference)) {
    if (left.chargeId === paidBy) continue;
    try {
      const status = await getCheckoutStatus(host.endpoint, left.chargeId, left.statusToken, 0);
      if (status.status === 'FAILED') forgetLeftPayment(host.orderReference, left.chargeId);
      else if (status.status === 'SUCCEEDED' && status.outcome !== 'paid' && status.outcome !== 'authorized') outcomes.push({ left, refunded: status.outcome === 'duplicate_refunded' || status.outcome === 'repriced_refunded' });
    } catch {
      // Not answered (or its token expired): nothing is claimed of it.
    }
  }
  if (!outcomes.length) return;
  told.set(payment, outcomes);
  host.requestUpdate();
}

/** The words for the payments left that went through, inside the view of the order paid (a live region, so they are read as they come). */
export function leftPaymentsView(payment: Payment): TemplateResult | typeof nothing {
  const outcomes = told.get(payment);
  if (!outcomes) return nothing;
  const l = payment.localize;
  return html`${outcomes.map(({ left, refunded }) => {
    const amount = formatAmount(left.amount, left.currency);
    const method = methodWords(l, left.method);
    // "Card, ฿1,780.00"; in Thai without the comma.
    const which = method ? `${method}${l.locale === 'th' ? ' ' : ', '}${amount}` : amount;
    return html`<p part="refund-notice">${l.msg(refunded ? 'outcome.leftRefunded' : 'outcome.leftNotRefunded', { payment: which })}</p>`;
  })}`;
}
