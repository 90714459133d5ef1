import { CURRENCY_THB, IDEMPOTENCY_KEY_TTL_MS, MAX_CHARGE_AMOUNT_SATANG, MIN_CHARGE_AMOUNT_SATANG, SERVICE_HEADERS } from '../core/constants.js';
import { passesLuhn } from '../core/card.js';
import { readBodyBytes, readJsonBody, RequestBodyError } from '../core/request-body.js';
import type { CardAuthorization } from '../core/schemas/card-authorization.js';
import type { ChargeStatus, CreateChargeRequest } from '../core/schemas/charge.js';
import {
  CHECKOUT_IDEMPOTENCY_HEADER,
  CHECKOUT_MAX_WAIT_SECONDS,
  CHECKOUT_PAYMENT_METHOD_TYPES,
  CHECKOUT_STATUS_TOKEN_HEADER,
  CheckoutChargeRequestSchema,
  CheckoutSlipRequestSchema,
  type CheckoutChargeRequest,
  type CheckoutChargeResponse,
  type CheckoutErrorCode,
  type CheckoutIntent,
  type CheckoutPaymentMethodType,
  type CheckoutSlipResponse,
  type CheckoutStatusResponse,
} from '../core/schemas/checkout.js';
import { PAYMENT_METHOD_OBJECT_KEYS, type PaymentMethodRequest } from '../core/schemas/payment-method.js';
import { parseWebhookEvent, type WebhookEvent } from '../core/schemas/webhook-events.js';
import { toFieldIssues, describeFieldIssues } from '../core/validation.js';
import { decodeWebhookKey, verifyWebhookSignature } from '../core/webhook-signature.js';
import { WebhookLedger } from './webhooks/webhook-ledger.js';
import { eventStatusMismatch, stateVersion, versionNow, webhookState } from './webhooks/webhook-state.js';
import { MemoryCheckoutStore, type CheckoutStore } from './checkout-store.js';
import { CLIENT_ADDRESS_HEADER } from '../node/client-address.js';
import {
  AuthenticationError,
  ConfigurationError,
  IdempotencyConflictError,
  NotFoundError,
  PermissionError,
  RateLimitedError,
  ServiceError,
  StateConflictError,
  ValidationError,
} from './errors.js';
import { ServiceClient, type ServiceClientOptions } from './service/service-client.js';
import { sleep } from './sleep.js';
import { StatusTokens, type StatusTokenKind } from './status-token.js';

/** What the merchant's server decides for an order: never taken from the browser. */
export interface ResolvedOrder {
  /** In satang. */
  amount: number;
  currency: string;
  /** The merchant's reference written on the charge (its order id). */
  referenceId: string;
  /**
   * `authorize` to only reserve the amount on the shopper's card (a card authorization, captured
   * or canceled later with `captureAuthorization` / `cancelAuthorization`); `charge` by default.
   * The widget's `intent` must match, or the request is refused.
   */
  intent?: CheckoutIntent;
}

/** One line of the handler's log. Never carries a body, a token or a card detail. */
export interface CheckoutLogEntry {
  method: string;
  path: string;
  status: number;
  durationMs: number;
  errorCode?: string;
  chargeId?: string;
  /** The service's request id when a call to it failed. */
  serviceRequestId?: string;
  error?: unknown;
}

export interface CheckoutHandlerOptions {
  /** How to reach the service: client options (the key stays on this server), or a client. */
  service: ServiceClientOptions | ServiceClient;
  /**
   * Turns the shopper's order reference into the amount to charge. Answer `null` for an order
   * that does not exist or cannot be paid (404 to the browser).
   */
  resolveOrder: (orderReference: string, context: { request: Request }) => ResolvedOrder | null | undefined | Promise<ResolvedOrder | null | undefined>;
  /** Where the handler is mounted, e.g. `/api/checkout`. */
  basePath?: string;
  /** Origins of pages allowed to call the handler from another origin (CORS). Same origin is always allowed. */
  allowedOrigins?: readonly string[];
  /** Origins a `returnUrl` may point to, besides the calling page's own and `allowedOrigins`. */
  returnUrlOrigins?: readonly string[];
  /** The methods shoppers may use; all of them by default. */
  paymentMethods?: readonly CheckoutPaymentMethodType[];
  /** Secret of the status tokens; by default derived from the API key. Share it across instances. */
  statusTokenSecret?: string;
  /**
   * base64 webhook key of the service; without it `POST /webhooks` answers 404. A delivery is
   * read only up to {@link WEBHOOK_MAX_BODY_BYTES} (413 past it) and accepted only when its
   * signature (HMAC-SHA256 of the raw body bytes, no timestamp or nonce) verifies with this key
   * (401 otherwise) and its event name fits the status in the body (400 otherwise): the signature
   * covers the body only. A genuine body sent again is handled as `onEvent` says.
   */
  webhookKeyBase64?: string;
  /**
   * Called once per state of a resource (resource id, status and `updatedAt`) from a verified
   * webhook, the newest state winning. Each answer is a 2xx unless it throws, so the service stops
   * re-sending:
   * - a duplicate or a redelivery of a state already handled does not call it (`duplicate: true`);
   * - a state older than one already handled for the resource (delivered out of order, or
   *   replayed) does not call it and does not change the status long-polls read (`stale: true`);
   *   on one instance the webhooks of a resource are handled one at a time, so it never hears an
   *   older state after a newer one (instances sharing a store may, for two states delivered at
   *   the same instant: compare `payload.updatedAt` where that matters);
   * - a throw answers 500 so the service retries, and that state is not counted as handled.
   *
   * Replays: anyone who captured a genuine webhook can send it again, and it still verifies. The
   * handler remembers handled states and each resource's newest one for
   * {@link WEBHOOK_DEDUPE_TTL_MS} (in the store) and acknowledges without handling any event whose
   * `updatedAt` is older than that. So a replay is never handled twice while the store remembers
   * it, and can only ever restate a state the service really sent in that window; it reaches this
   * function only if the store forgot it (the in-memory store restarted or evicted it). Make it
   * idempotent per resource and status (mark an order paid only once) and never move an order out
   * of a final state on an older `updatedAt`.
   */
  onEvent?: (event: WebhookEvent) => void | Promise<void>;
  /** Shared state; in memory by default. */
  store?: CheckoutStore;
  /**
   * Per-client fixed-window limits, or `false` to leave limiting to the platform. Slip checks
   * (`POST /charges/{id}/slip`) have a window of their own, of `chargesPerWindow`.
   */
  rateLimit?: false | { windowMs?: number; chargesPerWindow?: number; statusPerWindow?: number };
  /** Who the caller is, for rate limits; by default the address the Node adapter saw. */
  getClientId?: (request: Request) => string | undefined;
  /** Largest body of `POST /charges`. */
  maxBodyBytes?: number;
  /** How often a long-poll asks the service when no webhook arrives. */
  statusPollIntervalMs?: number;
  log?: (entry: CheckoutLogEntry) => void;
}

