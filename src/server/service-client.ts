import { isLoopbackHost } from '../core/url.js';
import type * as z from 'zod/mini';
import { base64Encode } from '../core/base64.js';
import { IDEMPOTENCY_KEY_MAX_LENGTH, LIST_MAX_LIMIT, SERVICE_HEADERS } from '../core/constants.js';
import {
  BoltDeviceListSchema,
  BoltDeviceSchema,
  BoltIntentSchema,
  type BoltDevice,
  type BoltDeviceList,
  type BoltIntent,
  type CreateBoltIntentRequest,
  type RenameBoltDeviceRequest,
} from '../core/schemas/bolt.js';
import {
  CaptureCardAuthorizationResponseSchema,
  CardAuthorizationListSchema,
  CardAuthorizationSchema,
  CreateCardAuthorizationResponseSchema,
  type CaptureCardAuthorizationRequest,
  type CaptureCardAuthorizationResponse,
  type CardAuthorizationList,
  type CardAuthorization,
  type CreateCardAuthorizationRequest,
  type CreateCardAuthorizationResponse,
} from '../core/schemas/card-authorization.js';
import { CardTokenSchema, type CardToken, type CreateCardTokenRequest } from '../core/schemas/card-token.js';
import {
  ChargeListSchema,
  ChargeSchema,
  CreateChargeResponseSchema,
  type Charge,
  type ChargeList,
  type ChargeSource,
  type CreateChargeRequest,
  type CreateChargeResponse,
} from '../core/schemas/charge.js';
import type { ListQuery } from '../core/schemas/common.js';
import {
  CreatePaymentLinkResponseSchema,
  PaymentLinkSchema,
  type CreatePaymentLinkRequest,
  type CreatePaymentLinkResponse,
  type PaymentLink,
} from '../core/schemas/payment-link.js';
import { VerifyQrSlipResponseSchema, type VerifyQrSlipRequest, type VerifyQrSlipResponse } from '../core/schemas/qr-slip.js';
import { CreateRefundResponseSchema, RefundSchema, type CreateRefundRequest, type CreateRefundResponse, type Refund } from '../core/schemas/refund.js';
import { TransactionListSchema, TransactionSchema, type Transaction, type TransactionList } from '../core/schemas/transaction.js';
import { describeFieldIssues, toFieldIssues } from '../core/validation.js';
import {
  ConfigurationError,
  errorFromResponse,
  ServiceUnavailableError,
  UnexpectedResponseError,
  ValidationError,
  type ServiceError,
} from './errors.js';

/** How long one attempt may take, from sending the request to the last byte of the answer. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Retries after the first attempt, so three attempts in all. */
export const DEFAULT_MAX_RETRIES = 2;
/** First backoff step; it doubles on every retry up to {@link MAX_RETRY_DELAY_MS}. */
export const DEFAULT_RETRY_BASE_DELAY_MS = 500;
/**
 * The longest wait between two attempts. A `Retry-After` longer than this is not waited out: the
 * call fails at once (a 429 with the wait in `RateLimitedError.retryAfterMs`), so a checkout
 * request does not hang for minutes and the service is not asked again before it said to.
 */
export const MAX_RETRY_DELAY_MS = 8_000;
/** Page size of `iterate`: the largest page the service serves, so the fewest round trips. */
export const ITERATE_PAGE_SIZE = LIST_MAX_LIMIT;

/** Error codes of the faults this client detects itself, where the service gave none. */
export const CLIENT_ERROR_CODES = {
  /** The request did not reach the service, or its answer was lost (fetch rejected). */
  network: 'NETWORK_ERROR',
  /** No complete answer within the attempt's timeout. */
  timeout: 'TIMEOUT_ERROR',
  /** A 2xx answer that is not JSON, or not the shape the contract gives. */
  unexpectedResponse: 'UNEXPECTED_RESPONSE_ERROR',
  /** An argument refused before anything was sent (an empty id, a malformed idempotency key). */
  invalidArgument: 'INVALID_ARGUMENT_ERROR',
} as const;

