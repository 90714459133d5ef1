import { formatAmount } from '../../core/money.js';
import { html, type Html } from '../http/html.js';
import { renderButton, renderDocument, renderIssuer } from '../http/page-layout.js';
import { localeOf, payeeOf, renderChargeSummary, type ChargeView, type PageLinks } from './charge-summary.js';

/**
 * The mock consent screen of an e-wallet or mobile banking app, where the payer approves or
 * declines paying the merchant. It POSTs `decision=approve` or `decision=decline` to `action`.
 * `methodLabel` is the method's name in the page's language.
 */
export function renderAuthorizePage(view: PageLinks & { charge: ChargeView; action: string; methodLabel: string }): Html {
  const { charge, action, methodLabel } = view;
  const locale = localeOf(view);
  const words = locale.text.authorize;
  const amount = formatAmount(charge.amountSatang, charge.currency, locale.lang);
  const payee = payeeOf(charge, locale);
  const mark = Array.from(methodLabel.trim())[0]?.toUpperCase() ?? '฿';
  const body = html`<div class="card">
${renderIssuer(methodLabel, mark)}
<h1>${words.heading(amount, payee, methodLabel)}</h1>
<p class="lede">${words.lede(payee)}</p>
${renderChargeSummary(charge, locale)}
<form method="post" action="${action}">
<div class="actions actions-pair">
${renderButton('decision', 'approve', words.approve, 'primary')}
${renderButton('decision', 'decline', words.decline, 'danger')}
</div>
</form>
</div>`;
  return renderDocument({ ...locale.document, title: words.title(methodLabel), stylesheetHref: view.stylesheetHref, body });
}
