import type { CheckoutIntent, CheckoutPaymentMethodType } from '../../core/schemas/checkout.js';
import type { WebhookEvent } from '../../core/schemas/webhook-events.js';
import type { ServiceClient, ServiceClientOptions } from '../service/service-client.js';
import type { CheckoutStore } from './checkout-store.js';
import type { OrderEvent } from './order-events.js';

/**
 * Why the handler asks `resolveOrder`: `charge` when a shopper pays (the answer is what is
 * charged); `confirm` when a payment of the order succeeded, to check that the order still costs
 * what was paid (a different answer, or null, and that payment is refunded: the order is not paid).
 * On `confirm` the request is the one that brought the news (a webhook, a status read), not the
 * shopper's: price the order from the order itself, not from a session.
 */
export type ResolveOrderPurpose = 'charge' | 'confirm';

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

/**
 * An order already paid, as `resolveOrder` may answer for it: the payment `onOrder` named in
 * `order.paid` (`event.chargeId`; for the authorize intent, `order.authorized`'s). A charge
 * request for it is answered 409 `ORDER_ALREADY_PAID`; a success the handler must settle without
 * its store's memory of the order (a restart of the in-memory store, an eviction, a wiped Redis)
 * keeps this payment and refunds any other, so a payment the shop was told paid the order is never
 * the one given back.
 */
