import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenSandbox, SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
import { createCheckoutHandler, toNodeListener } from '../../src/server/index.js';

/**
 * One server of the proxy measurement, in its own process (so the load generator, the proxy and
 * the sandbox each have their own event loop):
 *
 *   node --import tsx test/bench/proxy-target.ts sandbox
 *   node --import tsx test/bench/proxy-target.ts shop <sandbox url>
 *
 * Prints `{"url": …}` on one line once it listens, and runs until killed.
 */

const [role, sandboxUrl] = process.argv.slice(2);

if (role === 'sandbox') {
  const running = await listenSandbox({ port: 0 });
  console.log(JSON.stringify({ url: running.url }));
} else if (role === 'shop' && sandboxUrl) {
  const handler = createCheckoutHandler({
    service: { baseUrl: sandboxUrl, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey },
    resolveOrder: (reference) => {
      const match = /^order-(\d+)-/.exec(reference);
      return match ? { amount: Number(match[1]), currency: 'THB', referenceId: reference } : null;
    },
    basePath: '/api/checkout',
    rateLimit: false,
  });
  const server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  console.log(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
} else {
  console.error('usage: proxy-target.ts sandbox | shop <sandbox url>');
  process.exit(2);
}
