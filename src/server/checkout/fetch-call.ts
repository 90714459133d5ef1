import type { HttpAnswer, HttpCall } from '../../core/http-call.js';
import { readBodyBytes } from '../../core/request-body.js';
import { socketAddressOf } from '../../node/client-address.js';

/**
 * A Fetch `Request` as an {@link HttpCall}: what Hono, Next.js, Deno, Bun and Workers hand the
 * handler. Its socket address is `clientAddress` when the host gave one (the handler's second
 * argument), else the one the Node adapter recorded beside the request.
 */
export function callOfRequest(request: Request, clientAddress?: string): HttpCall {
  const url = new URL(request.url);
  const { signal } = request;
  return {
    method: request.method,
    pathname: url.pathname,
    origin: url.origin,
    query: (name) => url.searchParams.get(name),
    header: (name) => request.headers.get(name),
    socketAddress: clientAddress ?? socketAddressOf(request),
    get gone() {
      return signal.aborted;
    },
    onGone(listener) {
      if (signal.aborted) {
        listener();
        return () => undefined;
      }
      signal.addEventListener('abort', listener, { once: true });
      return () => signal.removeEventListener('abort', listener);
    },
    signal,
    readBytes: (maxBytes) => readBodyBytes(request, maxBytes),
    request: () => request,
  };
}

/** An {@link HttpAnswer} as a Fetch `Response`. */
export function responseOf(answer: HttpAnswer): Response {
  return new Response(answer.body as Uint8Array<ArrayBuffer> | null, { status: answer.status, headers: answer.headers });
}
