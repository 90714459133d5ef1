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

/** Reads the service-shaped error body `{message, error: {errorCode, errorMessage, retryable, field}}`. */
export async function errorFromAnswer(response: Response): Promise<CheckoutClientError> {
  let body: { message?: unknown; error?: { errorCode?: unknown; errorMessage?: unknown; retryable?: unknown; field?: unknown } } = {};
  try {
    body = await response.json();
  } catch {
    // Not JSON: a proxy or a crash in between; the status says enough.
  }
  const error = body.error ?? {};
  const message = typeof error.errorMessage === 'string' ? error.errorMessage : typeof body.message === 'string' ? body.message : `HTTP ${response.status}`;
  const server = response.status >= 500 || response.status === 429;
  return new CheckoutClientError(
    server ? 'server' : 'rejected',
    message,
    typeof error.errorCode === 'string' ? error.errorCode : `HTTP_${response.status}`,
    typeof error.retryable === 'boolean' ? error.retryable : server,
    typeof error.field === 'string' ? error.field : undefined,
  );
}

/** Runs `fetch`, turning a network failure or an abort into a {@link CheckoutClientError}. */
export async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw new CheckoutClientError('aborted', 'aborted', '', false);
    throw new CheckoutClientError('network', (error as Error)?.message ?? 'network error');
  }
}
