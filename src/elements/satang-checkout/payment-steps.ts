/**
 * What the payment of `<satang-checkout>` does next, decided: for each thing that happens after
 * the press (the charge's answer, a refusal, a status, the order's state, another tab, a saved
 * attempt), a pure function of the payment as it is now and of what happened, answering with a
 * {@link Step}: the move to make and the effects to run once it is made. The flow controller
 * (`payment-flow.ts`) makes the move through the payment's one writer and, only if it was made,
 * runs the effects; these functions touch nothing. Part of the code fetched after the form shows
 * (`pay-path.ts`).
 */
import type { SavedAttempt } from '../../client/attempt-store.js';
import { asClientError, CheckoutClientError } from '../../client/client-error.js';
import { safeRedirectUrl } from '../../client/redirect.js';
import type { CheckoutChargeResponse, CheckoutOrderPayment, CheckoutOrderStateResponse, CheckoutStatusResponse } from '../../core/schemas/checkout.js';
import { SatangAlreadyPaidEvent, SatangAmountChangedEvent, SatangResumeEvent } from '../checkout-events.js';
import { SatangActionEvent, SatangFailureEvent, SatangSuccessEvent } from '../events.js';
import type { MessageKey } from '../i18n/localize.js';
import { orderVerdict } from '../order-outcome.js';
import type { TabMessage } from './order-tabs.js';
import { isSettled } from './payment-machine.js';
import type { ChargeConflict, PaymentChange, PaymentMethod, PaymentNow, PaymentState } from './payment-state.js';

/** While another tab or device is creating the order's payment: how soon to ask again, and how often at most. */
export const ORDER_CREATING_RETRY_MS = 1_500;
export const ORDER_CREATING_RETRIES = 40;

/** Something to do once a move is made; the flow controller runs them in order. */
export type Effect =
  /** Stop following the charge's status. */
  | { do: 'stop' }
  /** The attempt is over: a new idempotency key and, for cards, a new token next time. */
  | { do: 'forget' }
  /** The attempt kept in this tab goes (it is over, or cannot be read any more). */
  | { do: 'clear' }
  | { do: 'save'; attempt: AttemptToSave }
  | { do: 'tell'; message: TabMessage }
  | { do: 'event'; event: Event }
  /** Focus, after the render, on the checkout's element matching `selector` (only where focus was in the checkout). */
  | { do: 'focus'; selector: string }
  | { do: 'follow'; chargeId: string; statusToken: string }
  /** Show the charge's QR code once its element is here. */
  | { do: 'qr' }
  | { do: 'clearSecurityCode' }
  | { do: 'focusMethod'; type?: string | undefined }
  | { do: 'focusNotice' }
  /** Keep this tab's own payment as one it left: the order was paid by another, and it may yet go through. */
  | { do: 'keepLeft'; charge: LeftCharge }
  /** Tell the payments this tab left that went through all the same (the order shows paid, by `paidBy`). */
  | { do: 'tellLeft'; paidBy: string | undefined }
  | { do: 'announce'; key: MessageKey }
  | { do: 'navigate'; url: URL }
  /** Keep the checkout's box at the form's height while the payment's views stand in for it. */
  | { do: 'holdHeight' }
  /** Call the wait slow, should the charge still be "Processing…" at the deadline. */
  | { do: 'slowAfter'; charge: CheckoutChargeResponse }
  /** Ask the server where the order stands again, shortly. */
  | { do: 'syncSoon' }
  /** A failure that is not the payment's, shown over the form. */
  | { do: 'problem'; error: unknown };

/** A move and what follows it. `to` may be the state the payment is in (a change of its fields alone). */
export interface Step {
  readonly to: PaymentState;
  readonly change?: PaymentChange;
  readonly effects?: readonly Effect[];
}

/** What a step needs of the checkout besides the payment: the order it pays, and the amount it shows. */
export interface OrderFacts {
  readonly orderReference: string;
  readonly amount: number;
  readonly currency: string;
}

/** An attempt as this tab keeps it, but for the time it is kept at. */
type AttemptToSave = Omit<SavedAttempt, 'savedAt'>;

const stay = (now: PaymentNow, effects: readonly Effect[], change?: PaymentChange): Step => ({ to: now.state, effects, ...(change ? { change } : {}) });

