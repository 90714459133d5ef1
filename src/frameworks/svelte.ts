/**
 * `satang/svelte`: the Satang tags in Svelte 5 templates, checked by svelte-check. Each tag
 * takes the element's attributes, spelled as in HTML (`merchant-id`), with the values each
 * accepts (`amount={178000}`, a number: Svelte sets it as the property), and its events as
 * Svelte 5 event attributes (`onsatang-success`) with the class the element dispatches. A wrong
 * value, a misspelt attribute and a misspelt event are errors.
 *
 * Properties without an attribute (`<satang-qr-payment>`'s `statusToken` and `image`) are not
 * here: rendered on a server, Svelte would write them into an attribute. Set them on the element
 * from `bind:this`.
 *
 * Generated from custom-elements.json by `npm run docs` (test/docs/framework-types.ts): edit the elements, not this file.
 */
import type { HTMLAttributes } from 'svelte/elements';
import type { SatangAbandonEvent, SatangAlreadyPaidEvent, SatangAmountChangedEvent, SatangResumeEvent } from '../elements/checkout-events.js';
import type { SatangActionEvent, SatangChangeEvent, SatangErrorEvent, SatangFailureEvent, SatangReadyEvent, SatangSubmitEvent, SatangSuccessEvent } from '../elements/events.js';
import type { SatangCardForm } from '../elements/satang-card-form/satang-card-form.js';
import type { SatangCheckout } from '../elements/satang-checkout/satang-checkout.js';
import type { SatangQrRenewEvent } from '../elements/satang-qr-payment/qr-events.js';
import type { SatangQrPayment } from '../elements/satang-qr-payment/satang-qr-payment.js';

/** The tags typed here, each defined by `satang` (`<satang-qr-payment>` once on the page). */
export const SATANG_TAGS = ['satang-card-form', 'satang-checkout', 'satang-qr-payment'] as const;

/** `Attributes`, each checked against the property of `Element` it sets. */
type Accepted<Element, Attributes extends { [Name in keyof Attributes]?: Name extends keyof Element ? Element[Name] : never }> = Attributes;

/** The attributes of `<satang-card-form>`, by the property each sets (Svelte writes them as in HTML). */
type SatangCardFormProperties = Accepted<
  SatangCardForm,
  {
    locale?: 'th' | 'en' | undefined;
    disabled?: boolean;
  }
>;

/** `<satang-card-form>` in a Svelte template: its attributes and its events. */
export interface SatangCardFormSvelteAttributes {
  /** th or en (`th-TH` and the like read by their language); by default the language of the page. */
  locale?: SatangCardFormProperties['locale'];
  /** Disables every field (e.g. while a payment is running). */
  disabled?: SatangCardFormProperties['disabled'];
  /** `satang-ready`: First rendered. */
  'onsatang-ready'?: (event: SatangReadyEvent) => void;
  /** `satang-change`: The card details changed; `complete` says whether they are all valid. */
  'onsatang-change'?: (event: SatangChangeEvent) => void;
}

/** Everything `<satang-card-form>` takes in a Svelte template: Svelte's own attributes of an element, and its own. */
export type SatangCardFormSvelteElement = Omit<HTMLAttributes<SatangCardForm>, keyof SatangCardFormSvelteAttributes> & SatangCardFormSvelteAttributes;

/** The attributes of `<satang-checkout>`, by the property each sets (Svelte writes them as in HTML). */
type SatangCheckoutProperties = Accepted<
  SatangCheckout,
  {
    merchantId?: string;
    publishableKey?: string;
    serviceUrl?: string;
    endpoint?: string;
    amount?: number;
    currency?: 'THB';
    orderReference?: string;
    orderToken?: string;
    methods?: string;
    locale?: 'th' | 'en' | undefined;
    returnUrl?: string;
    theme?: 'light' | 'dark' | 'auto';
    intent?: 'charge' | 'authorize';
  }
>;