/** How to reach the service and as whom. */
export interface ServiceClientOptions {
  /**
   * Base address of the service, e.g. `https://api.example`, or `http://127.0.0.1:4010` for the
   * local sandbox. Plain `http:` is only accepted for a loopback host.
   */
  baseUrl: string;
  /** The merchant every call acts for; the user name of HTTP Basic. */
  merchantId: string;
  /** The merchant API key, for `/api/v1/*`. Give this or `partner`, not both. */
  apiKey?: string;
  /** A partner key acting for `merchantId`; the partner id header is added to every `/api` call. */
  partner?: { partnerId: string; apiKey: string };
  /**
   * The publishable key, only for `cardTokens.create`. Browsers normally tokenize cards
   * themselves; a server sets this only to tokenize too (tests, back-office tools).
   */
  publishableKey?: string;
  /** Timeout of one attempt; {@link DEFAULT_TIMEOUT_MS} when omitted. */
  timeoutMs?: number;
  /** Retries after the first attempt; {@link DEFAULT_MAX_RETRIES} when omitted, 0 for none. */
  maxRetries?: number;
  /** First backoff step; {@link DEFAULT_RETRY_BASE_DELAY_MS} when omitted. */
  retryBaseDelayMs?: number;
  /** The Fetch function to send with, e.g. a sandbox's `fetch`; `globalThis.fetch` when omitted. */
  fetch?: (input: Request) => Promise<Response>;
  /** Sent as `User-Agent`, so the service's logs can tell your integration apart. */
  userAgent?: string;
}

/** Per-call options of a call that changes something (POST or PATCH). */
export interface RequestOptions {
  /**
   * The idempotency key (1 to 255 visible ASCII characters). Pass your own, derived from your
   * order, to make a call safe across process restarts; otherwise a random UUID is used for the
   * call and all its retries.
   */
  idempotencyKey?: string;
  /** Aborts the call and every retry at once; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Timeout of each attempt of this call, overriding the client's. */
  timeoutMs?: number;
}

/** Per-call options of a read (GET): idempotency keys do not apply. */
export type ReadOptions = Omit<RequestOptions, 'idempotencyKey'>;

/** Filters and paging of `GET /api/v1/charges`. */
export interface ChargeListQuery extends ListQuery {
  /** Only charges created with this reference. */
  referenceId?: string;
  /** Only charges from these sources (sent as `source_in`, comma separated). */
  sourceIn?: readonly ChargeSource[];
  /** Only charges of this source, e.g. one payment link. */
  sourceId?: string;
}


/** Direct charges: create, read, list and verify by bank slip. */
export interface ChargesApi {
  /**
   * Creates a charge (`POST /api/v1/charges`). The answer says what the shopper does next
   * (`actionRequired`) but carries no status: read the charge, or wait for its webhook.
   */
  create(body: CreateChargeRequest, options?: RequestOptions): Promise<CreateChargeResponse>;
  /** Reads one charge, e.g. to learn its status after a redirect or a missed webhook. */
  get(chargeId: string, options?: ReadOptions): Promise<Charge>;
  /** Reads one page of charges, newest first, optionally filtered. */
  list(query?: ChargeListQuery, options?: ReadOptions): Promise<ChargeList>;
  /**
   * Every charge matching `query`, newest first, fetched page by page as the loop asks for them
   * (`query.limit` is the page size, {@link ITERATE_PAGE_SIZE} by default). A charge that moves to
   * a later page while iterating (new charges arrive at the front) is yielded once, not twice.
   */
  iterate(query?: ChargeListQuery, options?: ReadOptions): AsyncIterable<Charge>;
  /**
   * Matches the QR text of a shopper's bank transfer slip to its charge and sets that charge to
   * SUCCEEDED (`POST /api/v1/charges/verify-qr-slip`). No matching charge: `NotFoundError`.
   */
  verifyQrSlip(body: VerifyQrSlipRequest, options?: RequestOptions): Promise<VerifyQrSlipResponse>;
}

/** Card tokens, created with the publishable key. */
export interface CardTokensApi {
  /**
   * Tokenizes a card (`POST /client/v1/card-tokens`) for a later CARD_TOKEN charge. Needs
   * `publishableKey`; rejects with `ConfigurationError` without it.
   */
  create(body: CreateCardTokenRequest, options?: RequestOptions): Promise<CardToken>;
}

/** Refunds of succeeded charges. */
export interface RefundsApi {
  /**
   * Refunds a charge, all of it without `amount`, part of it (CARD only) with one. The refund
   * starts PENDING; read it or wait for `refund.succeeded` / `refund.failed`.
   */
  create(body: CreateRefundRequest, options?: RequestOptions): Promise<CreateRefundResponse>;
  /** Reads one refund, e.g. to learn whether it has settled. */
  get(refundId: string, options?: ReadOptions): Promise<Refund>;
}

