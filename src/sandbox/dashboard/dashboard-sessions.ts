import { SandboxError } from '../http/sandbox-error.js';
import { constantTimeEqual } from '../partners/authenticate.js';
import type { SandboxMerchant } from '../partners/sandbox-merchant.js';
import { newId } from '../store/ids.js';
import { defineStoreSlice, type SandboxStore } from '../store/sandbox-store.js';

/** The cookie that carries a dashboard session id. */
export const SANDBOX_DASHBOARD_COOKIE = 'satang_sandbox_dashboard';
/** How long a dashboard session lasts after signing in. */
export const SANDBOX_DASHBOARD_SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** Sessions kept at once; signing in beyond it ends the oldest. */
const MAX_SESSIONS = 100;
/** Submitted form ids remembered per session, to answer a double submit as the first. */
const MAX_REMEMBERED_FORMS = 500;

/** A signed-in merchant's session; lives in the store. */
export interface DashboardSession {
  id: string;
  merchantId: string;
  csrfToken: string;
  expiresAtMs: number;
  /** Form id -> where its first submission went. */
  submitted: Map<string, string>;
}

/** Dashboard sign-ins by session id; insertion order is sign-in order, so the first is the oldest. */
export const DASHBOARD_SESSIONS = defineStoreSlice('dashboardSessions', () => new Map<string, DashboardSession>());

/** A live session and its merchant. */
export interface SignedIn {
  session: DashboardSession;
  merchant: SandboxMerchant;
}

export interface DashboardSessionsOptions {
  store: SandboxStore;
  merchants: ReadonlyMap<string, SandboxMerchant>;
  now: () => Date;
  /** The path the cookie is scoped to: the dashboard's own. */
  path: string;
  /** The sandbox's `publicUrl` origin: accepted as the dashboard's own in the origin check. */
  publicOrigin: string | undefined;
}

/**
 * Dashboard sign-ins: a session per sign-in, kept in the store, carried in an `HttpOnly; SameSite=Strict` cookie scoped to
 * the dashboard (`Secure` over https), with a CSRF token per session and the single-use form ids
 * already submitted.
 */
export class DashboardSessions {
  readonly #options: DashboardSessionsOptions;
  readonly #sessions: Map<string, DashboardSession>;

  constructor(options: DashboardSessionsOptions) {
    this.#options = options;
    this.#sessions = options.store.slice(DASHBOARD_SESSIONS);
  }

  /**
   * The merchant whose id and API key these are, or undefined. The key is compared even for an
   * unknown merchant, so timing does not tell which ids exist.
   */
  authenticate(merchantId: string, apiKey: string): SandboxMerchant | undefined {
    const merchant = this.#options.merchants.get(merchantId);
    const keyMatches = constantTimeEqual(apiKey, merchant?.apiKey ?? `\u0000${apiKey}`);
    return merchant && keyMatches && apiKey !== '' ? merchant : undefined;
  }

  /** A new session for `merchant`, ending the oldest beyond the cap; answer with its cookie. */
  start(merchant: SandboxMerchant): DashboardSession {
    const sessions = this.#sessions;
    const session: DashboardSession = {
      id: newId('dss_', 32),
      merchantId: merchant.merchantId,
      csrfToken: newId('', 32),
      expiresAtMs: this.#options.now().getTime() + SANDBOX_DASHBOARD_SESSION_TTL_MS,
      submitted: new Map(),
    };
    sessions.set(session.id, session);
    dropOldest(sessions, MAX_SESSIONS);
    return session;
  }

  end(session: DashboardSession): void {
    this.#sessions.delete(session.id);
  }

  /** The session the request's cookie names, while it lasts, and its merchant. */
  signedIn(request: Request): SignedIn | undefined {
    const id = readCookie(request.headers.get('cookie'), SANDBOX_DASHBOARD_COOKIE);
    if (id === undefined) return undefined;
    const sessions = this.#sessions;
    const session = sessions.get(id);
    if (!session) return undefined;
    const merchant = this.#options.merchants.get(session.merchantId);
    if (!merchant || session.expiresAtMs <= this.#options.now().getTime()) {
      sessions.delete(id);
      return undefined;
    }
    return { session, merchant };
  }

  /** Where the first submission of `formId` went, if it was submitted before. */
  submission(session: DashboardSession, formId: string): string | undefined {
    return session.submitted.get(formId);
  }

  /** Remembers where a form's submission went, so a second submission goes there too. */
  remember(session: DashboardSession, formId: string, location: string): void {
    const { submitted } = session;
    submitted.set(formId, location);
    dropOldest(submitted, MAX_REMEMBERED_FORMS);
  }

  /** Refuses a form whose CSRF token is not the session's (compared in constant time). */
  checkCsrfToken(session: DashboardSession, token: string): void {
    if (!constantTimeEqual(token, session.csrfToken)) {
      throw new SandboxError('NO_PERMISSION_ERROR', 'This form is out of date or did not come from the dashboard. Reload the page and try again.');
    }
  }

  /**
   * Refuses a POST unless it says it came from the dashboard's own pages: `Origin` equal to the
   * dashboard's (the request's, or `publicUrl`'s) or `Sec-Fetch-Site: same-origin`, and neither
   * naming another origin or site. A request with neither header (a script holding a stolen
   * cookie and token) is refused too: every browser the dashboard supports sends one on a form post.
   */
  checkOrigin(request: Request, url: URL): void {
    const site = request.headers.get('sec-fetch-site');
    const origin = request.headers.get('origin');
    const { publicOrigin } = this.#options;
    const ownOrigin = origin !== null && (origin === url.origin || (publicOrigin !== undefined && origin === publicOrigin));
    const refused = (site !== null && site !== 'same-origin') || (origin !== null && !ownOrigin) || (site === null && origin === null);
    if (refused) {
      throw new SandboxError('NO_PERMISSION_ERROR', 'The dashboard only takes forms sent from its own pages.');
    }
  }

  /** The `Set-Cookie` value that signs in with `sessionId`, or out with an empty one and no age. */
  cookie(url: URL, sessionId: string, maxAgeSeconds: number): string {
    const secure = url.protocol === 'https:' || this.#options.publicOrigin?.startsWith('https:') === true;
    return `${SANDBOX_DASHBOARD_COOKIE}=${sessionId}; Path=${this.#options.path}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  }
}

/** Deletes the first-inserted entries of `map` until it holds at most `keep`. */
function dropOldest(map: Map<string, unknown>, keep: number): void {
  for (const key of map.keys()) {
    if (map.size <= keep) return;
    map.delete(key);
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
