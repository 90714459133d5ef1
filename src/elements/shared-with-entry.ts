/**
 * Imported by the lazy chunks of `satang` (`pay-path.ts`, `<satang-qr-payment>`'s `define.ts`, the
 * card form's `card-form-extras.ts`) for no code of its own: it names, as one group, the modules they share with the entry. A bundler
 * that splits code by the set of entries reaching each module (esbuild does) then writes these as
 * one shared file instead of one per combination, so a page loads fewer, better-compressed files
 * before its first render. Only modules the `satang` entry loads anyway are here: for it the group
 * costs nothing (a `satang/card` page fetches the checkout's few of them with the card form's
 * lazy chunk, after its first render).
 */
import '../core/card.js';
import '../core/constants.js';
import '../core/device.js';
import '../core/money.js';
import '../core/url.js';
import '../client/attempt-key.js';
import '../client/client-error.js';
import './checkout-events.js';
import './controllers/localize-controller.js';
import './events.js';
import './i18n/localize.js';
import './i18n/payment.js';
import './lazy.js';
import './marks/method-marks.js';
import './satang-checkout/checkout-config.js';
import './satang-checkout/payment-methods.js';
import './satang-checkout/promptpay-panel.js';
import './shared-styles.js';
