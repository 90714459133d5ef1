import type { HttpCall } from '../core/http-call.js';

/**
 * The waits of the merchant side that the caller can cut short: between two attempts of a service
 * call, between two reads of a long-poll, and on an answer that may never come.
 */

/** Settles like `promise`, or rejects with the signal's reason as soon as it aborts. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    // The caller's own reason, whatever it is, as fetch rejects with it.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) {
      // The abandoned promise may still reject; it must not surface as unhandled.
      promise.catch(() => undefined);
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    promise.finally(() => signal.removeEventListener('abort', onAbort)).then(resolve, reject);
  });
}

/**
 * Settles like `promise`, or rejects with an `AbortError` as soon as the caller of `call` goes
 * away: a wait on something shared (a read of the service others wait on too) that one leaving
 * caller must not cancel, and that needs no `AbortSignal` of its own.
 */
export function untilGone<T>(promise: Promise<T>, call: Pick<HttpCall, 'onGone'>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = call.onGone(() => {
      // The abandoned promise may still reject; it must not surface as unhandled.
      promise.catch(() => undefined);
      reject(new DOMException('The caller went away.', 'AbortError'));
    });
    promise.finally(stop).then(resolve, reject);
  });
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const elapsed = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return untilAborted(elapsed, signal).finally(() => clearTimeout(timer));
}
