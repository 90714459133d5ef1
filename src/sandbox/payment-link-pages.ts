import { paymentMethodLabel } from './http/page-layout.js';
import { escapeHtml, formatAmountSatang } from './string-pages.js';

/**
 * The hosted pay page of a payment link, and the pages around it (the PromptPay QR, the end of a
 * link). Pure functions returning whole HTML documents, served under the same Content-Security-
 * Policy as the other hosted pages: no script, no inline style, nothing from elsewhere. They use
 * the classes of `SANDBOX_PAGES_CSS` plus the few in {@link PAYMENT_LINK_PAGES_CSS}. Everything a
 * merchant or payer wrote (description, items, reference, entered values) is escaped.
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
  items: Array<{ itemName: string; description: string | null; quantity: number; priceSatang: number }>;
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
  testCards: ReadonlyArray<{ number: string; description: string }>;
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

/** Styles the payment link pages add to `SANDBOX_PAGES_CSS`; served next to it. */
export const PAYMENT_LINK_PAGES_CSS = `fieldset {
  margin: 0 0 1.25rem;
  padding: 0;
  border: 0;
  min-width: 0;
}

legend {
  margin: 0 0 0.5rem;
  padding: 0;
  font-size: 1.0625rem;
  font-weight: 700;
}

.choices {
  display: grid;
  gap: 0.5rem;
  margin: 0 0 0.5rem;
  padding: 0;
  list-style: none;
}

.choice-group {
  margin: 0.75rem 0 0.25rem;
  color: var(--muted);
  font-size: 0.875rem;
  font-weight: 600;
}

label.choice {
  display: flex;
  align-items: center;
  gap: 0.75rem;
  min-height: 3rem;
  margin: 0;
  padding: 0.5rem 0.875rem;
  border: 2px solid var(--border);
  border-radius: 10px;
  background: var(--surface);
  cursor: pointer;
}

label.choice:has(input:checked) {
  border-color: var(--primary);
  background: var(--surface-muted);
}

.choice input {
  flex: none;
  width: 1.25rem;
  height: 1.25rem;
  margin: 0;
  accent-color: var(--primary);
}


select[aria-invalid="true"] { border-color: var(--danger); }

.field-row {
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(6.5rem, 1fr));
  gap: 0 0.75rem;
}

/* Inputs of a row line up even when one field has a longer label or an error above it. */
.field-row > .field { display: flex; flex-direction: column; }
.field-row > .field > input { margin-top: auto; }

.order-items {
  margin: 0 0 1rem;
  padding: 0;
  list-style: none;
}

.order-item {
  display: flex;
  justify-content: space-between;
  align-items: baseline;
  gap: 1rem;
  padding: 0.5rem 0;
  border-bottom: 1px solid var(--border);
}

.order-item p { margin: 0; }
.order-item-name { font-weight: 600; overflow-wrap: anywhere; }
.order-item-meta { color: var(--muted); font-size: 0.875rem; overflow-wrap: anywhere; }
.order-item-total { font-weight: 600; font-variant-numeric: tabular-nums; white-space: nowrap; }

.qr {
  display: block;
  width: min(100%, 16rem);
  height: auto;
  margin: 0 auto 1rem;
  padding: 0.5rem;
  border-radius: 8px;
  background: #ffffff;
  image-rendering: pixelated;
}

.button-secondary { background: var(--surface); color: var(--primary); border-color: var(--primary); }
.button-secondary:hover { background: var(--surface-muted); }

.notice-info { color: var(--text); background: var(--surface-muted); border-color: var(--primary); }
.notice a { color: inherit; font-weight: 600; }

.test-cards { margin: 1.25rem 0 0; }
.test-cards ul { margin: 0.5rem 0 0; padding-left: 1.25rem; font-size: 0.875rem; }
`;

const EXPIRY_FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Bangkok' });

function formatExpiry(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${EXPIRY_FORMAT.format(date)} Bangkok time`;
}

function renderDocument(title: string, links: PaymentLinkPageLinks, body: string): string {
  const stylesheets = links.stylesheetHrefs.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)} · Satang sandbox</title>
${stylesheets}
</head>
<body>
<header class="sandbox-banner"><p>Sandbox — no real money moves</p></header>
<main>
${body}
</main>
</body>
</html>
`;
}

