/**
 * The page pieces as string builders, for the pages that still build their markup as strings
 * (payment links, bolt, the dashboard): the same output as `http/page-layout.ts`, with every
 * value escaped by hand. Pages written with the `html` template use page-layout instead; once
 * none of them is left, this module goes.
 */
import { formatAmount } from '../core/money.js';
import { escapeText } from './http/html.js';
import * as layout from './http/page-layout.js';
import { SandboxError } from './http/sandbox-error.js';

/** Escapes text for element content and quoted attribute values alike. */
export const escapeHtml = escapeText;

/** Whole satang as money for people, e.g. "฿1,234.56". */
export function formatAmountSatang(amountSatang: number, currency: string): string {
  return formatAmount(amountSatang, currency);
}

/** An ISO timestamp as people in Thailand read it. */
export const formatExpiry = layout.formatBangkokTime;

/** A page answer with the hosted pages' headers. */
export function htmlResponse(status: number, html: string): Response {
  return new Response(html, { status, headers: layout.PAGE_HEADERS });
}

/** A 303 to `location`. */
export const seeOther = layout.seeOther;

/** Refuses a request whose method is not one of `methods` with 405 and an Allow header. */
export function allowOnly(request: Request, methods: readonly string[]): void {
  if (!methods.includes(request.method)) {
    throw new SandboxError('METHOD_NOT_ALLOWED_ERROR', `${request.method} is not allowed here; use ${methods.join(' or ')}`, { allow: methods.join(', ') });
  }
}

/** `decodeURIComponent`, or the text as it is when it is not valid percent-encoding. */
export function decodePathSegment(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A whole page around `body` (markup). */
export function renderDocument({ title, stylesheetHref, body, wide = false }: { title: string; stylesheetHref: string; body: string; wide?: boolean }): string {
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

/** The small heading naming who shows the page with its mark. */
export function renderIssuer(name: string, mark: string): string {
  return String(layout.renderIssuer(name, mark));
}

/** One row of a `.summary` list; `detail` is markup. */
export function summaryRow(term: string, detail: string, className?: string): string {
  return `<div${className ? ` class="${className}"` : ''}><dt>${term}</dt><dd>${detail}</dd></div>`;
}

/** A submit button posting `name=value`; `label` is markup. */
export function renderButton(name: string, value: string, label: string, variant: string, extraClass = ''): string {
  const classes = `button button-${variant}${extraClass ? ` ${extraClass}` : ''}`;
  return `<button type="submit" class="${classes}" name="${name}" value="${value}">${label}</button>`;
}

/** The page for a step that cannot go on. */
export function renderErrorPage(view: { stylesheetHref: string; title: string; message: string }): string {
  return String(layout.renderErrorPage(view));
}

/** URLs every page needs besides its form action. */
export interface PageLinks {
  stylesheetHref: string;
}
