/** Why a browser-side call did not give an answer to act on. */
export type ClientErrorKind = 'network' | 'rejected' | 'server' | 'config' | 'aborted';

/**
 * A failed call from the browser: `kind` decides what the shopper sees, `retryable` whether the
 * same attempt may be sent again, `code` is the service's or the shop's error code when there was one.
 */
export class CheckoutClientError extends Error {
  constructor(
    readonly kind: ClientErrorKind,
    message: string,
    readonly code = '',
    readonly retryable = kind === 'network' || kind === 'server',
    readonly field?: string,
  ) {
    super(message);
    this.name = 'CheckoutClientError';
  }
}
