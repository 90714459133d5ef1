import { escapeHtml, formatAmountSatang } from './string-pages.js';

/**
 * The pages of the sandbox dashboard. Like the hosted pages (pages.ts), every function here is
 * pure and returns a whole HTML document made of plain links and forms that POST: no script, no
 * inline style, nothing from elsewhere, so the pages work without JavaScript under
 * `default-src 'none'; style-src 'self'; form-action 'self'`. Every value shown passes through
 * {@link escapeHtml}: ids, references and webhook bodies come from callers of the API.
 */

/** A value shown in a table cell or a detail row, already resolved for display. */
export type DisplayCell =
  | { kind: 'text'; text: string }
  | { kind: 'mono'; text: string }
  | { kind: 'amount'; satang: number; currency: string }
  | { kind: 'status'; status: string }
  | { kind: 'time'; iso: string }
  | { kind: 'link'; href: string; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'url'; href: string }
  | { kind: 'none' };

/** A link of the dashboard's navigation. */
export interface NavItem {
  label: string;
  href: string;
  current: boolean;
}

/** What every signed-in page shows around its body. */
export interface DashboardFrame {
  stylesheetHref: string;
  homeHref: string;
  nav: NavItem[];
  merchantId: string;
  /** The sign-out form. */
  logout: { action: string; csrfToken: string };
}

/** A table of records; each row links to the record's own page when `href` is set. */
export interface TableView {
  caption: string;
  columns: string[];
  rows: { cells: DisplayCell[]; href?: string | undefined }[];
  /** Shown instead of an empty table. */
  empty: string;
}

/** A message about the last action. */
export interface Notice {
  kind: 'success' | 'error';
  text: string;
}

/** A text field of an action form. */
export interface ActionInputView {
  name: string;
  label: string;
  hint?: string | undefined;
  inputMode?: 'decimal' | 'text' | undefined;
}

/** One state-changing action on a record: a POST form with the session's CSRF token. */
export interface ActionFormView {
  action: string;
  label: string;
  variant: 'primary' | 'success' | 'danger';
  csrfToken: string;
  /** A single-use form id: submitting the same form twice acts once. */
  formId: string;
  inputs: ActionInputView[];
}

/** Where a list page is, and the links to its neighbours. */
export interface PagingView {
  offset: number;
  shown: number;
  total: number;
  previousHref?: string | undefined;
  nextHref?: string | undefined;
}

/** The name of the hidden field that carries the CSRF token in every dashboard form. */
export const DASHBOARD_CSRF_FIELD = 'csrfToken';
/** The name of the hidden field that makes a form single-use. */
export const DASHBOARD_FORM_ID_FIELD = 'formId';

/**
 * Rules the dashboard adds to the hosted pages' stylesheet (`SANDBOX_PAGES_CSS`): a wider
 * layout, a navigation bar, data tables, paging and compact action forms. It reuses the same
 * custom properties, so light, dark and forced-colours modes follow.
 */
