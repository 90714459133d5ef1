import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { CURRENCY_THB, INSTALLMENT_PERIODS, type InstallmentPeriod } from '../../core/constants.js';
import { deviceTypeFromUserAgent } from '../../core/device.js';
import { formatAmount } from '../../core/money.js';
import type { CheckoutIntent, CheckoutPaymentMethodType } from '../../core/schemas/checkout.js';
import type { DeviceType } from '../../core/schemas/payment-method.js';
import { LocalizeController } from '../controllers/localize-controller.js';
import { SatangChangeEvent, SatangErrorEvent, SatangReadyEvent } from '../events.js';
import { checkoutMessages } from '../i18n/checkout.js';
import { paymentMessages } from '../i18n/payment.js';
import { afterPaint, lazyModule, prefetch } from '../lazy.js';
import type { SatangCardForm } from '../satang-card-form/satang-card-form.js';
import { cardFormView } from './card-panel.js';
import { configProblem, offeredTypes, type ConfigProblem } from './checkout-config.js';
import { CheckoutPayment } from './checkout-payment.js';
import { groupOpen, methodPickerView, paymentOfChoice, planAllowed } from './method-picker.js';
import { DEFAULT_METHODS, groupOf, isCardGroup, isCardType, type MethodGroup } from './payment-methods.js';
import { loadQrElement } from './promptpay-panel.js';
import { styles } from './satang-checkout.styles.js';

