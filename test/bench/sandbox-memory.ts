import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SERVICE_HEADERS } from '../../src/core/constants.js';
import { SANDBOX_DEFAULTS, SANDBOX_MAX_BODY_BYTES } from '../../src/sandbox/index.js';

/**
 * What refused requests cost the sandbox in memory: `listenSandbox` in a child process
 * (sandbox-memory-child.ts, `node --expose-gc`), and from this process over loopback, each with
 * an idempotency key of its own:
 *
 * 1. warm-up: a few hundred requests of every kind below, then the baseline RSS (after GC);
 * 2. `requests` small card-token and charge requests that are valid JSON but refused (400);
 * 3. `requests` bodies of ~300 KB (over the cap) to the same two endpoints, half with their
 *    Content-Length, half chunked: each must be answered 413.
 *
 * RSS is read in the child after a forced GC after each phase. The figure is the growth of phase 3
 * in MiB and as a ratio of the RSS after phase 2: a body refused at the cap must leave nothing
 * behind, so the ratio stays near 1. Run alone: `npx tsx test/bench/sandbox-memory.ts [requests]`.
 */

export interface MemorySample {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  gcForced: boolean;
}

export interface SandboxMemoryResult {
  requests: number;
  largeBodyBytes: number;
  capBytes: number;
  /** Answers of phase 2 and 3 by status; a reset (the sandbox closed the socket mid-upload) counts as `reset`. */
  smallStatuses: Record<string, number>;
  largeStatuses: Record<string, number>;
  warm: MemorySample;
  afterSmall: MemorySample;
  afterLarge: MemorySample;
  /** RSS after the large bodies / RSS after the small ones. */
  rssRatio: number;
  /** RSS growth of each phase, bytes. */
  smallGrowth: number;
  largeGrowth: number;
  /** Large-body growth per request, bytes (negative: the RSS shrank). */
  largeBytesPerRequest: number;
  seconds: number;
}

const CLIENT_AUTH = `Basic ${Buffer.from(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.publishableKey}`).toString('base64')}`;
const API_AUTH = `Basic ${Buffer.from(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.apiKey}`).toString('base64')}`;
const LARGE_BODY_BYTES = 300 * 1024;
const CONCURRENCY = 8;

interface Shot {
  path: string;
  auth: string;
  body: Buffer;
  chunked: boolean;
  key: string;
}

function shots(count: number, large: boolean, prefix: string): Shot[] {
  const filler = large ? 'a'.repeat(LARGE_BODY_BYTES) : 'Somchai Jaidee';
  return Array.from({ length: count }, (_, i) => {
    const token = i % 2 === 0;
    // Small ones are refused by validation: an expired card, a charge with no payment method.
    const body = token
      ? { pan: '4111111111111111', expiryMonth: 12, expiryYear: 1, cardHolderName: filler }
      : { amount: 10_000, currency: 'THB', referenceId: `order-${i}`, description: filler };
    return {
      path: token ? '/client/v1/card-tokens' : '/api/v1/charges',
      auth: token ? CLIENT_AUTH : API_AUTH,
      body: Buffer.from(JSON.stringify(body)),
      chunked: large && i % 4 >= 2,
      key: `${prefix}-${i}`,
    };
  });
}

function send(origin: URL, agent: Agent, shot: Shot): Promise<string> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: origin.hostname,
        port: origin.port,
        path: shot.path,
        method: 'POST',
        agent,
        headers: {
          authorization: shot.auth,
          'content-type': 'application/json',
          [SERVICE_HEADERS.idempotencyKey]: shot.key,
          ...(shot.chunked ? {} : { 'content-length': shot.body.length }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
        res.on('error', () => resolve('reset'));
      },
    );
    req.on('error', () => resolve('reset'));
    if (shot.chunked) {
      for (let offset = 0; offset < shot.body.length; offset += 64 * 1024) req.write(shot.body.subarray(offset, offset + 64 * 1024));
      req.end();
    } else {
      req.end(shot.body);
    }
  });
}

async function fire(origin: URL, all: Shot[]): Promise<Record<string, number>> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const statuses: Record<string, number> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < all.length) {
        const shot = all[next++]!;
        const status = await send(origin, agent, shot);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  agent.destroy();
  return statuses;
}

function ask(child: ChildProcess, message: 'sample' | 'close'): Promise<MemorySample | undefined> {
  if (message === 'close') {
    child.send('close');
    return new Promise((resolve) => child.once('exit', () => resolve(undefined)));
  }
  return new Promise((resolve) => {
    child.once('message', (answer: { sample: MemorySample }) => resolve(answer.sample));
    child.send('sample');
  });
}

export async function measureSandboxMemory(requests = 3_000): Promise<SandboxMemoryResult> {
  const started = performance.now();
  const child = fork(join(import.meta.dirname, 'sandbox-memory-child.ts'), [], { execArgv: ['--expose-gc', '--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.once('message', (message: { url: string }) => resolve(message.url));
      child.once('exit', (code) => reject(new Error(`the sandbox child exited with ${code}`)));
    });
    const origin = new URL(url);
    await fire(origin, [...shots(200, false, 'warm-small'), ...shots(200, true, 'warm-large')]);
    const warm = (await ask(child, 'sample'))!;
    const smallStatuses = await fire(origin, shots(requests, false, 'small'));
    const afterSmall = (await ask(child, 'sample'))!;
    const largeStatuses = await fire(origin, shots(requests, true, 'large'));
    const afterLarge = (await ask(child, 'sample'))!;
    const largeGrowth = afterLarge.rss - afterSmall.rss;
    return {
      requests,
      largeBodyBytes: shots(1, true, 'size')[0]!.body.length,
      capBytes: SANDBOX_MAX_BODY_BYTES,
      smallStatuses,
      largeStatuses,
      warm,
      afterSmall,
      afterLarge,
      rssRatio: afterLarge.rss / afterSmall.rss,
      smallGrowth: afterSmall.rss - warm.rss,
      largeGrowth,
      largeBytesPerRequest: largeGrowth / requests,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    if (child.connected) await ask(child, 'close');
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await measureSandboxMemory(Number(process.argv[2] ?? 3_000)), null, 2));
}
