import { RequestBodyError } from '../../core/request-body.js';
import type { CheckoutErrorCode } from '../../core/schemas/checkout.js';
import {
  AuthenticationError,
  IdempotencyConflictError,
  NotFoundError,
  PermissionError,
  RateLimitedError,
  ServiceError,
  StateConflictError,
  ValidationError,
} from '../errors.js';
import type { HttpAnswer } from '../../core/http-call.js';
import { responseOf } from './fetch-call.js';
import { jsonAnswer } from './json-response.js';

/** A refusal of the proxy, in the service's error shape, with a message safe to show a shopper. */
export class CheckoutError extends Error {
  readonly status: number;
  readonly code: CheckoutErrorCode;
  readonly retryable: boolean;
  readonly field: string | undefined;
  readonly headers: Record<string, string>;
  readonly serviceRequestId: string | undefined;
  /** Members of the answer beside `code`, `message` and `error`, e.g. the new amount of `AMOUNT_CHANGED`. */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    status: number,
    code: CheckoutErrorCode,
    message: string,
    extra: { retryable?: boolean; field?: string; headers?: Record<string, string>; cause?: unknown; serviceRequestId?: string; details?: Record<string, unknown> } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'CheckoutError';
    this.status = status;
    this.code = code;
    this.retryable = extra.retryable ?? false;
    this.field = extra.field;
    this.headers = extra.headers ?? {};
    this.serviceRequestId = extra.serviceRequestId;
    this.details = extra.details ?? {};
  }

  /** The refusal as the checkout endpoint answers it. */
  toAnswer(): HttpAnswer {
    const error: Record<string, unknown> = { errorCode: this.code, errorMessage: this.message, retryable: this.retryable };
    if (this.field) error.field = this.field;
    return jsonAnswer(this.status, { ...this.details, code: this.status, message: this.message, error }, this.headers);
  }

  /** The refusal as a Fetch `Response`, for a route of the merchant's own that refuses alike. */
  toResponse(): Response {
    return responseOf(this.toAnswer());
  }
}

/** Turns a body that could not be read into the refusal the browser gets. */
export function bodyRefusal(error: unknown): unknown {
  if (!(error instanceof RequestBodyError)) return error;
  switch (error.reason) {
    case 'too-large':
      return new CheckoutError(413, 'BODY_TOO_LARGE', 'The request is too large.');
    case 'timeout':
      return new CheckoutError(408, 'REQUEST_TIMEOUT', 'The request took too long to arrive. Please try again.', { retryable: true });
    case 'media-type':
      return new CheckoutError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send JSON (Content-Type: application/json).');
    default:
      return new CheckoutError(400, 'INVALID_REQUEST', `The request is not valid: ${error.message}.`);
  }
}

/** Turns a failed call to the service into the shopper-facing refusal. */
export function upstreamRefusal(error: unknown): unknown {
  if (error instanceof CheckoutError || !(error instanceof ServiceError)) {
    if (error instanceof DOMException && error.name === 'AbortError') return new CheckoutError(503, 'UPSTREAM_UNAVAILABLE', 'The request was cancelled.', { retryable: true });
    return error;
  }
  const extra = serviceCause(error);
  if (error instanceof ValidationError) return new CheckoutError(400, 'PAYMENT_DETAILS_REJECTED', rejectionMessage(error), { ...extra, ...(error.field ? { field: error.field } : {}) });
  if (error instanceof IdempotencyConflictError) {
    return new CheckoutError(409, 'IDEMPOTENCY_CONFLICT', 'This payment attempt was already sent with other details. Please start again.', extra);
  }
  if (error instanceof NotFoundError) return new CheckoutError(404, 'NOT_FOUND', 'This payment was not found.', extra);
  if (error instanceof StateConflictError) return new CheckoutError(409, 'PAYMENT_DETAILS_REJECTED', 'This payment cannot be changed now.', extra);
  if (error instanceof AuthenticationError || error instanceof PermissionError) {
    return new CheckoutError(502, 'UPSTREAM_REJECTED', 'Payments are not available right now. Please try again later.', extra);
  }
  const retryAfter = error instanceof RateLimitedError && error.retryAfterMs !== undefined ? String(Math.ceil(error.retryAfterMs / 1000)) : '2';
  if (error.retryable) {
    return new CheckoutError(503, 'UPSTREAM_UNAVAILABLE', 'The payment service is not answering. Please try again.', { ...extra, retryable: true, headers: { 'retry-after': retryAfter } });
  }
  return new CheckoutError(502, 'UPSTREAM_REJECTED', 'Payments are not available right now. Please try again later.', extra);
}

/** A service error as the cause of a refusal, with its request id for the log. */
export function serviceCause(error: ServiceError): { cause: ServiceError; serviceRequestId?: string } {
  return { cause: error, ...(error.requestId ? { serviceRequestId: error.requestId } : {}) };
}

/** Shopper-safe wording for the service's refusals of what the shopper entered. */
function rejectionMessage(error: ValidationError): string {
  const field = error.field ?? '';
  if (field.endsWith('cardTokenId')) return 'This card entry has expired. Please enter the card again.';
  if (field.endsWith('securityCode')) return 'Check the card’s security code (CVC).';
  if (field.endsWith('installmentPeriod')) return 'This installment plan is not available for this amount.';
  if (field === 'deviceType') return 'This banking app can only be used on a phone.';
  if (error.message.includes('expired')) return 'This card has expired. Please use another card.';
  return 'The payment details were not accepted. Please check them or choose another method.';
}
