import { formatAmount } from '../../core/money.js';
import { html, type Html } from '../http/html.js';
import { joinLines, paymentMethodLabel, summaryRow } from '../http/page-layout.js';

/** What a hosted page shows about the charge it acts on. */
export interface ChargeView {
  chargeId: string;
  /** Whole satang (hundredths of the currency unit). */
  amountSatang: number;
  currency: string;
  /** The merchant's own reference; may be empty when the merchant sent none. */
  referenceId: string;
  paymentMethodType: string;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  failureCode?: string;
  /** What the id names in the summary: "Charge" unless said (e.g. "Authorization"). */
  idLabel?: string;
}

/** URLs every page needs besides its form action. */
export interface PageLinks {
  /** Where the hosted pages' stylesheet is served; must be same-origin to pass the CSP. */
  stylesheetHref: string;
}

const STATUS_LABELS: Readonly<Record<ChargeView['status'], string>> = {
  PENDING: 'Pending',
  SUCCEEDED: 'Succeeded',
  FAILED: 'Failed',
};

/** The amount, reference, method and id of a charge; with `showStatus`, its status and failure code too. */
export function renderChargeSummary(charge: ChargeView, { showStatus = false }: { showStatus?: boolean } = {}): Html {
  const rows = [
    summaryRow('Amount', formatAmount(charge.amountSatang, charge.currency), 'summary-amount'),
    summaryRow('Reference', charge.referenceId || 'None given'),
    summaryRow('Method', paymentMethodLabel(charge.paymentMethodType)),
    summaryRow(charge.idLabel ?? 'Charge', html`<span class="mono">${charge.chargeId}</span>`),
  ];
  if (showStatus) {
    const status = charge.status;
    rows.push(summaryRow('Status', html`<span class="badge badge-${status.toLowerCase()}">${STATUS_LABELS[status]}</span>`));
    if (charge.failureCode) rows.push(summaryRow('Failure code', html`<span class="mono">${charge.failureCode}</span>`));
  }
  return html`<dl class="summary" aria-label="Payment details">
${joinLines(rows)}
</dl>`;
}