function renderMerchant(name: string): string {
  const mark = Array.from(name.trim())[0]?.toUpperCase() ?? '฿';
  return `<p class="issuer"><span class="issuer-mark" aria-hidden="true">${escapeHtml(mark)}</span>${escapeHtml(name)}</p>`;
}

function renderOrder(order: PaymentLinkOrderView): string {
  const money = (satang: number) => escapeHtml(formatAmountSatang(satang, order.currency));
  const items = order.items.length
    ? `<ul class="order-items" aria-label="Items">
${order.items
  .map((item) => {
    const meta = [item.description ? escapeHtml(item.description) : '', `${item.quantity} × ${money(item.priceSatang)}`].filter(Boolean).join(' · ');
    return `<li class="order-item"><div><p class="order-item-name">${escapeHtml(item.itemName)}</p><p class="order-item-meta">${meta}</p></div><p class="order-item-total">${money(item.priceSatang * item.quantity)}</p></li>`;
  })
  .join('\n')}
</ul>\n`
    : '';
  const rows = [`<div class="summary-amount"><dt>Total</dt><dd>${money(order.amountSatang)}</dd></div>`];
  if (order.referenceId) rows.push(`<div><dt>Reference</dt><dd>${escapeHtml(order.referenceId)}</dd></div>`);
  if (order.expiresAt) {
    rows.push(`<div><dt>Pay by</dt><dd><time datetime="${escapeHtml(order.expiresAt)}">${escapeHtml(formatExpiry(order.expiresAt))}</time></dd></div>`);
  }
  return `${items}<dl class="summary" aria-label="Order total">\n${rows.join('\n')}\n</dl>`;
}

function renderNotice(notice: PaymentLinkNotice | undefined): string {
  if (!notice) return '';
  const link = notice.link ? ` <a href="${escapeHtml(notice.link.href)}">${escapeHtml(notice.link.label)}</a>` : '';
  const role = notice.kind === 'error' ? 'alert' : 'status';
  return `<p class="notice notice-${notice.kind}" role="${role}">${escapeHtml(notice.text)}${link}</p>\n`;
}

interface InputOptions {
  name: PaymentLinkField;
  label: string;
  autocomplete?: string;
  inputmode?: string;
  maxlength?: number;
  hint?: string;
}

function renderInput(view: PaymentLinkFormView, options: InputOptions, required: boolean): string {
  const { name, label, hint } = options;
  const error = view.errors[name];
  const describedBy = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  const attributes = [
    `type="text"`,
    `id="${name}"`,
    `name="${name}"`,
    `value="${escapeHtml(view.values[name] ?? '')}"`,
    options.autocomplete ? `autocomplete="${options.autocomplete}"` : '',
    options.inputmode ? `inputmode="${options.inputmode}"` : '',
    options.maxlength ? `maxlength="${options.maxlength}"` : '',
    required ? 'required' : '',
    describedBy ? `aria-describedby="${describedBy}"` : '',
    error ? 'aria-invalid="true"' : '',
  ].filter(Boolean);
  return `<div class="field">
<label for="${name}">${escapeHtml(label)}</label>
${hint ? `<p class="hint" id="${name}-hint">${escapeHtml(hint)}</p>\n` : ''}${error ? `<p class="field-error" id="${name}-error">${escapeHtml(error)}</p>\n` : ''}<input ${attributes.join(' ')}>
</div>`;
}

function renderPhone(view: PaymentLinkFormView): string {
  return `<fieldset>
<legend>Contact</legend>
<div class="field-row">
${renderInput(view, { name: 'phoneCountryCode', label: 'Country code', autocomplete: 'tel-country-code', inputmode: 'tel', maxlength: 4 }, true)}
${renderInput(view, { name: 'phoneNumber', label: 'Phone number', autocomplete: 'tel-national', inputmode: 'tel', maxlength: 20 }, true)}
</div>
</fieldset>`;
}

