import { createServer, request as httpRequest, Agent, type ClientRequest, type IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { getHeapSpaceStatistics } from 'node:v8';
import { listenSandbox, SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';

/**
 * One server of the proxy measurement, in its own process (so the load generator, the proxy and
 * the sandbox each have their own event loop):
 *
 *   node --import tsx test/bench/proxy-target.ts sandbox
 *   SATANG_SERVER_MODULE=<built satang/server> node --import tsx test/bench/proxy-target.ts shop <sandbox url>
 *   node --import tsx test/bench/proxy-target.ts bare <sandbox url>
 *   node --import tsx test/bench/proxy-target.ts json <sandbox url>
 *   node --expose-gc --import tsx test/bench/proxy-target.ts idle
 *
 * `bare` is the floor a checkout handler is compared with: a forwarding proxy that adds the API
 * key and an idempotency key to `POST /charges` and pipes it to the sandbox's `POST
 * /api/v1/charges`, on one keep-alive agent, doing nothing else.
 *
 * `json` is the floor of any handler that must read what it forwards: it takes the checkout's
 * request (`POST /charges`, the shopper's JSON), parses it, sends the service a charge request of
 * its own as JSON, parses the answer and answers JSON with the charge's id, action and QR code.
 * No checks, no tokens, no store: what is left of the handler's cost above it is its own logic.
 *
 * `idle` is the floor of a long-poll's memory: a node:http server that holds every request open
 * and never answers.
 *
 * Prints `{"url": …}` on one line once it listens, and runs until killed. Lines on stdin ask:
 * `cpu` → `{"cpuUs": …, "requests": …}` (the process's CPU time, the requests it answered);
 * `mem` → `{"rss": …, "heapUsed": …, "heapTotal": …, "newSpace": …}` after a forced GC (with --expose-gc); `reads` (sandbox) →
 * `{"reads": …}`, the charge reads (`GET /api/v1/charges/{id}`) it answered.
 */

const [role, sandboxUrl] = process.argv.slice(2);
let served = 0;
let chargeReads = 0;
const gc = (globalThis as { gc?: () => void }).gc;

/** Answers the questions of the bench on stdin. */
function answerQuestions(): void {
  createInterface({ input: process.stdin }).on('line', (line) => {
    const question = line.trim();
    if (question === 'cpu') {
      const { user, system } = process.cpuUsage();
      console.log(JSON.stringify({ cpuUs: user + system, requests: served }));
    } else if (question === 'mem') {
      gc?.();
      gc?.();
      const { rss, heapUsed, heapTotal } = process.memoryUsage();
      // The young generation's size apart: V8 grows it with the allocation rate, and keeps it.
      const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.physical_space_size ?? 0;
      console.log(JSON.stringify({ rss, heapUsed, heapTotal, newSpace, gcForced: gc !== undefined }));
    } else if (question === 'reads') {
      console.log(JSON.stringify({ reads: chargeReads }));
    }
  });
}

/** Listens on a free port, counts answered requests and reports its CPU when asked. */
async function serve(listener: RequestListener): Promise<void> {
  const server = createServer((req, res) => {
    res.once('finish', () => (served += 1));
    listener(req, res);
  });
  server.maxConnections = 100_000;
  server.headersTimeout = 0;
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 4096, resolve));
  answerQuestions();
  console.log(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
}

/**
 * `POST /api/v1/charges` at the sandbox, with the API key and a new idempotency key, on one
 * keep-alive agent: what the bare and the JSON floor send, the body theirs to write.
 */
function chargePoster(sandboxUrl: string): (contentLength: string | undefined, onAnswer: (answer: IncomingMessage) => void) => ClientRequest {
  const target = new URL(sandboxUrl);
  const agent = new Agent({ keepAlive: true });
  const authorization = `Basic ${Buffer.from(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.apiKey}`).toString('base64')}`;
  return (contentLength, onAnswer) =>
    httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: 'POST',
        path: '/api/v1/charges',
        agent,
        headers: { 'content-type': 'application/json', authorization, 'x-beam-idempotency-key': crypto.randomUUID(), ...(contentLength ? { 'content-length': contentLength } : {}) },
      },
      onAnswer,
    );
}

if (role === 'sandbox') {
  const running = await listenSandbox({
    port: 0,
    log: (line) => {
      if (/^GET \/api\/v1\/charges\/ch_\w+ /.test(line)) chargeReads += 1;
    },
  });
  answerQuestions();
  console.log(JSON.stringify({ url: running.url }));
} else if (role === 'idle') {
  // Holds each request open and never answers: what a waiting request costs node:http itself.
  await serve(() => undefined);
} else if (role === 'shop' && sandboxUrl) {
  // The package as built (targets.ts builds it), else the sources when run by hand.
  const { createCheckoutHandler, toNodeListener } = (await import(process.env.SATANG_SERVER_MODULE ?? '../../src/server/index.js')) as typeof import('../../src/server/index.js');
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
  const postCharge = chargePoster(sandboxUrl);
  await serve((req, res) => {
    const upstream = postCharge(req.headers['content-length'], (answer) => {
      res.writeHead(answer.statusCode ?? 502, { 'content-type': answer.headers['content-type'] ?? 'application/json', ...(answer.headers['content-length'] ? { 'content-length': answer.headers['content-length'] } : {}) });
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
} else if (role === 'json' && sandboxUrl) {
  const postCharge = chargePoster(sandboxUrl);
  const readAll = (from: NodeJS.ReadableStream, then: (text: string) => void) => {
    const chunks: Buffer[] = [];
    from.on('data', (chunk: Buffer) => chunks.push(chunk));
    from.on('end', () => then(Buffer.concat(chunks).toString('utf8')));
  };
  await serve((req, res) => {
    readAll(req, (text) => {
      const input = JSON.parse(text) as { orderReference: string; amount: number; currency: string; paymentMethod: { type: string } };
      const body = JSON.stringify({ amount: input.amount, currency: input.currency, referenceId: input.orderReference, paymentMethod: { paymentMethodType: input.paymentMethod.type, qrPromptPay: {} } });
      const upstream = postCharge(String(Buffer.byteLength(body)), (answer) =>
        readAll(answer, (answered) => {
          const charge = JSON.parse(answered) as { chargeId: string; actionRequired: string; encodedImage?: unknown };
          const out = JSON.stringify({ chargeId: charge.chargeId, actionRequired: charge.actionRequired, encodedImage: charge.encodedImage });
          res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
          res.end(out);
        }),
      );
      upstream.on('error', () => res.writeHead(502).end());
      upstream.end(body);
    });
  });
} else {
  console.error('usage: proxy-target.ts sandbox | shop <sandbox url> | bare <sandbox url> | json <sandbox url>');
  process.exit(2);
}

// An orderly exit, so a `--cpu-prof` run writes its profile.
process.once('SIGTERM', () => process.exit(0));
