/** The installments panel of `<satang-checkout>`: the card form, and the plans the amount qualifies for. */
import { html, type TemplateResult } from 'lit';
import type { TokenizeConfig } from '../../client/card-tokens.js';
import { INSTALLMENT_MIN_AMOUNT_SATANG, type InstallmentPeriod } from '../../core/constants.js';
import { installmentPlans } from '../../core/installments.js';
import { formatAmount } from '../../core/money.js';
import type { LocalizeController } from '../controllers/localize-controller.js';
import type { MessageKey } from '../i18n/localize.js';
import type { SatangCardForm } from '../satang-card-form/satang-card-form.js';
import { cardPayment } from './card-panel.js';

/** Whether the amount is too small for any plan: then there is nothing to pay with here. */
export function noInstallmentPlan(amount: number): boolean {
  return installmentPlans(amount).length === 0;
}

/** The plans to choose from, each as months × the monthly amount, or why there is none. */
export function installmentsView(l: LocalizeController, amount: number, currency: string, months: InstallmentPeriod | undefined, choose: (months: InstallmentPeriod) => void): TemplateResult {
  const plans = installmentPlans(amount);
  if (plans.length === 0) {
    return html`<p part="notice" class="notice">${l.msg('installments.unavailable', { minimum: formatAmount(INSTALLMENT_MIN_AMOUNT_SATANG[3], currency) })}</p>`;
  }
  return html`<fieldset part="options" class="options">
    <legend>${l.msg('installments.label')}</legend>
    ${plans.map(
      (plan) => html`<label part="option" class="option">
        <input type="radio" name="plan" .checked=${months === plan.months} @change=${() => choose(plan.months)} />
        <span>${l.msg('installments.plan', { months: plan.months, monthly: formatAmount(plan.monthlyAmountSatang, currency) })}</span>
      </label>`,
    )}
  </fieldset>`;
}

/** The card in the form, tokenized, over the chosen plan; or the key of "choose a plan" when none is chosen. */
export async function installmentsPayment(form: SatangCardForm, config: TokenizeConfig, months: InstallmentPeriod | undefined) {
  if (months === undefined) return 'installments.label' satisfies MessageKey;
  const card = await cardPayment(form, config);
  return { ...card, type: 'CARD_TOKEN_INSTALLMENTS', installmentPeriod: months } as const;
}
