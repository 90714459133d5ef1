import { formatAmount } from '../../core/money.js';
import { html, type Html } from '../http/html.js';
import { formatBangkokTime, joinLines, paymentMethodLabel, renderButton, renderDocument, renderIssuer, summaryRow } from '../http/page-layout.js';

/**
 * The bolt pages: the shopper's side of one bolt intent, the terminal's list of the open ones
 * and of the devices, and each device's screen with its pairing code. Pure functions returning
 * whole documents under the hosted pages' CSP and stylesheet.
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
  /** The device a PAIRING intent was sent to. */
  device?: { name: string; href: string };
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
    ...(intent.device ? [summaryRow('Device', html`<a href="${intent.device.href}">${intent.device.name}</a>`)] : []),
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

/** A device as the bolt pages list it. */
export interface BoltDeviceScreenView {
  id: string;
  name: string;
  /** The code the device shows now; it changes after every pairing. */
  pairingCode: string;
  /** The device's screen. */
  href: string;
}

function renderIntentItems(intents: readonly OpenBoltIntentView[], empty: Html): Html {
  const items = intents.map((intent) => {
    const amount = formatAmount(intent.amountSatang, intent.currency);
    return html`<li class="pending-item">
<div>
<p class="pending-amount">${amount}</p>
<p class="pending-meta"><span class="mono">${intent.id}</span> · ${intent.mode} · ${intent.referenceId}</p>
</div>
<a class="button button-primary button-compact" href="${intent.href}">Open<span class="visually-hidden"> ${amount}, ${intent.id}</span></a>
</li>`;
  });
  return items.length > 0 ? html`<ul class="pending">\n${joinLines(items)}\n</ul>` : empty;
}

/**
 * The terminal's home screen: the open intents, newest first, each linking to its page, then the
 * devices, each with the pairing code it shows and a link to its screen.
 */
export function renderOpenBoltIntentsPage(view: { stylesheetHref: string; intents: readonly OpenBoltIntentView[]; devices: readonly BoltDeviceScreenView[] }): Html {
  const list = renderIntentItems(view.intents, html`<p class="lede">No bolt intents are waiting. Create one with POST /api/v1/bolt-intents, then reload this page.</p>`);
  const devices = view.devices.map(
    (device) => html`<li class="pending-item">
<div>
<p class="pending-amount">${device.name}</p>
<p class="pending-meta"><span class="mono">${device.id}</span> · pairing code <span class="mono">${device.pairingCode}</span></p>
</div>
<a class="button button-primary button-compact" href="${device.href}">Show<span class="visually-hidden"> ${device.name}</span></a>
</li>`,
  );
  const deviceList = devices.length > 0 ? html`<ul class="pending">\n${joinLines(devices)}\n</ul>` : html`<p class="lede">No bolt devices are registered.</p>`;
  const body = html`<div class="card">
${renderIssuer('Satang Bolt · Terminal simulator', 'B')}
<h1>Open payment requests</h1>
<p class="lede">The bolt intents still waiting for a shopper. Open one to pay it, decline it or cancel it as the terminal would.</p>
${list}
<h2>Devices</h2>
<p class="lede">Each device shows a pairing code; pair with one by sending its code to POST /api/v1/bolt-connections.</p>
${deviceList}
</div>`;
  return renderDocument({ title: 'Bolt terminal', stylesheetHref: view.stylesheetHref, body, bodyClass: 'page-wide' });
}

/**
 * One device's screen: the pairing code it shows now, and the PAIRING intents sent to it through
 * its connections that are still open, each linking to its page.
 */
export function renderBoltDevicePage(view: { stylesheetHref: string; device: BoltDeviceScreenView & { connections: number }; intents: readonly OpenBoltIntentView[] }): Html {
  const { device } = view;
  const rows = [
    summaryRow('Pairing code', html`<span class="mono" id="pairing-code">${device.pairingCode}</span>`, 'summary-amount'),
    summaryRow('Device', html`<span class="mono">${device.id}</span>`),
    summaryRow('Connections', String(device.connections)),
  ];
  const list = renderIntentItems(view.intents, html`<p class="lede">No payment request is waiting on this device.</p>`);
  const body = html`<div class="card">
${renderIssuer('Satang Bolt · Terminal simulator', 'B')}
<h1>${device.name}</h1>
<p class="lede">This page plays the device's screen. To pair with it, send its pairing code from the merchant's server: POST /api/v1/bolt-connections with {"pairingCode": "${device.pairingCode}"}. A code pairs once: the screen then shows a new one.</p>
<dl class="summary" aria-label="Device details">
${joinLines(rows)}
</dl>
<h2>Payment requests</h2>
${list}
</div>`;
  return renderDocument({ title: `Bolt terminal · ${device.name}`, stylesheetHref: view.stylesheetHref, body, bodyClass: 'page-wide' });
}
