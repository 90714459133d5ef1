import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { CURRENCY_THB, type InstallmentPeriod } from '../../core/constants.js';
import { deviceTypeFromUserAgent } from '../../core/device.js';
import { formatAmount } from '../../core/money.js';
import type { CheckoutIntent, CheckoutPaymentMethodType } from '../../core/schemas/checkout.js';
import { LocalizeController } from '../controllers/localize-controller.js';
import { SatangChangeEvent, SatangErrorEvent, SatangReadyEvent } from '../events.js';
import { checkoutMessages } from '../i18n/checkout.js';
import type { MessageKey } from '../i18n/localize.js';
import { paymentMessages } from '../i18n/payment.js';
import { prefetch } from '../lazy.js';
import type { SatangCardForm } from '../satang-card-form/satang-card-form.js';
import { cardFormView, cardPayment } from './card-panel.js';
import { configError, offeredTypes } from './checkout-config.js';
import { CheckoutPayment } from './checkout-payment.js';
import { installmentsPayment, installmentsView, noInstallmentPlan } from './installments-panel.js';
import type { PaymentMethod } from './payment-state.js';
import { DEFAULT_METHODS, groupOf, isCardGroup, isCardType, type MethodGroup } from './payment-methods.js';
import { loadQrElement, promptPayView } from './promptpay-panel.js';
import { providerPayment, providersOf, providerView } from './provider-panel.js';
import { styles } from './satang-checkout.styles.js';

