import { SandboxError } from '../http/sandbox-error.js';
import type { StoredAuthorization } from './card-authorization-records.js';

/** The 422 for an action the authorization's state forbids, saying why. */
export function refuse(authorization: StoredAuthorization, action: 'canceled' | 'captured'): never {
  const id = authorization.cardAuthorizationId;
  switch (authorization.status) {
    case 'PENDING':
      throw new SandboxError(
        'CARD_AUTHORIZATION_PENDING',
        `card authorization ${id} is still PENDING: the shopper has not finished the card step; it can be ${action} once it is AUTHORIZED`,
      );
    case 'FAILED':
      return invalid(`card authorization ${id} FAILED (${authorization.failureCode}); only an AUTHORIZED one can be ${action}`);
    case 'CANCELED':
      return invalid(`card authorization ${id} is CANCELED; nothing is reserved on it any more`);
    case 'EXPIRED':
      return invalid(`card authorization ${id} EXPIRED at ${authorization.expiresAt}; nothing is reserved on it any more`);
    case 'CAPTURED':
      if (action === 'canceled') return invalid(`card authorization ${id} is CAPTURED; refund its charges instead`);
      return invalid(
        authorization.supportsMulticapture
          ? `card authorization ${id} is CAPTURED: its final capture was made`
          : `card authorization ${id} is CAPTURED and was created without supportsMulticapture, so it takes one capture only`,
      );
    default:
      return invalid(`card authorization ${id} is ${authorization.status}; only an AUTHORIZED one can be ${action}`);
  }
}

function invalid(message: string): never {
  throw new SandboxError('CARD_AUTHORIZATION_STATUS_INVALID_ERROR', message);
}
