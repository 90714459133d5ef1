import type { HttpAnswer } from '../../core/http-call.js';
import { RouteTable, type RouteShape } from '../../core/route-table.js';
import { chargeStatus } from './charge-status.js';
import type { CheckoutContext, RouteCall } from './checkout-context.js';
import { createCharge } from './create-charge.js';
import { orderState } from './order-state.js';
import { receiveWebhook } from './receive-webhook.js';
import { verifySlip } from './verify-slip.js';

/** One endpoint of the checkout handler: its method, its path under `basePath`, and what answers it. */
export interface CheckoutRoute extends RouteShape {
  handle: (context: CheckoutContext, call: RouteCall) => Promise<HttpAnswer>;
}

/** Every endpoint the widget and the service reach; each handler's JSDoc says what it does. */
export const CHECKOUT_ROUTES = new RouteTable<CheckoutRoute>([
  { method: 'POST', path: '/charges', handle: createCharge },
  { method: 'GET', path: '/charges/:chargeId/status', handle: chargeStatus },
  { method: 'POST', path: '/charges/:chargeId/slip', handle: verifySlip },
  { method: 'GET', path: '/orders/:orderReference/state', handle: orderState },
  { method: 'POST', path: '/webhooks', handle: receiveWebhook },
]);
