/**
 * The payment of `<satang-checkout>` as its halves share it: `checkout-payment.ts`, loaded with the
 * element, owns it (its one writer, through the pure `transition` of `payment-machine.ts`) and starts
 * it; the code fetched after the form shows (`pay-path.ts`) carries it on from the charge to the
 * outcome: the pure steps of `payment-steps.ts`, made by the flow of `payment-flow.ts`, drawn by
 * `payment-view.ts`.
 */
import type { ReactiveControllerHost, TemplateResult } from 'lit';
import type { CheckoutClientError } from '../../client/client-error.js';
import type { CheckoutChargeRequest, CheckoutChargeResponse, CheckoutIntent } from '../../core/schemas/checkout.js';
import type { InstallmentPeriod } from '../../core/constants.js';
import type { DeviceType } from '../../core/schemas/payment-method.js';
import type { LocalizeController } from '../controllers/localize-controller.js';
import type { MessageKey } from '../i18n/localize.js';
import type { CheckoutConfig } from './checkout-config.js';

/**
 * What the payment is doing. Rendered with early returns: each state has one view.
 * - `idle`: choosing a method and entering details (also after a declined payment or a recoverable
 *   error, with a message over the form, which keeps what was entered)
 * - `submitting`: tokenizing and creating the charge
 * - `redirecting`: leaving for a 3-D Secure, wallet or bank page
 * - `qr`: showing a PromptPay QR
 * - `waiting`: the charge exists; waiting for its final status (also when coming back from a redirect)
 * - `succeeded`: the order is paid (also on a reload or Back after that, while the attempt is kept)
 * - `failed`: a charge went through without paying the order (refunded for a changed price, or
 *   taken for the wrong amount); a declined charge is back to `idle`, with the reason
 * - `conflict`: the shop's server charged nothing and says why (see {@link ChargeConflict}); the
 *   shopper decides what next, or, for a paid order or an expired page, nothing is left to do
 */
export type PaymentState = 'idle' | 'submitting' | 'redirecting' | 'qr' | 'waiting' | 'succeeded' | 'failed' | 'conflict';

/**
 * Why the shop's server charged nothing, as the `conflict` state shows it:
 * - `amount`: the total is not the one shown (`AMOUNT_CHANGED`); `amount` is the server's, now
 *   shown, to confirm; `previous` the one shown before (NaN when none was);
 * - `elsewhere`: the order is being paid in another window or device (`PAYMENT_IN_PROGRESS`), with
 *   that payment's method if the server said; `replaceable` when the shopper may pay here instead;
 * - `paid`: the order is paid already (`ORDER_ALREADY_PAID`, or the order's state says so);
 * - `refunded`: the order was paid, and that payment refunded since: nothing is left to pay here;
 * - `expired`: the status token expired (`STATUS_TOKEN_EXPIRED`): the page must be reloaded.
 */
export type ChargeConflict =
  | { kind: 'amount'; amount: number; previous: number; currency: string }
  | { kind: 'elsewhere'; method: string | undefined; replaceable: boolean }
  | { kind: 'paid' }
  | { kind: 'refunded' }
  | { kind: 'expired' };

/** How the next charge request differs from the first: sent after a conflict, never on the first press. */
export interface ChargeOptions {
  /** Pay here instead of the order's payment open elsewhere (`replace: true`). */
  replace?: boolean;
  /** Send no amount, so that the server answers with its total for the shopper to confirm, charging nothing. */
  askTotal?: boolean;
}

/**
 * The message over the form: what is missing (a key of our words), what became of a payment (drawn
 * by the payment code), or the failure that is not the payment's; put in words at each render (so
 * in the language of the moment).
 */
export type Notice = MessageKey | (() => TemplateResult) | CheckoutClientError;

/** What the chosen method pays with. */
export type PaymentMethod = CheckoutChargeRequest['paymentMethod'];

/** The checkout a payment runs in: what it charges, where, and how it looks. */
export interface PaymentHost extends ReactiveControllerHost, HTMLElement, CheckoutConfig {
  /** Checked by then: a payment starts only with a working configuration. */
  readonly intent: CheckoutIntent;
  readonly theme: string;
  /** The order's token from the merchant's server, or empty: then only what this tab kept is picked up. */
  readonly orderToken: string;
}

/** A charge that failed: its reason, and the method it was paid with, for words that fit the method. */
export interface Declined {
  failureCode: string;
  type: string;
  /** Whether the card form still holds the card paid with (not after a page away, such as a 3-D Secure page). */
  cardKept?: boolean;
}

