/**
 * What React needs to know of each Satang element: the properties a page sets (with the attribute
 * each reads, and the values it accepts) and the events it dispatches, with their classes. The JSX
 * types (`jsx.ts`) and the wrappers (`index.ts`) are both made from these lists, so the two cannot
 * drift apart; `test/react/element-api.test.ts` holds the lists to the elements' own declarations.
 *
 * Importing this module loads no element: only types come from src/elements.
 */
import type { CheckoutIntent } from '../core/schemas/checkout.js';
import type { SatangAbandonEvent, SatangAlreadyPaidEvent, SatangAmountChangedEvent, SatangResumeEvent } from '../elements/checkout-events.js';
import type {
  SatangActionEvent,
  SatangChangeEvent,
  SatangErrorEvent,
  SatangFailureEvent,
  SatangReadyEvent,
  SatangSubmitEvent,
  SatangSuccessEvent,
} from '../elements/events.js';
import type { SatangCardForm } from '../elements/satang-card-form/satang-card-form.js';
import type { SatangCheckout } from '../elements/satang-checkout/satang-checkout.js';
import type { SatangQrPayment } from '../elements/satang-qr-payment/satang-qr-payment.js';
import type { SatangQrRenewEvent } from '../elements/satang-qr-payment/qr-events.js';

/** The languages the elements speak; anything else falls back to the page's `lang`. */
export type SatangLocale = 'th' | 'en';

/** `light`, `dark`, or `auto` (follows the system). */
export type SatangTheme = 'light' | 'dark' | 'auto';

/** The one currency the service charges in. */
export type SatangCurrency = 'THB';

/** `charge` takes the money now; `authorize` only reserves it on the card, for the shop's server to capture. */
export type SatangIntent = CheckoutIntent;

/** The names `<satang-checkout methods>` takes: groups of methods and single services (case does not matter). */
export const METHOD_NAMES = [
  'card',
  'installments',
  'promptpay',
  'ewallet',
  'e-wallet',
  'mobile-banking',
  'truemoney',
  'linepay',
  'shopeepay',
  'alipay',
  'wechatpay',
  'make',
  'kplus',
  'scb',
  'bbl',
  'krungsri',
] as const;

/** One name in `<satang-checkout methods>`. */
export type SatangMethodName = (typeof METHOD_NAMES)[number];

/**
 * `<satang-checkout methods>`: names in the order to show them, separated by commas or spaces
 * (`card,promptpay`). The type checks the first name; the element reports an unknown one at run
 * time (`satang-error` with code `CONFIG`).
 */
export type SatangMethods = SatangMethodName | `${SatangMethodName},${string}` | `${SatangMethodName} ${string}`;

/** The properties of `<satang-checkout>` a page sets, as the element accepts them. */
export interface SatangCheckoutProperties {
  /** The merchant id, for card tokenization. */
  merchantId: string;
  /** The publishable key (`pk_…`): safe in a page, only creates card tokens. Never the secret key. */
  publishableKey: string;
  /** The payment service's base URL, where card tokens are created. */
  serviceUrl: string;
  /** The merchant's checkout endpoint (`satang/server`), e.g. `/api/checkout`. */
  endpoint: string;
  /** The amount to show, in satang (฿1,780.00 is 178000), sent with the charge for the server to check. */
  amount: number;
  /** THB. */
  currency: SatangCurrency;
  /** The merchant's order reference the server prices. */
  orderReference: string;
  /**
   * The order's token from the merchant's server (`handler.orderToken(orderReference)`): with it the
   * checkout shows the order as the server knows it (paid, or a payment under way) in any tab.
   */
  orderToken: string;
  /** The methods, in the order to show them; all of them by default. */
  methods: SatangMethods;
  /** th or en; by default the page's language. */
  locale: SatangLocale;
  /** Where redirect flows come back to: a URL or a path on this site; by default this page. */
  returnUrl: string;
  /** light, dark or auto. */
  theme: SatangTheme;
  /** charge (the default) or authorize; must match the server's order. */
  intent: SatangIntent;
}

/** The properties of `<satang-card-form>` a page sets. */
export interface SatangCardFormProperties {
  /** th or en; by default the page's language. */
  locale: SatangLocale;
  /** Disables every field (e.g. while a payment is running). */
  disabled: boolean;
}

/** The properties of `<satang-qr-payment>` a page sets. */
export interface SatangQrPaymentProperties {
  /** The EMVCo payload (`encodedImage.rawData`) the code encodes, exactly. */
  rawData: string;
  /** The service's base64 PNG of the same code (`encodedImage.imageBase64Encoded`). A property only. */
  image: string | null;
  /** ISO 8601 time the code stops being payable (`encodedImage.expiry`). */
  expiry: string;
  /** The amount the code charges, in satang. */
  amount: number;
  /** ISO 4217 code of `amount`. */
  currency: string;
  /** th or en; by default the page's language. */
  locale: SatangLocale;
  /** The merchant proxy's base URL (`createCheckoutHandler`'s basePath), to follow the charge. */
  endpoint: string;
  /** The charge the code pays. */
  chargeId: string;
  /** The charge's `statusToken`. A property only: tokens stay out of attributes and the DOM. */
  statusToken: string;
}

