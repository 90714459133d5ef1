import type { ReadablePaymentMethodType } from '../core/schemas/payment-method.js';
import { SANDBOX_OTP_CODE } from './defaults.js';

/**
 * The hosted pages of the sandbox: the screens a shopper is redirected to when a charge needs a
 * step outside the merchant's site (3-D Secure, a wallet or banking-app consent, a PromptPay payer).
 *
 * Every function here is pure and returns a whole HTML document. The pages are served under
 * `default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self' http: https:`,
 * so they carry no script, no inline style and no outside asset: every control is a plain form
 * that POSTs, and all styling lives in {@link SANDBOX_PAGES_CSS}, served by the router.
 */

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
  /** Where the router serves {@link SANDBOX_PAGES_CSS}; must be same-origin to pass the CSP. */
  stylesheetHref: string;
}

/** A QR charge the PromptPay payer simulator lists as payable in one click. */
export interface PendingQrCharge {
  chargeId: string;
  amountSatang: number;
  rawData: string;
  /** ISO 8601 timestamp. */
  expiresAt: string;
  expired: boolean;
}

/**
 * The stylesheet of every hosted page. The router serves it at `stylesheetHref` (as `text/css`)
 * because the pages' CSP forbids inline styles. System fonts only, so nothing is fetched from
 * elsewhere; Thai-capable faces come before the generic fallback so Thai references render well.
 */
