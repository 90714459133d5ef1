import { formatAmount } from '../../core/money.js';
import { html, type Html } from '../http/html.js';
import { joinLines, paymentMethodLabel } from '../http/page-layout.js';
import { renderCancel, renderLinkDocument, renderMerchant, renderNotice, renderOrder, type PaymentLinkField, type PaymentLinkFormView } from './payment-link-pages.js';

/**
 * The pay page of a payment link: one form with the fields the link collects, the methods it
 * offers and the card fields. Works without JavaScript; field errors are tied to their inputs.
 */

interface InputOptions {
  name: PaymentLinkField;
  label: string;
  autocomplete?: string;
  inputmode?: string;
  maxlength?: number;
  hint?: string;
}

function renderInput(view: PaymentLinkFormView, options: InputOptions, required: boolean): Html {
  const { name, label, hint } = options;
  const error = view.errors[name];
  const describedBy = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  const attributes = [
    html`type="text"`,
    html`id="${name}"`,
    html`name="${name}"`,
    html`value="${view.values[name] ?? ''}"`,
    options.autocomplete ? html`autocomplete="${options.autocomplete}"` : undefined,
    options.inputmode ? html`inputmode="${options.inputmode}"` : undefined,
    options.maxlength ? html`maxlength="${options.maxlength}"` : undefined,
    required ? html`required` : undefined,
    describedBy ? html`aria-describedby="${describedBy}"` : undefined,
    error ? html`aria-invalid="true"` : undefined,
  ]
    .filter((attribute) => attribute !== undefined)
    .map((attribute, index) => (index === 0 ? attribute : html` ${attribute}`));
  return html`<div class="field">
<label for="${name}">${label}</label>
${hint ? html`<p class="hint" id="${name}-hint">${hint}</p>\n` : ''}${error ? html`<p class="field-error" id="${name}-error">${error}</p>\n` : ''}<input ${attributes}>
</div>`;
}

function renderPhone(view: PaymentLinkFormView): Html {
  return html`<fieldset>
<legend>Contact</legend>
<div class="field-row">
${renderInput(view, { name: 'phoneCountryCode', label: 'Country code', autocomplete: 'tel-country-code', inputmode: 'tel', maxlength: 4 }, true)}
${renderInput(view, { name: 'phoneNumber', label: 'Phone number', autocomplete: 'tel-national', inputmode: 'tel', maxlength: 20 }, true)}
</div>
</fieldset>`;
}

function renderAddress(view: PaymentLinkFormView): Html {
  return html`<fieldset>
<legend>Delivery address</legend>
${renderInput(view, { name: 'contactName', label: 'Name of the recipient', autocomplete: 'shipping name', maxlength: 256 }, true)}
${renderInput(view, { name: 'streetAddress', label: 'Street address', autocomplete: 'shipping street-address', maxlength: 512 }, true)}
${renderInput(view, { name: 'city', label: 'City or province', autocomplete: 'shipping address-level1', maxlength: 128 }, true)}
<div class="field-row">
${renderInput(view, { name: 'postCode', label: 'Postcode', autocomplete: 'shipping postal-code', maxlength: 10 }, true)}
${renderInput(view, { name: 'country', label: 'Country code (e.g. THA)', autocomplete: 'off', maxlength: 3 }, true)}
</div>
</fieldset>`;
}

function methodLabel(method: string, periods: readonly number[]): string {
  if (method === 'CARD_INSTALLMENTS') return `Card installments (${periods.join(', ')} months)`;
  if (method === 'CARD') return 'Credit or debit card';
  return paymentMethodLabel(method);
}

function renderMethods(view: PaymentLinkFormView): Html {
  const chosen = view.values.method;
  const error = view.errors.method;
  let first = chosen === undefined;
  const groups = view.groups.map((group, index) => {
    const radios = joinLines(
      group.methods.map((method) => {
        const checked = method === chosen || first;
        first = false;
        return html`<li><label class="choice"><input type="radio" name="method" value="${method}"${checked ? html` checked` : ''} required>${methodLabel(method, view.installmentPeriods)}</label></li>`;
      }),
    );
    if (!group.heading) return html`<ul class="choices">\n${radios}\n</ul>`;
    const id = `method-group-${index}`;
    return html`<p class="choice-group" id="${id}">${group.heading}</p>\n<ul class="choices" aria-labelledby="${id}">\n${radios}\n</ul>`;
  });
  return html`<fieldset${error ? html` aria-describedby="method-error"` : ''}>
<legend>Payment method</legend>
${error ? html`<p class="field-error" id="method-error">${error}</p>\n` : ''}${joinLines(groups)}
</fieldset>`;
}

