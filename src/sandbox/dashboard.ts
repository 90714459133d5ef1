import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT } from '../core/constants.js';
import { constantTimeEqual } from './partners/authenticate.js';
import {
  DASHBOARD_CSRF_FIELD,
  DASHBOARD_CSS,
  DASHBOARD_FORM_ID_FIELD,
  renderDashboardErrorPage,
  renderDetailPage,
  renderHomePage,
  renderListPage,
  renderLoginPage,
  type DashboardFrame,
  type DisplayCell,
  type Notice,
  type TableView,
} from './dashboard-pages.js';
import { newId } from './store/ids.js';
import { SANDBOX_PAGES_CSS } from './hosted-pages/page-stylesheet.js';
import type { SandboxMerchant } from './partners/sandbox-merchant.js';
import { readText } from './http/read-body.js';
import { SandboxError } from './http/sandbox-error.js';

/** Where the dashboard lives on the sandbox. */
export const SANDBOX_DASHBOARD_PATH = '/sandbox/dashboard';
/** The cookie that carries a dashboard session id. */
export const SANDBOX_DASHBOARD_COOKIE = 'satang_sandbox_dashboard';
/** How long a dashboard session lasts after signing in. */
export const SANDBOX_DASHBOARD_SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** Sessions kept at once; signing in beyond it ends the oldest. */
const MAX_SESSIONS = 100;
/** Submitted form ids remembered per session, to answer a double submit as the first. */
const MAX_REMEMBERED_FORMS = 500;

const STYLESHEET_HREF = `${SANDBOX_DASHBOARD_PATH}/style.css`;
const LOGIN_PATH = `${SANDBOX_DASHBOARD_PATH}/login`;
const LOGOUT_PATH = `${SANDBOX_DASHBOARD_PATH}/logout`;
const STYLESHEET = `${SANDBOX_PAGES_CSS}${DASHBOARD_CSS}`;

/**
 * Headers of every dashboard page: the hosted pages' strict CSP (no script, no inline style, no
 * framing), with forms allowed to post to the dashboard only. The referrer policy is
 * `same-origin` rather than `no-referrer` because browsers send `Origin: null` on a POST made
 * under `no-referrer`, and the dashboard's CSRF check compares that header with its own origin.
 */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/**
 * A value a section shows, as data: the dashboard renders and escapes it, so a section never
 * writes HTML. A string is plain text; `null`, `undefined` and `''` show as a dash.
 */
export type Cell =
  | string
  | number
  | boolean
  | null
  | undefined
  | { kind: 'mono'; text: string }
  | { kind: 'amount'; satang: number; currency: string }
  | { kind: 'status'; status: string }
  | { kind: 'time'; iso: string | null | undefined }
  | { kind: 'code'; text: string }
  /** An address outside the dashboard: a link when it is http(s), text otherwise. */
  | { kind: 'url'; href: string }
  /** A link to a record: of `section`, or of the section whose `idPrefix` the id starts with. */
  | { kind: 'ref'; id: string | null | undefined; section?: string };

/** Cell builders, so section entries read as data. */
export const cell = {
  mono: (text: string | null | undefined): Cell => (text ? { kind: 'mono', text } : null),
  amount: (satang: number | null | undefined, currency: string): Cell => (typeof satang === 'number' ? { kind: 'amount', satang, currency } : null),
  status: (status: string | null | undefined): Cell => (status ? { kind: 'status', status } : null),
  time: (iso: string | null | undefined): Cell => ({ kind: 'time', iso }),
  code: (text: string): Cell => ({ kind: 'code', text }),
  url: (href: string | null | undefined): Cell => (href ? { kind: 'url', href } : null),
  ref: (id: string | null | undefined, section?: string): Cell => (section === undefined ? { kind: 'ref', id } : { kind: 'ref', id, section }),
};

/** A labelled value of a record: a list column or a detail row. */
export interface Column<R> {
  label: string;
  value(record: R): Cell;
}

/** A text field of an action form; every field is optional for the person filling it. */
export interface ActionInput {
  name: string;
  label: string;
  hint?: string;
  inputMode?: 'decimal' | 'text';
}

/** Where an action sends the browser next: another record, instead of the one acted on. */
export interface ActionTarget {
  section: string;
  id: string;
}

