import * as z from 'zod/mini';

/**
 * Error codes the service answers with. The service may add more; readers must tolerate an
 * unknown code and fall back on the HTTP status.
 */
export const SERVICE_ERROR_CODES = [
  'INVALID_JSON_ERROR',
  'API_VALIDATION_ERROR',
  'INVALID_CREDENTIALS_ERROR',
  'NO_PERMISSION_ERROR',
  'OPERATION_NOT_ALLOWED_ERROR',
  'NOT_FOUND_ERROR',
  'METHOD_NOT_ALLOWED_ERROR',
  'REQUEST_CONFLICT_ERROR',
  'IDEMPOTENCY_KEY_ERROR',
  'REQUEST_TOO_LARGE_ERROR',
  'REQUEST_TIMEOUT_ERROR',
  'UNSUPPORTED_MEDIA_TYPE_ERROR',
  'MERCHANT_STATUS_INVALID_ERROR',
  'CHARGE_PENDING',
  'REFUND_PENDING',
  'CARD_AUTHORIZATION_PENDING',
  'CARD_AUTHORIZATION_STATUS_INVALID_ERROR',
  'PAYMENT_LINK_STATUS_INVALID_ERROR',
  'TOO_MANY_REQUESTS_ERROR',
  'NOT_IMPLEMENTED_ERROR',
  'INTERNAL_SERVER_ERROR',
] as const;
export type ServiceErrorCode = (typeof SERVICE_ERROR_CODES)[number];

/** The body of every error answer: `{code, message, error: {errorCode, errorMessage}}`. */
export const ServiceErrorBodySchema = z.looseObject({
  code: z.number(),
  message: z.string(),
  error: z.looseObject({
    errorCode: z.string(),
    errorMessage: z.string(),
  }),
});
export type ServiceErrorBody = z.infer<typeof ServiceErrorBodySchema>;

/** HTTP status the service uses for each error code. */
export const SERVICE_ERROR_STATUS: Readonly<Record<ServiceErrorCode, number>> = {
  INVALID_JSON_ERROR: 400,
  API_VALIDATION_ERROR: 400,
  INVALID_CREDENTIALS_ERROR: 401,
  NO_PERMISSION_ERROR: 403,
  OPERATION_NOT_ALLOWED_ERROR: 403,
  NOT_FOUND_ERROR: 404,
  METHOD_NOT_ALLOWED_ERROR: 405,
  REQUEST_CONFLICT_ERROR: 409,
  IDEMPOTENCY_KEY_ERROR: 412,
  REQUEST_TOO_LARGE_ERROR: 413,
  REQUEST_TIMEOUT_ERROR: 408,
  UNSUPPORTED_MEDIA_TYPE_ERROR: 415,
  MERCHANT_STATUS_INVALID_ERROR: 422,
  CHARGE_PENDING: 422,
  REFUND_PENDING: 422,
  CARD_AUTHORIZATION_PENDING: 422,
  /**
   * A card authorization past the point where the action makes sense (failed, canceled, captured,
   * expired). The service documents no code for this; the sandbox names it, keeping the 422.
   */
  CARD_AUTHORIZATION_STATUS_INVALID_ERROR: 422,
  PAYMENT_LINK_STATUS_INVALID_ERROR: 422,
  TOO_MANY_REQUESTS_ERROR: 429,
  NOT_IMPLEMENTED_ERROR: 501,
  INTERNAL_SERVER_ERROR: 500,
};

/** Builds the service's error body for a code and a message. */
export function serviceErrorBody(errorCode: ServiceErrorCode, message: string): ServiceErrorBody {
  return {
    code: SERVICE_ERROR_STATUS[errorCode],
    message,
    error: { errorCode, errorMessage: message },
  };
}
