import { html, type Html } from '../http/html.js';
import { renderButton, renderDocument, renderIssuer } from '../http/page-layout.js';
import { localeOf, payeeOf, renderChargeSummary, type ChargeView, type PageLinks } from './charge-summary.js';

/**
 * The page for methods whose outcome the tester simply chooses: it POSTs `outcome=succeed` or
 * `outcome=fail` to `action`. Used where the sandbox has no more realistic screen to emulate.
 */
export function renderForcePage(view: PageLinks & { charge: ChargeView; action: string }): Html {
  const locale = localeOf(view);
  const words = locale.text.force;
  const body = html`<div class="card">
${renderIssuer(words.issuer, 'S')}
<h1>${words.heading}</h1>
<p class="lede">${words.lede(payeeOf(view.charge, locale))}</p>
${renderChargeSummary(view.charge, locale)}
<form method="post" action="${view.action}">
<div class="actions actions-pair">
${renderButton('outcome', 'succeed', words.succeed, 'success')}
${renderButton('outcome', 'fail', words.fail, 'danger')}
</div>
</form>
</div>`;
  return renderDocument({ ...locale.document, title: words.title, stylesheetHref: view.stylesheetHref, body });
}
