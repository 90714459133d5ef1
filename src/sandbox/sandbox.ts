import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT, SERVICE_HEADER_PREFIX, SERVICE_HEADERS } from '../core/constants.js';
import { CHARGE_SOURCES } from '../core/schemas/charge.js';
import { serviceErrorBody } from '../core/service-error.js';
import { authenticate, type KeyArea, type SandboxPartner } from './partners/authenticate.js';
import { SandboxAuthorizations } from './authorizations.js';
import { SandboxBolt, type SandboxBoltOptions } from './bolt.js';
import { SandboxDashboard } from './dashboard.js';
import { sandboxDashboardSections } from './dashboard-sections.js';
import { SANDBOX_DEFAULTS, SANDBOX_MAX_BODY_BYTES, SANDBOX_REFUND_SETTLE_DELAY_MS } from './defaults.js';
import { SANDBOX_FAULTS_PATH, SandboxFaults } from './faults.js';
import { HostedPages } from './hosted-pages.js';
import { canonicalJson, IdempotencyStore } from './http/idempotency.js';
import { newId } from './store/ids.js';
import { PaymentLinkPages } from './payment-link-pay-page.js';
import { SandboxPaymentLinks } from './payment-links.js';
import { SandboxPayments, type SandboxMerchant } from './payments.js';
import { SandboxQrSlips } from './qr-slips.js';
import { readJsonBody } from './http/read-body.js';
import { jsonResponse, SandboxError } from './http/sandbox-error.js';
import { SandboxStore } from './store/sandbox-store.js';
import { WebhookDispatcher, type WebhookDispatcherOptions } from './webhooks/webhook-dispatcher.js';

/** How to set up a sandbox. Everything is optional: the defaults are {@link SANDBOX_DEFAULTS}. */
export interface SandboxOptions {
  /** Merchants and their keys; one default merchant when omitted. */
  merchants?: SandboxMerchant[];
  /** Partners whose keys act for the merchants that name them; one default partner when omitted. */
  partners?: SandboxPartner[];
  /** Where webhooks go and the base64 key that signs them; no webhooks without a URL. */
  webhook?: { url?: string | undefined; webhookKeyBase64?: string | undefined } & Omit<WebhookDispatcherOptions, 'url' | 'webhookKeyBase64'>;
  /**
   * Origin written into redirect URLs of hosted pages (e.g. `http://localhost:4010`). By default
   * the origin the request was made to.
   */
  publicUrl?: string;
  /** Clock, for tests that travel in time (QR expiry, token expiry). */
  now?: () => Date;
  /** Largest request body read; larger ones get 413. */
  maxBodyBytes?: number;
  /** Delay before a refund leaves PENDING. */
  refundSettleDelayMs?: number;
  /**
   * Bolt devices each merchant has registered (by merchant id; three devices by default, see
   * `SANDBOX_BOLT_DEVICES`) and how long a device takes to answer a health check.
   */
  bolt?: SandboxBoltOptions;
  /** Logs one line per request when given. */
  log?: (line: string) => void;
  /**
   * Whether the dashboard at `/sandbox/dashboard` is served (default true). It asks for a
   * merchant id and API key, so it shows no more than the API does; `false` removes it entirely.
   */
  dashboard?: boolean;
}

type Area = KeyArea | 'public';
interface RouteContext {
  request: Request;
  url: URL;
  params: Record<string, string>;
  merchant: SandboxMerchant;
  body: unknown;
  origin: string;
}
interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  pattern: RegExp;
  area: Area;
  /** An action that takes no body (cancel, disable, health-check): an empty body is `{}`. */
  bodyless?: boolean;
  /** Reads a body that is not JSON (e.g. a multipart upload); `undefined` falls back to JSON. */
  readBody?: (request: Request) => Promise<unknown>;
  handle: (context: RouteContext) => Promise<Response> | Response;
}

/** Marks an answer that repeats the first call made with the same idempotency key. */
export const REPLAYED_HEADER = `${SERVICE_HEADER_PREFIX}Idempotent-Replayed`;

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': SERVICE_HEADERS.requestId,
};
const CORS_PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': `authorization, content-type, ${SERVICE_HEADERS.idempotencyKey.toLowerCase()}`,
  'access-control-max-age': '600',
};

