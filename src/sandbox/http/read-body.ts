import { MAX_JSON_DEPTH, readBodyBytes, readBodyText, readJsonBody as readJson, RequestBodyError, type RequestBodyFault } from '../../core/request-body.js';
import type { ServiceErrorCode } from '../../core/service-error.js';
import { SandboxError } from './sandbox-error.js';

/**
 * The sandbox's side of the one body reader (`core/request-body.ts`): the same reading, with each
 * refusal answered in the service's error shape.
 */

/** Deepest nesting of arrays and objects a request body may have. */
export const SANDBOX_MAX_JSON_DEPTH = MAX_JSON_DEPTH;

const ERROR_CODES: Readonly<Record<RequestBodyFault, ServiceErrorCode>> = {
  'too-large': 'REQUEST_TOO_LARGE_ERROR',
  empty: 'INVALID_JSON_ERROR',
  'media-type': 'UNSUPPORTED_MEDIA_TYPE_ERROR',
  'invalid-json': 'INVALID_JSON_ERROR',
  'too-deep': 'API_VALIDATION_ERROR',
  unreadable: 'INVALID_JSON_ERROR',
  timeout: 'REQUEST_TIMEOUT_ERROR',
};

async function asSandboxError<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (!(error instanceof RequestBodyError)) throw error;
    const message = error.reason === 'too-deep' ? `inputs are failing validation; ${error.message}` : error.message;
    throw new SandboxError(ERROR_CODES[error.reason], message);
  }
}

/** A JSON request body, or the service's error for why it cannot be read. */
export function readJsonBody(request: Request, maxBytes: number, options: { allowEmpty?: boolean } = {}): Promise<{ value: unknown; text: string }> {
  return asSandboxError(readJson(request, maxBytes, SANDBOX_MAX_JSON_DEPTH, options));
}

/** The raw body within `maxBytes` (a multipart upload). */
export function readBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  return asSandboxError(readBodyBytes(request, maxBytes));
}

/** The body as text within `maxBytes`. */
export function readText(request: Request, maxBytes: number): Promise<string> {
  return asSandboxError(readBodyText(request, maxBytes));
}

/**
 * The fields of a page's form post; anything but a urlencoded form is 415, with `refusal` as its
 * message (the dashboard, which shows it to a person on a page, says so in a sentence).
 */
export async function readFormPost(
  request: Request,
  maxBytes: number,
  refusal = 'hosted pages take form posts (application/x-www-form-urlencoded)',
): Promise<URLSearchParams> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type.trim())) throw new SandboxError('UNSUPPORTED_MEDIA_TYPE_ERROR', refusal);
  return new URLSearchParams(await readText(request, maxBytes));
}
