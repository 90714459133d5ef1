import type { CheckoutIntent } from '../src/core/schemas/checkout.js';
import type { PaidOrder, ResolvedOrder } from '../src/server/index.js';

/**
 * The demo shop's catalogue and carts. Carts live on the server, as in a real shop: the page
 * sends which products and how many, and the server prices them. The checkout handler asks
 * {@link DemoOrders.resolve} for the amount of an order when the shopper pays.
 */

export interface Product {
  sku: string;
  name: string;
  nameTh: string;
  /** Unit price in satang. */
  priceSatang: number;
}

export const CATALOGUE: readonly Product[] = [
  { sku: 'silk-scarf', name: 'Thai silk scarf', nameTh: 'ผ้าพันคอไหมไทย', priceSatang: 129_000 },
  { sku: 'jasmine-tea', name: 'Jasmine tea, 100 g', nameTh: 'ชามะลิ 100 กรัม', priceSatang: 24_500 },
  { sku: 'celadon-bowl', name: 'Celadon bowl', nameTh: 'ชามเซลาดอน', priceSatang: 89_000 },
];

export interface CartLine {
  sku: string;
  quantity: number;
}

export interface DemoOrder {
  orderReference: string;
  lines: (CartLine & { product: Product; totalSatang: number })[];
  amountSatang: number;
  currency: 'THB';
  createdAt: number;
  /** `authorize` for a pre-order: the card is only reserved now and charged when it ships. */
  intent: CheckoutIntent;
  /** The charge that paid it, once the service said so (webhook charge.succeeded). */
  paidBy?: string;
  /** The card authorization that reserved it (webhook card_authorization.authorized). */
  authorizedBy?: string;
  /** What became of the reservation: captured (charged) or canceled (released). */
  settled?: 'captured' | 'canceled';
}

/** The cart a new visitor starts with. */
export const DEFAULT_CART: readonly CartLine[] = [
  { sku: 'silk-scarf', quantity: 1 },
  { sku: 'jasmine-tea', quantity: 2 },
];

const MAX_QUANTITY = 20;
const MAX_ORDERS = 10_000;

export class DemoOrderError extends Error {}

export class DemoOrders {
  readonly #orders = new Map<string, DemoOrder>();

  /**
   * A new order for these lines, as a page sent them; throws {@link DemoOrderError} for an unknown
   * product or a bad quantity.
   */
  create(lines: readonly unknown[] = DEFAULT_CART, intent: CheckoutIntent = 'charge'): DemoOrder {
    const order: DemoOrder = { orderReference: `demo-${crypto.randomUUID()}`, ...price(lines), currency: 'THB', createdAt: Date.now(), intent };
    const oldest = this.#orders.keys().next();
    if (this.#orders.size >= MAX_ORDERS && !oldest.done) this.#orders.delete(oldest.value);
    this.#orders.set(order.orderReference, order);
    return order;
  }

  get(orderReference: string): DemoOrder | undefined {
    return this.#orders.get(orderReference);
  }

  /** Changes the quantities of an order that is not paid yet. */
  update(orderReference: string, lines: readonly unknown[]): DemoOrder | undefined {
    const order = this.#orders.get(orderReference);
    if (!order) return undefined;
    if (order.paidBy || order.authorizedBy) throw new DemoOrderError('this order is paid and can no longer change');
    Object.assign(order, price(lines));
    return order;
  }

  /** Records that a charge paid the order: it cannot be paid again nor changed. */
  markPaid(orderReference: string, chargeId: string): void {
    const order = this.#orders.get(orderReference);
    if (order) order.paidBy ??= chargeId;
  }

  /** Records that a card authorization reserved the order's amount: it cannot be paid again nor changed. */
  markAuthorized(orderReference: string, cardAuthorizationId: string): void {
    const order = this.#orders.get(orderReference);
    if (order) order.authorizedBy ??= cardAuthorizationId;
  }

  /**
   * What the checkout handler charges for an order: the server's price, never the browser's. A paid
   * (or authorized) order is not for sale again: it names the payment that paid it, which the
   * handler keeps should its store have forgotten the order.
   */
  resolve = (orderReference: string): ResolvedOrder | PaidOrder | null => {
    const order = this.#orders.get(orderReference);
    if (!order || order.amountSatang === 0) return null;
    const paidBy = order.paidBy ?? order.authorizedBy;
    if (paidBy) return { paidBy };
    return { amount: order.amountSatang, currency: order.currency, referenceId: order.orderReference, intent: order.intent };
  };
}

/** Prices lines as a page sent them: each must name a product of the catalogue and a whole quantity. */
function price(lines: readonly unknown[]): Pick<DemoOrder, 'lines' | 'amountSatang'> {
  if (lines.length > CATALOGUE.length) throw new DemoOrderError('lines must be a list of { sku, quantity }');
  const priced = lines.map((line) => {
    const { sku, quantity } = (typeof line === 'object' && line !== null ? line : {}) as { sku?: unknown; quantity?: unknown };
    const product = CATALOGUE.find((p) => p.sku === sku);
    if (!product) throw new DemoOrderError(`unknown product ${JSON.stringify(sku)}`);
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 0 || quantity > MAX_QUANTITY) {
      throw new DemoOrderError(`quantity of ${product.sku} must be a whole number from 0 to ${MAX_QUANTITY}`);
    }
    return { sku: product.sku, quantity, product, totalSatang: product.priceSatang * quantity };
  });
  return { lines: priced, amountSatang: priced.reduce((sum, line) => sum + line.totalSatang, 0) };
}