/** `<satang-checkout>` in a Svelte template: its attributes and its events. */
export interface SatangCheckoutSvelteAttributes {
  /** The interest of the shop's installment plans, a percentage a month as the shop gives it: `0` shows "0% interest" ("ดอกเบี้ย 0%"), `0.8` "Interest 0.8% a month, charged by the bank that issued your card". Shown under the plans; read whenever they render. Anything but a rate (up to two decimals) is not shown, and said once in the console. */
  'installment-interest'?: string;
  /** The cards the shop's installment plans take, in the shop's words (e.g. `KBank, SCB credit cards`), shown under the plans as "Eligible cards: …" ("บัตรที่ร่วมรายการ: …"); read whenever they render. */
  'installment-cards'?: string;
  /** The merchant id, for card tokenization. */
  'merchant-id'?: SatangCheckoutProperties['merchantId'];
  /** The publishable key: safe in a page, only creates card tokens. */
  'publishable-key'?: SatangCheckoutProperties['publishableKey'];
  /** The payment service's base URL, where card tokens are created. */
  'service-url'?: SatangCheckoutProperties['serviceUrl'];
  /** The merchant's checkout endpoint (`satang/server`), e.g. `/api/checkout`. */
  endpoint?: SatangCheckoutProperties['endpoint'];
  /**
   * The amount to show, in satang, sent with the charge: the server charges its own price, and only
   * when it is this one. When the server's differs, the checkout sets this to it and asks the
   * shopper to confirm it.
   */
  amount?: SatangCheckoutProperties['amount'];
  /** The currency of `amount`: THB, the one the service charges in. */
  currency?: SatangCheckoutProperties['currency'];
  /** The merchant's order reference the server prices. */
  'order-reference'?: SatangCheckoutProperties['orderReference'];
  /**
   * Required: the order's token, signed by the merchant's server for this order
   * (`handler.orderToken(orderReference)` in `satang/server`) and rendered into the page. The server
   * charges the order, and tells where it stands, only to the holder of its token. The checkout
   * asks the server where the order stands whenever it starts or resumes (after its first render):
   * a paid order shows paid, and a payment under way (a QR code, a bank or 3-D Secure page) is
   * picked up, in any tab or device. Without it, the checkout shows a configuration error.
   */
  'order-token'?: SatangCheckoutProperties['orderToken'];
  /** Methods in the order to show them: card, installments, promptpay, ewallet, mobile-banking, or single services (truemoney, kplus…). */
  methods?: SatangCheckoutProperties['methods'];
  /** th or en (`th-TH` and the like read by their language); by default the page's language. */
  locale?: SatangCheckoutProperties['locale'];
  /** Where redirect flows come back to: a URL or a path on this site; by default this page. */
  'return-url'?: SatangCheckoutProperties['returnUrl'];
  /** light, dark, or auto (follows the system). */
  theme?: SatangCheckoutProperties['theme'];
  /**
   * charge (take the money now) or authorize (only reserve it on the card, for the shop's server to
   * capture later; card payments only, `methods` defaults to card). Must match the server's order.
   */
  intent?: SatangCheckoutProperties['intent'];
  /** `satang-error`: Configuration, network or server trouble: `code`, `message`. */
  'onsatang-error'?: (event: SatangErrorEvent) => void;
  /** `satang-ready`: First rendered with a valid configuration. */
  'onsatang-ready'?: (event: SatangReadyEvent) => void;
  /** `satang-change`: The method or the card details changed (never card data). */
  'onsatang-change'?: (event: SatangChangeEvent) => void;
  /** `satang-submit`: A payment attempt starts. */
  'onsatang-submit'?: (event: SatangSubmitEvent) => void;
  /** `satang-action`: The shopper is being redirected, or a QR code is shown. */
  'onsatang-action'?: (event: SatangActionEvent) => void;
  /** `satang-success`: The order is paid by the charge: `chargeId`, and `outcome` as the server says (`paid`, `authorized`, or `duplicate_refunded`: the order was paid already, this payment is refunded). */
  'onsatang-success'?: (event: SatangSuccessEvent) => void;
  /** `satang-failure`: The charge failed (`chargeId`, `failureCode`), or went through without paying the order (`outcome`, also as `failureCode`: `repriced_refunded`, `amount_mismatch`, `refund_failed`). */
  'onsatang-failure'?: (event: SatangFailureEvent) => void;
  /** `satang-amount-changed`: The server's total differs from the one shown; nothing was charged and the checkout now shows `amount` (its `amount` property is set to it) for the shopper to confirm: `amount`, `previousAmount` (NaN when none was set), `currency`. */
  'onsatang-amount-changed'?: (event: SatangAmountChangedEvent) => void;
  /** `satang-already-paid`: The order was paid already, by another payment; nothing was charged: `orderReference`. Move on as after a success. */
  'onsatang-already-paid'?: (event: SatangAlreadyPaidEvent) => void;
  /** `satang-resume`: A payment of the order that may still go through was picked up (a reload, Back, the return from a bank, wallet or 3-D Secure page, or another tab or device): `chargeId`, `method`. Lock the cart until the payment ends. */
  'onsatang-resume'?: (event: SatangResumeEvent) => void;
  /** `satang-abandon`: The shopper left an open payment for another method (the server said it had not gone through): `chargeId`. Should it still arrive, one of the two payments is refunded. */
  'onsatang-abandon'?: (event: SatangAbandonEvent) => void;
}

