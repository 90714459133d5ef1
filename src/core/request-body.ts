/**
 * Reading request bodies safely with the Fetch API, for every server piece (the merchant proxy
 * and the sandbox): never past a byte limit, JSON only where JSON is expected, bounded nesting.
 */

/** Deepest nesting of arrays and objects a JSON request body may have. */
export const MAX_JSON_DEPTH = 64;

/**
 * The longest a request's body may take to arrive in full, from its first read: a body dribbled a
 * byte at a time would otherwise hold its request and socket for as long as the sender likes. A
 * charge or webhook body arrives in milliseconds; a slip upload over a slow phone link in seconds.
 */
export const BODY_READ_TIMEOUT_MS = 10_000;

export type RequestBodyFault = 'too-large' | 'empty' | 'media-type' | 'invalid-json' | 'too-deep' | 'unreadable' | 'timeout';

/** A body that cannot be accepted; `reason` lets each server answer in its own error shape. */
export class RequestBodyError extends Error {
  readonly reason: RequestBodyFault;
  constructor(reason: RequestBodyFault, message: string) {
    super(message);
    this.name = 'RequestBodyError';
    this.reason = reason;
  }
}

/**
 * The raw body bytes, stopping as soon as they pass `maxBytes` (a lying Content-Length too). A body
 * that breaks off (the client reset the connection mid-upload) is the client's fault, `unreadable`.
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      throw new RequestBodyError('unreadable', 'request body broke off before its end');
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The body as UTF-8 text, within `maxBytes`. */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(request, maxBytes));
}

/** Whether a Content-Type header says JSON (parameters such as charset allowed). */
export function isJsonContentType(contentType: string | null): boolean {
  return /^application\/json\s*(;|$)/i.test((contentType ?? '').trim());
}

/**
 * Reads a JSON body: refuses one that is too large, empty, not declared as JSON, malformed, or
 * nested deeper than `maxDepth` (what follows may walk it recursively).
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
  maxDepth = MAX_JSON_DEPTH,
  options: { allowEmpty?: boolean } = {},
): Promise<{ value: unknown; text: string }> {
  const text = await readBodyText(request, maxBytes);
  return { value: parseJsonBody(text, request.headers.get('content-type'), maxDepth, options), text };
}

/**
 * A body already read, as {@link readJsonBody} reads it: refused when empty, not declared as JSON
 * by `contentType`, malformed, or nested deeper than `maxDepth`.
 */
export function parseJsonBody(text: string, contentType: string | null, maxDepth = MAX_JSON_DEPTH, options: { allowEmpty?: boolean } = {}): unknown {
  if (text.trim() === '') {
    // Actions such as cancel or disable carry nothing: an empty body there is an empty object.
    if (options.allowEmpty) return {};
    throw new RequestBodyError('empty', 'request body is empty; send a JSON object');
  }
  if (!isJsonContentType(contentType)) {
    throw new RequestBodyError('media-type', 'Content-Type must be application/json');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RequestBodyError('invalid-json', 'request body is not valid JSON');
  }
  if (jsonDepth(value, maxDepth) > maxDepth) {
    throw new RequestBodyError('too-deep', `body is nested deeper than ${maxDepth} levels`);
  }
  return value;
}

/** Nesting depth of a parsed JSON value, measured without recursion; stops once past `limit`. */
export function jsonDepth(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  if (value === null || typeof value !== 'object') return 0;
  let deepest = 0;
  // Only objects and arrays are stacked, each beside its depth: no pair made per value.
  const items: object[] = [value];
  const depths: number[] = [1];
  for (let item = items.pop(); item !== undefined; item = items.pop()) {
    const depth = depths.pop() ?? 1;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return deepest;
    const children: unknown[] = Array.isArray(item) ? (item as unknown[]) : Object.values(item);
    for (const child of children) {
      if (child !== null && typeof child === 'object') {
        items.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return deepest;
}

/** The refusal of a body past `maxBytes`. */
export function tooLarge(maxBytes: number): RequestBodyError {
  return new RequestBodyError('too-large', `request body is larger than ${maxBytes} bytes`);
}

/** The refusal of a body that did not arrive in full within `timeoutMs`. */
export function bodyTimedOut(timeoutMs: number): RequestBodyError {
  return new RequestBodyError('timeout', `request body did not arrive in full within ${timeoutMs} ms`);
}