/** The default merchant, partner and webhook settings, as a person reads them in the docs. */
export function defaultSandboxMerchant(): SandboxMerchant {
  return {
    merchantId: SANDBOX_DEFAULTS.merchantId,
    apiKey: SANDBOX_DEFAULTS.apiKey,
    publishableKey: SANDBOX_DEFAULTS.publishableKey,
    partnerId: SANDBOX_DEFAULTS.partnerId,
    name: SANDBOX_DEFAULTS.merchantName,
  };
}

/**
 * A local, in-memory emulator of the payment service. `fetch` answers a `Request` exactly as the
 * service would (same paths, auth, bodies, errors and idempotency) and serves the hosted pages a
 * shopper is sent to. Use it in tests directly, or behind a socket with `listenSandbox`.
 */
export class Sandbox {
  readonly store = new SandboxStore();
  readonly payments: SandboxPayments;
  readonly authorizations: SandboxAuthorizations;
  readonly paymentLinks: SandboxPaymentLinks;
  readonly webhooks: WebhookDispatcher;
  /** Bolt intents, bolt devices and the bolt pages. */
  readonly bolt: SandboxBolt;
  /** Bank transfer slips of QR charges and their verification. */
  readonly qrSlips: SandboxQrSlips;
  /** Fault injection: rules that make requests fail as a network or a failing service would. */
  readonly faults: SandboxFaults;
  readonly merchants: ReadonlyMap<string, SandboxMerchant>;
  readonly partners: ReadonlyMap<string, SandboxPartner>;
  readonly #options: SandboxOptions;
  readonly #idempotency: IdempotencyStore;
  readonly #pages: HostedPages;
  readonly #paymentLinkPages: PaymentLinkPages;
  readonly #dashboard: SandboxDashboard | undefined;
  readonly #routes: Route[];
  readonly #maxBodyBytes: number;

