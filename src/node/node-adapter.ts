import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { callHandlerOf, type CallHandler } from '../core/http-call.js';
import { CLIENT_ADDRESS_HEADER, rememberSocketAddress } from './client-address.js';
import { RequestBodyError } from '../core/request-body.js';
import { bodyTimeoutOf, NodeCall, readNodeBody, writeAnswer, type NodeListenerOptions } from './node-call.js';

/** A Fetch-style handler: the shape of every Satang server piece. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** Options of {@link toNodeListener}. */
export type { NodeListenerOptions };

/**
 * A Node `http` request listener, which also works as Express or Fastify (raw) middleware. It
 * answers every request itself, a failure included, so there is nothing for its caller to await.
 */
export type NodeListener = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/**
 * Turns a Fetch-style handler into a Node `http` request listener. It also works as Express or
 * Fastify (raw) middleware: pass `next` and the request is answered by the handler regardless.
 */
export function toNodeListener(handler: FetchHandler, options: NodeListenerOptions = {}): NodeListener {
  bodyTimeoutOf(options);
  // A handler that also answers calls (the checkout handler) is called without Fetch objects.
  const callHandler = callHandlerOf(handler);
  if (callHandler) {
    return (req, res, next) => {
      answerCall(callHandler, options, req, res, next);
    };
  }
  return (req, res, next) => {
    void answer(handler, options, req, res, next);
  };
}

async function answer(handler: FetchHandler, options: NodeListenerOptions, req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): Promise<void> {
  try {
    refuseReadBody(req);
    const response = await handler(await requestOf(req, options, res));
    await writeResponse(response, res);
  } catch (error) {
    if (error instanceof RequestBodyError && error.reason === 'timeout') answerBodyTimeout(res, req);
    else fail(error, res, next);
  }
}

/**
 * 408 for a body that did not arrive in time, then the connection is closed: the rest of the body
 * is never read. When part of an answer is already out, the connection is only dropped.
 */
