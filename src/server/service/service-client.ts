import { checkHeaderPrefix, serviceHeaders, type ServiceHeaders } from '../../core/constants.js';
import { isLoopbackHost } from '../../core/url.js';
import { ConfigurationError } from '../errors.js';
import { boltConnectionsApi, boltDevicesApi, boltIntentsApi, type BoltConnectionsApi, type BoltDevicesApi, type BoltIntentsApi } from './bolt.js';
import { cardAuthorizationsApi, type CardAuthorizationsApi } from './card-authorizations.js';
import { cardTokensApi, type CardTokensApi } from './card-tokens.js';
import { chargesApi, type ChargesApi } from './charges.js';
import { resolveCredentials } from './credentials.js';
import { nodeSend } from './node-send.js';
import { paymentLinksApi, type PaymentLinksApi } from './payment-links.js';
import { refundsApi, type RefundsApi } from './refunds.js';
import { transactionsApi, type TransactionsApi } from './transactions.js';
import { checkTimeout, DEFAULT_MAX_RETRIES, DEFAULT_RETRY_BASE_DELAY_MS, DEFAULT_TIMEOUT_MS, ServiceTransport } from './transport.js';

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
  /**
   * The Fetch function to send with, e.g. a sandbox's `fetch`. When omitted: on Node, `node:http`
   * (`node:https`) with one keep-alive agent for this client (the global `fetch` if something
   * replaced it, such as instrumentation or a mock); elsewhere, `globalThis.fetch`.
   */
  fetch?: (input: Request) => Promise<Response>;
  /** Sent as `User-Agent`, so the service's logs can tell your integration apart. */
  userAgent?: string;
  /**
   * Prefix of the service's own headers (idempotency key, partner id, request id):
   * `X-Beam-`, the live service's, when omitted. Set it
   * only for a service or sandbox that spells them otherwise (`X-Service-`).
   */
  headerPrefix?: string;
}

/**
 * A typed client of the whole payment service API, for the merchant's server. It runs wherever
 * the Fetch API and WebCrypto do (Node 20+, Deno, Bun, edge workers).
 *
 * Every POST and PATCH carries an idempotency key (yours, or a random UUID) and every retry of
 * that call reuses it, so no retry can create a second charge. Network errors, timeouts, 429 and
 * 5xx (except 501) are retried with exponential backoff and jitter, or after the `Retry-After`
 * the service sent; other answers are final. As every request is idempotent (a GET, or a
 * POST/PATCH with its key), an answer lost or mangled in transit (a reset connection, a truncated
 * or non-JSON 2xx body) is asked for again too: the service replays the first answer instead of
 * acting twice. How a call travels is in `./transport.ts`; each resource family has its file.
 *
 * Answers are checked against the core schemas; unknown extra fields are kept. Failures are the
 * typed errors of `../errors.js`, each with the service's request id when it answered.
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
  /** Bolt connections: pairing with a device. */
  readonly boltConnections: BoltConnectionsApi;
  /** The header names this client sends and reads, under its `headerPrefix`. */
  readonly headers: ServiceHeaders;
  /** The merchant this client acts for (the username of its key, a partner's included). */
  readonly merchantId: string;

  /**
   * Checks the options and throws `ConfigurationError` saying what to set when they cannot work:
   * no or a malformed `baseUrl`, a key over plain http to a host that is not loopback, neither or
   * both of `apiKey` and `partner`, an empty `merchantId`, a negative retry count.
   */
  constructor(options: ServiceClientOptions) {
    // A JavaScript caller may pass nothing: each option then says it is missing.
    const opts = (options as ServiceClientOptions | undefined) ?? ({} as ServiceClientOptions);
    const baseUrl = checkBaseUrl(opts.baseUrl);
    const headers = checkedHeaders(opts.headerPrefix);
    const { secretHeaders, publishableAuthorization } = resolveCredentials(opts, headers);

    const url = new URL(baseUrl);
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      throw new ConfigurationError(
        `refusing to send keys over plain http to ${url.hostname}: use an https baseUrl (plain http is only for a loopback host such as 127.0.0.1, e.g. the local sandbox)`,
      );
    }
    if (opts.userAgent !== undefined) {
      try {
        new Headers({ 'user-agent': opts.userAgent });
      } catch {
        throw new ConfigurationError('userAgent must be a valid header value (no line breaks)');
      }
    }

    const timeoutMs = checkTimeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs', (message) => new ConfigurationError(message));
    const maxRetries = opts.maxRetries ?? DEFAULT_MAX_RETRIES;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new ConfigurationError('maxRetries must be a whole number, 0 or more (0 turns retries off)');
    }
    const retryBaseDelayMs = opts.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
    if (!Number.isFinite(retryBaseDelayMs) || retryBaseDelayMs < 0) {
      throw new ConfigurationError('retryBaseDelayMs must be a number of milliseconds, 0 or more');
    }
    if (opts.fetch !== undefined && typeof opts.fetch !== 'function') throw new ConfigurationError('fetch must be a function (Request) => Promise<Response>');
    this.headers = headers;
    this.merchantId = opts.merchantId;
    const transport = new ServiceTransport({
      baseUrl,
      headers,
      secretHeaders,
      publishableAuthorization,
      userAgent: opts.userAgent,
      timeoutMs,
      maxRetries,
      retryBaseDelayMs,
      // Looked up at call time, so a fetch installed or replaced after construction is used.
      fetch: opts.fetch ?? ((request) => globalThis.fetch(request)),
      // On Node, without a fetch of the caller's: node:http on one keep-alive agent.
      send: opts.fetch === undefined ? nodeSend(baseUrl) : undefined,
    });

    this.charges = chargesApi(transport);
    this.cardTokens = cardTokensApi(transport);
    this.refunds = refundsApi(transport);
    this.cardAuthorizations = cardAuthorizationsApi(transport);
    this.paymentLinks = paymentLinksApi(transport);
    this.transactions = transactionsApi(transport);
    this.boltIntents = boltIntentsApi(transport);
    this.boltDevices = boltDevicesApi(transport);
    this.boltConnections = boltConnectionsApi(transport);
  }
}

function checkedHeaders(prefix: unknown): ServiceHeaders {
  if (prefix === undefined) return serviceHeaders();
  try {
    return serviceHeaders(checkHeaderPrefix(prefix));
  } catch (error) {
    throw new ConfigurationError((error as Error).message);
  }
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
