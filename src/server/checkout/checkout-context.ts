import { CHECKOUT_PAYMENT_METHOD_TYPES, type CheckoutChargeResponse, type CheckoutStatusResponse } from '../../core/schemas/checkout.js';
import { checkHeaderPrefix } from '../../core/constants.js';
import type { HttpCall } from '../../core/http-call.js';
import { decodeWebhookKey } from '../../core/webhook-signature.js';
import { ConfigurationError } from '../errors.js';
import { ServiceClient } from '../service/service-client.js';
import { KeyedQueue } from '../webhooks/keyed-queue.js';
import { WebhookLedger } from '../webhooks/webhook-ledger.js';
import { MIN_SERVICE_DEADLINE_MS, MIN_STATUS_POLL_INTERVAL_MS, REQUEST_DEADLINE_MS, SERVICE_DEADLINE_MS, WEBHOOK_DEDUPE_TTL_MS, type CheckoutHandlerOptions, type CheckoutLogEntry } from './checkout-options.js';
import { CheckoutRecords } from './checkout-records.js';
import { MemoryCheckoutStore } from './checkout-store.js';
import { checkTrustProxy } from './client-identity.js';
import { OrderTokens } from './order-tokens.js';
import { RateLimiter } from './rate-limiter.js';
import { returnUrlPolicy, type ReturnUrlPolicy } from './return-urls.js';
import { StatusTokens } from './status-tokens.js';
import type { StatusWatch } from './status-watch.js';

/** What every route of one checkout handler shares, checked and built once from its options. */
export interface CheckoutContext {
  readonly options: CheckoutHandlerOptions;
  readonly client: ServiceClient;
  /** `serviceDeadlineMs`, checked: the `deadlineMs` of every call the handler makes to the service. */
  readonly serviceDeadlineMs: number;
  /** `requestDeadlineMs`, checked: how long one shopper request may take (see request-deadline.ts). */
  readonly requestDeadlineMs: number;
  readonly tokens: StatusTokens;
  /** Order tokens, signed with the status tokens' secret. */
  readonly orderTokens: OrderTokens;
  /** The handler's records in its store (`options.store`), each read back checked: the only way the routes reach the store. */
  readonly records: CheckoutRecords;
  readonly limiter: RateLimiter;
  readonly webhooks: WebhookLedger;
  /** Without a trailing slash; empty when mounted at the root. */
  readonly basePath: string;
  readonly allowedOrigins: ReadonlySet<string>;
  /** Where a charge's `returnUrl` may lead (see return-urls.ts). */
  readonly returnUrls: ReturnUrlPolicy;
  readonly paymentMethods: ReadonlySet<string>;
  /** Charges being created, by attempt and body: a double click waits on the first call. */
  readonly inFlight: Map<string, Promise<CheckoutChargeResponse>>;
  /** The service read under way for each payment's status on this instance, shared by every asker. */
  readonly statusReads: Map<string, Promise<CheckoutStatusResponse>>;
  /** The long-polls waiting on each payment on this instance, woken together (see status-watch.ts). */
  readonly statusWatches: Map<string, StatusWatch>;
  /** Settlements of one payment on this instance run one after another (instances share a lease in the store). */
  readonly settlements: KeyedQueue;
  /** The origin of `publicUrl`, when set. */
  readonly publicOrigin: string | undefined;
}

/** One request as a route sees it. */
export interface RouteCall {
  call: HttpCall;
  /** The path parameters, decoded. */
  params: Readonly<Record<string, string>>;
  /** The log line of this request; a route adds the payment it acted on. */
  entry: CheckoutLogEntry;
}

