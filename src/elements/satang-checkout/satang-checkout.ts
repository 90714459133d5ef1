import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { CURRENCY_THB, INSTALLMENT_MIN_AMOUNT_SATANG, MIN_CHARGE_AMOUNT_SATANG } from '../../core/constants.js';
import { deviceTypeFromUserAgent } from '../../core/device.js';
import { installmentPlans } from '../../core/installments.js';
import { formatAmount } from '../../core/money.js';
import type { CheckoutChargeRequest, CheckoutChargeResponse, CheckoutIntent, CheckoutPaymentMethodType, CheckoutStatusResponse } from '../../core/schemas/checkout.js';
import { isHttpsOrLoopback } from '../../core/url.js';
import { clearAttempt, loadAttempt, saveAttempt } from '../../client/attempt-store.js';
import { CheckoutClientError } from '../../client/client-error.js';
import type { StatusPoller } from '../controllers/status-poller.js';
import { afterPaint, lazyModule } from '../lazy.js';
import { SatangActionEvent, SatangChangeEvent, SatangErrorEvent, SatangFailureEvent, SatangReadyEvent, SatangSubmitEvent, SatangSuccessEvent } from '../events.js';
import { msg, resolveLocale, useMessages, type Locale, type MessageKey } from '../i18n/localize.js';
import { checkoutMessages } from '../i18n/checkout.js';
import { paymentMessages } from '../i18n/payment.js';
import type { SatangCardForm } from '../satang-card-form/satang-card-form.js';
import { BANKS, DEFAULT_METHODS, groupOf, parseMethods, PROVIDER_NAMES, WALLETS, type MethodGroup } from './payment-methods.js';
import { styles } from './satang-checkout.styles.js';

useMessages(checkoutMessages, paymentMessages);

/** The payment code (`pay-path.ts`), fetched once and shared by every checkout on the page. */
type PayPath = typeof import('./pay-path.js');
const payPath = lazyModule<PayPath>(() => import('./pay-path.js'));

/**
 * How `<satang-qr-payment>` arrives when it is not defined yet: an entry that leaves it out
 * (`satang/checkout`) sets a loader that fetches it on demand. Started as soon as PromptPay is
 * chosen, so the code shows without delay when the charge answers with it.
 */
let qrElementLoader: (() => Promise<unknown>) | undefined;
let qrElement: Promise<unknown> | undefined;

/** Sets how `<satang-qr-payment>` is fetched when a checkout needs it and it is not defined. */
export function setQrElementLoader(loader: () => Promise<unknown>): void {
  qrElementLoader = loader;
}

function loadQrElement(): Promise<unknown> {
  if (customElements.get('satang-qr-payment')) return Promise.resolve();
  if (!qrElementLoader) return Promise.reject(new Error('<satang-qr-payment> is not defined: import satang (or satang/checkout) to show QR codes'));
  qrElement ??= qrElementLoader().catch((error: unknown) => {
    qrElement = undefined;
    throw error;
  });
  return qrElement;
}

/** The parts of the elements inside the checkout, styled from the page as `::part(card-input)` etc. */
const CARD_FORM_PARTS = 'form:card-form, field:card-field, label:card-label, input:card-input, hint:card-hint, error:card-error, brand:card-brand';
const QR_PARTS =
  'container:qr-container, title:qr-title, amount:qr-amount, qr:qr-code, instructions:qr-instructions, countdown:qr-countdown, save:qr-save, status:qr-status, expired:qr-expired, renew-button:qr-renew-button, result:qr-result, error:qr-error';

/**
 * What the checkout is doing. Rendered with early returns: each state has one view.
 * - `idle`: choosing a method and entering details (also after a recoverable error, with a message)
 * - `submitting`: tokenizing and creating the charge
 * - `redirecting`: leaving for a 3-D Secure, wallet or bank page
 * - `qr`: showing a PromptPay QR
 * - `waiting`: the charge exists; waiting for its final status (also when coming back from a redirect)
 * - `succeeded` / `failed`: the outcome
 */
type CheckoutState = 'idle' | 'submitting' | 'redirecting' | 'qr' | 'waiting' | 'succeeded' | 'failed';

