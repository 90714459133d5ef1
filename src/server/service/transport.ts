import type * as z from 'zod/mini';
import { backoffMs } from '../../core/backoff.js';
import { IDEMPOTENCY_KEY_MAX_LENGTH, type ServiceHeaders } from '../../core/constants.js';
import { describeFieldIssues, toFieldIssues } from '../../core/validation.js';
import { ConfigurationError, errorFromResponse, ServiceUnavailableError, UnexpectedResponseError, ValidationError, type ServiceError } from '../errors.js';
import { sleep, untilAborted } from '../abortable.js';
import { fetchWasReplaced, WireTimeoutError, type Send, type WireAnswer } from './node-send.js';

/** How long one attempt may take, from sending the request to the last byte of the answer. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Retries after the first attempt, so three attempts in all. */
export const DEFAULT_MAX_RETRIES = 2;
/** First backoff step; it doubles on every retry up to {@link MAX_RETRY_DELAY_MS}. */
export const DEFAULT_RETRY_BASE_DELAY_MS = 500;
/**
 * The longest wait between two attempts. A `Retry-After` longer than this is not waited out: the
 * call fails at once (a 429 with the wait in `RateLimitedError.retryAfterMs`), so a checkout
 * request does not hang for minutes and the service is not asked again before it said to.
 */
export const MAX_RETRY_DELAY_MS = 8_000;

/** Error codes of the faults this client detects itself, where the service gave none. */
export const CLIENT_ERROR_CODES = {
  /** The request did not reach the service, or its answer was lost (fetch rejected). */
  network: 'NETWORK_ERROR',
  /** No complete answer within the attempt's timeout. */
  timeout: 'TIMEOUT_ERROR',
  /** A 2xx answer that is not JSON, or not the shape the contract gives. */
  unexpectedResponse: 'UNEXPECTED_RESPONSE_ERROR',
  /** An argument refused before anything was sent (an empty id, a malformed idempotency key). */
  invalidArgument: 'INVALID_ARGUMENT_ERROR',
} as const;

/** Per-call options of a call that changes something (POST or PATCH). */
export interface RequestOptions {
  /**
   * The idempotency key (1 to 255 visible ASCII characters). Pass your own, derived from your
   * order, to make a call safe across process restarts; otherwise a random UUID is used for the
   * call and all its retries.
   */
  idempotencyKey?: string;
  /** Aborts the call and every retry at once; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Timeout of each attempt of this call, overriding the client's. */
  timeoutMs?: number;
  /**
   * The longest the whole call may take, every attempt and every wait between them included: an
   * attempt is cut short when it would run past it, and no retry starts that could not finish
   * before it. Past it the call rejects with a retryable `ServiceUnavailableError`
   * (`TIMEOUT_ERROR`). None by default: each attempt then has its `timeoutMs`, so a service that
   * never answers holds the call for `timeoutMs` times the attempts, plus the backoff.
   */
  deadlineMs?: number;
}

/** Per-call options of a read (GET) or a DELETE: idempotency keys do not apply (the service ignores them there). */
export type ReadOptions = Omit<RequestOptions, 'idempotencyKey'>;

/** One call to the service, as a resource describes it. */
export interface ServiceCall {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path with every id already encoded (see {@link pathSegment}). */
  path: string;
  query?: URLSearchParams | undefined;
  body?: unknown;
  /** Which key signs the call; the secret one unless said. */
  key?: 'secret' | 'publishable';
}

/** What the transport needs, already checked by the client's constructor. */
export interface TransportSettings {
  /** Origin and path prefix, without a trailing slash. */
  baseUrl: string;
  /** The service's header names (idempotency key, request id) under the configured prefix. */
  headers: ServiceHeaders;
  /** `accept`, the secret key's `authorization` and, for a partner, its id header. */
  secretHeaders: Headers;
  publishableAuthorization: string | undefined;
  userAgent: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  retryBaseDelayMs: number;
  fetch: (input: Request) => Promise<Response>;
  /**
   * Sends without Fetch objects (Node's `node:http`, see `./node-send.ts`) when set and no
   * `fetch` was given or installed over the global one; `fetch` otherwise.
   */
  send: Send | undefined;
}