/** What the checkout does for its payment: the chosen method, the card form's token, leaving the page. */
export interface PaymentSteps {
  /** The chosen method's payment (tokenized if by card), the key of what is missing, or null when nothing can be sent. */
  chosen(): Promise<PaymentMethod | MessageKey | null>;
  /** The attempt is over: a card token is spent by one charge. */
  forgetToken(): void;
  /** After a decline: the card stays filled in but for its security code, typed again for the next attempt. */
  clearSecurityCode(): void;
  /**
   * Moves focus to the chosen method, where the shopper starts again; with `type`, chooses that
   * method first (the one of a payment picked up after a reload, which the picker did not show),
   * or, with `other`, the first method that is not it (the shopper left it for another).
   */
  focusMethod(type?: string, other?: boolean): Promise<void>;
  /** Leaves for a checked redirect URL. */
  navigate(url: URL): void;
}

/**
 * The payment at one moment, as its one writer keeps it (`CheckoutPayment.move`): never changed in
 * place, but replaced whole by the next one, which {@link transition} (`payment-machine.ts`) makes
 * from it, or refuses to.
 */
export interface PaymentNow {
  readonly state: PaymentState;
  /** The message over the form (see {@link Notice}); a newly chosen method clears it. */
  readonly notice?: Notice | undefined;
  /** Whether the notice is about a failure after which the same attempt may be sent again. */
  readonly retryable?: boolean;
  /** One key per payment attempt: kept across retries of that attempt, new once details change. */
  readonly attemptKey?: string | undefined;
  /** The method type of the attempt being paid or followed. */
  readonly method?: string | undefined;
  /** The shopper asked to leave the open payment, and the server is being asked about it first. */
  readonly leaving?: boolean;
  /**
   * The shopper left an open payment of this order (a QR, a redirect) for another method: the next
   * charge replaces it (`replace: true`), in this page or after a reload.
   */
  readonly replaceNext?: boolean;
  /** The attempt was picked up from storage (a reload, Back): an expired status token then just means starting afresh. */
  readonly resumed?: boolean;
  /** The charge that failed, shown over the form until the shopper changes something. */
  readonly declined?: Declined | undefined;
  readonly charge?: CheckoutChargeResponse | undefined;
  /** The installment plan (months) of the charge this page sent, for its success to name. */
  readonly plan?: InstallmentPeriod | undefined;
  /** The service's reason, once the charge failed. */
  readonly failureCode?: string;
  /** Why nothing was charged, in the `conflict` state. */
  readonly conflict?: ChargeConflict | undefined;
  /**
   * What the merchant's server says the charge did for the order (the status answer's `outcome`),
   * in the `succeeded` and `failed` states; in `failed` it is set only when the charge went
   * through without paying the order.
   */
  readonly outcome?: string | undefined;
  /** What the live region says now: only what is true of the current step (a new step clears it). */
  readonly announcement?: string;
}

/** What a move changes besides the state: applied with it, or not at all when the move is refused. */
export type PaymentChange = Omit<PaymentNow, 'state'>;

/**
 * The payment as the code after the press moves it on: read through {@link Payment.now}, changed
 * only by {@link Payment.move}, which answers whether the move was made; a caller whose move was
 * refused does nothing of what would have followed it.
 */
export interface Payment {
  readonly host: PaymentHost;
  readonly localize: LocalizeController;
  readonly steps: PaymentSteps;
  /** The payment as it is now. */
  readonly now: PaymentNow;
  /**
   * Moves to `state` with `change` if {@link transition} allows it (false when refused, and then
   * nothing changes); staying in the state is allowed but out of an order shown paid, so
   * `move(payment.now.state, change)` changes fields alone.
   */
  move(state: PaymentState, change?: PaymentChange): boolean;
  /** Presses pay again, from the checkout's own views: `options` say how this request differs. */
  pay(deviceType: DeviceType, options?: ChargeOptions): Promise<void>;
  /** Asks the server where the order stands again (another tab said it changed). */
  sync(): void;
  /** Says `text` through the checkout's live region (each change of step is announced). */
  announce(text: string): void;
  /** Moves focus, after the next render, to the notice over the form. */
  focusNotice(): Promise<void>;
  /** A failure that is not the payment's: back to the form with everything entered, and a way on; `key` says it instead of its kind's words. */
  problem(error: unknown, key?: MessageKey): void;
  /** The attempt is over: the next press is a new attempt, with a new idempotency key and, for cards, a new token. */
  forget(): void;
}
