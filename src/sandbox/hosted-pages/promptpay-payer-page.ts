import { formatAmount } from '../../core/money.js';
import { html, type Html, type HtmlValue } from '../http/html.js';
import { formatBangkokTime, joinLines, renderButton, renderDocument, renderIssuer } from '../http/page-layout.js';
import type { PageLinks } from './charge-summary.js';

/** A QR charge the PromptPay payer simulator lists as payable in one click. */
export interface PendingQrCharge {
  chargeId: string;
  amountSatang: number;
  rawData: string;
  /** ISO 8601 timestamp. */
  expiresAt: string;
  expired: boolean;
}

/** A notice above the form: how the previous attempt went. */
export interface PayerMessage {
  kind: 'error' | 'success';
  text: string;
}

/** The button that pays by bank transfer and gets a slip, posting the same form to `slipAction`. */
function renderSlipButton(slipAction: string, label: HtmlValue, extraClass = ''): Html {
  return html`<button type="submit" class="button button-success${extraClass ? ` ${extraClass}` : ''}" formaction="${slipAction}" name="outcome" value="slip">${label}</button>`;
}

function renderPendingCharge(pending: PendingQrCharge, action: string, slipAction: string | undefined): Html {
  // PromptPay settles in baht only, so the list carries no currency of its own.
  const amount = formatAmount(pending.amountSatang, 'THB');
  const which = html`<span class="visually-hidden"> ${amount}, charge ${pending.chargeId}</span>`;
  const expiry = html`<time datetime="${pending.expiresAt}">${formatBangkokTime(pending.expiresAt)}</time>`;
  // An expired QR cannot be paid in the service either, so it gets no form at all.
  const controls = pending.expired
    ? html`<p class="pending-note">Can no longer be paid</p>`
    : html`<form class="pending-actions" method="post" action="${action}">
<input type="hidden" name="rawData" value="${pending.rawData}">
${renderButton('outcome', 'succeed', html`Pay${which}`, 'primary', 'button-compact')}
${renderButton('outcome', 'fail', html`Decline${which}`, 'danger', 'button-compact')}
${slipAction && html`${renderSlipButton(slipAction, html`Transfer and get a slip${which}`, 'button-compact')}\n`}</form>`;
  return html`<li class="pending-item${pending.expired ? ' is-expired' : ''}">
<div>
<p class="pending-amount">${amount}${pending.expired && html` <span class="badge badge-expired">Expired</span>`}</p>
<p class="pending-meta"><span class="mono">${pending.chargeId}</span> · ${pending.expired ? 'Expired' : 'Expires'} ${expiry}</p>
<details><summary>Show QR payload</summary><code>${pending.rawData}</code></details>
</div>
${controls}
</li>`;
}

/**
 * The PromptPay payer simulator: a stand-in for the payer's banking app that pays or declines a
 * pending QR charge by its payload (`rawData`). The main form POSTs `rawData` with
 * `outcome=succeed|fail` to `action`; each pending charge listed below has its own one-click form
 * posting the same fields. With `slipAction`, each form also has a button that posts `rawData`
 * there instead: a bank transfer that leaves the charge PENDING and hands the payer a slip.
 * `message` reports the previous attempt.
 */
export function renderPromptPayPayerPage(
  view: PageLinks & { action: string; rawData?: string; message?: PayerMessage; pending: PendingQrCharge[]; slipAction?: string },
): Html {
  const { action, rawData, message, pending, slipAction } = view;
  const isError = message?.kind === 'error';
  const notice =
    message &&
    html`<p class="notice notice-${isError ? 'error' : 'success'}" id="payer-message" role="${isError ? 'alert' : 'status'}">${message.text}</p>\n`;
  const list =
    pending.length > 0
      ? html`<ul class="pending">\n${joinLines(pending.map((charge) => renderPendingCharge(charge, action, slipAction)))}\n</ul>`
      : html`<p class="lede">No QR charges are waiting. Create a QR PromptPay charge, then reload this page.</p>`;
  const body = html`<div class="card">
${renderIssuer('Sandbox Bank · PromptPay', 'P')}
<h1>Pay a PromptPay QR</h1>
<p class="lede">This page plays the payer's banking app: it pays or declines a pending QR charge as if its code had been scanned.</p>
${notice}<form method="post" action="${action}">
<div class="field">
<label for="rawData">QR payload (rawData)</label>
<p class="hint" id="rawData-hint">Paste the rawData of a QR PromptPay charge, or use the list below.</p>
<textarea id="rawData" name="rawData" rows="4" required spellcheck="false" autocomplete="off" autocapitalize="off" aria-describedby="${isError ? 'rawData-hint payer-message' : 'rawData-hint'}"${isError && html` aria-invalid="true"`}>${rawData ?? ''}</textarea>
</div>
<div class="actions actions-pair">
${renderButton('outcome', 'succeed', 'Pay', 'primary')}
${renderButton('outcome', 'fail', 'Decline', 'danger')}
</div>
${slipAction && html`<div class="actions">\n${renderSlipButton(slipAction, 'Pay by bank transfer and get a slip')}\n</div>\n`}</form>
</div>
<section class="card" aria-labelledby="pending-heading">
<h2 id="pending-heading">Pending QR charges</h2>
${list}
</section>`;
  return renderDocument({ title: 'PromptPay payer', stylesheetHref: view.stylesheetHref, body, bodyClass: 'page-wide' });
}
