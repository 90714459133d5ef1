/**
 * One deadline per shopper request: `POST /charges`, a slip, the order's state. Every call to the
 * service made for the request is given what is left of it (never more than `serviceDeadlineMs`),
 * and the request is answered by then whatever is still under way, which goes on and keeps what it
 * learns for the next request (a charge's answer for the retry under the same key, a status).
 */

import type { HttpAnswer, HttpCall } from '../../core/http-call.js';
import type { CheckoutContext } from './checkout-context.js';
import { CheckoutError } from './checkout-error.js';

/** When each shopper request being answered must be answered by, as `Date.now()` counts. */
const deadlines = new WeakMap<HttpCall, number>();

/** The least a service call is given once a request's deadline is near: it fails fast rather than not at all. */
const LEAST_CALL_MS = 1;

/**
 * `work`, the answer of `call`, or a `503 UPSTREAM_UNAVAILABLE` (retryable, `Retry-After: 1`) at
 * `requestDeadlineMs`, whichever comes first. Nothing is cancelled: what `work` does after the
 * deadline is kept as it would be.
 */
export function withinRequestDeadline(context: CheckoutContext, call: HttpCall, work: () => Promise<HttpAnswer>): Promise<HttpAnswer> {
  const at = Date.now() + context.requestDeadlineMs;
  deadlines.set(call, at);
  return byDeadline(work(), at, () =>
    Promise.reject(
      new CheckoutError(503, 'UPSTREAM_UNAVAILABLE', 'The payment service is slow to answer. Please try again in a moment: nothing is charged twice.', {
        retryable: true,
        headers: { 'retry-after': '1' },
      }),
    ),
  );
}

/**
 * Settles like `work`, or as `fallback()` does once `at` (as `Date.now()` counts) has passed,
 * whichever is first. The work left running is not cancelled, and what it throws later is not
 * unhandled.
 */
export function byDeadline<T>(work: Promise<T>, at: number, fallback: () => T | Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      work.catch(() => undefined);
      resolve(fallback());
    }, Math.max(0, at - Date.now()));
    work.finally(() => clearTimeout(timer)).then(resolve, reject);
  });
}

/** The `deadlineMs` of a service call made for `call`: what is left of its request's deadline, at most `serviceDeadlineMs`. */
export function serviceDeadlineMs(context: CheckoutContext, call: HttpCall | undefined): number {
  const at = call === undefined ? undefined : deadlines.get(call);
  if (at === undefined) return context.serviceDeadlineMs;
  return Math.max(LEAST_CALL_MS, Math.min(context.serviceDeadlineMs, at - Date.now()));
}
