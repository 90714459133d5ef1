import { CALL_HANDLER, type CallHandler, type HttpAnswer, type HttpCall } from '../../core/http-call.js';
import { CHECKOUT_IDEMPOTENCY_HEADER, CHECKOUT_ORDER_TOKEN_HEADER, CHECKOUT_STATUS_TOKEN_HEADER } from '../../core/schemas/checkout.js';
import { ConfigurationError } from '../errors.js';
import { createCheckoutContext, type CheckoutContext } from './checkout-context.js';
import { CheckoutError } from './checkout-error.js';
import { callOfRequest, responseOf } from './fetch-call.js';
import type { CheckoutHandlerOptions, CheckoutLogEntry } from './checkout-options.js';
import { CHECKOUT_ROUTES, originPolicyOf, type RouteOrigin } from './routes.js';
import { withinRequestDeadline } from './request-deadline.js';

const ALLOWED_REQUEST_HEADERS = ['content-type', CHECKOUT_IDEMPOTENCY_HEADER, CHECKOUT_STATUS_TOKEN_HEADER, CHECKOUT_ORDER_TOKEN_HEADER]
  .map((name) => name.toLowerCase())
  .join(', ');

/**
 * What the host knows of the connection a request came on and the request does not carry: the
 * checkout handler's second argument on a Fetch mount (Hono, Deno, Bun, Workers). On node:http and
 * Express (`toNodeListener`) the adapter hands the socket address over itself.
 */
export interface CheckoutConnection {
  /**
   * The client's address as the host saw it: the socket's remote address (on Hono,
   * `getConnInfo(c).remote.address`), or the address the platform vouches for (Cloudflare's
   * `CF-Connecting-IP` on Workers). Never a header any client may write (`X-Forwarded-For`: that
   * is `trustProxy`'s). Rate limits count each address apart and look past it into
   * `X-Forwarded-For` only as far as `trustProxy` allows, as with a socket on node:http.
   * `undefined`, `null` or `''`: not known.
   */
  clientAddress?: string | null | undefined;
}

/**
 * The checkout handler: a Fetch handler (`(Request, connection?) => Promise<Response>`) to mount at
 * `basePath`, and what the merchant's own pages need of it. On a Fetch mount, hand it the client's
 * address as `connection` (see {@link CheckoutConnection}), or rate limits refuse to guess.
 */
export type CheckoutHandler = ((request: Request, connection?: CheckoutConnection) => Promise<Response>) & {
  /**
   * The order token of the order a checkout page shows (its `orderReference`, as the page gives it
   * to `<satang-checkout order-reference>`): render it into the page as
   * `<satang-checkout order-token="…">`, so the page can read where its order stands
   * (`GET {basePath}/orders/{orderReference}/state`) when it loads, and every tab of the order
   * agrees. Sign it when rendering the page; it is accepted for `orderTokenTtlMs` (a day by
   * default) by every instance sharing the status token secret. Rejects with a RangeError for an
   * empty reference or one longer than 255 characters.
   */
  orderToken(orderReference: string): Promise<string>;
};


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
 * - `GET {basePath}/orders/{orderReference}/state`: where the order stands (open, paying, paid,
 *   refunded), for the holder of its order token (`handler.orderToken(orderReference)`).
 * - `POST {basePath}/webhooks`: the service's signed webhooks.
 *
 * The routes are the table in `./routes.ts`, one file per route. Throws a
 * {@link ConfigurationError} at once when an option is missing or wrong. Whether rate limits can
 * tell clients apart depends on the mount, which is known only when a request comes: a limited
 * route called with no way to tell (no socket, no `clientAddress`, no `getClientId` answer, no
 * usable `trustProxy`) answers 500 naming the fix, told once in the server's log.
 */
export function createCheckoutHandler(options: CheckoutHandlerOptions): CheckoutHandler {
  const context = createCheckoutContext(options);
  const handleCall: CallHandler = (call) => answerCall(context, call);
  const handler: CheckoutHandler = Object.assign(async (request: Request, connection?: CheckoutConnection) => responseOf(await handleCall(callOfRequest(request, clientAddressOf(connection)))), {
    orderToken: (orderReference: string) => context.orderTokens.sign(orderReference),
  });
  // The way in for `toNodeListener`, which then builds no Fetch objects for a node:http request.
  Object.defineProperty(handler, CALL_HANDLER, { value: handleCall });
  return handler;
}

/**
 * The client address of the handler's second argument. Hosts pass other things there (Next.js its
 * route's `{ params }`, Workers `env`, Deno its `info`): only a `clientAddress` member is read;
 * `undefined`, `null` and `''` say the address is unknown, and anything else but a string is a
 * set-up mistake, thrown as such.
 */
function clientAddressOf(connection: unknown): string | undefined {
  if (typeof connection !== 'object' || connection === null || !('clientAddress' in connection)) return undefined;
  const { clientAddress } = connection;
  if (clientAddress === undefined || clientAddress === null || clientAddress === '') return undefined;
  if (typeof clientAddress === 'string') return clientAddress;
  throw new ConfigurationError(`clientAddress must be the client's IP address as a string, e.g. getConnInfo(c).remote.address on Hono (got ${typeof clientAddress})`);
}