/** Throws a {@link ConfigurationError} saying what to set when an option is missing or wrong. */
export function createCheckoutContext(options: CheckoutHandlerOptions): CheckoutContext {
  // Checked as given, since a JavaScript caller may pass anything.
  const given: unknown = options;
  if (typeof given !== 'object' || given === null) throw new ConfigurationError('createCheckoutHandler needs an options object');
  if (typeof options.resolveOrder !== 'function') {
    throw new ConfigurationError('set resolveOrder(orderReference) => {amount, currency, referenceId}: the server, not the browser, decides what to charge');
  }
  if (!(options.service as unknown)) throw new ConfigurationError('set service: {baseUrl, merchantId, apiKey} (or a ServiceClient)');
  const client = serviceClientOf(options);
  const secret = options.statusTokenSecret ?? (options.service instanceof ServiceClient ? undefined : (options.service.apiKey ?? options.service.partner?.apiKey));
  if (!secret || secret.length < 16) {
    throw new ConfigurationError('set statusTokenSecret (at least 16 characters); it can only be derived from service.apiKey when the handler builds its own client');
  }
  const ttlMs = checkTtlMs('statusTokenTtlMs', options.statusTokenTtlMs, '3600000 for an hour');
  const orderTtlMs = checkTtlMs('orderTokenTtlMs', options.orderTokenTtlMs, '86400000 for a day');
  const pollMs = options.statusPollIntervalMs;
  if (pollMs !== undefined && (!Number.isSafeInteger(pollMs) || pollMs < MIN_STATUS_POLL_INTERVAL_MS)) {
    // 0 would poll the payment in a loop for as long as a shopper waits.
    throw new ConfigurationError(`statusPollIntervalMs must be a whole number of milliseconds, at least ${MIN_STATUS_POLL_INTERVAL_MS} (got ${String(pollMs)})`);
  }
  const serviceDeadlineMs = options.serviceDeadlineMs ?? SERVICE_DEADLINE_MS;
  if (!Number.isSafeInteger(serviceDeadlineMs) || serviceDeadlineMs < MIN_SERVICE_DEADLINE_MS) {
    throw new ConfigurationError(`serviceDeadlineMs must be a whole number of milliseconds, at least ${MIN_SERVICE_DEADLINE_MS}, e.g. 15000 (got ${String(options.serviceDeadlineMs)})`);
  }
  const requestDeadlineMs = options.requestDeadlineMs ?? REQUEST_DEADLINE_MS;
  if (!Number.isSafeInteger(requestDeadlineMs) || requestDeadlineMs < MIN_SERVICE_DEADLINE_MS) {
    throw new ConfigurationError(`requestDeadlineMs must be a whole number of milliseconds, at least ${MIN_SERVICE_DEADLINE_MS}, e.g. 20000 (got ${String(options.requestDeadlineMs)})`);
  }
  // Both name the merchant: two shops sharing a secret (one partner key) never accept each other's.
  const tokens = new StatusTokens(secret, client.merchantId, { ttlMs });
  const orderTokens = new OrderTokens(secret, client.merchantId, { ttlMs: orderTtlMs });
  checkTrustProxy(options.trustProxy ?? false);
  if (options.webhookKeyBase64 !== undefined) decodeWebhookKey(options.webhookKeyBase64);
  const store = options.store ?? new MemoryCheckoutStore();
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  if (basePath !== '' && !basePath.startsWith('/')) throw new ConfigurationError(`basePath must start with "/", e.g. /api/checkout (got "${options.basePath}")`);
  const publicOrigin = options.publicUrl === undefined ? undefined : originOf(options.publicUrl, 'publicUrl');
  // The shop's own pages: the request's URL may name another host than the browser used (a proxy
  // in front, or Next.js, which writes its own localhost), so publicUrl is what says who they are.
  const allowedOrigins = new Set([...(options.allowedOrigins ?? []).map((o) => originOf(o, 'allowedOrigins')), ...(publicOrigin ? [publicOrigin] : [])]);
  const returnUrls = returnUrlPolicy(options, allowedOrigins, publicOrigin);
  const methods = options.paymentMethods ?? CHECKOUT_PAYMENT_METHOD_TYPES;
  for (const method of methods) {
    if (!(CHECKOUT_PAYMENT_METHOD_TYPES as readonly string[]).includes(method)) {
      throw new ConfigurationError(`paymentMethods: ${method} is not one of ${CHECKOUT_PAYMENT_METHOD_TYPES.join(', ')}`);
    }
  }
  return {
    options,
    client,
    serviceDeadlineMs,
    requestDeadlineMs,
    tokens,
    orderTokens,
    records: new CheckoutRecords(store),
    limiter: new RateLimiter(store, options),
    webhooks: new WebhookLedger(store, WEBHOOK_DEDUPE_TTL_MS),
    basePath,
    allowedOrigins,
    returnUrls,
    paymentMethods: new Set(methods),
    inFlight: new Map(),
    statusReads: new Map(),
    statusWatches: new Map(),
    settlements: new KeyedQueue(),
    publicOrigin,
  };
}

/** The handler's client, whose header prefix is the handler's too (the webhooks read it). */
function serviceClientOf(options: CheckoutHandlerOptions): ServiceClient {
  const { service, headerPrefix } = options;
  if (headerPrefix !== undefined) {
    try {
      checkHeaderPrefix(headerPrefix);
    } catch (error) {
      throw new ConfigurationError((error as Error).message);
    }
  }
  if (service instanceof ServiceClient) {
    if (headerPrefix !== undefined && headerPrefix.toLowerCase() !== service.headers.prefix.toLowerCase()) {
      throw new ConfigurationError(`headerPrefix "${headerPrefix}" differs from the ServiceClient's "${service.headers.prefix}": leave headerPrefix out, or build the client with the same one`);
    }
    return service;
  }
  const own = service.headerPrefix;
  if (headerPrefix !== undefined && own !== undefined && headerPrefix.toLowerCase() !== own.toLowerCase()) {
    throw new ConfigurationError(`headerPrefix "${headerPrefix}" differs from service.headerPrefix "${own}": set one of them`);
  }
  return new ServiceClient(headerPrefix === undefined ? service : { ...service, headerPrefix });
}

/** A token lifetime option as given; a {@link ConfigurationError} unless it is a positive whole number of milliseconds. */
function checkTtlMs(option: string, ttlMs: number | undefined, example: string): number | undefined {
  if (ttlMs !== undefined && (!Number.isSafeInteger(ttlMs) || ttlMs <= 0)) {
    throw new ConfigurationError(`${option} must be a positive whole number of milliseconds, e.g. ${example} (got ${String(ttlMs)})`);
  }
  return ttlMs;
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
