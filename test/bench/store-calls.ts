import { Sandbox, SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
import { CHECKOUT_ORDER_TOKEN_HEADER, SERVICE_HEADERS } from '../../src/core/constants.js';
import { createCheckoutHandler } from '../../src/server/index.js';
import { CountingStore, orderCalls } from '../support/counting-store.js';
import { SandboxClient } from '../support/sandbox-client.js';

/**
 * What the checkout handler asks of its store for one shopper's request and one webhook, counted
 * call by call on the in-memory store (the same count on Redis: one command or script per call).
 * Rate-limit counters and long-poll wake-ups stay apart and are listed beside. Counts, not times:
 * test/server/checkout/store-calls.test.ts holds the exact lists.
 */

export interface StoreCallsResult {
  /** A new card charge (`POST /charges`), its order never charged before. */
  charge: number;
  /** Its `charge.succeeded` webhook, first delivery: the ledger's gate, the order read and settled, the status kept, the event told and the state handled recorded in the order. */
  webhook: number;
  /** The same delivery again: the gate, then the order's record, which says the state was handled. */
  webhookAgain: number;
  /** `GET /orders/:ref/state` of the paid order. */
  stateRead: number;
  /** Rate-limit counters and wake-ups of the three requests and the two deliveries. */
  apart: number;
}

const SHOP = 'https://shop.example';
/** The one shopper's address, as a mount hands it over (rate limits count by it). */
const SHOPPER = { clientAddress: '203.0.113.10' };

export async function measureStoreCalls(): Promise<StoreCallsResult> {
  let delivered: (request: Request) => void = () => undefined;
  const succeeded = new Promise<Request>((resolve) => (delivered = resolve));
  const sandbox = new Sandbox({
    refundSettleDelayMs: 0,
    webhook: {
      url: `${SHOP}/api/checkout/webhooks`,
      webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64,
      fetch: (input, init) => {
        const request = new Request(input, init);
        if (request.headers.get(SERVICE_HEADERS.event) === 'charge.succeeded') delivered(request);
        return Promise.resolve(new Response(null, { status: 204 }));
      },
    },
  });
  try {
    const store = new CountingStore();
    const handler = createCheckoutHandler({
      service: { baseUrl: 'http://127.0.0.1:4010', merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey, fetch: (request) => sandbox.fetch(request) },
      resolveOrder: (reference) => (reference === 'cart-1' ? { amount: 24_500, currency: 'THB', referenceId: 'order-1' } : null),
      basePath: '/api/checkout',
      publicUrl: SHOP,
      webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64,
      store,
      onOrder: () => undefined,
    });
    const token = await handler.orderToken('cart-1');
    const cardTokenId = await new SandboxClient(sandbox).tokenize('4111111111111111');
    const charge = await store.during(() =>
      handler(
        new Request(`${SHOP}/api/checkout/charges`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: SHOP, 'idempotency-key': 'bench-1', [CHECKOUT_ORDER_TOKEN_HEADER]: token },
          body: JSON.stringify({ orderReference: 'cart-1', amount: 24_500, currency: 'THB', paymentMethod: { type: 'CARD_TOKEN', cardTokenId, securityCode: '123' } }),
        }),
        SHOPPER,
      ),
    );
    if (charge.result.status !== 201) throw new Error(`the charge was answered ${charge.result.status}: ${await charge.result.text()}`);
    const delivery = await succeeded;
    const webhook = await store.during(() => handler(delivery.clone()));
    const again = await store.during(() => handler(delivery.clone()));
    const state = await store.during(() => handler(new Request(`${SHOP}/api/checkout/orders/cart-1/state`, { headers: { origin: SHOP, [CHECKOUT_ORDER_TOKEN_HEADER]: token } }), SHOPPER));
    if (((await state.result.json()) as { state: string }).state !== 'paid') throw new Error('the order does not read paid');
    const all = [charge, webhook, again, state];
    return {
      charge: orderCalls(charge.calls).length,
      webhook: orderCalls(webhook.calls).length,
      webhookAgain: orderCalls(again.calls).length,
      stateRead: orderCalls(state.calls).length,
      apart: all.reduce((sum, run) => sum + run.calls.length - orderCalls(run.calls).length, 0),
    };
  } finally {
    sandbox.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${JSON.stringify(await measureStoreCalls())}\n`);
}
