/**
 * `satang/vue`: the Satang tags in Vue 3 templates, checked by vue-tsc (Volar). Each tag is a
 * global component whose props are the element's attributes, camelCase as Vue passes them
 * (`merchant-id="…"` is `merchantId`), with the values each accepts, and whose events are
 * `onSatang…` props with the class the element dispatches (`@satang-success` hands over a
 * `SatangSuccessEvent`). A wrong value is an error; a misspelt attribute or event is one too with
 * vue-tsc's `strictTemplates` (or `checkUnknownProps` and `checkUnknownEvents`), without which
 * Vue lets unknown names through as fallthrough attributes and listeners.
 *
 * Properties without an attribute (`<satang-qr-payment>`'s `statusToken` and `image`) are not
 * here: rendered on a server, Vue would write them into an attribute. Set them through a template
 * ref.
 *
 * At run time the tags are elements, not Vue components: give Vue's compiler `isSatangElement`
 * as `isCustomElement`.
 *
 * Generated from custom-elements.json by `npm run docs` (test/docs/framework-types.ts): edit the elements, not this file.
 */
import type { AllowedComponentProps, HTMLAttributes, VNodeProps } from 'vue';
import type { SatangAbandonEvent, SatangAlreadyPaidEvent, SatangAmountChangedEvent, SatangResumeEvent } from '../elements/checkout-events.js';
import type { SatangActionEvent, SatangChangeEvent, SatangErrorEvent, SatangFailureEvent, SatangReadyEvent, SatangSubmitEvent, SatangSuccessEvent } from '../elements/events.js';
import type { SatangCardForm } from '../elements/satang-card-form/satang-card-form.js';
import type { SatangCheckout } from '../elements/satang-checkout/satang-checkout.js';
import type { SatangQrRenewEvent } from '../elements/satang-qr-payment/qr-events.js';
import type { SatangQrPayment } from '../elements/satang-qr-payment/satang-qr-payment.js';

/** The tags typed here, each defined by `satang` (`<satang-qr-payment>` once on the page). */
export const SATANG_TAGS = ['satang-card-form', 'satang-checkout', 'satang-qr-payment'] as const;

/** For Vue's `compilerOptions.isCustomElement`: true for the Satang tags, which Vue then leaves to the browser. */
export function isSatangElement(tag: string): boolean {
  return (SATANG_TAGS as readonly string[]).includes(tag);
}

/** `Attributes`, each checked against the property of `Element` it sets. */
type Accepted<Element, Attributes extends { [Name in keyof Attributes]?: Name extends keyof Element ? Element[Name] : never }> = Attributes;

/** A tag as vue-tsc sees a global component: its props, and the element as its template ref. */
type VueElement<Element, Props> = new () => Element & { $props: Props & Omit<HTMLAttributes, keyof Props> & AllowedComponentProps & VNodeProps };

/** The attributes of `<satang-card-form>`, by the property each sets. */
export type SatangCardFormVueAttributes = Accepted<
  SatangCardForm,
  {
    /** th or en (`th-TH` and the like read by their language); by default the language of the page. */
    locale?: 'th' | 'en' | undefined;
    /** Disables every field (e.g. while a payment is running). */
    disabled?: boolean;
  }
>;

/** The events of `<satang-card-form>` as Vue props: `@satang-ready` is `onSatangReady`. */
export interface SatangCardFormVueEvents {
  /** `@satang-ready`: First rendered. */
  onSatangReady?: (event: SatangReadyEvent) => void;
  /** `@satang-change`: The card details changed; `complete` says whether they are all valid. */
  onSatangChange?: (event: SatangChangeEvent) => void;
}

/** The props of `<satang-card-form>` in a Vue template. */
export type SatangCardFormVueProps = SatangCardFormVueAttributes & SatangCardFormVueEvents;