export const SANDBOX_PAGES_CSS = `:root {
  color-scheme: light dark;
  --bg: #eef1f5;
  --surface: #ffffff;
  --surface-muted: #f5f7fa;
  --text: #16202b;
  --muted: #4a5563;
  --border: #d5dbe3;
  --control-border: #6b7684;
  --primary: #0a58b0;
  --primary-hover: #084890;
  --on-primary: #ffffff;
  --success: #0b6b3a;
  --success-hover: #08552e;
  --on-success: #ffffff;
  --danger: #b3261e;
  --danger-bg: #fdecea;
  --success-bg: #e7f5ec;
  --focus: #1d4ed8;
  --banner-bg: #fff1c2;
  --banner-text: #4d3300;
  --banner-border: #d9a400;
  --shadow: 0 1px 2px rgb(16 24 40 / 0.06), 0 8px 24px rgb(16 24 40 / 0.08);
}

@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0e1318;
    --surface: #19212a;
    --surface-muted: #212b36;
    --text: #e8edf2;
    --muted: #aab4bf;
    --border: #33404d;
    --control-border: #8a96a3;
    --primary: #8ab4f8;
    --primary-hover: #a8c7fa;
    --on-primary: #0b1b33;
    --success: #6fd69b;
    --success-hover: #8fe3b2;
    --on-success: #05261a;
    --danger: #ffb4ab;
    --danger-bg: #3b1512;
    --success-bg: #0f2d1d;
    --focus: #93c5fd;
    --banner-bg: #3a2c00;
    --banner-text: #ffe08a;
    --banner-border: #b38800;
    --shadow: none;
  }
}

*, *::before, *::after { box-sizing: border-box; }

html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }

body {
  margin: 0;
  min-height: 100vh;
  background: var(--bg);
  color: var(--text);
  font-family: system-ui, -apple-system, "Segoe UI", "Sarabun", "Noto Sans Thai", "Leelawadee UI", "Thonburi", Roboto, "Helvetica Neue", Arial, sans-serif;
  font-size: 1rem;
  line-height: 1.6;
}

.sandbox-banner {
  margin: 0;
  padding: 0.5rem 1rem;
  background: var(--banner-bg);
  color: var(--banner-text);
  border-bottom: 2px solid var(--banner-border);
  text-align: center;
  font-size: 0.9375rem;
  font-weight: 600;
}

.sandbox-banner p { margin: 0; }

main {
  max-width: 30rem;
  margin: 0 auto;
  padding: 1.25rem 0.75rem 3rem;
}

.page-wide main { max-width: 44rem; }

.card {
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: 14px;
  box-shadow: var(--shadow);
  padding: 1.25rem 1rem;
}

.card + .card { margin-top: 1rem; }

.card > :last-child { margin-bottom: 0; }

.tone-succeeded { border-top: 4px solid var(--success); }
.tone-failed { border-top: 4px solid var(--danger); }
.tone-pending { border-top: 4px solid var(--primary); }

.issuer {
  display: flex;
  align-items: center;
  gap: 0.625rem;
  margin: 0 0 1rem;
  color: var(--muted);
  font-size: 0.875rem;
  font-weight: 600;
  letter-spacing: 0.02em;
}

.issuer-mark {
  display: inline-grid;
  place-items: center;
  flex: none;
  width: 2.25rem;
  height: 2.25rem;
  border-radius: 10px;
  background: var(--primary);
  color: var(--on-primary);
  font-size: 1.125rem;
  font-weight: 700;
}

h1 {
  margin: 0 0 0.75rem;
  font-size: 1.375rem;
  line-height: 1.4;
  overflow-wrap: anywhere;
}

h2 {
  margin: 0 0 0.75rem;
  font-size: 1.125rem;
  line-height: 1.4;
}

p { margin: 0 0 1rem; }

.lede { color: var(--muted); overflow-wrap: anywhere; }

.summary {
  margin: 0 0 1.25rem;
  padding: 0.75rem 1rem;
  background: var(--surface-muted);
  border: 1px solid var(--border);
  border-radius: 10px;
}

.summary div {
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  align-items: baseline;
  gap: 0 1rem;
  padding: 0.25rem 0;
}

.summary div + div { border-top: 1px solid var(--border); }

.summary dt { color: var(--muted); font-size: 0.9375rem; }

.summary dd {
  margin: 0;
  font-weight: 600;
  text-align: right;
  overflow-wrap: anywhere;
  min-width: 0;
}

.summary .summary-amount dd {
  font-size: 1.5rem;
  font-variant-numeric: tabular-nums;
}

.mono, code {
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  font-size: 0.875em;
  overflow-wrap: anywhere;
  word-break: break-all;
}

.badge {
  display: inline-block;
  padding: 0 0.625rem;
  border: 1px solid currentColor;
  border-radius: 999px;
  font-size: 0.8125rem;
  font-weight: 700;
  letter-spacing: 0.02em;
  white-space: nowrap;
}

.badge-succeeded { color: var(--success); background: var(--success-bg); }
.badge-failed, .badge-expired { color: var(--danger); background: var(--danger-bg); }
.badge-pending { color: var(--primary); }

.field { margin: 0 0 1rem; }

label {
  display: block;
  margin-bottom: 0.25rem;
  font-weight: 600;
}

.hint {
  margin: 0 0 0.5rem;
  color: var(--muted);
  font-size: 0.9375rem;
}

.field-error {
  margin: 0 0 0.5rem;
  color: var(--danger);
  font-weight: 600;
}

input[type="text"], input[type="password"], textarea, select {
  display: block;
  width: 100%;
  min-height: 3rem;
  padding: 0.625rem 0.75rem;
  border: 2px solid var(--control-border);
  border-radius: 10px;
  background: var(--surface);
  color: var(--text);
  font: inherit;
}

textarea {
  resize: vertical;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  font-size: 0.875rem;
}

.otp-input {
  font-size: 1.5rem;
  letter-spacing: 0.35em;
  text-align: center;
  font-variant-numeric: tabular-nums;
}

input[aria-invalid="true"], textarea[aria-invalid="true"] { border-color: var(--danger); }

.actions {
  display: grid;
  gap: 0.75rem;
  margin-top: 1.25rem;
}

.button {
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 100%;
  min-height: 3rem;
  padding: 0.625rem 1.25rem;
  border: 2px solid transparent;
  border-radius: 10px;
  font: inherit;
  font-weight: 600;
  line-height: 1.3;
  text-align: center;
  text-decoration: none;
  cursor: pointer;
  transition: background-color 0.15s ease, border-color 0.15s ease, color 0.15s ease;
}

.button-primary { background: var(--primary); color: var(--on-primary); }
.button-primary:hover { background: var(--primary-hover); }
.button-success { background: var(--success); color: var(--on-success); }
.button-success:hover { background: var(--success-hover); }
.button-danger { background: var(--surface); color: var(--danger); border-color: var(--danger); }
.button-danger:hover { background: var(--danger-bg); }

.button-compact {
  width: auto;
  min-height: 2.75rem;
  padding: 0.375rem 1rem;
}

:focus-visible {
  outline: 3px solid var(--focus);
  outline-offset: 2px;
}

input[type="text"]:focus-visible, textarea:focus-visible { outline-offset: 1px; }

.notice {
  margin: 0 0 1rem;
  padding: 0.75rem 1rem;
  border: 1px solid;
  border-left-width: 4px;
  border-radius: 10px;
  overflow-wrap: anywhere;
}

.notice-error { color: var(--danger); background: var(--danger-bg); border-color: var(--danger); }
.notice-success { color: var(--success); background: var(--success-bg); border-color: var(--success); }

.pending {
  display: grid;
  gap: 0.75rem;
  margin: 0;
  padding: 0;
  list-style: none;
}

.pending-item {
  display: grid;
  gap: 0.5rem;
  padding: 0.875rem 1rem;
  border: 1px solid var(--border);
  border-radius: 12px;
  background: var(--surface-muted);
}

.pending-item p { margin: 0; }

.pending-amount {
  font-size: 1.125rem;
  font-weight: 700;
  font-variant-numeric: tabular-nums;
}

.pending-meta, .pending-note { color: var(--muted); font-size: 0.875rem; }

.pending-actions {
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  margin: 0;
}

details summary {
  min-height: 2.75rem;
  padding: 0.5rem 0;
  color: var(--primary);
  font-size: 0.875rem;
  font-weight: 600;
  cursor: pointer;
}

details code {
  display: block;
  padding: 0.5rem 0.75rem;
  border-radius: 8px;
  background: var(--surface);
  border: 1px solid var(--border);
}


.slip-image {
  display: block;
  width: 100%;
  max-width: 400px;
  height: auto;
  margin: 0 auto;
  border: 1px solid var(--border);
  border-radius: 10px;
  background: #ffffff;
}

.slip-raw {
  display: block;
  margin: 0 0 1rem;
  padding: 0.5rem 0.75rem;
  border-radius: 8px;
  background: var(--surface-muted);
  border: 1px solid var(--border);
}

.closing { margin: 1.25rem 0 0; color: var(--muted); text-align: center; }

.visually-hidden {
  position: absolute !important;
  width: 1px;
  height: 1px;
  margin: -1px;
  padding: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  clip-path: inset(50%);
  white-space: nowrap;
  border: 0;
}

@media (min-width: 30em) {
  main { padding: 2.5rem 1rem 4rem; }
  .card { padding: 1.75rem 2rem; }
  h1 { font-size: 1.5rem; }
  .actions-pair { grid-template-columns: 1fr 1fr; }
}

@media (min-width: 40em) {
  .pending-item { grid-template-columns: minmax(0, 1fr) auto; align-items: start; }
  .pending-actions, .pending-note { grid-column: 2; grid-row: 1; }
}

@media (forced-colors: active) {
  .button, .badge, .issuer-mark { border: 2px solid ButtonText; }
  .sandbox-banner { border-bottom-color: CanvasText; }
}

@media (prefers-reduced-motion: reduce) {
  *, *::before, *::after {
    transition: none !important;
    animation: none !important;
    scroll-behavior: auto !important;
  }
}
`;

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes text for HTML element content and quoted attribute values alike. Every value a page
 * interpolates goes through it, since references, QR payloads and messages come from callers.
 */
