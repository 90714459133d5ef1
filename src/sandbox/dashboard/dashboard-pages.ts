import { formatAmount } from '../../core/money.js';
import { html, type Html } from '../http/html.js';
import { joinLines, renderDocument } from '../http/page-layout.js';

/**
 * The pages of the sandbox dashboard. Like the hosted pages, every function here is pure and
 * returns a whole HTML document made of plain links and forms that POST: no script, no inline
 * style, nothing from elsewhere, so the pages work without JavaScript under
 * `default-src 'none'; style-src 'self'; form-action 'self'`. Every value shown is escaped by the
 * `html` template: ids, references and webhook bodies come from callers of the API.
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

function hidden(name: string, value: string): Html {
  return html`<input type="hidden" name="${name}" value="${value}">`;
}

/** One value as HTML. */
export function renderCell(cell: DisplayCell): Html {
  switch (cell.kind) {
    case 'text':
      return html`${cell.text}`;
    case 'mono':
      return html`<span class="mono">${cell.text}</span>`;
    case 'amount':
      return html`<span class="amount">${formatAmount(cell.satang, cell.currency)}</span>`;
    case 'status':
      return html`<span class="badge badge-${cell.status.toLowerCase().replace(/[^a-z0-9-]/g, '-')}">${cell.status}</span>`;
    case 'time':
      return html`<time class="mono" datetime="${cell.iso}">${cell.iso}</time>`;
    case 'link':
      return html`<a class="mono" href="${cell.href}">${cell.text}</a>`;
    case 'code':
      return html`<pre class="code">${cell.text}</pre>`;
    case 'url':
      // Only http(s) becomes a link: a javascript: or data: address stays text.
      return /^https?:\/\//i.test(cell.href) ? html`<a class="mono" href="${cell.href}" rel="noreferrer">${cell.href}</a>` : html`<span class="mono">${cell.href}</span>`;
    case 'none':
      return html`<span aria-hidden="true">—</span><span class="visually-hidden">none</span>`;
  }
}

function renderDashboardDocument(title: string, stylesheetHref: string, body: Html): Html {
  return renderDocument({ title, stylesheetHref, body, bodyClass: 'page-wide dashboard', siteName: 'Satang sandbox dashboard' });
}