/** Card authorizations: reserve an amount on a card now, capture it later. */
export interface CardAuthorizationsApi {
  /** Reserves an amount on a card; the answer may ask for a 3-D Secure redirect. */
  create(body: CreateCardAuthorizationRequest, options?: RequestOptions): Promise<CreateCardAuthorizationResponse>;
  /** Reads one page of card authorizations. */
  list(query?: ListQuery, options?: ReadOptions): Promise<CardAuthorizationList>;
  /** Every card authorization, page by page; see {@link ChargesApi.iterate}. */
  iterate(query?: ListQuery, options?: ReadOptions): AsyncIterable<CardAuthorization>;
  /** Reads one card authorization, e.g. to see how much is still capturable. */
  get(cardAuthorizationId: string, options?: ReadOptions): Promise<CardAuthorization>;
  /** Releases the reserved amount (`POST .../cancel`) when the order will not be fulfilled. */
  cancel(cardAuthorizationId: string, options?: RequestOptions): Promise<CardAuthorization>;
  /** Reads one page of the charges (captures) made on an authorization. */
  listCaptures(cardAuthorizationId: string, query?: ListQuery, options?: ReadOptions): Promise<ChargeList>;
  /** Captures part or all of the reserved amount as a charge (`POST .../charges`). */
  capture(cardAuthorizationId: string, body: CaptureCardAuthorizationRequest, options?: RequestOptions): Promise<CaptureCardAuthorizationResponse>;
}

/** Payment links: hosted, single-use payment pages. */
export interface PaymentLinksApi {
  /** Creates a link; send the shopper to the answer's `url`. */
  create(body: CreatePaymentLinkRequest, options?: RequestOptions): Promise<CreatePaymentLinkResponse>;
  /** Reads one link, e.g. to learn whether it was paid. */
  get(paymentLinkId: string, options?: ReadOptions): Promise<PaymentLink>;
  /** Stops a link from being paid (`PATCH .../disable`), e.g. when the order is canceled. */
  disable(paymentLinkId: string, options?: RequestOptions): Promise<PaymentLink>;
}

/** Transactions: the money movements of succeeded charges and refunds. */
export interface TransactionsApi {
  /** Reads one page of transactions. */
  list(query?: ListQuery, options?: ReadOptions): Promise<TransactionList>;
  /** Every transaction, page by page; see {@link ChargesApi.iterate}. */
  iterate(query?: ListQuery, options?: ReadOptions): AsyncIterable<Transaction>;
  /** Reads one transaction; its id is the id of the charge or refund it records. */
  get(transactionId: string, options?: ReadOptions): Promise<Transaction>;
}

/** Bolt intents: payment requests sent to a paired device or opened by deep link. */
export interface BoltIntentsApi {
  /** Creates a bolt intent. */
  create(body: CreateBoltIntentRequest, options?: RequestOptions): Promise<BoltIntent>;
  /** Reads one bolt intent, e.g. to learn its `result`. */
  get(boltIntentId: string, options?: ReadOptions): Promise<BoltIntent>;
}

/** Bolt devices registered to the merchant. */
export interface BoltDevicesApi {
  /** Reads one page of devices, newest first. */
  list(query?: ListQuery, options?: ReadOptions): Promise<BoltDeviceList>;
  /** Every device, page by page; see {@link ChargesApi.iterate}. */
  iterate(query?: ListQuery, options?: ReadOptions): AsyncIterable<BoltDevice>;
  /** Reads one device with its latest metric. */
  get(boltDeviceId: string, options?: ReadOptions): Promise<BoltDevice>;
  /** Renames a device (`PATCH .../name`). */
  rename(boltDeviceId: string, body: RenameBoltDeviceRequest, options?: RequestOptions): Promise<BoltDevice>;
  /**
   * Asks a device to report on itself (`POST .../health-check`, answered 202). The report comes
   * later: read the device's `latestMetric`.
   */
  healthCheck(boltDeviceId: string, options?: RequestOptions): Promise<void>;
}

type Method = 'GET' | 'POST' | 'PATCH';
type KeyType = 'secret' | 'publishable';

interface Call {
  method: Method;
  /** Path with every id already encoded. */
  path: string;
  query?: URLSearchParams | undefined;
  body?: unknown;
  key?: KeyType;
}

