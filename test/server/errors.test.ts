import { describe, expect, it } from 'vitest';
import { serviceErrorBody } from '../../src/core/service-error.js';
import {
  AuthenticationError,
  errorFromResponse,
  IdempotencyConflictError,
  NotFoundError,
  NotImplementedError,
  PermissionError,
  RateLimitedError,
  ServiceError,
  ServiceUnavailableError,
  StateConflictError,
  ValidationError,
} from '../../src/server/errors.js';

describe('errorFromResponse', () => {
  describe('maps each status to its class', () => {
    it.each([
      [400, ValidationError, 'API_VALIDATION_ERROR'],
      [401, AuthenticationError, 'INVALID_CREDENTIALS_ERROR'],
      [403, PermissionError, 'NO_PERMISSION_ERROR'],
      [404, NotFoundError, 'NOT_FOUND_ERROR'],
      [409, StateConflictError, 'REQUEST_CONFLICT_ERROR'],
      [412, IdempotencyConflictError, 'IDEMPOTENCY_KEY_ERROR'],
      [422, StateConflictError, 'CHARGE_PENDING'],
      [429, RateLimitedError, 'TOO_MANY_REQUESTS_ERROR'],
      [500, ServiceUnavailableError, 'INTERNAL_SERVER_ERROR'],
      [501, NotImplementedError, 'NOT_IMPLEMENTED_ERROR'],
    ] as const)('%i becomes %o', (status, type, errorCode) => {
      const error = errorFromResponse(status, serviceErrorBody(errorCode, 'what went wrong'), 'req_1');
      expect(error).toBeInstanceOf(type);
      expect(error).toBeInstanceOf(ServiceError);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(type.name);
      expect(error.status).toBe(status);
      expect(error.errorCode).toBe(errorCode);
      expect(error.requestId).toBe('req_1');
    });

    it.each([502, 503, 504, 599])('%i is a ServiceUnavailableError', (status) => {
      expect(errorFromResponse(status, undefined, undefined)).toBeInstanceOf(ServiceUnavailableError);
    });

    it('keeps an unmapped status as a plain ServiceError rather than guessing a subclass', () => {
      const error = errorFromResponse(418, { code: 418, message: 'teapot', error: { errorCode: 'TEAPOT_ERROR', errorMessage: 'short and stout' } }, 'req_2');
      expect(error.constructor).toBe(ServiceError);
      expect(error.errorCode).toBe('TEAPOT_ERROR');
      expect(error.message).toBe('short and stout');
    });

    it('goes by the status even when the error code belongs to another one', () => {
      expect(errorFromResponse(404, serviceErrorBody('API_VALIDATION_ERROR', 'odd'), undefined)).toBeInstanceOf(NotFoundError);
    });
  });

  describe('says whether a retry may help', () => {
    it('marks 429 and 5xx retryable', () => {
      expect(errorFromResponse(429, undefined, undefined).retryable).toBe(true);
      expect(errorFromResponse(503, undefined, undefined).retryable).toBe(true);
    });

    it('marks 4xx and 501 final', () => {
      for (const status of [400, 401, 403, 404, 409, 412, 422, 501]) {
        expect(errorFromResponse(status, undefined, undefined).retryable, `status ${status}`).toBe(false);
      }
    });

    it('carries the wait of a 429', () => {
      const error = errorFromResponse(429, serviceErrorBody('TOO_MANY_REQUESTS_ERROR', 'slow down'), 'req_3', 2_000);
      expect(error).toBeInstanceOf(RateLimitedError);
      expect(error).toHaveProperty('retryAfterMs', 2_000);
    });
  });

  describe('reads the service body', () => {
    it('takes errorCode and errorMessage from the error member', () => {
      const error = errorFromResponse(404, { code: 404, message: 'not found', error: { errorCode: 'NOT_FOUND_ERROR', errorMessage: 'no charge with id ch_1' } }, 'req_4');
      expect(error.errorCode).toBe('NOT_FOUND_ERROR');
      expect(error.message).toBe('no charge with id ch_1');
    });

    it('falls back on the top-level message when errorMessage is missing', () => {
      const error = errorFromResponse(403, { code: 403, message: 'not allowed' }, undefined);
      expect(error.message).toBe('not allowed');
      expect(error.errorCode).toBe('HTTP_403');
    });

    it('names the failing field of a validation message', () => {
      const error = errorFromResponse(
        400,
        serviceErrorBody('API_VALIDATION_ERROR', 'inputs are failing validation; paymentMethod.card.pan is not a valid card number'),
        'req_5',
      );
      expect(error.field).toBe('paymentMethod.card.pan');
    });

    it('names the first field when several fail', () => {
      const error = errorFromResponse(400, serviceErrorBody('API_VALIDATION_ERROR', 'inputs are failing validation; amount is required; currency must be THB'), undefined);
      expect(error.field).toBe('amount');
    });

    it('reads the service’s own prose message as naming no field', () => {
      const error = errorFromResponse(400, serviceErrorBody('API_VALIDATION_ERROR', 'inputs are failing validation; payment method is not supported'), undefined);
      expect(error.field).toBeUndefined();
    });

    it('names no field when the message names none', () => {
      expect(errorFromResponse(400, serviceErrorBody('INVALID_JSON_ERROR', 'request body is not valid JSON'), undefined).field).toBeUndefined();
      expect(errorFromResponse(404, serviceErrorBody('NOT_FOUND_ERROR', 'not found'), undefined).field).toBeUndefined();
    });
  });

  describe('tolerates a body that is not the service error shape', () => {
    it.each([
      ['no body', undefined],
      ['an empty string', ''],
      ['an HTML page', '<html><body>502 Bad Gateway</body></html>'],
      ['null', null],
      ['an empty object', {}],
      ['an array', [1, 2]],
      ['fields of the wrong type', { code: '500', message: 42, error: { errorCode: 7, errorMessage: null } }],
    ])('with %s it still builds the error from the status', (_label, body) => {
      const error = errorFromResponse(502, body, 'req_6');
      expect(error).toBeInstanceOf(ServiceUnavailableError);
      expect(error.errorCode).toBe('HTTP_502');
      expect(error.message).toBe('the service answered HTTP 502');
      expect(error.requestId).toBe('req_6');
      expect(error.field).toBeUndefined();
    });
  });
});
