import { formatAmount } from '../../core/money.js';
import { html, type Html } from '../http/html.js';
import { formatBangkokTime, joinLines, renderDocument, renderIssuer, summaryRow } from '../http/page-layout.js';

/**
 * The hosted pay page of a payment link, and the pages around it (the PromptPay QR, the end of a
 * link). Pure functions returning whole HTML documents, served under the same Content-Security-
 * Policy as the other hosted pages: no script, no inline style, nothing from elsewhere. They use
 * the classes of `SANDBOX_PAGES_CSS` plus the few in `PAYMENT_LINK_PAGES_CSS`. Everything a
 * merchant or payer wrote (description, items, reference, entered values) is escaped by the
 * `html` template.
 */

/** The fields of the pay page's form, by their `name`. */
export type PaymentLinkField =
  | 'method'
  | 'phoneCountryCode'
  | 'phoneNumber'
  | 'contactName'
  | 'streetAddress'
  | 'city'
  | 'postCode'
  | 'country'
  | 'cardHolderName'
  | 'cardNumber'
  | 'expiryMonth'
  | 'expiryYear'
  | 'securityCode'
  | 'installmentPeriod';

/** What every payment link page shows of the order. `internalNote` is the merchant's and never shown. */
export interface PaymentLinkOrderView {
  merchantName: string;
  description: string;
  referenceId: string | null;
  /** Whole satang. */
  amountSatang: number;
  currency: string;
  items: { itemName: string; description: string | null; quantity: number; priceSatang: number }[];
  /** ISO 8601, or null when the link does not expire. */
  expiresAt: string | null;
}

/** Stylesheets every page links, same-origin: the hosted pages' and the payment links' own. */
export interface PaymentLinkPageLinks {
  stylesheetHrefs: readonly string[];
}

/** A group of methods as the page lists them, e.g. "E-wallets" and its wallets. */
export interface PaymentMethodGroupView {
  /** A heading above the group; none where the method's own label says it all (card, PromptPay). */
  heading?: string;
  methods: readonly string[];
}

/** A message above the form: why the last attempt failed, or that one is still waiting. */
export interface PaymentLinkNotice {
  kind: 'error' | 'info';
  text: string;
  link?: { href: string; label: string };
}

/** The pay page: the order, the fields the link collects, and the methods it offers. */
export interface PaymentLinkFormView extends PaymentLinkPageLinks {
  order: PaymentLinkOrderView;
  /** Where the form POSTs. */
  action: string;
  /** Names this attempt; the same token twice makes one payment. */
  formToken: string;
  groups: readonly PaymentMethodGroupView[];
  /** Months offered for CARD_INSTALLMENTS; empty when it is not offered. */
  installmentPeriods: readonly number[];
  collectPhoneNumber: boolean;
  collectDeliveryAddress: boolean;
  cancelUrl: string | null;
  /** What the payer entered last time; never the card number or security code. */
  values: Partial<Record<PaymentLinkField, string>>;
  errors: Partial<Record<PaymentLinkField, string>>;
  notice?: PaymentLinkNotice;
  /** Shown in a "sandbox test cards" disclosure. */
  testCards: readonly { number: string; description: string }[];
}

/** The PromptPay QR of an attempt, with the ways on from it. */
export interface PaymentLinkQrView extends PaymentLinkPageLinks {
  order: PaymentLinkOrderView;
  qr: { imageBase64Encoded: string; rawData: string; expiry: string };
  /** Reloads the page's view of this attempt: paid, still waiting, or failed. */
  checkUrl: string;
  /** The PromptPay payer simulator, with this QR filled in. */
  payerUrl: string;
  /** The pay page without this attempt, to choose another method. */
  payAnotherWayUrl: string;
  cancelUrl: string | null;
}

/** A link that cannot be paid (any more), or one just paid with nowhere to go back to. */
export interface PaymentLinkStatusView extends PaymentLinkPageLinks {
  order: PaymentLinkOrderView;
  tone: 'succeeded' | 'failed';
  title: string;
  message: string;
  /** A link back to the shop, e.g. the cancel URL of a link that cannot be paid. */
  continueUrl?: string | null;
}

/** A payment link page around `body`, titled for the tab. */
export function renderLinkDocument(title: string, links: PaymentLinkPageLinks, body: Html): Html {
  return renderDocument({ title, stylesheetHref: links.stylesheetHrefs, body });
}

