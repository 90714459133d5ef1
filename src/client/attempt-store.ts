/**
 * The payment attempt of an order, kept in this tab's `sessionStorage` so that a reload, Back, or
 * the return from a bank, wallet or 3-D Secure page shows the same payment instead of an empty
 * form: a QR code again with the time it has left, a charge being checked, or a paid order.
 *
 * What is kept, under `satang:attempt:{orderReference}` (see `attempt-key.ts`), and nothing else: the charge id, the
 * method type, the status token, for a redirect the page it leads to, and for a QR code what the code shows (its payload, its PNG and
 * its expiry: what any scanner of the code reads anyway). Never card data, a card token, a CVC or
 * an idempotency key.
 *
 * Why `sessionStorage`: it is this tab's alone (other tabs and other sites cannot read it) and
 * goes when the tab closes; it survives exactly the trips a payment takes (reload, Back, a
 * redirect and its return). Not `localStorage`, which outlives the tab and is shared by every tab
 * of the shop, and not a cookie, which travels with every request.
 *
 * The status token is a bearer secret for one payment: it reads that charge's status and can
 * offer a transfer slip for it, nothing else (it cannot charge, refund or read another payment),
 * and the merchant's server refuses it after `statusTokenTtlMs` (one hour by default). A script of
 * the shop's own origin could read it here, but such a script can already read it from the page
 * (the element holds it to follow the charge) and do anything the shopper can, so storing it adds
 * no power; a script of another origin cannot read this storage. It is kept for at most
 * {@link SAVED_ATTEMPT_TTL_MS}, and dropped once the payment failed or the shopper left it for
 * another method. Then `satang:abandoned:{orderReference}` keeps only the charge id, for the same
 * time, so that the next charge replaces it (`replace: true`), after a reload too; and
 * `satang:left:{orderReference}` keeps the payments left (a few, for the same time: their charge id,
 * status token, method and amount), since one may still go through (a bank page approved after Back
 * and Forward, a QR scanned late) and be refunded: the page that shows the order paid says so.
 */
import { abandonedStorageKey, attemptStorageKey, storage } from './attempt-key.js';


/** What the shopper was doing when the page went away. */
export type SavedAction = 'redirect' | 'qr' | 'wait';

/** A QR code as it was shown: enough to show it again. */
export interface SavedQr {
  rawData: string;
  expiry: string;
  image?: string;
}

export interface SavedAttempt {
  chargeId: string;
  statusToken: string;
  method: string;
  action: SavedAction;
  qr?: SavedQr;
  /** For a redirect: the bank, wallet or 3-D Secure page, for the shopper to go back to it. */
  redirectUrl?: string;
  savedAt: number;
}

/** How long a saved attempt is worth resuming: the default life of a status token. */
export const SAVED_ATTEMPT_TTL_MS = 60 * 60 * 1000;
const ACTIONS: readonly string[] = ['redirect', 'qr', 'wait'];

