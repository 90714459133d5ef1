/**
 * The shell and the shared pieces of every page the sandbox serves: the hosted pages (3-D
 * Secure, wallets, PromptPay, slips, payment links, bolt) and the dashboard. Every piece takes
 * and returns {@link Html}, so text a caller passes is escaped and markup is passed as a template.
 *
 * The pages are served under a CSP that allows no script, no inline style and nothing from
 * elsewhere: every control is a plain form that POSTs, and all styling lives in stylesheets the
 * sandbox serves itself (the hosted pages' at {@link STYLESHEET_HREF}).
 */
import type { ReadablePaymentMethodType } from '../../core/schemas/payment-method.js';
import { isAppScheme, redirectUrlText } from '../../core/url.js';
import { html, type Html, type HtmlValue } from './html.js';

/** Where the hosted pages live on the sandbox. */
export const SANDBOX_PAGES_PATH = '/sandbox/pages';

/** Where the hosted pages' stylesheet is served, same-origin so the CSP lets it in. */
export const STYLESHEET_HREF = `${SANDBOX_PAGES_PATH}/style.css`;

/** The hosted pages' CSP, whose forms may post (and be redirected) to `formAction`. */
function pagePolicy(formAction: string): string {
  return `default-src 'none'; style-src 'self'; img-src 'self' data:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`;
}

/** Where a hosted page's form may lead: the sandbox, then the merchant's return URL on the web. */
const FORM_ACTION = "'self' http: https:";

/** Headers of every hosted page: no caching, and a CSP that allows no script and no inline style. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': pagePolicy(FORM_ACTION),
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/**
 * {@link PAGE_HEADERS} of a page whose form, once posted, sends the shopper on to `returnUrl`. A
 * browser holds the redirect after a post to the page's `form-action` too, which names the web's
 * schemes only: a return URL of an app's own scheme (`myshop://paid`) has that scheme added, or
 * the shopper would be stopped on the page instead of going back to the app.
 */
export function pageHeadersReturningTo(returnUrl: string | undefined): Readonly<Record<string, string>> {
  const scheme = returnUrl === undefined || !URL.canParse(returnUrl) ? undefined : new URL(returnUrl).protocol.slice(0, -1);
  if (scheme === undefined || !isAppScheme(scheme)) return PAGE_HEADERS;
  return { ...PAGE_HEADERS, 'content-security-policy': pagePolicy(`${FORM_ACTION} ${scheme}:`) };
}

/**
 * A page answer. `headers` replace {@link PAGE_HEADERS} where a page needs others (the
 * dashboard's stricter form-action, a cookie), so pass the whole set.
 */
export function pageResponse(status: number, page: Html, headers: Readonly<Record<string, string>> = PAGE_HEADERS): Response {
  return new Response(page.toString(), { status, headers });
}

/** A 303 to `location`, as a page answers a form post that moves the person on. */
export function seeOther(location: string, headers: Readonly<Record<string, string>> = {}): Response {
  return new Response(null, { status: 303, headers: { location: locationHeader(location), 'cache-control': 'no-store', ...headers } });
}

const NO_ORIGIN = 'http://location.invalid';

/**
 * `location` as a header carries it: a header holds bytes, not text, so what is not ASCII (a Thai
 * path or query of a merchant's `returnUrl`) is percent-encoded as a URL parser writes it, and so
 * is a space or a quote a parser leaves in the path of an app's URL (`myshop:paid now`); what is
 * encoded already stays as it is. A path stays a path.
 */
function locationHeader(location: string): string {
  const url = new URL(location, NO_ORIGIN);
  const relative = url.origin === NO_ORIGIN && !/^[a-z][a-z\d+.-]*:/i.test(location);
  return relative ? `${url.pathname}${url.search}${url.hash}` : redirectUrlText(url);
}

/** What {@link renderDocument} wraps. */
export interface DocumentParts {
  title: string;
  /** The stylesheet, or several in order; same-origin. */
  stylesheetHref: string | readonly string[];
  body: Html;
  /** Classes of `<body>`: `page-wide` widens the main column. */
  bodyClass?: string;
  /** What the tab names after the title; "Satang sandbox" unless said. */
  siteName?: string;
  /** The page's language, as `<html lang>`; "en" unless said. */
  lang?: string;
  /** The banner's words, in the page's language; "Sandbox — no real money moves" unless said. */
  banner?: string;
  /** Links to the page in its other languages, shown in the banner. */
  languageSwitch?: Html;
}

