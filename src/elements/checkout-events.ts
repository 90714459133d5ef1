/**
 * Events `<satang-checkout>` fires when the shop's server refuses to charge. Apart from
 * `events.ts` because only the code a payment runs (fetched after the first render) creates them,
 * so the checkout's first download does not carry them; `satang/checkout` exports their types.
 * Like every Satang event, each bubbles and crosses shadow roots.
 */

/**
 * The shop's server prices the order differently from the `amount` shown (`AMOUNT_CHANGED`), and
 * charged nothing. The checkout now shows `amount` (its `amount` property is set to it) and asks
 * the shopper to confirm it before paying; the page updates its own display of the total.
 * `previousAmount` is the amount shown before (NaN when none was set). Amounts in satang.
 */
export class SatangAmountChangedEvent extends Event {
  constructor(
    readonly amount: number,
    readonly previousAmount: number,
    readonly currency: string,
  ) {
    super('satang-amount-changed', { bubbles: true, composed: true });
  }
}

/**
 * The order was paid already, by another payment (`ORDER_ALREADY_PAID`): this checkout charged
 * nothing and shows that the order is paid. Not a `satang-success`: no charge of this checkout
 * paid it, and there is no `chargeId` to give. A page moves on as after a success (to the order's
 * page), and may confirm the order's state with its server.
 */
export class SatangAlreadyPaidEvent extends Event {
  constructor(readonly orderReference: string) {
    super('satang-already-paid', { bubbles: true, composed: true });
  }
}

/**
 * The checkout picked up a payment of the order that may still go through: after a reload, Back,
 * the return from a bank, wallet or 3-D Secure page, or one started in another tab or on another
 * device (with an `order-token`, the server says so). `chargeId` and `method` (its type, e.g.
 * `QR_PROMPT_PAY`). Lock the cart until the payment ends (`satang-success`, `satang-failure`,
 * `satang-already-paid`, or `satang-abandon`): a cart changed meanwhile would make that payment
 * the wrong amount, and it would be refunded.
 */
export class SatangResumeEvent extends Event {
  constructor(
    readonly chargeId: string,
    readonly method: string,
  ) {
    super('satang-resume', { bubbles: true, composed: true });
  }
}

/**
 * The shopper left a payment that had not gone through (a QR code, a bank page, a charge being
 * checked) to choose another method; the server was asked first, and the payment was still open.
 * It may still arrive (a QR code stays payable until it expires): then whichever payment comes
 * second is refunded. The cart may be unlocked; `chargeId` is the payment left.
 */
export class SatangAbandonEvent extends Event {
  constructor(readonly chargeId: string) {
    super('satang-abandon', { bubbles: true, composed: true });
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'satang-amount-changed': SatangAmountChangedEvent;
    'satang-already-paid': SatangAlreadyPaidEvent;
    'satang-resume': SatangResumeEvent;
    'satang-abandon': SatangAbandonEvent;
  }
}
