import { CATALOGUE, DemoOrderError, type CartLine, type DemoOrder, type DemoOrders } from './orders.js';

/**
 * The demo shop's own API, beside the checkout handler:
 *
 *   GET  /api/demo/catalogue            the products
 *   POST /api/demo/orders               a new order, from `{ lines: [{ sku, quantity }] }` or the default cart
 *   GET  /api/demo/orders/{reference}   an order
 *   PUT  /api/demo/orders/{reference}   new quantities: `{ lines }`
 *
 * Amounts are computed here, never taken from the page.
 */
export function createOrderApi(orders: DemoOrders, basePath = '/api/demo') {
  return async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    if (!path.startsWith(basePath)) return problem(404, 'NOT_FOUND', 'no such demo endpoint');
    const rest = path.slice(basePath.length);
    try {
      if (rest === '/catalogue' && request.method === 'GET') return json(200, { data: CATALOGUE });
      if (rest === '/orders' && request.method === 'POST') return json(201, view(orders.create(await linesOf(request, true))));
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
