/**
 * The card panel of `<satang-checkout>`: the card form, and the card payment it becomes once
 * tokenized. The installments panel shows the same form.
 */
import { html, type TemplateResult } from 'lit';
import type { TokenizeConfig } from '../../client/card-tokens.js';
import type { InstallmentPeriod } from '../../core/constants.js';
import type { Locale, MessageKey } from '../i18n/localize.js';
import type { SatangCardForm } from '../satang-card-form/satang-card-form.js';

/**
 * The card form's parts, every one, styled from the page through the checkout as
 * `::part(card-input)` etc.; the manifest documents them on the checkout from this map.
 *
 * @exportparts satang-card-form to satang-checkout
 */
const CARD_FORM_PARTS = 'form:card-form, field:card-field, label:card-label, input:card-input, hint:card-hint, error:card-error, brand:card-brand';

/**
 * The card form in the checkout's language and theme. `shown` is false while another method is
 * chosen: the form stays, hidden, so switching back keeps the entry. `disabled` while a payment
 * runs; `onChange` hears the details change, which makes the next press a new attempt.
 */
export function cardFormView(locale: Locale, theme: string, shown: boolean, disabled: boolean, onChange: () => void): TemplateResult {
  return html`<satang-card-form
    data-satang-nested
    exportparts=${CARD_FORM_PARTS}
    ?hidden=${!shown}
    locale=${locale}
    theme=${theme}
    ?disabled=${disabled}
    @satang-change=${onChange}
    @satang-ready=${(event: Event) => event.stopPropagation() /* the page hears the checkout's own */}
  ></satang-card-form>`;
}

/** Tokenizes the card in the form (the same token again while nothing changed): a card payment. */
export async function cardPayment(form: SatangCardForm, config: TokenizeConfig) {
  const { cardTokenId, securityCode } = await form.tokenize(config);
  return { type: 'CARD_TOKEN', cardTokenId, securityCode } as const;
}

/** The card in the form, tokenized, over the chosen plan; or the key of "choose a plan" when none is chosen. */
export async function installmentsPayment(form: SatangCardForm, config: TokenizeConfig, months: InstallmentPeriod | undefined) {
  if (months === undefined) return 'installments.choose' satisfies MessageKey;
  const card = await cardPayment(form, config);
  return { ...card, type: 'CARD_TOKEN_INSTALLMENTS', installmentPeriod: months } as const;
}