/**
 * @summary The drop-in checkout: a method picker, the chosen method's form, a pay button with the
 * amount, progress and the outcome, for cards, card installments, PromptPay QR, e-wallets and
 * mobile banking.
 *
 * The merchant's server decides what is charged; the checkout sends the `amount` it shows with
 * the charge, and the server charges only when that is still the order's price. When it is not,
 * nothing is charged: the checkout shows the new total and asks the shopper to confirm it
 * (`satang-amount-changed` lets the page update its own display). Card details go from the
 * shopper's browser straight to the payment service (`service-url`, publishable key); everything
 * else goes to the merchant's `endpoint` (see `satang/server`).
 *
 * When the server refuses because the order is being paid in another window or device, the
 * checkout says so and, when the server allows it, offers to pay here instead (the other payment
 * is abandoned, and refunded if it is paid anyway). An order paid already shows as paid, with
 * `satang-already-paid` rather than `satang-success`: no charge of this checkout paid it. A
 * charge that went through without paying the order (refunded because the price changed
 * meanwhile, or taken for the wrong amount) is a `satang-failure`, never a `satang-success`.
 *
 * @event {SatangReadyEvent} satang-ready - First rendered with a valid configuration.
 * @event {SatangChangeEvent} satang-change - The method or the card details changed (never card data).
 * @event {SatangSubmitEvent} satang-submit - A payment attempt starts.
 * @event {SatangActionEvent} satang-action - The shopper is being redirected, or a QR code is shown.
 * @event {SatangSuccessEvent} satang-success - The order is paid by the charge: `chargeId`, and `outcome` as the server says
 *   (`paid`, `authorized`, or `duplicate_refunded`: the order was paid already, this payment is refunded).
 * @event {SatangFailureEvent} satang-failure - The charge failed (`chargeId`, `failureCode`), or went through without paying
 *   the order (`outcome`, also as `failureCode`: `repriced_refunded`, `amount_mismatch`, `refund_failed`).
 * @event {SatangAmountChangedEvent} satang-amount-changed - The server's total differs from the one shown; nothing was charged
 *   and the checkout now shows `amount` (its `amount` property is set to it) for the shopper to confirm: `amount`,
 *   `previousAmount` (NaN when none was set), `currency`.
 * @event {SatangAlreadyPaidEvent} satang-already-paid - The order was paid already, by another payment; nothing was charged:
 *   `orderReference`. Move on as after a success.
 * @event {SatangErrorEvent} satang-error - Configuration, network or server trouble: `code`, `message`.
 *
 * @csspart container - The whole checkout.
 * @csspart methods - The method picker (a radio group).
 * @csspart method - One method choice.
 * @csspart options - The list of wallets, banks or installment plans.
 * @csspart option - One of those.
 * @csspart notice - Explanations under a method.
 * @csspart pay-button - The pay button.
 * @csspart message - Error and progress messages.
 * @csspart outcome - The success or failure panel.
 * @csspart refund-notice - In the success panel, that this extra payment was refunded (the order was paid already).
 * @csspart review-button - "Review the new total", after a payment refunded because the order's price changed.
 * @csspart retry-button - "Try again", after a failure or while the order's payment elsewhere is being set up.
 * @csspart conflict - Shown instead of the form when nothing was charged: the total changed, the order is being paid
 *   elsewhere or is paid already, or the page expired. Its heading takes focus.
 * @csspart confirm-button - "Confirm and pay ฿…": the new total.
 * @csspart replace-button - "Pay here instead" of the payment open elsewhere.
 * @csspart back-button - Back to the form, from a conflict.
 * @csspart reload-button - Reloads the page once it expired.
 * @csspart config-error - Shown instead of the checkout when attributes are wrong.
 * @csspart card-form - The card form's group of fields (its `form` part).
 * @csspart card-field - Each card field's wrapper.
 * @csspart card-label - Each card field's label.
 * @csspart card-input - Each card input.
 * @csspart card-hint - The hints under card labels.
 * @csspart card-error - The card fields' error messages.
 * @csspart card-brand - The detected card brand.
 * @csspart qr-container - The PromptPay panel (the QR element's parts, prefixed `qr-`:
 *   qr-title, qr-amount, qr-code, qr-instructions, qr-countdown, qr-save, qr-status, qr-expired,
 *   qr-renew-button, qr-result, qr-error).
 * @csspart qr-code - The white frame around the QR code.
 *
 * @cssproperty --satang-color-accent - Buttons, selection, focus.
 * @cssproperty --satang-color-on-accent - Text on the accent colour.
 * @cssproperty --satang-color-text - Text.
 * @cssproperty --satang-color-muted - Hints.
 * @cssproperty --satang-color-surface - Background.
 * @cssproperty --satang-color-field - Field and option background.
 * @cssproperty --satang-color-border - Borders.
 * @cssproperty --satang-color-error - Errors.
 * @cssproperty --satang-color-success - Success.
 * @cssproperty --satang-radius - Corner radius.
 * @cssproperty --satang-space - Spacing unit.
 * @cssproperty --satang-font-family - Font stack (Thai-friendly by default).
 * @cssproperty --satang-font-size - Base font size.
 * @cssproperty --satang-line-height - Line height (1.6 suits Thai script).
 * @cssproperty --satang-field-height - Height of fields and buttons.
 */
export class SatangCheckout extends LitElement {
  static readonly tagName = 'satang-checkout';
  static override styles = styles;
  static override properties = {
    merchantId: { attribute: 'merchant-id' },
    publishableKey: { attribute: 'publishable-key' },
    serviceUrl: { attribute: 'service-url' },
    endpoint: {},
    amount: { type: Number },
    currency: {},
    orderReference: { attribute: 'order-reference' },
    methods: {},
    locale: {},
    returnUrl: { attribute: 'return-url' },
    theme: { reflect: true },
    intent: {},
    group: { state: true },
    provider: { state: true },
    months: { state: true },
  };

