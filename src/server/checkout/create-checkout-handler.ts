import { CHECKOUT_IDEMPOTENCY_HEADER, CHECKOUT_STATUS_TOKEN_HEADER } from '../../core/schemas/checkout.js';
import { createCheckoutContext, type CheckoutContext } from './checkout-context.js';
import { CheckoutError } from './checkout-error.js';
import type { CheckoutHandlerOptions, CheckoutLogEntry } from './checkout-options.js';
import { CHECKOUT_ROUTES } from './routes.js';

const ALLOWED_REQUEST_HEADERS = ['content-type', CHECKOUT_IDEMPOTENCY_HEADER.toLowerCase(), CHECKOUT_STATUS_TOKEN_HEADER.toLowerCase()].join(', ');

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
 * The routes are the table in `./routes.ts`, one file per route. Throws a
 * {@link ConfigurationError} at once when an option is missing or wrong.
 */
export function createCheckoutHandler(options: CheckoutHandlerOptions): (request: Request) => Promise<Response> {
  const context = createCheckoutContext(options);
  return async (request) => {
    const started = Date.now();
    const url = new URL(request.url);
    const entry: CheckoutLogEntry = { method: request.method, path: url.pathname, status: 0, durationMs: 0 };
    const origin = request.headers.get('origin');
    const crossOrigin = origin !== null && origin !== url.origin;
    let response: Response;
    try {
      // Webhooks come from the service, whose requests may carry any origin.
      if (crossOrigin && !context.allowedOrigins.has(origin) && !url.pathname.endsWith('/webhooks')) {
        throw new CheckoutError(403, 'ORIGIN_NOT_ALLOWED', 'This page is not allowed to use this checkout.');
      }
      response = await route(context, request, url, entry);
    } catch (error) {
      response = errorResponse(context, error, entry, request.signal.aborted);
    }
    if (crossOrigin && context.allowedOrigins.has(origin)) {
      response.headers.set('access-control-allow-origin', origin);
      response.headers.append('vary', 'Origin');
    }
    entry.status = response.status;
    entry.durationMs = Date.now() - started;
    context.options.log?.(entry);
    return response;
  };
}

async function route(context: CheckoutContext, request: Request, url: URL, entry: CheckoutLogEntry): Promise<Response> {
  if (!url.pathname.startsWith(`${context.basePath}/`)) throw new CheckoutError(404, 'NOT_FOUND', 'No such checkout endpoint.');
  if (request.method === 'OPTIONS') {
    return new Response(null, {
      status: 204,
      headers: { 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': ALLOWED_REQUEST_HEADERS, 'access-control-max-age': '600', vary: 'Origin' },
    });
  }
  const match = CHECKOUT_ROUTES.match(request.method, url.pathname.slice(context.basePath.length));
  switch (match.kind) {
    case 'found':
      return match.route.handle(context, { request, url, params: match.params, entry });
    case 'method-not-allowed':
      throw new CheckoutError(405, 'METHOD_NOT_ALLOWED', `Use ${match.allowed.join(' or ')} here.`, { headers: { allow: match.allowed.join(', ') } });
    case 'malformed':
      // The only parameters are payment ids, each guarded by its status token: an id that is not
      // even valid percent-encoding was never given one.
      throw new CheckoutError(403, 'INVALID_STATUS_TOKEN', 'This payment cannot be looked up from here.');
    case 'not-found':
      throw new CheckoutError(404, 'NOT_FOUND', 'No such checkout endpoint.');
  }
}

/** The error's answer; `clientGone` when the caller left first, which is worth no console line. */
function errorResponse(context: CheckoutContext, error: unknown, entry: CheckoutLogEntry, clientGone: boolean): Response {
  const refusal =
    error instanceof CheckoutError
      ? error
      : new CheckoutError(500, 'INTERNAL_ERROR', 'Something went wrong on the shop’s side. Please try again.', { retryable: true, cause: error });
  entry.errorCode = refusal.code;
  if (refusal.serviceRequestId) entry.serviceRequestId = refusal.serviceRequestId;
  if (refusal.status >= 500) {
    entry.error = refusal.cause ?? refusal;
    if (!context.options.log && !clientGone) console.error(`satang checkout: ${refusal.code}`, refusal.cause ?? refusal);
  }
  return refusal.toResponse();
}
