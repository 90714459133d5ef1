import { html, type Html } from '../http/html.js';
import { renderDocument, renderIssuer } from '../http/page-layout.js';
import { localeOf, payeeOf, renderChargeSummary, type ChargeView, type PageLinks } from './charge-summary.js';

/**
 * The outcome of a hosted step. The router usually redirects to the merchant's return URL; this
 * page is what the payer sees when it does not, with a link back when `continueUrl` is given.
 */
export function renderResultPage(view: PageLinks & { title: string; message: string; charge?: ChargeView; continueUrl?: string }): Html {
  const { title, message, charge, continueUrl } = view;
  const locale = localeOf(view);
  const words = locale.text.result;
  const payee = charge ? payeeOf(charge, locale) : locale.text.theMerchant;
  const next = continueUrl
    ? html`<div class="actions">\n<a class="button button-primary" href="${continueUrl}">${words.returnTo(payee)}</a>\n</div>`
    : html`<p class="closing">${words.close}</p>`;
  const body = html`<div class="card${charge && ` tone-${charge.status.toLowerCase()}`}">
${renderIssuer(locale.text.sandboxIssuer, 'S')}
<h1>${title}</h1>
<p class="lede">${message}</p>
${charge && renderChargeSummary(charge, locale, { showStatus: true })}
${next}
</div>`;
  return renderDocument({ ...locale.document, title, stylesheetHref: view.stylesheetHref, body });
}
