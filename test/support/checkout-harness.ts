import { expect, vi } from 'vitest';
import type { WebhookEvent } from '../../src/core/schemas/webhook-events.js';
import { SERVICE_HEADERS } from '../../src/core/constants.js';
import { Sandbox, SANDBOX_DEFAULTS, type SandboxOptions } from '../../src/sandbox/index.js';
import { createCheckoutHandler, type CheckoutHandler, type CheckoutHandlerOptions, type CheckoutLogEntry, type ResolvedOrder } from '../../src/server/index.js';
import { SandboxClient } from './sandbox-client.js';

export const SHOP = 'https://shop.example';
/** Where the harness mounts the checkout handler. */
export const BASE = `${SHOP}/api/checkout`;
export const WEBHOOK_KEY = SANDBOX_DEFAULTS.webhookKeyBase64;
/** The header naming a webhook's event, as the sandbox sends it. */
const SANDBOX_WEBHOOK_EVENT_HEADER = SERVICE_HEADERS.event;
export const SERVICE = { baseUrl: 'http://127.0.0.1:4010', merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey };
/**
 * The address a harness's shopper calls from, handed to the handler as a host hands it on a Fetch
 * mount (`handler(request, { clientAddress })`): one shopper, so rate limits count its requests.
 */
export const SHOPPER_ADDRESS = '203.0.113.10';

export interface CheckoutHarness {
  sandbox: Sandbox;
  /** The sandbox's API, for reading back what the handler did. */
  service: SandboxClient;
  handler: CheckoutHandler;
  /** What `onEvent` received. */
  events: WebhookEvent[];
  logs: CheckoutLogEntry[];
  /** The paths the handler read (GET) from the service, in order, when no `serviceFetch` was given. */
  serviceReads: string[];
  /**
   * One request to the handler, answered with its status, headers, text and parsed body. A
   * `POST /charges` body carries the order's amount, as the widget sends the total it shows, unless
   * it names `amount` itself (`amount: undefined` sends none), and the order's token, as the
   * widget sends the one its page was rendered with, unless `headers` names `X-Satang-Order-Token`.
   * It comes from {@link SHOPPER_ADDRESS}.
   */
  call(method: string, path: string, init?: { body?: unknown; raw?: string; headers?: Record<string, string> }): Promise<{ status: number; headers: Headers; text: string; body: any }>;
  /**
   * From now on the sandbox's webhooks of `event` (`charge.succeeded`…) are kept in the list it
   * answers, not delivered (the sandbox hears 204): the test hands them to `handler` when it wants
   * them to arrive, late.
   */
  holdWebhooks(event: string): Request[];
}

/**
 * The checkout handler in front of a sandbox, for `orders`. The sandbox's webhooks reach the
 * handler in process, signed and delivered exactly as over a socket (unless `sandboxOptions` says
 * otherwise); `serviceFetch` stands between the handler and the sandbox when given.
 */
