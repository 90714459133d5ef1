/**
 * JSX typings for the Satang elements in React 19, for this demo.
 *
 * React 19 passes props to a custom element as follows (react-dom, setPropOnCustomElement):
 * a prop named `on<type>` whose value is a function becomes `addEventListener('<type>', fn)`, so
 * `onsatang-success` listens to `satang-success`; any other prop is set as a property when the
 * element has one by that name (`amount`, `locale`…) and as an attribute otherwise
 * (`merchant-id`…). The types below follow the element and event classes.
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type {
  SatangActionEvent,
  SatangAlreadyPaidEvent,
  SatangAmountChangedEvent,
  SatangCardForm,
  SatangChangeEvent,
  SatangCheckout,
  SatangErrorEvent,
  SatangFailureEvent,
  SatangQrPayment,
  SatangReadyEvent,
  SatangSubmitEvent,
  SatangSuccessEvent,
} from '../../src/elements/index.js';
import type { SatangQrRenewEvent } from '../../src/elements/satang-qr-payment/qr-events.js';

/** `{ 'satang-success': SatangSuccessEvent }` → `{ 'onsatang-success'?: (event: SatangSuccessEvent) => void }`. */
type EventProps<Events> = { [Type in keyof Events & string as `on${Type}`]?: (event: Events[Type]) => void };

type ElementProps<Element extends HTMLElement, Attributes, Events> = DetailedHTMLProps<HTMLAttributes<Element>, Element> & Partial<Attributes> & EventProps<Events>;

interface CheckoutAttributes {
  'merchant-id': SatangCheckout['merchantId'];
  'publishable-key': SatangCheckout['publishableKey'];
  'service-url': SatangCheckout['serviceUrl'];
  endpoint: SatangCheckout['endpoint'];
  amount: SatangCheckout['amount'];
  currency: SatangCheckout['currency'];
  'order-reference': SatangCheckout['orderReference'];
  methods: SatangCheckout['methods'];
  locale: SatangCheckout['locale'];
  'return-url': SatangCheckout['returnUrl'];
  theme: SatangCheckout['theme'];
}

interface CheckoutEvents {
  'satang-ready': SatangReadyEvent;
  'satang-change': SatangChangeEvent;
  'satang-submit': SatangSubmitEvent;
  'satang-action': SatangActionEvent;
  'satang-success': SatangSuccessEvent;
  'satang-failure': SatangFailureEvent;
  'satang-error': SatangErrorEvent;
  'satang-amount-changed': SatangAmountChangedEvent;
  'satang-already-paid': SatangAlreadyPaidEvent;
}

interface CardFormAttributes {
  locale: SatangCardForm['locale'];
  disabled: SatangCardForm['disabled'];
}

interface QrPaymentAttributes {
  'raw-data': SatangQrPayment['rawData'];
  expiry: SatangQrPayment['expiry'];
  amount: SatangQrPayment['amount'];
  currency: SatangQrPayment['currency'];
  locale: SatangQrPayment['locale'];
  endpoint: SatangQrPayment['endpoint'];
  'charge-id': SatangQrPayment['chargeId'];
  /** Properties only (no attribute). */
  image: SatangQrPayment['image'];
  statusToken: SatangQrPayment['statusToken'];
}

interface QrPaymentEvents {
  'satang-success': SatangSuccessEvent;
  'satang-failure': SatangFailureEvent;
  'satang-error': SatangErrorEvent;
  'satang-qr-renew': SatangQrRenewEvent;
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'satang-checkout': ElementProps<SatangCheckout, CheckoutAttributes, CheckoutEvents>;
      'satang-card-form': ElementProps<SatangCardForm, CardFormAttributes, { 'satang-change': SatangChangeEvent }>;
      'satang-qr-payment': ElementProps<SatangQrPayment, QrPaymentAttributes, QrPaymentEvents>;
    }
  }
}
