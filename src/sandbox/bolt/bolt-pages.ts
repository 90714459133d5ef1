import { formatAmount } from '../../core/money.js';
import { html, type Html } from '../http/html.js';
import { formatBangkokTime, joinLines, paymentMethodLabel, renderButton, renderDocument, renderIssuer, summaryRow } from '../http/page-layout.js';

/**
 * The bolt pages: the shopper's side of one bolt intent, and the terminal's list of the open
 * ones. Pure functions returning whole documents under the hosted pages' CSP and stylesheet.
 */

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
export function renderBoltIntentPage(view: {
  stylesheetHref: string;
  intent: BoltIntentView;
  action: string;
  failureCodes: readonly string[];
  message?: { kind: 'error' | 'success'; text: string };
}): Html {
  const { intent, action, failureCodes, message } = view;
  const amount = formatAmount(intent.amountSatang, intent.currency);
  const methodLabel = paymentMethodLabel(intent.paymentMethodType);
  const terminal = intent.mode === 'PAIRING';
  const mono = (text: string) => html`<span class="mono">${text}</span>`;
  const rows = [
    summaryRow('Amount', amount, 'summary-amount'),
    summaryRow('Merchant', intent.merchantName),
    summaryRow('Reference', intent.referenceId || 'None given'),
    summaryRow('Method', methodLabel),
    summaryRow('Bolt intent', mono(intent.id)),
    summaryRow('Status', html`<span class="badge badge-${STATUS_BADGES[intent.status] ?? 'pending'}">${intent.status}</span>`),
    summaryRow(intent.status === 'EXPIRED' ? 'Expired' : 'Expires', html`<time datetime="${intent.expiresAt}">${formatBangkokTime(intent.expiresAt)}</time>`),
  ];
  if (intent.result) rows.push(summaryRow('Result', mono(intent.result)));
  if (intent.latestChargeId) rows.push(summaryRow('Latest charge', mono(intent.latestChargeId)));
  const messageHtml = message
    ? html`<p class="notice notice-${message.kind}" id="bolt-message" role="${message.kind === 'error' ? 'alert' : 'status'}">${message.text}</p>\n`
    : '';

  let controls: Html;
  if (intent.status === 'ACTIVE') {
    const options = joinLines(failureCodes.map((code) => html`<option value="${code}">${code}</option>`));
    controls = html`<form method="post" action="${action}">
<div class="field">
<label for="failureCode">When declined, the charge fails with</label>
<select id="failureCode" name="failureCode">
${options}
</select>
</div>
<div class="actions">
${renderButton('action', 'pay', `Pay ${amount}`, 'success')}
</div>
<div class="actions actions-pair">
${renderButton('action', 'decline', 'Decline the payment', 'danger')}
${renderButton('action', 'cancel', 'Cancel the request', 'danger')}
</div>
</form>`;
  } else {
    const back = intent.returnUrl
      ? html`<div class="actions">\n<a class="button button-primary" href="${intent.returnUrl}">Return to the merchant</a>\n</div>`
      : html`<p class="closing">You can close this page.</p>`;
    const note = STATUS_NOTES[intent.status] ?? `This payment request is ${intent.status}.`;
    controls = html`<p class="notice notice-${intent.status === 'PAID' ? 'success' : 'error'}" role="status">${note}</p>\n${back}`;
  }

  const tone = intent.status === 'ACTIVE' ? 'pending' : intent.status === 'PAID' ? 'succeeded' : 'failed';
  const lede = terminal
    ? 'This page plays the paired payment terminal: the shopper pays, is declined, or the request is canceled, as if at the counter.'
    : 'This page plays the payment app the deep link opens: paying or canceling takes the shopper back to the merchant.';
  const body = html`<div class="card tone-${tone}">
${renderIssuer(terminal ? 'Satang Bolt · Terminal simulator' : `Satang Bolt · ${methodLabel}`, 'B')}
<h1>${terminal ? `Collect ${amount}` : `Pay ${amount} to ${intent.merchantName}`}</h1>
<p class="lede">${lede}</p>
${messageHtml}<dl class="summary" aria-label="Payment request details">
${joinLines(rows)}
</dl>
${controls}
</div>`;
  return renderDocument({ title: terminal ? 'Bolt terminal' : `Pay with ${methodLabel}`, stylesheetHref: view.stylesheetHref, body });
}

/** An open intent as the terminal's home screen lists it. */
export interface OpenBoltIntentView {
  id: string;
  mode: string;
  amountSatang: number;
  currency: string;
  referenceId: string;
  /** The intent's page. */
  href: string;
}

/** The terminal's home screen: the open intents, newest first, each linking to its page. */
export function renderOpenBoltIntentsPage(view: { stylesheetHref: string; intents: readonly OpenBoltIntentView[] }): Html {
  const items = view.intents.map((intent) => {
    const amount = formatAmount(intent.amountSatang, intent.currency);
    return html`<li class="pending-item">
<div>
<p class="pending-amount">${amount}</p>
<p class="pending-meta"><span class="mono">${intent.id}</span> · ${intent.mode} · ${intent.referenceId}</p>
</div>
<a class="button button-primary button-compact" href="${intent.href}">Open<span class="visually-hidden"> ${amount}, ${intent.id}</span></a>
</li>`;
  });
  const list =
    items.length > 0
      ? html`<ul class="pending">\n${joinLines(items)}\n</ul>`
      : html`<p class="lede">No bolt intents are waiting. Create one with POST /api/v1/bolt-intents, then reload this page.</p>`;
  const body = html`<div class="card">
${renderIssuer('Satang Bolt · Terminal simulator', 'B')}
<h1>Open payment requests</h1>
<p class="lede">The bolt intents still waiting for a shopper. Open one to pay it, decline it or cancel it as the terminal would.</p>
${list}
</div>`;
  return renderDocument({ title: 'Bolt terminal', stylesheetHref: view.stylesheetHref, body, bodyClass: 'page-wide' });
}