/** What one attempt came to, when it did not settle the call. */
interface RetryableFailure {
  error: ServiceError;
  /** The wait the service asked for with `Retry-After`, if it did. */
  retryAfterMs: number | undefined;
}

type AttemptOutcome = { ok: true; value: unknown; status: number; requestId: string | undefined } | { ok: false; failure: RetryableFailure };

/** Issues shown in an UnexpectedResponseError message; the first one is always in `field`. */
const MAX_REPORTED_ISSUES = 5;

/**
 * A typed client of the whole payment service API, for the merchant's server. It runs wherever
 * the Fetch API and WebCrypto do (Node 20+, Deno, Bun, edge workers).
 *
 * Every POST and PATCH carries an idempotency key (yours, or a random UUID) and every retry of
 * that call reuses it, so no retry can create a second charge. Network errors, timeouts, 429 and
 * 5xx (except 501) are retried with exponential backoff and jitter, or after the `Retry-After`
 * the service sent; other answers are final. As
 * every request is idempotent (a GET, or a POST/PATCH with its key), an answer lost or mangled in
 * transit (a reset connection, a truncated or non-JSON 2xx body) is asked for again too: the
 * service replays the first answer instead of acting twice.
 *
 * Answers are checked against the core schemas; unknown extra fields are kept. Failures are the
 * typed errors of `./errors.js`, each with the service's request id when it answered.
 */
export class ServiceClient {
  /** Direct charges. */
  readonly charges: ChargesApi;
  /** Card tokens (publishable key). */
  readonly cardTokens: CardTokensApi;
  /** Refunds. */
  readonly refunds: RefundsApi;
  /** Card authorizations and their captures. */
  readonly cardAuthorizations: CardAuthorizationsApi;
  /** Payment links. */
  readonly paymentLinks: PaymentLinksApi;
  /** Transactions. */
  readonly transactions: TransactionsApi;
  /** Bolt intents. */
  readonly boltIntents: BoltIntentsApi;
  /** Bolt devices. */
  readonly boltDevices: BoltDevicesApi;

  readonly #baseUrl: string;
  readonly #secretHeaders: Headers;
  readonly #publishableAuthorization: string | undefined;
  readonly #userAgent: string | undefined;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #retryBaseDelayMs: number;
  readonly #fetch: (input: Request) => Promise<Response>;