export const DASHBOARD_CSS = `
.dashboard main { max-width: 76rem; }

.dashboard-header {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 0.5rem 1rem;
  margin: 0 0 1rem;
}

.dashboard-header .issuer { margin: 0; }
.dashboard-header .issuer a { color: inherit; text-decoration: none; }

.dashboard-account {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem 0.75rem;
  margin: 0;
  color: var(--muted);
  font-size: 0.875rem;
}

.dashboard-account form { margin: 0; }

.dashboard-nav ul {
  display: flex;
  flex-wrap: wrap;
  gap: 0.25rem 0.5rem;
  margin: 0 0 1.25rem;
  padding: 0;
  list-style: none;
}

.dashboard-nav a {
  display: inline-block;
  padding: 0.375rem 0.875rem;
  border: 1px solid var(--border);
  border-radius: 999px;
  background: var(--surface);
  color: var(--primary);
  font-weight: 600;
  text-decoration: none;
}

.dashboard-nav a:hover { border-color: var(--primary); }
.dashboard-nav a[aria-current="page"] { background: var(--primary); border-color: var(--primary); color: var(--on-primary); }

.table-wrap { overflow-x: auto; margin: 0 0 1rem; }

.data-table {
  width: 100%;
  border-collapse: collapse;
  font-size: 0.9375rem;
}

.data-table caption {
  margin-bottom: 0.5rem;
  text-align: left;
  font-weight: 700;
}

.data-table th, .data-table td {
  padding: 0.5rem 0.625rem;
  border-bottom: 1px solid var(--border);
  text-align: left;
  vertical-align: top;
}

.data-table th { color: var(--muted); font-size: 0.8125rem; font-weight: 600; white-space: nowrap; }
.data-table tbody tr:hover { background: var(--surface-muted); }
.data-table .amount { font-variant-numeric: tabular-nums; white-space: nowrap; }

.badge-authorized, .badge-captured, .badge-delivered, .badge-paid, .badge-active, .badge-healthy { color: var(--success); background: var(--success-bg); }
.badge-canceled, .badge-disabled, .badge-voided, .badge-refunded { color: var(--muted); }

a { color: var(--primary); }

.summary-wide dd { text-align: left; }

.paging {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 0.5rem 1rem;
  color: var(--muted);
  font-size: 0.9375rem;
}

.paging p { margin: 0; }
.paging ul { display: flex; gap: 0.5rem; margin: 0; padding: 0; list-style: none; }

.action-list { display: grid; gap: 0.75rem; margin: 0; }

.action-form {
  display: flex;
  flex-wrap: wrap;
  align-items: flex-end;
  gap: 0.5rem 0.75rem;
  margin: 0;
}

.action-form .field { margin: 0; flex: 1 1 12rem; }
.action-form .hint { margin: 0 0 0.25rem; font-size: 0.8125rem; }

.overview {
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr));
  gap: 0.75rem;
  margin: 0;
  padding: 0;
  list-style: none;
}

.overview a {
  display: grid;
  gap: 0.25rem;
  padding: 0.875rem 1rem;
  border: 1px solid var(--border);
  border-radius: 12px;
  background: var(--surface-muted);
  text-decoration: none;
}

.overview a:hover { border-color: var(--primary); }
.overview .overview-count { color: var(--text); font-size: 1.5rem; font-weight: 700; font-variant-numeric: tabular-nums; }

pre.code {
  margin: 0;
  padding: 0.75rem;
  max-height: 24rem;
  overflow: auto;
  border: 1px solid var(--border);
  border-radius: 8px;
  background: var(--surface-muted);
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  font-size: 0.8125rem;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
}


input[type="password"]:focus-visible { outline-offset: 1px; }

@media (forced-colors: active) {
  .dashboard-nav a { border: 2px solid ButtonText; }
}
`;

function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;
}

/** One value as HTML; every piece of text is escaped here and nowhere else. */
export function renderCell(cell: DisplayCell): string {
  switch (cell.kind) {
    case 'text':
      return escapeHtml(cell.text);
    case 'mono':
      return `<span class="mono">${escapeHtml(cell.text)}</span>`;
    case 'amount':
      return `<span class="amount">${escapeHtml(formatAmountSatang(cell.satang, cell.currency))}</span>`;
    case 'status':
      return `<span class="badge badge-${escapeHtml(cell.status.toLowerCase().replace(/[^a-z0-9-]/g, '-'))}">${escapeHtml(cell.status)}</span>`;
    case 'time':
      return `<time class="mono" datetime="${escapeHtml(cell.iso)}">${escapeHtml(cell.iso)}</time>`;
    case 'link':
      return `<a class="mono" href="${escapeHtml(cell.href)}">${escapeHtml(cell.text)}</a>`;
    case 'code':
      return `<pre class="code">${escapeHtml(cell.text)}</pre>`;
    case 'url':
      // Only http(s) becomes a link: a javascript: or data: address stays text.
      return /^https?:\/\//i.test(cell.href)
        ? `<a class="mono" href="${escapeHtml(cell.href)}" rel="noreferrer">${escapeHtml(cell.href)}</a>`
        : `<span class="mono">${escapeHtml(cell.href)}</span>`;
    case 'none':
      return '<span aria-hidden="true">—</span><span class="visually-hidden">none</span>';
  }
}

function renderDocument(title: string, stylesheetHref: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)} · Satang sandbox dashboard</title>
<link rel="stylesheet" href="${escapeHtml(stylesheetHref)}">
</head>
<body class="page-wide dashboard">
<header class="sandbox-banner"><p>Sandbox — no real money moves</p></header>
<main>
${body}
</main>
</body>
</html>
`;
}

function renderFrame(frame: DashboardFrame, title: string, body: string): string {
  const nav = frame.nav
    .map((item) => `<li><a href="${escapeHtml(item.href)}"${item.current ? ' aria-current="page"' : ''}>${escapeHtml(item.label)}</a></li>`)
    .join('\n');
  const header = `<div class="dashboard-header">
