/**
 * How a payment of `<satang-checkout>` ended. Part of the payment code (`pay-path.ts`), fetched
 * after the form shows: an outcome needs a charge, which needs that code.
 */
import { html, type TemplateResult } from 'lit';
import { failureMessageKey } from '../../core/failure.js';
import type { LocalizeController } from '../controllers/localize-controller.js';

/**
 * Success, or for an `authorize` checkout the amount reserved; else the failure, told by its
 * `failureCode`, with a button to `retry`.
 */
export function outcomeView(l: LocalizeController, succeeded: boolean, authorize: boolean, amountText: string, failureCode: string, retry: () => void): TemplateResult {
  if (succeeded) {
    return html`<div part="outcome" class="outcome success" role="status">
      <h2>${l.msg(authorize ? 'success.authorizedTitle' : 'success.title')}</h2>
      <p>${l.msg(authorize ? 'success.authorizedBody' : 'success.body', { amount: amountText })}</p>
    </div>`;
  }
  return html`<div part="outcome" class="outcome failure" role="alert">
    <h2>${l.msg('failure.title')}</h2>
    <p>${l.msg(failureMessageKey(failureCode))}</p>
    <button part="retry-button" class="secondary" @click=${retry}>${l.msg('failure.retry')}</button>
  </div>`;
}