/** The attributes of `<satang-checkout>`, by the property each sets (then those it only reads, camelCase). */
export type SatangCheckoutVueAttributes = Accepted<
  SatangCheckout,
  {
    /** The merchant id, for card tokenization. */
    merchantId?: string;
    /** The publishable key: safe in a page, only creates card tokens. */
    publishableKey?: string;
    /** The payment service's base URL, where card tokens are created. */
    serviceUrl?: string;
    /** The merchant's checkout endpoint (`satang/server`), e.g. `/api/checkout`. */
    endpoint?: string;
    /**
     * The amount to show, in satang, sent with the charge: the server charges its own price, and only
     * when it is this one. When the server's differs, the checkout sets this to it and asks the
     * shopper to confirm it.
     */
    amount?: number;
    /** The currency of `amount`: THB, the one the service charges in. */
    currency?: 'THB';
    /** The merchant's order reference the server prices. */
    orderReference?: string;
    /**
     * Required: the order's token, signed by the merchant's server for this order
     * (`handler.orderToken(orderReference)` in `satang/server`) and rendered into the page. The server
     * charges the order, and tells where it stands, only to the holder of its token. The checkout
     * asks the server where the order stands whenever it starts or resumes (after its first render):
     * a paid order shows paid, and a payment under way (a QR code, a bank or 3-D Secure page) is
     * picked up, in any tab or device. Without it, the checkout shows a configuration error.
     */
    orderToken?: string;
    /** Methods in the order to show them: card, installments, promptpay, ewallet, mobile-banking, or single services (truemoney, kplus…). */
    methods?: string;
    /** th or en (`th-TH` and the like read by their language); by default the page's language. */
    locale?: 'th' | 'en' | undefined;
    /** Where redirect flows come back to: a URL or a path on this site; by default this page. */
    returnUrl?: string;
    /** light, dark, or auto (follows the system). */
    theme?: 'light' | 'dark' | 'auto';
    /**
     * charge (take the money now) or authorize (only reserve it on the card, for the shop's server to
     * capture later; card payments only, `methods` defaults to card). Must match the server's order.
     */
    intent?: 'charge' | 'authorize';
  }
> & {
  /**
   * The interest of the shop's installment plans, a percentage a month as the shop gives it: `0` shows "0% interest" ("ดอกเบี้ย 0%"), `0.8` "Interest 0.8% a month, charged by the bank that issued your card". Shown under the plans; read whenever they render. Anything but a rate (up to two decimals) is not shown, and said once in the console.
   *
   * An attribute only: write it as `installment-interest`.
   */
  installmentInterest?: string;
  /**
   * The cards the shop's installment plans take, in the shop's words (e.g. `KBank, SCB credit cards`), shown under the plans as "Eligible cards: …" ("บัตรที่ร่วมรายการ: …"); read whenever they render.
   *
   * An attribute only: write it as `installment-cards`.
   */
  installmentCards?: string;
};