/** What a charge asks of the shopper, as kept in this tab for a reload or a return. */
function saved(charge: CheckoutChargeResponse, method: string, redirectUrl?: string): AttemptToSave {
  const image = charge.actionRequired === 'ENCODED_IMAGE' ? charge.encodedImage : undefined;
  return {
    chargeId: charge.chargeId,
    statusToken: charge.statusToken,
    method,
    action: image ? 'qr' : charge.actionRequired === 'REDIRECT' ? 'redirect' : 'wait',
    ...(image ? { qr: { rawData: image.rawData, expiry: image.expiry, ...(image.imageBase64Encoded ? { image: image.imageBase64Encoded } : {}) } } : {}),
    ...(redirectUrl ? { redirectUrl } : {}),
  };
}

/**
 * The merchant's server made the charge: it is this payment's now, told to the other tabs and kept
 * in this one, and the shopper goes where it says: to a checked redirect page, to its QR code, or
 * on "Processing…" while its status is followed. A redirect to an unsafe address is refused.
 * Nothing when the order was shown paid while the charge was asked for (another tab paid it): the
 * charge is not followed, kept or told of, and should it go through, the server refunds it.
 */
export function answered(now: PaymentNow, charge: CheckoutChargeResponse, method: PaymentMethod): Step | undefined {
  if (isSettled(now)) return undefined;
  const plan = method.type === 'CARD_TOKEN_INSTALLMENTS' ? method.installmentPeriod : undefined;
  const change: PaymentChange = { charge, method: method.type, replaceNext: false, resumed: false, plan };
  const told: Effect[] = [{ do: 'holdHeight' }, { do: 'tell', message: { state: 'paying', chargeId: charge.chargeId } }];
  if (charge.actionRequired === 'REDIRECT') {
    const url = safeRedirectUrl(charge.redirect?.redirectUrl);
    if (!url) return stay(now, [{ do: 'problem', error: new CheckoutClientError('rejected', 'the payment page to go to is not a safe https address', 'UNSAFE_REDIRECT', false) }], change);
    const event = new SatangActionEvent('redirect', charge.chargeId);
    return { to: 'redirecting', change, effects: [...told, { do: 'save', attempt: saved(charge, method.type, url.href) }, { do: 'event', event }, { do: 'navigate', url }] };
  }
  if (charge.actionRequired === 'ENCODED_IMAGE') return stay(now, [...told, { do: 'save', attempt: saved(charge, method.type) }, { do: 'qr' }], change);
  // Most payments are final within moments: "Processing…" stays until then.
  const follow: Effect = { do: 'follow', chargeId: charge.chargeId, statusToken: charge.statusToken };
  return stay(now, [...told, { do: 'save', attempt: saved(charge, method.type) }, follow, { do: 'slowAfter', charge }], change);
}

/** The charge exists and its outcome is awaited: said (a status region), and focused, so the shopper knows where things are. */
export function waiting(change?: PaymentChange, effects: readonly Effect[] = []): Step {
  return { to: 'waiting', effects: [{ do: 'focus', selector: '.progress' }, ...effects], ...(change ? { change } : {}) };
}

/** The QR code's element is here: the code shows, said and focused. */
export function qrShown(now: PaymentNow): Step | undefined {
  if (!now.charge) return undefined;
  return { to: 'qr', effects: [{ do: 'announce', key: 'announce.qr' }, { do: 'event', event: new SatangActionEvent('qr', now.charge.chargeId) }, { do: 'focus', selector: 'satang-qr-payment' }] };
}

/**
 * An attempt saved in this tab is picked up (a reload, Back, the return from a redirect): the QR
 * code again, with the time it has left, or the charge followed to its outcome. Back from the
 * bank's page, the card is still in the form but for its security code, typed again for any next
 * payment. Nothing saved (kept too long, not readable): the form, as on a first visit.
 */
