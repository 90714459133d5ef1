import { formatAmount } from '../../core/money.js';
import { SERVICE_ERROR_STATUS, serviceErrorBody, type ServiceErrorCode } from '../../core/service-error.js';
import { describeFieldIssues, type FieldIssue } from '../../core/validation.js';

/**
 * An answer the sandbox refuses with. Thrown anywhere in a request; turned into the service's
 * error body in one place (`toErrorResponse`).
 */
export class SandboxError extends Error {
  readonly errorCode: ServiceErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(errorCode: ServiceErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'SandboxError';
    this.errorCode = errorCode;
    this.status = SERVICE_ERROR_STATUS[errorCode];
    this.headers = headers;
  }

  /** A 400 that names the failing fields, worded like the service: "inputs are failing validation; …". */
  static validation(issues: readonly FieldIssue[]): SandboxError {
    return new SandboxError('API_VALIDATION_ERROR', `inputs are failing validation; ${describeFieldIssues(issues)}`);
  }

  /** A 400 for one field. */
  static field(field: string, message: string): SandboxError {
    return SandboxError.validation([{ field, message }]);
  }

  toResponse(): Response {
    return jsonResponse(this.status, serviceErrorBody(this.errorCode, this.message), this.headers);
  }
}

/** A JSON answer with the right content type. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/** "1,590.00 THB": an amount as the service's error messages name it, the code after the number. */
export function amountInMessage(amountSatang: number): string {
  return `${formatAmount(amountSatang, 'THB').replace('฿', '')} THB`;
}
