import type { HttpAnswer, HttpCall } from '../../core/http-call.js';
import { readBodyBytes } from '../../core/request-body.js';
import { socketAddressOf } from '../../node/client-address.js';

/** A Fetch `Request` as an {@link HttpCall}: what Hono, Next.js, Deno, Bun and Workers hand the handler. */
export function callOfRequest(request: Request): HttpCall {
  const url = new URL(request.url);
  const { signal } = request;
  return {
    method: request.method,
    pathname: url.pathname,
    origin: url.origin,
    query: (name) => url.searchParams.get(name),
    header: (name) => request.headers.get(name),
    socketAddress: socketAddressOf(request),
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