function renderFrame(frame: DashboardFrame, title: string, body: Html): Html {
  const nav = joinLines(frame.nav.map((item) => html`<li><a href="${item.href}"${item.current ? html` aria-current="page"` : ''}>${item.label}</a></li>`));
  const header = html`<div class="dashboard-header">
<p class="issuer"><span class="issuer-mark" aria-hidden="true">S</span><a href="${frame.homeHref}">Satang sandbox dashboard</a></p>
<div class="dashboard-account">
<span>Merchant <span class="mono">${frame.merchantId}</span></span>
<form method="post" action="${frame.logout.action}">
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
  return renderDashboardDocument(title, frame.stylesheetHref, html`${header}\n${body}`);
}

function renderNotice(notice: Notice | undefined): Html | '' {
  if (!notice) return '';
  const error = notice.kind === 'error';
  return html`<p class="notice notice-${error ? 'error' : 'success'}" role="${error ? 'alert' : 'status'}">${notice.text}</p>\n`;
}

/** A table of records; rows with an `href` get a link in their first cell. */
export function renderTable(table: TableView): Html {
  if (table.rows.length === 0) return html`<h2>${table.caption}</h2>\n<p class="lede">${table.empty}</p>`;
  const head = table.columns.map((column) => html`<th scope="col">${column}</th>`);
  const rows = joinLines(
    table.rows.map(({ cells, href }) => {
      const tds = cells.map((cell, index) => {
        const linked = index === 0 && href !== undefined && (cell.kind === 'mono' || cell.kind === 'text');
        const content = linked ? html`<a class="mono" href="${href}">${cell.text}</a>` : renderCell(cell);
        return index === 0 ? html`<th scope="row">${content}</th>` : html`<td>${content}</td>`;
      });
      return html`<tr>${tds}</tr>`;
    }),
  );
  return html`<div class="table-wrap">
<table class="data-table">
<caption>${table.caption}</caption>
<thead><tr>${head}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
</div>`;
}

function renderPaging(paging: PagingView): Html {
  const range = paging.shown === 0 ? `0 of ${paging.total}` : `${paging.offset + 1}–${paging.offset + paging.shown} of ${paging.total}`;
  const links = [
    paging.previousHref ? html`<li><a class="button button-primary button-compact" href="${paging.previousHref}" rel="prev">Newer</a></li>` : '',
    paging.nextHref ? html`<li><a class="button button-primary button-compact" href="${paging.nextHref}" rel="next">Older</a></li>` : '',
  ];
  return html`<nav class="paging" aria-label="Pages">
<p>Showing ${range}, newest first</p>
${paging.previousHref || paging.nextHref ? html`<ul>${links}</ul>` : ''}
</nav>`;
}

/** The overview: every section with how many records it holds. */
export function renderHomePage(view: { frame: DashboardFrame; sections: { title: string; href: string; count: number }[]; note: string }): Html {
  const items = joinLines(
    view.sections.map((section) => html`<li><a href="${section.href}"><span>${section.title}</span><span class="overview-count">${section.count}</span></a></li>`),
  );
  const body = html`<div class="card">
<h1>Overview</h1>
<p class="lede">${view.note}</p>
<ul class="overview">
${items}
</ul>
</div>`;
  return renderFrame(view.frame, 'Overview', body);
}

/** A section's records, newest first, one page at a time. */
export function renderListPage(view: { frame: DashboardFrame; title: string; table: TableView; paging: PagingView; hint?: string | undefined }): Html {
  const body = html`<div class="card">
<h1>${view.title}</h1>
${view.hint ? html`<p class="lede">${view.hint}</p>\n` : ''}${renderTable(view.table)}
${renderPaging(view.paging)}
</div>`;
  return renderFrame(view.frame, view.title, body);
}

function renderActionForm(form: ActionFormView): Html {
  const inputs = joinLines(
    form.inputs.map((input) => {
      const id = `${form.formId}-${input.name}`;
      const hint = input.hint ? html`<p class="hint" id="${id}-hint">${input.hint}</p>\n` : '';
      return html`<div class="field">
<label for="${id}">${input.label}</label>
${hint}<input type="text" id="${id}" name="${input.name}" autocomplete="off"${input.inputMode ? html` inputmode="${input.inputMode}"` : ''}${input.hint ? html` aria-describedby="${id}-hint"` : ''}>
</div>`;
    }),
  );
  return html`<form class="action-form" method="post" action="${form.action}">
${hidden(DASHBOARD_CSRF_FIELD, form.csrfToken)}
${hidden(DASHBOARD_FORM_ID_FIELD, form.formId)}
${form.inputs.length > 0 ? html`${inputs}\n` : ''}<button type="submit" class="button button-${form.variant} button-compact">${form.label}</button>
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
}): Html {
  // A row with nothing to say (no QR expiry on a card charge) is left out rather than shown empty.
  const rows = joinLines(view.fields.filter(({ cell }) => cell.kind !== 'none').map(({ label, cell }) => html`<div><dt>${label}</dt><dd>${renderCell(cell)}</dd></div>`));
  const actions =
    view.actions.length > 0
      ? html`<section class="card" aria-labelledby="actions-heading">
<h2 id="actions-heading">Actions</h2>
<div class="action-list">
${joinLines(view.actions.map(renderActionForm))}
</div>
</section>\n`
      : '';
  const tables = joinLines(view.tables.map((table) => html`<section class="card">\n${renderTable(table)}\n</section>`));
  const body = html`<p><a href="${view.backHref}">← ${view.backLabel}</a></p>
${renderNotice(view.notice)}<div class="card">
<h1>${view.title}</h1>
<dl class="summary summary-wide">
${rows}
</dl>
</div>
${actions}${tables}`;
  return renderFrame(view.frame, view.title, body);
}

/** The sign-in form: the merchant id and its API key, as for the API. */
export function renderLoginPage(view: { stylesheetHref: string; action: string; merchantId?: string | undefined; error?: string | undefined }): Html {
  const error = view.error ? html`<p class="notice notice-error" id="login-error" role="alert">${view.error}</p>\n` : '';
  const invalid = view.error ? html` aria-invalid="true" aria-describedby="login-error"` : '';
  const body = html`<div class="card">
<p class="issuer"><span class="issuer-mark" aria-hidden="true">S</span>Satang sandbox dashboard</p>
<h1>Sign in</h1>
<p class="lede">Sign in with a merchant id and its API key, the ones the sandbox printed when it started. You see that merchant’s charges, refunds, transactions, authorizations and webhooks.</p>
${error}<form method="post" action="${view.action}">
<div class="field">
<label for="merchantId">Merchant id</label>
<input type="text" id="merchantId" name="merchantId" autocomplete="username" spellcheck="false" autocapitalize="off" required value="${view.merchantId ?? ''}"${invalid}>
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
  return renderDashboardDocument('Sign in', view.stylesheetHref, body);
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
}): Html {
  const body = html`<div class="card tone-failed">
<h1>${view.title}</h1>
<p class="lede">${view.message}</p>
<p><a href="${view.link.href}">${view.link.label}</a></p>
</div>`;
  return view.frame ? renderFrame(view.frame, view.title, body) : renderDashboardDocument(view.title, view.stylesheetHref, body);
}