export function resumed(now: PaymentNow, attempt: SavedAttempt | undefined): Step {
  if (!attempt) return { to: 'idle', change: { resumed: false } };
  const { chargeId, statusToken, qr, redirectUrl, method } = attempt;
  const event: Effect = { do: 'event', event: new SatangResumeEvent(chargeId, method) };
  if (qr) {
    const charge = { chargeId, statusToken, actionRequired: 'ENCODED_IMAGE', encodedImage: { rawData: qr.rawData, expiry: qr.expiry, imageBase64Encoded: qr.image ?? '' } } as const;
    return stay(now, [event, { do: 'qr' }], { method, charge });
  }
  const charge = { chargeId, statusToken, actionRequired: attempt.action === 'redirect' ? 'REDIRECT' : 'NONE', ...(redirectUrl ? { redirect: { redirectUrl } } : {}) } as const;
  const back: Effect[] = attempt.action === 'redirect' ? [{ do: 'clearSecurityCode' }] : [];
  return waiting({ method, charge }, [event, ...back, { do: 'follow', chargeId, statusToken }]);
}

/**
 * Shows `conflict` (with `change`, what else the step changes) and focuses its heading; nothing
 * when the order is shown paid already.
 */
export function conflicted(now: PaymentNow, conflict: ChargeConflict, change?: PaymentChange, effects: readonly Effect[] = []): Step | undefined {
  if (isSettled(now)) return undefined;
  return { to: 'conflict', change: { ...change, conflict }, effects: [...effects, { do: 'focus', selector: 'h2[tabindex]' }] };
}

/** A payment of this tab's, as it is asked after once left: its id and status token. */
export interface LeftCharge {
  readonly chargeId: string;
  readonly statusToken: string;
  /** Its method, where the payment's own is not known any more (after a reload). */
  readonly method?: string;
}

/**
 * The order was paid by another payment (another tab, another device) while this one was open
 * (or kept from before a reload, `saved`): it is no longer followed, and the order shows paid.
 * Should this payment go through all the same, it is refunded, and this tab, which keeps it as a
 * payment left, says so.
 */
export function paidElsewhere(now: PaymentNow, order: OrderFacts, saved?: LeftCharge): Step {
  const mine: LeftCharge | undefined = now.charge ?? saved;
  const over: Effect[] = [...(mine ? [{ do: 'keepLeft', charge: { chargeId: mine.chargeId, statusToken: mine.statusToken, method: now.method ?? mine.method } } as const] : []), { do: 'stop' }, { do: 'forget' }, { do: 'clear' }];
  const tell: Effect[] = [{ do: 'event', event: new SatangAlreadyPaidEvent(order.orderReference) }, { do: 'tellLeft', paidBy: undefined }];
  return conflicted(now, { kind: 'paid' }, { charge: undefined, resumed: false }, [...over, ...tell]) ?? stay(now, over);
}

/**
 * The merchant's server charged nothing and says why: shown as the shopper's choice (or, for a
 * paid order, as the end). Undefined for any other error. The attempt is over either way: whatever
 * is sent next goes with a new idempotency key and, for cards, a new token from the form as filled.
 * A changed total is asked of the element, which alone sets its amount (`satang-amount-changed`).
 */
export function refused(now: PaymentNow, error: unknown, order: OrderFacts): Step | undefined {
  const { code, details } = asClientError(error);
  const effects: Effect[] = [{ do: 'forget' }];
  let conflict: ChargeConflict;
  if (code === 'AMOUNT_CHANGED') {
    const { amount, currency } = details ?? {};
    if (!Number.isSafeInteger(amount) || (amount as number) <= 0 || currency !== order.currency) return undefined;
    conflict = { kind: 'amount', amount: amount as number, previous: order.amount, currency };
    effects.push({ do: 'event', event: new SatangAmountChangedEvent(conflict.amount, conflict.previous, currency) });
  } else if (code === 'PAYMENT_IN_PROGRESS') {
    const method = details?.paymentMethodType;
    conflict = { kind: 'elsewhere', method: typeof method === 'string' ? method : undefined, replaceable: details?.replaceable === true };
  } else if (code === 'ORDER_ALREADY_PAID') {
    conflict = { kind: 'paid' };
    effects.push({ do: 'clear' }, { do: 'event', event: new SatangAlreadyPaidEvent(order.orderReference) });
  } else {
    return undefined;
  }
  return conflicted(now, conflict, undefined, effects) ?? stay(now, [{ do: 'forget' }]);
}

/**
 * The status token was refused as expired: whatever was being followed cannot be read from this
 * page any more, and the saved attempt goes too, so the reload starts from the order as it stands.
 * Picked up from storage, nothing of it can be read any more: the page starts afresh (a paid order
 * is then refused as paid, should the shopper press pay).
 */