/** What one attempt came to, when it did not settle the call. */
interface RetryableFailure {
  error: ServiceError;
  /** The wait the service asked for with `Retry-After`, if it did. */
  retryAfterMs: number | undefined;
}

interface Answer {
  value: unknown;
  status: number;
  requestId: string | undefined;
}

type AttemptOutcome = ({ ok: true } & Answer) | { ok: false; failure: RetryableFailure };

/** Issues shown in an UnexpectedResponseError message; the first one is always in `field`. */
const MAX_REPORTED_ISSUES = 5;

/**
 * How every call reaches the service, whatever its resource: the one retry loop and the one place
 * an answer becomes a value or a typed error.
 *
 * Every POST and PATCH carries an idempotency key (the caller's, or a random UUID) and every retry
 * of the call reuses it, so no retry can act twice. Network errors, timeouts, 429 and 5xx (except
 * 501) are retried with exponential backoff and jitter, or after the `Retry-After` the service
 * sent; other answers are final. As every request is idempotent, an answer lost or mangled in
 * transit (a reset connection, a cut or non-JSON 2xx body) is asked for again too: the service
 * replays the first answer instead of acting twice.
 */
export class ServiceTransport {
  readonly #settings: TransportSettings;
  /** The secret key's headers (and `user-agent`), as `Headers` spells them, copied into each call's own. */
  readonly #secretHeaders: Readonly<Record<string, string>>;
  readonly #publishableHeaders: Readonly<Record<string, string>> | undefined;
  readonly #idempotencyHeader: string;

  constructor(settings: TransportSettings) {
    this.#settings = settings;
    const { publishableAuthorization, secretHeaders, userAgent } = settings;
    this.#secretHeaders = headerRecord(new Headers(secretHeaders), userAgent);
    this.#publishableHeaders =
      publishableAuthorization === undefined ? undefined : headerRecord(new Headers({ accept: 'application/json', authorization: publishableAuthorization }), userAgent);
    this.#idempotencyHeader = settings.headers.idempotencyKey.toLowerCase();
  }

  /** Sends a call, then checks the 2xx body against `schema`; unknown extra fields are kept. */
  async call<S extends z.ZodMiniType>(schema: S, call: ServiceCall, options: RequestOptions | undefined): Promise<z.infer<S>> {
    const { value, status, requestId } = await this.#exchange(call, options, true);
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const issues = toFieldIssues(readableIssues(result.error.issues), value);
    const shown = describeFieldIssues(issues.slice(0, MAX_REPORTED_ISSUES));
    const more = issues.length > MAX_REPORTED_ISSUES ? ` (and ${issues.length - MAX_REPORTED_ISSUES} more)` : '';
    const field = issues[0]?.field;
    // Not retried: the same request would be answered (or replayed) with the same body.
    throw new UnexpectedResponseError({
      status,
      errorCode: CLIENT_ERROR_CODES.unexpectedResponse,
      message: `${call.method} ${call.path} answered ${status} with a body that breaks the contract: ${shown}${more}`,
      requestId,
      // The body as a whole has the empty path: no field to name.
      field: field === '' ? undefined : field,
    });
  }

  /** Sends a call whose answer carries nothing to read (a 202, say). */
  async send(call: ServiceCall, options: RequestOptions | undefined): Promise<void> {
    await this.#exchange(call, options, false);
  }

