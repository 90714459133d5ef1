/** What is kept of a payment while the shopper is away on a redirect: never card data. */
export interface SavedAttempt {
  chargeId: string;
  statusToken: string;
  method: string;
  savedAt: number;
}

/** How long a saved attempt is worth resuming. */
export const SAVED_ATTEMPT_TTL_MS = 60 * 60 * 1000;
const PREFIX = 'satang:attempt:';

function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    // Storage can be blocked (privacy modes, sandboxed frames): then there is nothing to resume.
    return undefined;
  }
}

/** Keeps the attempt for `orderReference` in this tab's session, for when the shopper comes back. */
export function saveAttempt(orderReference: string, attempt: Omit<SavedAttempt, 'savedAt'>): void {
  try {
    storage()?.setItem(PREFIX + orderReference, JSON.stringify({ ...attempt, savedAt: Date.now() }));
  } catch {
    // A full or blocked storage only loses the resume; the payment itself goes on.
  }
}

/** The attempt saved for `orderReference`, if there is a recent, well-formed one. */
export function loadAttempt(orderReference: string): SavedAttempt | undefined {
  try {
    const raw = storage()?.getItem(PREFIX + orderReference);
    if (!raw) return undefined;
    const value = JSON.parse(raw) as Partial<Record<keyof SavedAttempt, unknown>>;
    if (typeof value.chargeId !== 'string' || typeof value.statusToken !== 'string' || typeof value.savedAt !== 'number') return undefined;
    if (Date.now() - value.savedAt > SAVED_ATTEMPT_TTL_MS) return undefined;
    return { chargeId: value.chargeId, statusToken: value.statusToken, method: typeof value.method === 'string' ? value.method : '', savedAt: value.savedAt };
  } catch {
    return undefined;
  }
}

/** Forgets the attempt once its outcome is shown. */
export function clearAttempt(orderReference: string): void {
  try {
    storage()?.removeItem(PREFIX + orderReference);
  } catch {
    // Nothing to do: it expires on its own.
  }
}
