import { SandboxError } from './sandbox-error.js';

/** Deepest nesting of arrays and objects a request body may have. */
export const SANDBOX_MAX_JSON_DEPTH = 64;

/**
 * Reads a JSON request body, refusing one that is too large before reading past the limit, one
 * that is not declared as JSON, and one that does not parse.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<{ value: unknown; text: string }> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  const text = await readText(request, maxBytes);
  if (text.trim() === '') throw new SandboxError('INVALID_JSON_ERROR', 'request body is empty; send a JSON object');
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type.trim())) {
    throw new SandboxError('UNSUPPORTED_MEDIA_TYPE_ERROR', 'Content-Type must be application/json');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SandboxError('INVALID_JSON_ERROR', 'request body is not valid JSON');
  }
  // Everything after parsing (validation, idempotency fingerprints) may walk the body
  // recursively: a bounded depth keeps that from exhausting the stack.
  if (jsonDepth(value) > SANDBOX_MAX_JSON_DEPTH) {
    throw new SandboxError('API_VALIDATION_ERROR', `inputs are failing validation; body is nested deeper than ${SANDBOX_MAX_JSON_DEPTH} levels`);
  }
  return { value, text };
}

/** Nesting depth of a parsed JSON value, measured without recursion. */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > SANDBOX_MAX_JSON_DEPTH) return deepest;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Reads the body as UTF-8 text, stopping as soon as it passes `maxBytes`. */
export async function readText(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
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
  return new TextDecoder().decode(bytes);
}

function tooLarge(maxBytes: number): SandboxError {
  return new SandboxError('REQUEST_TOO_LARGE_ERROR', `request body is larger than ${maxBytes} bytes`);
}
