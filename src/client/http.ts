/**
 * The browser's calls, as the card tokens and the checkout API make them. Apart from
 * `client-error.ts` so that a page that only shows the form does not download them.
 */
import { CheckoutClientError } from './client-error.js';

/** Reads the service-shaped error body `{message, error: {errorCode, errorMessage, retryable, field}}`. */
async function errorFromAnswer(response: Response): Promise<CheckoutClientError> {
  let body: { [member: string]: unknown; message?: unknown; error?: { errorCode?: unknown; errorMessage?: unknown; retryable?: unknown; field?: unknown } } = {};
  try {
    body = (await response.json()) as typeof body;
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
    body,
  );
}

/**
 * How long one call of the browser may take, answer read included: the merchant's server answers
 * a shopper's request within its own deadline (20 s by default); past this, the network is at fault.
 */
export const CLIENT_REQUEST_DEADLINE_MS = 30_000;

/** Runs `fetch`, turning a network failure or an abort into a {@link CheckoutClientError}. */
async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (error instanceof Error && error.name === 'AbortError') throw new CheckoutClientError('aborted', 'aborted', '', false);
    throw new CheckoutClientError('network', error instanceof Error ? error.message : 'network error');
  }
}

/**
 * Sends the request (with `signal`, to abort it) and reads the JSON answer; an error answer
 * throws as a {@link CheckoutClientError} read from its body. Given up after `deadlineMs`
 * ({@link CLIENT_REQUEST_DEADLINE_MS} by default): a retryable network error, code `TIMEOUT`, in
 * the words of a lost connection (the shopper's details are kept, and trying again is safe).
 */
export async function fetchJson(url: string, init: RequestInit, signal?: AbortSignal, deadlineMs = CLIENT_REQUEST_DEADLINE_MS): Promise<unknown> {
  const controller = new AbortController();
  const deadline = { passed: false };
  const timer = setTimeout(() => {
    deadline.passed = true;
    controller.abort();
  }, deadlineMs);
  const stop = () => controller.abort();
  if (signal?.aborted) stop();
  else signal?.addEventListener('abort', stop, { once: true });
  // Over at the abort, whether or not the fetch underneath notices it.
  const ended = new Promise<never>((_, reject) => {
    controller.signal.addEventListener(
      'abort',
      () => {
        // At once, not a turn later: an aborted call leaves no timer behind.
        clearTimeout(timer);
        reject(new CheckoutClientError('aborted', 'aborted', '', false));
      },
      { once: true },
    );
  });
  ended.catch(() => undefined);
  const settle = <T>(work: Promise<T>): Promise<T> => {
    work.catch(() => undefined);
    return Promise.race([work, ended]);
  };
  try {
    const response = await settle(send(url, { ...init, signal: controller.signal }));
    if (!response.ok) throw await settle(errorFromAnswer(response));
    return await settle(response.json() as Promise<unknown>);
  } catch (error) {
    if (deadline.passed) throw new CheckoutClientError('network', 'no answer in time', 'TIMEOUT');
    if (controller.signal.aborted) throw new CheckoutClientError('aborted', 'aborted', '', false);
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
  }
}
