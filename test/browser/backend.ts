import { createServer } from 'node:http';
import { BROWSER_PAGE_ORIGIN, BROWSER_SANDBOX_PORT, BROWSER_SHOP_PORT } from './ports.js';
import { listenSandbox, SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
import { createCheckoutHandler, toNodeListener } from '../../src/server/index.js';

/**
 * The real backend of the browser tests: a sandbox and a merchant server with the checkout
 * handler, both on loopback. The browser reaches them same-origin through the test server's
 * proxy (see vitest.config.ts), as a shop's page reaches its own server.
 */

export default async function setup(): Promise<() => Promise<void>> {
  const sandbox = await listenSandbox({
    port: BROWSER_SANDBOX_PORT,
    webhook: { url: `http://127.0.0.1:${BROWSER_SHOP_PORT}/api/checkout/webhooks`, webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64 },
  });
  const handler = toNodeListener(
    createCheckoutHandler({
      // The mounted elements carry the order tokens of test/support/page-tokens.ts, signed for this merchant and key.
      service: { baseUrl: sandbox.url, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey },
      // Test orders carry their price in the reference: order-<satang>-<anything>.
      resolveOrder: (reference) => {
        const match = /^order-(\d+)-/.exec(reference);
        return match ? { amount: Number(match[1]), currency: 'THB', referenceId: reference } : null;
      },
      basePath: '/api/checkout',
      // The test page's origin: the shop's pages, where redirect payments come back to.
      publicUrl: BROWSER_PAGE_ORIGIN,
      webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64,
      rateLimit: false,
      statusPollIntervalMs: 200,
    }),
  );
  // The sandbox's webhooks reach the shop only once a test pays, by when it is listening.
  const shop = createServer(handler);
  await new Promise<void>((resolve) => shop.listen(BROWSER_SHOP_PORT, '127.0.0.1', resolve));
  return async () => {
    // The shop first: a status long-poll still open must not find the sandbox gone.
    const closed = new Promise<void>((resolve) => shop.close(() => resolve()));
    shop.closeAllConnections();
    await closed;
    await sandbox.close();
  };
}