function answerBodyTimeout(res: ServerResponse, req: IncomingMessage): void {
  if (res.headersSent || res.writableEnded) {
    req.destroy();
    return;
  }
  const message = 'request body did not arrive in time';
  res.writeHead(408, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
  res.end(JSON.stringify({ code: 408, message, error: { errorCode: 'REQUEST_TIMEOUT', errorMessage: message } }), () => req.destroy());
}

/**
 * A {@link CallHandler}'s way: node:http's request read as it is, the answer written in one go.
 * Promise callbacks rather than an async function, which a held long-poll would keep suspended.
 */
function answerCall(handler: CallHandler, options: NodeListenerOptions, req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void {
  let call: NodeCall;
  try {
    refuseReadBody(req);
    call = new NodeCall(req, res, options, originOf(req, options), targetOf(req), toRequest);
  } catch (error) {
    fail(error, res, next);
    return;
  }
  handler(call)
    // A body left unread (refused for its size) would be read as the next request: close instead.
    .then((answered) => writeAnswer(answered, res, call.bodyLeftUnread))
    .catch((error: unknown) => fail(error, res, next));
}

/** A body parser (express.json()) ran before the handler: the body it needs is gone. */
const BODY_ALREADY_READ = 'the request body was already read by another middleware (e.g. express.json()): mount the Satang handler before body parsers, since webhooks are verified over the raw bytes';

class BodyAlreadyReadError extends Error {
  constructor() {
    super(BODY_ALREADY_READ);
    this.name = 'BodyAlreadyReadError';
  }
}

let toldBodyAlreadyRead = false;

function refuseReadBody(req: IncomingMessage): void {
  if (bodyAlreadyRead(req)) throw new BodyAlreadyReadError();
}

/** Answers a failure: the connection dropped if part of the answer is out, else `next` or a 500. */
function fail(error: unknown, res: ServerResponse, next?: (error?: unknown) => void): void {
  // Part of the answer is out: appending an error would pass a corrupt body for a whole one.
  // Dropping the connection is the only way to tell the client the answer is incomplete.
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (error instanceof BodyAlreadyReadError) {
    // The shop's set-up, not a fault of the request: answered in the handler's own JSON, naming the
    // fix (never a framework's HTML error page), and said once in the server's log.
    if (!toldBodyAlreadyRead) console.error(`satang: ${BODY_ALREADY_READ}`);
    toldBodyAlreadyRead = true;
    res.statusCode = 500;
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.end(JSON.stringify({ code: 500, message: BODY_ALREADY_READ, error: { errorCode: 'INTERNAL_ERROR', errorMessage: BODY_ALREADY_READ } }));
    return;
  }
  if (next) {
    next(error);
    return;
  }
  res.statusCode = 500;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify({ code: 500, message: 'internal error', error: { errorCode: 'INTERNAL_SERVER_ERROR', errorMessage: 'internal error' } }));
}

/**
 * The Fetch `Request` for a Node request, body streamed, aborted when the client goes away: while
 * the body arrives, or (given `res`) at any time before the answer is sent, so a long-poll stops.
 */
export function toRequest(req: IncomingMessage, options: NodeListenerOptions = {}, res?: ServerResponse, bufferedBody?: Uint8Array): Request {
  const origin = originOf(req, options);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  // Only the socket knows who is calling: a client cannot pose as another for rate limits.
  headers.delete(CLIENT_ADDRESS_HEADER);
  const controller = new AbortController();
  req.once('close', () => {
    if (!req.complete) controller.abort();
  });
  res?.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const path = targetOf(req);
  // An origin-form target is appended as it is: parsed against the origin, `//host/x` would name
  // another host. Only an absolute-form target (sent to proxies) is parsed as a URL.
  const request = new Request(path.startsWith('/') ? `${origin}${path}` : new URL(path, origin), {
    method,
    headers,
    signal: controller.signal,
    ...(hasBody ? (bufferedBody ? { body: bufferedBody as Uint8Array<ArrayBuffer> } : { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' }) : {}),
  });
  // Only the socket knows who is calling: kept beside the request, where no client can write it.
  if (req.socket.remoteAddress) rememberSocketAddress(request, req.socket.remoteAddress);
  return request;
}

/** Bodies up to this size (by their Content-Length) are read into memory before the handler runs. */
const BUFFERED_BODY_MAX_BYTES = 1024 * 1024;

/**
 * {@link toRequest}, but a body of a declared length up to {@link BUFFERED_BODY_MAX_BYTES} is read
 * first and handed over as bytes: no web stream over the socket for the common small JSON body. A
 * chunked or larger body streams as before, so the handler's own size cap still stops it early.
 */
async function requestOf(req: IncomingMessage, options: NodeListenerOptions, res: ServerResponse): Promise<Request> {
  const declared = Number(req.headers['content-length']);
  const method = req.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return toRequest(req, options, res);
  if (!Number.isSafeInteger(declared) || declared > BUFFERED_BODY_MAX_BYTES || req.headers['transfer-encoding'] !== undefined) {
    // Streamed to the handler, which may wait on it for ever: the deadline answers for it.
    const timeoutMs = bodyTimeoutOf(options);
    const timer = setTimeout(() => {
      if (!req.complete) answerBodyTimeout(res, req);
    }, timeoutMs);
    req.once('end', () => clearTimeout(timer));
    req.once('close', () => clearTimeout(timer));
    return toRequest(req, options, res);
  }
  const body = await readNodeBody(req, declared, null, bodyTimeoutOf(options));
  return toRequest(req, options, res, body);
}

function bodyAlreadyRead(req: IncomingMessage): boolean {
  const method = req.method ?? 'GET';
  return method !== 'GET' && method !== 'HEAD' && req.readableEnded && (req as IncomingMessage & { body?: unknown }).body !== undefined;
}

/** The origin of a request's URL: the option, else the scheme of the socket and the Host header. */
function originOf(req: IncomingMessage, options: NodeListenerOptions): string {
  if (options.origin !== undefined) return options.origin;
  const secure = 'encrypted' in req.socket && Boolean((req.socket as { encrypted?: boolean }).encrypted);
  return `${secure ? 'https' : 'http'}://${hostOf(req)}`;
}

/** The request target; Express strips its mount path from req.url and keeps the full one in originalUrl. */
function targetOf(req: IncomingMessage): string {
  return (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/';
}

function hostOf(req: IncomingMessage): string {
  const host = req.headers.host;
  // A Host header that is not a plain host[:port] would make the URL unparsable or misleading.
  return host && /^[A-Za-z0-9.\-[\]:]+$/.test(host) ? host : 'localhost';
}

/**
 * Writes a Fetch `Response` to a Node response: in one write with its length when it declares
 * one (the checkout handler's JSON answers do), streaming its body otherwise.
 */
export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') continue;
    res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  if (response.headers.has('content-length')) {
    // Read whole, then sent in one write. A body that fails part way goes out as far as it got,
    // then the error: the connection then ends short of its length, as the network would cut it.
    const chunks: Uint8Array[] = [];
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
      }
    } catch (error) {
      for (const chunk of chunks) res.write(chunk);
      throw error;
    }
    res.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    return;
  }
  res.once('close', () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve));
  }
  res.end();
}