export function createCheckoutHarness(
  orders: Record<string, ResolvedOrder>,
  options: Partial<CheckoutHandlerOptions> = {},
  sandboxOptions: SandboxOptions = {},
  serviceFetch?: (request: Request) => Promise<Response>,
): CheckoutHarness {
  const events: WebhookEvent[] = [];
  const logs: CheckoutLogEntry[] = [];
  const serviceReads: string[] = [];
  let deliver: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
  const held = new Map<string, Request[]>();
  const deliverOrHold = (request: Request): Promise<Response> => {
    const holding = held.get(request.headers.get(SANDBOX_WEBHOOK_EVENT_HEADER) ?? '');
    if (holding === undefined) return deliver(request);
    holding.push(request);
    return Promise.resolve(new Response(null, { status: 204 }));
  };
  const sandbox = new Sandbox({
    refundSettleDelayMs: 0,
    webhook: { url: `${BASE}/webhooks`, webhookKeyBase64: WEBHOOK_KEY, retryBaseDelayMs: 5, fetch: (input, init) => deliverOrHold(new Request(input, init)) },
    ...sandboxOptions,
  });
  const handler: CheckoutHandler = createCheckoutHandler({
    service: {
      ...SERVICE,
      fetch:
        serviceFetch ??
        ((request) => {
          if (request.method === 'GET') serviceReads.push(new URL(request.url).pathname);
          return sandbox.fetch(request);
        }),
      retryBaseDelayMs: 1,
    },
    resolveOrder: (reference) => (Object.hasOwn(orders, reference) ? orders[reference] : null),
    basePath: '/api/checkout',
    publicUrl: SHOP,
    webhookKeyBase64: WEBHOOK_KEY,
    onEvent: (event) => {
      events.push(event);
    },
    log: (entry) => logs.push(entry),
    ...options,
  });
  deliver = handler;
  return {
    sandbox,
    service: new SandboxClient(sandbox),
    handler,
    events,
    logs,
    serviceReads,
    holdWebhooks(event) {
      const list = held.get(event) ?? [];
      held.set(event, list);
      return list;
    },
    async call(method, path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      let body = init.raw;
      if (init.body !== undefined) {
        body = JSON.stringify(withShownAmount(orders, method, path, init.body));
        headers['content-type'] ??= 'application/json';
      }
      await withOrderToken(handler, method, path, init.body, headers);
      withAttemptKey(method, path, headers);
      const response = await handler(new Request(`${BASE}${path}`, { method, headers, body }), { clientAddress: SHOPPER_ADDRESS });
      const text = await response.text();
      return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
    },
  };
}

/**
 * A `POST /charges` as the widget sends it: with its order's token (`handler.orderToken`), unless
 * the caller set the header itself (to send a wrong one, or an empty one).
 */
export async function withOrderToken(handler: Pick<CheckoutHandler, 'orderToken'>, method: string, path: string, body: unknown, headers: Record<string, string>): Promise<void> {
  if (method !== 'POST' || path !== '/charges' || Object.keys(headers).some((name) => name.toLowerCase() === 'x-satang-order-token')) return;
  const reference = typeof body === 'object' && body !== null ? (body as { orderReference?: unknown }).orderReference : undefined;
  if (typeof reference !== 'string' || reference === '' || reference.length > 255) return;
  headers['X-Satang-Order-Token'] = await handler.orderToken(reference);
}

/** A charge request as the widget sends it: with an `Idempotency-Key` of its own (a new attempt), unless the caller set the header. */
export function withAttemptKey(method: string, path: string, headers: Record<string, string>): void {
  if (method !== 'POST' || path !== '/charges' || Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key')) return;
  headers['Idempotency-Key'] = `attempt-${crypto.randomUUID()}`;
}

/** A charge request as the widget sends it: with the total it shows, the order's. */
function withShownAmount(orders: Record<string, ResolvedOrder>, method: string, path: string, body: unknown): unknown {
  if (method !== 'POST' || path !== '/charges' || typeof body !== 'object' || body === null || 'amount' in body) return body;
  const reference = (body as { orderReference?: unknown }).orderReference;
  const order = typeof reference === 'string' && Object.hasOwn(orders, reference) ? orders[reference] : undefined;
  return order ? { ...body, amount: order.amount, currency: order.currency } : body;
}

/** Until a long-poll of `chargeId`, started after `readsBefore` reads of it, listens: it listens before its first read of the service. */
export function longPollListening(harness: CheckoutHarness, chargeId: string, readsBefore: number): Promise<void> {
  return vi.waitFor(() => expect(serviceReadsOf(harness, chargeId)).toBeGreaterThan(readsBefore), { timeout: 10_000 });
}

/** How often the handler has read the payment `chargeId` from the service. */
export function serviceReadsOf(harness: CheckoutHarness, chargeId: string): number {
  return harness.serviceReads.filter((path) => path === `/api/v1/charges/${chargeId}`).length;
}
