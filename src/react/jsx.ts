/**
 * `satang/jsx`: the Satang tags in React 19's JSX, for `<satang-checkout …>` written as an
 * intrinsic element. `import 'satang/react'` brings them too, as does
 * `/// <reference types="satang/jsx" />` in any file of the project.
 *
 * React 19 hands a custom element its props this way (react-dom's setPropOnCustomElement): a
 * function prop named `on<type>` becomes `addEventListener('<type>', fn)`, so `onsatang-success`
 * listens to `satang-success`; any other prop is set as a property when the defined element has
 * one by that name, and as an attribute otherwise. So the props here are the attributes, spelled
 * as in HTML, with the values each element accepts, and the events with their classes.
 *
 * Properties without an attribute (`<satang-qr-payment>`'s `statusToken` and `image`) are not
 * here: rendered on a server, or before the element is defined, React would write them into an
 * attribute, and a status token stays out of the DOM. Set them through a `ref`, or use the
 * `SatangQrPayment` wrapper of `satang/react`.
 *
 * Server-rendered and hydrated (Next.js, Remix, any `hydrateRoot`), React 19 attaches no
 * `on<type>` listener of a custom element while it hydrates: the first events are lost. Use the
 * wrappers of `satang/react` there; they attach their listeners after hydration.
 *
 * Hyphenated names are a blind spot of TypeScript's JSX checks: an attribute with a `-` that the
 * element does not declare (`merchent-id`) is let through, as `data-*` must be. The wrappers'
 * camelCase props have no such gap.
 */
import type { CSSProperties, DetailedHTMLProps, HTMLAttributes } from 'react';
import type { SatangCardForm } from '../elements/satang-card-form/satang-card-form.js';
import type { SatangCheckout } from '../elements/satang-checkout/satang-checkout.js';
import type { SatangQrPayment } from '../elements/satang-qr-payment/satang-qr-payment.js';
import type {
  CARD_FORM_ATTRIBUTES,
  CHECKOUT_ATTRIBUTES,
  QR_PAYMENT_ATTRIBUTES,
  SatangCardFormEvents,
  SatangCardFormProperties,
  SatangCheckoutEvents,
  SatangCheckoutProperties,
  SatangQrPaymentEvents,
  SatangQrPaymentProperties,
} from './satang-elements.js';

export type {
  SatangCardFormEvents,
  SatangCardFormProperties,
  SatangCheckoutEvents,
  SatangCheckoutProperties,
  SatangCurrency,
  SatangIntent,
  SatangLocale,
  SatangMethodName,
  SatangMethods,
  SatangQrPaymentEvents,
  SatangQrPaymentProperties,
  SatangTheme,
} from './satang-elements.js';

/** The tags this module types (each defined by `satang`, or by `satang/react`'s wrappers once mounted). */
export const SATANG_TAGS = ['satang-checkout', 'satang-card-form', 'satang-qr-payment'] as const;

/** `style`, with the elements' design tokens (`--satang-color-accent`…) as custom properties. */
export type SatangStyle = CSSProperties & Partial<Record<`--satang-${string}`, string | number>>;

/** The attributes of an element, from its properties: `{ merchantId: string }` → `{ 'merchant-id'?: string }`. */
type AttributeProps<Properties, Attributes extends { readonly [Name in keyof Properties]: string | null }> = {
  [Name in keyof Properties as Attributes[Name] extends string ? Attributes[Name] : never]?: Properties[Name];
};

/** `{ 'satang-success': SatangSuccessEvent }` → `{ 'onsatang-success'?: (event: SatangSuccessEvent) => void }`. */
export type JsxEventProps<Events> = { [Type in keyof Events & string as `on${Type}`]?: (event: Events[Type]) => void };

/**
 * The props of one Satang tag: React's own (`key`, `ref` to the element, `children`, `className`,
 * `id`, `aria-*`…), `class` as React 19 passes it to a custom element, `style` with the tokens,
 * the attributes and the events.
 */
export type SatangIntrinsicProps<Element extends HTMLElement, Attributes, Events> = Omit<DetailedHTMLProps<HTMLAttributes<Element>, Element>, 'style' | keyof Attributes> & {
  class?: string;
  style?: SatangStyle;
} & Attributes &
  JsxEventProps<Events>;

export type SatangCheckoutJsxProps = SatangIntrinsicProps<SatangCheckout, AttributeProps<SatangCheckoutProperties, typeof CHECKOUT_ATTRIBUTES>, SatangCheckoutEvents>;
export type SatangCardFormJsxProps = SatangIntrinsicProps<SatangCardForm, AttributeProps<SatangCardFormProperties, typeof CARD_FORM_ATTRIBUTES>, SatangCardFormEvents>;
export type SatangQrPaymentJsxProps = SatangIntrinsicProps<SatangQrPayment, AttributeProps<SatangQrPaymentProperties, typeof QR_PAYMENT_ATTRIBUTES>, SatangQrPaymentEvents>;

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React's JSX namespace is how React 19 types intrinsic elements.
  namespace JSX {
    interface IntrinsicElements {
      'satang-checkout': SatangCheckoutJsxProps;
      'satang-card-form': SatangCardFormJsxProps;
      'satang-qr-payment': SatangQrPaymentJsxProps;
    }
  }
}
