import { createServer, request as httpRequest, Agent, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { listenSandbox, SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
import { createCheckoutHandler, toNodeListener } from '../../src/server/index.js';

/**
 * One server of the proxy measurement, in its own process (so the load generator, the proxy and
 * the sandbox each have their own event loop):
 *
 *   node --import tsx test/bench/proxy-target.ts sandbox
 *   node --import tsx test/bench/proxy-target.ts shop <sandbox url>
 *   node --import tsx test/bench/proxy-target.ts bare <sandbox url>
 *
 * `bare` is the floor a checkout handler is compared with: a forwarding proxy that adds the API
 * key and an idempotency key to `POST /charges` and pipes it to the sandbox's `POST
 * /api/v1/charges`, on one keep-alive agent, doing nothing else.
 *
 * Prints `{"url": …}` on one line once it listens, and runs until killed. A line `cpu` on stdin
 * is answered with `{"cpuUs": …, "requests": …}`: the process's CPU time and the requests it answered.
 */

const [role, sandboxUrl] = process.argv.slice(2);
let served = 0;

/** Listens on a free port, counts answered requests and reports its CPU when asked. */
async function serve(listener: RequestListener): Promise<void> {
  const server = createServer((req, res) => {
    res.once('finish', () => (served += 1));
    listener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() !== 'cpu') return;
    const { user, system } = process.cpuUsage();
    console.log(JSON.stringify({ cpuUs: user + system, requests: served }));
  });
  console.log(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
}

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
  await serve(toNodeListener(handler));
} else if (role === 'bare' && sandboxUrl) {
  const target = new URL(sandboxUrl);
  const agent = new Agent({ keepAlive: true });
  const authorization = `Basic ${Buffer.from(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.apiKey}`).toString('base64')}`;
  await serve((req, res) => {
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: 'POST',
        path: '/api/v1/charges',
        agent,
        headers: { 'content-type': 'application/json', authorization, 'x-beam-idempotency-key': crypto.randomUUID(), ...(req.headers['content-length'] ? { 'content-length': req.headers['content-length'] } : {}) },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { 'content-type': answer.headers['content-type'] ?? 'application/json', ...(answer.headers['content-length'] ? { 'content-length': answer.headers['content-length'] } : {}) });
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
} else {
  console.error('usage: proxy-target.ts sandbox | shop <sandbox url> | bare <sandbox url>');
  process.exit(2);
}

// An orderly exit, so a `--cpu-prof` run writes its profile.
process.once('SIGTERM', () => process.exit(0));
