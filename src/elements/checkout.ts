/**
 * `satang/checkout`: `<satang-checkout>` and the `<satang-card-form>` inside it, with
 * `<satang-qr-payment>` and the QR library fetched only when the shopper picks PromptPay. The
 * smallest first download of the whole checkout.
 */
import { SatangCardForm } from './satang-card-form/satang-card-form.js';
import { SatangCheckout } from './satang-checkout/satang-checkout.js';
import { setQrElementLoader } from './satang-checkout/promptpay-panel.js';

export { SatangCardForm, type TokenizedCard } from './satang-card-form/satang-card-form.js';
export { SatangCheckout } from './satang-checkout/satang-checkout.js';
export * from './events.js';
// Types only: the classes come with the payment code, fetched after the first render.
export type { SatangAbandonEvent, SatangAlreadyPaidEvent, SatangAmountChangedEvent, SatangResumeEvent } from './checkout-events.js';

// The QR library is fetched alongside the element, not after it asks: one wait, not two.
setQrElementLoader(() => Promise.all([import('./satang-qr-payment/define.js'), import('qr')]));

for (const element of [SatangCardForm, SatangCheckout]) {
  if (!customElements.get(element.tagName)) customElements.define(element.tagName, element);
}