  /** The merchant id, for card tokenization. */
  merchantId = '';
  /** The publishable key: safe in a page, only creates card tokens. */
  publishableKey = '';
  /** The payment service's base URL, where card tokens are created. */
  serviceUrl = '';
  /** The merchant's checkout endpoint (`satang/server`), e.g. `/api/checkout`. */
  endpoint = '';
  /**
   * The amount to show, in satang, sent with the charge: the server charges its own price, and only
   * when it is this one. When the server's differs, the checkout sets this to it and asks the
   * shopper to confirm it.
   */
  amount = Number.NaN;
  /** The currency of `amount`: THB, the one the service charges in. */
  currency = CURRENCY_THB;
  /** The merchant's order reference the server prices. */
  orderReference = '';
  /** Methods in the order to show them: card, installments, promptpay, ewallet, mobile-banking, or single services (truemoney, kplus…). */
  methods = DEFAULT_METHODS;
  /** th or en; by default the page's language. */
  locale: string | undefined;
  /** Where redirect flows come back to: a URL or a path on this site; by default this page. */
  returnUrl = '';
  /** light, dark, or auto (follows the system). */
  theme = 'light';
  /**
   * charge (take the money now) or authorize (only reserve it on the card, for the shop's server to
   * capture later; card payments only, `methods` defaults to card). Must match the server's order.
   */
  intent: CheckoutIntent = 'charge';

  private group: MethodGroup | undefined;
  private provider: CheckoutPaymentMethodType | undefined;
  private months: InstallmentPeriod | undefined;

