import { html, LitElement, nothing, svg, type PropertyValues } from 'lit';
import { errorMessage, type CheckoutClientError } from '../../client/client-error.js';
import { deviceTypeFromUserAgent } from '../../core/device.js';
import { failureMessageKey } from '../../core/failure.js';
import { formatAmount } from '../../core/money.js';
import type { CheckoutStatusResponse } from '../../core/schemas/checkout.js';
import { CountdownController } from '../controllers/countdown-controller.js';
import { LocalizeController } from '../controllers/localize-controller.js';
import { StatusPoller } from '../controllers/status-poller.js';
import { SatangErrorEvent, SatangFailureEvent, SatangSuccessEvent } from '../events.js';
import type { MessageKey } from '../i18n/localize.js';
import { outcomeMessages } from '../i18n/outcome.js';
import { ORDER_PAID_ELSEWHERE, orderVerdict, unpaidMessageKey } from '../order-outcome.js';
import { paymentMessages } from '../i18n/payment.js';
import { qrMessages } from '../i18n/qr.js';
import { SatangQrRenewEvent } from './qr-events.js';
import { drawQrCode, type QrDrawing } from './qr-code.js';
import { styles } from './satang-qr-payment.styles.js';
import { SlipUpload } from './slip-upload.js';
import { labelledQr, shopOf } from './qr-label.js';

/** Where the payment shown by `<satang-qr-payment>` stands; see {@link SatangQrPayment.state}. */
export type QrPaymentState = 'invalid' | 'loading' | 'showing' | 'expired' | 'paid' | 'failed';

