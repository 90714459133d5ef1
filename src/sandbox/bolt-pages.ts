import {
  escapeHtml,
  formatAmountSatang,
  formatExpiry,
  renderButton,
  renderDocument,
  renderIssuer,
  summaryRow,
  type PageLinks,
} from './string-pages.js';
import { paymentMethodLabel } from './http/page-layout.js';

/** What the bolt page shows about a bolt intent. */
export interface BoltIntentView {
  id: string;
  mode: 'PAIRING' | 'DEEP_LINK';
  amountSatang: number;
  currency: string;
  referenceId: string;
  merchantName: string;
  paymentMethodType: string;
  status: string;
  /** "" while the intent is open. */
  result: string;
  /** ISO 8601 timestamp. */
  expiresAt: string;
  latestChargeId: string;
  latestChargeFailureCode: string;
  /** Where a DEEP_LINK shopper goes back to. */
  returnUrl?: string;
}

const STATUS_BADGES: Readonly<Record<string, string>> = {
  ACTIVE: 'pending',
  PAID: 'succeeded',
  CANCELED: 'expired',
  EXPIRED: 'expired',
  VOIDED: 'failed',
  REFUNDED: 'pending',
};

const STATUS_NOTES: Readonly<Record<string, string>> = {
  PAID: 'This payment request has been paid.',
  CANCELED: 'This payment request was canceled.',
  EXPIRED: 'This payment request expired before it was paid.',
  VOIDED: 'The payment of this request was voided.',
  REFUNDED: 'The payment of this request was refunded.',
};

/**
 * The shopper's side of a bolt intent. In PAIRING mode it plays the paired payment terminal, in
 * DEEP_LINK mode the payment app the deep link opens. While the intent is ACTIVE one form POSTs
 * `action=pay`, `action=decline` (with `failureCode`, the charge's failure) or `action=cancel`
 * to `action`; afterwards the page only reports how the intent ended. `message` reports the
 * previous attempt, such as a declined payment.
 */
export function renderBoltIntentPage(
  view: PageLinks & {
    intent: BoltIntentView;
    action: string;
    failureCodes: readonly string[];
    message?: { kind: 'error' | 'success'; text: string };
  },
): string {
  const { intent, action, failureCodes, message } = view;
  const amount = formatAmountSatang(intent.amountSatang, intent.currency);
  const methodLabel = paymentMethodLabel(intent.paymentMethodType);
  const terminal = intent.mode === 'PAIRING';
  const rows = [
    summaryRow('Amount', escapeHtml(amount), 'summary-amount'),
    summaryRow('Merchant', escapeHtml(intent.merchantName)),
    summaryRow('Reference', intent.referenceId ? escapeHtml(intent.referenceId) : 'None given'),
    summaryRow('Method', escapeHtml(methodLabel)),
    summaryRow('Bolt intent', `<span class="mono">${escapeHtml(intent.id)}</span>`),
    summaryRow(
      'Status',
      `<span class="badge badge-${STATUS_BADGES[intent.status] ?? 'pending'}">${escapeHtml(intent.status)}</span>`,
    ),
    summaryRow(intent.status === 'EXPIRED' ? 'Expired' : 'Expires', `<time datetime="${escapeHtml(intent.expiresAt)}">${escapeHtml(formatExpiry(intent.expiresAt))}</time>`),
  ];
  if (intent.result) rows.push(summaryRow('Result', `<span class="mono">${escapeHtml(intent.result)}</span>`));
  if (intent.latestChargeId) rows.push(summaryRow('Latest charge', `<span class="mono">${escapeHtml(intent.latestChargeId)}</span>`));
  const messageHtml = message
    ? `<p class="notice notice-${message.kind}" id="bolt-message" role="${message.kind === 'error' ? 'alert' : 'status'}">${escapeHtml(message.text)}</p>\n`
    : '';

  let controls: string;
  if (intent.status === 'ACTIVE') {
    const options = failureCodes.map((code) => `<option value="${escapeHtml(code)}">${escapeHtml(code)}</option>`).join('\n');
    controls = `<form method="post" action="${escapeHtml(action)}">
<div class="field">
<label for="failureCode">When declined, the charge fails with</label>
<select id="failureCode" name="failureCode">
${options}
</select>
</div>
<div class="actions">
${renderButton('action', 'pay', `Pay ${escapeHtml(amount)}`, 'success')}
</div>
<div class="actions actions-pair">
${renderButton('action', 'decline', 'Decline the payment', 'danger')}
${renderButton('action', 'cancel', 'Cancel the request', 'danger')}
</div>
</form>`;
  } else {
    const back = intent.returnUrl
      ? `<div class="actions">\n<a class="button button-primary" href="${escapeHtml(intent.returnUrl)}">Return to the merchant</a>\n</div>`
      : '<p class="closing">You can close this page.</p>';
    controls = `<p class="notice notice-${intent.status === 'PAID' ? 'success' : 'error'}" role="status">${escapeHtml(STATUS_NOTES[intent.status] ?? `This payment request is ${intent.status}.`)}</p>\n${back}`;
  }

  const tone = intent.status === 'ACTIVE' ? 'pending' : intent.status === 'PAID' ? 'succeeded' : 'failed';
  const body = `<div class="card tone-${tone}">
${renderIssuer(terminal ? 'Satang Bolt · Terminal simulator' : `Satang Bolt · ${methodLabel}`, 'B')}
<h1>${escapeHtml(terminal ? `Collect ${amount}` : `Pay ${amount} to ${intent.merchantName}`)}</h1>
<p class="lede">${
    terminal
      ? 'This page plays the paired payment terminal: the shopper pays, is declined, or the request is canceled, as if at the counter.'
      : 'This page plays the payment app the deep link opens: paying or canceling takes the shopper back to the merchant.'
  }</p>
${messageHtml}<dl class="summary" aria-label="Payment request details">
${rows.join('\n')}
</dl>
${controls}
</div>`;
  return renderDocument({ title: terminal ? 'Bolt terminal' : `Pay with ${methodLabel}`, stylesheetHref: view.stylesheetHref, body });
}
