import type { ServiceErrorBody } from '../core/service-error.js';

/** What every error of the service client carries. */
export interface ServiceErrorDetails {
  /** HTTP status, or 0 when no answer came (network fault, timeout). */
  status: number;
  /** The service's error code, e.g. `API_VALIDATION_ERROR`, or a client code such as `NETWORK_ERROR`. */
  errorCode: string;
  message: string;
  /** The service's request id, when it answered; quote it when reporting a problem. */
  requestId?: string | undefined;
  /** The failing field, when the service or the response check named one. */
  field?: string | undefined;
  cause?: unknown;
}

/**
 * Base of every error the service client throws. `retryable` says whether the same request
 * (with the same idempotency key) may succeed later.
 */
export class ServiceError extends Error {
  readonly status: number;
  readonly errorCode: string;
  readonly requestId: string | undefined;
  readonly field: string | undefined;
  readonly retryable: boolean = false;

  constructor(details: ServiceErrorDetails) {
    super(details.message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.status = details.status;
    this.errorCode = details.errorCode;
    this.requestId = details.requestId;
    this.field = details.field;
  }
}

/** 401: missing or wrong credentials, or a key of the wrong type for the path. */
export class AuthenticationError extends ServiceError {}
/** 403: authenticated, but not allowed to do this. */
export class PermissionError extends ServiceError {}
/** 400: a field failed validation (`field` names it when the message does), or the body was not JSON. */
export class ValidationError extends ServiceError {}
/** 404: no such resource for this merchant. */
export class NotFoundError extends ServiceError {}
/** 412: the idempotency key was already used with a different request. */
export class IdempotencyConflictError extends ServiceError {}
/** 409 or 422: the resource's state forbids the change (e.g. CHARGE_PENDING, REFUND_PENDING). */
export class StateConflictError extends ServiceError {}
/** 429: too many requests; `retryAfterMs` tells when to try again, if the service said. */
export class RateLimitedError extends ServiceError {
  override readonly retryable = true;
  readonly retryAfterMs: number | undefined;
  constructor(details: ServiceErrorDetails & { retryAfterMs?: number | undefined }) {
    super(details);
    this.retryAfterMs = details.retryAfterMs;
  }
}
/** 5xx, a network fault or a timeout: the service could not answer. Safe to retry with the same key. */
export class ServiceUnavailableError extends ServiceError {
  override readonly retryable = true;
}
/** 501: the service (or this sandbox) does not offer the endpoint. */
export class NotImplementedError extends ServiceError {}
/**
 * A 2xx answer whose body is not what the contract says; `field` names the first mismatch.
 * `retryable` when the body was not JSON at all (cut, or replaced by a proxy on the way): the
 * same request with the same key may still get the real answer, which the service replays.
 */
export class UnexpectedResponseError extends ServiceError {
  override readonly retryable: boolean;
  constructor(details: ServiceErrorDetails & { retryable?: boolean }) {
    super(details);
    this.retryable = details.retryable ?? false;
  }
}
/** The client is set up wrong (missing key, a key over plain http to a remote host...). */
export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

/** Single lowercase words that are request fields; other words start prose ("payment method is …"). */
const ONE_WORD_FIELDS = new Set(['amount', 'currency', 'customer', 'reason', 'pan', 'limit', 'offset', 'order', 'name', 'mode', 'body', 'format', 'raw', 'image']);

/** Reads "inputs are failing validation; paymentMethod.card.pan is not …" into its field. */
function fieldOf(message: string): string | undefined {
  const token = /failing validation; ([A-Za-z_][\w.]*) /.exec(message)?.[1];
  if (token === undefined) return undefined;
  return /[.A-Z_]/.test(token) || ONE_WORD_FIELDS.has(token) ? token : undefined;
}

/**
 * The one place that turns an error answer of the service into a typed error, by HTTP status
 * first (the error code list may grow) and the error code second.
 */
export function errorFromResponse(
  status: number,
  body: unknown,
  requestId: string | undefined,
  retryAfterMs?: number,
): ServiceError {
  const parsed = body as Partial<ServiceErrorBody> | undefined;
  const errorCode = typeof parsed?.error?.errorCode === 'string' ? parsed.error.errorCode : `HTTP_${status}`;
  const message =
    typeof parsed?.error?.errorMessage === 'string'
      ? parsed.error.errorMessage
      : typeof parsed?.message === 'string'
        ? parsed.message
        : `the service answered HTTP ${status}`;
  const details: ServiceErrorDetails = { status, errorCode, message, requestId, field: fieldOf(message) };
  if (status === 400) return new ValidationError(details);
  if (status === 401) return new AuthenticationError(details);
  if (status === 403) return new PermissionError(details);
  if (status === 404) return new NotFoundError(details);
  if (status === 412) return new IdempotencyConflictError(details);
  if (status === 409 || status === 422) return new StateConflictError(details);
  if (status === 429) return new RateLimitedError({ ...details, retryAfterMs });
  if (status === 501) return new NotImplementedError(details);
  if (status >= 500) return new ServiceUnavailableError(details);
  return new ServiceError(details);
}