/**
 * A whole page around `body`: the sandbox banner, the stylesheets and nothing else, so every
 * page looks the same and passes the same CSP.
 */
export function renderDocument(parts: DocumentParts): Html {
  const { title, stylesheetHref, body, bodyClass, siteName = 'Satang sandbox', lang = 'en', banner = 'Sandbox — no real money moves', languageSwitch } = parts;
  const hrefs = typeof stylesheetHref === 'string' ? [stylesheetHref] : stylesheetHref;
  const stylesheets = hrefs.map((href, index) => html`${index > 0 ? '\n' : ''}<link rel="stylesheet" href="${href}">`);
  return html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex, nofollow">
<title>${title} · ${siteName}</title>
${stylesheets}
</head>
<body${bodyClass ? html` class="${bodyClass}"` : ''}>
<header class="sandbox-banner"><p>${banner}</p>${languageSwitch && html`\n${languageSwitch}\n`}</header>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The small heading naming who shows the page (a bank, an app, the sandbox) with its mark. */
export function renderIssuer(name: string, mark: string): Html {
  return html`<p class="issuer"><span class="issuer-mark" aria-hidden="true">${mark}</span>${name}</p>`;
}

/** Pieces of markup, one per line. */
export function joinLines(pieces: readonly Html[]): Html {
  return html`${pieces.map((piece, index) => (index === 0 ? piece : html`\n${piece}`))}`;
}

/** One row of a `.summary` description list. */
export function summaryRow(term: HtmlValue, detail: HtmlValue, className?: string): Html {
  return html`<div${className ? html` class="${className}"` : ''}><dt>${term}</dt><dd>${detail}</dd></div>`;
}

/** A submit button posting `name=value`; `variant` is a `.button-*` style. */
export function renderButton(name: string, value: string, label: HtmlValue, variant: string, extraClass = ''): Html {
  return html`<button type="submit" class="button button-${variant}${extraClass ? ` ${extraClass}` : ''}" name="${name}" value="${value}">${label}</button>`;
}

/**
 * The page for a step that cannot go on, such as an unknown charge or one that has already
 * completed. It offers no action, since the person has nothing left to do here. `document` sets
 * its language, banner and language switch (English unless said); `issuer` names who shows it.
 */
export function renderErrorPage(view: {
  stylesheetHref: string | readonly string[];
  title: string;
  message: string;
  issuer?: string;
  document?: Pick<DocumentParts, 'lang' | 'banner' | 'siteName' | 'languageSwitch'>;
}): Html {
  const body = html`<div class="card tone-failed">
${renderIssuer(view.issuer ?? 'Satang sandbox', 'S')}
<h1>${view.title}</h1>
<p class="lede">${view.message}</p>
</div>`;
  return renderDocument({ ...view.document, title: view.title, stylesheetHref: view.stylesheetHref, body });
}

const BANGKOK_TIME = {
  en: { format: new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'Asia/Bangkok' }), zone: 'Bangkok time' },
  // Thai readers date by the Buddhist era (2568 for 2025), as th-TH formats by default.
  th: { format: new Intl.DateTimeFormat('th-TH', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'Asia/Bangkok' }), zone: 'เวลาประเทศไทย' },
} as const;

/**
 * An ISO timestamp as people in Thailand read it, e.g. "14 Mar 2025, 16:36:53 Bangkok time", or
 * in Thai "14 มี.ค. 2568 16:36:53 เวลาประเทศไทย": Bangkok, because that is the clock the service
 * and its payers live by. Text that is not a timestamp is shown as it is.
 */
export function formatBangkokTime(iso: string, lang: 'th' | 'en' = 'en'): string {
  const date = new Date(iso);
  const { format, zone } = BANGKOK_TIME[lang];
  return Number.isNaN(date.getTime()) ? iso : `${format.format(date)} ${zone}`;
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
 * The name a shopper knows a payment method by, e.g. `TRUE_MONEY` -> "TrueMoney". A type the
 * sandbox does not know is shown as sent, so a new type never breaks a page.
 */
export function paymentMethodLabel(paymentMethodType: string): string {
  return Object.hasOwn(PAYMENT_METHOD_LABELS, paymentMethodType)
    ? PAYMENT_METHOD_LABELS[paymentMethodType as ReadablePaymentMethodType]
    : paymentMethodType;
}

/** A stylesheet the pages link, served same-origin so their CSP lets it in; cached briefly. */
export function stylesheetResponse(css: string): Response {
  return new Response(css, {
    headers: { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' },
  });
}
