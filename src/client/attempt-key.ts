/**
 * Where the tab keeps an order's payment attempt (`attempt-store.ts`): the one part of it the
 * checkout reads before its first render, to know whether there is a payment to pick up.
 */

/**
 * The query parameter the checkout adds to the address a bank, wallet or 3-D Secure page sends the
 * shopper back to: the page it lands on knows at once that a payment may be waiting to be picked up.
 */
export const RETURN_PARAM = 'satang-return';

/** Whether this page has opened the tab's storage already: then reading it again costs nothing. */
let opened = false;

/** The tab's `sessionStorage`, or undefined where it is blocked (privacy modes, sandboxed frames): then nothing is resumed. */
export function storage(): Storage | undefined {
  try {
    opened = true;
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

export const attemptStorageKey = (orderReference: string) => `satang:attempt:${orderReference}`;
export const abandonedStorageKey = (orderReference: string) => `satang:abandoned:${orderReference}`;

/** Whether an attempt of the order is kept in this tab (whether it can still be resumed is read later). */
export function hasSavedAttempt(orderReference: string): boolean {
  try {
    return storage()?.getItem(attemptStorageKey(orderReference)) != null;
  } catch {
    return false;
  }
}

/**
 * Whether the checkout should look for a kept attempt before its first render rather than just
 * after it: when this page came by a reload, Back or Forward, or back from a bank, wallet or 3-D
 * Secure page (the {@link RETURN_PARAM} in its address), or has used the storage already (an SPA
 * showing the checkout again). Opening `sessionStorage` costs a round trip to the browser process
 * on a fresh page, milliseconds on a busy phone, which a first visit, by far the most common case,
 * does not need to wait for. On any other arrival (a link to the checkout with a payment left open
 * in this tab, say) the look comes right after the first frame.
 */
export function resumeBeforeFirstRender(): boolean {
  if (opened || location.search.includes(RETURN_PARAM)) return true;
  const [arrival] = performance.getEntriesByType('navigation');
  const type = (arrival as PerformanceNavigationTiming | undefined)?.type;
  return type === undefined || type === 'reload' || type === 'back_forward';
}