<p class="issuer"><span class="issuer-mark" aria-hidden="true">S</span><a href="${escapeHtml(frame.homeHref)}">Satang sandbox dashboard</a></p>
<div class="dashboard-account">
<span>Merchant <span class="mono">${escapeHtml(frame.merchantId)}</span></span>
<form method="post" action="${escapeHtml(frame.logout.action)}">
${hidden(DASHBOARD_CSRF_FIELD, frame.logout.csrfToken)}
<button type="submit" class="button button-danger button-compact">Sign out</button>
</form>
</div>
</div>
<nav class="dashboard-nav" aria-label="Sections">
<ul>
${nav}
</ul>
</nav>`;
  return renderDocument(title, frame.stylesheetHref, `${header}\n${body}`);
}

function renderNotice(notice: Notice | undefined): string {
  if (!notice) return '';
  const error = notice.kind === 'error';
  return `<p class="notice notice-${error ? 'error' : 'success'}" role="${error ? 'alert' : 'status'}">${escapeHtml(notice.text)}</p>\n`;
}

/** A table of records; rows with an `href` get a link in their first cell. */
export function renderTable(table: TableView): string {
  if (table.rows.length === 0) return `<h2>${escapeHtml(table.caption)}</h2>\n<p class="lede">${escapeHtml(table.empty)}</p>`;
  const head = table.columns.map((column) => `<th scope="col">${escapeHtml(column)}</th>`).join('');
  const rows = table.rows
    .map(({ cells, href }) => {
      const tds = cells.map((cell, index) => {
        const linked = index === 0 && href !== undefined && (cell.kind === 'mono' || cell.kind === 'text');
        const html = linked ? `<a class="mono" href="${escapeHtml(href)}">${escapeHtml(cell.text)}</a>` : renderCell(cell);
        return index === 0 ? `<th scope="row">${html}</th>` : `<td>${html}</td>`;
      });
      return `<tr>${tds.join('')}</tr>`;
    })
    .join('\n');
  return `<div class="table-wrap">
<table class="data-table">
<caption>${escapeHtml(table.caption)}</caption>
<thead><tr>${head}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
</div>`;
}

function renderPaging(paging: PagingView): string {
  const range = paging.shown === 0 ? `0 of ${paging.total}` : `${paging.offset + 1}–${paging.offset + paging.shown} of ${paging.total}`;
  const links = [
    paging.previousHref ? `<li><a class="button button-primary button-compact" href="${escapeHtml(paging.previousHref)}" rel="prev">Newer</a></li>` : '',
    paging.nextHref ? `<li><a class="button button-primary button-compact" href="${escapeHtml(paging.nextHref)}" rel="next">Older</a></li>` : '',
  ].join('');
  return `<nav class="paging" aria-label="Pages">
<p>Showing ${escapeHtml(range)}, newest first</p>
${links ? `<ul>${links}</ul>` : ''}
</nav>`;
}

/** The overview: every section with how many records it holds. */
export function renderHomePage(view: { frame: DashboardFrame; sections: { title: string; href: string; count: number }[]; note: string }): string {
  const items = view.sections
    .map(
      (section) =>
        `<li><a href="${escapeHtml(section.href)}"><span>${escapeHtml(section.title)}</span><span class="overview-count">${escapeHtml(String(section.count))}</span></a></li>`,
    )
    .join('\n');
  const body = `<div class="card">
<h1>Overview</h1>
<p class="lede">${escapeHtml(view.note)}</p>
<ul class="overview">
${items}
</ul>
</div>`;
  return renderFrame(view.frame, 'Overview', body);
}

/** A section's records, newest first, one page at a time. */
export function renderListPage(view: { frame: DashboardFrame; title: string; table: TableView; paging: PagingView; hint?: string | undefined }): string {
  const body = `<div class="card">
<h1>${escapeHtml(view.title)}</h1>
${view.hint ? `<p class="lede">${escapeHtml(view.hint)}</p>\n` : ''}${renderTable(view.table)}
${renderPaging(view.paging)}
</div>`;
  return renderFrame(view.frame, view.title, body);
}

function renderActionForm(form: ActionFormView): string {
  const inputs = form.inputs
    .map((input) => {
      const id = `${form.formId}-${input.name}`;
      const hint = input.hint ? `<p class="hint" id="${escapeHtml(id)}-hint">${escapeHtml(input.hint)}</p>\n` : '';
      return `<div class="field">
