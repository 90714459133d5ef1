/**
 * One HTTP request and its answer as the checkout handler reads and writes them, whatever the
 * server. A Fetch `Request` is one kind (Hono, Next.js, Deno, Bun, Workers); a node:http request
 * read by `toNodeListener` is another, which builds no `Request`, `Headers`, `URL` or
 * `AbortController` unless something asks for one: a thousand held long-polls cost little more
 * than node:http's own request objects.
 */
export interface HttpCall {
  readonly method: string;
  /** The URL's path, as the WHATWG URL parser reads it (dot segments resolved), without the query. */
  readonly pathname: string;
  /** The origin of the request's URL, `scheme://host[:port]`. */
  readonly origin: string;
  /** One query parameter, decoded; null when absent. */
  query(name: string): string | null;
  /** One request header by its name in any case; null when absent. */
  header(name: string): string | null;
  /** The address of the socket the request came in on, when the server knows it; never a header. */
  readonly socketAddress: string | undefined;
  /** Whether the caller went away before its answer was sent. */
  readonly gone: boolean;
  /** Calls `listener` once when the caller goes away; the function returned stops listening. */
  onGone(listener: () => void): () => void;
  /** Aborted when the caller goes away, for calls that take a signal; made on first use. */
  readonly signal: AbortSignal;
  /** The body's bytes, stopping past `maxBytes` (a `RequestBodyError` from `request-body.ts`). */
  readBytes(maxBytes: number): Promise<Uint8Array>;
  /**
   * The request as a Fetch `Request`, for code written against one (a merchant's callback): made
   * on first use from a node:http request, with its headers, URL and signal but not its body, which
   * is the handler's to read.
   */
  request(): Request;
}

/** An answer: its status, its headers (lower-case names) and its whole body. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

/** A handler of {@link HttpCall}s. */
export type CallHandler = (call: HttpCall) => Promise<HttpAnswer>;

/**
 * Where a Fetch handler that also answers {@link HttpCall}s keeps that way in (a property of the
 * function): `toNodeListener` uses it and builds no Fetch objects. Registered, so two copies of the
 * package agree on it.
 */
export const CALL_HANDLER: unique symbol = Symbol.for('satang.call-handler');

/** The {@link CallHandler} a Fetch handler carries, if any. */
export function callHandlerOf(handler: unknown): CallHandler | undefined {
  if (typeof handler !== 'function') return undefined;
  const way = (handler as { [CALL_HANDLER]?: unknown })[CALL_HANDLER];
  return typeof way === 'function' ? (way as CallHandler) : undefined;
}
