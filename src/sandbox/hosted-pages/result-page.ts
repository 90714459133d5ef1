import { html, type Html } from '../http/html.js';
import { renderDocument, renderIssuer } from '../http/page-layout.js';
import { renderChargeSummary, type ChargeView, type PageLinks } from './charge-summary.js';

/**
 * The outcome of a hosted step. The router usually redirects to the merchant's return URL; this
 * page is what the payer sees when it does not, with a link back when `continueUrl` is given.
 */
export function renderResultPage(view: PageLinks & { title: string; message: string; charge?: ChargeView; continueUrl?: string }): Html {
  const { title, message, charge, continueUrl } = view;
  const next = continueUrl
    ? html`<div class="actions">\n<a class="button button-primary" href="${continueUrl}">Return to the merchant</a>\n</div>`
    : html`<p class="closing">You can close this page.</p>`;
  const body = html`<div class="card${charge && ` tone-${charge.status.toLowerCase()}`}">
${renderIssuer('Satang sandbox', 'S')}
<h1>${title}</h1>
<p class="lede">${message}</p>
${charge && renderChargeSummary(charge, { showStatus: true })}
${next}
</div>`;
  return renderDocument({ title, stylesheetHref: view.stylesheetHref, body });
}