  /**
   * Checks the options and throws `ConfigurationError` saying what to set when they cannot work:
   * no or a malformed `baseUrl`, a key over plain http to a host that is not loopback, neither or
   * both of `apiKey` and `partner`, an empty `merchantId`, a negative retry count.
   */
  constructor(options: ServiceClientOptions) {
    const opts = options ?? ({} as ServiceClientOptions);
    this.#baseUrl = checkBaseUrl(opts.baseUrl);

    if (typeof opts.merchantId !== 'string' || opts.merchantId.trim() === '') {
      throw new ConfigurationError('merchantId is required: set it to your merchant id (in the sandbox, SANDBOX_DEFAULTS.merchantId)');
    }
    // HTTP Basic ends the user name at the first colon, so such an id could never authenticate.
    if (opts.merchantId.includes(':')) throw new ConfigurationError('merchantId must not contain ":"');

    if (opts.apiKey !== undefined && opts.partner !== undefined) {
      throw new ConfigurationError('set either apiKey (a merchant key) or partner (a partner key acting for merchantId), not both');
    }
    let secretKey: string;
    const secretHeaders = new Headers({ accept: 'application/json' });
    if (opts.partner !== undefined) {
      if (typeof opts.partner !== 'object' || opts.partner === null) throw new ConfigurationError('partner must be { partnerId, apiKey }');
      const { partnerId, apiKey } = opts.partner;
      if (typeof partnerId !== 'string' || partnerId.trim() === '') throw new ConfigurationError('partner.partnerId is required: set it to your partner id');
      if (typeof apiKey !== 'string' || apiKey === '') throw new ConfigurationError('partner.apiKey is required: set it to your partner API key');
      secretKey = apiKey;
      secretHeaders.set(SERVICE_HEADERS.partnerId, partnerId);
    } else if (opts.apiKey !== undefined) {
      if (typeof opts.apiKey !== 'string' || opts.apiKey === '') throw new ConfigurationError('apiKey must not be empty: set it to your merchant API key');
      secretKey = opts.apiKey;
    } else {
      throw new ConfigurationError('no credentials: set apiKey to your merchant API key, or partner to { partnerId, apiKey } of a partner key');
    }
    if (opts.publishableKey !== undefined && (typeof opts.publishableKey !== 'string' || opts.publishableKey === '')) {
      throw new ConfigurationError('publishableKey must not be empty: set it to your publishable key, or leave it out');
    }

    const url = new URL(this.#baseUrl);
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      throw new ConfigurationError(
        `refusing to send keys over plain http to ${url.hostname}: use an https baseUrl (plain http is only for a loopback host such as 127.0.0.1, e.g. the local sandbox)`,
      );
    }

    secretHeaders.set('authorization', basicAuthorization(opts.merchantId, secretKey));
    this.#secretHeaders = secretHeaders;
    this.#publishableAuthorization = opts.publishableKey === undefined ? undefined : basicAuthorization(opts.merchantId, opts.publishableKey);
    if (opts.userAgent !== undefined) {
      try {
        new Headers({ 'user-agent': opts.userAgent });
      } catch {
        throw new ConfigurationError('userAgent must be a valid header value (no line breaks)');
      }
      this.#userAgent = opts.userAgent;
    }

    this.#timeoutMs = checkTimeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs', (message) => new ConfigurationError(message));
    this.#maxRetries = opts.maxRetries ?? DEFAULT_MAX_RETRIES;
    if (!Number.isInteger(this.#maxRetries) || this.#maxRetries < 0) {
      throw new ConfigurationError('maxRetries must be a whole number, 0 or more (0 turns retries off)');
    }
    this.#retryBaseDelayMs = opts.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
    if (!Number.isFinite(this.#retryBaseDelayMs) || this.#retryBaseDelayMs < 0) {
      throw new ConfigurationError('retryBaseDelayMs must be a number of milliseconds, 0 or more');
    }
    if (opts.fetch !== undefined && typeof opts.fetch !== 'function') throw new ConfigurationError('fetch must be a function (Request) => Promise<Response>');
    // Looked up at call time, so a fetch installed or replaced after construction is used.
    this.#fetch = opts.fetch ?? ((request) => globalThis.fetch(request));

    const seg = pathSegment;
    this.charges = {
      create: async (body, o) => this.#call(CreateChargeResponseSchema, { method: 'POST', path: '/api/v1/charges', body }, o),
      get: async (chargeId, o) => this.#call(ChargeSchema, { method: 'GET', path: `/api/v1/charges/${seg('chargeId', chargeId)}` }, o),
      list: async (query, o) => this.#call(ChargeListSchema, { method: 'GET', path: '/api/v1/charges', query: chargeQuery(query) }, o),
      iterate: (query, o) => this.#iterate((page) => this.charges.list({ ...query, ...page }, o), query, (charge) => charge.chargeId),
      verifyQrSlip: async (body, o) => this.#call(VerifyQrSlipResponseSchema, { method: 'POST', path: '/api/v1/charges/verify-qr-slip', body }, o),
    };
    this.cardTokens = {
      create: async (body, o) => this.#call(CardTokenSchema, { method: 'POST', path: '/client/v1/card-tokens', body, key: 'publishable' }, o),
    };
    this.refunds = {
      create: async (body, o) => this.#call(CreateRefundResponseSchema, { method: 'POST', path: '/api/v1/refunds', body }, o),
      get: async (refundId, o) => this.#call(RefundSchema, { method: 'GET', path: `/api/v1/refunds/${seg('refundId', refundId)}` }, o),
    };
    const authorization = (id: string) => `/api/v1/card-authorizations/${seg('cardAuthorizationId', id)}`;
    this.cardAuthorizations = {
      create: async (body, o) => this.#call(CreateCardAuthorizationResponseSchema, { method: 'POST', path: '/api/v1/card-authorizations', body }, o),
      list: async (query, o) => this.#call(CardAuthorizationListSchema, { method: 'GET', path: '/api/v1/card-authorizations', query: pageQuery(query) }, o),
      iterate: (query, o) => this.#iterate((page) => this.cardAuthorizations.list({ ...query, ...page }, o), query, (a) => a.cardAuthorizationId),
      get: async (id, o) => this.#call(CardAuthorizationSchema, { method: 'GET', path: authorization(id) }, o),
      // The contract states no body for cancel; an empty object keeps the request plain JSON.
      cancel: async (id, o) => this.#call(CardAuthorizationSchema, { method: 'POST', path: `${authorization(id)}/cancel`, body: {} }, o),
      listCaptures: async (id, query, o) => this.#call(ChargeListSchema, { method: 'GET', path: `${authorization(id)}/charges`, query: pageQuery(query) }, o),
      capture: async (id, body, o) => this.#call(CaptureCardAuthorizationResponseSchema, { method: 'POST', path: `${authorization(id)}/charges`, body }, o),
    };
    const link = (id: string) => `/api/v1/payment-links/${seg('paymentLinkId', id)}`;
    this.paymentLinks = {
      create: async (body, o) => this.#call(CreatePaymentLinkResponseSchema, { method: 'POST', path: '/api/v1/payment-links', body }, o),
      get: async (id, o) => this.#call(PaymentLinkSchema, { method: 'GET', path: link(id) }, o),
      disable: async (id, o) => this.#call(PaymentLinkSchema, { method: 'PATCH', path: `${link(id)}/disable`, body: {} }, o),
    };
    this.transactions = {
      list: async (query, o) => this.#call(TransactionListSchema, { method: 'GET', path: '/api/v1/transactions', query: pageQuery(query) }, o),
      // A VOID shares its charge's id with the PAYMENT it voids, so the type is part of the identity.
      iterate: (query, o) => this.#iterate((page) => this.transactions.list({ ...query, ...page }, o), query, (t) => `${t.transactionType} ${t.transactionId}`),
      get: async (id, o) => this.#call(TransactionSchema, { method: 'GET', path: `/api/v1/transactions/${seg('transactionId', id)}` }, o),
    };
    this.boltIntents = {
      create: async (body, o) => this.#call(BoltIntentSchema, { method: 'POST', path: '/api/v1/bolt-intents', body }, o),
      get: async (id, o) => this.#call(BoltIntentSchema, { method: 'GET', path: `/api/v1/bolt-intents/${seg('boltIntentId', id)}` }, o),
    };
    const device = (id: string) => `/api/v1/bolt-devices/${seg('boltDeviceId', id)}`;
    this.boltDevices = {
      list: async (query, o) => this.#call(BoltDeviceListSchema, { method: 'GET', path: '/api/v1/bolt-devices', query: pageQuery(query) }, o),
      iterate: (query, o) => this.#iterate((page) => this.boltDevices.list({ ...query, ...page }, o), query, (d) => d.boltDeviceId),
      get: async (id, o) => this.#call(BoltDeviceSchema, { method: 'GET', path: device(id) }, o),
      rename: async (id, body, o) => this.#call(BoltDeviceSchema, { method: 'PATCH', path: `${device(id)}/name`, body }, o),
      healthCheck: async (id, o) => {
        await this.#exchange({ method: 'POST', path: `${device(id)}/health-check`, body: {} }, o, false);
      },
    };
  }

  /** Sends a call, then checks the 2xx body against `schema`. */
  async #call<S extends z.ZodMiniType>(schema: S, call: Call, options: RequestOptions | undefined): Promise<z.infer<S>> {
    const { value, status, requestId } = await this.#exchange(call, options, true);
    const result = schema.safeParse(value);
    if (result.success) return result.data as z.infer<S>;
    const issues = toFieldIssues(readableIssues(result.error.issues), value);
    const shown = describeFieldIssues(issues.slice(0, MAX_REPORTED_ISSUES));
    const more = issues.length > MAX_REPORTED_ISSUES ? ` (and ${issues.length - MAX_REPORTED_ISSUES} more)` : '';
    // Not retried: the same request would be answered (or replayed) with the same body.
    throw new UnexpectedResponseError({
      status,
      errorCode: CLIENT_ERROR_CODES.unexpectedResponse,
      message: `${call.method} ${call.path} answered ${status} with a body that breaks the contract: ${shown}${more}`,
      requestId,
      field: issues[0]?.field || undefined,
    });
  }

  /**
   * Runs the attempts of one call: the same request (and idempotency key) each time, with
   * backoff between them, until an answer settles it or the retries run out.
   */
  async #exchange(call: Call, options: RequestOptions | undefined, expectBody: boolean): Promise<{ value: unknown; status: number; requestId: string | undefined }> {
    const signal = options?.signal;
    signal?.throwIfAborted();
    const timeoutMs = checkTimeout(options?.timeoutMs ?? this.#timeoutMs, 'timeoutMs', invalidArgumentError);
    const headers = this.#headersFor(call);
    if (call.method !== 'GET') headers.set(SERVICE_HEADERS.idempotencyKey, checkIdempotencyKey(options?.idempotencyKey) ?? globalThis.crypto.randomUUID());
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    if (body !== undefined) headers.set('content-type', 'application/json');
    const url = `${this.#baseUrl}${call.path}${call.query && call.query.toString() !== '' ? `?${call.query.toString()}` : ''}`;

    for (let attempt = 0; ; attempt += 1) {
      const outcome = await this.#attempt(call, { url, headers, body, timeoutMs, signal, expectBody });
      if (outcome.ok) return outcome;
      const { error, retryAfterMs } = outcome.failure;
      if (attempt >= this.#maxRetries) throw error;
      if (retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_DELAY_MS) throw error;
      await sleep(retryAfterMs ?? this.#backoffMs(attempt), signal);
    }
  }

  /** One attempt: settles with an answer, asks for a retry, or throws a final error. */
  async #attempt(
    call: Call,
    request: { url: string; headers: Headers; body: string | undefined; timeoutMs: number; signal: AbortSignal | undefined; expectBody: boolean },
  ): Promise<AttemptOutcome> {
    const { signal, timeoutMs } = request;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException(`no complete answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
    const onCallerAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      let response: Response;
      let text: string;
      try {
        const sent = new Request(request.url, {
          method: call.method,
          headers: request.headers,
          body: request.body,
          signal: controller.signal,
          // The service never redirects; following one could carry the body and key elsewhere.
          redirect: 'manual',
        });
        // Raced with the signal, so an injected fetch that ignores it still cannot hang the call.
        response = await untilAborted(this.#fetch(sent), controller.signal);
        text = await untilAborted(response.text(), controller.signal);
      } catch (cause) {
        if (signal?.aborted) throw signal.reason;
        if (controller.signal.aborted) {
          return retry(
            new ServiceUnavailableError({ status: 0, errorCode: CLIENT_ERROR_CODES.timeout, message: `${call.method} ${call.path} got no complete answer within ${timeoutMs} ms`, cause }),
          );
        }
        return retry(
          new ServiceUnavailableError({ status: 0, errorCode: CLIENT_ERROR_CODES.network, message: `${call.method} ${call.path} failed before an answer arrived: ${describeCause(cause)}`, cause }),
        );
      }

      const { status } = response;
      const requestId = response.headers.get(SERVICE_HEADERS.requestId) ?? undefined;
      if (status >= 200 && status < 300) {
        if (!request.expectBody) return { ok: true, value: undefined, status, requestId };
        const parsed = parseJson(text);
        if (parsed.ok) return { ok: true, value: parsed.value, status, requestId };
        // A cut or foreign (proxy, captive portal) body: the request is idempotent, so ask again.
        const type = response.headers.get('content-type') ?? 'no content type';
        return retry(
          new UnexpectedResponseError({
            status,
            errorCode: CLIENT_ERROR_CODES.unexpectedResponse,
            message: `${call.method} ${call.path} answered ${status} with a body that is not JSON (${type}, ${text.length} characters)`,
            requestId,
            retryable: true,
          }),
        );
      }
      const parsed = parseJson(text);
      const errorBody = parsed.ok ? parsed.value : text;
      if (status === 429 || (status >= 500 && status !== 501)) {
        const retryAfterMs = parseRetryAfterMs(response.headers.get('retry-after'));
        return retry(errorFromResponse(status, errorBody, requestId, retryAfterMs), retryAfterMs);
      }
      throw errorFromResponse(status, errorBody, requestId);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  #headersFor(call: Call): Headers {
    if (call.key === 'publishable') {
      if (this.#publishableAuthorization === undefined) {
        throw new ConfigurationError(`${call.method} ${call.path} needs the publishable key: set publishableKey in the ServiceClient options`);
      }
      const headers = new Headers({ accept: 'application/json', authorization: this.#publishableAuthorization });
      if (this.#userAgent !== undefined) headers.set('user-agent', this.#userAgent);
      return headers;
    }
    const headers = new Headers(this.#secretHeaders);
    if (this.#userAgent !== undefined) headers.set('user-agent', this.#userAgent);
    return headers;
  }

  /** Exponential backoff with equal jitter: half the step is fixed, half random. */
  #backoffMs(attempt: number): number {
    const step = Math.min(MAX_RETRY_DELAY_MS, this.#retryBaseDelayMs * 2 ** attempt);
    return step / 2 + Math.random() * (step / 2);
  }

  /** Pages through a list endpoint with limit/offset until the total is reached. */
  async *#iterate<T>(
    list: (page: { limit: number; offset: number }) => Promise<{ data: T[]; totalCount: number }>,
    query: ListQuery | undefined,
    identify: (item: T) => string,
  ): AsyncGenerator<T, void, undefined> {
    const limit = query?.limit ?? ITERATE_PAGE_SIZE;
    let offset = query?.offset ?? 0;
    // Newest-first offset paging shifts older items back when new ones arrive between pages;
    // remembering what was yielded keeps each item to one appearance.
    const seen = new Set<string>();
    for (;;) {
      const page = await list({ limit, offset });
      for (const item of page.data) {
        const id = identify(item);
        if (seen.has(id)) continue;
        seen.add(id);
        yield item;
      }
      // Advance by what came, not by what was asked: a service may serve shorter pages.
      offset += page.data.length;
      if (page.data.length === 0 || offset >= page.totalCount) return;
    }
  }
}

function retry(error: ServiceError, retryAfterMs?: number): AttemptOutcome {
  return { ok: false, failure: { error, retryAfterMs } };
}

function checkBaseUrl(baseUrl: unknown): string {
  if (typeof baseUrl !== 'string' || baseUrl.trim() === '') {
    throw new ConfigurationError('baseUrl is required: set it to the service address, e.g. https://api.example, or http://127.0.0.1:4010 for the local sandbox');
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigurationError(`baseUrl "${baseUrl}" is not an absolute URL: set it like https://api.example`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigurationError(`baseUrl must be an http or https URL, not ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConfigurationError('baseUrl must not carry credentials: set merchantId and apiKey instead');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigurationError('baseUrl must not have a query or a fragment');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** localhost, 127.0.0.0/8 and [::1]: the only hosts a key may reach over plain http. */
function basicAuthorization(user: string, key: string): string {
  return `Basic ${base64Encode(new TextEncoder().encode(`${user}:${key}`))}`;
}

function invalidArgumentError(message: string, field?: string): ValidationError {
  return new ValidationError({ status: 0, errorCode: CLIENT_ERROR_CODES.invalidArgument, message, field });
}

function checkTimeout(value: unknown, name: string, fail: (message: string) => Error): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw fail(`${name} must be a positive number of milliseconds`);
  return value;
}

/**
 * One encoded path segment. "." and ".." are refused because URL parsing resolves them (even
 * percent-encoded), which would turn `capture("..", …)` into `POST /api/v1/charges`.
 */
function pathSegment(name: string, value: string): string {
  if (typeof value !== 'string' || value === '') throw invalidArgumentError(`${name} is required`, name);
  if (/^(\.|%2e){1,2}$/i.test(value)) throw invalidArgumentError(`${name} "${value}" is not an id`, name);
  return encodeURIComponent(value);
}

function checkIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw invalidArgumentError(`idempotencyKey must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters`, 'idempotencyKey');
  }
  return key;
}

function pageQuery(query: ListQuery | undefined): URLSearchParams {
  const params = new URLSearchParams();
  if (query?.limit !== undefined) params.set('limit', String(query.limit));
  if (query?.offset !== undefined) params.set('offset', String(query.offset));
  return params;
}

function chargeQuery(query: ChargeListQuery | undefined): URLSearchParams {
  const params = pageQuery(query);
  if (query?.referenceId !== undefined) params.set('referenceId', query.referenceId);
  if (query?.sourceIn !== undefined && query.sourceIn.length > 0) params.set('source_in', query.sourceIn.join(','));
  if (query?.sourceId !== undefined) params.set('sourceId', query.sourceId);
  return params;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** `Retry-After` as delay-seconds or an HTTP date, in milliseconds from now. */
export function parseRetryAfterMs(value: string | null, nowMs: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // Every HTTP date form starts with the day name; Date.parse alone would read "-5" as a year.
  const date = /^[A-Za-z]/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : '';
    return `${cause.message}${inner}`;
  }
  return String(cause);
}

/** Settles like `promise`, or rejects with the signal's reason as soon as it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // The abandoned promise may still reject; it must not surface as unhandled.
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

// zod/mini carries no message locale, so an unexpected enum value would only read "Invalid input".
function readableIssues(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.map((issue) =>
    issue.code === 'invalid_value' && issue.message === 'Invalid input'
      ? { ...issue, message: `must be one of ${issue.values.map(String).join(', ')}` }
      : issue,
  );
}
