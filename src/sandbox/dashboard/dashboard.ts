import { LIST_DEFAULT_LIMIT } from '../../core/constants.js';
import type { Html } from '../http/html.js';
import { pageParams } from '../http/list-params.js';
import { PAGE_HEADERS as HOSTED_PAGE_HEADERS, pageResponse, seeOther, stylesheetResponse } from '../http/page-layout.js';
import { readFormPost } from '../http/read-body.js';
import { pageRoute, type PageArea, type RouteContext, type SandboxRoute } from '../http/route.js';
import { SandboxError } from '../http/sandbox-error.js';
import { SANDBOX_PAGES_CSS } from '../hosted-pages/page-stylesheet.js';
import type { SandboxMerchant } from '../partners/sandbox-merchant.js';
import { newId } from '../store/ids.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import { DASHBOARD_CSS } from './dashboard-css.js';
import {
  DASHBOARD_FORM_ID_FIELD,
  DASHBOARD_CSRF_FIELD,
  renderDashboardErrorPage,
  renderDetailPage,
  renderHomePage,
  renderListPage,
  renderLoginPage,
  type DashboardFrame,
  type Notice,
} from './dashboard-pages.js';
import type { DashboardSection } from './dashboard-section.js';
import { DashboardSessions, SANDBOX_DASHBOARD_SESSION_TTL_MS, type SignedIn } from './dashboard-sessions.js';
import { DashboardTables } from './dashboard-tables.js';

/** Where the dashboard lives on the sandbox. */
export const SANDBOX_DASHBOARD_PATH = '/sandbox/dashboard';

const STYLESHEET_HREF = `${SANDBOX_DASHBOARD_PATH}/style.css` as const;
const LOGIN_PATH = `${SANDBOX_DASHBOARD_PATH}/login` as const;
const LOGOUT_PATH = `${SANDBOX_DASHBOARD_PATH}/logout` as const;
const STYLESHEET = `${SANDBOX_PAGES_CSS}${DASHBOARD_CSS}`;
/** Pages anyone may open; every other one answers only a signed-in merchant. */
const OPEN_PATHS: ReadonlySet<string> = new Set([STYLESHEET_HREF, LOGIN_PATH]);

/**
 * Headers of every dashboard page: the hosted pages' strict CSP (no script, no inline style, no
 * framing), with forms allowed to post to the dashboard only. The referrer policy is
 * `same-origin` rather than `no-referrer` because browsers send `Origin: null` on a POST made
 * under `no-referrer`, and the dashboard's CSRF check compares that header with its own origin.
 */