/** The events of `<satang-checkout>` as Vue props: `@satang-error` is `onSatangError`. */
export interface SatangCheckoutVueEvents {
  /** `@satang-error`: Configuration, network or server trouble: `code`, `message`. */
  onSatangError?: (event: SatangErrorEvent) => void;
  /** `@satang-ready`: First rendered with a valid configuration. */
  onSatangReady?: (event: SatangReadyEvent) => void;
  /** `@satang-change`: The method or the card details changed (never card data). */
  onSatangChange?: (event: SatangChangeEvent) => void;
  /** `@satang-submit`: A payment attempt starts. */
  onSatangSubmit?: (event: SatangSubmitEvent) => void;
  /** `@satang-action`: The shopper is being redirected, or a QR code is shown. */
  onSatangAction?: (event: SatangActionEvent) => void;
  /** `@satang-success`: The order is paid by the charge: `chargeId`, and `outcome` as the server says (`paid`, `authorized`, or `duplicate_refunded`: the order was paid already, this payment is refunded). */
  onSatangSuccess?: (event: SatangSuccessEvent) => void;
  /** `@satang-failure`: The charge failed (`chargeId`, `failureCode`), or went through without paying the order (`outcome`, also as `failureCode`: `repriced_refunded`, `amount_mismatch`, `refund_failed`). */
  onSatangFailure?: (event: SatangFailureEvent) => void;
  /** `@satang-amount-changed`: The server's total differs from the one shown; nothing was charged and the checkout now shows `amount` (its `amount` property is set to it) for the shopper to confirm: `amount`, `previousAmount` (NaN when none was set), `currency`. */
  onSatangAmountChanged?: (event: SatangAmountChangedEvent) => void;
  /** `@satang-already-paid`: The order was paid already, by another payment; nothing was charged: `orderReference`. Move on as after a success. */
  onSatangAlreadyPaid?: (event: SatangAlreadyPaidEvent) => void;
  /** `@satang-resume`: A payment of the order that may still go through was picked up (a reload, Back, the return from a bank, wallet or 3-D Secure page, or another tab or device): `chargeId`, `method`. Lock the cart until the payment ends. */
  onSatangResume?: (event: SatangResumeEvent) => void;
  /** `@satang-abandon`: The shopper left an open payment for another method (the server said it had not gone through): `chargeId`. Should it still arrive, one of the two payments is refunded. */
  onSatangAbandon?: (event: SatangAbandonEvent) => void;
}

/** The props of `<satang-checkout>` in a Vue template. */
export type SatangCheckoutVueProps = SatangCheckoutVueAttributes & SatangCheckoutVueEvents;

/** The attributes of `<satang-qr-payment>`, by the property each sets. */
export type SatangQrPaymentVueAttributes = Accepted<
  SatangQrPayment,
  {
    /** The EMVCo payload (`encodedImage.rawData`) the code encodes, exactly. */
    rawData?: string;
    /** ISO 8601 time the code stops being payable (`encodedImage.expiry`); no countdown without it. */
    expiry?: string;
    /** The amount the code charges, in satang (integer). */
    amount?: number | undefined;
    /** ISO 4217 code of `amount`. */
    currency?: string;
    /** th or en (`th-TH` and the like read by their language); by default the language of the page. */
    locale?: 'th' | 'en' | undefined;
    /** The merchant proxy's base URL (`createCheckoutHandler`'s basePath), to follow the charge. */
    endpoint?: string;
    /** The charge the code pays. */
    chargeId?: string;
  }
>;

/** The events of `<satang-qr-payment>` as Vue props: `@satang-error` is `onSatangError`. */
export interface SatangQrPaymentVueEvents {
  /** `@satang-error`: The status cannot be read (e.g. the status token was refused), or the element is misconfigured (`code` `CONFIG`, as `<satang-checkout>`). The code stays shown if it can be. */
  onSatangError?: (event: SatangErrorEvent) => void;
  /** `@satang-failure`: The charge failed (`chargeId`, `failureCode`), or went through without paying the order (`outcome` and `failureCode`: `repriced_refunded`, `amount_mismatch`, `refund_failed`). */
  onSatangFailure?: (event: SatangFailureEvent) => void;
  /** `@satang-success`: The order is paid by the charge (`chargeId`; `outcome`, the merchant's server's word on it, e.g. `duplicate_refunded` when the order was paid already and this payment refunded). */
  onSatangSuccess?: (event: SatangSuccessEvent) => void;
  /** `@satang-qr-renew`: The QR expired and the shopper asked for a new one (`chargeId`). */
  onSatangQrRenew?: (event: SatangQrRenewEvent) => void;
}

/** The props of `<satang-qr-payment>` in a Vue template. */
export type SatangQrPaymentVueProps = SatangQrPaymentVueAttributes & SatangQrPaymentVueEvents;

declare module 'vue' {
  interface GlobalComponents {
    'satang-card-form': VueElement<SatangCardForm, SatangCardFormVueProps>;
    'satang-checkout': VueElement<SatangCheckout, SatangCheckoutVueProps>;
    'satang-qr-payment': VueElement<SatangQrPayment, SatangQrPaymentVueProps>;
  }
}
