import { MAX_JSON_DEPTH, readBodyText, readJsonBody as readJson, RequestBodyError, type RequestBodyFault } from '../../core/request-body.js';
import type { ServiceErrorCode } from '../../core/service-error.js';
import { SandboxError } from './sandbox-error.js';

/** Deepest nesting of arrays and objects a request body may have. */
export const SANDBOX_MAX_JSON_DEPTH = MAX_JSON_DEPTH;

const ERROR_CODES: Readonly<Record<RequestBodyFault, ServiceErrorCode>> = {
  'too-large': 'REQUEST_TOO_LARGE_ERROR',
  empty: 'INVALID_JSON_ERROR',
  'media-type': 'UNSUPPORTED_MEDIA_TYPE_ERROR',
  'invalid-json': 'INVALID_JSON_ERROR',
  'too-deep': 'API_VALIDATION_ERROR',
  unreadable: 'INVALID_JSON_ERROR',
};

function asSandboxError(error: unknown): unknown {
  if (!(error instanceof RequestBodyError)) return error;
  const message = error.reason === 'too-deep' ? `inputs are failing validation; ${error.message}` : error.message;
  return new SandboxError(ERROR_CODES[error.reason], message);
}

/** A JSON request body, or the service's error for why it cannot be read. */
export async function readJsonBody(request: Request, maxBytes: number, options: { allowEmpty?: boolean } = {}): Promise<{ value: unknown; text: string }> {
  try {
    return await readJson(request, maxBytes, SANDBOX_MAX_JSON_DEPTH, options);
  } catch (error) {
    throw asSandboxError(error);
  }
}

/** The body as text within `maxBytes` (hosted-page form posts). */
export async function readText(request: Request, maxBytes: number): Promise<string> {
  try {
    return await readBodyText(request, maxBytes);
  } catch (error) {
    throw asSandboxError(error);
  }
}