  /**
   * Runs the attempts of one call: the same request (and idempotency key) each time, with
   * backoff between them, until an answer settles it or the retries run out.
   */
  async #exchange(call: ServiceCall, options: RequestOptions | undefined, expectBody: boolean): Promise<Answer> {
    const signal = options?.signal;
    signal?.throwIfAborted();
    const timeoutMs = checkTimeout(options?.timeoutMs ?? this.#settings.timeoutMs, 'timeoutMs', invalidArgumentError);
    const deadlineMs = options?.deadlineMs === undefined ? undefined : checkTimeout(options.deadlineMs, 'deadlineMs', invalidArgumentError);
    const endsAt = deadlineMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + deadlineMs;
    const headers = this.#headersFor(call);
    if (call.method === 'POST' || call.method === 'PATCH') headers[this.#idempotencyHeader] = checkIdempotencyKey(options?.idempotencyKey) ?? globalThis.crypto.randomUUID();
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const url = `${this.#settings.baseUrl}${call.path}${call.query && call.query.toString() !== '' ? `?${call.query.toString()}` : ''}`;

    for (let attempt = 0; ; attempt += 1) {
      const leftMs = endsAt - Date.now();
      // The attempt the deadline cuts short says so, rather than naming its own (longer) timeout.
      const cut = deadlineMs !== undefined && leftMs < timeoutMs;
      const outcome = await this.#attempt(call, { url, headers, body, timeoutMs: cut ? Math.max(1, leftMs) : timeoutMs, deadlineMs: cut ? deadlineMs : undefined, signal, expectBody });
      if (outcome.ok) return outcome;
      const { error, retryAfterMs } = outcome.failure;
      if (attempt >= this.#settings.maxRetries) throw error;
      if (retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_DELAY_MS) throw error;
      // Exponential backoff with equal jitter: half the step is fixed, half random.
      const delayMs = retryAfterMs ?? backoffMs(attempt, this.#settings.retryBaseDelayMs, MAX_RETRY_DELAY_MS);
      // A retry that could not even start before the deadline is not waited for.
      if (Date.now() + delayMs >= endsAt) throw error;
      await sleep(delayMs, signal);
    }
  }

  /** One attempt: settles with an answer, asks for a retry, or throws a final error. */
  async #attempt(
    call: ServiceCall,
    request: {
      url: string;
      /** Lower-case names, values as `Headers` keeps them; made into `Headers` only for `fetch`. */
      headers: Record<string, string>;
      body: string | undefined;
      timeoutMs: number;
      /** The call's deadline, when it (not the attempt's timeout) bounds this attempt. */
      deadlineMs: number | undefined;
      signal: AbortSignal | undefined;
      expectBody: boolean;
    },
  ): Promise<AttemptOutcome> {
    const { signal, timeoutMs, deadlineMs } = request;
    let response: Pick<WireAnswer, 'status' | 'headers'>;
    let text: string;
    try {
      const { send } = this.#settings;
      // node:http never follows a redirect, so a 3xx is answered as it is, like `redirect: 'manual'`.
      const answer = send && !fetchWasReplaced() ? await send({ url: request.url, method: call.method, headers: request.headers, body: request.body, signal, timeoutMs }) : await this.#fetch(call, request);
      response = answer;
      text = answer.text;
    } catch (cause) {
      if (signal?.aborted) throw signal.reason;
      if (cause instanceof WireTimeoutError) {
        const within = deadlineMs === undefined ? `${timeoutMs} ms` : `the call's deadline of ${deadlineMs} ms`;
        return retry(new ServiceUnavailableError({ status: 0, errorCode: CLIENT_ERROR_CODES.timeout, message: `${call.method} ${call.path} got no complete answer within ${within}`, cause }));
      }
      return retry(
        new ServiceUnavailableError({ status: 0, errorCode: CLIENT_ERROR_CODES.network, message: `${call.method} ${call.path} failed before an answer arrived: ${describeCause(cause)}`, cause }),
      );
    }

    const { status } = response;
    const requestId = response.headers.get(this.#settings.headers.requestId) ?? undefined;
    if (status >= 200 && status < 300) {
      if (!request.expectBody) return { ok: true, value: undefined, status, requestId };
      const parsed = parseJson(text);
      if (parsed.ok) return { ok: true, value: parsed.value, status, requestId };
      // A cut or foreign (proxy, captive portal) body: the request is idempotent, so ask again.
      const type = response.headers.get('content-type') ?? 'no content type';
      return retry(
        new UnexpectedResponseError({
          status,
          errorCode: CLIENT_ERROR_CODES.unexpectedResponse,
          message: `${call.method} ${call.path} answered ${status} with a body that is not JSON (${type}, ${text.length} characters)`,
          requestId,
          retryable: true,
        }),
      );
    }
    const parsed = parseJson(text);
    const errorBody = parsed.ok ? parsed.value : text;
    if (status === 429 || (status >= 500 && status !== 501)) {
      const retryAfterMs = parseRetryAfterMs(response.headers.get('retry-after'));
      return retry(errorFromResponse(status, errorBody, requestId, retryAfterMs), retryAfterMs);
    }
    throw errorFromResponse(status, errorBody, requestId);
  }

  /**
   * One attempt through `fetch`, read whole: with an AbortController of its own, aborted by the
   * caller's signal or at the attempt's timeout (then rejecting with a {@link WireTimeoutError}).
   */
  async #fetch(call: ServiceCall, request: { url: string; headers: Record<string, string>; body: string | undefined; timeoutMs: number; signal: AbortSignal | undefined }): Promise<WireAnswer> {
    const { signal, timeoutMs } = request;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new WireTimeoutError(timeoutMs)), timeoutMs);
    const onCallerAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      const sent = new Request(request.url, {
        method: call.method,
        headers: new Headers(request.headers),
        body: request.body,
        signal: controller.signal,
        // The service never redirects; following one could carry the body and key elsewhere.
        redirect: 'manual',
      });
      // Raced with the signal, so an injected fetch that ignores it still cannot hang the call.
      const fetched = await untilAborted(this.#settings.fetch(sent), controller.signal);
      return { status: fetched.status, headers: fetched.headers, text: await untilAborted(fetched.text(), controller.signal) };
    } catch (error) {
      // The abort's reason names a timeout, whatever the fetch made of it.
      const reason: unknown = controller.signal.reason;
      throw controller.signal.aborted && reason instanceof WireTimeoutError ? reason : error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /** A fresh copy of the key's headers, for this call's own to be added to. */
  #headersFor(call: ServiceCall): Record<string, string> {
    if (call.key !== 'publishable') return { ...this.#secretHeaders };
    if (this.#publishableHeaders === undefined) {
      throw new ConfigurationError(`${call.method} ${call.path} needs the publishable key: set publishableKey in the ServiceClient options`);
    }
    return { ...this.#publishableHeaders };
  }
}

/** `headers` with `user-agent`, as a record: read once, not built into `Headers` on every call. */
function headerRecord(headers: Headers, userAgent: string | undefined): Record<string, string> {
  if (userAgent !== undefined) headers.set('user-agent', userAgent);
  const record: Record<string, string> = {};
  for (const [name, value] of headers) record[name] = value;
  return record;
}

/** An argument refused before anything was sent. */
function invalidArgumentError(message: string, field?: string): ValidationError {
  return new ValidationError({ status: 0, errorCode: CLIENT_ERROR_CODES.invalidArgument, message, field });
}

/** A positive number of milliseconds, or the error `fail` makes. */
export function checkTimeout(value: unknown, name: string, fail: (message: string) => Error): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw fail(`${name} must be a positive number of milliseconds`);
  return value;
}

/**
 * One encoded path segment. "." and ".." are refused because URL parsing resolves them (even
 * percent-encoded), which would turn `capture("..", …)` into `POST /api/v1/charges`.
 */
export function pathSegment(name: string, value: string): string {
  if (typeof value !== 'string' || value === '') throw invalidArgumentError(`${name} is required`, name);
  if (/^(\.|%2e){1,2}$/i.test(value)) throw invalidArgumentError(`${name} "${value}" is not an id`, name);
  return encodeURIComponent(value);
}

/** `Retry-After` as delay-seconds or an HTTP date, in milliseconds from now. */
export function parseRetryAfterMs(value: string | null, nowMs: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // Every HTTP date form starts with the day name; Date.parse alone would read "-5" as a year.
  const date = /^[A-Za-z]/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

function retry(error: ServiceError, retryAfterMs?: number): AttemptOutcome {
  return { ok: false, failure: { error, retryAfterMs } };
}

function checkIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw invalidArgumentError(`idempotencyKey must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters`, 'idempotencyKey');
  }
  return key;
}

/**
 * A body's JSON as `unknown`, never cast: a 2xx value is checked by the call's schema in
 * {@link ServiceTransport.call}, an error body by `errorFromResponse`.
 */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: false };
  try {
    const value: unknown = JSON.parse(text);
    return { ok: true, value };
  } catch {
    return { ok: false };
  }
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : '';
    return `${cause.message}${inner}`;
  }
  return String(cause);
}

// zod/mini carries no message locale, so an unexpected enum value would only read "Invalid input".
function readableIssues(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.map((issue) =>
    issue.code === 'invalid_value' && issue.message === 'Invalid input'
      ? { ...issue, message: `must be one of ${issue.values.map(String).join(', ')}` }
      : issue,
  );
}