/** Handlers whose set-up fault, found at a request, was told in the server's log: it is told once. */
const toldSetUpFault = new WeakSet<CheckoutContext>();

/**
 * One call's answer, logged. Promise callbacks rather than an async function, which a held
 * long-poll would keep suspended (each held request costs what its suspended frames hold).
 */
function answerCall(context: CheckoutContext, call: HttpCall): Promise<HttpAnswer> {
  const started = Date.now();
  const entry: CheckoutLogEntry = { method: call.method, path: call.pathname, status: 0, durationMs: 0 };
  const origin = call.header('origin');
  const crossOrigin = origin !== null && origin !== call.origin;
  let routed: Promise<HttpAnswer>;
  try {
    // Each route says who may call it from another origin (routes.ts); a path outside the table is the shop's.
    if (crossOrigin && !context.allowedOrigins.has(origin) && routeOrigin(context, call) !== 'any') {
      throw new CheckoutError(403, 'ORIGIN_NOT_ALLOWED', 'This page is not allowed to use this checkout.');
    }
    routed = dispatchToRoute(context, call, entry);
  } catch (error) {
    // Whatever was thrown, as the route's own rejection would carry it.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    routed = Promise.reject(error);
  }
  const finish = (response: HttpAnswer): HttpAnswer => {
    if (crossOrigin && context.allowedOrigins.has(origin)) {
      response.headers['access-control-allow-origin'] = origin;
      const vary = response.headers.vary;
      response.headers.vary = vary === undefined ? 'Origin' : `${vary}, Origin`;
    }
    entry.status = response.status;
    entry.durationMs = Date.now() - started;
    context.options.log?.(entry);
    return response;
  };
  return routed.then(finish, (error: unknown) => finish(errorAnswer(context, error, entry, call.gone)));
}

/** Who may call the route `call` asks for from another origin (see `RouteOrigin`). */
function routeOrigin(context: CheckoutContext, call: HttpCall): RouteOrigin {
  const { pathname } = call;
  if (!pathname.startsWith(`${context.basePath}/`)) return 'shop';
  return originPolicyOf(call.method, pathname.slice(context.basePath.length));
}

/** The route's answer; throws (at once or later) what is refused. */
function dispatchToRoute(context: CheckoutContext, call: HttpCall, entry: CheckoutLogEntry): Promise<HttpAnswer> {
  const { pathname } = call;
  if (!pathname.startsWith(`${context.basePath}/`)) throw new CheckoutError(404, 'NOT_FOUND', 'No such checkout endpoint.');
  if (call.method === 'OPTIONS') {
    return Promise.resolve({
      status: 204,
      body: null,
      headers: { 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': ALLOWED_REQUEST_HEADERS, 'access-control-max-age': '600', vary: 'Origin' },
    });
  }
  const match = CHECKOUT_ROUTES.match(call.method, pathname.slice(context.basePath.length));
  switch (match.kind) {
    case 'found': {
      const { route, params } = match;
      const handle = () => route.handle(context, { call, params, entry });
      return route.deadline === 'request' ? withinRequestDeadline(context, call, handle) : handle();
    }
    case 'method-not-allowed':
      throw new CheckoutError(405, 'METHOD_NOT_ALLOWED', `Use ${match.allowed.join(' or ')} here.`, { headers: { allow: match.allowed.join(', ') } });
    case 'malformed':
      // Every parameter is guarded by a token (a payment id by its status token, an order by its
      // order token): one that is not even valid percent-encoding was never given one.
      if (match.parameter === 'orderReference') throw new CheckoutError(403, 'INVALID_ORDER_TOKEN', 'This order cannot be looked up from here.');
      throw new CheckoutError(403, 'INVALID_STATUS_TOKEN', 'This payment cannot be looked up from here.');
    case 'not-found':
      throw new CheckoutError(404, 'NOT_FOUND', 'No such checkout endpoint.');
  }
}

/** The error's answer; `clientGone` when the caller left first, which is worth no console line. */
function errorAnswer(context: CheckoutContext, error: unknown, entry: CheckoutLogEntry, clientGone: boolean): HttpAnswer {
  const refusal =
    error instanceof CheckoutError
      ? error
      : new CheckoutError(500, 'INTERNAL_ERROR', 'Something went wrong on the shop’s side. Please try again.', { retryable: true, cause: error });
  entry.errorCode = refusal.code;
  if (refusal.serviceRequestId) entry.serviceRequestId = refusal.serviceRequestId;
  if (refusal.status >= 500) {
    entry.error = refusal.cause ?? refusal;
    if (refusal.cause instanceof ConfigurationError) {
      // The shop's set-up, not the request (a mount that cannot tell clients apart): said once,
      // whatever `log` does with the entries, and answered so on every request until it is fixed.
      if (!toldSetUpFault.has(context)) console.error(`satang checkout: ${refusal.cause.message}`);
      toldSetUpFault.add(context);
    } else if (!context.options.log && !clientGone) {
      console.error(`satang checkout: ${refusal.code}`, refusal.cause ?? refusal);
    }
  }
  return refusal.toAnswer();
}
