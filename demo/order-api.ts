import { cancelAuthorization, captureAuthorization, ServiceError, type ServiceClient } from '../src/server/index.js';
import { RouteTable, type HttpMethod, type PathParams, type RouteShape } from '../src/core/route-table.js';
import { CATALOGUE, DemoOrderError, type DemoOrder, type DemoOrders } from './orders.js';

/**
 * The demo shop's own API, beside the checkout handler:
 *
 *   GET  /api/demo/catalogue            the products
 *   POST /api/demo/orders               a new order, from `{ lines: [{ sku, quantity }] }` or the default cart
 *   GET  /api/demo/orders/{reference}   an order
 *   PUT  /api/demo/orders/{reference}   new quantities: `{ lines }`
 *   POST /api/demo/orders/{reference}/capture   charge a reserved pre-order (it ships)
 *   POST /api/demo/orders/{reference}/cancel    release a reserved pre-order
 *
 * Capture and cancel stand in for the shop's back office: a real shop would not let shoppers
 * call them. They act on the authorization the service's webhook named for the order.
 * Amounts are computed here, never taken from the page.
 */
export function createOrderApi(
  orders: DemoOrders,
  client: ServiceClient,
  orderToken?: (orderReference: string) => Promise<string>,
  basePath = '/api/demo',
) {
  // Each order goes to the page with its token (from the checkout handler), for `<satang-checkout order-token>`.
  const view = async (order: DemoOrder) => ({ ...orderView(order), ...(orderToken ? { orderToken: await orderToken(order.orderReference) } : {}) });
  const routes = new RouteTable<OrderRoute>([
    route('GET', '/catalogue', () => json(200, { data: CATALOGUE })),
    route('POST', '/orders', async (request) => json(201, await view(orders.create(await linesOf(request))))),
    route('GET', '/orders/:reference', async (_request, { reference }) => {
      const order = orders.get(reference);
      return order ? json(200, await view(order)) : problem(404, 'ORDER_NOT_FOUND', `no order ${reference}`);
    }),
    route('PUT', '/orders/:reference', async (request, { reference }) => {
      const lines = await linesOf(request);
      if (!lines) throw new DemoOrderError('lines must be a list of { sku, quantity }');
      const order = orders.update(reference, lines);
      return order ? json(200, await view(order)) : problem(404, 'ORDER_NOT_FOUND', `no order ${reference}`);
    }),
    route('POST', '/orders/:reference/capture', (_request, { reference }) => settle(orders, client, reference, 'capture')),
    route('POST', '/orders/:reference/cancel', (_request, { reference }) => settle(orders, client, reference, 'cancel')),
  ]);
  return async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    const match = path.startsWith(basePath) ? routes.match(request.method, path.slice(basePath.length)) : undefined;
    if (match?.kind === 'method-not-allowed') return problem(405, 'METHOD_NOT_ALLOWED', `use ${match.allowed.join(' or ')}`);
    if (match?.kind !== 'found') return problem(404, 'NOT_FOUND', 'no such demo endpoint');
    try {
      return await match.route.answer(request, match.params);
    } catch (error) {
      if (error instanceof DemoOrderError) return problem(400, 'INVALID_CART', error.message);
      throw error;
    }
  };
}

interface OrderRoute extends RouteShape {
  answer: (request: Request, params: Record<string, string>) => Promise<Response> | Response;
}

/** A route whose answer is handed the parameters its path names, by name. */
function route<Path extends string>(method: HttpMethod, path: Path, answer: (request: Request, params: PathParams<Path>) => Promise<Response> | Response): OrderRoute {
  // A found match sets every parameter its path names.
  return { method, path, answer: (request, params) => answer(request, params as PathParams<Path>) };
}

/** Captures or cancels the authorization of a pre-order, once. */
async function settle(orders: DemoOrders, client: ServiceClient, reference: string, action: 'capture' | 'cancel'): Promise<Response> {
  const order = orders.get(reference);
  if (!order) return problem(404, 'ORDER_NOT_FOUND', `no order ${reference}`);
  if (order.intent !== 'authorize') return problem(409, 'NOT_A_PRE_ORDER', 'this order was charged at checkout: there is nothing to capture');
  if (!order.authorizedBy) return problem(409, 'NOT_AUTHORIZED_YET', 'the card has not been authorized for this order (yet)');
  if (order.settled) return problem(409, 'ALREADY_SETTLED', `this pre-order was already ${order.settled}`);
  try {
    if (action === 'capture') {
      const { chargeId } = await captureAuthorization(client, order.authorizedBy, { idempotencyKey: `capture-${reference}` });
      order.settled = 'captured';
      order.paidBy = chargeId;
    } else {
      await cancelAuthorization(client, order.authorizedBy, { idempotencyKey: `cancel-${reference}` });
      order.settled = 'canceled';
    }
  } catch (error) {
    if (error instanceof ServiceError) return problem(502, error.errorCode, error.message);
    throw error;
  }
  return json(200, orderView(order));
}

/** The `lines` of a JSON body as sent (pricing checks each one), or undefined when it has none. */
async function linesOf(request: Request): Promise<unknown[] | undefined> {
  const text = await request.text();
  if (text.length > 10_000) throw new DemoOrderError('the cart is too large');
  if (text.trim() === '') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new DemoOrderError('the body must be JSON: { "lines": [{ "sku": "...", "quantity": 1 }] }');
  }
  const lines = (body as { lines?: unknown } | null)?.lines;
  if (lines === undefined) return undefined;
  if (!Array.isArray(lines)) throw new DemoOrderError('lines must be a list of { sku, quantity }');
  return lines as unknown[];
}

function orderView(order: DemoOrder) {
  return {
    orderReference: order.orderReference,
    intent: order.intent,
    ...(order.authorizedBy ? { authorizedBy: order.authorizedBy } : {}),
    ...(order.settled ? { settled: order.settled } : {}),
    ...(order.paidBy ? { paidBy: order.paidBy } : {}),
    amount: order.amountSatang,
    currency: order.currency,
    lines: order.lines.map(({ sku, quantity, product, totalSatang }) => ({ sku, quantity, name: product.name, nameTh: product.nameTh, unitPrice: product.priceSatang, total: totalSatang })),
  };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } });
}

function problem(status: number, code: string, message: string): Response {
  return json(status, { code: status, message, error: { errorCode: code, errorMessage: message } });
}
