import { html, LitElement, nothing, svg, type PropertyValues } from 'lit';
import type { QRCode } from 'qrcode';
import { verifyCheckoutSlip } from '../../client/checkout-api.js';
import type { CheckoutClientError } from '../../client/client-error.js';
import { failureMessageKey } from '../../core/failure.js';
import { formatAmount } from '../../core/money.js';
import type { CheckoutStatusResponse } from '../../core/schemas/checkout.js';
import { StatusPoller } from '../controllers/status-poller.js';
import { SatangErrorEvent, SatangFailureEvent, SatangSuccessEvent } from '../events.js';
import { msg, resolveLocale, useMessages, type Locale, type MessageKey } from '../i18n/localize.js';
import { outcomeMessages } from '../i18n/outcome.js';
import { paymentMessages } from '../i18n/payment.js';
import { qrMessages } from '../i18n/qr.js';
import { SatangQrRenewEvent } from './qr-events.js';
import { styles } from './satang-qr-payment.styles.js';
import { readSlipQr } from './slip-reader.js';

useMessages(paymentMessages, outcomeMessages, qrMessages);

/** Where the payment shown by `<satang-qr-payment>` stands; see {@link SatangQrPayment.state}. */
export type QrPaymentState = 'invalid' | 'loading' | 'showing' | 'expired' | 'paid' | 'failed';

/**
 * Where an uploaded bank transfer slip stands: its QR code being read, none found in the picture,
 * being checked, refused as another payment's (or no payment's), or not checkable now.
 */
type SlipState = 'reading' | 'unreadable' | 'verifying' | 'mismatch' | 'unavailable';

const SLIP_MESSAGES: Record<SlipState, MessageKey> = {
  reading: 'qr.slipReading',
  unreadable: 'qr.slipNoCode',
  verifying: 'qr.slipVerifying',
  mismatch: 'qr.slipMismatch',
  unavailable: 'qr.slipUnavailable',
};

