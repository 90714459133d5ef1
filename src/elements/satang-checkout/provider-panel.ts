/**
 * The e-wallet and mobile banking panels of `<satang-checkout>`: the wallets or bank apps offered,
 * and where the shopper goes to approve the payment. Both pay by leaving for the provider's page
 * or app; bank apps only open on a phone.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { CheckoutPaymentMethodType } from '../../core/schemas/checkout.js';
import type { LocalizeController } from '../controllers/localize-controller.js';
import type { MessageKey } from '../i18n/localize.js';
import { BANKS, PROVIDER_NAMES, WALLETS, type MethodGroup } from './payment-methods.js';

export type ProviderGroup = Extract<MethodGroup, 'E_WALLET' | 'MOBILE_BANKING'>;

/** The wallets or bank apps among the offered types, in their order. */
export function providersOf(group: ProviderGroup, types: readonly CheckoutPaymentMethodType[]): CheckoutPaymentMethodType[] {
  const pool: readonly string[] = group === 'E_WALLET' ? WALLETS : BANKS;
  return types.filter((t) => pool.includes(t));
}

/** The choice of provider and what happens next, or, for bank apps on a computer (`blocked`), why they cannot be used. */
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
          <span>${PROVIDER_NAMES[p]}</span>
        </label>`,
      )}
    </fieldset>
    <p part="notice" class="notice" role=${blocked ? 'alert' : nothing}>${notice}</p>`;
}

/** The chosen provider as the payment; the key of why not when `blocked`; null when there is none. */
export function providerPayment(provider: CheckoutPaymentMethodType | undefined, blocked: boolean): { type: CheckoutPaymentMethodType } | MessageKey | null {
  if (!provider) return null;
  return blocked ? 'bank.needsPhone' : { type: provider };
}
