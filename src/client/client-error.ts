/** Why a browser-side call did not give an answer to act on. */
export type ClientErrorKind = 'network' | 'rejected' | 'server' | 'config' | 'aborted';

/**
 * A failed call from the browser: `kind` decides what the shopper sees, `retryable` whether the
 * same attempt may be sent again, `code` is the service's or the shop's error code when there was one.
 * `details` is the error answer's body as sent, unchecked: the members beside `error` that some
 * refusals carry (the `409`s of `POST /charges`: see `CheckoutConflictDetails`).
 */
export class CheckoutClientError extends Error {
  constructor(
    readonly kind: ClientErrorKind,
    message: string,
    readonly code = '',
    readonly retryable = kind === 'network' || kind === 'server',
    readonly field?: string,
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = 'CheckoutClientError';
  }
}

/** The message of whatever was thrown: an error's own, else the thrown value in words. */
export function errorMessage(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}

/**
 * Whatever was thrown, as a {@link CheckoutClientError}: itself when it is one, else one of `kind`
 * with its message, for the elements to explain it as they explain the others.
 */
export function asClientError(thrown: unknown, kind: ClientErrorKind = 'server'): CheckoutClientError {
  return thrown instanceof CheckoutClientError ? thrown : new CheckoutClientError(kind, errorMessage(thrown));
}
