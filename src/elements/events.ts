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

/** The charge succeeded. */
export class SatangSuccessEvent extends Event {
  constructor(readonly chargeId: string) {
    super('satang-success', INIT);
  }
}

/** The charge failed; `failureCode` is the service's reason. */
export class SatangFailureEvent extends Event {
  constructor(
    readonly chargeId: string,
    readonly failureCode: string,
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
