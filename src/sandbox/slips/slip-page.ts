import { formatAmount } from '../../core/money.js';
import { html, type Html } from '../http/html.js';
import { formatBangkokTime, joinLines, renderDocument, renderIssuer, summaryRow } from '../http/page-layout.js';

/** What the slip page shows about a transfer and the charge it paid. */
export interface SlipView {
  transactionRef: string;
  sendingBankCode: string;
  chargeId: string;
  chargeStatus: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  amountSatang: number;
  /** Reference 1 of the QR the transfer paid. */
  reference: string;
  payeeName: string;
  /** ISO 8601 timestamp of the transfer. */
  paidAt: string;
  /** The slip QR text. */
  raw: string;
}

/**
 * The slip a payer's banking app shows after a transfer: the slip picture (with its verification
 * QR code), a link to download it and the QR's text. It says plainly that the charge is not
 * complete until the merchant verifies the slip, because that is what the page is for.
 */
export function renderSlipPage(view: { stylesheetHref: string; slip: SlipView; imageHref: string; downloadHref: string; payerHref: string }): Html {
  const { slip } = view;
  const amount = formatAmount(slip.amountSatang, 'THB');
  const status =
    slip.chargeStatus === 'SUCCEEDED'
      ? html`<p class="notice notice-success" role="status">The charge this transfer paid is SUCCEEDED.</p>`
      : html`<p class="notice notice-error" role="status">The charge is still ${slip.chargeStatus}: it completes when the merchant verifies this slip (POST /api/v1/charges/verify-qr-slip).</p>`;
  const mono = (text: string) => html`<span class="mono">${text}</span>`;
  const rows = [
    summaryRow('Amount', amount, 'summary-amount'),
    summaryRow('Paid to', slip.payeeName),
    summaryRow('QR reference', slip.reference ? mono(slip.reference) : 'None'),
    summaryRow('Transaction ref', mono(slip.transactionRef)),
    summaryRow('Sending bank', mono(slip.sendingBankCode)),
    summaryRow('Paid at', html`<time datetime="${slip.paidAt}">${formatBangkokTime(slip.paidAt)}</time>`),
    summaryRow('Charge', mono(slip.chargeId)),
  ];
  const body = html`<div class="card tone-succeeded">
${renderIssuer('Sandbox Bank · Transfer slip', 'P')}
<h1>Transfer of ${amount} made</h1>
<p class="lede">The payer's bank sent the money and issued this slip. Show it to the merchant, who scans its QR code to verify the payment.</p>
${status}
<img class="slip-image" src="${view.imageHref}" alt="Transfer slip: ${amount} to ${slip.payeeName}, transaction reference ${slip.transactionRef}, with its verification QR code" width="400">
<div class="actions">
<a class="button button-primary" href="${view.downloadHref}" download="slip-${slip.transactionRef}.png">Download the slip image</a>
</div>
</div>
<section class="card" aria-labelledby="slip-details-heading">
<h2 id="slip-details-heading">Slip details</h2>
<dl class="summary" aria-label="Transfer details">
${joinLines(rows)}
</dl>
<p class="hint" id="slip-raw-hint">The text of the slip's QR code, as a scanner reads it (send it as <span class="mono">raw</span> with <span class="mono">format: "RAW"</span>):</p>
<code class="slip-raw" id="slip-raw" aria-describedby="slip-raw-hint">${slip.raw}</code>
<p class="closing"><a href="${view.payerHref}">Back to the PromptPay payer</a></p>
</section>`;
  return renderDocument({ title: 'Transfer slip', stylesheetHref: view.stylesheetHref, body });
}