/** The panels other than the card form (`panels.ts`), fetched after the first render with the payment code. */
const panels = lazyModule(() => import('./pay-path.js'));

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
 * `order-token` (signed for the order by the merchant's server) is the key to the order: the server
 * charges nothing without it. With it, the checkout asks the server where the order stands once
 * it has rendered, and whenever another tab of the order says it changed: a paid order shows paid
 * in any tab or device, and a payment under way there (a QR code, a bank or 3-D Secure page) is
 * shown here too. A press of pay meanwhile waits for the answer.
 *
 * A reload, Back, or the return from a bank, wallet or 3-D Secure page shows the same payment:
 * the QR code again with the time it has left, the charge being checked, or the order paid (with
 * `satang-success` again). The tab keeps the charge id and its status token in `sessionStorage`
 * for an hour, never card data. A QR code and the wait for a charge have "Choose another method":
 * the next charge replaces that payment, and should it be paid anyway after another one, it is
 * refunded. A decline shows over the card form, which keeps the card but its security code.
 *
 * Before its script runs, the element is an empty box: reserve its place and give it the checkout's
 * surface with a `satang-checkout:not(:defined)` rule in the page's CSS (a `min-height` matching its
 * first render, a background, an optional CSS-only sheen; no script, no inline style), so the page
 * does not move when it arrives. See docs/elements-styling.md for the rule and how to measure the
 * height. With `theme="dark"` (or `auto` in a dark system theme) the box has an inner padding of
 * 1.5 × `--satang-space` a side, so its content keeps off the edges on a light page.
 *
 * The card form's parts are exported as `card-*` (`card-input`…), the QR code's as `qr-*` (`qr-code`…), and
 * their custom properties reach them through the checkout. Every design token works set on the checkout or on
 * any ancestor (`:root`). See docs/elements-styling.md for every token and part.
 *
 * @attr {string} installment-interest - The interest of the shop's installment plans, a percentage a month as the shop
 * gives it: `0` shows "0% interest" ("ดอกเบี้ย 0%"), `0.8` "Interest 0.8% a month, charged by the bank that issued your
 * card". Shown under the plans; read whenever they render. Anything but a rate (up to two decimals) is not shown, and
 * said once in the console.
 * @attr {string} installment-cards - The cards the shop's installment plans take, in the shop's words (e.g. `KBank, SCB
 * credit cards`), shown under the plans as "Eligible cards: …" ("บัตรที่ร่วมรายการ: …"); read whenever they render.
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
 * @event {SatangResumeEvent} satang-resume - A payment of the order that may still go through was picked up (a reload,
 *   Back, the return from a bank, wallet or 3-D Secure page, or another tab or device): `chargeId`, `method`. Lock the
 *   cart until the payment ends.
 * @event {SatangAbandonEvent} satang-abandon - The shopper left an open payment for another method (the server said it
 *   had not gone through): `chargeId`. Should it still arrive, one of the two payments is refunded.
 * @event {SatangErrorEvent} satang-error - Configuration, network or server trouble: `code`, `message`.
 *
 * @csspart container - The whole checkout.
 * @csspart methods - The method picker (a radio group).
 * @csspart methods-label - Its heading, "Payment method".
 * @csspart method - One method choice, with its mark. Installments show, disabled, while the order is below every plan's
 *   minimum (`amount` is followed as it changes); the first plan the order allows is chosen for the shopper.
 * @csspart method-radio - A method choice's radio button (`accent-color` is the accent).
 * @csspart method-mark - A method choice's line drawing (an `svg`, drawn with `stroke: currentColor`).
 * @csspart method-reason - Beside a method this order cannot be paid with: why ("From ฿3,000.00"), the radio's description.
 * @csspart method-note - Under the picker on a computer: that bank apps need a phone, and PromptPay QR instead.
 * @csspart change-method-button - "Choose another method", under a QR code or while a payment is checked: asks the server,
 *   then abandons it if it has not gone through.
 * @csspart return-link - "Go back to finish paying": back to the bank, wallet or 3-D Secure page of a payment still open.
 * @csspart options - The list of wallets, banks or installment plans.
 * @csspart options-label - Its heading ("Installment plan", "Wallet"…).
 * @csspart option - One of those.
 * @csspart option-radio - An option's radio button.
 * @csspart option-mark - A wallet's or bank app's mark.
 * @csspart option-hint - Under an installment plan: the total.
 * @csspart notice - Explanations under a method, and under a payment still open at a bank, wallet or 3-D Secure page.
 * @csspart pay-button - The pay button.
 * @csspart message - Above the form: why the last attempt did not pay (a decline, in the method's words, with the
 *   card still filled in but its security code), or what went wrong; focused when shown.
 * @csspart progress - The status line while the shopper is taken to pay, or a payment is checked; focused when shown.
 * @csspart spinner - The progress's spinner; still (class `paused`) while the payment waits on the shopper at another page.
 * @csspart outcome - The success or failure panel.
 * @csspart outcome-mark - The check mark over a success.
 * @csspart refund-notice - In the success panel (or the "already paid" notice), that this extra payment, or a payment the shopper left for another method and approved later, was refunded (the order was paid already).
 * @csspart review-button - "Review the new total", after a payment refunded because the order's price changed.
 * @csspart retry-button - "Try again", after a failure or while the order's payment elsewhere is being set up.
 * @csspart conflict - Shown instead of the form when nothing was charged: the total changed, the order is being paid
 *   elsewhere or is paid already, or the page expired. Its heading takes focus.
 * @csspart confirm-button - "Confirm and pay ฿…": the new total.
 * @csspart replace-button - "Pay here instead" of the payment open elsewhere.
 * @csspart back-button - Back to the form, from a conflict.
 * @csspart reload-button - Reloads the page once it expired.
 * @csspart config-error - Shown instead of the checkout when attributes are wrong.
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
    orderToken: { attribute: 'order-token' },
    methods: {},
    locale: {},
    returnUrl: { attribute: 'return-url' },
    theme: { reflect: true },
    intent: {},
    group: { state: true },
    provider: { state: true },
    months: { state: true },
    panelCode: { state: true },
    configText: { state: true },
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
  /** The currency of `amount`: THB, the one the service charges in. @type {'THB'} */
  currency = CURRENCY_THB;
  /** The merchant's order reference the server prices. */
  orderReference = '';
  /**
   * Required: the order's token, signed by the merchant's server for this order
   * (`handler.orderToken(orderReference)` in `satang/server`) and rendered into the page. The server
   * charges the order, and tells where it stands, only to the holder of its token. The checkout
   * asks the server where the order stands whenever it starts or resumes (after its first render):
   * a paid order shows paid, and a payment under way (a QR code, a bank or 3-D Secure page) is
   * picked up, in any tab or device. Without it, the checkout shows a configuration error.
   */
  orderToken = '';
  /** Methods in the order to show them: card, installments, promptpay, ewallet, mobile-banking, or single services (truemoney, kplus…). @type {string} */
  methods = DEFAULT_METHODS;
  /** th or en (`th-TH` and the like read by their language); by default the page's language. @type {'th' | 'en' | undefined} */
  locale: string | undefined;
  /** Where redirect flows come back to: a URL or a path on this site; by default this page. */
  returnUrl = '';
  /** light, dark, or auto (follows the system). @type {'light' | 'dark' | 'auto'} */
  theme = 'light';
  /**
   * charge (take the money now) or authorize (only reserve it on the card, for the shop's server to
   * capture later; card payments only, `methods` defaults to card). Must match the server's order.
   * @type {'charge' | 'authorize'}
   */
  intent: CheckoutIntent = 'charge';

  private group: MethodGroup | undefined;
  private provider: CheckoutPaymentMethodType | undefined;
  private months: InstallmentPeriod | undefined;
  /** What is wrong with the attributes, in words, once fetched. */
  private configText = '';
  /** The panels other than the card form, once fetched. */
  private panelCode: typeof import('./pay-path.js') | undefined;

  readonly #localize = new LocalizeController(this, checkoutMessages, paymentMessages);
  readonly #payment = new CheckoutPayment(this, this.#localize, {
    // The chosen method's payment to send, or a message key saying what is missing.
    chosen: () => {
      const tokenize = { serviceUrl: this.serviceUrl, merchantId: this.merchantId, publishableKey: this.publishableKey };
      return paymentOfChoice(this.group, this.provider ?? this.#providers()[0], this.#blocked, this.cardForm, tokenize, this.months);
    },
    forgetToken: () => this.cardForm?.clearToken(),
    clearSecurityCode: () => this.cardForm?.clearSecurityCode(),
    focusMethod: (type, other) => this.#focusMethod(type, other),
    navigate: (url) => this.navigate(url),
  });

  constructor() {
    super();
    // The server's total differs from the one shown: its payment asks (the event is the checkout's
    // own, dispatched on it), and the element alone sets its amount.
    this.addEventListener('satang-amount-changed', (event) => (this.amount = event.amount));
  }

  private get cardForm(): SatangCardForm | null {
    return this.renderRoot.querySelector('satang-card-form');
  }

  get #types(): readonly CheckoutPaymentMethodType[] {
    return offeredTypes(this);
  }

  /** The choices of the picker. Bank apps open on a phone only: on a computer they are left out, unless nothing else is offered. */
  get #groups(): MethodGroup[] {
    const all = [...new Set(this.#types.map(groupOf))];
    const usable = this.#onComputer ? all.filter((g) => g !== 'MOBILE_BANKING') : all;
    return usable.length > 0 ? usable : all;
  }

  /** The offered types of the chosen group, in their order: the wallets or the bank apps, or the one type of another group. */
  #providers(): CheckoutPaymentMethodType[] {
    return this.#types.filter((t) => groupOf(t) === this.group);
  }

  get #amountText(): string {
    return formatAmount(this.amount, this.currency);
  }

  /** The shopper's device does not change under the page: read once. */
  #device: DeviceType | undefined;

  get #deviceType(): DeviceType {
    return (this.#device ??= deviceTypeFromUserAgent(navigator.userAgent, navigator.maxTouchPoints));
  }

  get #onComputer(): boolean {
    return this.#deviceType === 'WEB';
  }

  /** Bank apps open on a phone only: on a computer, mobile banking cannot be paid with. */
  get #blocked(): boolean {
    return this.group === 'MOBILE_BANKING' && this.#onComputer;
  }

  /** Installments are chosen for an order below every plan's minimum: only when nothing else is offered. */
  get #noPlan(): boolean {
    return this.group !== undefined && !groupOpen(this.group, this.amount);
  }

  protected override firstUpdated(): void {
    const problem = this.#problem;
    if (problem) {
      void import('./config-messages.js').then((messages) => {
        const text = (this.configText = messages.describeConfigProblem(problem));
        console.error(`<satang-checkout>: ${text}`);
        this.dispatchEvent(new SatangErrorEvent('CONFIG', text));
      });
      return;
    }
    this.dispatchEvent(new SatangReadyEvent());
    this.#payment.prepare();
    afterPaint(() => this.#loadPanels());
  }

  /** What is wrong with the attributes, worked out once per update (the render and `firstUpdated` read it). */
  #problem: ConfigProblem | undefined;

  protected override willUpdate(changed: PropertyValues<this>): void {
    this.#problem = configProblem(this);
    // The amount changes when the page or a price change sets it: installments follow it, closed below
    // their minimum (another choice is made for the shopper then), and the plan is the first it allows.
    if (!this.months || !planAllowed(this.months, this.amount)) this.months = INSTALLMENT_PERIODS.find((m) => planAllowed(m, this.amount));
    if (changed.has('methods') || changed.has('intent') || changed.has('amount') || this.group === undefined) {
      const groups = this.#groups;
      const open = groups.filter((g) => groupOpen(g, this.amount));
      if (!this.group || !open.includes(this.group)) this.group = open[0] ?? groups[0];
      if (this.group === 'QR_PROMPT_PAY') prefetch(loadQrElement);
      if (!isCardGroup(this.group)) this.#loadPanels();
    }
  }

  #loadPanels(): void {
    if (this.panelCode) return;
    // A failure is met again, and explained, when the shopper pays with such a method.
    panels().then((code) => void (code.adoptPaymentStyles(this), (this.panelCode = code)), () => undefined);
  }

  #choose(group: MethodGroup): void {
    if (!groupOpen(group, this.amount)) return;
    this.group = group;
    if (group === 'QR_PROMPT_PAY') prefetch(loadQrElement);
    if (!isCardGroup(group)) this.#loadPanels();
    this.provider = undefined;
    this.#payment.clearNotice();
    this.#payment.newAttempt();
    const [type = 'QR_PROMPT_PAY'] = this.#providers();
    this.dispatchEvent(new SatangChangeEvent(type, isCardGroup(group) ? Boolean(this.cardForm?.complete) : true));
  }

  /**
   * Focus on the chosen method (`type`'s, when given; with `other`, the first method that is not
   * `type`'s): where the shopper starts again after leaving a payment.
   */
  async #focusMethod(type?: string, other = false): Promise<void> {
    const types: readonly string[] = this.#types;
    if (type && other) {
      const left = groupOf(type as CheckoutPaymentMethodType);
      const next = this.#groups.find((g) => g !== left && groupOpen(g, this.amount));
      if (next && this.group === left) this.#choose(next);
    } else if (type && types.includes(type)) {
      this.group = groupOf(type as CheckoutPaymentMethodType);
      this.provider = type as CheckoutPaymentMethodType;
    }
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>('input[name="method"]:checked')?.focus();
  }

  /**
   * Starts (or retries) a payment attempt. A second press while one runs does nothing; a press
   * while the server is asked where the order stands waits for its answer (the order may be paid,
   * or being paid, already).
   */
  #pay(): void {
    const syncing = this.#payment.syncing;
    if (syncing) {
      void syncing.then(() => this.#pay());
      return;
    }
    if (this.#payment.now.state !== 'idle' || this.#blocked || this.#noPlan) return;
    // Checked before the form is disabled for the attempt, so focus can land on the first wrong field.
    const form = this.cardForm;
    if (isCardGroup(this.group) && form) {
      if (!form.ready) {
        // Its rules arrive moments after the first render: pressed sooner, the press waits for them.
        void form.whenReady().then(() => this.#pay());
        return;
      }
      if (!form.validate()) return;
    }
    void this.#payment.pay(this.#deviceType);
  }

  /** Enter in any field pays, as in a form; not while an input method composes (Thai keyboards do). */
  #onKeydown = (event: KeyboardEvent): void => {
    if (event.key !== 'Enter' || event.isComposing || this.#payment.now.state !== 'idle' || !(event.composedPath()[0] instanceof HTMLInputElement)) return;
    event.preventDefault();
    this.#pay();
  };

  /**
   * Typing in a field (the card form's, across its shadow root) is the shopper acting on the notice
   * over the form (a decline, what became of a payment left): it has been read, and goes.
   */
  #onInput = (): void => {
    if (this.#payment.now.state === 'idle') this.#payment.clearNotice();
  };

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
    if (this.#problem) return html`<div part="config-error" class="config-error" role="alert">${l.msg('error.config', { detail: this.configText })}</div>`;
    // One stable template: the form below is never re-created, so nothing entered is lost while
    // a payment runs, fails or is retried.
    const { state, announcement } = this.#payment.now;
    return html`<div part="container" class="container" lang=${l.locale} @keydown=${this.#onKeydown} @input=${this.#onInput}>
      ${this.#payment.view(this.#renewQr)}${this.#form(state !== 'idle' && state !== 'submitting')}
      <div class="visually-hidden" aria-live="polite">${announcement}</div>
    </div>`;
  }

  /** Picker, method details and pay button. Kept in the DOM (hidden) after a failure, so nothing entered is lost. */
  #form(hidden: boolean): TemplateResult {
    const l = this.#localize;
    const { state, retryable } = this.#payment.now;
    const { noticeText } = this.#payment;
    const busy = state === 'submitting';
    const groups = this.#groups;
    // The plans come before the card: the shopper picks how to pay, then types the card.
    const plansFirst = this.group === 'CARD_INSTALLMENTS';
    const bankLeftOut = this.#onComputer && groups.length > 1 && this.#types.some((t) => groupOf(t) === 'MOBILE_BANKING');
    return html`<div class="form" ?hidden=${hidden}>
      ${methodPickerView(l, groups, this.group, this.amount, this.currency, busy, Boolean(this.panelCode), (group) => this.#choose(group))}
      ${bankLeftOut && this.group !== 'QR_PROMPT_PAY' ? html`<p part="method-note" class="notice note">${l.msg('bank.onComputer')}</p>` : nothing}
      ${noticeText ? html`<div part="message" class="message" role=${this.#payment.noticeIsInfo ? nothing : 'alert'} tabindex="-1">${noticeText}</div>` : nothing}
      <div class="details">${plansFirst ? this.#panel() : nothing}${this.#cardForm()}${plansFirst ? nothing : this.#panel()}</div>
      <button part="pay-button" class="pay" ?disabled=${busy || this.#blocked || this.#noPlan} aria-busy=${busy ? 'true' : 'false'} @click=${this.#pay}>
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
    // Not shown while the order is too small for installments: nothing can be paid with it then.
    return cardFormView(this.#localize.locale, this.theme, isCardGroup(this.group) && !this.#noPlan, this.#payment.now.state === 'submitting', () => this.#payment.newAttempt());
  }

  /** The chosen method's own panel, under the card form (above it for installments); fetched after the first render. */
  #panel(): TemplateResult | typeof nothing {
    const { panelCode: code, group } = this;
    if (!code || group === 'CARD' || !group) return nothing;
    return code.methodPanelView(this.#localize, {
      ...{ group, amount: this.amount, currency: this.currency, amountText: this.#amountText, months: this.months },
      ...{ providers: this.#providers(), provider: this.provider, blocked: this.#blocked, phone: !this.#onComputer },
      choosePlan: (months) => { this.months = months; this.#payment.newAttempt(); },
      chooseProvider: (provider) => { this.provider = provider; this.#payment.newAttempt(); },
    });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'satang-checkout': SatangCheckout;
  }
}