function renderAddress(view: PaymentLinkFormView): string {
  return `<fieldset>
<legend>Delivery address</legend>
${renderInput(view, { name: 'contactName', label: 'Name of the recipient', autocomplete: 'shipping name', maxlength: 256 }, true)}
${renderInput(view, { name: 'streetAddress', label: 'Street address', autocomplete: 'shipping street-address', maxlength: 512 }, true)}
${renderInput(view, { name: 'city', label: 'City or province', autocomplete: 'shipping address-level1', maxlength: 128 }, true)}
<div class="field-row">
${renderInput(view, { name: 'postCode', label: 'Postcode', autocomplete: 'shipping postal-code', maxlength: 10 }, true)}
${renderInput(view, { name: 'country', label: 'Country code (e.g. THA)', autocomplete: 'off', maxlength: 3 }, true)}
</div>
</fieldset>`;
}

function methodLabel(method: string, periods: readonly number[]): string {
  if (method === 'CARD_INSTALLMENTS') return `Card installments (${periods.join(', ')} months)`;
  if (method === 'CARD') return 'Credit or debit card';
  return paymentMethodLabel(method);
}

function renderMethods(view: PaymentLinkFormView): string {
  const chosen = view.values.method;
  const error = view.errors.method;
  let first = chosen === undefined;
  const groups = view.groups
    .map((group, index) => {
      const radios = group.methods
        .map((method) => {
          const checked = method === chosen || first;
          first = false;
          return `<li><label class="choice"><input type="radio" name="method" value="${escapeHtml(method)}"${checked ? ' checked' : ''} required>${escapeHtml(methodLabel(method, view.installmentPeriods))}</label></li>`;
        })
        .join('\n');
      if (!group.heading) return `<ul class="choices">\n${radios}\n</ul>`;
      const id = `method-group-${index}`;
      return `<p class="choice-group" id="${id}">${escapeHtml(group.heading)}</p>\n<ul class="choices" aria-labelledby="${id}">\n${radios}\n</ul>`;
    })
    .join('\n');
  return `<fieldset${error ? ' aria-describedby="method-error"' : ''}>
<legend>Payment method</legend>
${error ? `<p class="field-error" id="method-error">${escapeHtml(error)}</p>\n` : ''}${groups}
</fieldset>`;
}

function renderCard(view: PaymentLinkFormView): string {
  const periods = view.installmentPeriods;
  const periodError = view.errors.installmentPeriod;
  const installments = periods.length
    ? `<div class="field">
<label for="installmentPeriod">Installment plan</label>
<p class="hint" id="installmentPeriod-hint">Only for card installments.</p>
${periodError ? `<p class="field-error" id="installmentPeriod-error">${escapeHtml(periodError)}</p>\n` : ''}<select id="installmentPeriod" name="installmentPeriod" aria-describedby="installmentPeriod-hint${periodError ? ' installmentPeriod-error' : ''}"${periodError ? ' aria-invalid="true"' : ''}>
${periods
  .map((months) => `<option value="${months}"${view.values.installmentPeriod === String(months) ? ' selected' : ''}>${months} months</option>`)
  .join('\n')}
</select>
</div>\n`
    : '';
  return `<fieldset>
<legend>Card details</legend>
<p class="hint">Only needed when you pay by card.</p>
${renderInput(view, { name: 'cardHolderName', label: 'Name on card', autocomplete: 'cc-name', maxlength: 100 }, false)}
${renderInput(view, { name: 'cardNumber', label: 'Card number', autocomplete: 'cc-number', inputmode: 'numeric', maxlength: 23 }, false)}
<div class="field-row">
${renderInput(view, { name: 'expiryMonth', label: 'Month (MM)', autocomplete: 'cc-exp-month', inputmode: 'numeric', maxlength: 2 }, false)}
${renderInput(view, { name: 'expiryYear', label: 'Year (YY)', autocomplete: 'cc-exp-year', inputmode: 'numeric', maxlength: 4 }, false)}
${renderInput(view, { name: 'securityCode', label: 'CVC', autocomplete: 'cc-csc', inputmode: 'numeric', maxlength: 4 }, false)}
</div>
${installments}</fieldset>`;
}

function renderTestCards(cards: PaymentLinkFormView['testCards']): string {
  if (cards.length === 0) return '';
  return `<details class="test-cards">
<summary>Sandbox test cards</summary>
<ul>
${cards.map((card) => `<li><span class="mono">${escapeHtml(card.number)}</span>: ${escapeHtml(card.description)}</li>`).join('\n')}
</ul>
</details>`;
}

