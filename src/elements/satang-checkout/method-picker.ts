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

export interface PickerInput {
  groups: readonly MethodGroup[];
  chosen: MethodGroup | undefined;
  amount: number;
  currency: string;
  /** A payment is being sent: the choices are disabled. */
  busy: boolean;
  /** The words and styles of the panels are here: a closed choice's reason fits beside it then, so nothing moves. */
  reasons: boolean;
  choose: (group: MethodGroup) => void;
}

/**
 * The radio group of methods. A closed choice (installments for too small an order) is shown,
 * never chosen, with the reason beside it, which describes the radio (hidden from its name, which
 * stays the method's).
 */
export function methodPickerView(l: LocalizeController, input: PickerInput): TemplateResult {
  return html`<fieldset part="methods" class="methods" ?disabled=${input.busy}>
    <legend>${l.msg('method.label')}</legend>
    ${input.groups.map((group) => {
      const closed = !groupOpen(group, input.amount);
      const reason = closed && input.reasons;
      return html`<label part="method" class="method">
        <input
          type="radio"
          name="method"
          .checked=${input.chosen === group}
          ?disabled=${closed}
          aria-describedby=${reason ? 'closed-reason' : nothing}
          @change=${() => input.choose(group)}
        />
        ${methodMark(group)}<span>${l.msg(`method.${group}`)}</span>
        ${reason
          ? html`<small part="method-reason" class="reason" id="closed-reason" aria-hidden="true">${l.msg('installments.from', { minimum: formatAmount(INSTALLMENT_MIN_AMOUNT_SATANG[INSTALLMENT_PERIODS[0]], input.currency) })}</small>`
          : nothing}
      </label>`;
    })}
  </fieldset>`;
}

/** The picker's choice as a payment to send, or a message key saying what is missing (null: nothing to pay with yet). */
export async function paymentOfChoice(choice: {
  group: MethodGroup | undefined;
  provider: CheckoutPaymentMethodType | undefined;
  blocked: boolean;
  form: SatangCardForm | null;
  tokenize: Parameters<typeof cardPayment>[1];
  months: InstallmentPeriod | undefined;
}): Promise<PaymentMethod | MessageKey | null> {
  const { group, form } = choice;
  if (group === 'CARD') return form && cardPayment(form, choice.tokenize);
  if (group === 'CARD_INSTALLMENTS') return form && installmentsPayment(form, choice.tokenize, choice.months);
  if (group === 'QR_PROMPT_PAY') return { type: 'QR_PROMPT_PAY' };
  if (!choice.provider) return null;
  return choice.blocked ? 'bank.needsPhone' : { type: choice.provider };
}