export const CHECKOUT_MAX_BODY_BYTES = 16 * 1024;
export const WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;
export const STATUS_POLL_INTERVAL_MS = 2_000;
export const RATE_LIMIT_WINDOW_MS = 60_000;
export const RATE_LIMIT_CHARGES_PER_WINDOW = 30;
export const RATE_LIMIT_STATUS_PER_WINDOW = 300;
/**
 * How long a handled webhook state, and the newest state of each resource, are remembered to drop
 * duplicates and older states; an event whose `updatedAt` is older than this is acknowledged
 * without handling (only a replay is that old: the service stops retrying within minutes).
 */
export const WEBHOOK_DEDUPE_TTL_MS = 3 * 24 * 60 * 60 * 1000;
/** How long a final status learnt from a webhook or a read is kept. */
export const STATUS_CACHE_TTL_MS = 60 * 60 * 1000;

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'content-type': 'application/json; charset=utf-8',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};
const ALLOWED_REQUEST_HEADERS = ['content-type', CHECKOUT_IDEMPOTENCY_HEADER.toLowerCase(), CHECKOUT_STATUS_TOKEN_HEADER.toLowerCase()].join(', ');
/** Keys that carry card data, which never comes to the merchant's server. */
const CARD_DATA_KEY = /^(pan|primary_?account_?number|card_?number|cc_?number|cc_?num|expiry|expiry_?(month|year|date)|exp_?(month|year|date)|expiration(_?(month|year|date))?|track_?[12]?)$/i;
/** Fields whose values are the merchant's or the service's own ids, not card data. */
const ID_FIELDS = new Set(['orderReference', 'cardTokenId']);

/** A refusal of the proxy, in the service's error shape, with a message safe to show a shopper. */
export class CheckoutError extends Error {
  readonly status: number;
  readonly code: CheckoutErrorCode;
  readonly retryable: boolean;
  readonly field: string | undefined;
  readonly headers: Record<string, string>;
  readonly serviceRequestId: string | undefined;

  constructor(
    status: number,
    code: CheckoutErrorCode,
    message: string,
    extra: { retryable?: boolean; field?: string; headers?: Record<string, string>; cause?: unknown; serviceRequestId?: string } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'CheckoutError';
    this.status = status;
    this.code = code;
    this.retryable = extra.retryable ?? false;
    this.field = extra.field;
    this.headers = extra.headers ?? {};
    this.serviceRequestId = extra.serviceRequestId;
  }

  toResponse(): Response {
    const error: Record<string, unknown> = { errorCode: this.code, errorMessage: this.message, retryable: this.retryable };
    if (this.field) error.field = this.field;
    return json(this.status, { code: this.status, message: this.message, error }, this.headers);
  }
}

/** A card authorization's status as the widget follows it. */
function authorizationStatus(authorization: Pick<CardAuthorization, 'cardAuthorizationId' | 'status' | 'failureCode'>): CheckoutStatusResponse {
  const done = authorization.status === 'AUTHORIZED' || authorization.status === 'CAPTURED';
  const failed = authorization.status === 'FAILED' || authorization.status === 'CANCELED' || authorization.status === 'EXPIRED';
  return {
    chargeId: authorization.cardAuthorizationId,
    status: done ? 'SUCCEEDED' : failed ? 'FAILED' : 'PENDING',
    failureCode: authorization.failureCode ? authorization.failureCode : failed && authorization.status !== 'FAILED' ? authorization.status : null,
    authorizationStatus: authorization.status,
  };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...SECURITY_HEADERS, ...headers } });
}

/** How long a charge's answer is kept for retries of the attempt that made it: as long as the service keeps its idempotency keys. */
const CHARGE_REPLAY_TTL_MS = IDEMPOTENCY_KEY_TTL_MS;

