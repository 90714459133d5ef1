import { escapeHtml, formatAmountSatang, formatExpiry, renderDocument, renderIssuer, summaryRow, type PageLinks } from './pages.js';

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
export function renderSlipPage(view: PageLinks & { slip: SlipView; imageHref: string; downloadHref: string; payerHref: string }): string {
  const { slip } = view;
  const amount = formatAmountSatang(slip.amountSatang, 'THB');
  const status =
    slip.chargeStatus === 'SUCCEEDED'
      ? '<p class="notice notice-success" role="status">The charge this transfer paid is SUCCEEDED.</p>'
      : `<p class="notice notice-error" role="status">The charge is still ${escapeHtml(slip.chargeStatus)}: it completes when the merchant verifies this slip (POST /api/v1/charges/verify-qr-slip).</p>`;
  const rows = [
    summaryRow('Amount', escapeHtml(amount), 'summary-amount'),
    summaryRow('Paid to', escapeHtml(slip.payeeName)),
    summaryRow('QR reference', slip.reference ? `<span class="mono">${escapeHtml(slip.reference)}</span>` : 'None'),
    summaryRow('Transaction ref', `<span class="mono">${escapeHtml(slip.transactionRef)}</span>`),
    summaryRow('Sending bank', `<span class="mono">${escapeHtml(slip.sendingBankCode)}</span>`),
    summaryRow('Paid at', `<time datetime="${escapeHtml(slip.paidAt)}">${escapeHtml(formatExpiry(slip.paidAt))}</time>`),
    summaryRow('Charge', `<span class="mono">${escapeHtml(slip.chargeId)}</span>`),
  ];
  const body = `<div class="card tone-succeeded">
${renderIssuer('Sandbox Bank · Transfer slip', 'P')}
<h1>Transfer of ${escapeHtml(amount)} made</h1>
<p class="lede">The payer's bank sent the money and issued this slip. Show it to the merchant, who scans its QR code to verify the payment.</p>
${status}
<img class="slip-image" src="${escapeHtml(view.imageHref)}" alt="Transfer slip: ${escapeHtml(amount)} to ${escapeHtml(slip.payeeName)}, transaction reference ${escapeHtml(slip.transactionRef)}, with its verification QR code" width="400">
<div class="actions">
<a class="button button-primary" href="${escapeHtml(view.downloadHref)}" download="slip-${escapeHtml(slip.transactionRef)}.png">Download the slip image</a>
</div>
</div>
<section class="card" aria-labelledby="slip-details-heading">
<h2 id="slip-details-heading">Slip details</h2>
<dl class="summary" aria-label="Transfer details">
${rows.join('\n')}
</dl>
<p class="hint" id="slip-raw-hint">The text of the slip's QR code, as a scanner reads it (send it as <span class="mono">raw</span> with <span class="mono">format: "RAW"</span>):</p>
<code class="slip-raw" id="slip-raw" aria-describedby="slip-raw-hint">${escapeHtml(slip.raw)}</code>
<p class="closing"><a href="${escapeHtml(view.payerHref)}">Back to the PromptPay payer</a></p>
</section>`;
  return renderDocument({ title: 'Transfer slip', stylesheetHref: view.stylesheetHref, body });
}