<label for="${escapeHtml(id)}">${escapeHtml(input.label)}</label>
${hint}<input type="text" id="${escapeHtml(id)}" name="${escapeHtml(input.name)}" autocomplete="off"${input.inputMode ? ` inputmode="${input.inputMode}"` : ''}${input.hint ? ` aria-describedby="${escapeHtml(id)}-hint"` : ''}>
</div>`;
    })
    .join('\n');
  return `<form class="action-form" method="post" action="${escapeHtml(form.action)}">
${hidden(DASHBOARD_CSRF_FIELD, form.csrfToken)}
${hidden(DASHBOARD_FORM_ID_FIELD, form.formId)}
${inputs ? `${inputs}\n` : ''}<button type="submit" class="button button-${form.variant} button-compact">${escapeHtml(form.label)}</button>
</form>`;
}

/** One record: its fields, what it can do now, and the records related to it. */
export function renderDetailPage(view: {
  frame: DashboardFrame;
  title: string;
  fields: { label: string; cell: DisplayCell }[];
  actions: ActionFormView[];
  tables: TableView[];
  notice?: Notice | undefined;
  backHref: string;
  backLabel: string;
}): string {
  // A row with nothing to say (no QR expiry on a card charge) is left out rather than shown empty.
  const rows = view.fields.filter(({ cell }) => cell.kind !== 'none').map(({ label, cell }) => `<div><dt>${escapeHtml(label)}</dt><dd>${renderCell(cell)}</dd></div>`).join('\n');
  const actions =
    view.actions.length > 0
      ? `<section class="card" aria-labelledby="actions-heading">
<h2 id="actions-heading">Actions</h2>
<div class="action-list">
${view.actions.map(renderActionForm).join('\n')}
</div>
</section>\n`
      : '';
  const tables = view.tables.map((table) => `<section class="card">\n${renderTable(table)}\n</section>`).join('\n');
  const body = `<p><a href="${escapeHtml(view.backHref)}">← ${escapeHtml(view.backLabel)}</a></p>
${renderNotice(view.notice)}<div class="card">
<h1>${escapeHtml(view.title)}</h1>
<dl class="summary summary-wide">
${rows}
</dl>
</div>
${actions}${tables}`;
  return renderFrame(view.frame, view.title, body);
}

/** The sign-in form: the merchant id and its API key, as for the API. */
export function renderLoginPage(view: { stylesheetHref: string; action: string; merchantId?: string | undefined; error?: string | undefined }): string {
  const error = view.error ? `<p class="notice notice-error" id="login-error" role="alert">${escapeHtml(view.error)}</p>\n` : '';
  const invalid = view.error ? ' aria-invalid="true" aria-describedby="login-error"' : '';
  const body = `<div class="card">
<p class="issuer"><span class="issuer-mark" aria-hidden="true">S</span>Satang sandbox dashboard</p>
<h1>Sign in</h1>
<p class="lede">Sign in with a merchant id and its API key, the ones the sandbox printed when it started. You see that merchant’s charges, refunds, transactions, authorizations and webhooks.</p>
${error}<form method="post" action="${escapeHtml(view.action)}">
<div class="field">
<label for="merchantId">Merchant id</label>
<input type="text" id="merchantId" name="merchantId" autocomplete="username" spellcheck="false" autocapitalize="off" required value="${escapeHtml(view.merchantId ?? '')}"${invalid}>
</div>
<div class="field">
<label for="apiKey">API key</label>
<input type="password" id="apiKey" name="apiKey" autocomplete="current-password" required${invalid}>
</div>
<div class="actions">
<button type="submit" class="button button-primary">Sign in</button>
</div>
</form>
</div>`;
  return renderDocument('Sign in', view.stylesheetHref, body);
}

/**
 * A page that cannot show what was asked (unknown record, refused form, bad paging). With a
 * frame it keeps the navigation; without one (not signed in) it links to the sign-in page.
 */
export function renderDashboardErrorPage(view: {
  stylesheetHref: string;
  frame?: DashboardFrame | undefined;
  title: string;
  message: string;
  link: { href: string; label: string };
}): string {
  const body = `<div class="card tone-failed">
<h1>${escapeHtml(view.title)}</h1>
<p class="lede">${escapeHtml(view.message)}</p>
<p><a href="${escapeHtml(view.link.href)}">${escapeHtml(view.link.label)}</a></p>
</div>`;
  return view.frame ? renderFrame(view.frame, view.title, body) : renderDocument(view.title, view.stylesheetHref, body);
}
