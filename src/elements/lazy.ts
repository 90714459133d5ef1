import { asClientError } from '../client/client-error.js';

/**
 * Code an element fetches on first use rather than at load: fetched once and shared by every
 * element on the page. A failed fetch is forgotten, so the next use tries again, and fails as a
 * network error the elements already explain to the shopper.
 */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw asClientError(error, 'network');
    }));
}

/** Starts fetching lazy code ahead of its use; a failure is met again, and explained, at the use. */
export function prefetch(load: () => Promise<unknown>): void {
  load().catch(() => undefined);
}

/** Runs `task` after the next frame is painted: for work the first render must not wait on. */
export function afterPaint(task: () => void): void {
  requestAnimationFrame(() => setTimeout(task));
}
