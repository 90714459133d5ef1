import { html, nothing, type TemplateResult } from 'lit';
import { INSTALLMENT_MIN_AMOUNT_SATANG, INSTALLMENT_PERIODS, type InstallmentPeriod } from '../../core/constants.js';
import { formatAmount } from '../../core/money.js';
import type { LocalizeController } from '../controllers/localize-controller.js';
import { methodMark } from '../marks/method-marks.js';
import type { CheckoutPaymentMethodType } from '../../core/schemas/checkout.js';
import type { MessageKey } from '../i18n/localize.js';
import type { SatangCardForm } from '../satang-card-form/satang-card-form.js';
import { cardPayment, installmentsPayment } from './card-panel.js';
import type { PaymentMethod } from './payment-state.js';
import type { MethodGroup } from './payment-methods.js';

/**
 * The checkout's method picker, and what the order's amount allows of it. Decided here rather than
 * with `core/installments.ts`, which would add a module to the first download.
 */

/** Whether the order's amount meets a plan's minimum. */
export function planAllowed(months: InstallmentPeriod, amount: number): boolean {
  return amount >= INSTALLMENT_MIN_AMOUNT_SATANG[months];
}

/** Whether a choice of the picker can be paid with: installments only from the shortest plan's minimum, the smallest. */
export function groupOpen(group: MethodGroup, amount: number): boolean {
  return group !== 'CARD_INSTALLMENTS' || planAllowed(INSTALLMENT_PERIODS[0], amount);
}

/**
 * The radio group of methods (`busy`: a payment is being sent, the choices are disabled). A
 * closed choice (installments for too small an order) is shown, never chosen, with the reason
 * beside it once the panels' words and styles are here (`reasons`: it fits the choice's height,
 * nothing moves then); the reason describes the radio (hidden from its name, the method's).
 */
export function methodPickerView(
  l: LocalizeController,
  groups: readonly MethodGroup[],
  chosen: MethodGroup | undefined,
  amount: number,
  currency: string,
  busy: boolean,
  reasons: boolean,
  choose: (group: MethodGroup) => void,
): TemplateResult {
  return html`<fieldset part="methods" class="methods" ?disabled=${busy}>
    <legend part="methods-label">${l.msg('method.label')}</legend>
    ${groups.map((group) => {
      const closed = !groupOpen(group, amount);
      const reason = closed && reasons;
      return html`<label part="method" class="method">
        <input
          part="method-radio"
          type="radio"
          name="method"
          .checked=${chosen === group}
          ?disabled=${closed}
          aria-describedby=${reason ? 'closed-reason' : nothing}
          @change=${() => choose(group)}
        />
        ${methodMark(group)}<span>${l.msg(`method.${group}`)}</span>
        ${reason
          ? html`<small part="method-reason" class="reason" id="closed-reason" aria-hidden="true">${l.msg('installments.from', { minimum: formatAmount(INSTALLMENT_MIN_AMOUNT_SATANG[INSTALLMENT_PERIODS[0]], currency) })}</small>`
          : nothing}
      </label>`;
    })}
  </fieldset>`;
}

/**
 * The picker's choice as a payment to send, or a message key saying what is missing (null: nothing
 * to pay with yet). Positional, as it is in the first download: a bundler cannot shorten names of
 * an object's members.
 */
export async function paymentOfChoice(
  group: MethodGroup | undefined,
  provider: CheckoutPaymentMethodType | undefined,
  blocked: boolean,
  form: SatangCardForm | null,
  tokenize: Parameters<typeof cardPayment>[1],
  months: InstallmentPeriod | undefined,
): Promise<PaymentMethod | MessageKey | null> {
  if (group === 'CARD') return form && cardPayment(form, tokenize);
  if (group === 'CARD_INSTALLMENTS') return form && installmentsPayment(form, tokenize, months);
  if (group === 'QR_PROMPT_PAY') return { type: 'QR_PROMPT_PAY' };
  if (!provider) return null;
  return blocked ? 'bank.needsPhone' : { type: provider };
}
