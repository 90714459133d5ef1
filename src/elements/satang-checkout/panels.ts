/**
 * The panels of `<satang-checkout>` other than the card form: installment plans, PromptPay, and
 * the wallets and bank apps with their marks. Fetched right after the first render (and at once
 * when the shopper picks one of these methods), so the first download carries only the card form.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { InstallmentPeriod } from '../../core/constants.js';
import { INSTALLMENTS_FROM_SATANG, installmentPlans } from '../../core/installments.js';
import { formatAmount } from '../../core/money.js';
import type { CheckoutPaymentMethodType } from '../../core/schemas/checkout.js';
import type { LocalizeController } from '../controllers/localize-controller.js';
import { useMessages } from '../i18n/localize.js';
import { panelMessages } from '../i18n/panels.js';
import { providerMark } from '../marks/provider-marks.js';
import type { MethodGroup, ProviderGroup } from './payment-methods.js';
import { PROVIDER_NAMES } from './provider-names.js';

useMessages(panelMessages);

/**
 * An installment plan as the shopper pays it: whole satang every month, adding up to the amount
 * exactly. The first month takes the satang that do not divide evenly (at most `months - 1`).
 */
export interface InstallmentParts {
  months: InstallmentPeriod;
  first: number;
  monthly: number;
}

/** The plans the amount qualifies for, each split into parts that add up to it exactly. */
export function installmentParts(amount: number): InstallmentParts[] {
  return installmentPlans(amount).map(({ months }) => {
    const monthly = Math.floor(amount / months);
    return { months, monthly, first: amount - monthly * (months - 1) };
  });
}

/**
 * The plans to choose from, or why there is none: only when installments are the one method
 * offered, as the picker lets no one choose them for a smaller order otherwise.
 */
export function installmentsView(
  l: LocalizeController,
  amount: number,
  currency: string,
  months: InstallmentPeriod | undefined,
  choose: (months: InstallmentPeriod) => void,
): TemplateResult {
  const money = (satang: number) => formatAmount(satang, currency);
  const plans = installmentParts(amount);
  if (plans.length === 0) {
    return html`<p part="notice" class="notice" role="note">${l.msg('installments.unavailable', { minimum: money(INSTALLMENTS_FROM_SATANG), amount: money(amount) })}</p>`;
  }
  return html`<fieldset part="options" class="options">
    <legend>${l.msg('installments.label')}</legend>
    ${plans.map(
      ({ months: m, first, monthly }) => html`<label part="option" class="option">
        <input type="radio" name="plan" .checked=${months === m} @change=${() => choose(m)} />
        <span
          >${first === monthly
            ? l.msg('installments.plan', { months: m, monthly: money(monthly) })
            : l.msg('installments.planUneven', { months: m, first: money(first), monthly: money(monthly), rest: m - 1 })}
          <small class="hint">${l.msg('installments.total', { amount: money(amount) })}</small></span
        >
      </label>`,
    )}
  </fieldset>`;
}

/** Before the charge: how paying by PromptPay goes, from this device. */
export function promptPayView(l: LocalizeController, amountText: string, phone: boolean): TemplateResult {
  return html`<p part="notice" class="notice">${l.msg(phone ? 'promptpay.howToPhone' : 'promptpay.howTo', { amount: amountText })}</p>`;
}

/** The choice of wallet or bank app, with their marks, and what happens next. */
export function providerView(
  l: LocalizeController,
  group: ProviderGroup,
  providers: readonly CheckoutPaymentMethodType[],
  chosen: CheckoutPaymentMethodType | undefined,
  blocked: boolean,
  choose: (provider: CheckoutPaymentMethodType) => void,
): TemplateResult {
  const wallet = group === 'E_WALLET';
  const notice = blocked ? l.msg('bank.needsPhone') : l.msg(wallet ? 'wallet.redirect' : 'bank.redirect', { method: (chosen && PROVIDER_NAMES[chosen]) ?? '' });
  return html`<fieldset part="options" class="options">
      <legend>${l.msg(wallet ? 'wallet.label' : 'bank.label')}</legend>
      ${providers.map(
        (p) => html`<label part="option" class="option">
          <input type="radio" name="provider" .checked=${chosen === p} @change=${() => choose(p)} />
          ${providerMark(p)}<span>${PROVIDER_NAMES[p]}</span>
        </label>`,
      )}
    </fieldset>
    <p part="notice" class="notice" role=${blocked ? 'alert' : nothing}>${notice}</p>`;
}

/** What the panel of the chosen method (not the card's) shows, and what the shopper may change in it. */
export interface MethodPanelInput {
  group: Exclude<MethodGroup, 'CARD'>;
  amount: number;
  currency: string;
  amountText: string;
  months: InstallmentPeriod | undefined;
  providers: readonly CheckoutPaymentMethodType[];
  provider: CheckoutPaymentMethodType | undefined;
  /** Bank apps open on a phone only: on a computer, mobile banking cannot be paid with. */
  blocked: boolean;
  phone: boolean;
  choosePlan: (months: InstallmentPeriod) => void;
  chooseProvider: (provider: CheckoutPaymentMethodType) => void;
}

/** The chosen method's own panel: its plans, its wallets or bank apps, or how to pay a PromptPay QR. */
export function methodPanelView(l: LocalizeController, input: MethodPanelInput): TemplateResult {
  const { group } = input;
  if (group === 'CARD_INSTALLMENTS') return installmentsView(l, input.amount, input.currency, input.months, input.choosePlan);
  if (group === 'E_WALLET' || group === 'MOBILE_BANKING') return providerView(l, group, input.providers, input.provider ?? input.providers[0], input.blocked, input.chooseProvider);
  return promptPayView(l, input.amountText, input.phone);
}
