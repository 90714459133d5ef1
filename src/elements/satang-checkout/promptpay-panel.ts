/**
 * `<satang-qr-payment>` made ready for the PromptPay panel of `<satang-checkout>`: an entry that
 * does not define it at once (`satang`, `satang/checkout`) sets how it is fetched on demand. The
 * QR code itself shows once the charge answers with it (`qr-payment-view.ts`).
 */
import { lazyModule } from '../lazy.js';

let qrElementLoader: (() => Promise<unknown>) | undefined;

/** Sets how `<satang-qr-payment>` is fetched when a checkout needs it and it is not defined. */
export function setQrElementLoader(loader: () => Promise<unknown>): void {
  qrElementLoader = loader;
}

const qrElement = lazyModule(async () => {
  if (!qrElementLoader) throw new Error('<satang-qr-payment> is not defined: import satang (or satang/checkout) to show QR codes');
  return qrElementLoader();
});

/**
 * `<satang-qr-payment>`, defined. Started as soon as PromptPay is chosen, so the code shows without
 * delay when the charge answers with it; fails as a network error the checkout explains.
 */
export function loadQrElement(): Promise<unknown> {
  return customElements.get('satang-qr-payment') ? Promise.resolve() : qrElement();
}
