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

/**
 * Keeps a payment the shopper left (see `abandon`), or one of this tab's that another payment
 * overtook (the order paid elsewhere while it was open), for the page that later shows the order paid.
 */
export function rememberLeft(payment: Payment, charge: Pick<CheckoutChargeResponse, 'chargeId' | 'statusToken'> & { method?: string | undefined }): void {
  const { host } = payment;
  keepLeftPayment(host.orderReference, {
    chargeId: charge.chargeId,
    statusToken: charge.statusToken,
    method: charge.method ?? payment.now.method ?? '',
    amount: host.amount,
    currency: host.currency,
  });
}

/**
 * The order shows paid (by `paidBy` when known): asks after each payment this tab left, and tells
 * those that went through all the same. A left payment still open is followed while the page shows
 * (for {@link LEFT_WATCH_MS} at most), and asked again the next time the order shows paid (a
 * reload, a return); one that failed is forgotten.
 */
export async function tellLeftPayments(payment: Payment, paidBy: string | undefined): Promise<void> {
  const { host } = payment;
  for (const left of leftPayments(host.orderReference)) {
    if (left.chargeId === paidBy) continue;
    // Still open (a QR code that may yet be scanned): followed while the page shows the order paid.
    if ((await askLeft(payment, left, 0)) === 'PENDING') void watchLeft(payment, left);
  }
}

/** How long a payment left and still open is followed once the order shows paid: past a QR code's life. */
const LEFT_WATCH_MS = 15 * 60 * 1000;
/** How long each ask of a left payment still open waits for news (a long-poll). */
const LEFT_WAIT_SECONDS = 25;
/** Least time between two asks of one left payment. */
const LEFT_MIN_INTERVAL_MS = 5_000;
const watched = new WeakMap<Payment, Set<string>>();

/** Follows a left payment still open, so one that goes through after the order was paid is told at once, without a reload. */
async function watchLeft(payment: Payment, left: LeftPayment): Promise<void> {
  const mine = watched.get(payment) ?? new Set<string>();
  watched.set(payment, mine);
  if (mine.has(left.chargeId)) return;
  mine.add(left.chargeId);
  const until = Date.now() + LEFT_WATCH_MS;
  try {
    while (payment.host.isConnected && Date.now() < until) {
      const askedAt = Date.now();
      if ((await askLeft(payment, left, LEFT_WAIT_SECONDS)) !== 'PENDING') return;
      // A server that does not hold the ask is asked again no sooner than this.
      const pauseMs = askedAt + LEFT_MIN_INTERVAL_MS - Date.now();
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  } finally {
    mine.delete(left.chargeId);
  }
}

/** Asks where a left payment stands; one that went through is told, one that failed forgotten. Undefined when not answered (or its token expired): nothing is claimed of it. */
async function askLeft(payment: Payment, left: LeftPayment, waitSeconds: number): Promise<string | undefined> {
  const { host } = payment;
  let status;
  try {
    status = await getCheckoutStatus(host.endpoint, left.chargeId, left.statusToken, waitSeconds);
  } catch {
    return undefined;
  }
  if (status.status === 'FAILED') forgetLeftPayment(host.orderReference, left.chargeId);
  else if (status.status === 'SUCCEEDED' && status.outcome !== 'paid' && status.outcome !== 'authorized') {
    const outcome = { left, refunded: status.outcome === 'duplicate_refunded' || status.outcome === 'repriced_refunded' };
    told.set(payment, [...(told.get(payment) ?? []).filter((o) => o.left.chargeId !== left.chargeId), outcome]);
    host.requestUpdate();
  }
  return status.status;
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
