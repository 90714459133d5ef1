/**
 * The PromptPay panel of `<satang-checkout>` once the charge answers with a QR code: the code in
 * `<satang-qr-payment>`, followed until paid. Part of the payment code (`pay-path.ts`), fetched
 * after the form shows.
 */
import { html, type TemplateResult } from 'lit';
import type { CheckoutChargeResponse } from '../../core/schemas/checkout.js';
import type { LocalizeController } from '../controllers/localize-controller.js';
import type { SatangErrorEvent, SatangFailureEvent, SatangSuccessEvent } from '../events.js';

/**
 * The QR element's parts, every one, styled from the page through the checkout as `::part(qr-code)`
 * etc.; the manifest documents them on the checkout from this map.
 *
 * @exportparts satang-qr-payment to satang-checkout
 */
const QR_PARTS =
  'container:qr-container, title:qr-title, amount:qr-amount, qr:qr-code, instructions:qr-instructions, countdown:qr-countdown, save:qr-save, status:qr-status, slip-button:qr-slip-button, slip-status:qr-slip-status, expired:qr-expired, renew-button:qr-renew-button, result:qr-result, error:qr-error';

/** What the checkout shows its QR code with: the amount, and the look and the proxy of the checkout. */
export interface QrPaymentSettings {
  amount: number;
  currency: string;
  theme: string;
  endpoint: string;
}

/**
 * The charge's QR code, in the checkout's language and theme. The QR element's outcome goes to
 * `onOutcome`, for the checkout to make its own; `onRenew` hears the shopper ask for a new code,
 * `onError` why the status cannot be read.
 */
export function qrPaymentView(
  l: LocalizeController,
  { amount, currency, theme, endpoint }: QrPaymentSettings,
  charge: CheckoutChargeResponse,
  encodedImage: NonNullable<CheckoutChargeResponse['encodedImage']>,
  onOutcome: (event: SatangSuccessEvent | SatangFailureEvent) => void,
  onRenew: () => void,
  onError: (event: SatangErrorEvent) => void,
): TemplateResult {
  const { rawData, imageBase64Encoded, expiry } = encodedImage;
  return html`<satang-qr-payment
    data-satang-nested
    exportparts=${QR_PARTS}
    raw-data=${rawData}
    .image=${imageBase64Encoded}
    expiry=${expiry}
    amount=${amount}
    currency=${currency}
    locale=${l.locale}
    theme=${theme}
    endpoint=${endpoint}
    charge-id=${charge.chargeId}
    .statusToken=${charge.statusToken}
    @satang-success=${onOutcome}
    @satang-failure=${onOutcome}
    @satang-qr-renew=${onRenew}
    @satang-error=${onError}
  ></satang-qr-payment>`;
}
