import { formatAmount } from '../../core/money.js';
import { html, type Html } from '../http/html.js';
import { joinLines, summaryRow } from '../http/page-layout.js';
import { pageLocale, type PageLocale } from './page-language.js';
import { methodName } from './page-text.js';

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
  /** Who is being paid: the merchant's display name; the pages say "the merchant" without one. */
  merchantName?: string;
  /** What the id names in the summary: a charge unless said. */
  kind?: 'charge' | 'authorization';
}

/** URLs every page needs besides its form action, and the language it speaks. */
export interface PageLinks {
  /** Where the hosted pages' stylesheet is served; must be same-origin to pass the CSP. */
  stylesheetHref: string;
  /** The shopper's language; English when not given. */
  locale?: PageLocale;
}

/** The locale of a page's view: English unless it names one. */
export function localeOf(view: PageLinks): PageLocale {
  return view.locale ?? pageLocale('en');
}

/** Who a page says is being paid: the merchant's name, or "the merchant" in the page's language. */
export function payeeOf(charge: ChargeView, locale: PageLocale): string {
  return charge.merchantName === undefined || charge.merchantName === '' ? locale.text.theMerchant : charge.merchantName;
}

/**
 * The amount, payee, reference, method and id of a charge; with `showStatus`, its status and
 * failure code too; `extra` rows come after the id (a QR code's expiry).
 */
export function renderChargeSummary(charge: ChargeView, locale: PageLocale, { showStatus = false, extra = [] }: { showStatus?: boolean; extra?: readonly Html[] } = {}): Html {
  const words = locale.text.summary;
  const rows = [
    summaryRow(words.amount, formatAmount(charge.amountSatang, charge.currency, locale.lang), 'summary-amount'),
    summaryRow(words.payee, payeeOf(charge, locale), 'summary-payee'),
    summaryRow(words.reference, charge.referenceId || words.noReference),
    summaryRow(words.method, methodName(locale.lang, charge.paymentMethodType)),
    summaryRow(charge.kind === 'authorization' ? words.authorization : words.charge, html`<span class="mono">${charge.chargeId}</span>`),
    ...extra,
  ];
  if (showStatus) {
    const status = charge.status;
    rows.push(summaryRow(words.status, html`<span class="badge badge-${status.toLowerCase()}">${words.statuses[status]}</span>`));
    if (charge.failureCode) rows.push(summaryRow(words.failureCode, html`<span class="mono">${charge.failureCode}</span>`));
  }
  return html`<dl class="summary" aria-label="${words.label}">
${joinLines(rows)}
</dl>`;
}
