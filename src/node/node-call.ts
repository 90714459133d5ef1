import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpAnswer, HttpCall } from '../core/http-call.js';
import { BODY_READ_TIMEOUT_MS, bodyTimedOut, RequestBodyError, tooLarge } from '../core/request-body.js';
import { CLIENT_ADDRESS_HEADER } from './client-address.js';

/** Options of `toNodeListener` that shape a request's URL. */
export interface NodeListenerOptions {
  /**
   * Origin used to build the request URL, e.g. `https://shop.example`. By default it is taken
   * from the Host header and the socket (http, or https behind TLS).
   */
  origin?: string;
  /**
   * How long a request's body may take to arrive in full, in ms, from when it is first read;
   * {@link BODY_READ_TIMEOUT_MS} (10 s) by default. Past it the answer is 408 and the connection
   * closes: a body sent a byte at a time holds no request open. Set the server's own
   * `headersTimeout` and `requestTimeout` too (see docs/server-deadlines.md).
   */
  bodyTimeoutMs?: number;
}

/** The body deadline of `options`, checked; throws when it is not a positive number of milliseconds. */
export function bodyTimeoutOf(options: NodeListenerOptions): number {
  const ms = options.bodyTimeoutMs ?? BODY_READ_TIMEOUT_MS;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0) throw new TypeError(`bodyTimeoutMs must be a positive number of milliseconds (got ${String(options.bodyTimeoutMs)})`);
  return ms;
}

/** `toRequest` of the adapter: the Fetch `Request` of a node:http request, with its body as read. */
type RequestMaker = (req: IncomingMessage, options: NodeListenerOptions, res: ServerResponse, body: Uint8Array) => Request;

const EMPTY = new Uint8Array(0);

/** The URL parts of the last request target, by origin and target. */
let lastTarget: { origin: string; target: string; pathname: string; urlOrigin: string; search: string } | undefined;

/**
 * The path, origin and query of a request, parsed as the Fetch path parses it, so both see one path
 * (dot segments, percent-encoding); an origin-form target is appended, never resolved: `//host/x`
 * names no other host. The same target again (every charge is `POST {basePath}/charges`) is not
 * parsed again.
 */
function parsedTarget(origin: string, target: string): { pathname: string; origin: string; search: string } {
  const last = lastTarget;
  if (last?.target === target && last.origin === origin) return { pathname: last.pathname, origin: last.urlOrigin, search: last.search };
  const url = new URL(target.startsWith('/') ? `${origin}${target}` : target, origin);
  lastTarget = { origin, target, pathname: url.pathname, urlOrigin: url.origin, search: url.search };
  return { pathname: url.pathname, origin: url.origin, search: url.search };
}

/**
 * A node:http request as an {@link HttpCall}, read straight from node:http's own objects: the URL
 * is parsed once into three strings, headers are read from `req.headers`, one `close` listener
 * tells when the caller leaves, and a `Request` or `AbortController` is made only when something asks for
 * one. A long-poll held by it costs little more than node:http's own request.
 */
export class NodeCall implements HttpCall {
  readonly method: string;
  readonly pathname: string;
  readonly origin: string;
  /** Read at once: node:http forgets it when the socket closes. */
  readonly socketAddress: string | undefined;
  readonly #search: string;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #toRequest: RequestMaker;
  readonly #options: NodeListenerOptions;
  #gone = false;
  /** Listeners of the caller leaving: none, one, or a set (a long-poll has one at a time). */
  #onGone: (() => void) | Set<() => void> | undefined;
  #controller: AbortController | undefined;
  #request: Request | undefined;
  #body: Uint8Array | undefined;
  #bodyRead = false;

  /** `origin` as `toRequest` builds it; `toRequest` makes the Fetch `Request` when one is asked for. */
  constructor(req: IncomingMessage, res: ServerResponse, options: NodeListenerOptions, origin: string, target: string, toRequest: RequestMaker) {
    this.#req = req;
    this.#res = res;
    this.#options = options;
    this.#toRequest = toRequest;
    this.method = req.method ?? 'GET';
    const url = parsedTarget(origin, target);
    this.pathname = url.pathname;
    this.origin = url.origin;
    this.#search = url.search;
    this.socketAddress = req.socket.remoteAddress;
    // Gone already (a middleware in front took its time): then no 'close' is still to come.
    this.#gone = req.socket.destroyed && !res.writableFinished;
    // `on`, not `once`: a response closes once, and `once` would wrap the listener in two more objects.
    res.on('close', () => {
      if (res.writableFinished) return;
      this.#gone = true;
      const listeners = this.#onGone;
      this.#onGone = undefined;
      if (typeof listeners === 'function') listeners();
      else listeners?.forEach((listener) => listener());
    });
  }

