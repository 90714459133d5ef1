import { SANDBOX_OTP_CODE } from '../defaults.js';
import { html, type Html } from '../http/html.js';
import { renderDocument, renderIssuer } from '../http/page-layout.js';
import { localeOf, payeeOf, renderChargeSummary, type ChargeView, type PageLinks } from './charge-summary.js';

/**
 * The 3-D Secure challenge a card charge redirects to. The payer types the OTP and the form POSTs
 * `otp` to `action`; the router decides the outcome. When `error` is given (a wrong code), it is
 * announced and tied to the input so assistive technology reads it with the field.
 */
export function renderOtpPage(view: PageLinks & { charge: ChargeView; action: string; error?: string }): Html {
  const { charge, action, error } = view;
  const locale = localeOf(view);
  const words = locale.text.otp;
  const body = html`<div class="card">
${renderIssuer(words.issuer, 'S')}
<h1>${words.title}</h1>
<p class="lede">${words.lede(payeeOf(charge, locale))}</p>
${renderChargeSummary(charge, locale)}
<form method="post" action="${action}">
<div class="field">
<label for="otp">${words.label}</label>
<p class="hint" id="otp-hint">${words.hint(SANDBOX_OTP_CODE)}</p>
${error && html`<p class="field-error" id="otp-error" role="alert">${error}</p>\n`}<input class="otp-input" type="text" id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]*" maxlength="6" required aria-describedby="${error ? 'otp-hint otp-error' : 'otp-hint'}"${error && html` aria-invalid="true"`}>
</div>
<div class="actions">
<button type="submit" class="button button-primary">${words.submit}</button>
</div>
</form>
</div>`;
  return renderDocument({ ...locale.document, title: words.title, stylesheetHref: view.stylesheetHref, body });
}