export function expired(now: PaymentNow): Step {
  const over: Effect[] = [{ do: 'stop' }, { do: 'clear' }, { do: 'forget' }];
  if (now.resumed) return { to: 'idle', change: { resumed: false, charge: undefined }, effects: over };
  return conflicted(now, { kind: 'expired' }, undefined, over) ?? stay(now, over);
}

/** The wait failed for good (a retryable failure is retried by the poller): an expired token, or a problem shown over the form. */
export function statusFailed(now: PaymentNow, error: CheckoutClientError): Step | undefined {
  if (error.retryable) return undefined;
  if (error.code === 'STATUS_TOKEN_EXPIRED') return expired(now);
  return stay(now, [{ do: 'stop' }, { do: 'problem', error }]);
}

/** What became of a charge, as a status (or the QR element, or the order's state) says it. */
export interface Outcome {
  chargeId: string;
  succeeded: boolean;
  failureCode: string;
  /** What the merchant's server says the charge did for the order. */
  orderOutcome: string | undefined;
}

/**
 * Shows and announces a final status, once (the same news may come from the other tab, the QR
 * element and a status read). A charge that went through without paying the order (the server
 * refunded it, or took the wrong amount: its `orderOutcome`) is a failure for the shopper and the
 * page: never `satang-success`. Declined, the form is back as it was (the card still filled in, its
 * security code to type again), the reason over it, in the words of the method paid with. A paid
 * order stays saved, so a reload or Back shows it paid rather than a form to pay again.
 */
export function outcome(now: PaymentNow, { chargeId, succeeded, failureCode, orderOutcome }: Outcome): Step | undefined {
  if (isSettled(now)) return undefined;
  const verdict = orderVerdict({ status: succeeded ? 'SUCCEEDED' : 'FAILED', outcome: orderOutcome });
  const paid = verdict === 'paid';
  const over: Effect[] = [{ do: 'stop' }, { do: 'forget' }, ...(paid ? [] : [{ do: 'clear' } as const])];
  const change: PaymentChange = {
    charge: undefined,
    resumed: false,
    outcome: succeeded ? orderOutcome : undefined,
    failureCode: paid ? '' : succeeded ? (orderOutcome ?? '') : failureCode,
  };
  const tell: Effect = { do: 'tell', message: { state: paid ? 'paid' : 'open', chargeId } };
  if (verdict === 'failed') {
    // A card entered before the page went away (a 3-D Secure page) is not in the form any more.
    const declined = { failureCode, type: now.method ?? '', cardKept: !now.resumed };
    // The picker shows the method that failed (after a reload it may show another); the reason is an alert, and takes focus last.
    const effects: Effect[] = [...over, { do: 'clearSecurityCode' }, tell, { do: 'event', event: new SatangFailureEvent(chargeId, failureCode) }, { do: 'focusMethod', type: now.method }, { do: 'focusNotice' }];
    return { to: 'idle', change: { ...change, declined }, effects };
  }
  const event = paid ? new SatangSuccessEvent(chargeId, orderOutcome) : new SatangFailureEvent(chargeId, change.failureCode ?? '', change.outcome);
  const effects: Effect[] = [...over, tell, { do: 'event', event }, { do: 'focus', selector: 'h2[tabindex]' }, ...(paid ? [{ do: 'tellLeft', paidBy: chargeId } as const] : [])];
  return { to: paid ? 'succeeded' : 'failed', change, effects };
}

/** A status the wait answered: final, it is the outcome; still pending, the order may have been paid by another payment. */
export function heardStatus(now: PaymentNow, status: CheckoutStatusResponse, order: OrderFacts): Step | undefined {
  if (status.status !== 'PENDING') return outcome(now, { chargeId: status.chargeId, succeeded: status.status === 'SUCCEEDED', failureCode: status.failureCode ?? '', orderOutcome: status.outcome });
  return status.order === 'paid' ? paidElsewhere(now, order) : undefined;
}

