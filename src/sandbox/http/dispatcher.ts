import { SERVICE_HEADER_SUFFIXES, SERVICE_HEADERS, type ServiceHeaders } from '../../core/constants.js';
import { RouteTable, type HttpMethod } from '../../core/route-table.js';
import { serviceErrorBody } from '../../core/service-error.js';
import type { SandboxFaults } from '../faults/sandbox-faults.js';
import { authenticate, type SandboxPartner } from '../partners/authenticate.js';
import type { SandboxMerchant } from '../partners/sandbox-merchant.js';
import { newId } from '../store/ids.js';
import { requestFingerprint, type IdempotencyStore } from './idempotency.js';
import { readJsonBody } from './read-body.js';
import type { KeyedRoute, PageArea, RouteContext, SandboxRoute } from './route.js';
import { jsonResponse, SandboxError } from './sandbox-error.js';

/**
 * Marks an answer that repeats the first call made with the same idempotency key, under the
 * default prefix; a sandbox started with another one sets `sandbox.headers.idempotentReplayed`.
 */
export const REPLAYED_HEADER = SERVICE_HEADERS.idempotentReplayed;

/** What every answer on a `/client/` path carries, so a browser page may read it. */
function corsHeaders(headers: ServiceHeaders): Readonly<Record<string, string>> {
  return {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': headers.requestId,
  };
}

function corsPreflightHeaders(headers: ServiceHeaders): Readonly<Record<string, string>> {
  return {
    ...corsHeaders(headers),
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-allow-headers': `authorization, content-type, ${headers.idempotencyKey.toLowerCase()}`,
    'access-control-max-age': '600',
  };
}

/** `-idempotency-key` in lower case: how a key sent under another prefix is recognised. */
const IDEMPOTENCY_SUFFIX = `-${SERVICE_HEADER_SUFFIXES.idempotencyKey.toLowerCase()}`;

/** Whether a path is one a browser calls with the publishable key, and so answered with CORS. */
function isClientPath(pathname: string): boolean {
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
  /** The header names requests are read with and answers written with (the prefix's). */
  headers: ServiceHeaders;
  /** The fault rules every request passes through first; none when omitted. */
  faults?: Pick<SandboxFaults, 'apply'> | undefined;
  log?: ((line: string) => void) | undefined;
  /**
   * Told once per header name when a request carries the idempotency key under another prefix
   * (which the service ignores, as it does every header it does not know); `console.warn` by default.
   */
  warn?: ((line: string) => void) | undefined;
}

/**
 * Answers a request from the sandbox's one route table, doing once what every route shares: the
 * injected faults, CORS (the preflight, and the headers of every answer to a browser's path), the
 * key check of the route's area, reading the body, idempotency, the request id and log line, the
 * HTML pages of a page area, and turning every error into the service's error body. Never throws,
 * except as a fault injected on purpose says (a `reset` rejects as a dropped connection does).
 */
export class SandboxDispatcher {
  readonly #table: RouteTable<SandboxRoute>;
  /** The page routes whose path has no `:param`. */
  readonly #fixedPages: RouteTable<SandboxRoute>;
  /** Longest prefix first, so a nested area wins over the one around it. */
  readonly #areas: PageArea[];
  readonly #options: SandboxDispatcherOptions;
  readonly #publicOrigin: string | undefined;
  readonly #corsHeaders: Readonly<Record<string, string>>;
  readonly #preflightHeaders: Readonly<Record<string, string>>;
  /** Foreign idempotency header names already warned about. */
  readonly #warned = new Set<string>();

  constructor(options: SandboxDispatcherOptions) {
    this.#corsHeaders = corsHeaders(options.headers);
    this.#preflightHeaders = corsPreflightHeaders(options.headers);
    this.#table = new RouteTable(options.routes);
    this.#fixedPages = new RouteTable(options.routes.filter((route) => route.area === 'page' && !route.path.includes('/:')));
    this.#options = options;
    this.#publicOrigin = options.publicUrl?.replace(/\/+$/, '');
    const areas = new Set<PageArea>();
    for (const route of options.routes) if (route.area === 'page') areas.add(route.pageArea);
    this.#areas = [...areas].sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /** Answers one request: through the fault rules, then the route table. */
  answer = async (request: Request): Promise<Response> => {
    const { faults } = this.#options;
    const response = faults ? await faults.apply(request, this.#answerRoute) : await this.#answerRoute(request);
    // Every answer to a browser carries CORS headers, a spoiled one too, so the page sees the fault itself.
    if (!response.headers.has('access-control-allow-origin') && isClientPath(new URL(request.url).pathname)) {
      for (const [name, value] of Object.entries(this.#corsHeaders)) response.headers.set(name, value);
    }
    return response;
  };

  /** The sandbox's own answer, as the fault rules see it: request id and log line included. */
  #answerRoute = async (request: Request): Promise<Response> => {
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
    response.headers.set(this.#options.headers.requestId, requestId);
    this.#options.log?.(`${request.method} ${path} ${response.status} ${Date.now() - started}ms ${requestId}`);
    return response;
  };

  async #dispatch(request: Request, url: URL): Promise<Response> {
    const path = url.pathname;
    if (request.method === 'OPTIONS' && isClientPath(path)) return new Response(null, { status: 204, headers: this.#preflightHeaders });
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
    const { merchants, partners, maxBodyBytes, idempotency, headers } = this.#options;
    const merchant = authenticate(request, route.area, merchants, partners, headers);
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
    const key = request.headers.get(headers.idempotencyKey);
    if (key === null) {
      this.#warnForeignKey(request);
      return run();
    }
    const fingerprint = await requestFingerprint(request.method, context.url.pathname, body);
    const { answer, replayed } = await idempotency.run(merchant.merchantId, key, fingerprint, run);
    const response = new Response(answer.status === 204 ? null : answer.body, { status: answer.status, headers: answer.headers });
    if (replayed) response.headers.set(headers.idempotentReplayed, 'true');
    return response;
  }

  /**
   * Like the service, a key under another prefix is not read (its retry would act again), but a
   * developer is told once, since a client spelling the prefix otherwise loses all idempotency.
   */
  #warnForeignKey(request: Request): void {
    for (const name of request.headers.keys()) {
      if (!name.endsWith(IDEMPOTENCY_SUFFIX) || this.#warned.has(name)) continue;
      this.#warned.add(name);
      const prefix = name.slice(0, -IDEMPOTENCY_SUFFIX.length + 1);
      const line =
        `satang-sandbox: ignoring the ${name} header: this sandbox reads ${this.#options.headers.idempotencyKey}, ` +
        `as the service does (start it with --header-prefix ${prefix}, or send the key as ${this.#options.headers.idempotencyKey})`;
      (this.#options.warn ?? console.warn)(line);
    }
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
