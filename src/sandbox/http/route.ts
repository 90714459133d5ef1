/**
 * The sandbox's routes as data. Every feature folder exports a function that returns its routes,
 * API and page routes alike (`chargeRoutes(…)`, `hostedPageRoutes(…)`…); `sandbox.ts` concatenates
 * them into ONE {@link RouteTable}, and the dispatcher does what every route shares once: the key
 * check of its area, reading the body, idempotency, CORS and injected faults. A handler only
 * decides its answer.
 *
 * Pages live in {@link PageArea}s: a path prefix that answers as pages. A path under it that no
 * route has gets the area's HTML "not found" page instead of the service's JSON 404, and an area
 * may render every error thrown inside it (a refused method included) as a page of its own. A
 * page at a fixed address (`…/style.css`) answers that address alone: a `…/:id` page beside it
 * never takes it.
 */
import type { HttpMethod, PathParams as PatternParams, RouteShape } from '../../core/route-table.js';
import type { SandboxMerchant } from '../partners/sandbox-merchant.js';
import type { SandboxError } from './sandbox-error.js';

/**
 * Who may call a route, which decides what the dispatcher does before the handler:
 * - `api`: the merchant API key (or a partner key) as HTTP Basic; JSON body; idempotency keys.
 * - `client`: the publishable key, from a browser: as `api`, plus CORS.
 * - `public`: nobody is authenticated and no body is read (the health check).
 * - `page`: a page a person opens in a browser. No key and no body reading: the handler reads
 *   its own form (`readFormPost`) and answers HTML. It belongs to a {@link PageArea}.
 */
export type RouteArea = 'api' | 'client' | 'public' | 'page';

/** The params a route of path `P` gets: one string per `:name` segment, read-only. */
export type PathParams<P extends string> = Readonly<PatternParams<P>>;

/** What every handler gets. */
export interface RouteContext<Params = Readonly<Record<string, string>>> {
  request: Request;
  url: URL;
  /** The `:name` segments of the route's path, percent-decoded. */
  params: Params;
  /**
   * Origin written into URLs the answer hands out (redirect and page URLs): the sandbox's
   * `publicUrl` when set, else the origin the request came to. No trailing slash.
   */
  origin: string;
}

/** What a handler behind a key gets besides {@link RouteContext}. */
export interface KeyedRouteContext<Params = Readonly<Record<string, string>>> extends RouteContext<Params> {
  /** The merchant the key authenticated (a partner key acts for the merchant it names). */
  merchant: SandboxMerchant;
  /**
   * The request body as read for this route: parsed JSON, `{}` for a bodyless action sent
   * empty, what `readBody` returned, or `undefined` on GET.
   */
  body: unknown;
}

export type RouteHandler<C> = (context: C) => Response | Promise<Response>;

/** A route authenticated by a key: `/api/…` or `/client/…`. */
export interface KeyedRoute extends RouteShape {
  area: Extract<RouteArea, 'api' | 'client'>;
  /** An action that takes no body (cancel, disable, health-check): an empty body reads as `{}`. */
  bodyless?: boolean;
  /**
   * Largest body this route reads, for one that takes more than every other (a slip picture); the
   * sandbox's `maxBodyBytes` otherwise. Past it the answer is 413, whichever reader reads it.
   */
  maxBodyBytes?: number;
  /**
   * Reads a body that is not JSON (a multipart upload), never past `maxBytes`. Returning
   * `undefined` falls back to the JSON reader, so one route can take both.
   */
  readBody?: (request: Request, maxBytes: number) => Promise<unknown>;
  handle(context: KeyedRouteContext): Response | Promise<Response>;
}

/** A route that nobody authenticates: the health check. Answers JSON errors like the API. */
export interface PublicRoute extends RouteShape {
  area: Extract<RouteArea, 'public'>;
  handle(context: RouteContext): Response | Promise<Response>;
}

/** A hosted or dashboard page. */
export interface PageRoute extends RouteShape {
  area: Extract<RouteArea, 'page'>;
  /** The area whose "not found" page and error answers this route shares. */
  pageArea: PageArea;
  handle(context: RouteContext): Response | Promise<Response>;
}

/**
 * Any route. Each stores its handler for any params (a method, so a handler written for the
 * params of its own path, as the factories below type it, fits): the table fills exactly the
 * names of the route's pattern.
 */
export type SandboxRoute = KeyedRoute | PublicRoute | PageRoute;

/**
 * A path prefix that answers as pages (`/sandbox/pages`, `/sandbox/dashboard`). The dispatcher
 * knows the areas from the page routes that name them; where areas nest, the longest prefix
 * wins (`/sandbox/pages/bolt` inside `/sandbox/pages`).
 */
export interface PageArea {
  /** The prefix without a trailing slash; it covers the path itself and everything under it. */
  prefix: string;
  /**
   * The page for a path under the prefix (`prefix/…`) that no route has: an HTML 404 that offers
   * no action. The prefix itself, when no route has it, is a missing page of the area around it.
   * (A page's id segment that is not valid percent-encoding reaches its route as it was written,
   * like any unknown id.)
   */
  notFound(context: RouteContext): Response | Promise<Response>;
  /**
   * The methods every address under the prefix takes, found or not, for an area whose pages are
   * all forms: a missing page asked with another method is refused (405 with `Allow`) rather
   * than not found. Without it a missing page is not found whatever the method.
   */
  methods?: readonly HttpMethod[];
  /**
   * How an error thrown inside the area is answered, a method the path does not take (405 with
   * `Allow`) included. Without it the answer is the service's JSON error, as the hosted pages
   * answer a request no browser form makes.
   */
  error?(error: SandboxError, context: RouteContext): Response | Promise<Response>;
}

type KeyedOptions = Pick<KeyedRoute, 'bodyless' | 'readBody' | 'maxBodyBytes'>;

/** A route of the merchant API (`/api/…`, `/sandbox/v1/…`), behind the API key. */
export function apiRoute<P extends string>(method: HttpMethod, path: P, handle: RouteHandler<KeyedRouteContext<PathParams<P>>>, options: KeyedOptions = {}): KeyedRoute {
  return { method, path, area: 'api', handle, ...options };
}

/** A route a browser calls with the publishable key (`/client/…`). */
export function clientRoute<P extends string>(method: HttpMethod, path: P, handle: RouteHandler<KeyedRouteContext<PathParams<P>>>, options: KeyedOptions = {}): KeyedRoute {
  return { method, path, area: 'client', handle, ...options };
}

/** A route nobody authenticates. */
export function publicRoute<P extends string>(method: HttpMethod, path: P, handle: RouteHandler<RouteContext<PathParams<P>>>): PublicRoute {
  return { method, path, area: 'public', handle };
}

/** A page of `pageArea`; its path must lie under the area's prefix. */
export function pageRoute<P extends string>(pageArea: PageArea, method: HttpMethod, path: P, handle: RouteHandler<RouteContext<PathParams<P>>>): PageRoute {
  if (path !== pageArea.prefix && !path.startsWith(`${pageArea.prefix}/`)) {
    throw new Error(`page route ${path} lies outside its area ${pageArea.prefix}`);
  }
  return { method, path, area: 'page', pageArea, handle };
}
