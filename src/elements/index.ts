/**
 * `satang`: the checkout elements. Importing this module (or loading `satang.js` in a script tag)
 * defines `<satang-checkout>` and `<satang-card-form>` at once, and `<satang-qr-payment>` as soon
 * as it is used: the checkout fetches it (with the QR library) when PromptPay is chosen, and a
 * `<satang-qr-payment>` the page puts in its own DOM is defined when it appears. What loads before
 * the first render is only the form the shopper sees first.
 */
import { SatangCardForm } from './satang-card-form/satang-card-form.js';
import { SatangCheckout } from './satang-checkout/satang-checkout.js';
import { setQrElementLoader } from './satang-checkout/promptpay-panel.js';

export { SatangCardForm, type TokenizedCard } from './satang-card-form/satang-card-form.js';
export { SatangCheckout } from './satang-checkout/satang-checkout.js';
// A type here: the class is defined by the chunk fetched on first use (`customElements.get('satang-qr-payment')`).
export type { SatangQrPayment } from './satang-qr-payment/satang-qr-payment.js';
export * from './events.js';
// Types only, as in `satang/checkout`: the classes come with the payment code, fetched after the first render.
export type { SatangAbandonEvent, SatangAlreadyPaidEvent, SatangAmountChangedEvent, SatangResumeEvent } from './checkout-events.js';

const QR_TAG = 'satang-qr-payment';
const qrElement = () => import('./satang-qr-payment/define.js');
// The QR library is fetched alongside the element, not after it asks: one wait, not two.
setQrElementLoader(() => Promise.all([qrElement(), import('qr')]));

/**
 * Defines `<satang-qr-payment>` now: for a page that renders one inside a shadow root of its own,
 * which the watch below does not see. Resolves once the element (and the QR library) is there.
 */
export async function defineQrPayment(): Promise<void> {
  await qrElement();
}

/**
 * Defines `<satang-qr-payment>` once the page shows one (in its DOM now, or added later), so a
 * page that never does never downloads it.
 */
function defineQrElementOnUse(): void {
  // Imported by a server rendering the page (SvelteKit, Nuxt, Astro, plain Node): no document to
  // watch there, and nothing to show; the browser's own import watches it.
  if (typeof document === 'undefined' || customElements.get(QR_TAG)) return;
  if (document.querySelector(QR_TAG)) {
    void qrElement();
    return;
  }
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node instanceof Element && (node.localName === QR_TAG || node.querySelector(QR_TAG))) {
          observer.disconnect();
          void qrElement();
          return;
        }
      }
    }
  });
  observer.observe(document, { childList: true, subtree: true });
}

for (const element of [SatangCardForm, SatangCheckout]) {
  if (!customElements.get(element.tagName)) customElements.define(element.tagName, element);
}
defineQrElementOnUse();
