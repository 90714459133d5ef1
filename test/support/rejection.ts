import type { ServiceError } from '../../src/server/errors.js';

/** The error a service call rejects with; fails the test when the call resolves instead. */
export async function rejection(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    return error as ServiceError;
  }
  throw new Error('expected the call to reject, but it resolved');
}