  query(name: string): string | null {
    return this.#search === '' ? null : new URLSearchParams(this.#search).get(name);
  }

  header(name: string): string | null {
    const key = name.toLowerCase();
    // Only the socket knows who is calling: the header a client could forge is never read.
    if (key === CLIENT_ADDRESS_HEADER) return null;
    // As node:http reads it (a repeated Content-Type keeps its first), and so as `toRequest` does.
    const value = this.#req.headers[key];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  get gone(): boolean {
    return this.#gone;
  }

  onGone(listener: () => void): () => void {
    if (this.#gone) {
      listener();
      return () => undefined;
    }
    const held = this.#onGone;
    if (held === undefined) this.#onGone = listener;
    else if (typeof held === 'function') this.#onGone = new Set([held, listener]);
    else held.add(listener);
    return () => {
      const now = this.#onGone;
      if (now === listener) this.#onGone = undefined;
      else if (typeof now === 'object') now.delete(listener);
    };
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = new AbortController();
      this.#controller = controller;
      this.onGone(() => controller.abort(new DOMException('The caller went away.', 'AbortError')));
    }
    return this.#controller.signal;
  }

  readBytes(maxBytes: number): Promise<Uint8Array> {
    if (this.#bodyRead) return Promise.reject(new RequestBodyError('unreadable', 'request body was already read'));
    this.#bodyRead = true;
    return readNodeBody(this.#req, maxBytes, this.header('content-length'), bodyTimeoutOf(this.#options)).then((body) => (this.#body = body));
  }

  /**
   * Whether part of the body has not arrived (it was refused before its end): the connection then
   * cannot carry another request cleanly. A body that arrived whole, read or not, node:http discards.
   */
  get bodyLeftUnread(): boolean {
    return !this.#req.complete;
  }

  request(): Request {
    if (this.#request) return this.#request;
    const request = this.#toRequest(this.#req, this.#options, this.#res, this.#body ?? EMPTY);
    // Kept once the body is read, with it; asked before that (`getClientId`), made afresh later.
    if (this.#body !== undefined || this.method === 'GET' || this.method === 'HEAD') this.#request = request;
    return request;
  }
}

/**
 * The body of a node:http request, stopping as soon as it passes `maxBytes` (a declared
 * Content-Length past it is refused before a byte is read). A body that breaks off is `unreadable`;
 * one not in full within `timeoutMs` is refused as `timeout`, the rest left unread (the answer
 * then closes the connection).
 */
export function readNodeBody(req: IncomingMessage, maxBytes: number, contentLength: string | null, timeoutMs: number = BODY_READ_TIMEOUT_MS): Promise<Uint8Array> {
  const declared = Number(contentLength);
  if (contentLength !== null && Number.isFinite(declared) && declared > maxBytes) return Promise.reject(tooLarge(maxBytes));
  if (req.readableEnded) return Promise.resolve(new Uint8Array(0));
  // Broken off before anyone listened (the client left while something was awaited): its
  // 'close' has been and gone, and waiting for an end would wait for ever.
  if (req.destroyed || (!req.complete && req.socket.destroyed)) return Promise.reject(new RequestBodyError('unreadable', 'request body broke off before its end'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // A body that has arrived whole (a small one comes with its headers) has nothing left to wait for.
    const timer = req.complete
      ? undefined
      : setTimeout(() => {
          stop();
          req.pause();
          reject(bodyTimedOut(timeoutMs));
        }, timeoutMs);
    const stop = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onBroken);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        stop();
        // The rest is not read: the answer closes the connection (see the adapter).
        req.pause();
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      const [only] = chunks;
      resolve(chunks.length === 1 && only ? only : Buffer.concat(chunks, size));
    };
    const onBroken = () => {
      stop();
      reject(new RequestBodyError('unreadable', 'request body broke off before its end'));
    };
    const onClose = () => {
      if (!req.complete) onBroken();
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onBroken);
    req.once('close', onClose);
  });
}

/** Writes an {@link HttpAnswer} in one go: status, headers with the body's length, body. */
export function writeAnswer(answer: HttpAnswer, res: ServerResponse, closeAfter: boolean): void {
  // The answer is the handler's own, made for this request: its headers are completed in place.
  const { headers } = answer;
  if (answer.body !== null) headers['content-length'] = String(answer.body.byteLength);
  if (closeAfter) headers.connection = 'close';
  res.writeHead(answer.status, headers);
  res.end(answer.body ?? undefined);
}