/** The merchant's name, marked with its first letter. */
export function renderMerchant(name: string): Html {
  return renderIssuer(name, Array.from(name.trim())[0]?.toUpperCase() ?? '฿');
}

/** The order: its lines (when it has any), the total, the reference and the date to pay by. */
export function renderOrder(order: PaymentLinkOrderView): Html {
  const money = (satang: number) => formatAmount(satang, order.currency);
  const items = order.items.length
    ? html`<ul class="order-items" aria-label="Items">
${joinLines(
  order.items.map((item) => {
    const meta = [item.description ? html`${item.description} · ` : '', `${item.quantity} × ${money(item.priceSatang)}`];
    return html`<li class="order-item"><div><p class="order-item-name">${item.itemName}</p><p class="order-item-meta">${meta}</p></div><p class="order-item-total">${money(item.priceSatang * item.quantity)}</p></li>`;
  }),
)}
</ul>\n`
    : '';
  const rows = [summaryRow('Total', money(order.amountSatang), 'summary-amount')];
  if (order.referenceId) rows.push(summaryRow('Reference', order.referenceId));
  if (order.expiresAt) rows.push(summaryRow('Pay by', html`<time datetime="${order.expiresAt}">${formatBangkokTime(order.expiresAt)}</time>`));
  return html`${items}<dl class="summary" aria-label="Order total">\n${joinLines(rows)}\n</dl>`;
}

/** A message above the form: an alert for an error, a status for news. */
export function renderNotice(notice: PaymentLinkNotice | undefined): Html | '' {
  if (!notice) return '';
  const link = notice.link ? html` <a href="${notice.link.href}">${notice.link.label}</a>` : '';
  return html`<p class="notice notice-${notice.kind}" role="${notice.kind === 'error' ? 'alert' : 'status'}">${notice.text}${link}</p>\n`;
}

/** The way back to the shop, when the link has one. */
export function renderCancel(cancelUrl: string | null, label = 'Cancel and return to the shop'): Html | '' {
  return cancelUrl ? html`<a class="button button-secondary" href="${cancelUrl}">${label}</a>` : '';
}

/**
 * The QR of a PromptPay attempt. The payer scans it (in the sandbox: pays it on the payer
 * simulator), then checks; "pay another way" goes back to the form.
 */
export function renderPaymentLinkQrPage(view: PaymentLinkQrView): Html {
  const { order, qr } = view;
  const amount = formatAmount(order.amountSatang, order.currency);
  const body = html`<div class="card tone-pending">
${renderMerchant(order.merchantName)}
<h1>Scan to pay with PromptPay</h1>
<p class="lede">Scan this QR code with your banking app to pay ${amount}, then check the payment.</p>
<img class="qr" src="data:image/png;base64,${qr.imageBase64Encoded}" alt="PromptPay QR code for ${amount}" width="256" height="256">
<dl class="summary" aria-label="QR details">
${summaryRow('Amount', amount, 'summary-amount')}
${summaryRow('QR expires', html`<time datetime="${qr.expiry}">${formatBangkokTime(qr.expiry)}</time>`)}
</dl>
<details><summary>Show QR payload</summary><code>${qr.rawData}</code></details>
<div class="actions">
<a class="button button-primary" href="${view.checkUrl}">I have paid: check the payment</a>
<a class="button button-secondary" href="${view.payerUrl}">Pay it on the sandbox PromptPay payer</a>
<a class="button button-secondary" href="${view.payAnotherWayUrl}">Pay another way</a>
${renderCancel(view.cancelUrl)}
</div>
</div>`;
  return renderLinkDocument('Pay with PromptPay', view, body);
}

/** A link that is paid, expired or disabled: the order, what happened, and no form. */
export function renderPaymentLinkStatusPage(view: PaymentLinkStatusView): Html {
  const next = view.continueUrl
    ? html`<div class="actions">\n<a class="button button-primary" href="${view.continueUrl}">Return to the shop</a>\n</div>`
    : html`<p class="closing">You can close this page.</p>`;
  const body = html`<div class="card tone-${view.tone}">
${renderMerchant(view.order.merchantName)}
<h1>${view.title}</h1>
<p class="lede">${view.message}</p>
<h2>${view.order.description}</h2>
${renderOrder(view.order)}
${next}
</div>`;
  return renderLinkDocument(view.title, view, body);
}