export function escapeHtml(text: string): string {
  return String(text).replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

const amountFormatters = new Map<string, Intl.NumberFormat>();

function amountFormatter(currency: string): Intl.NumberFormat {
  let formatter = amountFormatters.get(currency);
  if (!formatter) {
    // Fraction digits are pinned because the amount is always in hundredths, whatever the code.
    formatter = new Intl.NumberFormat('th-TH', {
      style: 'currency',
      currency,
      numberingSystem: 'latn',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    amountFormatters.set(currency, formatter);
  }
  return formatter;
}

/**
 * Formats whole satang as money for people, e.g. `formatAmountSatang(123456, 'THB')` is
 * "฿1,234.56". Used wherever a page shows an amount. The decimal is built from integers and
 * handed to Intl as a string, so no amount is ever rounded through a binary fraction. An unknown
 * currency code still renders, as "1,234.56 XYZ", rather than breaking the page.
 */
export function formatAmountSatang(amountSatang: number, currency: string): string {
  if (!Number.isFinite(amountSatang)) return `${String(amountSatang)} ${currency}`;
  const satang = BigInt(Math.round(amountSatang));
  const negative = satang < 0n;
  const abs = negative ? -satang : satang;
  const decimal = `${negative ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}` as Intl.StringNumericLiteral;
  try {
    return amountFormatter(currency).format(decimal);
  } catch {
    const plain = new Intl.NumberFormat('th-TH', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return `${plain.format(decimal)} ${currency}`;
  }
}

const PAYMENT_METHOD_LABELS = {
  CARD: 'Card',
  CARD_INSTALLMENTS: 'Card installments',
  CARD_TOKEN: 'Card',
  CARD_TOKEN_INSTALLMENTS: 'Card installments',
  CARD_NETWORK_TOKEN: 'Card (network token)',
  QR_PROMPT_PAY: 'PromptPay QR',
  ALIPAY: 'Alipay',
  ALIPAY_PLUS: 'Alipay+',
  LINE_PAY: 'Rabbit LINE Pay',
  SHOPEE_PAY: 'ShopeePay',
  TRUE_MONEY: 'TrueMoney',
  WECHAT_PAY: 'WeChat Pay',
  MAKE: 'MAKE by KBank',
  BANGKOK_BANK_APP: 'Bangkok Bank app',
  KPLUS: 'K PLUS',
  KRUNGSRI_APP: 'Krungsri app',
  KRUNGTHAI_NEXT: 'Krungthai NEXT',
  SCB_EASY: 'SCB EASY',
  SPAY_LATER: 'SPayLater',
} as const satisfies Record<ReadablePaymentMethodType, string>;

/**
 * The name a shopper knows a payment method by, e.g. `TRUE_MONEY` -> "TrueMoney". The pages use it
 * in charge summaries; the router can use it for the authorize page's `methodLabel`. A type the
 * sandbox does not know is shown as sent, so a new type never breaks a page.
 */
export function paymentMethodLabel(paymentMethodType: string): string {
  return Object.hasOwn(PAYMENT_METHOD_LABELS, paymentMethodType)
    ? PAYMENT_METHOD_LABELS[paymentMethodType as ReadablePaymentMethodType]
    : paymentMethodType;
}

const STATUS_LABELS: Readonly<Record<ChargeView['status'], string>> = {
  PENDING: 'Pending',
  SUCCEEDED: 'Succeeded',
  FAILED: 'Failed',
};

/** What {@link renderDocument} wraps: the page title, the stylesheet link and the body markup. */
export interface DocumentParts {
  title: string;
  stylesheetHref: string;
  body: string;
  wide?: boolean;
}

/**
 * A whole hosted page around `body`: the sandbox banner, the stylesheet and nothing else, so
 * every page (these and those of other sandbox modules) looks the same and passes the same CSP.
 */
export function renderDocument({ title, stylesheetHref, body, wide = false }: DocumentParts): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)} · Satang sandbox</title>
<link rel="stylesheet" href="${escapeHtml(stylesheetHref)}">
</head>
<body${wide ? ' class="page-wide"' : ''}>
<header class="sandbox-banner"><p>Sandbox — no real money moves</p></header>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The small heading naming who shows the page (a bank, an app, the sandbox) with its mark. */
export function renderIssuer(name: string, mark: string): string {
  return `<p class="issuer"><span class="issuer-mark" aria-hidden="true">${escapeHtml(mark)}</span>${escapeHtml(name)}</p>`;
}

/** One row of a `.summary` list; `detail` is markup, so escape what goes into it. */
export function summaryRow(term: string, detail: string, className?: string): string {
  return `<div${className ? ` class="${className}"` : ''}><dt>${term}</dt><dd>${detail}</dd></div>`;
}

interface SummaryOptions {
  showStatus?: boolean;
}

function renderChargeSummary(charge: ChargeView, { showStatus = false }: SummaryOptions = {}): string {
  const rows = [
    summaryRow('Amount', escapeHtml(formatAmountSatang(charge.amountSatang, charge.currency)), 'summary-amount'),
    summaryRow('Reference', charge.referenceId ? escapeHtml(charge.referenceId) : 'None given'),
    summaryRow('Method', escapeHtml(paymentMethodLabel(charge.paymentMethodType))),
    summaryRow(escapeHtml(charge.idLabel ?? 'Charge'), `<span class="mono">${escapeHtml(charge.chargeId)}</span>`),
  ];
  if (showStatus) {
    const status = charge.status;
    rows.push(
      summaryRow('Status', `<span class="badge badge-${escapeHtml(status.toLowerCase())}">${escapeHtml(STATUS_LABELS[status] ?? status)}</span>`),
    );
    if (charge.failureCode) {
      rows.push(summaryRow('Failure code', `<span class="mono">${escapeHtml(charge.failureCode)}</span>`));
    }
  }
  return `<dl class="summary" aria-label="Payment details">\n${rows.join('\n')}\n</dl>`;
}

/** A submit button posting `name=value`; `label` is markup, `variant` a `.button-*` style. */
export function renderButton(name: string, value: string, label: string, variant: string, extraClass = ''): string {
  const classes = `button button-${variant}${extraClass ? ` ${extraClass}` : ''}`;
  return `<button type="submit" class="${classes}" name="${name}" value="${value}">${label}</button>`;
}

/**
 * The 3-D Secure challenge a card charge redirects to. The payer types the OTP and the form POSTs
 * `otp` to `action`; the router decides the outcome. When `error` is given (a wrong code), it is
 * announced and tied to the input so assistive technology reads it with the field.
 */
export function renderOtpPage(view: PageLinks & { charge: ChargeView; action: string; error?: string }): string {
  const { charge, action, error } = view;
  const describedBy = error ? 'otp-hint otp-error' : 'otp-hint';
  const errorHtml = error ? `<p class="field-error" id="otp-error" role="alert">${escapeHtml(error)}</p>\n` : '';
  const body = `<div class="card">
${renderIssuer('Satang Test Bank · 3-D Secure', 'S')}
<h1>Verify your payment</h1>
<p class="lede">Enter the one-time password (OTP) for this card payment.</p>
${renderChargeSummary(charge)}
<form method="post" action="${escapeHtml(action)}">
<div class="field">
<label for="otp">One-time password</label>
<p class="hint" id="otp-hint">Sandbox: ${escapeHtml(SANDBOX_OTP_CODE)} succeeds, any other code fails.</p>
${errorHtml}<input class="otp-input" type="text" id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]*" maxlength="6" required aria-describedby="${describedBy}"${error ? ' aria-invalid="true"' : ''}>
</div>
<div class="actions">
<button type="submit" class="button button-primary">Verify and pay</button>
</div>
</form>
</div>`;
  return renderDocument({ title: 'Verify your payment', stylesheetHref: view.stylesheetHref, body });
}

/**
 * The page for methods whose outcome the tester simply chooses: it POSTs `outcome=succeed` or
 * `outcome=fail` to `action`. Used where the sandbox has no more realistic screen to emulate.
 */
export function renderForcePage(view: PageLinks & { charge: ChargeView; action: string }): string {
  const { charge, action } = view;
  const body = `<div class="card">
${renderIssuer('Satang sandbox · Payment simulator', 'S')}
<h1>Choose how this payment ends</h1>
<p class="lede">The charge completes with the outcome you pick, as if the payer had finished paying.</p>
${renderChargeSummary(charge)}
<form method="post" action="${escapeHtml(action)}">
<div class="actions actions-pair">
${renderButton('outcome', 'succeed', 'Make payment succeed', 'success')}
${renderButton('outcome', 'fail', 'Make payment fail', 'danger')}
</div>
</form>
</div>`;
  return renderDocument({ title: 'Choose the payment outcome', stylesheetHref: view.stylesheetHref, body });
}

/**
 * The mock consent screen of an e-wallet or mobile banking app, where the payer approves or
 * declines the charge. It POSTs `decision=approve` or `decision=decline` to `action`.
 */
export function renderAuthorizePage(
  view: PageLinks & { charge: ChargeView; action: string; methodLabel: string },
): string {
  const { charge, action, methodLabel } = view;
  const amount = formatAmountSatang(charge.amountSatang, charge.currency);
  const payee = charge.referenceId || 'the merchant';
  const mark = Array.from(methodLabel.trim())[0]?.toUpperCase() ?? '฿';
  const question = `Pay ${amount} to ${payee} with ${methodLabel}?`;
  const body = `<div class="card">
${renderIssuer(methodLabel, mark)}
<h1>${escapeHtml(question)}</h1>
<p class="lede">Approving pays the merchant now; declining cancels this payment.</p>
${renderChargeSummary(charge)}
<form method="post" action="${escapeHtml(action)}">
<div class="actions actions-pair">
${renderButton('decision', 'approve', 'Approve', 'primary')}
${renderButton('decision', 'decline', 'Decline', 'danger')}
</div>
</form>
</div>`;
  return renderDocument({ title: `Pay with ${methodLabel}`, stylesheetHref: view.stylesheetHref, body });
}

const EXPIRY_FORMAT = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'medium',
  timeZone: 'Asia/Bangkok',
});

