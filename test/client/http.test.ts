import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckoutClientError } from '../../src/client/client-error.js';
import { fetchJson } from '../../src/client/http.js';

/** The browser's calls have a deadline of their own: a server (or a network) that never answers does not hold the shopper. */

let server: Server | undefined;
let heard: Promise<void>;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A server that takes every request and never answers; `heard` settles once one has arrived. */
async function silentServer(): Promise<string> {
  let arrived!: () => void;
  heard = new Promise((resolve) => (arrived = resolve));
  server = createServer(() => arrived());
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('fetchJson', () => {
  it('gives up at its deadline with a retryable network error, code TIMEOUT', async () => {
    const url = await silentServer();
    const error = await fetchJson(`${url}/charges`, { method: 'POST', body: '{}' }, undefined, 200).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckoutClientError);
    expect(error).toMatchObject({ kind: 'network', code: 'TIMEOUT', retryable: true });
  });

  it('still says aborted, not timed out, when its caller aborts first', async () => {
    const url = await silentServer();
    const caller = new AbortController();
    const call = fetchJson(`${url}/status`, {}, caller.signal, 60_000).catch((e: unknown) => e);
    await heard;
    caller.abort();
    expect(await call).toMatchObject({ kind: 'aborted', retryable: false });
  });

  it('says aborted at once for a signal aborted before it is called', async () => {
    const url = await silentServer();
    expect(await fetchJson(url, {}, AbortSignal.abort(), 60_000).catch((e: unknown) => e)).toMatchObject({ kind: 'aborted' });
  });
});
