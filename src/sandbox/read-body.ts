import { SandboxError } from './sandbox-error.js';

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
  try {
    return { value: JSON.parse(text) as unknown, text };
  } catch {
    throw new SandboxError('INVALID_JSON_ERROR', 'request body is not valid JSON');
  }
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
