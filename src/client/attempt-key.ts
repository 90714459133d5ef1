/**
 * Where the tab keeps an order's payment attempt (`attempt-store.ts`): the one part of it the
 * checkout reads before its first render, to know whether there is a payment to pick up.
 */

/** The tab's `sessionStorage`, or undefined where it is blocked (privacy modes, sandboxed frames): then nothing is resumed. */
export function storage(): Storage | undefined {
  try {
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
