import { SERVICE_HEADER_PREFIX, SERVICE_HEADERS } from '../../core/constants.js';
import { RouteTable, type HttpMethod } from '../../core/route-table.js';
import { serviceErrorBody } from '../../core/service-error.js';
import { authenticate, type SandboxPartner } from '../partners/authenticate.js';
import type { SandboxMerchant } from '../partners/sandbox-merchant.js';
import { newId } from '../store/ids.js';
import { requestFingerprint, type IdempotencyStore } from './idempotency.js';
import { readJsonBody } from './read-body.js';
import type { KeyedRoute, PageArea, RouteContext, SandboxRoute } from './route.js';
import { jsonResponse, SandboxError } from './sandbox-error.js';

/** Marks an answer that repeats the first call made with the same idempotency key. */
export const REPLAYED_HEADER = `${SERVICE_HEADER_PREFIX}Idempotent-Replayed`;

/** What every answer on a `/client/` path carries, so a browser page may read it. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': SERVICE_HEADERS.requestId,
};
const CORS_PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': `authorization, content-type, ${SERVICE_HEADERS.idempotencyKey.toLowerCase()}`,
  'access-control-max-age': '600',
};

/** Whether a path is one a browser calls with the publishable key, and so answered with CORS. */
export function isClientPath(pathname: string): boolean {
  return pathname.startsWith('/client/');
}

export interface SandboxDispatcherOptions {
  routes: readonly SandboxRoute[];
  merchants: ReadonlyMap<string, SandboxMerchant>;
  partners: ReadonlyMap<string, SandboxPartner>;
  idempotency: IdempotencyStore;
  /** Largest body a keyed route reads unless it names its own cap; a larger one is 413. */
  maxBodyBytes: number;
  /** Origin for the URLs answers hand out; the request's own when undefined. */
  publicUrl: string | undefined;
  log?: ((line: string) => void) | undefined;
}

/**
 * Answers a request from the sandbox's one route table, doing once what every route shares: the
 * CORS preflight (the CORS headers of every answer are `Sandbox.fetch`'s), the key check of the route's area, reading the body, idempotency, the request
 * id and log line, the HTML pages of a page area, and turning every error into the service's
 * error body. Never throws.
 */
export class SandboxDispatcher {
  readonly #table: RouteTable<SandboxRoute>;
  /** The page routes whose path has no `:param`. */
  readonly #fixedPages: RouteTable<SandboxRoute>;
  /** Longest prefix first, so a nested area wins over the one around it. */
  readonly #areas: PageArea[];
  readonly #options: SandboxDispatcherOptions;
  readonly #publicOrigin: string | undefined;

  constructor(options: SandboxDispatcherOptions) {
    this.#table = new RouteTable(options.routes);
    this.#fixedPages = new RouteTable(options.routes.filter((route) => route.area === 'page' && !route.path.includes('/:')));
    this.#options = options;
    this.#publicOrigin = options.publicUrl?.replace(/\/+$/, '');
    const areas = new Set<PageArea>();
    for (const route of options.routes) if (route.area === 'page') areas.add(route.pageArea);
    this.#areas = [...areas].sort((a, b) => b.prefix.length - a.prefix.length);
  }

  answer = async (request: Request): Promise<Response> => {
    const requestId = newId('req_', 20);
    const started = Date.now();
    let response: Response;
    let path = request.url;
    try {
      const url = new URL(request.url);
      path = url.pathname;
      response = await this.#dispatch(request, url);
    } catch (error) {
      response = toErrorResponse(error);
    }
    response.headers.set(SERVICE_HEADERS.requestId, requestId);
    this.#options.log?.(`${request.method} ${path} ${response.status} ${Date.now() - started}ms ${requestId}`);
    return response;
  };