function renderInstallments(view: PaymentLinkFormView): Html | '' {
  const periods = view.installmentPeriods;
  if (periods.length === 0) return '';
  const error = view.errors.installmentPeriod;
  const options = joinLines(periods.map((months) => html`<option value="${months}"${view.values.installmentPeriod === String(months) ? html` selected` : ''}>${months} months</option>`));
  return html`<div class="field">
<label for="installmentPeriod">Installment plan</label>
<p class="hint" id="installmentPeriod-hint">Only for card installments.</p>
${error ? html`<p class="field-error" id="installmentPeriod-error">${error}</p>\n` : ''}<select id="installmentPeriod" name="installmentPeriod" aria-describedby="installmentPeriod-hint${error ? ' installmentPeriod-error' : ''}"${error ? html` aria-invalid="true"` : ''}>
${options}
</select>
</div>\n`;
}

function renderCard(view: PaymentLinkFormView): Html {
  return html`<fieldset>
<legend>Card details</legend>
<p class="hint">Only needed when you pay by card.</p>
${renderInput(view, { name: 'cardHolderName', label: 'Name on card', autocomplete: 'cc-name', maxlength: 100 }, false)}
${renderInput(view, { name: 'cardNumber', label: 'Card number', autocomplete: 'cc-number', inputmode: 'numeric', maxlength: 23 }, false)}
<div class="field-row">
${renderInput(view, { name: 'expiryMonth', label: 'Month (MM)', autocomplete: 'cc-exp-month', inputmode: 'numeric', maxlength: 2 }, false)}
${renderInput(view, { name: 'expiryYear', label: 'Year (YY)', autocomplete: 'cc-exp-year', inputmode: 'numeric', maxlength: 4 }, false)}
${renderInput(view, { name: 'securityCode', label: 'CVC', autocomplete: 'cc-csc', inputmode: 'numeric', maxlength: 4 }, false)}
</div>
${renderInstallments(view)}</fieldset>`;
}

function renderTestCards(cards: PaymentLinkFormView['testCards']): Html | '' {
  if (cards.length === 0) return '';
  return html`<details class="test-cards">
<summary>Sandbox test cards</summary>
<ul>
${joinLines(cards.map((card) => html`<li><span class="mono">${card.number}</span>: ${card.description}</li>`))}
</ul>
</details>`;
}

/**
 * The pay page. One form, which POSTs every field to `action`: the contact and delivery fields
 * when the link collects them, the method (a radio group), and the card fields, which the server
 * reads only for a card method.
 */
export function renderPaymentLinkPage(view: PaymentLinkFormView): Html {
  const { order } = view;
  const hasCard = view.groups.some((group) => group.methods.some((m) => m === 'CARD' || m === 'CARD_INSTALLMENTS'));
  const body = html`<div class="card">
${renderMerchant(order.merchantName)}
<h1>${order.description}</h1>
${renderOrder(order)}
${renderNotice(view.notice)}<form method="post" action="${view.action}">
<input type="hidden" name="formToken" value="${view.formToken}">
${view.collectPhoneNumber ? html`${renderPhone(view)}\n` : ''}${view.collectDeliveryAddress ? html`${renderAddress(view)}\n` : ''}${renderMethods(view)}
${hasCard ? html`${renderCard(view)}\n` : ''}<div class="actions">
<button type="submit" class="button button-primary">Pay ${formatAmount(order.amountSatang, order.currency)}</button>
${renderCancel(view.cancelUrl)}
</div>
</form>
${hasCard ? renderTestCards(view.testCards) : ''}
</div>`;
  return renderLinkDocument(`Pay ${order.merchantName}`, view, body);
}