/** base64url SHA-256 of a string: a short, fixed-size store key for a request body. */
async function digest(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The merchant's checkout endpoint as one `(Request) => Promise<Response>`: the only thing the
 * widget talks to besides card tokenization. Fetch API and WebCrypto only, so it runs unchanged
 * in Node (see `toNodeListener`), Hono, Next.js route handlers, Deno, Bun and Workers.
 *
 * - `POST {basePath}/charges`: creates the charge for an order; the amount comes from `resolveOrder`.
 * - `GET {basePath}/charges/{chargeId}/status?wait=N`: the charge's status for the holder of its
 *   status token, held up to N seconds while it is PENDING.
 * - `POST {basePath}/charges/{chargeId}/slip`: the QR text of the shopper's bank transfer slip,
 *   for the holder of the charge's status token; the service checks it and the charge succeeds.
 * - `POST {basePath}/webhooks`: the service's signed webhooks.
 *
 * Throws a {@link ConfigurationError} at once when an option is missing or wrong.
 */
export function createCheckoutHandler(options: CheckoutHandlerOptions): (request: Request) => Promise<Response> {
  return new CheckoutHandler(options).fetch;
}

class CheckoutHandler {
  readonly #options: CheckoutHandlerOptions;
  readonly #client: ServiceClient;
  readonly #tokens: StatusTokens;
  readonly #store: CheckoutStore;
  readonly #basePath: string;
  readonly #allowedOrigins: ReadonlySet<string>;
  readonly #returnUrlOrigins: ReadonlySet<string>;
  readonly #methods: ReadonlySet<string>;
  readonly #inFlight = new Map<string, Promise<CheckoutChargeResponse>>();
  readonly #webhooks: WebhookLedger;

  constructor(options: CheckoutHandlerOptions) {
    if (!options || typeof options !== 'object') throw new ConfigurationError('createCheckoutHandler needs an options object');
    if (typeof options.resolveOrder !== 'function') {
      throw new ConfigurationError('set resolveOrder(orderReference) => {amount, currency, referenceId}: the server, not the browser, decides what to charge');
    }
    if (!options.service) throw new ConfigurationError('set service: {baseUrl, merchantId, apiKey} (or a ServiceClient)');
    this.#options = options;
    this.#client = options.service instanceof ServiceClient ? options.service : new ServiceClient(options.service);
    const secret = options.statusTokenSecret ?? (options.service instanceof ServiceClient ? undefined : (options.service.apiKey ?? options.service.partner?.apiKey));
    if (!secret || secret.length < 16) {
      throw new ConfigurationError('set statusTokenSecret (at least 16 characters); it can only be derived from service.apiKey when the handler builds its own client');
    }
    this.#tokens = new StatusTokens(secret);
    if (options.webhookKeyBase64 !== undefined) decodeWebhookKey(options.webhookKeyBase64);
    this.#store = options.store ?? new MemoryCheckoutStore();
    this.#webhooks = new WebhookLedger(this.#store, WEBHOOK_DEDUPE_TTL_MS);
    this.#basePath = (options.basePath ?? '').replace(/\/+$/, '');
    if (this.#basePath !== '' && !this.#basePath.startsWith('/')) throw new ConfigurationError(`basePath must start with "/", e.g. /api/checkout (got "${options.basePath}")`);
    this.#allowedOrigins = new Set((options.allowedOrigins ?? []).map((o) => originOf(o, 'allowedOrigins')));
    this.#returnUrlOrigins = new Set([...(options.returnUrlOrigins ?? []).map((o) => originOf(o, 'returnUrlOrigins')), ...this.#allowedOrigins]);
    const methods = options.paymentMethods ?? CHECKOUT_PAYMENT_METHOD_TYPES;
    for (const method of methods) {
      if (!(CHECKOUT_PAYMENT_METHOD_TYPES as readonly string[]).includes(method)) {
        throw new ConfigurationError(`paymentMethods: ${method} is not one of ${CHECKOUT_PAYMENT_METHOD_TYPES.join(', ')}`);
      }
    }
    this.#methods = new Set(methods);
  }

  fetch = async (request: Request): Promise<Response> => {
    const started = Date.now();
    const url = new URL(request.url);
    const entry: CheckoutLogEntry = { method: request.method, path: url.pathname, status: 0, durationMs: 0 };
    const origin = request.headers.get('origin');
    const crossOrigin = origin !== null && origin !== url.origin;
    let response: Response;
    try {
      if (crossOrigin && !this.#allowedOrigins.has(origin) && !url.pathname.endsWith('/webhooks')) {
        throw new CheckoutError(403, 'ORIGIN_NOT_ALLOWED', 'This page is not allowed to use this checkout.');
      }
      response = await this.#route(request, url, entry);
    } catch (error) {
      response = this.#errorResponse(error, entry, request.signal.aborted);
    }
    if (crossOrigin && this.#allowedOrigins.has(origin)) {
      response.headers.set('access-control-allow-origin', origin);
      response.headers.append('vary', 'Origin');
    }
    entry.status = response.status;
    entry.durationMs = Date.now() - started;
    this.#options.log?.(entry);
    return response;
  };

  async #route(request: Request, url: URL, entry: CheckoutLogEntry): Promise<Response> {
    if (!url.pathname.startsWith(`${this.#basePath}/`)) throw new CheckoutError(404, 'NOT_FOUND', 'No such checkout endpoint.');
    const path = url.pathname.slice(this.#basePath.length);
    if (request.method === 'OPTIONS') {
      return new Response(null, {
        status: 204,
        headers: { 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': ALLOWED_REQUEST_HEADERS, 'access-control-max-age': '600', vary: 'Origin' },
      });
    }
    if (path === '/charges') {
      this.#only(request, 'POST');
      return this.#createCharge(request, url, entry);
    }
    const status = /^\/charges\/([^/]+)\/status$/.exec(path);
    if (status) {
      this.#only(request, 'GET');
      return this.#status(request, url, safeDecode(status[1]!), entry);
    }
    const slip = /^\/charges\/([^/]+)\/slip$/.exec(path);
    if (slip) {
      this.#only(request, 'POST');
      return this.#verifySlip(request, safeDecode(slip[1]!), entry);
    }
    if (path === '/webhooks') {
      this.#only(request, 'POST');
      return this.#webhook(request);
    }
    throw new CheckoutError(404, 'NOT_FOUND', 'No such checkout endpoint.');
  }

  #only(request: Request, method: string): void {
    if (request.method !== method) {
      throw new CheckoutError(405, 'METHOD_NOT_ALLOWED', `Use ${method} here.`, { headers: { allow: method } });
    }
  }

  async #createCharge(request: Request, url: URL, entry: CheckoutLogEntry): Promise<Response> {
    await this.#limit(request, 'charges', this.#limits().charges);
    const body = await this.#readJson(request, this.#options.maxBodyBytes ?? CHECKOUT_MAX_BODY_BYTES);
    const cardField = findCardData(body);
    if (cardField !== undefined) {
      throw new CheckoutError(400, 'CARD_DATA_REFUSED', 'Card numbers and expiry dates are never sent to the shop: the card is tokenized in the browser.', { field: cardField });
    }
    const parsed = CheckoutChargeRequestSchema.safeParse(body);
    if (!parsed.success) {
      const issues = toFieldIssues(parsed.error.issues, body);
      throw new CheckoutError(400, 'INVALID_REQUEST', `The request is not valid: ${describeFieldIssues(issues)}.`, { field: issues[0]?.field });
    }
    const input = parsed.data;
    const method = this.#paymentMethod(input);
    if (input.intent === 'authorize' && method.paymentMethodType !== 'CARD_TOKEN') {
      throw new CheckoutError(400, 'PAYMENT_METHOD_NOT_ALLOWED', 'Only a card payment can be authorized now and captured later.', { field: 'paymentMethod.type' });
    }
    if (input.returnUrl !== undefined) this.#checkReturnUrl(input.returnUrl, request, url);

    const key = request.headers.get(CHECKOUT_IDEMPOTENCY_HEADER);
    if (key !== null && !/^[\x21-\x7e]{1,200}$/.test(key)) {
      throw new CheckoutError(400, 'INVALID_REQUEST', `The ${CHECKOUT_IDEMPOTENCY_HEADER} header must be 1 to 200 visible ASCII characters.`, { field: CHECKOUT_IDEMPOTENCY_HEADER });
    }
    const idempotencyKey = `checkout-${key ?? crypto.randomUUID()}`;
    // A double click sends the same key twice at once: both wait on one call to the service.
    const flightKey = `${idempotencyKey}\u0000${JSON.stringify(input)}`;
    let flight = this.#inFlight.get(flightKey);
    if (!flight) {
      flight = this.#chargeOnce(request, input, method, idempotencyKey).finally(() => this.#inFlight.delete(flightKey));
      this.#inFlight.set(flightKey, flight);
    }
    const answer = await flight;
    entry.chargeId = answer.chargeId;
    return json(201, answer);
  }

  /**
   * Creates the charge, or answers a retry of an attempt that already made one with that first
   * answer: the order may be paid by now (its webhook came first), and the retry must still learn
   * which charge it made rather than hear the order is gone.
   */
  async #chargeOnce(request: Request, input: CheckoutChargeRequest, paymentMethod: PaymentMethodRequest, idempotencyKey: string): Promise<CheckoutChargeResponse> {
    const attempt = `${idempotencyKey}:${await digest(JSON.stringify(input))}`;
    const replayKey = `charge:${attempt}`;
    const replay = await this.#store.get(replayKey);
    if (replay) return JSON.parse(replay) as CheckoutChargeResponse;
    const order = await this.#attemptOrder(input.orderReference, request, attempt, idempotencyKey);
    const answer = await this.#startCharge(request, input, paymentMethod, idempotencyKey, order);
    await this.#store.set(replayKey, JSON.stringify(answer), CHARGE_REPLAY_TTL_MS);
    await this.#store.set(`answered:${order.referenceId}`, idempotencyKey, CHARGE_REPLAY_TTL_MS);
    return answer;
  }

  /**
   * The order an attempt charges. It is kept before the service is called: when the service made
   * the charge but its answer was lost, that charge may have paid the order by the time the
   * shopper retries, and `resolveOrder` no longer offers it. The retry must still send the service
   * the same request under the same key, which answers with the charge it made instead of making
   * another. Unless another attempt of this shop already got a charge for the order: then this one
   * is refused as before, since it may never have reached the service.
   */
  async #attemptOrder(orderReference: string, request: Request, attempt: string, idempotencyKey: string): Promise<ResolvedOrder> {
    const sentKey = `sent:${attempt}`;
    const order = await this.#resolveOrder(orderReference, request).catch(async (error: unknown) => {
      const sent = error instanceof CheckoutError && error.code === 'ORDER_NOT_FOUND' ? await this.#store.get(sentKey) : undefined;
      if (sent === undefined) throw error;
      const kept = JSON.parse(sent) as ResolvedOrder;
      const answered = await this.#store.get(`answered:${kept.referenceId}`);
      if (answered !== undefined && answered !== idempotencyKey) throw error;
      return kept;
    });
    await this.#store.set(sentKey, JSON.stringify(order), CHARGE_REPLAY_TTL_MS);
    return order;
  }

  async #startCharge(
    request: Request,
    input: CheckoutChargeRequest,
    paymentMethod: PaymentMethodRequest,
    idempotencyKey: string,
    order: ResolvedOrder,
  ): Promise<CheckoutChargeResponse> {
    const intent = input.intent ?? 'charge';
    if ((order.intent ?? 'charge') !== intent) {
      throw new CheckoutError(400, 'INTENT_MISMATCH', `This order is ${order.intent === 'authorize' ? 'authorized now and charged later' : 'charged now'}: the checkout's intent must be ${order.intent ?? 'charge'}.`, {
        field: 'intent',
      });
    }
    if (intent === 'authorize') return this.#startAuthorization(request, input, paymentMethod, order, idempotencyKey);
    const body: CreateChargeRequest = {
      amount: order.amount,
      currency: order.currency as CreateChargeRequest['currency'],
      referenceId: order.referenceId,
      paymentMethod,
      ...(input.returnUrl !== undefined ? { returnUrl: input.returnUrl } : {}),
      ...(input.deviceType !== undefined ? { deviceType: input.deviceType } : {}),
      ...(input.customer !== undefined ? { customer: input.customer } : {}),
    };
    let created;
    try {
      created = await this.#client.charges.create(body, { idempotencyKey, signal: request.signal });
    } catch (error) {
      throw upstreamError(error);
    }
    const answer: CheckoutChargeResponse = {
      chargeId: created.chargeId,
      actionRequired: created.actionRequired,
      statusToken: await this.#tokens.sign(created.chargeId),
    };
    if (created.redirect) answer.redirect = { redirectUrl: created.redirect.redirectUrl };
    if (created.encodedImage) {
      const { expiry, imageBase64Encoded, rawData } = created.encodedImage;
      answer.encodedImage = { expiry, imageBase64Encoded, rawData };
    }
    return answer;
  }

  /** Reserves the order's amount on the card; the merchant captures or cancels it later. */
  async #startAuthorization(
    request: Request,
    input: CheckoutChargeRequest,
    paymentMethod: PaymentMethodRequest,
    order: ResolvedOrder,
    idempotencyKey: string,
  ): Promise<CheckoutChargeResponse> {
    if (paymentMethod.paymentMethodType !== 'CARD_TOKEN') throw new Error('only card tokens are authorized');
    let created;
    try {
      created = await this.#client.cardAuthorizations.create(
        {
          amount: order.amount,
          currency: order.currency as CreateChargeRequest['currency'],
          referenceId: order.referenceId,
          paymentMethod,
          ...(input.returnUrl !== undefined ? { returnUrl: input.returnUrl } : {}),
          ...(input.customer !== undefined ? { customer: input.customer } : {}),
        },
        { idempotencyKey, signal: request.signal },
      );
    } catch (error) {
      throw upstreamError(error);
    }
    const id = created.cardAuthorizationId;
    const answer: CheckoutChargeResponse = { chargeId: id, intent: 'authorize', actionRequired: created.actionRequired, statusToken: await this.#tokens.sign(id, 'authorization') };
    if (created.redirect) answer.redirect = { redirectUrl: created.redirect.redirectUrl };
    return answer;
  }

  async #resolveOrder(orderReference: string, request: Request): Promise<ResolvedOrder> {
    let order: ResolvedOrder | null | undefined;
    try {
      order = await this.#options.resolveOrder(orderReference, { request });
    } catch (error) {
      throw new CheckoutError(500, 'INTERNAL_ERROR', 'The shop could not look up this order. Please try again.', { retryable: true, cause: error });
    }
    if (order === null || order === undefined) {
      throw new CheckoutError(404, 'ORDER_NOT_FOUND', 'This order cannot be paid: it does not exist or is already paid.', { field: 'orderReference' });
    }
    const valid =
      Number.isInteger(order.amount) &&
      order.amount >= MIN_CHARGE_AMOUNT_SATANG &&
      order.amount <= MAX_CHARGE_AMOUNT_SATANG &&
      order.currency === CURRENCY_THB &&
      typeof order.referenceId === 'string' &&
      order.referenceId.length > 0 &&
      order.referenceId.length <= 255 &&
      (order.intent === undefined || order.intent === 'charge' || order.intent === 'authorize');
    if (!valid) {
      throw new CheckoutError(500, 'INTERNAL_ERROR', 'The shop could not price this order.', {
        cause: new ConfigurationError(
          `resolveOrder must return {amount: whole satang from ${MIN_CHARGE_AMOUNT_SATANG} to ${MAX_CHARGE_AMOUNT_SATANG}, currency: "THB", referenceId: 1-255 characters, intent?: "charge" | "authorize"}`,
        ),
      });
    }
    return order;
  }

  /** The service's payment method for what the widget chose, if this shop accepts it. */
  #paymentMethod(input: CheckoutChargeRequest): PaymentMethodRequest {
    const { type, cardTokenId, securityCode, installmentPeriod } = input.paymentMethod;
    if (!this.#methods.has(type)) {
      throw new CheckoutError(400, 'PAYMENT_METHOD_NOT_ALLOWED', 'This payment method is not available in this shop.', { field: 'paymentMethod.type' });
    }
    const missing = (field: string) => new CheckoutError(400, 'INVALID_REQUEST', `The request is not valid: paymentMethod.${field} is required.`, { field: `paymentMethod.${field}` });
    const extra = (field: string) => new CheckoutError(400, 'INVALID_REQUEST', `The request is not valid: paymentMethod.${field} does not apply to ${type}.`, { field: `paymentMethod.${field}` });
    if (type === 'CARD_TOKEN' || type === 'CARD_TOKEN_INSTALLMENTS') {
      if (cardTokenId === undefined) throw missing('cardTokenId');
      if (securityCode === undefined) throw missing('securityCode');
      if (type === 'CARD_TOKEN') {
        if (installmentPeriod !== undefined) throw extra('installmentPeriod');
        return { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode } };
      }
      if (installmentPeriod === undefined) throw missing('installmentPeriod');
      return { paymentMethodType: 'CARD_TOKEN_INSTALLMENTS', cardTokenInstallments: { cardTokenId, securityCode, installmentPeriod } };
    }
    if (cardTokenId !== undefined) throw extra('cardTokenId');
    if (securityCode !== undefined) throw extra('securityCode');
    if (installmentPeriod !== undefined) throw extra('installmentPeriod');
    return { paymentMethodType: type, [PAYMENT_METHOD_OBJECT_KEYS[type]]: {} } as PaymentMethodRequest;
  }

  /** A returnUrl may only lead back to this shop: the calling page's origin or a configured one. */
  #checkReturnUrl(returnUrl: string, request: Request, url: URL): void {
    const target = new URL(returnUrl).origin;
    const caller = request.headers.get('origin');
    if (target === url.origin || target === caller || this.#returnUrlOrigins.has(target)) return;
    throw new CheckoutError(400, 'INVALID_RETURN_URL', 'The return address must be a page of this shop.', { field: 'returnUrl' });
  }

  async #status(request: Request, url: URL, chargeId: string, entry: CheckoutLogEntry): Promise<Response> {
    entry.chargeId = chargeId;
    const token = request.headers.get(CHECKOUT_STATUS_TOKEN_HEADER) ?? url.searchParams.get('token');
    // The token says what the id is: a charge, or a card authorization made with the authorize intent.
    const kind: StatusTokenKind | undefined = !/^[\w-]{1,128}$/.test(chargeId)
      ? undefined
      : (await this.#tokens.verify(chargeId, token))
        ? 'charge'
        : (await this.#tokens.verify(chargeId, token, 'authorization'))
          ? 'authorization'
          : undefined;
    if (!kind) throw new CheckoutError(403, 'INVALID_STATUS_TOKEN', 'This payment cannot be looked up from here.');
    await this.#limit(request, 'status', this.#limits().status);
    const waitText = url.searchParams.get('wait');
    let waitSeconds = 0;
    if (waitText !== null && waitText !== '') {
      if (!/^\d{1,3}$/.test(waitText) || Number(waitText) > CHECKOUT_MAX_WAIT_SECONDS) {
        throw new CheckoutError(400, 'INVALID_REQUEST', `wait must be a whole number of seconds from 0 to ${CHECKOUT_MAX_WAIT_SECONDS}.`, { field: 'wait' });
      }
      waitSeconds = Number(waitText);
    }

    const read = () => this.#readStatus(chargeId, kind, request.signal);
    if (waitSeconds === 0) return json(200, await read());

    const deadline = Date.now() + waitSeconds * 1000;
    const pollMs = this.#options.statusPollIntervalMs ?? STATUS_POLL_INTERVAL_MS;
    // Listening before each read, not after: a webhook that lands while a read is under way (the
    // service answered PENDING just before the payment) still ends the wait, instead of being
    // published to nobody and leaving the shopper waiting for the next poll or the deadline.
    let news = false;
    let wake: () => void = () => undefined;
    const unsubscribe = this.#store.subscribe(`charge:${chargeId}`, () => {
      news = true;
      wake();
    });
    let status: CheckoutStatusResponse;
    try {
      status = await read();
      while (status.status === 'PENDING' && Date.now() < deadline && !request.signal.aborted) {
        if (!news) {
          const woken = new Promise<void>((resolve) => (wake = resolve));
          const pause = new AbortController();
          // Cut short by news or by the shopper leaving, either of which the loop then reads.
          const pauseOver = sleep(Math.min(pollMs, deadline - Date.now()), AbortSignal.any([pause.signal, request.signal])).catch(() => undefined);
          await Promise.race([woken, pauseOver]);
          pause.abort();
        }
        news = false;
        status = await read();
      }
    } finally {
      unsubscribe();
    }
    return json(200, status);
  }

  /**
   * Checks the QR text of the shopper's bank transfer slip with the service, which sets the charge
   * the transfer paid SUCCEEDED. Only the holder of the charge's status token may send one (a card
   * authorization is never paid by transfer, so its tokens are refused). A slip that paid another
   * charge is refused without naming it.
   */
  async #verifySlip(request: Request, chargeId: string, entry: CheckoutLogEntry): Promise<Response> {
    entry.chargeId = chargeId;
    if (!/^[\w-]{1,128}$/.test(chargeId) || !(await this.#tokens.verify(chargeId, request.headers.get(CHECKOUT_STATUS_TOKEN_HEADER)))) {
      throw new CheckoutError(403, 'INVALID_STATUS_TOKEN', 'This payment cannot be looked up from here.');
    }
    await this.#limit(request, 'slips', this.#limits().charges);
    const body = await this.#readJson(request, this.#options.maxBodyBytes ?? CHECKOUT_MAX_BODY_BYTES);
    const parsed = CheckoutSlipRequestSchema.safeParse(body);
    if (!parsed.success) {
      const issues = toFieldIssues(parsed.error.issues, body);
      throw new CheckoutError(400, 'INVALID_REQUEST', `The request is not valid: ${describeFieldIssues(issues)}.`, { field: issues[0]?.field });
    }
    let verified;
    try {
      verified = await this.#client.charges.verifyQrSlip({ format: 'RAW', raw: parsed.data.raw }, { signal: request.signal });
    } catch (error) {
      if (error instanceof NotFoundError) {
        throw new CheckoutError(404, 'SLIP_NOT_FOUND', 'This slip does not match a payment.', { cause: error, ...(error.requestId ? { serviceRequestId: error.requestId } : {}) });
      }
      throw upstreamError(error);
    }
    // The transfer paid that charge, whichever it is: whoever follows it learns so now, as from a webhook.
    await this.#noteStatus({ chargeId: verified.chargeId, status: 'SUCCEEDED', failureCode: null });
    if (verified.chargeId !== chargeId) throw new CheckoutError(409, 'SLIP_MISMATCH', 'This slip is for another payment.');
    const answer: CheckoutSlipResponse = { chargeId, status: 'SUCCEEDED', verificationResult: verified.verificationResult };
    return json(200, answer);
  }

  /**
   * A final status learnt from a webhook, else the service's answer: the charge's, or the card
   * authorization's in the widget's terms (AUTHORIZED, or already captured, is a success).
   */
  async #readStatus(id: string, kind: StatusTokenKind, signal: AbortSignal): Promise<CheckoutStatusResponse> {
    const cached = await this.#store.get(`status:${id}`);
    if (cached) return JSON.parse(cached) as CheckoutStatusResponse;
    let status: CheckoutStatusResponse;
    let version: number | undefined;
    try {
      if (kind === 'authorization') {
        const authorization = await this.#client.cardAuthorizations.get(id, { signal });
        status = authorizationStatus(authorization);
        version = stateVersion('card_authorization', authorization.status, authorization.updatedAt);
      } else {
        const charge = await this.#client.charges.get(id, { signal });
        status = { chargeId: id, status: charge.status, failureCode: charge.failureCode ? charge.failureCode : null };
        version = stateVersion('charge', charge.status, charge.updatedAt);
      }
    } catch (error) {
      throw upstreamError(error);
    }
    // Kept unless a webhook brought a newer state meanwhile.
    if (status.status !== 'PENDING') await this.#store.setIfNewer(`status:${id}`, version ?? 0, JSON.stringify(status), STATUS_CACHE_TTL_MS);
    return status;
  }

  async #webhook(request: Request): Promise<Response> {
    const key = this.#options.webhookKeyBase64;
    if (key === undefined) throw new CheckoutError(404, 'NOT_FOUND', 'Webhooks are not set up on this endpoint.');
    let raw: Uint8Array;
    try {
      raw = await readBodyBytes(request, WEBHOOK_MAX_BODY_BYTES);
    } catch (error) {
      throw bodyError(error);
    }
    // The signature is checked over the exact bytes received, before anything parses them.
    if (!(await verifyWebhookSignature(raw, request.headers.get(SERVICE_HEADERS.signature), key))) {
      throw new CheckoutError(401, 'INVALID_SIGNATURE', 'The webhook signature does not match.');
    }
    const name = request.headers.get(SERVICE_HEADERS.event) ?? '';
    // Every delivery names its event: one without is broken on the way, not a new kind of event.
    if (name === '') throw new CheckoutError(400, 'INVALID_REQUEST', `The webhook has no ${SERVICE_HEADERS.event} header.`);
    let payload: unknown;
    try {
      payload = JSON.parse(new TextDecoder().decode(raw));
    } catch {
      throw new CheckoutError(400, 'INVALID_REQUEST', 'The webhook body is not JSON.');
    }
    const parsed = parseWebhookEvent(name, payload);
    if (!parsed.ok) {
      // A new kind of event is acknowledged, so the service does not retry it for nothing.
      if (parsed.error.startsWith('unknown webhook event')) return json(200, { received: true, ignored: true });
      throw new CheckoutError(400, 'INVALID_REQUEST', parsed.error);
    }
    const event = parsed.event;
    // Only the body is signed: an event name that does not fit it is a genuine body relabelled.
    const mismatch = eventStatusMismatch(event);
    if (mismatch !== undefined) throw new CheckoutError(400, 'INVALID_REQUEST', `The webhook event does not match its body: ${mismatch}.`);
    const state = webhookState(event);
    const outcome = await this.#webhooks.handleOnce(state, async () => {
      try {
        if (event.name === 'charge.succeeded' || event.name === 'charge.failed') await this.#noteCharge(event.payload, state.version);
        if (event.name.startsWith('card_authorization.')) await this.#noteStatus(authorizationStatus(event.payload as CardAuthorization), state.version);
        await this.#options.onEvent?.(event);
      } catch (error) {
        throw new CheckoutError(500, 'INTERNAL_ERROR', 'The event could not be handled; it will be retried.', { retryable: true, cause: error });
      }
    });
    // A duplicate or an older state is acknowledged too, so the service stops sending it (see onEvent).
    return json(200, outcome === 'handled' ? { received: true } : { received: true, [outcome]: true });
  }

  /** Records a charge's final status and wakes the long-polls waiting on it. */
  async #noteCharge(charge: { chargeId: string; status: ChargeStatus; failureCode?: string | null | undefined; updatedAt: string }, version: number | undefined): Promise<void> {
    await this.#noteStatus({ chargeId: charge.chargeId, status: charge.status, failureCode: charge.failureCode ? charge.failureCode : null }, version);
  }

  /**
   * Keeps a final status unless a newer one is known (`version` orders the states of the resource;
   * by default the status is as of now), and wakes the long-polls waiting on it, which read back
   * whichever is newest.
   */
  async #noteStatus(status: CheckoutStatusResponse, version: number = versionNow()): Promise<void> {
    if (status.status === 'PENDING') return;
    await this.#store.setIfNewer(`status:${status.chargeId}`, version, JSON.stringify(status), STATUS_CACHE_TTL_MS);
    await this.#store.publish(`charge:${status.chargeId}`, status.status);
  }

  async #readJson(request: Request, maxBytes: number): Promise<unknown> {
    try {
      return (await readJsonBody(request, maxBytes)).value;
    } catch (error) {
      throw bodyError(error);
    }
  }

  #limits() {
    const limit = this.#options.rateLimit;
    if (limit === false) return { charges: undefined, status: undefined };
    return {
      charges: { windowMs: limit?.windowMs ?? RATE_LIMIT_WINDOW_MS, max: limit?.chargesPerWindow ?? RATE_LIMIT_CHARGES_PER_WINDOW },
      status: { windowMs: limit?.windowMs ?? RATE_LIMIT_WINDOW_MS, max: limit?.statusPerWindow ?? RATE_LIMIT_STATUS_PER_WINDOW },
    };
  }

  async #limit(request: Request, bucket: string, limit: { windowMs: number; max: number } | undefined): Promise<void> {
    if (!limit) return;
    const client = this.#options.getClientId?.(request) ?? request.headers.get(CLIENT_ADDRESS_HEADER) ?? 'unknown';
    const windowStart = Math.floor(Date.now() / limit.windowMs) * limit.windowMs;
    const count = await this.#store.increment(`rate:${bucket}:${client}:${windowStart}`, limit.windowMs);
    if (count > limit.max) {
      const retryAfter = Math.max(1, Math.ceil((windowStart + limit.windowMs - Date.now()) / 1000));
      throw new CheckoutError(429, 'RATE_LIMITED', 'Too many attempts. Please wait a moment and try again.', { retryable: true, headers: { 'retry-after': String(retryAfter) } });
    }
  }

  /** The error's answer; `clientGone` when the caller left first, which is worth no console line. */
  #errorResponse(error: unknown, entry: CheckoutLogEntry, clientGone = false): Response {
    const refusal =
      error instanceof CheckoutError
        ? error
        : new CheckoutError(500, 'INTERNAL_ERROR', 'Something went wrong on the shop’s side. Please try again.', { retryable: true, cause: error });
    entry.errorCode = refusal.code;
    if (refusal.serviceRequestId) entry.serviceRequestId = refusal.serviceRequestId;
    if (refusal.status >= 500) {
      entry.error = refusal.cause ?? refusal;
      if (!this.#options.log && !clientGone) console.error(`satang checkout: ${refusal.code}`, refusal.cause ?? refusal);
    }
    return refusal.toResponse();
  }
}

