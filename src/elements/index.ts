/**
 * `satang`: the checkout elements. Importing this module (or loading `satang.js` in a script tag)
 * defines `<satang-checkout>`, `<satang-card-form>` and `<satang-qr-payment>`.
 */
import './satang-qr-payment/define.js';
import { SatangCardForm } from './satang-card-form/satang-card-form.js';
import { SatangCheckout } from './satang-checkout/satang-checkout.js';

export { SatangCardForm, type TokenizedCard } from './satang-card-form/satang-card-form.js';
export { SatangCheckout } from './satang-checkout/satang-checkout.js';
export { SatangQrPayment } from './satang-qr-payment/satang-qr-payment.js';
export * from './events.js';
export * from './checkout-events.js';

for (const element of [SatangCardForm, SatangCheckout]) {
  if (!customElements.get(element.tagName)) customElements.define(element.tagName, element);
}