/**
 * Something a person can do to a record: a POST form on its page, shown only while `available`.
 * `run` throws a {@link SandboxError} to refuse, and its message is shown on the record's page.
 */
export interface SectionAction<R> {
  /** Path segment of the form's action, e.g. `refund`. */
  name: string;
  /** The button's text. */
  label: string;
  variant: 'primary' | 'success' | 'danger';
  /** The notice shown after it succeeded. */
  done: string;
  available(record: R): boolean;
  inputs?(record: R): ActionInput[];
  run(record: R, form: URLSearchParams, merchant: SandboxMerchant): ActionTarget | void;
}

/** Records shown in a table on another record's page. */
export type RelatedTable =
  | { title: string; section: string; records: readonly unknown[]; empty?: string }
  | { title: string; columns: readonly Column<never>[]; records: readonly unknown[]; empty?: string };

/**
 * One resource of the dashboard, declared as data: how to list and find its records (always as
 * seen by one merchant), the columns of its list, the rows of its detail page, related tables and
 * actions. Adding a resource to the dashboard is adding one of these to the list the sandbox gives
 * {@link SandboxDashboard}.
 */
export interface DashboardSection<R> {
  /** Path segment, e.g. `charges`. */
  slug: string;
  /** Plural title, e.g. "Charges". */
  title: string;
  /** What one record is called, e.g. "Charge". */
  singular: string;
  /** Ids that start with it link to this section (`ch_`). */
  idPrefix?: string;
  /** Shown above the list, e.g. why it may be empty. */
  hint?: string;
  id(record: R): string;
  /** A page of the merchant's records, newest first. */
  list(merchant: SandboxMerchant, page: { limit: number; offset: number }): { data: readonly R[]; totalCount: number };
  /** One record of the merchant; throws NOT_FOUND_ERROR when there is none. */
  get(merchant: SandboxMerchant, id: string): R;
  columns: readonly Column<R>[];
  fields: readonly Column<R>[];
  related?(record: R, merchant: SandboxMerchant): RelatedTable[];
  actions?: readonly SectionAction<R>[];
}

/** Erases a section's record type so sections of different resources fit in one list. */
export function defineSection<R>(section: DashboardSection<R>): DashboardSection<unknown> {
  return section as unknown as DashboardSection<unknown>;
}

/** A table of related records with columns of its own (e.g. the attempts of a webhook delivery). */
export function relatedTable<T>(title: string, columns: readonly Column<T>[], records: readonly T[], empty?: string): RelatedTable {
  return { title, columns: columns as readonly Column<never>[], records, ...(empty === undefined ? {} : { empty }) };
}

export interface SandboxDashboardOptions {
  merchants: ReadonlyMap<string, SandboxMerchant>;
  sections: readonly DashboardSection<unknown>[];
  now: () => Date;
  maxBodyBytes: number;
  /** The sandbox's `publicUrl`: its origin is accepted as the dashboard's own in the CSRF check. */
  publicUrl?: string | undefined;
}

interface Session {
  id: string;
  merchantId: string;
  csrfToken: string;
  expiresAtMs: number;
  /** Form id -> where its first submission went. */
  submitted: Map<string, string>;
}

type Signed = { session: Session; merchant: SandboxMerchant };

/**
 * The sandbox dashboard at {@link SANDBOX_DASHBOARD_PATH}: server-rendered pages to see and drive
 * what the sandbox holds for a merchant (charges, refunds, transactions, card authorizations,
 * webhook deliveries, and whatever else the sections list declares).
 *
 * Access: the dashboard answers only a signed-in merchant, who signs in with its merchant id and
 * API key (the credentials of `/api/v1/*`), so it shows nothing the API would not show to the same
 * key; each merchant sees only its own records. Signing in sets a random session id in an
 * `HttpOnly; SameSite=Strict` cookie scoped to the dashboard's path (`Secure` over https);
 * sessions live in memory for {@link SANDBOX_DASHBOARD_SESSION_TTL_MS}. A sandbox started with
 * `dashboard: false` has no dashboard at all.
 *
 * CSRF: GET never changes anything. Every POST must (1) carry the session's CSRF token, a random
 * value per session, in the hidden `csrfToken` field (compared in constant time), and (2) when the
 * browser sends them, come with `Sec-Fetch-Site: same-origin` and an `Origin` equal to the
 * dashboard's origin (the request's, or `publicUrl`'s). SameSite=Strict alone is not enough here:
 * other local apps (`localhost:5173`) are same-site with the sandbox. The sign-in form, which has
 * no session yet, is held to (2). Each action form also carries a single-use form id, so a double
 * submit acts once and answers as the first submission did.
 */
