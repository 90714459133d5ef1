/**
 * How a payment of `<satang-checkout>` ended. Part of the payment code (`pay-path.ts`), fetched
 * after the form shows: an outcome needs a charge, which needs that code.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { failureMessageKey } from '../../core/failure.js';
import type { LocalizeController } from '../controllers/localize-controller.js';
import { orderVerdict, unpaidMessageKey } from '../order-outcome.js';

/**
 * Success, or for an `authorize` checkout the amount reserved, with a word on a duplicate payment
 * refunded (`orderOutcome`); else the failure, told by its `failureCode`, with a button to
 * `retry`. A charge that went through without paying the order (`orderOutcome` set on a failure)
 * says so instead: after a refund for a changed price the shopper can `review` the new total;
 * otherwise the shop settles it, and there is nothing to retry. `more` follows a success's words:
 * its installment plan, the payments the shopper left that went through all the same
 * (`left-payments.ts`).
 */
export function outcomeView(
  l: LocalizeController,
  succeeded: boolean,
  authorize: boolean,
  amountText: string,
  failureCode: string,
  orderOutcome: string | undefined,
  retry: () => void,
  review: () => void,
  more: TemplateResult | typeof nothing = nothing,
): TemplateResult {
  if (succeeded) {
    const duplicate = orderOutcome === 'duplicate_refunded';
    return html`<div part="outcome" class="outcome success" role="status">
      <svg part="outcome-mark" class="mark" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="11"></circle><path d="m7 12.5 3.2 3.2L17 9"></path></svg>
      <h2 tabindex="-1">${l.msg(duplicate ? 'outcome.duplicateTitle' : authorize ? 'success.authorizedTitle' : 'success.title')}</h2>
      ${duplicate
        ? html`<p part="refund-notice">${l.msg('outcome.duplicateRefunded', { amount: amountText })}</p>`
        : html`<p>${l.msg(authorize ? 'success.authorizedBody' : 'success.body', { amount: amountText })}</p>`}
      ${more}
    </div>`;
  }
  const verdict = orderOutcome === undefined ? 'failed' : orderVerdict({ status: 'SUCCEEDED', outcome: orderOutcome });
  const unpaid = unpaidMessageKey(verdict);
  return html`<div part="outcome" class="outcome failure" role="alert">
    <h2 tabindex="-1">${l.msg(verdict === 'repriced' ? 'outcome.repricedTitle' : 'failure.title')}</h2>
    <p>${l.msg(unpaid ?? failureMessageKey(failureCode))}</p>
    ${verdict === 'failed'
      ? html`<button part="retry-button" class="secondary" @click=${retry}>${l.msg('failure.retry')}</button>`
      : verdict === 'repriced'
        ? html`<button part="review-button" class="pay" @click=${review}>${l.msg('outcome.repricedAction')}</button>`
        : nothing}
  </div>`;
}
