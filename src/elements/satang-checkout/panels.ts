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
  return installmentPlans(amount).map(({ months }) => partsOf(amount, months));
}

/**
 * A plan in one wording wherever it is named (the plans, the success): the amount repeated, times
 * the months, "฿694.00 × 10 months" ("฿694.00 × 10 เดือน"). A first month that takes the odd satang
 * is said once, beside it (the plans' hint).
 */
export function planWords(l: LocalizeController, { months, monthly }: InstallmentParts, currency: string): string {
  return l.msg('installments.plan', { months, monthly: formatAmount(monthly, currency) });
}

/** The parts of the `months` plan of `amount`. */
export function partsOf(amount: number, months: InstallmentPeriod): InstallmentParts {
  const monthly = Math.floor(amount / months);
  return { months, monthly, first: amount - monthly * (months - 1) };
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
    <legend part="options-label">${l.msg('installments.label')}</legend>
    ${plans.map(
      ({ months: m, first, monthly }) => html`<label part="option" class="option">
        <input part="option-radio" type="radio" name="plan" .checked=${months === m} @change=${() => choose(m)} />
        <span
          >${planWords(l, { months: m, first, monthly }, currency)}
          <small part="option-hint" class="hint"
            >${first === monthly ? '' : `${l.msg('installments.first', { first: money(first) })} · `}${l.msg('installments.total', { amount: money(amount) })}</small
          ></span
        >
      </label>`,
    )}
  </fieldset>${termsView(l)}`;
}

/** A rate of interest as a shop writes it: a percentage a month, up to two decimals ("0", "0.8", "1.25"). */
const RATE = /^\d{1,2}(\.\d{1,2})?$/;
/** The checkouts whose interest was said to be wrong already: once each. */
const warned = new WeakSet<Element>();

/**
 * The terms the shop gives its plans, under them: the interest (`installment-interest`, a
 * percentage a month; 0 is interest-free) and the cards that take them (`installment-cards`, in
 * the shop's words). Read from the checkout's attributes each time the plans render; an interest
 * that is not a rate is not shown, and said in the console.
 */
function termsView(l: LocalizeController): TemplateResult | typeof nothing {
  const rate = l.host.getAttribute('installment-interest')?.trim();
  const cards = l.host.getAttribute('installment-cards')?.trim();
  const terms: string[] = [];
  if (rate && RATE.test(rate)) terms.push(Number(rate) === 0 ? l.msg('installments.interestFree') : l.msg('installments.interest', { rate: String(Number(rate)) }));
  else if (rate && !warned.has(l.host)) {
    warned.add(l.host);
    console.error(`<satang-checkout>: installment-interest must be a percentage a month such as 0 or 0.8, not "${rate}"; it is not shown.`);
  }
  if (cards) terms.push(l.msg('installments.cards', { cards }));
  return terms.length ? html`<p part="notice" class="notice">${terms.join(' · ')}</p>` : nothing;
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
      <legend part="options-label">${l.msg(wallet ? 'wallet.label' : 'bank.label')}</legend>
      ${providers.map(
        (p) => html`<label part="option" class="option">
          <input part="option-radio" type="radio" name="provider" .checked=${chosen === p} @change=${() => choose(p)} />
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