/**
 * @summary The drop-in checkout: a method picker, the chosen method's form, a pay button with the
 * amount, progress and the outcome, for cards, card installments, PromptPay QR, e-wallets and
 * mobile banking.
 *
 * The amount shown is for display: the merchant's server decides what is charged. Card details
 * go from the shopper's browser straight to the payment service (`service-url`, publishable key);
 * everything else goes to the merchant's `endpoint` (see `satang/server`).
 *
 * @event satang-ready - First rendered with a valid configuration.
 * @event satang-change - The method or the card details changed (never card data).
 * @event satang-submit - A payment attempt starts.
 * @event satang-action - The shopper is being redirected, or a QR code is shown.
 * @event satang-success - The charge succeeded: `chargeId`.
 * @event satang-failure - The charge failed: `chargeId`, `failureCode`.
 * @event satang-error - Configuration, network or server trouble: `code`, `message`.
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
 * @csspart retry-button - "Try again".
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
    state: { state: true },
    group: { state: true },
    provider: { state: true },
    months: { state: true },
    message: { state: true },
    retryable: { state: true },
    charge: { state: true },
    failureCode: { state: true },
  };

  /** The merchant id, for card tokenization. */
  merchantId = '';
  /** The publishable key: safe in a page, only creates card tokens. */
  publishableKey = '';
  /** The payment service's base URL, where card tokens are created. */
  serviceUrl = '';
  /** The merchant's checkout endpoint (`satang/server`), e.g. `/api/checkout`. */
  endpoint = '';
  /** The amount to show, in satang. Display only: the server decides the charge. */
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

  private state: CheckoutState = 'idle';
  private group: MethodGroup | undefined;
  private provider: CheckoutPaymentMethodType | undefined;
  private months: number | undefined;
  private message: string | undefined;
  private retryable = false;
  private charge: CheckoutChargeResponse | undefined;
  private failureCode = '';

  private get cardForm(): SatangCardForm | null {
    return this.renderRoot?.querySelector('satang-card-form');
  }

  /** One key per payment attempt: kept across retries of that attempt, new once details change. */
  #attemptKey: string | undefined;
  /** Follows the charge; created with the payment code, on the first charge to follow. */
  #poller: StatusPoller | undefined;
  /** The payment code once it has loaded: the outcome view and redirects use it. */
  #code: PayPath | undefined;

  get #locale(): Locale {
    return resolveLocale(this.locale, this);
  }

  /** The configuration problem, in words, or undefined when the attributes can work. */
  get #configError(): string | undefined {
    const parsed = parseMethods(this.#methods);
    if ('unknown' in parsed) return `methods: unknown method "${parsed.unknown}"`;
    if (this.intent !== 'charge' && this.intent !== 'authorize') return `intent must be charge or authorize, got "${this.intent}"`;
    if (this.intent === 'authorize' && parsed.types.some((t) => t !== 'CARD_TOKEN')) return 'intent="authorize" takes card payments only: set methods="card"';
    if (!this.endpoint) return 'endpoint is required (the URL of your satang/server checkout handler)';
    if (!this.orderReference) return 'order-reference is required';
    if (!Number.isInteger(this.amount) || this.amount < MIN_CHARGE_AMOUNT_SATANG) return 'amount must be a whole number of satang, at least 100';
    if (this.currency !== CURRENCY_THB) return 'currency must be THB';
    if (!this.#returnUrl) return `return-url must be an http(s) URL or a path on this site, got "${this.returnUrl}"`;
    if (parsed.types.some((t) => t === 'CARD_TOKEN' || t === 'CARD_TOKEN_INSTALLMENTS')) {
      if (!this.merchantId) return 'merchant-id is required for card payments';
      if (!this.publishableKey) return 'publishable-key is required for card payments';
      if (/^sk_/.test(this.publishableKey)) return 'publishable-key looks like a secret API key: never put it in a page';
      let url: URL | undefined;
      try {
        url = new URL(this.serviceUrl);
      } catch {
        return 'service-url is required for card payments (the payment service base URL)';
      }
      if (!isHttpsOrLoopback(url)) return 'service-url must use https';
    }
    return undefined;
  }

  /** `return-url` resolved against the page (a path such as `/checkout/return` is fine), or this page. */
  get #returnUrl(): URL | undefined {
    try {
      const url = new URL(this.returnUrl || location.href, document.baseURI);
      url.hash = '';
      return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
    } catch {
      return undefined;
    }
  }

  /** An authorization is by card, so `methods` left at its default means card then. */
  get #methods(): string {
    return this.intent === 'authorize' && this.methods === DEFAULT_METHODS ? 'card' : this.methods;
  }

  get #types(): CheckoutPaymentMethodType[] {
    const parsed = parseMethods(this.#methods);
    return 'types' in parsed ? parsed.types : [];
  }

  get #groups(): MethodGroup[] {
    return [...new Set(this.#types.map(groupOf))];
  }

  get #amountText(): string {
    return formatAmount(this.amount, this.currency, this.#locale);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Back from a 3-D Secure, wallet or bank page: pick the attempt up where it left off.
    const saved = this.orderReference ? loadAttempt(this.orderReference) : undefined;
    if (saved && !this.#configError) {
      this.charge = { chargeId: saved.chargeId, statusToken: saved.statusToken, actionRequired: 'REDIRECT' };
      this.state = 'waiting';
      void this.#follow(saved.chargeId, saved.statusToken);
    }
  }

  protected override firstUpdated(): void {
    const problem = this.#configError;
    if (problem) {
      console.error(`<satang-checkout>: ${problem}`);
      this.dispatchEvent(new SatangErrorEvent('CONFIG', problem));
      return;
    }
    this.dispatchEvent(new SatangReadyEvent());
    // Fetched once the form is on screen, while the shopper fills it, so pressing pay does not wait for it.
    afterPaint(() => void payPath().catch(() => undefined));
  }

  /** Long-polls the charge's status until it is final. */
  async #follow(chargeId: string, statusToken: string): Promise<void> {
    try {
      const { StatusPoller } = (this.#code = await payPath());
      this.#poller ??= new StatusPoller(
        this,
        (status) => this.#onStatus(status),
        (error) => {
          if (!error.retryable) this.#fail(error);
        },
      );
      this.#poller.start(this.endpoint, chargeId, statusToken);
    } catch (error) {
      this.#problem(error);
    }
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('methods') || changed.has('intent') || this.group === undefined) {
      const groups = this.#groups;
      if (!this.group || !groups.includes(this.group)) this.group = groups[0];
      if (this.group === 'QR_PROMPT_PAY') void loadQrElement().catch(() => undefined);
    }
  }

  #choose(group: MethodGroup): void {
    this.group = group;
    if (group === 'QR_PROMPT_PAY') void loadQrElement().catch(() => undefined);
    this.provider = undefined;
    this.message = undefined;
    this.#attemptKey = undefined;
    const type = group === 'CARD' ? 'CARD_TOKEN' : group === 'CARD_INSTALLMENTS' ? 'CARD_TOKEN_INSTALLMENTS' : group === 'QR_PROMPT_PAY' ? 'QR_PROMPT_PAY' : (this.#providers()[0] ?? 'QR_PROMPT_PAY');
    this.dispatchEvent(new SatangChangeEvent(type, group === 'QR_PROMPT_PAY' || group === 'E_WALLET' || group === 'MOBILE_BANKING' ? true : Boolean(this.cardForm?.complete)));
  }

  /** The payment method to send, or a message key saying what is missing. */
  async #paymentMethod(): Promise<CheckoutChargeRequest['paymentMethod'] | MessageKey | null> {
    const group = this.group;
    if (group === 'CARD' || group === 'CARD_INSTALLMENTS') {
      const form = this.cardForm;
      if (!form) return null;
      if (group === 'CARD_INSTALLMENTS' && this.months === undefined) return 'installments.label';
      const card = await form.tokenize({ serviceUrl: this.serviceUrl, merchantId: this.merchantId, publishableKey: this.publishableKey });
      return group === 'CARD'
        ? { type: 'CARD_TOKEN', cardTokenId: card.cardTokenId, securityCode: card.securityCode }
        : { type: 'CARD_TOKEN_INSTALLMENTS', cardTokenId: card.cardTokenId, securityCode: card.securityCode, installmentPeriod: this.months as 3 | 4 | 6 | 10 };
    }
    if (group === 'QR_PROMPT_PAY') return { type: 'QR_PROMPT_PAY' };
    const provider = this.provider ?? this.#providers()[0];
    if (!provider) return null;
    if (group === 'MOBILE_BANKING' && this.#deviceType === 'WEB') return 'bank.needsPhone';
    return { type: provider };
  }

  get #deviceType() {
    return deviceTypeFromUserAgent(navigator.userAgent, navigator.maxTouchPoints);
  }

  #providers(): CheckoutPaymentMethodType[] {
    const pool: readonly string[] = this.group === 'E_WALLET' ? WALLETS : BANKS;
    return this.#types.filter((t) => pool.includes(t));
  }

  /** Starts (or retries) a payment attempt. A second press while one runs does nothing. */
  async #pay(): Promise<void> {
    if (this.state !== 'idle') return;
    // Checked before the form is disabled for the attempt, so focus can land on the first wrong field.
    if ((this.group === 'CARD' || this.group === 'CARD_INSTALLMENTS') && !this.cardForm?.validate()) return;
    this.state = 'submitting';
    this.message = undefined;
    try {
      const [method, code] = await Promise.all([this.#paymentMethod(), payPath()]);
      this.#code = code;
      if (method === null || typeof method === 'string') {
        this.state = 'idle';
        if (method) this.message = msg(this.#locale, method);
        return;
      }
      this.dispatchEvent(new SatangSubmitEvent(method.type));
      this.#attemptKey ??= crypto.randomUUID();
      const body: CheckoutChargeRequest = {
        orderReference: this.orderReference,
        paymentMethod: method,
        returnUrl: this.#returnUrl!.href,
        deviceType: this.#deviceType,
        intent: this.intent,
      };
      this.charge = await code.createCheckoutCharge(this.endpoint, body, this.#attemptKey);
      this.#next(this.charge, method.type);
    } catch (error) {
      this.#problem(error);
    }
  }

  #next(charge: CheckoutChargeResponse, type: CheckoutPaymentMethodType): void {
    if (charge.actionRequired === 'REDIRECT') {
      const url = this.#code?.safeRedirectUrl(charge.redirect?.redirectUrl);
      if (!url) {
        this.#problem(new CheckoutClientError('rejected', msg(this.#locale, 'error.redirect'), 'UNSAFE_REDIRECT', false));
        return;
      }
      saveAttempt(this.orderReference, { chargeId: charge.chargeId, statusToken: charge.statusToken, method: type });
      this.state = 'redirecting';
      this.dispatchEvent(new SatangActionEvent('redirect', charge.chargeId));
      this.navigate(url);
      return;
    }
    if (charge.actionRequired === 'ENCODED_IMAGE') {
      loadQrElement().then(
        () => {
          this.state = 'qr';
          this.dispatchEvent(new SatangActionEvent('qr', charge.chargeId));
        },
        (error: unknown) => this.#problem(new CheckoutClientError('network', String((error as Error)?.message ?? error))),
      );
      return;
    }
    this.state = 'waiting';
    void this.#follow(charge.chargeId, charge.statusToken);
  }

  /** Sends the shopper to a checked redirect URL. Separate so a test page can stay where it is. */
  protected navigate(url: URL): void {
    location.assign(url.href);
  }

  #onStatus(status: CheckoutStatusResponse): void {
    if (status.status === 'PENDING') return;
    this.#outcome(status.chargeId, status.status === 'SUCCEEDED', status.failureCode ?? '');
  }

  #outcome(chargeId: string, succeeded: boolean, failureCode: string): void {
    this.#poller?.stop();
    clearAttempt(this.orderReference);
    this.#newAttempt();
    this.failureCode = failureCode;
    this.state = succeeded ? 'succeeded' : 'failed';
    this.dispatchEvent(succeeded ? new SatangSuccessEvent(chargeId) : new SatangFailureEvent(chargeId, failureCode));
  }

  /** A failure that is not the payment's: back to the form with everything entered, and a way on. */
  #problem(error: unknown): void {
    const e = error instanceof CheckoutClientError ? error : new CheckoutClientError('server', String((error as Error)?.message ?? error));
    this.state = 'idle';
    this.retryable = e.retryable;
    // A refused attempt will not succeed as it is: the next press is a new attempt.
    if (!e.retryable) this.#newAttempt();
    const key: MessageKey = e.kind === 'network' ? 'error.network' : e.kind === 'server' ? 'error.server' : e.kind === 'config' ? 'error.config' : 'failure.generic';
    this.message = e.kind === 'rejected' ? e.message : msg(this.#locale, key, { detail: e.message });
    this.dispatchEvent(new SatangErrorEvent(e.code || e.kind.toUpperCase(), e.message));
  }

  /** The next press starts a new attempt: a new idempotency key and, for cards, a new token. */
  #newAttempt(): void {
    this.#attemptKey = undefined;
    this.cardForm?.clearToken();
  }

  #fail(error: CheckoutClientError): void {
    this.#poller?.stop();
    this.#problem(error);
  }

  #again(): void {
    this.state = 'idle';
    this.charge = undefined;
    this.message = undefined;
  }

  protected override render() {
    const problem = this.#configError;
    if (problem) {
      return html`<div part="config-error" class="config-error" role="alert">${msg(this.#locale, 'error.config', { detail: problem })}</div>`;
    }
    const locale = this.#locale;
    // One stable template: the form below is never re-created, so nothing entered is lost while
    // a payment runs, fails or is retried.
    const formShown = this.state === 'idle' || this.state === 'submitting';
    return html`<div part="container" class="container" lang=${locale}>${this.#status(locale)}${this.#form(locale, !formShown)}</div>`;
  }

  /** What is happening to the payment, above the form (or instead of it). */
  #status(locale: Locale): TemplateResult | typeof nothing {
    if (this.state === 'succeeded') {
      return html`<div part="outcome" class="outcome success" role="status">
        <h2>${msg(locale, this.intent === 'authorize' ? 'success.authorizedTitle' : 'success.title')}</h2>
        <p>${msg(locale, this.intent === 'authorize' ? 'success.authorizedBody' : 'success.body', { amount: this.#amountText })}</p>
      </div>`;
    }
    if (this.state === 'failed') {
      return html`<div part="outcome" class="outcome failure" role="alert">
        <h2>${msg(locale, 'failure.title')}</h2>
        <p>${msg(locale, this.#code?.failureMessageKey(this.failureCode) ?? 'failure.generic')}</p>
        <button part="retry-button" class="secondary" @click=${this.#again}>${msg(locale, 'failure.retry')}</button>
      </div>`;
    }
    if (this.state === 'qr' && this.charge?.encodedImage) {
      const { rawData, imageBase64Encoded, expiry } = this.charge.encodedImage;
      return html`<satang-qr-payment
        data-satang-nested
        exportparts=${QR_PARTS}
        raw-data=${rawData}
        .image=${imageBase64Encoded}
        expiry=${expiry}
        amount=${this.amount}
        currency=${this.currency}
        locale=${locale}
        theme=${this.theme}
        endpoint=${this.endpoint}
        charge-id=${this.charge.chargeId}
        .statusToken=${this.charge.statusToken}
        @satang-success=${this.#qrOutcome}
        @satang-failure=${this.#qrOutcome}
        @satang-qr-renew=${this.#renewQr}
      ></satang-qr-payment>`;
    }
    if (this.state === 'waiting' || this.state === 'redirecting') {
      return html`<p part="message" class="progress" role="status">${msg(locale, this.state === 'waiting' ? 'status.checking' : 'redirecting')}</p>`;
    }
    return nothing;
  }

  /** The QR element's outcome becomes the checkout's own, announced once. */
  #qrOutcome = (event: SatangSuccessEvent | SatangFailureEvent): void => {
    event.stopPropagation();
    this.#outcome(event.chargeId, event instanceof SatangSuccessEvent, event instanceof SatangFailureEvent ? event.failureCode : '');
  };

  /** Picker, method details and pay button. Kept in the DOM (hidden) after a failure, so nothing entered is lost. */
  #form(locale: Locale, hidden: boolean): TemplateResult {
    const busy = this.state === 'submitting';
    const blocked = this.group === 'MOBILE_BANKING' && this.#deviceType === 'WEB';
    const noPlan = this.group === 'CARD_INSTALLMENTS' && installmentPlans(this.amount).length === 0;
    return html`<div class="form" ?hidden=${hidden}>
      <fieldset part="methods" class="methods" ?disabled=${busy}>
        <legend>${msg(locale, 'method.label')}</legend>
        ${this.#groups.map(
          (group) => html`<label part="method" class="method">
            <input type="radio" name="method" .checked=${this.group === group} @change=${() => this.#choose(group)} />
            <span>${msg(locale, `method.${group}` as MessageKey)}</span>
          </label>`,
        )}
      </fieldset>
      <div class="details">${this.#details(locale, blocked)}</div>
      ${this.message ? html`<div part="message" class="message" role="alert">${this.message}</div>` : nothing}
      <button part="pay-button" class="pay" ?disabled=${busy || blocked || noPlan} aria-busy=${busy ? 'true' : 'false'} @click=${this.#pay}>
        ${busy ? msg(locale, 'pay.processing') : this.message && this.retryable ? msg(locale, 'error.retry') : msg(locale, 'pay', { amount: this.#amountText })}
      </button>
    </div>`;
  }

  #details(locale: Locale, blocked: boolean): TemplateResult | typeof nothing {
    const group = this.group;
    const card = group === 'CARD' || group === 'CARD_INSTALLMENTS';
    // The card form stays rendered while another method is chosen, so switching back keeps the entry.
    const cardForm = this.#types.some((t) => t === 'CARD_TOKEN' || t === 'CARD_TOKEN_INSTALLMENTS')
      ? html`<satang-card-form
          data-satang-nested
          exportparts=${CARD_FORM_PARTS}
          ?hidden=${!card}
          locale=${locale}
          theme=${this.theme}
          ?disabled=${this.state === 'submitting'}
          @satang-change=${() => (this.#attemptKey = undefined)}
          @satang-ready=${(event: Event) => event.stopPropagation() /* the page hears the checkout's own */}
        ></satang-card-form>`
      : nothing;
    if (group === 'CARD_INSTALLMENTS') {
      const plans = installmentPlans(this.amount);
      const minimum = formatAmount(INSTALLMENT_MIN_AMOUNT_SATANG[3], this.currency, locale);
      const options = plans.length
        ? html`<fieldset part="options" class="options">
            <legend>${msg(locale, 'installments.label')}</legend>
            ${plans.map(
              (plan) => html`<label part="option" class="option">
                <input type="radio" name="plan" .checked=${this.months === plan.months} @change=${() => ((this.months = plan.months), (this.#attemptKey = undefined))} />
                <span>${msg(locale, 'installments.plan', { months: plan.months, monthly: formatAmount(plan.monthlyAmountSatang, this.currency, locale) })}</span>
              </label>`,
            )}
          </fieldset>`
        : html`<p part="notice" class="notice">${msg(locale, 'installments.unavailable', { minimum })}</p>`;
      return html`${cardForm}${options}`;
    }
    if (card) return cardForm;
    if (group === 'E_WALLET' || group === 'MOBILE_BANKING') {
      const providers = this.#providers();
      const chosen = this.provider ?? providers[0];
      const name = chosen ? PROVIDER_NAMES[chosen] : '';
      const notice = blocked ? msg(locale, 'bank.needsPhone') : msg(locale, group === 'E_WALLET' ? 'wallet.redirect' : 'bank.redirect', { method: name ?? '' });
      return html`${cardForm}
        <fieldset part="options" class="options">
          <legend>${msg(locale, group === 'E_WALLET' ? 'wallet.label' : 'bank.label')}</legend>
          ${providers.map(
            (p) => html`<label part="option" class="option">
              <input type="radio" name="provider" .checked=${chosen === p} @change=${() => ((this.provider = p), (this.#attemptKey = undefined))} />
              <span>${PROVIDER_NAMES[p]}</span>
            </label>`,
          )}
        </fieldset>
        <p part="notice" class="notice" role=${blocked ? 'alert' : nothing}>${notice}</p>`;
    }
    return html`${cardForm}<p part="notice" class="notice">${msg(locale, 'qr.instructions', { amount: this.#amountText })}</p>`;
  }

  #renewQr = (): void => {
    this.#attemptKey = undefined;
    this.state = 'idle';
    this.group = 'QR_PROMPT_PAY';
    void this.#pay();
  };
}

declare global {
  interface HTMLElementTagNameMap {
    'satang-checkout': SatangCheckout;
  }
}