/** Another tab says the order's payment moved, and this checkout has no token to ask the server: only "paid" is taken. */
export function heardTab(now: PaymentNow, message: TabMessage, order: OrderFacts): Step | undefined {
  if (message.state !== 'paid' || isSettled(now)) return undefined;
  if (message.chargeId !== undefined && message.chargeId === now.charge?.chargeId) return undefined;
  return paidElsewhere(now, order);
}

/** What this tab knows of the order besides the payment: the attempt it kept, the payment it left, how often it asked already. */
export interface TabFacts extends OrderFacts {
  readonly savedChargeId: string | undefined;
  /** The attempt's payment this tab kept (from before a reload), to ask after should another have paid the order. */
  readonly saved?: LeftCharge | undefined;
  readonly abandonedChargeId: string | undefined;
  /** How many times in a row the server said another tab or device is creating the order's payment. */
  readonly creatingAsked: number;
}

/** The order as the server answered: the truth wins over what this tab remembered. */
export function orderState(now: PaymentNow, answer: CheckoutOrderStateResponse, tab: TabFacts): Step | undefined {
  if (isSettled(now)) return undefined;
  switch (answer.state) {
    case 'paid': {
      const paidBy = answer.paidBy;
      // This tab's own payment (followed now, or kept from before a reload): its success, as the status would say.
      const own = paidBy !== undefined && (now.charge?.chargeId === paidBy || tab.savedChargeId === paidBy);
      return own ? outcome(now, { chargeId: paidBy, succeeded: true, failureCode: '', orderOutcome: answer.outcome }) : paidElsewhere(now, tab, tab.saved);
    }
    case 'refunded':
      return conflicted(now, { kind: 'refunded' }, { charge: undefined }, [{ do: 'stop' }, { do: 'forget' }, { do: 'clear' }]);
    case 'paying':
      return answer.payment ? pickUp(now, answer.payment, tab) : creating(now, tab);
    case 'open':
      // Shown "checking" for a payment that is not there (its creation was given up): back to the form.
      return now.state === 'waiting' && !now.charge ? { to: 'idle' } : undefined;
  }
}

/**
 * The order's payment is under way: shown here too, followed to its outcome, and kept in this
 * tab's storage. The page hears `satang-resume` (to lock its cart). Nothing changes when this tab
 * already shows it, is sending a payment of its own, or its shopper left that payment for another
 * method (it may still be paid, a QR until it expires, but it is not offered again here; the next
 * charge replaces it).
 */
function pickUp(now: PaymentNow, open: CheckoutOrderPayment, tab: TabFacts): Step | undefined {
  if (now.state === 'submitting' || now.leaving || tab.abandonedChargeId === open.chargeId) return undefined;
  if (now.charge?.chargeId === open.chargeId) {
    // The same payment; the server's answer may name the page to go back to, which this tab lost.
    return open.redirect && !now.charge.redirect ? stay(now, [], { charge: { ...now.charge, redirect: open.redirect } }) : undefined;
  }
  const { chargeId, statusToken, paymentMethodType: method, actionRequired } = open;
  const charge: CheckoutChargeResponse = {
    chargeId,
    statusToken,
    actionRequired,
    ...(open.intent ? { intent: open.intent } : {}),
    ...(open.redirect ? { redirect: open.redirect } : {}),
    ...(open.encodedImage ? { encodedImage: open.encodedImage } : {}),
  };
  const change: PaymentChange = { method, resumed: true, charge };
  const effects: Effect[] = [{ do: 'stop' }, { do: 'save', attempt: saved(charge, method, open.redirect?.redirectUrl) }, { do: 'event', event: new SatangResumeEvent(chargeId, method) }];
  if (actionRequired === 'ENCODED_IMAGE' && open.encodedImage) return stay(now, [...effects, { do: 'qr' }], change);
  return waiting(change, [...effects, { do: 'follow', chargeId, statusToken }]);
}

/**
 * Another tab or device is creating the order's payment right now: nothing is offered to pay
 * meanwhile ("checking"), and the server is asked again shortly, a bounded number of times.
 */
function creating(now: PaymentNow, tab: TabFacts): Step | undefined {
  if (now.state === 'submitting' || now.charge) return undefined;
  if (tab.creatingAsked >= ORDER_CREATING_RETRIES) return now.state === 'waiting' ? { to: 'idle' } : undefined;
  return { to: 'waiting', effects: [{ do: 'syncSoon' }] };
}
