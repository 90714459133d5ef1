/**
 * Bench-only entry: the drop-in `<satang-checkout>` as a card-only page would ship it if the
 * package had such a file. The checkout and the card form, without `<satang-qr-payment>` (and so
 * without the lazy QR chunk). Not published; `satang-card.js` (src/elements/card.ts) is the
 * card-only file merchants load today.
 */
import { SatangCardForm } from '../../../src/elements/satang-card-form/satang-card-form.js';
import { SatangCheckout } from '../../../src/elements/satang-checkout/satang-checkout.js';

for (const element of [SatangCardForm, SatangCheckout]) {
  if (!customElements.get(element.tagName)) customElements.define(element.tagName, element);
}
