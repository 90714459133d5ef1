import type { CheckoutPaymentMethodType } from '../core/schemas/checkout.js';

/**
 * Events of the Satang elements. Each bubbles and crosses shadow roots, so a page can listen on
 * the element or on `document`. None carries card data.
 */
const INIT: EventInit = { bubbles: true, composed: true };

/** The element has rendered and can be used. */
export class SatangReadyEvent extends Event {
  constructor() {
    super('satang-ready', INIT);
  }
}

/** The shopper changed something: which method is chosen and whether its details are complete. */
export class SatangChangeEvent extends Event {
  constructor(
    readonly method: CheckoutPaymentMethodType | 'CARD',
    readonly complete: boolean,
  ) {
    super('satang-change', INIT);
  }
}

/** The shopper pressed pay and the details were valid: the payment is starting. */
export class SatangSubmitEvent extends Event {
  constructor(readonly method: CheckoutPaymentMethodType) {
    super('satang-submit', INIT);
  }
}

/** The payment needs the shopper: a redirect is about to happen, or a QR code is shown. */
export class SatangActionEvent extends Event {
  constructor(
    readonly action: 'redirect' | 'qr',
    readonly chargeId: string,
  ) {
    super('satang-action', INIT);
  }
}

/**
 * The order is paid (or, with the authorize intent, its amount reserved) by this charge.
 * `outcome` is what the merchant's server says the payment did for the order (`paid`,
 * `authorized`, or `duplicate_refunded`: the order was paid already, and this payment was
 * refunded); absent when the server did not say.
 */
export class SatangSuccessEvent extends Event {
  constructor(
    readonly chargeId: string,
    readonly outcome?: string,
  ) {
    super('satang-success', INIT);
  }
}

/**
 * The payment did not pay the order. `failureCode` is the service's reason when the charge
 * failed; when the charge went through but did not pay the order (the merchant's server refunded
 * it, or took an amount that is not the order's), it is that `outcome` (`repriced_refunded`,
 * `amount_mismatch`, `refund_failed`), also given as `outcome`.
 */
export class SatangFailureEvent extends Event {
  constructor(
    readonly chargeId: string,
    readonly failureCode: string,
    readonly outcome?: string,
  ) {
    super('satang-failure', INIT);
  }
}

/** Something other than a declined payment went wrong: configuration, network, the shop's server. */
export class SatangErrorEvent extends Event {
  constructor(
    readonly code: string,
    readonly message: string,
  ) {
    super('satang-error', INIT);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'satang-ready': SatangReadyEvent;
    'satang-change': SatangChangeEvent;
    'satang-submit': SatangSubmitEvent;
    'satang-action': SatangActionEvent;
    'satang-success': SatangSuccessEvent;
    'satang-failure': SatangFailureEvent;
    'satang-error': SatangErrorEvent;
  }
}
