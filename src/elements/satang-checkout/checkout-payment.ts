import { html, nothing, type ReactiveController, type TemplateResult } from 'lit';
import { loadAttempt } from '../../client/attempt-store.js';
import { asClientError, type CheckoutClientError } from '../../client/client-error.js';
import type { CheckoutChargeResponse } from '../../core/schemas/checkout.js';
import type { DeviceType } from '../../core/schemas/payment-method.js';
import type { LocalizeController } from '../controllers/localize-controller.js';
import type { StatusPoller } from '../controllers/status-poller.js';
import { SatangErrorEvent } from '../events.js';
import type { MessageKey } from '../i18n/localize.js';
import { afterPaint, lazyModule, prefetch } from '../lazy.js';
import { configError } from './checkout-config.js';
import type { ChargeConflict, ChargeOptions, Payment, PaymentHost, PaymentState, PaymentSteps } from './payment-state.js';

/** The code after the press (`pay-path.ts`), fetched once and shared by every checkout on the page. */
type PayPath = typeof import('./pay-path.js');
const payPath = lazyModule<PayPath>(() => import('./pay-path.js'));

/**
 * The message over the pay button: what is missing (a key of our words), or the failure that is
 * not the payment's, put in words at each render (so in the language of the moment).
 */
type Notice = MessageKey | CheckoutClientError;

/** Our words for a failure that is not the payment's, by its kind. */
const PROBLEM_KEYS: Record<CheckoutClientError['kind'], MessageKey> = {
  network: 'error.network',
  server: 'error.server',
  config: 'error.config',
  rejected: 'failure.generic', // not shown: the shop's server's own words are
  aborted: 'failure.generic',
};

/**
 * The payment of `<satang-checkout>`: its state, the press of pay, and an attempt resumed when the
 * shopper comes back from a redirect. Everything after the charge is asked for (the redirect, QR
 * code or status wait it answers with, and the outcome) is in the code fetched once the form
 * shows (`charge-steps.ts`), so the first render does not wait for it.
 */
export class CheckoutPayment implements ReactiveController, Payment {
  state: PaymentState = 'idle';
  /** The message over the pay button; a newly chosen method clears it. */
  notice: Notice | undefined;
  /** Whether the notice is about a failure after which the same attempt may be sent again. */
  retryable = false;
  attemptKey: string | undefined;
  charge: CheckoutChargeResponse | undefined;
  failureCode = '';
  poller: StatusPoller | undefined;
  conflict: ChargeConflict | undefined;
  outcome: string | undefined;
  /** The code after the press, once loaded: the outcome and the QR code are its views. */
  #code: PayPath | undefined;

  constructor(
    readonly host: PaymentHost,
    readonly localize: LocalizeController,
    readonly steps: PaymentSteps,
  ) {
    host.addController(this);
  }

  /** Back from a 3-D Secure, wallet or bank page: picks the attempt up where it left off. */
  hostConnected(): void {
    const { orderReference } = this.host;
    const saved = orderReference ? loadAttempt(orderReference) : undefined;
    if (!saved || configError(this.host)) return;
    this.charge = { chargeId: saved.chargeId, statusToken: saved.statusToken, actionRequired: 'REDIRECT' };
    this.show('waiting');
    void this.#follow(saved.chargeId, saved.statusToken);
  }

  /** Fetches the code after the press while the shopper fills the form, so pressing pay does not wait for it. */
  prepare(): void {
    afterPaint(() => prefetch(payPath));
  }

  /** The details changed: the next press is a new attempt, with a new idempotency key. */
  newAttempt(): void {
    this.attemptKey = undefined;
  }

  /** The QR code shown expired and the shopper asked for a new one: a new attempt, ready to pay. */
  renew(): void {
    this.newAttempt();
    this.state = 'idle';
  }

  /**
   * Starts (or retries) a payment attempt with the chosen method; the checkout has checked that it
   * is idle and the details valid. `options` come from a conflict's view, asking again.
   */
  async pay(deviceType: DeviceType, options?: ChargeOptions): Promise<void> {
    this.notice = undefined;
    this.show('submitting');
    try {
      const [method, code] = await Promise.all([this.steps.chosen(), payPath()]);
      this.#code = code;
      if (method === null || typeof method === 'string') {
        this.notice = method ?? undefined;
        this.show('idle');
        return;
      }
      await code.charge(this, method, deviceType, options);
    } catch (error) {
      this.problem(error);
    }
  }

  async #follow(chargeId: string, statusToken: string): Promise<void> {
    try {
      (this.#code = await payPath()).follow(this, chargeId, statusToken);
    } catch (error) {
      this.problem(error);
    }
  }

  show(state: PaymentState): void {
    this.state = state;
    this.host.requestUpdate();
  }

  problem(error: unknown, key?: MessageKey): void {
    const e = asClientError(error);
    this.retryable = e.retryable;
    // A refused attempt will not succeed as it is: the next press is a new attempt.
    if (!e.retryable) this.forget();
    this.notice = key ?? e;
    this.show('idle');
    this.host.dispatchEvent(new SatangErrorEvent(e.code || e.kind.toUpperCase(), e.message));
  }

  forget(): void {
    this.attemptKey = undefined;
    this.steps.forgetToken();
  }

  again = (): void => {
    this.charge = this.notice = undefined;
    this.show('idle');
  };

  /** The notice in words, if there is one. */
  get noticeText(): string | undefined {
    const notice = this.notice;
    if (!notice) return undefined;
    if (typeof notice === 'string') return this.localize.msg(notice);
    return notice.kind === 'rejected' ? notice.message : this.localize.msg(PROBLEM_KEYS[notice.kind], { detail: notice.message });
  }

  /**
   * What is happening to the payment, above the form (or instead of it). `renewQr` hears the
   * shopper ask for a new QR code once the shown one expired.
   */
  view(renewQr: () => void): TemplateResult | typeof nothing {
    const { state } = this;
    if (state === 'waiting' || state === 'redirecting') {
      return html`<p part="message" class="progress" role="status">${this.localize.msg(state === 'waiting' ? 'status.checking' : 'redirecting')}</p>`;
    }
    // An outcome or a QR code needs a charge, made (or followed) by the code after the press.
    return this.#code?.paymentView(this, renewQr) ?? nothing;
  }
}