export class SandboxDashboard {
  readonly #merchants: ReadonlyMap<string, SandboxMerchant>;
  readonly #sections: readonly DashboardSection<unknown>[];
  readonly #now: () => Date;
  readonly #maxBodyBytes: number;
  readonly #publicOrigin: string | undefined;
  /** Insertion order is sign-in order, so the first is the oldest. */
  readonly #sessions = new Map<string, Session>();

  constructor(options: SandboxDashboardOptions) {
    this.#merchants = options.merchants;
    this.#sections = options.sections;
    this.#now = options.now;
    this.#maxBodyBytes = options.maxBodyBytes;
    this.#publicOrigin = options.publicUrl !== undefined && URL.canParse(options.publicUrl) ? new URL(options.publicUrl).origin : undefined;
    const slugs = new Set<string>();
    for (const section of this.#sections) {
      if (slugs.has(section.slug) || ['login', 'logout', 'style.css'].includes(section.slug)) {
        throw new TypeError(`dashboard section slug ${JSON.stringify(section.slug)} is taken`);
      }
      slugs.add(section.slug);
    }
  }

  /** Answers a request for a dashboard page, or `undefined` when the path is not one. */
  async handle(request: Request, url: URL): Promise<Response | undefined> {
    const path = url.pathname;
    if (path !== SANDBOX_DASHBOARD_PATH && !path.startsWith(`${SANDBOX_DASHBOARD_PATH}/`)) return undefined;
    let signed: Signed | undefined;
    try {
      signed = this.#signedIn(request);
      return await this.#route(request, url, signed);
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
      const title = error.status === 404 ? 'Not found' : error.status === 403 ? 'Refused' : 'Cannot do that';
      return this.#errorPage(error.status, signed, title, error.message, error.headers);
    }
  }

  async #route(request: Request, url: URL, signed: Signed | undefined): Promise<Response> {
    const rest = url.pathname.slice(SANDBOX_DASHBOARD_PATH.length).replace(/\/+$/, '');
    const segments = rest.split('/').slice(1).map(decodeSegment);
    const [first, second, third, ...more] = segments;