/** Light modules around the code that scanners need to find it (the QR specification's minimum). */
export const QR_QUIET_ZONE_MODULES = 4;
/** Remaining times at which the countdown is read out to screen readers, in seconds. */
export const QR_ANNOUNCE_AT_SECONDS = [300, 120, 60, 30, 10] as const;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** "mm:ss", or "h:mm:ss" from an hour up. */
function clock(seconds: number): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(seconds / 3600);
  const rest = `${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
  return h ? `${h}:${rest}` : rest;
}

/** An SVG path of the dark modules, one subpath per horizontal run, offset by the quiet zone. */
function modulesPath(modules: QRCode['modules']): string {
  let d = '';
  for (let y = 0; y < modules.size; y += 1) {
    for (let x = 0; x < modules.size; ) {
      let run = 0;
      while (x + run < modules.size && modules.get(y, x + run)) run += 1;
      if (run) d += `M${x + QR_QUIET_ZONE_MODULES} ${y + QR_QUIET_ZONE_MODULES}h${run}v1h-${run}z`;
      x += run || 1;
    }
  }
  return d;
}

/**
 * @summary A Thai QR (PromptPay) payment: the code, the amount, a countdown to its expiry, and the
 * outcome as soon as the shopper has paid.
 *
 * The code is drawn as an SVG from `raw-data`; the QR library is fetched only then, as its own
 * chunk. Until it is drawn (or if it cannot be), the PNG in `image` is shown. With `endpoint`,
 * `charge-id` and `statusToken` the element follows the charge through the merchant's proxy and
 * reports the outcome; network trouble is retried and never hides the code.
 *
 * A shopper who paid by bank transfer instead can upload the transfer slip (a picture, or a photo
 * taken then): the slip's QR code is read in the browser (the platform's `BarcodeDetector`, else
 * jsQR, fetched as its own chunk only then) and only its text goes to the proxy
 * (`POST {endpoint}/charges/{id}/slip`). A slip of this payment is its success, as a paid QR.
 *
 * @event satang-success - The charge succeeded (`chargeId`).
 * @event satang-failure - The charge failed (`chargeId`, `failureCode`).
 * @event satang-error - The status cannot be read (e.g. the status token was refused), or the
 *   element is misconfigured (`code` `CONFIG`, as `<satang-checkout>`). The code stays shown if it can be.
 * @event satang-qr-renew - The QR expired and the shopper asked for a new one (`chargeId`).
 *
 * @csspart container - Everything inside the element.
 * @csspart title - "Scan to pay with PromptPay".
 * @csspart amount - The amount to pay.
 * @csspart qr - The white frame around the code (dimmed and blurred once expired).
 * @csspart instructions - How to pay.
 * @csspart countdown - Time left before the code expires.
 * @csspart save - The link that saves the QR image, for paying from the same phone.
 * @csspart status - "Waiting for your payment…", or why the status cannot be checked.
 * @csspart expired - The notice shown once the code has expired.
 * @csspart renew-button - The button asking for a new code.
 * @csspart slip-button - "Paid by bank transfer? Upload the slip": the file picker, styled as a button.
 * @csspart slip-status - Reading or checking the slip, or why it was not accepted.
 * @csspart result - The success or failure notice.
 * @csspart error - The notice shown when the element is misconfigured.
 *
 * @cssproperty --satang-qr-size - Width and height of the code, quiet zone included (default 240px).
 * @cssproperty --satang-color-text - Text colour.
 * @cssproperty --satang-color-muted - Secondary text (instructions, countdown).
 * @cssproperty --satang-color-accent - Links and the renew button.
 * @cssproperty --satang-color-on-accent - Text on the renew button.
 * @cssproperty --satang-color-surface - Background.
 * @cssproperty --satang-color-success - Success notice.
 * @cssproperty --satang-color-error - Failure and error notices.
 * @cssproperty --satang-radius - Corner radius.
 * @cssproperty --satang-font-family - Font stack (Thai-friendly by default).
 * @cssproperty --satang-line-height - Line height (1.6 by default, room for Thai vowels and tones).
 */
export class SatangQrPayment extends LitElement {
  static readonly tagName = 'satang-qr-payment';
  static override styles = styles;
  static override properties = {
    rawData: { attribute: 'raw-data' },
    image: { attribute: false },
    expiry: {},
    amount: { type: Number },
    currency: {},
    locale: {},
    endpoint: {},
    chargeId: { attribute: 'charge-id' },
    statusToken: { attribute: false },
    svgCode: { state: true },
    drawError: { state: true },
    now: { state: true },
    outcome: { state: true },
    failureCode: { state: true },
    note: { state: true },
    announcement: { state: true },
    slip: { state: true },
  };

  /** The EMVCo payload (`encodedImage.rawData`) the code encodes, exactly. */
  rawData = '';
  /** The service's base64 PNG of the same code (`encodedImage.imageBase64Encoded`); also what "save" downloads. */
  image: string | null | undefined;
  /** ISO 8601 time the code stops being payable (`encodedImage.expiry`); no countdown without it. */
  expiry = '';
  /** The amount the code charges, in satang (integer). */
  amount: number | undefined;
  /** ISO 4217 code of `amount`. */
  currency = 'THB';
  /** th or en; by default the language of the page. */
  locale: string | undefined;
  /** The merchant proxy's base URL (`createCheckoutHandler`'s basePath), to follow the charge. */
  endpoint = '';
  /** The charge the code pays. */
  chargeId = '';
  /** The charge's `statusToken`. A property only: tokens stay out of attributes and the DOM. */
  statusToken = '';

  private svgCode: { size: number; d: string } | undefined;
  private drawError = '';
  private now = Date.now();
  private outcome: 'paid' | 'failed' | undefined;
  private failureCode = '';
  private note: MessageKey | undefined;
  private announcement = '';
  private slip: SlipState | undefined;

  readonly #poller = new StatusPoller(
    this,
    (status) => this.#onStatus(status),
    (error) => this.#onError(error),
  );
  #timer: ReturnType<typeof setTimeout> | undefined;
  #problem = '';
  #reported = '';
  #amountText = '';
  #lastState: QrPaymentState | undefined;
  #crossed = 0;
  /** Counts slip uploads, so an answer for an earlier one (or another charge) is dropped. */
  #slipAttempt = 0;
  #slipRequest: AbortController | undefined;

  /**
   * Where the payment stands: `invalid` (misconfigured; a message is shown), `loading` (the code is
   * being drawn and there is no PNG), `showing`, `expired`, `paid` or `failed`.
   */
  get state(): QrPaymentState {
    if (this.#problem) return 'invalid';
    if (this.outcome) return this.outcome;
    if (Date.parse(this.expiry) <= this.now) return 'expired';
    return this.svgCode || this.image ? 'showing' : 'loading';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Re-arms the countdown after the element was moved or re-attached.
    this.now = Date.now();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#cancelSlip();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('rawData')) {
      this.svgCode = undefined;
      this.drawError = '';
    }
    if (changed.has('chargeId')) {
      this.outcome = undefined;
      this.note = undefined;
      this.#cancelSlip();
      this.slip = undefined;
    }
    if (changed.has('expiry')) this.now = Date.now();
    this.#problem = this.#check();

    const state = this.state;
    const remaining = this.#remainingSeconds();
    const crossed = QR_ANNOUNCE_AT_SECONDS.filter((s) => remaining <= s).length;
    const locale = resolveLocale(this.locale, this);
    if (state !== this.#lastState) {
      const key = state === 'expired' ? 'qr.expired' : state === 'paid' ? 'success.title' : state === 'failed' ? 'failure.title' : undefined;
      if (key) this.announcement = msg(locale, key);
      this.#lastState = state;
    } else if (crossed > this.#crossed && !changed.has('expiry')) {
      this.announcement = msg(locale, 'qr.expiresIn', { time: clock(remaining) });
    }
    this.#crossed = crossed;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('rawData') && this.rawData) void this.#draw(this.rawData);
    if (changed.has('endpoint') || changed.has('chargeId') || changed.has('statusToken')) {
      if (this.endpoint && this.chargeId && this.statusToken && !this.outcome) this.#poller.start(this.endpoint, this.chargeId, this.statusToken);
      else this.#poller.stop();
    }

    clearTimeout(this.#timer);
    this.#timer = undefined;
    const state = this.state;
    const left = Date.parse(this.expiry) - Date.now();
    if (this.isConnected && (state === 'showing' || state === 'loading') && left >= 0) {
      // Ticks on the expiry's own second boundaries, so the display and the expiry land on time.
      this.#timer = setTimeout(() => (this.now = Date.now()), left % 1000 || 1000);
    }

    if (this.#problem !== this.#reported) {
      this.#reported = this.#problem;
      if (this.#problem) {
        console.error(`<satang-qr-payment>: ${this.#problem}`);
        this.dispatchEvent(new SatangErrorEvent('CONFIG', this.#problem));
      }
    }
  }

  /** What is wrong with the configuration, for developers; empty when nothing is. */
  #check(): string {
    const { amount, image } = this;
    if (image && !BASE64.test(image)) return '`image` must be base64 PNG data';
    if (!this.rawData && !image) return 'set `raw-data` (the QR payload) or `image` (its PNG)';
    if (this.drawError && !image) return `the QR code could not be drawn (${this.drawError})`;
    if (this.expiry && Number.isNaN(Date.parse(this.expiry))) return `\`expiry\` must be an ISO 8601 time, got "${this.expiry}"`;
    if (!Number.isSafeInteger(amount) || amount! < 0) return `\`amount\` must be a whole number of satang, got "${amount}"`;
    try {
      this.#amountText = formatAmount(amount!, this.currency, resolveLocale(this.locale, this));
    } catch {
      return `\`currency\` must be an ISO 4217 code, got "${this.currency}"`;
    }
    return '';
  }

  #remainingSeconds(): number {
    return Math.max(0, Math.ceil((Date.parse(this.expiry) - this.now) / 1000));
  }

  async #draw(data: string): Promise<void> {
    try {
      const { create } = await import('qrcode');
      if (data !== this.rawData) return;
      const { modules } = create(data, { errorCorrectionLevel: 'M' });
      this.svgCode = { size: modules.size + 2 * QR_QUIET_ZONE_MODULES, d: modulesPath(modules) };
    } catch (error) {
      if (data === this.rawData) this.drawError = String((error as Error)?.message ?? error);
    }
  }

  #onStatus(status: CheckoutStatusResponse): void {
    this.note = undefined;
    if (status.status === 'SUCCEEDED') {
      this.#succeed(status.chargeId);
    } else if (status.status === 'FAILED') {
      this.outcome = 'failed';
      this.failureCode = status.failureCode ?? '';
      this.dispatchEvent(new SatangFailureEvent(status.chargeId, this.failureCode));
    }
  }

  /** The charge is paid, as its status says or a slip proved: shown and reported once. */
  #succeed(chargeId: string): void {
    if (this.outcome) return;
    this.#poller.stop();
    this.outcome = 'paid';
    this.dispatchEvent(new SatangSuccessEvent(chargeId));
  }

  /**
   * A slip picture was chosen. Its QR code is read here; only the code's text is sent, and it is
   * kept nowhere (no attribute, event or storage).
   */
  #onSlip = async (event: Event): Promise<void> => {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    // Cleared, so that choosing the same picture again is a change too.
    input.value = '';
    if (!file) return;
    this.#cancelSlip();
    const attempt = this.#slipAttempt;
    const { endpoint, chargeId, statusToken } = this;
    this.#slipStep('reading');
    const raw = await readSlipQr(file);
    if (attempt !== this.#slipAttempt) return;
    if (!raw) return this.#slipStep('unreadable');
    this.#slipStep('verifying');
    const request = (this.#slipRequest = new AbortController());
    try {
      await verifyCheckoutSlip(endpoint, chargeId, statusToken, raw, request.signal);
    } catch (error) {
      if (attempt !== this.#slipAttempt) return;
      // INVALID_REQUEST: a QR code far longer than a slip's, some other kind of code.
      const code = (error as CheckoutClientError).code;
      return this.#slipStep(code === 'SLIP_MISMATCH' || code === 'SLIP_NOT_FOUND' || code === 'INVALID_REQUEST' ? 'mismatch' : 'unavailable');
    }
    if (attempt !== this.#slipAttempt) return;
    this.#slipRequest = undefined;
    this.slip = undefined;
    this.#succeed(chargeId);
  };

  #slipStep(state: SlipState): void {
    this.slip = state;
    this.announcement = msg(resolveLocale(this.locale, this), SLIP_MESSAGES[state]);
  }

  /** Drops the slip upload under way, if any, so the picker is usable again. */
  #cancelSlip(): void {
    this.#slipAttempt += 1;
    this.#slipRequest?.abort();
    this.#slipRequest = undefined;
    if (this.slip === 'reading' || this.slip === 'verifying') this.slip = undefined;
  }

  #onError(error: CheckoutClientError): void {
    const retrying = this.#poller.running;
    const note = retrying ? 'qr.statusRetrying' : 'qr.statusUnavailable';
    if (note !== this.note) this.announcement = msg(resolveLocale(this.locale, this), note);
    this.note = note;
    if (!retrying) this.dispatchEvent(new SatangErrorEvent(error.code || error.kind, error.message));
  }

  #renew(): void {
    this.dispatchEvent(new SatangQrRenewEvent(this.chargeId));
  }

  protected override render() {
    const locale = resolveLocale(this.locale, this);
    return html`<div part="container" class="container" lang=${locale}>${this.#body(locale)}</div>
      <div class="visually-hidden" role="status" aria-live="polite">${this.announcement}</div>`;
  }

  #body(locale: Locale) {
    const state = this.state;
    if (state === 'invalid') return html`<p part="error" class="error" role="alert">${msg(locale, 'error.config', { detail: this.#problem })}</p>`;
    const amount = this.#amountText;
    if (state === 'paid') {
      return html`<div part="result" class="result paid">
        <p class="heading">${msg(locale, 'success.title')}</p>
        <p>${msg(locale, 'success.body', { amount })}</p>
      </div>`;
    }
    if (state === 'failed') {
      return html`<div part="result" class="result failed">
        <p class="heading">${msg(locale, 'failure.title')}</p>
        <p>${msg(locale, failureMessageKey(this.failureCode))}</p>
      </div>`;
    }
    const expired = state === 'expired';
    return html`<p part="title" class="title">${msg(locale, 'qr.title')}</p>
      <p part="amount" class="amount">${amount}</p>
      <div part="qr" class="qr ${state}" aria-hidden=${expired ? 'true' : nothing}>${this.#code(msg(locale, 'qr.alt', { amount }))}</div>
      ${expired
        ? html`<p part="expired" class="expired">${msg(locale, 'qr.expired')}</p>
            <button part="renew-button" class="renew" type="button" @click=${this.#renew}>${msg(locale, 'qr.new')}</button>
            ${this.#slipAction(locale)}`
        : html`<p part="instructions" class="muted">${msg(locale, 'qr.instructions', { amount })}</p>
            ${this.expiry ? html`<p part="countdown" class="muted countdown" role="timer">${msg(locale, 'qr.expiresIn', { time: clock(this.#remainingSeconds()) })}</p>` : nothing}
            ${this.image
              ? html`<a part="save" class="save" download="promptpay-qr.png" href="data:image/png;base64,${this.image}">${msg(locale, 'qr.save')}</a>`
              : nothing}
            <p part="status" class="status">${msg(locale, this.note ?? 'qr.waiting')}</p>
            ${this.#slipAction(locale)}`}`;
  }

  /** The slip upload, offered only where the charge is followed through the proxy. */
  #slipAction(locale: Locale) {
    if (!this.endpoint || !this.chargeId || !this.statusToken) return nothing;
    const slip = this.slip;
    const busy = slip === 'reading' || slip === 'verifying';
    // No `capture`: a phone offers its camera and its saved pictures (where banking apps put slips) alike.
    return html`<label part="slip-button" class="slip-button">
        <input class="visually-hidden" type="file" accept="image/*" ?disabled=${busy} aria-describedby=${slip ? 'slip-status' : nothing} @change=${this.#onSlip} />
        ${msg(locale, 'qr.slipUpload')}
      </label>
      ${slip ? html`<p part="slip-status" id="slip-status" class=${busy ? 'status' : 'error'}>${msg(locale, SLIP_MESSAGES[slip])}</p>` : nothing}`;
  }

  #code(alt: string) {
    const code = this.svgCode;
    if (code) {
      return html`<svg viewBox="0 0 ${code.size} ${code.size}" role="img" aria-label=${alt} shape-rendering="crispEdges">
        ${svg`<rect width="100%" height="100%" fill="#fff"/><path d=${code.d} fill="#000"/>`}
      </svg>`;
    }
    return this.image ? html`<img src="data:image/png;base64,${this.image}" alt=${alt} />` : nothing;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'satang-qr-payment': SatangQrPayment;
  }
}
