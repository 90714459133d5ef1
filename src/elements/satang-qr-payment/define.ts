/**
 * Defines `<satang-qr-payment>`. `<satang-checkout>` imports this module when a QR may be needed
 * (PromptPay chosen, or a QR answer arriving), so a checkout entry without it downloads the QR
 * element and the QR library only then.
 */
import { SatangQrPayment } from './satang-qr-payment.js';

if (!customElements.get(SatangQrPayment.tagName)) customElements.define(SatangQrPayment.tagName, SatangQrPayment);