/**
 * The attribute each property reads, or `null` for a property without one. Typed against the
 * element class: a name the element does not have, or a value it would not take, fails to compile.
 */
export const CHECKOUT_ATTRIBUTES = {
  merchantId: 'merchant-id',
  publishableKey: 'publishable-key',
  serviceUrl: 'service-url',
  endpoint: 'endpoint',
  amount: 'amount',
  currency: 'currency',
  orderReference: 'order-reference',
  orderToken: 'order-token',
  methods: 'methods',
  locale: 'locale',
  returnUrl: 'return-url',
  theme: 'theme',
  intent: 'intent',
} as const satisfies AttributesOf<SatangCheckoutProperties, SatangCheckout>;

export const CARD_FORM_ATTRIBUTES = {
  locale: 'locale',
  disabled: 'disabled',
} as const satisfies AttributesOf<SatangCardFormProperties, SatangCardForm>;

export const QR_PAYMENT_ATTRIBUTES = {
  rawData: 'raw-data',
  image: null,
  expiry: 'expiry',
  amount: 'amount',
  currency: 'currency',
  locale: 'locale',
  endpoint: 'endpoint',
  chargeId: 'charge-id',
  statusToken: null,
} as const satisfies AttributesOf<SatangQrPaymentProperties, SatangQrPayment>;

/** The events `<satang-checkout>` dispatches, by type. Its card form's `satang-change` arrives here too (same class). */
export interface SatangCheckoutEvents {
  'satang-ready': SatangReadyEvent;
  'satang-change': SatangChangeEvent;
  'satang-submit': SatangSubmitEvent;
  'satang-action': SatangActionEvent;
  'satang-success': SatangSuccessEvent;
  'satang-failure': SatangFailureEvent;
  'satang-amount-changed': SatangAmountChangedEvent;
  'satang-already-paid': SatangAlreadyPaidEvent;
  'satang-resume': SatangResumeEvent;
  'satang-abandon': SatangAbandonEvent;
  'satang-error': SatangErrorEvent;
}

/** The events `<satang-card-form>` dispatches, by type. */
export interface SatangCardFormEvents {
  'satang-ready': SatangReadyEvent;
  'satang-change': SatangChangeEvent;
}

/** The events `<satang-qr-payment>` dispatches, by type. */
export interface SatangQrPaymentEvents {
  'satang-success': SatangSuccessEvent;
  'satang-failure': SatangFailureEvent;
  'satang-error': SatangErrorEvent;
  'satang-qr-renew': SatangQrRenewEvent;
}

/** `satang-amount-changed` → `SatangAmountChanged`. */
type Pascal<Name extends string> = Name extends `${infer Head}-${infer Tail}` ? `${Capitalize<Head>}${Pascal<Tail>}` : Capitalize<Name>;

/** The wrapper's prop for an event: `satang-success` → `onSatangSuccess`. */
export type EventPropName<Type extends string> = `on${Pascal<Type>}`;

/** The wrappers' prop of each event: written out, and checked against the event types above. */
export const CHECKOUT_EVENT_PROPS = {
  'satang-ready': 'onSatangReady',
  'satang-change': 'onSatangChange',
  'satang-submit': 'onSatangSubmit',
  'satang-action': 'onSatangAction',
  'satang-success': 'onSatangSuccess',
  'satang-failure': 'onSatangFailure',
  'satang-amount-changed': 'onSatangAmountChanged',
  'satang-already-paid': 'onSatangAlreadyPaid',
  'satang-resume': 'onSatangResume',
  'satang-abandon': 'onSatangAbandon',
  'satang-error': 'onSatangError',
} as const satisfies EventPropsOf<SatangCheckoutEvents>;

export const CARD_FORM_EVENT_PROPS = {
  'satang-ready': 'onSatangReady',
  'satang-change': 'onSatangChange',
} as const satisfies EventPropsOf<SatangCardFormEvents>;

export const QR_PAYMENT_EVENT_PROPS = {
  'satang-success': 'onSatangSuccess',
  'satang-failure': 'onSatangFailure',
  'satang-error': 'onSatangError',
  'satang-qr-renew': 'onSatangQrRenew',
} as const satisfies EventPropsOf<SatangQrPaymentEvents>;

/**
 * Every property named, each with its attribute (or null), and only properties the element class
 * has, whose type takes the values allowed here.
 */
type AttributesOf<Properties, Element> = { [Name in keyof Properties]: Name extends keyof Element ? (Properties[Name] extends Element[Name] ? string | null : never) : never };

/** Every event named, each with its `on…` prop. */
type EventPropsOf<Events> = { [Type in keyof Events & string]: EventPropName<Type> };
