import type { HttpAnswer } from '../../core/http-call.js';
import { RouteTable, type RouteShape } from '../../core/route-table.js';
import { chargeStatus } from './charge-status.js';
import type { CheckoutContext, RouteCall } from './checkout-context.js';
import { createCharge } from './create-charge.js';
import { orderState } from './order-state.js';
import { receiveWebhook } from './receive-webhook.js';
import { verifySlip } from './verify-slip.js';

/**
 * Who may call a route from a browser page of another origin: `shop`, only the shop's own pages
 * (the request's origin, `publicUrl`'s, or one of `allowedOrigins`; any other is refused 403
 * `ORIGIN_NOT_ALLOWED`); `any`, whatever origin the request carries, for a caller that proves
 * itself otherwise (the service's webhooks, by their signature).
 */
export type RouteOrigin = 'shop' | 'any';

/** One endpoint of the checkout handler: its method, its path under `basePath`, who may call it, and what answers it. */
export interface CheckoutRoute extends RouteShape {
  origin: RouteOrigin;
  /**
   * `request`: answered within the handler's `requestDeadlineMs` (request-deadline.ts); `own`: the
   * route bounds its own wait (a status long-poll, by its `wait`), or is no shopper's (webhooks,
   * which the service retries).
   */
  deadline: 'request' | 'own';
  handle: (context: CheckoutContext, call: RouteCall) => Promise<HttpAnswer>;
}

/** Every endpoint the widget and the service reach; each handler's JSDoc says what it does. */
export const CHECKOUT_ROUTES = new RouteTable<CheckoutRoute>([
  { method: 'POST', path: '/charges', origin: 'shop', deadline: 'request', handle: createCharge },
  { method: 'GET', path: '/charges/:chargeId/status', origin: 'shop', deadline: 'own', handle: chargeStatus },
  { method: 'POST', path: '/charges/:chargeId/slip', origin: 'shop', deadline: 'request', handle: verifySlip },
  { method: 'GET', path: '/orders/:orderReference/state', origin: 'shop', deadline: 'request', handle: orderState },
  // The service's requests may carry any origin; the signature is what proves them.
  { method: 'POST', path: '/webhooks', origin: 'any', deadline: 'own', handle: receiveWebhook },
]);

/**
 * Who may call the path `path` (under `basePath`) from another origin: `any` when a route at that
 * path says so, whatever the method asked (a preflight, a wrong method); `shop` otherwise, and for
 * a path that is no route.
 */
export function originPolicyOf(method: string, path: string): RouteOrigin {
  const match = CHECKOUT_ROUTES.match(method, path);
  if (match.kind === 'found') return match.route.origin;
  if (match.kind !== 'method-not-allowed') return 'shop';
  return match.allowed.some((other) => originPolicyOf(other, path) === 'any') ? 'any' : 'shop';
}