/** Remaining times at which the countdown is read out to screen readers, in seconds. */
export const QR_ANNOUNCE_AT_SECONDS = [300, 120, 60, 30, 10] as const;
/** From this many seconds left, the countdown stands out (larger, in the error colour) and says so once. */
export const QR_LAST_MINUTE_SECONDS = 60;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** "mm:ss", or "h:mm:ss" from an hour up. */
function clock(seconds: number): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(seconds / 3600);
  const rest = `${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
  return h ? `${h}:${rest}` : rest;
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
 * taken then), from a quiet "Paid but the page hasn't updated?" under the code (a disclosure, closed
 * until the shopper opens it, so a new code offers the code alone): the slip's QR code is read in the browser (the platform's `BarcodeDetector`, else
 * the `qr` library's decoder, fetched as its own chunk only then) and only its text goes to the proxy
 * (`POST {endpoint}/charges/{id}/slip`). A slip of this payment is its success, as a paid QR.
 *
 * @event {SatangSuccessEvent} satang-success - The order is paid by the charge (`chargeId`; `outcome`, the merchant's
 *   server's word on it, e.g. `duplicate_refunded` when the order was paid already and this payment refunded).
 * @event {SatangFailureEvent} satang-failure - The charge failed (`chargeId`, `failureCode`), or went through without
 *   paying the order (`outcome` and `failureCode`: `repriced_refunded`, `amount_mismatch`, `refund_failed`).
 * @event {SatangErrorEvent} satang-error - The status cannot be read (e.g. the status token was refused), or the
 *   element is misconfigured (`code` `CONFIG`, as `<satang-checkout>`). The code stays shown if it can be.
 * @event {SatangQrRenewEvent} satang-qr-renew - The QR expired and the shopper asked for a new one (`chargeId`).
 *
 * @csspart container - Everything inside the element.
 * @csspart title - "Scan to pay with PromptPay": the heading, focused by `focus()`.
 * @csspart amount - The amount to pay.
 * @csspart qr - The white frame around the code (dimmed and blurred once expired).
 * @csspart instructions - How to pay: on a phone, the steps to pay from the same phone (save the image, open
 *   the banking app, scan it from the photos).
 * @csspart countdown - Time left before the code expires: muted, then in its last minute larger and in the error colour
 *   (class `urgent`), with "1 minute left" said once to screen readers.
 * @csspart save - The link that saves the QR image, labelled (the PromptPay mark, the shop the code names, the amount, until when), for paying from the same phone (a button on a phone).
 * @csspart status - "Waiting for your payment…", or why the status cannot be checked.
 * @csspart expired - The notice shown once the code has expired.
 * @csspart renew-button - The button asking for a new code.
 * @csspart slip-button - "Paid by bank transfer? Upload the slip": the file picker, styled as a button.
 * @csspart slip-status - Reading or checking the slip, or why it was not accepted.
 * @csspart result - The success or failure notice.
 * @csspart error - The notice shown when the element is misconfigured.
 *
 * @cssprop [--satang-qr-size=240px] - Width and height of the code, quiet zone included. Its frame stays white in every
 *   theme: scanners want dark modules on light.
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
    outcome: { state: true },
    failureCode: { state: true },
    note: { state: true },
    announcement: { state: true },
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
  /** th or en (`th-TH` and the like read by their language); by default the language of the page. @type {'th' | 'en' | undefined} */
  locale: string | undefined;
  /** The merchant proxy's base URL (`createCheckoutHandler`'s basePath), to follow the charge. */
  endpoint = '';
  /** The charge the code pays. */
  chargeId = '';
  /** The charge's `statusToken`. A property only: tokens stay out of attributes and the DOM. */
  statusToken = '';

  private svgCode: QrDrawing | undefined;
  private drawError = '';
  private outcome: 'paid' | 'failed' | undefined;
  private failureCode = '';
  /** What to say of a charge that went through without paying the order, instead of a failure's reason. */
  #unpaid: MessageKey | undefined;
  private note: MessageKey | undefined;
  private announcement = '';

  readonly #localize = new LocalizeController(this, paymentMessages, outcomeMessages, qrMessages);
  readonly #poller = new StatusPoller(
    this,
    (status) => this.#onStatus(status),
    (error) => this.#onError(error),
  );
  readonly #clock = new CountdownController(
    this,
    () => Date.parse(this.expiry),
    () => this.state === 'showing' || this.state === 'loading',
  );
  #problem = '';
  #reported = '';
  #amountText = '';
  /** The labelled picture to save, once drawn, for the image and words it was drawn with (`key`). */
  #saved: { key: string; url: string | undefined } | undefined;
  #lastState: QrPaymentState | undefined;
  #crossed = 0;
  readonly #slip = new SlipUpload(
    this,
    this.#localize,
    (text) => (this.announcement = text),
    (chargeId, outcome) => this.#succeed(chargeId, outcome),
  );

  /**
   * Where the payment stands: `invalid` (misconfigured; a message is shown), `loading` (the code is
   * being drawn and there is no PNG), `showing`, `expired`, `paid` or `failed`.
   */
  get state(): QrPaymentState {
    if (this.#problem) return 'invalid';
    if (this.outcome) return this.outcome;
    if (this.#clock.leftMs <= 0) return 'expired';
    return this.svgCode || this.image ? 'showing' : 'loading';
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('rawData')) {
      this.svgCode = undefined;
      this.drawError = '';
    }
    if (changed.has('chargeId')) {
      this.outcome = this.#unpaid = undefined;
      this.note = undefined;
      this.#slip.reset();
    }
    if (changed.has('expiry')) this.#clock.reset();
    this.#problem = this.#check();

    const state = this.state;
    const remaining = this.#remainingSeconds();
    const crossed = QR_ANNOUNCE_AT_SECONDS.filter((s) => remaining <= s).length;
    if (state !== this.#lastState) {
      const key = state === 'expired' ? 'qr.expired' : state === 'paid' ? 'success.title' : state === 'failed' ? 'failure.title' : undefined;
      if (key) this.announcement = this.#localize.msg(key);
      this.#lastState = state;
    } else if (crossed > this.#crossed && !changed.has('expiry')) {
      const lastMinute = QR_ANNOUNCE_AT_SECONDS[crossed - 1] === QR_LAST_MINUTE_SECONDS;
      this.announcement = lastMinute ? this.#localize.msg('qr.lastMinute') : this.#localize.msg('qr.expiresIn', { time: clock(remaining) });
    }
    this.#crossed = crossed;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('rawData') && this.rawData) void this.#draw(this.rawData);
    this.#label();
    if (changed.has('endpoint') || changed.has('chargeId') || changed.has('statusToken')) {
      if (this.endpoint && this.chargeId && this.statusToken && !this.outcome) this.#poller.start(this.endpoint, this.chargeId, this.statusToken);
      else this.#poller.stop();
    }

    if (this.#problem !== this.#reported) {
      this.#reported = this.#problem;
      if (this.#problem) {
        console.error(`<satang-qr-payment>: ${this.#problem}`);
        this.dispatchEvent(new SatangErrorEvent('CONFIG', this.#problem));
      }
    }
  }

  /**
   * Labels the picture "Save QR image" downloads (`qr-label.ts`): the PromptPay mark, the shop, the
   * amount and until when, in the language shown; drawn again when any of them changes. Until it
   * is drawn (or where it cannot be), the bare PNG is saved.
   */
  #label(): void {
    const l = this.#localize;
    const { image, rawData, expiry } = this;
    if (!image || this.#problem) return;
    const until = expiry ? new Date(expiry).toLocaleString(l.locale === 'th' ? 'th-TH' : 'en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }) : '';
    const label = { mark: 'PromptPay', amount: this.#amountText, expiry: until ? l.msg('qr.saveExpiry', { time: until }) : undefined };
    const key = JSON.stringify([image.length, image.slice(-32), rawData, label]);
    if (this.#saved?.key === key) return;
    this.#saved = { key, url: undefined };
    void labelledQr(image, shopOf(rawData), label).then((url) => {
      if (this.#saved?.key !== key || !url) return;
      this.#saved = { key, url };
      this.requestUpdate();
    });
  }

  /** What is wrong with the configuration, for developers; empty when nothing is. */
  #check(): string {
    const { amount, image } = this;
    if (image && !BASE64.test(image)) return '`image` must be base64 PNG data';
    if (!this.rawData && !image) return 'set `raw-data` (the QR payload) or `image` (its PNG)';
    if (this.drawError && !image) return `the QR code could not be drawn (${this.drawError})`;
    if (this.expiry && Number.isNaN(Date.parse(this.expiry))) return `\`expiry\` must be an ISO 8601 time, got "${this.expiry}"`;
    if (amount === undefined || !Number.isSafeInteger(amount) || amount < 0) return `\`amount\` must be a whole number of satang, got "${amount}"`;
    try {
      this.#amountText = formatAmount(amount, this.currency);
    } catch {
      return `\`currency\` must be an ISO 4217 code, got "${this.currency}"`;
    }
    return '';
  }

  #remainingSeconds(): number {
    return Math.max(0, Math.ceil(this.#clock.leftMs / 1000));
  }

  async #draw(data: string): Promise<void> {
    try {
      const drawing = await drawQrCode(data);
      if (data === this.rawData) this.svgCode = drawing;
    } catch (error) {
      if (data === this.rawData) this.drawError = errorMessage(error);
    }
  }

  #onStatus(status: CheckoutStatusResponse): void {
    this.note = undefined;
    if (status.status === 'PENDING' && status.order === 'paid') {
      // The order was paid another way meanwhile: this code need not be paid (paid anyway, it is refunded).
      this.#poller.stop();
      this.outcome = 'failed';
      this.#unpaid = 'qr.paidElsewhere';
      this.failureCode = ORDER_PAID_ELSEWHERE;
      this.dispatchEvent(new SatangFailureEvent(status.chargeId, ORDER_PAID_ELSEWHERE, ORDER_PAID_ELSEWHERE));
      return;
    }
    const verdict = status.status === 'PENDING' ? undefined : orderVerdict(status);
    if (verdict === 'paid') {
      this.#succeed(status.chargeId, status.outcome);
    } else if (verdict) {
      // A charge that went through without paying the order reads as a failure, whose code is that outcome.
      this.outcome = 'failed';
      this.#unpaid = unpaidMessageKey(verdict);
      this.failureCode = (this.#unpaid ? status.outcome : status.failureCode) ?? '';
      this.dispatchEvent(new SatangFailureEvent(status.chargeId, this.failureCode, this.#unpaid && status.outcome));
    }
  }

  /** The charge is paid, as its status says or a slip proved: shown and reported once. */
  #succeed(chargeId: string, orderOutcome?: string): void {
    if (this.outcome) return;
    this.#poller.stop();
    this.outcome = 'paid';
    this.dispatchEvent(new SatangSuccessEvent(chargeId, orderOutcome));
  }

  #onError(error: CheckoutClientError): void {
    const retrying = this.#poller.running;
    const note = retrying ? 'qr.statusRetrying' : 'qr.statusUnavailable';
    if (note !== this.note) this.announcement = this.#localize.msg(note);
    this.note = note;
    if (!retrying) this.dispatchEvent(new SatangErrorEvent(error.code || error.kind, error.message));
  }

  #renew(): void {
    this.dispatchEvent(new SatangQrRenewEvent(this.chargeId));
  }

  /** Moves focus to the heading, so a keyboard or screen reader starts at the code just shown. */
  override focus(options?: FocusOptions): void {
    this.renderRoot.querySelector<HTMLElement>('.title')?.focus(options);
  }

  /** A phone cannot scan its own screen: the shopper saves the image and scans it from the banking app. */
  get #onPhone(): boolean {
    return deviceTypeFromUserAgent(navigator.userAgent, navigator.maxTouchPoints) !== 'WEB';
  }

  protected override render() {
    return html`<div part="container" class="container" lang=${this.#localize.locale}>${this.#body()}</div>
      <div class="visually-hidden" role="status" aria-live="polite">${this.announcement}</div>`;
  }

  #body() {
    const l = this.#localize;
    const state = this.state;
    if (state === 'invalid') return html`<p part="error" class="error" role="alert">${l.msg('error.config', { detail: this.#problem })}</p>`;
    const amount = this.#amountText;
    if (state === 'paid') {
      return html`<div part="result" class="result paid">
        <p class="heading">${l.msg('success.title')}</p>
        <p>${l.msg('success.body', { amount })}</p>
      </div>`;
    }
    if (state === 'failed') {
      // Paid another way: the order is paid, and this code is not to be paid; not a failure to the shopper.
      const elsewhere = this.failureCode === ORDER_PAID_ELSEWHERE;
      return html`<div part="result" class="result ${elsewhere ? 'paid' : 'failed'}">
        <p class="heading">${l.msg(elsewhere ? 'outcome.duplicateTitle' : 'failure.title')}</p>
        <p>${l.msg(this.#unpaid ?? failureMessageKey(this.failureCode))}</p>
      </div>`;
    }
    const expired = state === 'expired';
    const phone = this.#onPhone;
    const save = this.image
      ? html`<a part="save" class="save ${phone ? 'button' : ''}" download="promptpay-qr.png" href=${this.#saved?.url ?? `data:image/png;base64,${this.image}`}>${l.msg('qr.save')}</a>`
      : nothing;
    return html`<h2 part="title" class="title" tabindex="-1">${l.msg('qr.title')}</h2>
      <p part="amount" class="amount">${amount}</p>
      <div part="qr" class="qr ${state}" aria-hidden=${expired ? 'true' : nothing}>${this.#code(l.msg('qr.alt', { amount }))}</div>
      ${expired
        ? html`<p part="expired" class="expired">${l.msg('qr.expired')}</p>
            <button part="renew-button" class="renew" type="button" @click=${this.#renew}>${l.msg('qr.new')}</button>
            ${this.#slip.view()}`
        : html`${phone
              ? html`<div part="instructions" class="steps">
                  <p class="heading">${l.msg('qr.phoneTitle')}</p>
                  <p>${l.msg('qr.phoneSave')}</p>
                  ${save}
                  <p>${l.msg('qr.phoneOpen')}</p>
                  <p>${l.msg('qr.phoneConfirm', { amount })}</p>
                  <p class="muted">${l.msg('qr.otherDevice')}</p>
                </div>`
              : html`<p part="instructions" class="muted">${l.msg('qr.instructions', { amount })}</p>`}
            ${this.expiry ? this.#countdown(this.#remainingSeconds()) : nothing}
            ${phone ? nothing : save}
            <p part="status" class="status">${l.msg(this.note ?? 'qr.waiting')}</p>
            ${this.#slip.view()}`}`;
  }

  /** The time left; in the last minute larger and in the error colour (said once, by the announcement). */
  #countdown(remaining: number) {
    const urgent = remaining <= QR_LAST_MINUTE_SECONDS;
    return html`<p part="countdown" class="countdown ${urgent ? 'urgent' : 'muted'}" role="timer">${this.#localize.msg('qr.expiresIn', { time: clock(remaining) })}</p>`;
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
