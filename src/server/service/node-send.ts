/**
 * How the service client sends on Node when it was given no `fetch`: `node:http` / `node:https`
 * with one keep-alive agent per client, no Fetch `Request`/`Response` objects or web streams per
 * call. Reached through `process.getBuiltinModule`, never imported, so the client still loads
 * wherever only the Fetch API exists (there it uses `fetch`).
 */

import { nodeBuiltin } from '../node-builtin.js';

/** One call as it goes on the wire. */
export interface WireRequest {
  url: string;
  method: string;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  body: string | undefined;
  /** The caller's: when it aborts, the request is dropped and the send rejects with its reason. */
  signal: AbortSignal | undefined;
  /** How long the whole answer may take; past it the request is dropped and the send rejects with a {@link WireTimeoutError}. */
  timeoutMs: number;
}

/** No complete answer came within the request's `timeoutMs`. */
export class WireTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`no complete answer within ${timeoutMs} ms`);
    this.name = 'TimeoutError';
  }
}

/** An answer, read whole. */
export interface WireAnswer {
  status: number;
  headers: { get(name: string): string | null };
  text: string;
}

export type Send = (request: WireRequest) => Promise<WireAnswer>;

interface NodeIncoming {
  statusCode?: number;
  headers: Record<string, string | string[] | undefined>;
  on(event: 'data', listener: (chunk: Uint8Array) => void): NodeIncoming;
  on(event: 'end' | 'aborted', listener: () => void): NodeIncoming;
  on(event: 'error', listener: (error: Error) => void): NodeIncoming;
}

interface NodeClientRequest {
  on(event: 'error', listener: (error: Error) => void): NodeClientRequest;
  end(body?: string): void;
  destroy(): void;
}

interface NodeHttp {
  Agent: new (options: { keepAlive: boolean; keepAliveMsecs?: number; maxSockets?: number }) => unknown;
  request(options: Record<string, unknown>, onResponse: (response: NodeIncoming) => void): NodeClientRequest;
}

interface NodeUrl {
  urlToHttpOptions(url: URL): Record<string, unknown>;
}

/** The fetch Node had when this module loaded: one replaced since (instrumentation, a mock) is used instead. */
const ORIGINAL_FETCH = globalThis.fetch;

/** Whether a call should go through `globalThis.fetch` after all: someone replaced it on purpose. */
export function fetchWasReplaced(): boolean {
  return globalThis.fetch !== ORIGINAL_FETCH;
}

/** A sender for `baseUrl` on Node, or undefined where `node:http` is not available. */
export function nodeSend(baseUrl: string): Send | undefined {
  const secure = new URL(baseUrl).protocol === 'https:';
  const http = nodeBuiltin(secure ? 'node:https' : 'node:http') as NodeHttp | undefined;
  const urls = nodeBuiltin('node:url') as NodeUrl | undefined;
  const decoder = nodeBuiltin('node:buffer') as
    | { Buffer: { concat(chunks: Uint8Array[]): Uint8Array & { toString(encoding: 'utf8'): string }; byteLength(text: string, encoding: 'utf8'): number } }
    | undefined;
  if (!http || !urls || !decoder) return undefined;
  const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 30_000 });
  const { Buffer } = decoder;
  // What node:http makes of a URL, for the last one sent to: every charge goes to one URL, parsed once.
  let last: { url: string; options: Readonly<Record<string, unknown>> } | undefined;
  const targetOf = (url: string) => {
    if (last?.url !== url) last = { url, options: urls.urlToHttpOptions(new URL(url)) };
    return last.options;
  };
  // The timeout is a timer of the request's own and the caller's signal gets one listener, taken
  // off when the call settles: no AbortController per call, and not node:http's own `signal`
  // option, which watches the request's end with several listeners more.
  return (request) =>
    new Promise<WireAnswer>((resolve, reject) => {
      const { signal } = request;
      const headers = request.body === undefined ? request.headers : { ...request.headers, 'content-length': String(Buffer.byteLength(request.body, 'utf8')) };
      const settled = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const fail = (error: unknown) => {
        settled();
        // The caller's own reason, whatever it is, as fetch rejects with it.
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        reject(error);
      };
      const drop = (error: unknown) => {
        // Rejected first: the errors the dropped request raises next find the promise settled.
        fail(error);
        sent.destroy();
      };
      const onAbort = () => drop(signal?.reason);
      // As node:http reads `request(url, options)`: the URL's options, then these over them.
      const sent = http.request({ ...targetOf(request.url), method: request.method, headers, agent }, (response) => {
        const chunks: Uint8Array[] = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('aborted', () => fail(new Error('the connection closed before the whole answer arrived')));
        response.on('error', fail);
        response.on('end', () => {
          settled();
          const all = response.headers;
          resolve({
            status: response.statusCode ?? 0,
            headers: {
              get: (name) => {
                const value = all[name.toLowerCase()];
                return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
              },
            },
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
      });
      const timer = setTimeout(() => drop(new WireTimeoutError(request.timeoutMs)), request.timeoutMs);
      sent.on('error', fail);
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      sent.end(request.body);
    });
}