/** Keeps the attempt for `orderReference` in this tab's session, for when the shopper comes back. */
export function saveAttempt(orderReference: string, attempt: Omit<SavedAttempt, 'savedAt'>): void {
  try {
    storage()?.setItem(attemptStorageKey(orderReference), JSON.stringify({ ...attempt, savedAt: Date.now() }));
    storage()?.removeItem(abandonedStorageKey(orderReference));
  } catch {
    // A full or blocked storage only loses the resume; the payment itself goes on.
  }
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** The attempt saved for `orderReference`, if there is a recent, well-formed one. */
export function loadAttempt(orderReference: string): SavedAttempt | undefined {
  try {
    const raw = storage()?.getItem(attemptStorageKey(orderReference));
    if (!raw) return undefined;
    const value = JSON.parse(raw) as Partial<Record<keyof SavedAttempt, unknown>>;
    const { chargeId, statusToken, method, savedAt, qr } = value;
    // An attempt saved by an earlier version, before actions: it was a redirect.
    const action = value.action ?? 'redirect';
    if (!isString(chargeId) || !isString(statusToken) || typeof savedAt !== 'number' || !isString(action) || !ACTIONS.includes(action)) return undefined;
    if (statusToken === '') return undefined;
    if (Date.now() - savedAt > SAVED_ATTEMPT_TTL_MS) return undefined;
    const attempt: SavedAttempt = { chargeId, statusToken, method: isString(method) ? method : '', action: action as SavedAction, savedAt };
    const code = qr as Partial<Record<keyof SavedQr, unknown>> | undefined;
    if (isString(value.redirectUrl)) attempt.redirectUrl = value.redirectUrl;
    if (code && isString(code.rawData) && isString(code.expiry)) attempt.qr = { rawData: code.rawData, expiry: code.expiry, ...(isString(code.image) ? { image: code.image } : {}) };
    return attempt;
  } catch {
    return undefined;
  }
}

/** Forgets the attempt (it failed, or its outcome can no longer be read). */
export function clearAttempt(orderReference: string): void {
  try {
    storage()?.removeItem(attemptStorageKey(orderReference));
  } catch {
    // Nothing to do: it expires on its own.
  }
}

/** The shopper left the attempt for another method: it is forgotten, and the next charge replaces it. */
export function abandonAttempt(orderReference: string, chargeId: string): void {
  clearAttempt(orderReference);
  try {
    storage()?.setItem(abandonedStorageKey(orderReference), JSON.stringify({ chargeId, savedAt: Date.now() }));
  } catch {
    // Lost, the next charge is told the order's payment is open, and offers to pay here instead.
  }
}

/** Whether this tab left an open payment of the order for another method, recently. */
export function wasAbandoned(orderReference: string): boolean {
  return abandonedCharge(orderReference) !== undefined;
}

/** The payment of the order this tab left for another method, recently: not picked up again when the server still names it. */
export function abandonedCharge(orderReference: string): string | undefined {
  try {
    const raw = storage()?.getItem(abandonedStorageKey(orderReference));
    const { savedAt, chargeId } = raw ? (JSON.parse(raw) as { savedAt?: unknown; chargeId?: unknown }) : {};
    return typeof savedAt === 'number' && Date.now() - savedAt <= SAVED_ATTEMPT_TTL_MS && typeof chargeId === 'string' ? chargeId : undefined;
  } catch {
    return undefined;
  }
}

/** A payment the shopper left for another method, which may still go through (and is then refunded, the order being paid). */
export interface LeftPayment {
  chargeId: string;
  statusToken: string;
  method: string;
  amount: number;
  currency: string;
  savedAt: number;
}

/** How many payments left of one order are kept: the newest. */
const LEFT_KEPT = 4;
const leftKey = (orderReference: string) => `satang:left:${orderReference}`;

/** The payments of the order this tab left for another method, recently, oldest first. */
export function leftPayments(orderReference: string): LeftPayment[] {
  try {
    const list: unknown = JSON.parse(storage()?.getItem(leftKey(orderReference)) ?? '[]');
    if (!Array.isArray(list)) return [];
    return (list as Partial<Record<keyof LeftPayment, unknown>>[]).filter(
      (p): p is LeftPayment =>
        isString(p.chargeId) && isString(p.statusToken) && p.statusToken !== '' && isString(p.method) && typeof p.amount === 'number' && isString(p.currency) && typeof p.savedAt === 'number' && Date.now() - p.savedAt <= SAVED_ATTEMPT_TTL_MS,
    );
  } catch {
    return [];
  }
}

function keepLeft(orderReference: string, list: LeftPayment[]): void {
  try {
    if (list.length) storage()?.setItem(leftKey(orderReference), JSON.stringify(list.slice(-LEFT_KEPT)));
    else storage()?.removeItem(leftKey(orderReference));
  } catch {
    // Lost, a payment left and approved later is still refunded; only the word of it is lost.
  }
}

/** Keeps a payment the shopper left for another method (see {@link leftPayments}). */
export function keepLeftPayment(orderReference: string, payment: Omit<LeftPayment, 'savedAt'>): void {
  keepLeft(orderReference, [...leftPayments(orderReference).filter((p) => p.chargeId !== payment.chargeId), { ...payment, savedAt: Date.now() }]);
}

/** Forgets a payment left: it failed, or can no longer be read. */
export function forgetLeftPayment(orderReference: string, chargeId: string): void {
  keepLeft(orderReference, leftPayments(orderReference).filter((p) => p.chargeId !== chargeId));
}