/** Everything `<satang-checkout>` takes in a Svelte template: Svelte's own attributes of an element, and its own. */
export type SatangCheckoutSvelteElement = Omit<HTMLAttributes<SatangCheckout>, keyof SatangCheckoutSvelteAttributes> & SatangCheckoutSvelteAttributes;

/** The attributes of `<satang-qr-payment>`, by the property each sets (Svelte writes them as in HTML). */
type SatangQrPaymentProperties = Accepted<
  SatangQrPayment,
  {
    rawData?: string;
    expiry?: string;
    amount?: number | undefined;
    currency?: string;
    locale?: 'th' | 'en' | undefined;
    endpoint?: string;
    chargeId?: string;
  }
>;

/** `<satang-qr-payment>` in a Svelte template: its attributes and its events. */
export interface SatangQrPaymentSvelteAttributes {
  /** The EMVCo payload (`encodedImage.rawData`) the code encodes, exactly. */
  'raw-data'?: SatangQrPaymentProperties['rawData'];
  /** ISO 8601 time the code stops being payable (`encodedImage.expiry`); no countdown without it. */
  expiry?: SatangQrPaymentProperties['expiry'];
  /** The amount the code charges, in satang (integer). */
  amount?: SatangQrPaymentProperties['amount'];
  /** ISO 4217 code of `amount`. */
  currency?: SatangQrPaymentProperties['currency'];
  /** th or en (`th-TH` and the like read by their language); by default the language of the page. */
  locale?: SatangQrPaymentProperties['locale'];
  /** The merchant proxy's base URL (`createCheckoutHandler`'s basePath), to follow the charge. */
  endpoint?: SatangQrPaymentProperties['endpoint'];
  /** The charge the code pays. */
  'charge-id'?: SatangQrPaymentProperties['chargeId'];
  /** `satang-error`: The status cannot be read (e.g. the status token was refused), or the element is misconfigured (`code` `CONFIG`, as `<satang-checkout>`). The code stays shown if it can be. */
  'onsatang-error'?: (event: SatangErrorEvent) => void;
  /** `satang-failure`: The charge failed (`chargeId`, `failureCode`), or went through without paying the order (`outcome` and `failureCode`: `repriced_refunded`, `amount_mismatch`, `refund_failed`). */
  'onsatang-failure'?: (event: SatangFailureEvent) => void;
  /** `satang-success`: The order is paid by the charge (`chargeId`; `outcome`, the merchant's server's word on it, e.g. `duplicate_refunded` when the order was paid already and this payment refunded). */
  'onsatang-success'?: (event: SatangSuccessEvent) => void;
  /** `satang-qr-renew`: The QR expired and the shopper asked for a new one (`chargeId`). */
  'onsatang-qr-renew'?: (event: SatangQrRenewEvent) => void;
}

/** Everything `<satang-qr-payment>` takes in a Svelte template: Svelte's own attributes of an element, and its own. */
export type SatangQrPaymentSvelteElement = Omit<HTMLAttributes<SatangQrPayment>, keyof SatangQrPaymentSvelteAttributes> & SatangQrPaymentSvelteAttributes;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- svelteHTML is how Svelte types the elements of a template.
  namespace svelteHTML {
    interface IntrinsicElements {
      'satang-card-form': SatangCardFormSvelteElement;
      'satang-checkout': SatangCheckoutSvelteElement;
      'satang-qr-payment': SatangQrPaymentSvelteElement;
    }
  }
}