  async #dispatch(request: Request, url: URL): Promise<Response> {
    const path = url.pathname;
    if (request.method === 'OPTIONS' && isClientPath(path)) return new Response(null, { status: 204, headers: CORS_PREFLIGHT_HEADERS });
    const context: RouteContext = { request, url, params: {}, origin: this.#publicOrigin ?? url.origin };
    // A page at a fixed address (a stylesheet, the sign-out) is its routes' alone: the
    // `/:id` page beside it neither answers it nor adds its methods to the refusal.
    let match = this.#fixedPages.match(request.method, path);
    if (match.kind === 'not-found') match = this.#table.match(request.method, path);
    const area = this.#areas.find((candidate) => path === candidate.prefix || path.startsWith(`${candidate.prefix}/`));
    if (match.kind === 'malformed' && area) {
      // A page takes a segment that is not valid percent-encoding as it is written, like any unknown id.
      match = this.#table.match(request.method, path.replaceAll('%', '%25'));
    }
    switch (match.kind) {
      case 'found':
        return this.#run(match.route, { ...context, params: match.params });
      case 'malformed':
        throw new SandboxError('NOT_FOUND_ERROR', `malformed ${match.parameter} in the path`);
      case 'method-not-allowed':
        return refuseMethod(match.allowed, area, context);
      case 'not-found': {
        // The area a missing page lies under, so `/sandbox/pages/payment-links` itself is a
        // missing page of `/sandbox/pages`.
        const under = this.#areas.find((candidate) => path.startsWith(`${candidate.prefix}/`));
        if (!under) throw new SandboxError('NOT_FOUND_ERROR', `no endpoint ${request.method} ${path}`);
        if (under.methods && !under.methods.includes(request.method as HttpMethod)) return refuseMethod(under.methods, under, context);
        return under.notFound(context);
      }
    }
  }

  async #run(route: SandboxRoute, context: RouteContext): Promise<Response> {
    if (route.area === 'public') return route.handle(context);
    if (route.area === 'page') {
      try {
        return await route.handle(context);
      } catch (error) {
        if (error instanceof SandboxError && route.pageArea.error) return route.pageArea.error(error, context);
        throw error;
      }
    }
    return this.#runKeyed(route, context);
  }

  /** Key check, then the body, then the handler; a retried POST or PATCH answers from its idempotency record. */
  async #runKeyed(route: KeyedRoute, context: RouteContext): Promise<Response> {
    const { request } = context;
    const { merchants, partners, maxBodyBytes, idempotency } = this.#options;
    const merchant = authenticate(request, route.area, merchants, partners);
    if (request.method === 'GET') return route.handle({ ...context, merchant, body: undefined });

    const cap = route.maxBodyBytes ?? maxBodyBytes;
    const custom = await route.readBody?.(request, cap);
    const body = custom !== undefined ? custom : (await readJsonBody(request, cap, { allowEmpty: route.bodyless === true })).value;
    const run = async () => {
      try {
        return await route.handle({ ...context, merchant, body });
      } catch (error) {
        if (error instanceof SandboxError) return error.toResponse();
        throw error;
      }
    };
    const key = request.headers.get(SERVICE_HEADERS.idempotencyKey);
    if (key === null) return run();
    const fingerprint = await requestFingerprint(request.method, context.url.pathname, body);
    const { answer, replayed } = await idempotency.run(merchant.merchantId, key, fingerprint, run);
    const response = new Response(answer.status === 204 ? null : answer.body, { status: answer.status, headers: answer.headers });
    if (replayed) response.headers.set(REPLAYED_HEADER, 'true');
    return response;
  }
}

/**
 * 405 with `Allow`. A page area says "here", as a person reads it on the page it shows; the API
 * names the path. An area that renders its errors answers with its page.
 */
function refuseMethod(allowed: readonly HttpMethod[], area: PageArea | undefined, context: RouteContext): Response | Promise<Response> {
  const where = area ? 'here' : `on ${context.url.pathname}`;
  const refused = new SandboxError('METHOD_NOT_ALLOWED_ERROR', `${context.request.method} is not allowed ${where}; use ${allowed.join(' or ')}`, {
    allow: allowed.join(', '),
  });
  if (area?.error) return area.error(refused, context);
  throw refused;
}

/** The service's error body for a refusal; a 500 that leaks nothing for a fault of the sandbox itself. */
function toErrorResponse(error: unknown): Response {
  if (error instanceof SandboxError) return error.toResponse();
  console.error('satang-sandbox: unexpected error', error);
  return jsonResponse(500, serviceErrorBody('INTERNAL_SERVER_ERROR', 'the sandbox failed to answer this request'));
}
