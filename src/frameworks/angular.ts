/**
 * `satang/angular`: the Satang events by type, for Angular templates and any code that listens
 * to them. Angular's compiler checks an event binding of an element it does not know
 * (`CUSTOM_ELEMENTS_SCHEMA`) through `addEventListener`, so with these in the DOM's
 * `HTMLElementEventMap`, `(satang-success)="paid($event)"` hands `paid` a `SatangSuccessEvent`
 * under `strictTemplates` rather than an `Event`. The events bubble and cross shadow roots, so
 * every element may hear them. Attributes and property bindings of custom elements are not
 * checked by Angular at all.
 *
 * Generated from custom-elements.json by `npm run docs` (test/docs/framework-types.ts): edit the elements, not this file.
 */
import type { SatangAbandonEvent, SatangAlreadyPaidEvent, SatangAmountChangedEvent, SatangResumeEvent } from '../elements/checkout-events.js';
import type { SatangActionEvent, SatangChangeEvent, SatangErrorEvent, SatangFailureEvent, SatangReadyEvent, SatangSubmitEvent, SatangSuccessEvent } from '../elements/events.js';
import type { SatangQrRenewEvent } from '../elements/satang-qr-payment/qr-events.js';

/** The tags typed here, each defined by `satang` (`<satang-qr-payment>` once on the page). */
export const SATANG_TAGS = ['satang-card-form', 'satang-checkout', 'satang-qr-payment'] as const;

declare global {
  interface HTMLElementEventMap {
    /** From `<satang-checkout>`: The shopper left an open payment for another method (the server said it had not gone through): `chargeId`. Should it still arrive, one of the two payments is refunded. */
    'satang-abandon': SatangAbandonEvent;
    /** From `<satang-checkout>`: The shopper is being redirected, or a QR code is shown. */
    'satang-action': SatangActionEvent;
    /** From `<satang-checkout>`: The order was paid already, by another payment; nothing was charged: `orderReference`. Move on as after a success. */
    'satang-already-paid': SatangAlreadyPaidEvent;
    /** From `<satang-checkout>`: The server's total differs from the one shown; nothing was charged and the checkout now shows `amount` (its `amount` property is set to it) for the shopper to confirm: `amount`, `previousAmount` (NaN when none was set), `currency`. */
    'satang-amount-changed': SatangAmountChangedEvent;
    /** From `<satang-card-form>`, `<satang-checkout>`: The card details changed; `complete` says whether they are all valid. */
    'satang-change': SatangChangeEvent;
    /** From `<satang-checkout>`, `<satang-qr-payment>`: Configuration, network or server trouble: `code`, `message`. */
    'satang-error': SatangErrorEvent;
    /** From `<satang-checkout>`, `<satang-qr-payment>`: The charge failed (`chargeId`, `failureCode`), or went through without paying the order (`outcome`, also as `failureCode`: `repriced_refunded`, `amount_mismatch`, `refund_failed`). */
    'satang-failure': SatangFailureEvent;
    /** From `<satang-qr-payment>`: The QR expired and the shopper asked for a new one (`chargeId`). */
    'satang-qr-renew': SatangQrRenewEvent;
    /** From `<satang-card-form>`, `<satang-checkout>`: First rendered. */
    'satang-ready': SatangReadyEvent;
    /** From `<satang-checkout>`: A payment of the order that may still go through was picked up (a reload, Back, the return from a bank, wallet or 3-D Secure page, or another tab or device): `chargeId`, `method`. Lock the cart until the payment ends. */
    'satang-resume': SatangResumeEvent;
    /** From `<satang-checkout>`: A payment attempt starts. */
    'satang-submit': SatangSubmitEvent;
    /** From `<satang-checkout>`, `<satang-qr-payment>`: The order is paid by the charge: `chargeId`, and `outcome` as the server says (`paid`, `authorized`, or `duplicate_refunded`: the order was paid already, this payment is refunded). */
    'satang-success': SatangSuccessEvent;
  }
}
