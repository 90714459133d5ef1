import { html, type Html } from '../http/html.js';
import { renderButton, renderDocument, renderIssuer } from '../http/page-layout.js';
import { renderChargeSummary, type ChargeView, type PageLinks } from './charge-summary.js';

/**
 * The page for methods whose outcome the tester simply chooses: it POSTs `outcome=succeed` or
 * `outcome=fail` to `action`. Used where the sandbox has no more realistic screen to emulate.
 */
export function renderForcePage(view: PageLinks & { charge: ChargeView; action: string }): Html {
  const body = html`<div class="card">
${renderIssuer('Satang sandbox · Payment simulator', 'S')}
<h1>Choose how this payment ends</h1>
<p class="lede">The charge completes with the outcome you pick, as if the payer had finished paying.</p>
${renderChargeSummary(view.charge)}
<form method="post" action="${view.action}">
<div class="actions actions-pair">
${renderButton('outcome', 'succeed', 'Make payment succeed', 'success')}
${renderButton('outcome', 'fail', 'Make payment fail', 'danger')}
</div>
</form>
</div>`;
  return renderDocument({ title: 'Choose the payment outcome', stylesheetHref: view.stylesheetHref, body });
}
