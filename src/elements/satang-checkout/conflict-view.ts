/**
 * What `<satang-checkout>` shows instead of the form when the shop's server charged nothing and
 * said why: the total changed, the order is being paid elsewhere or is paid, or the page expired.
 * Part of the payment code (`pay-path.ts`), fetched after the form shows.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { formatAmount } from '../../core/money.js';
import type { LocalizeController } from '../controllers/localize-controller.js';
import type { MessageKey } from '../i18n/localize.js';
import type { ChargeConflict, ChargeOptions } from './payment-state.js';
import { methodWords } from './provider-names.js';

/** What the shopper can do from a conflict: ask again (as `options` say), or go back to the form. */
export interface ConflictActions {
  readonly resend: (options: ChargeOptions) => void;
  readonly back: () => void;
}

/**
 * The conflict as a notice with a heading (focused when shown) and its way on. The region is an
 * alert, so the change is announced even where focus cannot follow. A paid order tells of the
 * payments the shopper left that went through all the same (`left`, see `left-payments.ts`).
 */
export function conflictView(l: LocalizeController, conflict: ChargeConflict, actions: ConflictActions, left: TemplateResult | typeof nothing = nothing): TemplateResult {
  const notice = (title: MessageKey, body: string, buttons?: TemplateResult) =>
    html`<div part="conflict" class="outcome ${buttons ? '' : 'success'}" role="alert">
      <h2 tabindex="-1">${l.msg(title)}</h2>
      <p>${body}</p>
      ${conflict.kind === 'paid' ? left : nothing}
      ${buttons ? html`<div class="details">${buttons}</div>` : nothing}
    </div>`;
  const back = html`<button part="back-button" class="secondary" @click=${actions.back}>${l.msg('conflict.back')}</button>`;
  switch (conflict.kind) {
    case 'amount': {
      const { amount, previous, currency } = conflict;
      const text = formatAmount(amount, currency);
      // Nothing shown before, or the same amount again (the shopper asked for the total after a refund).
      const body = Number.isSafeInteger(previous) && previous !== amount ? l.msg('conflict.amountBody', { amount: text, previous: formatAmount(previous, currency) }) : l.msg('conflict.amountBodyFirst', { amount: text });
      return notice(
        'conflict.amountTitle',
        body,
        html`<button part="confirm-button" class="pay" @click=${() => actions.resend({})}>${l.msg('conflict.amountConfirm', { amount: text })}</button>${back}`,
      );
    }
    case 'elsewhere': {
      if (!conflict.replaceable) {
        return notice(
          'conflict.inProgressTitle',
          l.msg('conflict.processingBody'),
          html`<button part="retry-button" class="pay" @click=${() => actions.resend({})}>${l.msg('failure.retry')}</button>${back}`,
        );
      }
      const method = methodWords(l, conflict.method);
      return notice(
        'conflict.inProgressTitle',
        method ? l.msg('conflict.inProgressBody', { method }) : l.msg('conflict.inProgressBodyAny'),
        html`<button part="replace-button" class="pay" @click=${() => actions.resend({ replace: true })}>${l.msg('conflict.payHere')}</button>${back}`,
      );
    }
    case 'paid':
      // The end: the order is paid, so there is nothing to choose.
      return notice('conflict.paidTitle', l.msg('conflict.paidBody'));
    case 'refunded':
      return notice('conflict.refundedTitle', l.msg('conflict.refundedBody'));
    case 'expired':
      return notice(
        'expired.title',
        l.msg('expired.body'),
        html`<button part="reload-button" class="pay" @click=${() => location.reload()}>${l.msg('expired.reload')}</button>`,
      );
  }
}
