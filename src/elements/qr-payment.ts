/**
 * `<satang-qr-payment>` defined, with the QR library fetched in the same download: what
 * `SatangQrPayment` of `satang/react` loads when it is mounted on its own.
 *
 * A module of its own, not `satang-qr-payment/define.js`: that one is what `<satang-checkout>`
 * fetches when PromptPay is chosen, and a bundler that splits by dynamic import (Turbopack) plans
 * one download per imported module. Shared with the wrapper, the checkout's QR download would be
 * planned for a page without Lit, and carry a second copy of it.
 */
import './satang-qr-payment/define.js';
import 'qr';
