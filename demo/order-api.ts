import { cancelAuthorization, captureAuthorization, ServiceError, type ServiceClient } from '../src/server/index.js';
import { CATALOGUE, DemoOrderError, type CartLine, type DemoOrder, type DemoOrders } from './orders.js';

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
export function createOrderApi(orders: DemoOrders, client: ServiceClient, basePath = '/api/demo') {
  return async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    if (!path.startsWith(basePath)) return problem(404, 'NOT_FOUND', 'no such demo endpoint');
    const rest = path.slice(basePath.length);
    try {
      if (rest === '/catalogue' && request.method === 'GET') return json(200, { data: CATALOGUE });
      if (rest === '/orders' && request.method === 'POST') return json(201, view(orders.create(await linesOf(request, true))));
      const action = /^\/orders\/([\w-]{1,80})\/(capture|cancel)$/.exec(rest);
      if (action) {
        if (request.method !== 'POST') return problem(405, 'METHOD_NOT_ALLOWED', 'use POST');
        return await settle(orders, client, action[1]!, action[2] as 'capture' | 'cancel');
      }
      const match = /^\/orders\/([\w-]{1,80})$/.exec(rest);
      if (match) {
        const reference = match[1]!;
        if (request.method === 'GET') {
          const order = orders.get(reference);
          return order ? json(200, view(order)) : problem(404, 'ORDER_NOT_FOUND', `no order ${reference}`);
        }
        if (request.method === 'PUT') {
          const order = orders.update(reference, (await linesOf(request, false))!);
          return order ? json(200, view(order)) : problem(404, 'ORDER_NOT_FOUND', `no order ${reference}`);
        }
        return problem(405, 'METHOD_NOT_ALLOWED', 'use GET or PUT');
      }
      return problem(404, 'NOT_FOUND', 'no such demo endpoint');
    } catch (error) {
      if (error instanceof DemoOrderError) return problem(400, 'INVALID_CART', error.message);
      throw error;
    }
  };
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
  return json(200, view(order));
}

async function linesOf(request: Request, optional: boolean): Promise<CartLine[] | undefined> {
  const text = await request.text();
  if (text.length > 10_000) throw new DemoOrderError('the cart is too large');
  if (text.trim() === '' && optional) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new DemoOrderError('the body must be JSON: { "lines": [{ "sku": "...", "quantity": 1 }] }');
  }
  const lines = (body as { lines?: unknown } | null)?.lines;
  if (lines === undefined && optional) return undefined;
  if (!Array.isArray(lines)) throw new DemoOrderError('lines must be a list of { sku, quantity }');
  return lines as CartLine[];
}

function view(order: DemoOrder) {
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