  constructor(options: SandboxOptions = {}) {
    this.#options = options;
    const now = options.now ?? (() => new Date());
    const merchants = options.merchants ?? [defaultSandboxMerchant()];
    const partners = options.partners ?? [{ partnerId: SANDBOX_DEFAULTS.partnerId, apiKey: SANDBOX_DEFAULTS.partnerApiKey }];
    this.merchants = new Map(merchants.map((m) => [m.merchantId, m]));
    this.partners = new Map(partners.map((p) => [p.partnerId, p]));
    this.#maxBodyBytes = options.maxBodyBytes ?? SANDBOX_MAX_BODY_BYTES;
    this.webhooks = new WebhookDispatcher({ ...options.webhook, now });
    this.payments = new SandboxPayments({
      store: this.store,
      webhooks: this.webhooks,
      now,
      refundSettleDelayMs: options.refundSettleDelayMs ?? SANDBOX_REFUND_SETTLE_DELAY_MS,
      defaultBillerId: SANDBOX_DEFAULTS.promptPayBillerId,
      defaultMerchantName: SANDBOX_DEFAULTS.merchantName,
    });
    this.bolt = new SandboxBolt({ payments: this.payments, webhooks: this.webhooks, now, merchants: this.merchants, maxBodyBytes: this.#maxBodyBytes, options: options.bolt });
    this.qrSlips = new SandboxQrSlips({ payments: this.payments, now, maxBodyBytes: this.#maxBodyBytes });
    this.#idempotency = new IdempotencyStore(now);
    this.faults = new SandboxFaults(now, options.log);
    this.authorizations = new SandboxAuthorizations({ payments: this.payments, webhooks: this.webhooks, now });
    this.#pages = new HostedPages(this.payments, now, this.#maxBodyBytes);
    this.#pages.addSteps((id) => this.authorizations.hostedStep(id));
    this.paymentLinks = new SandboxPaymentLinks({ payments: this.payments, webhooks: this.webhooks, merchants: this.merchants, now });
    this.#paymentLinkPages = new PaymentLinkPages({
      links: this.paymentLinks,
      payments: this.payments,
      now,
      maxBodyBytes: this.#maxBodyBytes,
      publicUrl: options.publicUrl,
    });
    this.#dashboard =
      options.dashboard === false
        ? undefined
        : new SandboxDashboard({
            merchants: this.merchants,
            now,
            maxBodyBytes: this.#maxBodyBytes,
            publicUrl: options.publicUrl,
            sections: sandboxDashboardSections({
              payments: this.payments,
              authorizations: this.authorizations,
              webhooks: this.webhooks,
              pages: this.#pages,
              paymentLinks: this.paymentLinks,
              bolt: this.bolt,
            }),
          });
    this.#routes = this.#buildRoutes();
  }

  /**
   * Answers one request. Never throws: every fault becomes the service's error body, except the
   * faults injected on purpose with {@link faults} (a `reset` rejects as a dropped connection does).
   */
  fetch = async (request: Request): Promise<Response> => {
    const response = await this.faults.apply(request, this.#answer);
    // A spoiled answer to a browser still carries CORS headers, so the page sees the fault itself.
    if (!response.headers.has('access-control-allow-origin') && new URL(request.url).pathname.startsWith('/client/')) {
      for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
    }
    return response;
  };

  #answer = async (request: Request): Promise<Response> => {
    const requestId = newId('req_', 20);
    const started = Date.now();
    let response: Response;
    let cors = false;
    try {
      const url = new URL(request.url);
      cors = url.pathname.startsWith('/client/');
      response = await this.#dispatch(request, url);
    } catch (error) {
      response = this.#toErrorResponse(error);
    }
    response.headers.set(SERVICE_HEADERS.requestId, requestId);
    if (cors) for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
    this.#options.log?.(`${request.method} ${new URL(request.url).pathname} ${response.status} ${Date.now() - started}ms ${requestId}`);
    return response;
  };

  /** Stops webhook retries and pending timers, so a process or a test can end. */
  close(): void {
    this.webhooks.close();
    this.payments.close();
    this.faults.close();
    this.bolt.close();
  }

  async #dispatch(request: Request, url: URL): Promise<Response> {
    const path = url.pathname;
    if (request.method === 'OPTIONS' && path.startsWith('/client/')) {
      return new Response(null, { status: 204, headers: CORS_PREFLIGHT_HEADERS });
    }
    const pageResponse =
      (await this.#paymentLinkPages.handle(request, url)) ??
      (await this.bolt.handlePage(request, url)) ??
      (await this.qrSlips.handlePage(request, url)) ??
      (await this.#pages.handle(request, url));
    if (pageResponse) return pageResponse;
    const dashboardResponse = await this.#dashboard?.handle(request, url);
    if (dashboardResponse) return dashboardResponse;

    let params: Record<string, string> | undefined;
    let route: Route | undefined;
    const allowed: string[] = [];
    for (const candidate of this.#routes) {
      const match = candidate.pattern.exec(path);
      if (!match) continue;
      if (candidate.method !== request.method) {
        allowed.push(candidate.method);
        continue;
      }
      route = candidate;
      params = decodeParams(match.groups ?? {});
      break;
    }
    if (!route || !params) {
      if (allowed.length > 0) {
        throw new SandboxError('METHOD_NOT_ALLOWED_ERROR', `${request.method} is not allowed on ${path}; use ${allowed.join(' or ')}`, {
          allow: allowed.join(', '),
        });
      }
      throw new SandboxError('NOT_FOUND_ERROR', `no endpoint ${request.method} ${path}`);
    }

    const merchant =
      route.area === 'public' ? (this.merchants.values().next().value as SandboxMerchant) : authenticate(request, route.area, this.merchants, this.partners);
    const origin = this.#options.publicUrl?.replace(/\/+$/, '') ?? url.origin;
    const context: RouteContext = { request, url, params, merchant, body: undefined, origin };
    if (request.method === 'GET') return route.handle(context);

    const custom = await route.readBody?.(request);
    const value = custom !== undefined ? custom : (await readJsonBody(request, this.#maxBodyBytes, { allowEmpty: route.bodyless === true })).value;
    context.body = value;
    const run = async () => {
      try {
        return await route.handle(context);
      } catch (error) {
        if (error instanceof SandboxError) return error.toResponse();
        throw error;
      }
    };
    const key = request.headers.get(SERVICE_HEADERS.idempotencyKey);
    if (key === null) return run();
    const { answer, replayed } = await this.#idempotency.run(
      merchant.merchantId,
      key,
      `${request.method} ${path} ${canonicalJson(value)}`,
      run,
    );
    const response = new Response(answer.status === 204 ? null : answer.body, { status: answer.status, headers: answer.headers });
    if (replayed) response.headers.set(REPLAYED_HEADER, 'true');
    return response;
  }

  #toErrorResponse(error: unknown): Response {
    if (error instanceof SandboxError) return error.toResponse();
    // A fault of the sandbox itself: say so plainly, never leak a stack to the caller.
    console.error('satang-sandbox: unexpected error', error);
    return jsonResponse(500, serviceErrorBody('INTERNAL_SERVER_ERROR', 'the sandbox failed to answer this request'));
  }

  #buildRoutes(): Route[] {
    const payments = this.payments;
    const authorizations = this.authorizations;
    const route = (method: Route['method'], path: string, area: Area, handle: Route['handle']): Route => ({
      method,
      area,
      handle,
      bodyless: method === 'DELETE' || /\/(cancel|disable|health-check|redeliver)$/.test(path),
      pattern: new RegExp(`^${path.replace(/:(\w+)/g, '(?<$1>[^/]+)')}$`),
    });
    return [
      route('POST', '/client/v1/card-tokens', 'client', ({ merchant, body }) => jsonResponse(201, payments.createCardToken(merchant, body))),

      {
        ...route('POST', '/api/v1/charges/verify-qr-slip', 'api', ({ merchant, body }) => jsonResponse(200, this.qrSlips.verify(merchant, body))),
        readBody: (request) => this.qrSlips.readVerifyBody(request),
      },
      route('POST', '/api/v1/charges', 'api', async ({ merchant, body, origin }) => jsonResponse(201, await payments.createCharge(merchant, body, origin))),
      route('GET', '/api/v1/charges', 'api', ({ merchant, url }) => {
        const query = url.searchParams;
        const sourceIn = listParam(query, 'source_in');
        for (const source of sourceIn ?? []) {
          if (!(CHARGE_SOURCES as readonly string[]).includes(source)) {
            throw SandboxError.field('source_in', `must list sources from ${CHARGE_SOURCES.join(', ')}`);
          }
        }
        const filters = { referenceId: query.get('referenceId') ?? undefined, sourceIn, sourceId: query.get('sourceId') ?? undefined };
        return jsonResponse(200, payments.listCharges(merchant, filters, pageParams(query)));
      }),
      route('GET', '/api/v1/charges/:chargeId', 'api', ({ merchant, params }) => jsonResponse(200, payments.getCharge(merchant, params.chargeId!))),

      route('POST', '/api/v1/refunds', 'api', ({ merchant, body }) => jsonResponse(201, payments.createRefund(merchant, body))),
      route('GET', '/api/v1/refunds/:refundId', 'api', ({ merchant, params }) => jsonResponse(200, payments.getRefund(merchant, params.refundId!))),

      route('GET', '/api/v1/transactions', 'api', ({ merchant, url }) =>
        jsonResponse(200, payments.listTransactions(merchant, { referenceId: url.searchParams.get('referenceId') ?? undefined }, pageParams(url.searchParams))),
      ),
      route('GET', '/api/v1/transactions/:transactionId', 'api', ({ merchant, params }) =>
        jsonResponse(200, payments.getTransaction(merchant, params.transactionId!)),
      ),

      route('POST', '/api/v1/card-authorizations', 'api', ({ merchant, body, origin }) => jsonResponse(201, authorizations.create(merchant, body, origin))),
      route('GET', '/api/v1/card-authorizations', 'api', ({ merchant, url }) => jsonResponse(200, authorizations.list(merchant, pageParams(url.searchParams)))),
      route('GET', '/api/v1/card-authorizations/:id', 'api', ({ merchant, params }) => jsonResponse(200, authorizations.get(merchant, params.id!))),
      route('POST', '/api/v1/card-authorizations/:id/cancel', 'api', ({ merchant, params }) => jsonResponse(200, authorizations.cancel(merchant, params.id!))),
      route('GET', '/api/v1/card-authorizations/:id/charges', 'api', ({ merchant, params, url }) =>
        jsonResponse(200, authorizations.listCaptures(merchant, params.id!, pageParams(url.searchParams))),
      ),
      route('POST', '/api/v1/card-authorizations/:id/charges', 'api', ({ merchant, params, body }) =>
        jsonResponse(201, authorizations.capture(merchant, params.id!, body)),
      ),
      route('POST', '/api/v1/payment-links', 'api', ({ merchant, body, origin }) => jsonResponse(201, this.paymentLinks.create(merchant, body, origin))),
      route('GET', '/api/v1/payment-links/:id', 'api', ({ merchant, params }) => jsonResponse(200, this.paymentLinks.get(merchant, params.id!))),
      route('PATCH', '/api/v1/payment-links/:id/disable', 'api', ({ merchant, params }) => jsonResponse(200, this.paymentLinks.disable(merchant, params.id!))),
      route('POST', '/api/v1/bolt-intents', 'api', ({ merchant, body, origin }) => jsonResponse(201, this.bolt.createIntent(merchant, body, origin))),
      route('GET', '/api/v1/bolt-intents/:id', 'api', ({ merchant, params }) => jsonResponse(200, this.bolt.getIntent(merchant, params.id!))),
      route('GET', '/api/v1/bolt-devices', 'api', ({ merchant, url }) => jsonResponse(200, this.bolt.listDevices(merchant, pageParams(url.searchParams)))),
      route('GET', '/api/v1/bolt-devices/:id', 'api', ({ merchant, params }) => jsonResponse(200, this.bolt.getDevice(merchant, params.id!))),
      route('PATCH', '/api/v1/bolt-devices/:id/name', 'api', ({ merchant, params, body }) => jsonResponse(200, this.bolt.renameDevice(merchant, params.id!, body))),
      route('POST', '/api/v1/bolt-devices/:id/health-check', 'api', ({ merchant, params }) => {
        this.bolt.requestHealthCheck(merchant, params.id!);
        return new Response(null, { status: 202, headers: { 'cache-control': 'no-store' } });
      }),

      route('GET', '/sandbox/v1/webhook-deliveries', 'api', ({ url }) => {
        const page = pageParams(url.searchParams);
        const all = this.webhooks.list();
        return jsonResponse(200, { data: all.slice(page.offset, page.offset + page.limit), totalCount: all.length });
      }),
      route('POST', '/sandbox/v1/webhook-deliveries/:deliveryId/redeliver', 'api', ({ params }) => {
        const delivery = this.webhooks.redeliver(params.deliveryId!);
        if (!delivery) throw new SandboxError('NOT_FOUND_ERROR', `no webhook delivery with id ${params.deliveryId}`);
        return jsonResponse(202, delivery);
      }),
      route('GET', '/sandbox/v1/charges/:chargeId/slip', 'api', ({ merchant, params, url, origin }) =>
        this.qrSlips.slipEndpoint(merchant, params.chargeId!, url.searchParams.get('format'), origin),
      ),
      route('POST', SANDBOX_FAULTS_PATH, 'api', ({ body }) => jsonResponse(201, this.faults.add(body))),
      route('GET', SANDBOX_FAULTS_PATH, 'api', () => {
        const all = this.faults.list();
        return jsonResponse(200, { data: all, totalCount: all.length });
      }),
      route('DELETE', SANDBOX_FAULTS_PATH, 'api', () => jsonResponse(200, { deleted: this.faults.clear() })),
      route('GET', `${SANDBOX_FAULTS_PATH}/:faultId`, 'api', ({ params }) => {
        const rule = this.faults.get(params.faultId!);
        if (!rule) throw new SandboxError('NOT_FOUND_ERROR', `no fault rule with id ${params.faultId}`);
        return jsonResponse(200, rule);
      }),
      route('DELETE', `${SANDBOX_FAULTS_PATH}/:faultId`, 'api', ({ params }) => {
        if (!this.faults.remove(params.faultId!)) throw new SandboxError('NOT_FOUND_ERROR', `no fault rule with id ${params.faultId}`);
        return jsonResponse(200, { deleted: 1 });
      }),
      route('GET', '/sandbox/health', 'public', () => jsonResponse(200, { status: 'ok' })),
    ];
  }
}

/** Creates a sandbox; see {@link Sandbox}. */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  return new Sandbox(options);
}

function decodeParams(groups: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, raw] of Object.entries(groups)) {
    try {
      params[name] = decodeURIComponent(raw);
    } catch {
      throw new SandboxError('NOT_FOUND_ERROR', `malformed ${name} in the path`);
    }
  }
  return params;
}

/** A comma-separated or repeated query parameter. */
function listParam(query: URLSearchParams, name: string): string[] | undefined {
  const values = query.getAll(name).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  return values.length > 0 ? values : undefined;
}

/** `limit` (1..100, default 20) and `offset` (>= 0, default 0) of a list request. */
function pageParams(query: URLSearchParams): { limit: number; offset: number } {
  const read = (name: string, fallback: number, min: number, max: number) => {
    const raw = query.get(name);
    if (raw === null || raw === '') return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      throw SandboxError.field(name, max === Number.MAX_SAFE_INTEGER ? `must be a whole number of at least ${min}` : `must be a whole number from ${min} to ${max}`);
    }
    return Number(raw);
  };
  return { limit: read('limit', LIST_DEFAULT_LIMIT, 1, LIST_MAX_LIMIT), offset: read('offset', 0, 0, Number.MAX_SAFE_INTEGER) };
}