  readonly #localize = new LocalizeController(this, checkoutMessages, paymentMessages);
  readonly #payment = new CheckoutPayment(this, this.#localize, {
    chosen: () => this.#chosenPayment(),
    forgetToken: () => this.cardForm?.clearToken(),
    navigate: (url) => this.navigate(url),
  });

  private get cardForm(): SatangCardForm | null {
    return this.renderRoot.querySelector('satang-card-form');
  }

  get #types(): CheckoutPaymentMethodType[] {
    return offeredTypes(this);
  }

  get #groups(): MethodGroup[] {
    return [...new Set(this.#types.map(groupOf))];
  }

  #providers(): CheckoutPaymentMethodType[] {
    const group = this.group;
    return group === 'E_WALLET' || group === 'MOBILE_BANKING' ? providersOf(group, this.#types) : [];
  }

  get #amountText(): string {
    return formatAmount(this.amount, this.currency);
  }

  get #deviceType() {
    return deviceTypeFromUserAgent(navigator.userAgent, navigator.maxTouchPoints);
  }

  /** Bank apps open on a phone only: on a computer, mobile banking cannot be paid with. */
  get #blocked(): boolean {
    return this.group === 'MOBILE_BANKING' && this.#deviceType === 'WEB';
  }

  protected override firstUpdated(): void {
    const problem = configError(this);
    if (problem) {
      console.error(`<satang-checkout>: ${problem}`);
      this.dispatchEvent(new SatangErrorEvent('CONFIG', problem));
      return;
    }
    this.dispatchEvent(new SatangReadyEvent());
    this.#payment.prepare();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('methods') || changed.has('intent') || this.group === undefined) {
      const groups = this.#groups;
      if (!this.group || !groups.includes(this.group)) this.group = groups[0];
      if (this.group === 'QR_PROMPT_PAY') prefetch(loadQrElement);
    }
  }

  #choose(group: MethodGroup): void {
    this.group = group;
    if (group === 'QR_PROMPT_PAY') prefetch(loadQrElement);
    this.provider = undefined;
    this.#payment.notice = undefined;
    this.#payment.newAttempt();
    const type = group === 'CARD' ? 'CARD_TOKEN' : group === 'CARD_INSTALLMENTS' ? 'CARD_TOKEN_INSTALLMENTS' : group === 'QR_PROMPT_PAY' ? 'QR_PROMPT_PAY' : (this.#providers()[0] ?? 'QR_PROMPT_PAY');
    this.dispatchEvent(new SatangChangeEvent(type, isCardGroup(group) ? Boolean(this.cardForm?.complete) : true));
  }

  /** The chosen method's payment to send, or a message key saying what is missing. */
  async #chosenPayment(): Promise<PaymentMethod | MessageKey | null> {
    const group = this.group;
    const form = this.cardForm;
    const tokenize = { serviceUrl: this.serviceUrl, merchantId: this.merchantId, publishableKey: this.publishableKey };
    if (group === 'CARD') return form && cardPayment(form, tokenize);
    if (group === 'CARD_INSTALLMENTS') return form && installmentsPayment(form, tokenize, this.months);
    if (group === 'QR_PROMPT_PAY') return { type: 'QR_PROMPT_PAY' };
    return providerPayment(this.provider ?? this.#providers()[0], this.#blocked);
  }

  /** Starts (or retries) a payment attempt. A second press while one runs does nothing. */
  #pay(): void {
    if (this.#payment.state !== 'idle') return;
    // Checked before the form is disabled for the attempt, so focus can land on the first wrong field.
    if (isCardGroup(this.group) && !this.cardForm?.validate()) return;
    void this.#payment.pay(this.#deviceType);
  }

  #renewQr = (): void => {
    this.group = 'QR_PROMPT_PAY';
    this.#payment.renew();
    this.#pay();
  };

  /** Sends the shopper to a checked redirect URL. Separate so a test page can stay where it is. */
  protected navigate(url: URL): void {
    location.assign(url.href);
  }

  protected override render() {
    const l = this.#localize;
    const problem = configError(this);
    if (problem) return html`<div part="config-error" class="config-error" role="alert">${l.msg('error.config', { detail: problem })}</div>`;
    // One stable template: the form below is never re-created, so nothing entered is lost while
    // a payment runs, fails or is retried.
    const { state } = this.#payment;
    return html`<div part="container" class="container" lang=${l.locale}>${this.#payment.view(this.#renewQr)}${this.#form(state !== 'idle' && state !== 'submitting')}</div>`;
  }

  /** Picker, method details and pay button. Kept in the DOM (hidden) after a failure, so nothing entered is lost. */
  #form(hidden: boolean): TemplateResult {
    const l = this.#localize;
    const { state, retryable, noticeText } = this.#payment;
    const busy = state === 'submitting';
    const blocked = this.#blocked;
    const noPlan = this.group === 'CARD_INSTALLMENTS' && noInstallmentPlan(this.amount);
    return html`<div class="form" ?hidden=${hidden}>
      <fieldset part="methods" class="methods" ?disabled=${busy}>
        <legend>${l.msg('method.label')}</legend>
        ${this.#groups.map(
          (group) => html`<label part="method" class="method">
            <input type="radio" name="method" .checked=${this.group === group} @change=${() => this.#choose(group)} />
            <span>${l.msg(`method.${group}`)}</span>
          </label>`,
        )}
      </fieldset>
      <div class="details">${this.#cardForm()}${this.#panel(blocked)}</div>
      ${noticeText ? html`<div part="message" class="message" role="alert">${noticeText}</div>` : nothing}
      <button part="pay-button" class="pay" ?disabled=${busy || blocked || noPlan} aria-busy=${busy ? 'true' : 'false'} @click=${this.#pay}>
        ${busy ? l.msg('pay.processing') : noticeText && retryable ? l.msg('error.retry') : l.msg('pay', { amount: this.#amountText })}
      </button>
    </div>`;
  }

  /**
   * The card form, whenever the checkout takes cards. It stays rendered, hidden, while another
   * method is chosen, and in the same place: switching back finds the entry as it was.
   */
  #cardForm(): TemplateResult | typeof nothing {
    if (!this.#types.some(isCardType)) return nothing;
    return cardFormView(this.#localize.locale, this.theme, isCardGroup(this.group), this.#payment.state === 'submitting', () => this.#payment.newAttempt());
  }

  /** The chosen method's own panel, under the card form. */
  #panel(blocked: boolean): TemplateResult | typeof nothing {
    const l = this.#localize;
    const group = this.group;
    if (group === 'CARD_INSTALLMENTS') {
      return installmentsView(l, this.amount, this.currency, this.months, (months) => {
        this.months = months;
        this.#payment.newAttempt();
      });
    }
    if (group === 'E_WALLET' || group === 'MOBILE_BANKING') {
      const providers = this.#providers();
      return providerView(l, group, providers, this.provider ?? providers[0], blocked, (provider) => {
        this.provider = provider;
        this.#payment.newAttempt();
      });
    }
    if (group === 'QR_PROMPT_PAY') return promptPayView(l, this.#amountText);
    return nothing;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'satang-checkout': SatangCheckout;
  }
}
