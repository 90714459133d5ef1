'use client';
/**
 * `satang/react`: the Satang elements as React components, for React 18 and 19, client-rendered
 * or server-rendered (Next.js App Router, Remix, `renderToString` + `hydrateRoot`).
 *
 * ```tsx
 * import { SatangCheckout } from 'satang/react';
 *
 * <SatangCheckout merchantId="mch_…" publishableKey="pk_…" serviceUrl="https://…" endpoint="/api/checkout"
 *   amount={178000} orderReference="order-1234" onSatangSuccess={(event) => navigate(`/done/${event.chargeId}`)} />
 * ```
 *
 * Each wrapper takes the element's properties in camelCase and its events as `onSatang…` props,
 * typed with the element's event classes; its `ref` is the element. Importing this module touches
 * no browser global: on a server the wrappers render the bare tag, and in the browser each one
 * loads and defines its element after it is mounted (`satang/checkout` for `SatangCheckout`,
 * `satang/card` for `SatangCardForm`), so the page needs no other import. The JSX types of the
 * tags themselves (`satang/jsx`) come with this module.
 */
import type { SatangCardForm as SatangCardFormElement } from '../elements/satang-card-form/satang-card-form.js';
import type { SatangCheckout as SatangCheckoutElement } from '../elements/satang-checkout/satang-checkout.js';
import type { SatangQrPayment as SatangQrPaymentElement } from '../elements/satang-qr-payment/satang-qr-payment.js';
import { createSatangComponent, type SatangComponent } from './create-satang-component.js';
import {
  CARD_FORM_ATTRIBUTES,
  CARD_FORM_EVENT_PROPS,
  CHECKOUT_ATTRIBUTES,
  CHECKOUT_EVENT_PROPS,
  QR_PAYMENT_ATTRIBUTES,
  QR_PAYMENT_EVENT_PROPS,
  type SatangCardFormEvents,
  type SatangCardFormProperties,
  type SatangCheckoutEvents,
  type SatangCheckoutProperties,
  type SatangQrPaymentEvents,
  type SatangQrPaymentProperties,
} from './satang-elements.js';

export type { SatangComponent, SatangComponentProps, SatangEventProps } from './create-satang-component.js';
export type * from './jsx.js';

/** `<satang-checkout>`: the drop-in checkout. Defines `<satang-checkout>` and `<satang-card-form>` once mounted; the QR element loads when PromptPay is chosen. */
export const SatangCheckout: SatangComponent<SatangCheckoutElement, SatangCheckoutProperties, SatangCheckoutEvents> = createSatangComponent({
  tagName: 'satang-checkout',
  displayName: 'SatangCheckout',
  properties: CHECKOUT_ATTRIBUTES,
  events: CHECKOUT_EVENT_PROPS,
  define: () => import('../elements/checkout.js'),
});

/** `<satang-card-form>`: card entry alone; `ref.current.tokenize(…)` makes the card token. */
export const SatangCardForm: SatangComponent<SatangCardFormElement, SatangCardFormProperties, SatangCardFormEvents> = createSatangComponent({
  tagName: 'satang-card-form',
  displayName: 'SatangCardForm',
  properties: CARD_FORM_ATTRIBUTES,
  events: CARD_FORM_EVENT_PROPS,
  define: () => import('../elements/card.js'),
});

/** `<satang-qr-payment>`: a PromptPay QR code followed until paid (`statusToken` is set as a property, never an attribute). */
export const SatangQrPayment: SatangComponent<SatangQrPaymentElement, SatangQrPaymentProperties, SatangQrPaymentEvents> = createSatangComponent({
  tagName: 'satang-qr-payment',
  displayName: 'SatangQrPayment',
  properties: QR_PAYMENT_ATTRIBUTES,
  events: QR_PAYMENT_EVENT_PROPS,
  define: () => import('../elements/qr-payment.js'),
});