function renderCancel(cancelUrl: string | null, label = 'Cancel and return to the shop'): string {
  return cancelUrl ? `<a class="button button-secondary" href="${escapeHtml(cancelUrl)}">${escapeHtml(label)}</a>` : '';
}

/**
 * The pay page. One form, which POSTs every field to `action`: the contact and delivery fields
 * when the link collects them, the method (a radio group), and the card fields, which the server
 * reads only for a card method. Works without JavaScript; field errors are tied to their inputs.
 */
export function renderPaymentLinkPage(view: PaymentLinkFormView): string {
  const { order } = view;
  const hasCard = view.groups.some((group) => group.methods.some((m) => m === 'CARD' || m === 'CARD_INSTALLMENTS'));
  const body = `<div class="card">
${renderMerchant(order.merchantName)}
<h1>${escapeHtml(order.description)}</h1>
${renderOrder(order)}
${renderNotice(view.notice)}<form method="post" action="${escapeHtml(view.action)}">
<input type="hidden" name="formToken" value="${escapeHtml(view.formToken)}">
${view.collectPhoneNumber ? `${renderPhone(view)}\n` : ''}${view.collectDeliveryAddress ? `${renderAddress(view)}\n` : ''}${renderMethods(view)}
${hasCard ? `${renderCard(view)}\n` : ''}<div class="actions">
<button type="submit" class="button button-primary">Pay ${escapeHtml(formatAmountSatang(order.amountSatang, order.currency))}</button>
${renderCancel(view.cancelUrl)}
</div>
</form>
${hasCard ? renderTestCards(view.testCards) : ''}
</div>`;
  return renderDocument(`Pay ${order.merchantName}`, view, body);
}

/**
 * The QR of a PromptPay attempt. The payer scans it (in the sandbox: pays it on the payer
 * simulator), then checks; "pay another way" goes back to the form.
 */
export function renderPaymentLinkQrPage(view: PaymentLinkQrView): string {
  const { order, qr } = view;
  const amount = formatAmountSatang(order.amountSatang, order.currency);
  const body = `<div class="card tone-pending">
${renderMerchant(order.merchantName)}
<h1>Scan to pay with PromptPay</h1>
<p class="lede">Scan this QR code with your banking app to pay ${escapeHtml(amount)}, then check the payment.</p>
<img class="qr" src="data:image/png;base64,${escapeHtml(qr.imageBase64Encoded)}" alt="PromptPay QR code for ${escapeHtml(amount)}" width="256" height="256">
<dl class="summary" aria-label="QR details">
<div class="summary-amount"><dt>Amount</dt><dd>${escapeHtml(amount)}</dd></div>
<div><dt>QR expires</dt><dd><time datetime="${escapeHtml(qr.expiry)}">${escapeHtml(formatExpiry(qr.expiry))}</time></dd></div>
</dl>
<details><summary>Show QR payload</summary><code>${escapeHtml(qr.rawData)}</code></details>
<div class="actions">
<a class="button button-primary" href="${escapeHtml(view.checkUrl)}">I have paid: check the payment</a>
<a class="button button-secondary" href="${escapeHtml(view.payerUrl)}">Pay it on the sandbox PromptPay payer</a>
<a class="button button-secondary" href="${escapeHtml(view.payAnotherWayUrl)}">Pay another way</a>
${renderCancel(view.cancelUrl)}
</div>
</div>`;
  return renderDocument('Pay with PromptPay', view, body);
}

/** A link that is paid, expired or disabled: the order, what happened, and no form. */
export function renderPaymentLinkStatusPage(view: PaymentLinkStatusView): string {
  const next = view.continueUrl
    ? `<div class="actions">\n<a class="button button-primary" href="${escapeHtml(view.continueUrl)}">Return to the shop</a>\n</div>`
    : '<p class="closing">You can close this page.</p>';
  const body = `<div class="card tone-${view.tone}">
${renderMerchant(view.order.merchantName)}
<h1>${escapeHtml(view.title)}</h1>
<p class="lede">${escapeHtml(view.message)}</p>
<h2>${escapeHtml(view.order.description)}</h2>
${renderOrder(view.order)}
${next}
</div>`;
  return renderDocument(view.title, view, body);
}