    if (first === 'style.css' && segments.length === 1) {
      only(request, ['GET']);
      return new Response(STYLESHEET, {
        headers: { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' },
      });
    }
    if (first === 'login' && segments.length === 1) return this.#login(request, url, signed);
    if (!signed) {
      if (request.method === 'GET' || request.method === 'HEAD') return redirect(LOGIN_PATH);
      return this.#errorPage(401, undefined, 'Signed out', 'Your dashboard session has ended. Sign in again, then retry.');
    }
    if (first === 'logout' && segments.length === 1) {
      only(request, ['POST']);
      await this.#checkedForm(request, url, signed);
      this.#sessions.delete(signed.session.id);
      return redirect(LOGIN_PATH, this.#cookie(url, '', 0));
    }
    if (first === undefined) {
      only(request, ['GET']);
      return this.#home(signed);
    }
    const section = this.#sections.find((candidate) => candidate.slug === first);
    if (!section || more.length > 0) throw new SandboxError('NOT_FOUND_ERROR', 'There is no dashboard page at this address.');
    if (second === undefined) {
      only(request, ['GET']);
      return this.#list(section, url, signed);
    }
    if (third === undefined) {
      only(request, ['GET']);
      return this.#detail(section, second, url, signed);
    }
    only(request, ['POST']);
    return this.#act(section, second, third, request, url, signed);
  }

  async #login(request: Request, url: URL, signed: Signed | undefined): Promise<Response> {
    only(request, ['GET', 'POST']);
    if (request.method === 'GET') {
      if (signed) return redirect(SANDBOX_DASHBOARD_PATH);
      return page(200, renderLoginPage({ stylesheetHref: STYLESHEET_HREF, action: LOGIN_PATH }));
    }
    this.#checkOrigin(request, url);
    const form = await this.#form(request);
    const merchantId = (form.get('merchantId') ?? '').trim();
    const apiKey = (form.get('apiKey') ?? '').trim();
    const merchant = this.#merchants.get(merchantId);
    // The key is compared even for an unknown merchant, so timing does not tell which ids exist.
    const keyMatches = constantTimeEqual(apiKey, merchant?.apiKey ?? `\u0000${apiKey}`);
    if (!merchant || !keyMatches || apiKey === '') {
      return page(401, renderLoginPage({ stylesheetHref: STYLESHEET_HREF, action: LOGIN_PATH, merchantId, error: 'That merchant id and API key do not match a merchant of this sandbox.' }));
    }
    if (signed) this.#sessions.delete(signed.session.id);
    const session: Session = {
      id: newId('dss_', 32),
      merchantId: merchant.merchantId,
      csrfToken: newId('', 32),
      expiresAtMs: this.#now().getTime() + SANDBOX_DASHBOARD_SESSION_TTL_MS,
      submitted: new Map(),
    };
    this.#sessions.set(session.id, session);
    while (this.#sessions.size > MAX_SESSIONS) this.#sessions.delete(this.#sessions.keys().next().value as string);
    return redirect(SANDBOX_DASHBOARD_PATH, this.#cookie(url, session.id, SANDBOX_DASHBOARD_SESSION_TTL_MS / 1000));
  }

  #home(signed: Signed): Response {
    const sections = this.#sections.map((section) => ({
      title: section.title,
      href: sectionHref(section.slug),
      count: section.list(signed.merchant, { limit: 1, offset: 0 }).totalCount,
    }));
    const note = 'Everything this sandbox holds for your merchant, newest first. Open a record to see its details and act on it.';
    return page(200, renderHomePage({ frame: this.#frame(signed, undefined), sections, note }));
  }

  #list(section: DashboardSection<unknown>, url: URL, signed: Signed): Response {
    const { limit, offset } = pageParams(url.searchParams);
    const { data, totalCount } = section.list(signed.merchant, { limit, offset });
    const pageHref = (at: number) => `${sectionHref(section.slug)}?offset=${at}${limit === LIST_DEFAULT_LIMIT ? '' : `&limit=${limit}`}`;
    const table = this.#table({ title: `${section.title} (${totalCount})`, section: section.slug, records: data, empty: `No ${section.title.toLowerCase()} yet.` });
    return page(
      200,
      renderListPage({
        frame: this.#frame(signed, section),
        title: section.title,
        hint: section.hint,
        table,
        paging: {
          offset,
          shown: data.length,
          total: totalCount,
          previousHref: offset > 0 ? pageHref(Math.max(0, offset - limit)) : undefined,
          nextHref: offset + data.length < totalCount ? pageHref(offset + limit) : undefined,
        },
      }),
    );
  }

  #detail(section: DashboardSection<unknown>, id: string, url: URL, signed: Signed, status = 200, notice?: Notice): Response {
    const record = section.get(signed.merchant, id);
    const done = url.searchParams.get('done');
    const doneAction = done === null ? undefined : section.actions?.find((action) => action.name === done);
    const shownNotice = notice ?? (doneAction ? { kind: 'success' as const, text: doneAction.done } : undefined);
    const recordId = section.id(record);
    const actions = (section.actions ?? [])
      .filter((action) => action.available(record))
      .map((action) => ({
        action: `${recordHref(section.slug, recordId)}/${encodeURIComponent(action.name)}`,
        label: action.label,
        variant: action.variant,
        csrfToken: signed.session.csrfToken,
        formId: newId('', 16),
        inputs: (action.inputs?.(record) ?? []).map((input) => ({ name: input.name, label: input.label, hint: input.hint, inputMode: input.inputMode })),
      }));
    return page(
      status,
      renderDetailPage({
        frame: this.#frame(signed, section),
        title: `${section.singular} ${recordId}`,
        fields: section.fields.map((field) => ({ label: field.label, cell: this.#display(field.value(record)) })),
        actions,
        tables: (section.related?.(record, signed.merchant) ?? []).map((related) => this.#table(related)),
        notice: shownNotice,
        backHref: sectionHref(section.slug),
        backLabel: `All ${section.title.toLowerCase()}`,
      }),
    );
  }

  async #act(section: DashboardSection<unknown>, id: string, name: string, request: Request, url: URL, signed: Signed): Promise<Response> {
    const form = await this.#checkedForm(request, url, signed);
    const formId = form.get(DASHBOARD_FORM_ID_FIELD) ?? '';
    if (!/^[A-Za-z0-9]{8,64}$/.test(formId)) throw new SandboxError('API_VALIDATION_ERROR', 'This form is incomplete. Reload the page and try again.');
    const first = signed.session.submitted.get(formId);
    if (first !== undefined) return redirect(first);

    const record = section.get(signed.merchant, id);
    const action = section.actions?.find((candidate) => candidate.name === name);
    if (!action) throw new SandboxError('NOT_FOUND_ERROR', `A ${section.singular.toLowerCase()} has no action “${name}”.`);
    const recordId = section.id(record);
    if (!action.available(record)) {
      return this.#detail(section, recordId, url, signed, 409, { kind: 'error', text: `“${action.label}” is not possible for this ${section.singular.toLowerCase()} any more.` });
    }
    let target: ActionTarget | void;
    try {
      target = action.run(record, form, signed.merchant);
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
      return this.#detail(section, recordId, url, signed, error.status, { kind: 'error', text: error.message });
    }
    const location = `${target ? recordHref(target.section, target.id) : recordHref(section.slug, recordId)}?done=${encodeURIComponent(action.name)}`;
    const { submitted } = signed.session;
    submitted.set(formId, location);
    while (submitted.size > MAX_REMEMBERED_FORMS) submitted.delete(submitted.keys().next().value as string);
    return redirect(location);
  }

  #table(related: RelatedTable): TableView {
    const owner = 'section' in related ? this.#sections.find((section) => section.slug === related.section) : undefined;
    const columns: readonly Column<unknown>[] = owner ? owner.columns : 'columns' in related ? (related.columns as readonly Column<unknown>[]) : [];
    return {
      caption: related.title,
      columns: columns.map((column) => column.label),
      rows: related.records.map((record) => ({
        cells: columns.map((column) => this.#display(column.value(record))),
        href: owner ? recordHref(owner.slug, owner.id(record)) : undefined,
      })),
      empty: related.empty ?? 'None.',
    };
  }

  /** Resolves a section's cell for display: links to records become hrefs, empty values a dash. */
  #display(value: Cell): DisplayCell {
    if (value === null || value === undefined || value === '') return { kind: 'none' };
    if (typeof value === 'string') return { kind: 'text', text: value };
    if (typeof value === 'number') return { kind: 'text', text: String(value) };
    if (typeof value === 'boolean') return { kind: 'text', text: value ? 'Yes' : 'No' };
    switch (value.kind) {
      case 'time':
        return value.iso ? { kind: 'time', iso: value.iso } : { kind: 'none' };
      case 'ref': {
        if (!value.id) return { kind: 'none' };
        const id = value.id;
        const slug = value.section ?? this.#sections.find((section) => section.idPrefix !== undefined && id.startsWith(section.idPrefix))?.slug;
        return slug === undefined ? { kind: 'mono', text: id } : { kind: 'link', href: recordHref(slug, id), text: id };
      }
      default:
        return value;
    }
  }

  #frame(signed: Signed, current: DashboardSection<unknown> | undefined): DashboardFrame {
    return {
      stylesheetHref: STYLESHEET_HREF,
      homeHref: SANDBOX_DASHBOARD_PATH,
      nav: this.#sections.map((section) => ({ label: section.title, href: sectionHref(section.slug), current: section === current })),
      merchantId: signed.merchant.merchantId,
      logout: { action: LOGOUT_PATH, csrfToken: signed.session.csrfToken },
    };
  }

  #errorPage(status: number, signed: Signed | undefined, title: string, message: string, headers: Record<string, string> = {}): Response {
    const link = signed ? { href: SANDBOX_DASHBOARD_PATH, label: 'Back to the overview' } : { href: LOGIN_PATH, label: 'Sign in' };
    const html = renderDashboardErrorPage({ stylesheetHref: STYLESHEET_HREF, frame: signed ? this.#frame(signed, undefined) : undefined, title, message, link });
    return page(status, html, headers);
  }

  /** The session the request's cookie names, while it lasts, and its merchant. */
  #signedIn(request: Request): Signed | undefined {
    const id = readCookie(request.headers.get('cookie'), SANDBOX_DASHBOARD_COOKIE);
    if (id === undefined) return undefined;
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    const merchant = this.#merchants.get(session.merchantId);
    if (!merchant || session.expiresAtMs <= this.#now().getTime()) {
      this.#sessions.delete(id);
      return undefined;
    }
    return { session, merchant };
  }

  /** The form of a signed-in POST, once its origin and CSRF token are checked. */
  async #checkedForm(request: Request, url: URL, signed: Signed): Promise<URLSearchParams> {
    this.#checkOrigin(request, url);
    const form = await this.#form(request);
    if (!constantTimeEqual(form.get(DASHBOARD_CSRF_FIELD) ?? '', signed.session.csrfToken)) {
      throw new SandboxError('NO_PERMISSION_ERROR', 'This form is out of date or did not come from the dashboard. Reload the page and try again.');
    }
    return form;
  }

  /** Refuses a POST a browser says came from another origin; requests without the headers pass. */
  #checkOrigin(request: Request, url: URL): void {
    const site = request.headers.get('sec-fetch-site');
    const origin = request.headers.get('origin');
    const sameOrigin = origin === null || origin === url.origin || (this.#publicOrigin !== undefined && origin === this.#publicOrigin);
    if ((site !== null && site !== 'same-origin') || !sameOrigin) {
      throw new SandboxError('NO_PERMISSION_ERROR', 'The dashboard only takes forms sent from its own pages.');
    }
  }

  async #form(request: Request): Promise<URLSearchParams> {
    const type = request.headers.get('content-type') ?? '';
    if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type.trim())) {
      throw new SandboxError('UNSUPPORTED_MEDIA_TYPE_ERROR', 'The dashboard takes form posts (application/x-www-form-urlencoded).');
    }
    return new URLSearchParams(await readText(request, this.#maxBodyBytes));
  }

  #cookie(url: URL, value: string, maxAgeSeconds: number): string {
    const secure = url.protocol === 'https:' || this.#publicOrigin?.startsWith('https:') === true;
    return `${SANDBOX_DASHBOARD_COOKIE}=${value}; Path=${SANDBOX_DASHBOARD_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  }
}

function sectionHref(slug: string): string {
  return `${SANDBOX_DASHBOARD_PATH}/${encodeURIComponent(slug)}`;
}

function recordHref(slug: string, id: string): string {
  return `${sectionHref(slug)}/${encodeURIComponent(id)}`;
}

function page(status: number, html: string, headers: Record<string, string> = {}): Response {
  return new Response(html, { status, headers: { ...PAGE_HEADERS, ...headers } });
}

/** A 303 after a POST, or after a GET that belongs elsewhere; `setCookie` signs in or out. */
function redirect(location: string, setCookie?: string): Response {
  const headers: Record<string, string> = { location, 'cache-control': 'no-store' };
  if (setCookie !== undefined) headers['set-cookie'] = setCookie;
  return new Response(null, { status: 303, headers });
}

function only(request: Request, methods: string[]): void {
  if (!methods.includes(request.method)) {
    throw new SandboxError('METHOD_NOT_ALLOWED_ERROR', `${request.method} is not allowed here; use ${methods.join(' or ')}.`, { allow: methods.join(', ') });
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new SandboxError('NOT_FOUND_ERROR', 'There is no dashboard page at this address.');
  }
}

function readCookie(header: string | null, name: string): string | undefined {
  if (header === null) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** `limit` (1..100, default 20) and `offset` (>= 0) of a list page, as the API's lists take them. */
function pageParams(query: URLSearchParams): { limit: number; offset: number } {
  const read = (name: string, fallback: number, min: number, max: number) => {
    const raw = query.get(name);
    if (raw === null || raw === '') return fallback;
    if (!/^\d{1,15}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      throw new SandboxError('API_VALIDATION_ERROR', `The page address is wrong: ${name} must be a whole number from ${min} to ${max}.`);
    }
    return Number(raw);
  };
  return { limit: read('limit', LIST_DEFAULT_LIMIT, 1, LIST_MAX_LIMIT), offset: read('offset', 0, 0, Number.MAX_SAFE_INTEGER) };
}