/** The path of the first field that looks like card data: a card-data key, or a card number as a value. */
export function findCardData(value: unknown, path: string[] = []): string | undefined {
  const stack: Array<[unknown, string[]]> = [[value, path]];
  while (stack.length > 0) {
    const [item, at] = stack.pop()!;
    const key = at[at.length - 1];
    if (typeof item === 'string' || typeof item === 'number') {
      if (key !== undefined && ID_FIELDS.has(key)) continue;
      const digits = String(item).replace(/[\s-]/g, '');
      if (/^\d{13,19}$/.test(digits) && passesLuhn(digits)) return at.join('.') || '(body)';
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    for (const [childKey, child] of Object.entries(item)) {
      if (!Array.isArray(item) && CARD_DATA_KEY.test(childKey)) return [...at, childKey].join('.');
      stack.push([child, [...at, childKey]]);
    }
  }
  return undefined;
}

function bodyError(error: unknown): unknown {
  if (!(error instanceof RequestBodyError)) return error;
  switch (error.reason) {
    case 'too-large':
      return new CheckoutError(413, 'BODY_TOO_LARGE', 'The request is too large.');
    case 'media-type':
      return new CheckoutError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send JSON (Content-Type: application/json).');
    default:
      return new CheckoutError(400, 'INVALID_REQUEST', `The request is not valid: ${error.message}.`);
  }
}

/** Shopper-safe wording for the service's refusals of what the shopper entered. */
function rejectionMessage(error: ValidationError): string {
  const field = error.field ?? '';
  if (/cardTokenId$/.test(field)) return 'This card entry has expired. Please enter the card again.';
  if (/securityCode$/.test(field)) return 'Check the card’s security code (CVC).';
  if (/installmentPeriod$/.test(field)) return 'This installment plan is not available for this amount.';
  if (field === 'deviceType') return 'This banking app can only be used on a phone.';
  if (/expired/.test(error.message)) return 'This card has expired. Please use another card.';
  return 'The payment details were not accepted. Please check them or choose another method.';
}

/** Turns a failed call to the service into the shopper-facing refusal. */
function upstreamError(error: unknown): unknown {
  if (error instanceof CheckoutError || !(error instanceof ServiceError)) {
    if (error instanceof DOMException && error.name === 'AbortError') return new CheckoutError(503, 'UPSTREAM_UNAVAILABLE', 'The request was cancelled.', { retryable: true });
    return error;
  }
  const extra = { cause: error, ...(error.requestId ? { serviceRequestId: error.requestId } : {}) };
  if (error instanceof ValidationError) return new CheckoutError(400, 'PAYMENT_DETAILS_REJECTED', rejectionMessage(error), { ...extra, ...(error.field ? { field: error.field } : {}) });
  if (error instanceof IdempotencyConflictError) {
    return new CheckoutError(409, 'IDEMPOTENCY_CONFLICT', 'This payment attempt was already sent with other details. Please start again.', extra);
  }
  if (error instanceof NotFoundError) return new CheckoutError(404, 'NOT_FOUND', 'This payment was not found.', extra);
  if (error instanceof StateConflictError) return new CheckoutError(409, 'PAYMENT_DETAILS_REJECTED', 'This payment cannot be changed now.', extra);
  if (error instanceof AuthenticationError || error instanceof PermissionError) {
    return new CheckoutError(502, 'UPSTREAM_REJECTED', 'Payments are not available right now. Please try again later.', extra);
  }
  const retryAfter = error instanceof RateLimitedError && error.retryAfterMs !== undefined ? String(Math.ceil(error.retryAfterMs / 1000)) : '2';
  if (error.retryable) {
    return new CheckoutError(503, 'UPSTREAM_UNAVAILABLE', 'The payment service is not answering. Please try again.', { ...extra, retryable: true, headers: { 'retry-after': retryAfter } });
  }
  return new CheckoutError(502, 'UPSTREAM_REJECTED', 'Payments are not available right now. Please try again later.', extra);
}

function originOf(value: string, option: string): string {
  try {
    const origin = new URL(value).origin;
    if (origin === 'null') throw new Error('opaque');
    return origin;
  } catch {
    throw new ConfigurationError(`${option}: "${value}" is not an origin such as https://shop.example`);
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
