import { formatAmount } from '../../core/money.js';
import { html, type Html } from '../http/html.js';
import { renderButton, renderDocument, renderIssuer } from '../http/page-layout.js';
import { renderChargeSummary, type ChargeView, type PageLinks } from './charge-summary.js';

/**
 * The mock consent screen of an e-wallet or mobile banking app, where the payer approves or
 * declines the charge. It POSTs `decision=approve` or `decision=decline` to `action`.
 */
export function renderAuthorizePage(view: PageLinks & { charge: ChargeView; action: string; methodLabel: string }): Html {
  const { charge, action, methodLabel } = view;
  const amount = formatAmount(charge.amountSatang, charge.currency);
  const payee = charge.referenceId || 'the merchant';
  const mark = Array.from(methodLabel.trim())[0]?.toUpperCase() ?? '฿';
  const body = html`<div class="card">
${renderIssuer(methodLabel, mark)}
<h1>Pay ${amount} to ${payee} with ${methodLabel}?</h1>
<p class="lede">Approving pays the merchant now; declining cancels this payment.</p>
${renderChargeSummary(charge)}
<form method="post" action="${action}">
<div class="actions actions-pair">
${renderButton('decision', 'approve', 'Approve', 'primary')}
${renderButton('decision', 'decline', 'Decline', 'danger')}
</div>
</form>
</div>`;
  return renderDocument({ title: `Pay with ${methodLabel}`, stylesheetHref: view.stylesheetHref, body });
}