const PAGE_HEADERS = {
  ...HOSTED_PAGE_HEADERS,
  'content-security-policy': "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

/** A form post of another type is refused with this, shown on the error page. */
const FORM_REFUSAL = 'The dashboard takes form posts (application/x-www-form-urlencoded).';

/** The path's params of one record, and of an action on it. */
interface RecordParams {
  readonly id: string;
}
interface ActionParams extends RecordParams {
  readonly action: string;
}

export interface SandboxDashboardOptions {
  store: SandboxStore;
  merchants: ReadonlyMap<string, SandboxMerchant>;
  sections: readonly DashboardSection<unknown>[];
  now: () => Date;
  maxBodyBytes: number;
  /** The sandbox's `publicUrl`: its origin is accepted as the dashboard's own in the CSRF check. */
  publicUrl?: string | undefined;
}

/**
 * The sandbox dashboard at {@link SANDBOX_DASHBOARD_PATH}: server-rendered pages to see and drive
 * what the sandbox holds for a merchant (charges, refunds, transactions, card authorizations,
 * webhook deliveries, and whatever else the sections list declares).
 *
 * Access: the dashboard answers only a signed-in merchant, who signs in with its merchant id and
 * API key (the credentials of `/api/v1/*`), so it shows nothing the API would not show to the same
 * key; each merchant sees only its own records. Sessions are {@link DashboardSessions}, and last
 * {@link SANDBOX_DASHBOARD_SESSION_TTL_MS}. A sandbox started with `dashboard: false` has no
 * dashboard at all.
 *
 * CSRF: GET never changes anything. Every POST must (1) carry the session's CSRF token, a random
 * value per session, in the hidden `csrfToken` field (compared in constant time), and (2) carry a
 * same-origin signal: `Sec-Fetch-Site: same-origin` or an `Origin` equal to the dashboard's origin
 * (the request's, or `publicUrl`'s), with neither header naming another origin or site; a request
 * with neither header is refused (403). SameSite=Strict alone is not enough here:
 * other local apps (`localhost:5173`) are same-site with the sandbox. The sign-in form, which has
 * no session yet, is held to (2). Each action form also carries a single-use form id, so a double
 * submit acts once and answers as the first submission did.
 */
export class SandboxDashboard {
  readonly #sections: readonly DashboardSection<unknown>[];
  readonly #maxBodyBytes: number;
  readonly #sessions: DashboardSessions;
  readonly #tables: DashboardTables;

  constructor(options: SandboxDashboardOptions) {
    this.#sections = options.sections;
    this.#maxBodyBytes = options.maxBodyBytes;
    const publicOrigin = options.publicUrl !== undefined && URL.canParse(options.publicUrl) ? new URL(options.publicUrl).origin : undefined;
    this.#sessions = new DashboardSessions({ store: options.store, merchants: options.merchants, now: options.now, path: SANDBOX_DASHBOARD_PATH, publicOrigin });
    this.#tables = new DashboardTables(options.sections, SANDBOX_DASHBOARD_PATH);
    const slugs = new Set<string>();
    for (const section of this.#sections) {
      if (slugs.has(section.slug) || ['login', 'logout', 'style.css'].includes(section.slug)) {
        throw new TypeError(`dashboard section slug ${JSON.stringify(section.slug)} is taken`);
      }
      slugs.add(section.slug);
    }
  }

  /** The dashboard's pages, for the sandbox's route table. */
  routes(): SandboxRoute[] {
    const area: PageArea = {
      prefix: SANDBOX_DASHBOARD_PATH,
      notFound: (context) =>
        this.#signedOut(context) ?? withoutTrailingSlash(context) ?? this.#refusal(context, new SandboxError('NOT_FOUND_ERROR', 'There is no dashboard page at this address.')),
      error: (error, context) => (error.status === 405 ? this.#signedOut(context) : undefined) ?? this.#refusal(context, error),
    };
    /** A page only a signed-in merchant gets; anyone else is sent to sign in. */
    const signed = <P>(handle: (context: RouteContext<P>, signed: SignedIn) => Response | Promise<Response>) => (context: RouteContext<P>) => {
      const signedIn = this.#sessions.signedIn(context.request);
      return signedIn ? handle(context, signedIn) : this.#signInFirst(context.request);
    };
    // Each section's pages are routes of their own, so an address that names no section is a
    // missing page whatever the method, not a method the section pages refuse.
    const sectionRoutes = this.#sections.flatMap((section) => {
      const href = this.#tables.sectionHref(section.slug);
      return [
        pageRoute(area, 'GET', href, signed((context, signedIn) => this.#list(section, context, signedIn))),
        pageRoute(area, 'GET', `${href}/:id`, signed((context, signedIn) => this.#detail(section, context, signedIn))),
        pageRoute(area, 'POST', `${href}/:id/:action`, signed((context, signedIn) => this.#act(section, context, signedIn))),
      ];
    });
    return [
      pageRoute(area, 'GET', STYLESHEET_HREF, () => stylesheetResponse(STYLESHEET)),
      pageRoute(area, 'GET', LOGIN_PATH, (context) => this.#loginPage(context)),
      pageRoute(area, 'POST', LOGIN_PATH, (context) => this.#login(context)),
      pageRoute(area, 'POST', LOGOUT_PATH, signed((context, signedIn) => this.#logout(context, signedIn))),
      pageRoute(area, 'GET', SANDBOX_DASHBOARD_PATH, signed((_context, signedIn) => this.#home(signedIn))),
      ...sectionRoutes,
    ];
  }

  #loginPage({ request }: RouteContext<unknown>): Response {
    if (this.#sessions.signedIn(request)) return seeOther(SANDBOX_DASHBOARD_PATH);
    return page(200, renderLoginPage({ stylesheetHref: STYLESHEET_HREF, action: LOGIN_PATH }));
  }

  async #login({ request, url }: RouteContext<unknown>): Promise<Response> {
    this.#sessions.checkOrigin(request, url);
    const form = await readFormPost(request, this.#maxBodyBytes, FORM_REFUSAL);
    const merchantId = (form.get('merchantId') ?? '').trim();
    const merchant = this.#sessions.authenticate(merchantId, (form.get('apiKey') ?? '').trim());
    if (!merchant) {
      const error = 'That merchant id and API key do not match a merchant of this sandbox.';
      return page(401, renderLoginPage({ stylesheetHref: STYLESHEET_HREF, action: LOGIN_PATH, merchantId, error }));
    }
    const previous = this.#sessions.signedIn(request);
    if (previous) this.#sessions.end(previous.session);
    const session = this.#sessions.start(merchant);
    return seeOther(SANDBOX_DASHBOARD_PATH, { 'set-cookie': this.#sessions.cookie(url, session.id, SANDBOX_DASHBOARD_SESSION_TTL_MS / 1000) });
  }

  async #logout(context: RouteContext<unknown>, signed: SignedIn): Promise<Response> {
    await this.#checkedForm(context, signed);
    this.#sessions.end(signed.session);
    return seeOther(LOGIN_PATH, { 'set-cookie': this.#sessions.cookie(context.url, '', 0) });
  }

  #home(signed: SignedIn): Response {
    const sections = this.#sections.map((section) => ({
      title: section.title,
      href: this.#tables.sectionHref(section.slug),
      count: section.list(signed.merchant, { limit: 1, offset: 0 }).totalCount,
    }));
    const note = 'Everything this sandbox holds for your merchant, newest first. Open a record to see its details and act on it.';
    return page(200, renderHomePage({ frame: this.#frame(signed, undefined), sections, note }));
  }

  #list(section: DashboardSection<unknown>, { url }: RouteContext<unknown>, signed: SignedIn): Response {
    const { limit, offset } = pageParams(url.searchParams, (field, rule) => new SandboxError('API_VALIDATION_ERROR', `The page address is wrong: ${field} ${rule}.`));
    const { data, totalCount } = section.list(signed.merchant, { limit, offset });
    const href = this.#tables.sectionHref(section.slug);
    const pageHref = (at: number) => `${href}?offset=${at}${limit === LIST_DEFAULT_LIMIT ? '' : `&limit=${limit}`}`;
    const table = this.#tables.table({ title: `${section.title} (${totalCount})`, section: section.slug, records: data, empty: `No ${section.title.toLowerCase()} yet.` });
    const paging = {
      offset,
      shown: data.length,
      total: totalCount,
      previousHref: offset > 0 ? pageHref(Math.max(0, offset - limit)) : undefined,
      nextHref: offset + data.length < totalCount ? pageHref(offset + limit) : undefined,
    };
    return page(200, renderListPage({ frame: this.#frame(signed, section), title: section.title, hint: section.hint, table, paging }));
  }

  #detail(section: DashboardSection<unknown>, { url, params }: RouteContext<RecordParams>, signed: SignedIn, status = 200, notice?: Notice): Response {
    const record = section.get(signed.merchant, params.id);
    const done = url.searchParams.get('done');
    const doneAction = done === null ? undefined : section.actions?.find((action) => action.name === done);
    const shownNotice = notice ?? (doneAction ? { kind: 'success' as const, text: doneAction.done } : undefined);
    const recordId = section.id(record);
    const actions = (section.actions ?? [])
      .filter((action) => action.available(record))
      .map((action) => ({
        action: `${this.#tables.recordHref(section.slug, recordId)}/${encodeURIComponent(action.name)}`,
        label: action.label,
        variant: action.variant,
        csrfToken: signed.session.csrfToken,
        formId: newId('', 16),
        inputs: (action.inputs?.(record) ?? []).map((input) => ({ name: input.name, label: input.label, hint: input.hint, inputMode: input.inputMode })),
      }));
    const view = {
      frame: this.#frame(signed, section),
      title: `${section.singular} ${recordId}`,
      fields: section.fields.map((field) => ({ label: field.label, cell: this.#tables.display(field.value(record)) })),
      actions,
      tables: (section.related?.(record, signed.merchant) ?? []).map((related) => this.#tables.table(related)),
      notice: shownNotice,
      backHref: this.#tables.sectionHref(section.slug),
      backLabel: `All ${section.title.toLowerCase()}`,
    };
    return page(status, renderDetailPage(view));
  }

  async #act(section: DashboardSection<unknown>, context: RouteContext<ActionParams>, signed: SignedIn): Promise<Response> {
    const form = await this.#checkedForm(context, signed);
    const formId = form.get(DASHBOARD_FORM_ID_FIELD) ?? '';
    if (!/^[A-Za-z0-9]{8,64}$/.test(formId)) throw new SandboxError('API_VALIDATION_ERROR', 'This form is incomplete. Reload the page and try again.');
    const first = this.#sessions.submission(signed.session, formId);
    if (first !== undefined) return seeOther(first);

    const record = section.get(signed.merchant, context.params.id);
    const name = context.params.action;
    const action = section.actions?.find((candidate) => candidate.name === name);
    if (!action) throw new SandboxError('NOT_FOUND_ERROR', `A ${section.singular.toLowerCase()} has no action “${name}”.`);
    const recordId = section.id(record);
    const again = { ...context, params: { ...context.params, id: recordId } };
    if (!action.available(record)) {
      return this.#detail(section, again, signed, 409, { kind: 'error', text: `“${action.label}” is not possible for this ${section.singular.toLowerCase()} any more.` });
    }
    let location: string;
    try {
      const target = action.run(record, form, signed.merchant);
      location = `${target ? this.#tables.recordHref(target.section, target.id) : this.#tables.recordHref(section.slug, recordId)}?done=${encodeURIComponent(action.name)}`;
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
      return this.#detail(section, again, signed, error.status, { kind: 'error', text: error.message });
    }
    this.#sessions.remember(signed.session, formId, location);
    return seeOther(location);
  }

  #frame(signed: SignedIn, current: DashboardSection<unknown> | undefined): DashboardFrame {
    return {
      stylesheetHref: STYLESHEET_HREF,
      homeHref: SANDBOX_DASHBOARD_PATH,
      nav: this.#sections.map((section) => ({ label: section.title, href: this.#tables.sectionHref(section.slug), current: section === current })),
      merchantId: signed.merchant.merchantId,
      logout: { action: LOGOUT_PATH, csrfToken: signed.session.csrfToken },
    };
  }

  /** The answer for a request without a live session to a page that needs one, or undefined. */
  #signedOut({ request, url }: RouteContext<unknown>): Response | undefined {
    if (OPEN_PATHS.has(url.pathname) || this.#sessions.signedIn(request)) return undefined;
    return this.#signInFirst(request);
  }

  /** Sign in first (a GET), or a page saying the session ended (a form posted after it did). */
  #signInFirst(request: Request): Response {
    if (request.method === 'GET' || request.method === 'HEAD') return seeOther(LOGIN_PATH);
    return this.#errorPage(401, undefined, 'Signed out', 'Your dashboard session has ended. Sign in again, then retry.');
  }

  /** A refused request as a page: what went wrong, and the way back. */
  #refusal({ request }: RouteContext<unknown>, error: SandboxError): Response {
    const title = error.status === 404 ? 'Not found' : error.status === 403 ? 'Refused' : 'Cannot do that';
    return this.#errorPage(error.status, this.#sessions.signedIn(request), title, error.message, error.headers);
  }

  #errorPage(status: number, signed: SignedIn | undefined, title: string, message: string, headers: Record<string, string> = {}): Response {
    const link = signed ? { href: SANDBOX_DASHBOARD_PATH, label: 'Back to the overview' } : { href: LOGIN_PATH, label: 'Sign in' };
    const html = renderDashboardErrorPage({ stylesheetHref: STYLESHEET_HREF, frame: signed ? this.#frame(signed, undefined) : undefined, title, message, link });
    return page(status, html, headers);
  }

  /** The form of a signed-in POST, once its origin and CSRF token are checked. */
  async #checkedForm({ request, url }: RouteContext<unknown>, signed: SignedIn): Promise<URLSearchParams> {
    this.#sessions.checkOrigin(request, url);
    const form = await readFormPost(request, this.#maxBodyBytes, FORM_REFUSAL);
    this.#sessions.checkCsrfToken(signed.session, form.get(DASHBOARD_CSRF_FIELD) ?? '');
    return form;
  }
}

/** `/sandbox/dashboard/charges/` is the page without its trailing slash: sends a GET there. */
function withoutTrailingSlash({ request, url }: RouteContext<unknown>): Response | undefined {
  const trimmed = url.pathname.replace(/\/+$/, '');
  if (trimmed === url.pathname || (request.method !== 'GET' && request.method !== 'HEAD')) return undefined;
  return seeOther(`${trimmed}${url.search}`);
}

function page(status: number, body: Html, headers: Record<string, string> = {}): Response {
  return pageResponse(status, body, { ...PAGE_HEADERS, ...headers });
}