/** An ISO timestamp as people in Thailand read it, e.g. "14 Mar 2025, 16:36:53 Bangkok time". */
export function formatExpiry(expiresAt: string): string {
  const date = new Date(expiresAt);
  // Bangkok time, because that is the clock the service and its payers live by.
  return Number.isNaN(date.getTime()) ? expiresAt : `${EXPIRY_FORMAT.format(date)} Bangkok time`;
}

/** The button that pays by bank transfer and gets a slip, posting the same form to `slipAction`. */
function renderSlipButton(slipAction: string, label: string, extraClass = ''): string {
  return `<button type="submit" class="button button-success${extraClass ? ` ${extraClass}` : ''}" formaction="${escapeHtml(slipAction)}" name="outcome" value="slip">${label}</button>`;
}

function renderPendingCharge(pending: PendingQrCharge, action: string, slipAction?: string): string {
  // PromptPay settles in baht only, so the list carries no currency of its own.
  const amount = formatAmountSatang(pending.amountSatang, 'THB');
  const which = `<span class="visually-hidden"> ${escapeHtml(amount)}, charge ${escapeHtml(pending.chargeId)}</span>`;
  const expiry = `<time datetime="${escapeHtml(pending.expiresAt)}">${escapeHtml(formatExpiry(pending.expiresAt))}</time>`;
  // An expired QR cannot be paid in the service either, so it gets no form at all.
  const controls = pending.expired
    ? '<p class="pending-note">Can no longer be paid</p>'
    : `<form class="pending-actions" method="post" action="${escapeHtml(action)}">
<input type="hidden" name="rawData" value="${escapeHtml(pending.rawData)}">
${renderButton('outcome', 'succeed', `Pay${which}`, 'primary', 'button-compact')}
${renderButton('outcome', 'fail', `Decline${which}`, 'danger', 'button-compact')}
${slipAction ? `${renderSlipButton(slipAction, `Transfer and get a slip${which}`, 'button-compact')}\n` : ''}</form>`;
  return `<li class="pending-item${pending.expired ? ' is-expired' : ''}">
<div>
<p class="pending-amount">${escapeHtml(amount)}${pending.expired ? ' <span class="badge badge-expired">Expired</span>' : ''}</p>
<p class="pending-meta"><span class="mono">${escapeHtml(pending.chargeId)}</span> · ${pending.expired ? 'Expired' : 'Expires'} ${expiry}</p>
<details><summary>Show QR payload</summary><code>${escapeHtml(pending.rawData)}</code></details>
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
  view: PageLinks & {
    action: string;
    rawData?: string;
    message?: { kind: 'error' | 'success'; text: string };
    pending: PendingQrCharge[];
    slipAction?: string;
  },
): string {
  const { action, rawData, message, pending, slipAction } = view;
  const isError = message?.kind === 'error';
  const messageHtml = message
    ? `<p class="notice notice-${isError ? 'error' : 'success'}" id="payer-message" role="${isError ? 'alert' : 'status'}">${escapeHtml(message.text)}</p>\n`
    : '';
  const describedBy = isError ? 'rawData-hint payer-message' : 'rawData-hint';
  const list =
    pending.length > 0
      ? `<ul class="pending">\n${pending.map((charge) => renderPendingCharge(charge, action, slipAction)).join('\n')}\n</ul>`
      : '<p class="lede">No QR charges are waiting. Create a QR PromptPay charge, then reload this page.</p>';
  const body = `<div class="card">
${renderIssuer('Sandbox Bank · PromptPay', 'P')}
<h1>Pay a PromptPay QR</h1>
<p class="lede">This page plays the payer's banking app: it pays or declines a pending QR charge as if its code had been scanned.</p>
${messageHtml}<form method="post" action="${escapeHtml(action)}">
<div class="field">
<label for="rawData">QR payload (rawData)</label>
<p class="hint" id="rawData-hint">Paste the rawData of a QR PromptPay charge, or use the list below.</p>
<textarea id="rawData" name="rawData" rows="4" required spellcheck="false" autocomplete="off" autocapitalize="off" aria-describedby="${describedBy}"${isError ? ' aria-invalid="true"' : ''}>${escapeHtml(rawData ?? '')}</textarea>
</div>
<div class="actions actions-pair">
${renderButton('outcome', 'succeed', 'Pay', 'primary')}
${renderButton('outcome', 'fail', 'Decline', 'danger')}
</div>
${slipAction ? `<div class="actions">\n${renderSlipButton(slipAction, 'Pay by bank transfer and get a slip')}\n</div>\n` : ''}</form>
</div>
<section class="card" aria-labelledby="pending-heading">
<h2 id="pending-heading">Pending QR charges</h2>
${list}
</section>`;
  return renderDocument({ title: 'PromptPay payer', stylesheetHref: view.stylesheetHref, body, wide: true });
}

/**
 * The outcome of a hosted step. The router usually redirects to the merchant's return URL; this
 * page is what the payer sees when it does not, with a link back when `continueUrl` is given.
 */
export function renderResultPage(
  view: PageLinks & { title: string; message: string; charge?: ChargeView; continueUrl?: string },
): string {
  const { title, message, charge, continueUrl } = view;
  const tone = charge ? ` tone-${escapeHtml(charge.status.toLowerCase())}` : '';
  const next = continueUrl
    ? `<div class="actions">\n<a class="button button-primary" href="${escapeHtml(continueUrl)}">Return to the merchant</a>\n</div>`
    : '<p class="closing">You can close this page.</p>';
  const body = `<div class="card${tone}">
${renderIssuer('Satang sandbox', 'S')}
<h1>${escapeHtml(title)}</h1>
<p class="lede">${escapeHtml(message)}</p>
${charge ? renderChargeSummary(charge, { showStatus: true }) : ''}
${next}
</div>`;
  return renderDocument({ title, stylesheetHref: view.stylesheetHref, body });
}

/**
 * The page for a hosted step that cannot go on, such as an unknown charge or one that has already
 * completed. It offers no action, since the payer has nothing left to do here.
 */
export function renderErrorPage(view: PageLinks & { title: string; message: string }): string {
  const body = `<div class="card tone-failed">
${renderIssuer('Satang sandbox', 'S')}
<h1>${escapeHtml(view.title)}</h1>
<p class="lede">${escapeHtml(view.message)}</p>
</div>`;
  return renderDocument({ title: view.title, stylesheetHref: view.stylesheetHref, body });
}