export interface PaidOrder {
  paidBy: string;
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

/**
 * `returnUrls` of {@link CheckoutHandlerOptions}: where a redirect payment may bring the shopper
 * back besides the shop's pages, e.g. `{ schemes: ['myshop'], origins: ['https://app.shop.example'] }`.
 */
export interface ReturnUrlOptions {
  /**
   * Exact origins (`https://app.shop.example`: a scheme, a host, a port when not the default, and
   * nothing else), any page of which may be returned to: where an app's universal links live. No
   * wildcards, paths or credentials; a lookalike (`https://app.shop.example.evil.example`, another
   * port, `http` for `https`) is another origin and refused.
   */
  origins?: readonly string[];
  /**
   * An app's own URL schemes, written alone (`myshop` for `myshop://paid`, `com.shop.app`), any URL
   * of which may be returned to. Never a scheme the browser or the system handles (`http`,
   * `https`, `javascript`, `data`, `file`, `intent`…: `RESERVED_URL_SCHEMES` of `satang/core`).
   */
  schemes?: readonly string[];
}

export interface CheckoutHandlerOptions {
  /** How to reach the service: client options (the key stays on this server), or a client. */
  service: ServiceClientOptions | ServiceClient;
  /**
   * Prefix of the service's headers, for the calls the handler makes and the webhooks it reads
   * (`<prefix>Signature`, `<prefix>Event`): `X-Beam-`, the live service's, by default. Set it only
   * to talk to a service or sandbox that spells them otherwise (`X-Service-`). With a
   * `ServiceClient`, leave it out (the client's is used) or give the same.
   */
  headerPrefix?: string;
  /**
   * Turns the shopper's order reference into the amount to charge. Answer `null` for an order
   * that does not exist or cannot be paid (404 to the browser), and `{ paidBy }` for one already
   * paid (the `chargeId` that `order.paid` named; 409 `ORDER_ALREADY_PAID` to the browser). Asked
   * again to confirm a success, that answer is what settles a payment of an order whose record
   * the store has lost (a restart of the in-memory store, an eviction past its cap): the payment
   * named stays paid and any other is refunded. `null` for a paid order refunds a second payment
   * too, but then the service's first success is kept, which may not be the one you were told of.
   * `request` is the shopper's (or, on `confirm`, the one that brought the news), for its headers
   * (a session cookie) and URL; its body is the handler's and already read.
   */
  resolveOrder: (
    orderReference: string,
    context: { request: Request; purpose: ResolveOrderPurpose },
  ) => ResolvedOrder | PaidOrder | null | undefined | Promise<ResolvedOrder | PaidOrder | null | undefined>;
  /**
   * The shop's own public address, e.g. `https://shop.example`: a `returnUrl` (where a redirect
   * payment comes back) must be a page of this origin, of `allowedOrigins`, or what `returnUrls`
   * allows. Never taken from the request's Host header, which the caller writes.
   * Pages of this origin may call the handler, whatever host the request's URL names: behind a
   * proxy, and in Next.js (whose route handlers get `http://localhost:<port>/…`), that URL is not
   * the address the shopper's browser used.
   */
  publicUrl?: string;
  /** Where the handler is mounted, e.g. `/api/checkout`. */
  basePath?: string;
  /**
   * Origins of pages allowed to call the handler from another origin (CORS). `publicUrl`'s origin
   * is always allowed, as is the origin of the request's own URL.
   */
  allowedOrigins?: readonly string[];
  /**
   * Where else a `returnUrl` may send the shopper back after a redirect payment (3-D Secure, a
   * wallet, a banking app), besides `publicUrl`'s origin and `allowedOrigins`: the shop's mobile
   * app, by the origins of its universal links (App Links on Android) or by its own URL schemes.
   * Checked when the handler is created (a `ConfigurationError` says what to write). See
   * {@link ReturnUrlOptions}.
   */
  returnUrls?: ReturnUrlOptions;
  /** @deprecated The older spelling of `returnUrls.origins`; taken, and checked, the same way. */
  returnUrlOrigins?: readonly string[];
  /** The methods shoppers may use; all of them by default. */
  paymentMethods?: readonly CheckoutPaymentMethodType[];
  /** Secret of the status tokens; by default derived from the API key. Share it across instances. */
  statusTokenSecret?: string;
  /**
   * How long a status token (handed to the browser that created a payment) is accepted, in ms;
   * {@link STATUS_TOKEN_TTL_MS} by default. A page still following a payment after that is
   * answered `403 STATUS_TOKEN_EXPIRED` and asked to reload. Set it longer than the longest a
   * shopper may take to pay (a QR's validity, a bank's redirect); it applies to tokens signed from
   * then on.
   */
  statusTokenTtlMs?: number;
  /**
   * How long an order token (`handler.orderToken(orderReference)`, rendered into the page so it
   * can read its order's state) is accepted, in ms; {@link ORDER_TOKEN_TTL_MS} by default. Signed
   * with the status tokens' secret. A page older than that is answered
   * `403 ORDER_TOKEN_EXPIRED` and asked to reload, which renders a fresh token. It applies to
   * tokens signed from then on.
   */
  orderTokenTtlMs?: number;
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
  /**
   * What became of an order, once per payment the handler started (see {@link OrderEvent}): mark an
   * order paid on `order.paid`, and only then. Called when the success is first learnt, from a
   * webhook (a throw answers 500, so the service retries and it is called again) or from the
   * shopper's status read (a throw is logged, and it is called again on the next read or webhook).
   * Once it returned, it is not called again for that payment while the store remembers it
   * ({@link ORDER_RECORD_TTL_MS}).
   */
  onOrder?: (event: OrderEvent) => void | Promise<void>;
  /**
   * Shared state; in memory by default (one process). Behind a load balancer, give every instance
   * a store on one Redis (`RedisCheckoutStore` from `satang/server/redis`) and the same
   * `statusTokenSecret`. A store that cannot answer makes the request a 503 (`CheckoutStoreError`).
   */
  store?: CheckoutStore;
  /**
   * Per-client fixed-window limits, or `false` to leave limiting to the platform. Slip checks
   * (`POST /charges/{id}/slip`) have a window of their own, of `chargesPerWindow`. A client is
   * told apart by `getClientId`'s answer, else by its address: the socket's on node:http and Express
   * (`toNodeListener`), the handler's second argument on a Fetch mount
   * (`checkout(request, { clientAddress })`), looked past as far as `trustProxy` allows. A limited
   * request whose client none of them names (a Fetch mount given no address, with no `getClientId`
   * answer and no `trustProxy`) is answered 500 with a message naming these fixes, and told once
   * in the server's log, rather than counted with every other shopper's: this is found at the
   * first such request, since the mount is not known when the handler is made. `false` turns the
   * limits off, and that check with them.
   */
  rateLimit?: false | { windowMs?: number; chargesPerWindow?: number; statusPerWindow?: number };
  /**
   * Who the caller is, for rate limits (a signed-in account, say); when it answers a non-empty
   * string, neither the address nor `trustProxy` is consulted, and `undefined` leaves the client
   * to its address. To hand a Fetch mount the client's address, pass it to the handler
   * (`checkout(request, { clientAddress })`) rather than through this.
   */
  getClientId?: (request: Request) => string | undefined;
  /**
   * Which `X-Forwarded-For` entries to believe when telling clients apart for rate limits. The
   * header is written by whoever sent the request, so by default (`false`) it is ignored and the
   * client is the socket address: the one the Node adapter saw, or the `clientAddress` the host
   * handed the handler. Behind proxies you run:
   * - a number N: there are exactly N proxies in front of this server; the client is the address N
   *   hops in from the right of `X-Forwarded-For` (the socket counting as the last hop), or the
   *   leftmost entry when there are fewer;
   * - a list of the proxies' addresses and CIDR ranges, IPv4 or IPv6 (e.g.
   *   `['10.0.0.0/8', '127.0.0.1', '::1']`): from the socket leftwards, trusted addresses are
   *   skipped and the first untrusted one is the client.
   * An entry that is not an IP address ends the walk (the client is the last address before it):
   * nothing a client wrote is believed beyond it. On a Fetch mount given no address (Next.js
   * route handlers), the rightmost entry, which the platform's proxy wrote, is the first hop.
   * Never set it when clients reach this server directly, or each request can claim to come from a
   * new client: `next start` facing the internet is such a server, since Next.js keeps an
   * `X-Forwarded-For` the client wrote and writes the socket's address only when there is none.
   */
  trustProxy?: false | number | readonly string[];
  /** Largest body of `POST /charges`. */
  maxBodyBytes?: number;
  /**
   * How often the long-polls of a payment ask the service when no webhook arrives:
   * {@link STATUS_POLL_INTERVAL_MS} without webhooks; with `webhookKeyBase64` set, webhooks wake
   * the long-polls and this is only the fallback, a random 15 to 30 s each time unless set. The
   * poll is per payment on each instance, not per shopper waiting, and wakes them only with news;
   * across instances sharing a store, the service is asked about a payment at most once per
   * {@link STATUS_READ_REUSE_MS}. At least {@link MIN_STATUS_POLL_INTERVAL_MS}.
   */
  statusPollIntervalMs?: number;
  /**
   * The longest one call of the handler to the service may take, its retries and their backoff
   * included, in ms; {@link SERVICE_DEADLINE_MS} by default. A shopper paying is never held longer
   * by a service that does not answer: `POST /charges` then answers `503 UPSTREAM_UNAVAILABLE`
   * (retryable; a retry under the same idempotency key makes one charge), and a status long-poll
   * answers the status it last knew when its `wait` is over, whatever this deadline. Each attempt
   * still has the client's own `timeoutMs`. A whole number, at least {@link MIN_SERVICE_DEADLINE_MS}.
   * See docs/server-deadlines.md.
   */
  serviceDeadlineMs?: number;
  /**
   * How long one shopper request (`POST /charges`, a slip, the order's state) may take, every call
   * to the service and the store in it included, in ms; {@link REQUEST_DEADLINE_MS} by default.
   * Each service call of the request is given what is left of it (at most `serviceDeadlineMs`). At
   * the deadline the request is answered `503 UPSTREAM_UNAVAILABLE` (retryable, `Retry-After: 1`):
   * what was under way goes on and is kept, so the retry (a charge under the same idempotency key)
   * learns it. Status long-polls keep their own deadline (their `wait`). A whole number, at least
   * {@link MIN_SERVICE_DEADLINE_MS}. See docs/server-deadlines.md.
   */
  requestDeadlineMs?: number;
  log?: (entry: CheckoutLogEntry) => void;
}

/**
 * How long the handler remembers each payment it started (its order and approved amount), its
 * outcome, and which payment paid each order: far past any time a late payment of an abandoned QR
 * could still arrive.
 */
export const ORDER_RECORD_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Default of `maxBodyBytes`: a charge or slip request is a few hundred bytes. */
export const CHECKOUT_MAX_BODY_BYTES = 16 * 1024;
/**
 * Largest webhook delivery read; a longer one is refused with 413 before anything parses it. The
 * largest resource the service sends (a payment link with its items) is a few kilobytes.
 */
export const WEBHOOK_MAX_BODY_BYTES = 64 * 1024;
/** Default of `serviceDeadlineMs`: about as long as a shopper waits on a payment button before leaving or clicking again. */
export const SERVICE_DEADLINE_MS = 15_000;
/**
 * Default of `requestDeadlineMs`: a shopper's press of pay is answered within 20 s, however many
 * calls its answer needs.
 */
export const REQUEST_DEADLINE_MS = 20_000;
/** Least `serviceDeadlineMs` taken: a healthy service answers a charge in well under a second. */
export const MIN_SERVICE_DEADLINE_MS = 100;
/**
 * How long past its `wait` a status long-poll may take to answer: the time its last read of the
 * service (or of the store) is given before the status last known is answered instead.
 */
export const STATUS_ANSWER_MARGIN_MS = 750;
/** Least `statusPollIntervalMs` taken. */
export const MIN_STATUS_POLL_INTERVAL_MS = 10;
/** Default of `statusPollIntervalMs` without webhooks. */
export const STATUS_POLL_INTERVAL_MS = 2_000;
/** The fallback poll of a long-poll when webhooks wake it: a random time in this range, so waits do not poll in step. */
export const STATUS_FALLBACK_POLL_MS = { min: 15_000, max: 30_000 } as const;
/**
 * A PENDING status read from the service answers every read of that payment for this long, on
 * every instance sharing the store; reads under way are shared too. So 1,000 shoppers waiting on
 * 10 payments cost at most 10 reads a second.
 */
export const STATUS_READ_REUSE_MS = 1_000;
/** Defaults of `rateLimit`. */
export const RATE_LIMIT_WINDOW_MS = 60_000;
export const RATE_LIMIT_CHARGES_PER_WINDOW = 30;
export const RATE_LIMIT_STATUS_PER_WINDOW = 300;
/**
 * How long a handled webhook state, and the newest state of each resource, are remembered to drop
 * duplicates and older states; an event whose `updatedAt` is older than this is acknowledged
 * without handling (only a replay is that old: the service stops retrying within minutes).
 */
export const WEBHOOK_DEDUPE_TTL_MS = 3 * 24 * 60 * 60 * 1000;
/**
 * Default of `statusTokenTtlMs`: as long as the browser keeps a payment to resume after a redirect
 * (the client's saved attempt), so a resumed payment's token is still accepted.
 */
export const STATUS_TOKEN_TTL_MS = 60 * 60 * 1000;
/** How long a final status learnt from a webhook or a read is kept. */
export const STATUS_CACHE_TTL_MS = 60 * 60 * 1000;
/**
 * Default of `orderTokenTtlMs`: a day, longer than a shopper keeps a checkout page open, and as
 * long as an open attempt holds its order (`ATTEMPT_OPEN_TTL_MS`).
 */
export const ORDER_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
