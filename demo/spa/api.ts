/**
 * The SPA's calls to the shop's own API (demo/order-api.ts). The server prices every cart: the
 * page sends products and quantities, and shows the amounts it gets back.
 */

export interface Product {
  sku: string;
  name: string;
  nameTh: string;
  /** Unit price in satang. */
  priceSatang: number;
}

export interface OrderLine {
  sku: string;
  quantity: number;
  name: string;
  nameTh: string;
  unitPrice: number;
  total: number;
}

export interface Order {
  orderReference: string;
  /** The order's token, signed by the checkout handler: `<satang-checkout order-token>` reads this order's state with it. */
  orderToken?: string;
  /** The charge that paid the order, once the checkout handler told the shop (order.paid). */
  paidBy?: string;
  /** In satang. */
  amount: number;
  currency: string;
  lines: OrderLine[];
}

export interface CartLine {
  sku: string;
  quantity: number;
}

export class ShopApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(path, { ...init, headers: { accept: 'application/json', ...(init?.body ? { 'content-type': 'application/json' } : {}) } });
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as { message?: string } | undefined;
    throw new ShopApiError(response.status, body?.message ?? `HTTP ${response.status}`);
  }
  return (await response.json()) as T;
}

export async function getCatalogue(): Promise<Product[]> {
  return (await call<{ data: Product[] }>('/api/demo/catalogue')).data;
}

/** A new order: the default cart without `lines`. */
export function createOrder(lines?: CartLine[]): Promise<Order> {
  return call<Order>('/api/demo/orders', { method: 'POST', ...(lines ? { body: JSON.stringify({ lines }) } : {}) });
}

export function getOrder(reference: string): Promise<Order> {
  return call<Order>(`/api/demo/orders/${encodeURIComponent(reference)}`);
}

export function updateOrder(reference: string, lines: CartLine[]): Promise<Order> {
  return call<Order>(`/api/demo/orders/${encodeURIComponent(reference)}`, { method: 'PUT', body: JSON.stringify({ lines }) });
}

export type Tone = 'info' | 'busy' | 'success' | 'failure';

/** One event from the checkout, as the page tells it. */
export interface PaymentLogEntry {
  id: number;
  /** The event's name, e.g. `satang-success`. */
  type: string;
  text: string;
  tone: Tone;
  at: number;
}

/** What this tab knows about a paid order: enough for the confirmation, after a reload too. */
export interface Receipt {
  chargeId: string;
  paidAt: number;
  /** What the checkout reported on the way, oldest first. */
  log: readonly PaymentLogEntry[];
}

const RECEIPTS = 'baan-craft-spa:receipts';
/** This page's own copy, for when storage is not available. */
const known = new Map<string, Receipt>();

function stored(): Record<string, Receipt> {
  try {
    return (JSON.parse(sessionStorage.getItem(RECEIPTS) ?? '{}') as Record<string, Receipt> | null) ?? {};
  } catch {
    return {};
  }
}

export function receiptOf(reference: string): Receipt | undefined {
  return known.get(reference) ?? stored()[reference];
}

export function saveReceipt(reference: string, receipt: Receipt): void {
  known.set(reference, receipt);
  try {
    sessionStorage.setItem(RECEIPTS, JSON.stringify({ ...stored(), [reference]: receipt }));
  } catch {
    // Private mode or full storage: the confirmation still shows, only not after a reload.
  }
}
