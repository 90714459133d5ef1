import { nothing, type ReactiveController, type TemplateResult } from 'lit';
import { hasSavedAttempt, resumeBeforeFirstRender } from '../../client/attempt-key.js';
import { asClientError } from '../../client/client-error.js';
import type { CheckoutChargeResponse } from '../../core/schemas/checkout.js';
import type { DeviceType } from '../../core/schemas/payment-method.js';
import type { LocalizeController } from '../controllers/localize-controller.js';
import type { StatusPoller } from '../controllers/status-poller.js';
import { SatangErrorEvent } from '../events.js';
import type { MessageKey } from '../i18n/localize.js';
import { afterPaint, lazyModule, prefetch } from '../lazy.js';
import { configProblem } from './checkout-config.js';
import type { ChargeConflict, ChargeOptions, Declined, Notice, Payment, PaymentChange, PaymentHost, PaymentState, PaymentSteps } from './payment-state.js';

/** The code after the press (`pay-path.ts`), fetched once and shared by every checkout on the page. */
type PayPath = typeof import('./pay-path.js');
const payPath = lazyModule<PayPath>(() => import('./pay-path.js'));


/**
 * The payment of `<satang-checkout>`: its state, the press of pay, and an attempt picked up again
 * when the shopper reloads, comes back from a redirect or goes Back to the page (from the tab's
 * `sessionStorage`, see `attempt-store.ts`). Everything after the charge is asked for (the
 * redirect, QR code or status wait it answers with, and the outcome) is in the code fetched once
 * the form shows (`charge-steps.ts`), so the first render does not wait for it.
 */
export class CheckoutPayment implements ReactiveController, Payment {
  state: PaymentState = 'idle';
  /** The message over the form; a newly chosen method clears it. */
  notice: Notice | undefined;
  /** Whether the notice is about a failure after which the same attempt may be sent again. */
  retryable = false;
  attemptKey: string | undefined;
  method: string | undefined;
  leaving = false;
  replaceNext = false;
  resumed = false;
  declined: Declined | undefined;
  charge: CheckoutChargeResponse | undefined;
  failureCode = '';
  poller: StatusPoller | undefined;
  conflict: ChargeConflict | undefined;
  outcome: string | undefined;
  /** What the live region says now: only what is true of the current step (a new step clears it). */
  announcement = '';
  #announced = 0;
  /** The code after the press, once loaded: the outcome and the QR code are its views. */
  #code: PayPath | undefined;
  /**
   * While the order's state is being asked of the server (with an `order-token`): a press of pay
   * waits for it, so no payment starts for an order that is paid or being paid.
   */
  syncing: Promise<void> | undefined;
  /** Stops listening to the other tabs of this order; set while listening. */
  unwatch: (() => void) | undefined;

  constructor(
    readonly host: PaymentHost,
    readonly localize: LocalizeController,
    readonly steps: PaymentSteps,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    if (resumeBeforeFirstRender()) this.#resume();
    else afterPaint(() => this.#resume());
    // The server's word on the order comes after the first frame: the form never waits for it.
    afterPaint(() => this.sync());
    addEventListener('pageshow', this.#onPageShow);
  }

  hostDisconnected(): void {
    removeEventListener('pageshow', this.#onPageShow);
    this.unwatch?.();
    this.unwatch = undefined;
  }

  /** Back to a page kept whole in the back-forward cache: what was left open is asked again, as on a reload. */
  #onPageShow = (event: PageTransitionEvent): void => {
    if (!event.persisted) return;
    if (this.state === 'redirecting') {
      this.charge = undefined;
      this.show('waiting');
      this.#resume(true);
    }
    this.sync();
  };

  /**
   * Asks the merchant's server where the order stands (with an `order-token`), and listens to the
   * other tabs of the order: a paid order shows paid, a payment under way is picked up. Called
   * when the checkout starts, when it comes back from the back-forward cache, and when another
   * tab says the order changed. Nothing without a token or an order reference.
   */
  sync(): void {
    const { orderReference, orderToken, isConnected } = this.host;
    if (!isConnected || !orderReference || configProblem(this.host)) return;
    const syncing = this.#run((code) => code.syncOrder(this)).finally(() => {
      if (this.syncing === syncing) this.syncing = undefined;
    });
    if (orderToken) this.syncing = syncing;
  }

  /**
   * Picks up the attempt this tab kept for the order: a QR code shows again with the time it has
   * left, a redirect or a charge being checked is followed to its outcome, a paid one shows as
   * paid ("checking your payment" meanwhile). Looked for before the first render when the page
   * may well hold one (see `resumeBeforeFirstRender`), else just after the first frame.
   */
  #resume(again = false): void {
    const { orderReference, isConnected } = this.host;
    if (!isConnected || (!again && this.state !== 'idle') || this.charge || !orderReference || !hasSavedAttempt(orderReference) || configProblem(this.host)) return;
    this.resumed = true;
    this.show('waiting');
    void this.#run((code) => code.resume(this));
  }

  /** Fetches the code after the press while the shopper fills the form, so pressing pay does not wait for it. */
  prepare(): void {
    afterPaint(() => prefetch(payPath));
  }

  /** The details changed: the next press is a new attempt, with a new idempotency key. */
  newAttempt(): void {
    this.attemptKey = undefined;
  }


  /** The shopper typed: the notice over the form has been read, and goes. */
  clearNotice(): void {
    if (this.notice === undefined && this.declined === undefined) return;
    this.notice = this.declined = undefined;
    this.host.requestUpdate();
  }

  /** The QR code shown expired and the shopper asked for a new one: a new attempt, ready to pay. */
  renew(): void {
    this.newAttempt();
    this.show('idle');
  }

  /**
   * Starts (or retries) a payment attempt with the chosen method; the checkout has checked that it
   * is idle and the details valid. `options` come from a conflict's view, asking again.
   */
  async pay(deviceType: DeviceType, options?: ChargeOptions): Promise<void> {
    this.notice = this.declined = undefined;
    this.show('submitting');
    this.announce(this.localize.msg('pay.processing'));
    try {
      const [method, code] = await Promise.all([this.steps.chosen(), payPath()]);
      this.#loaded(code);
      if (method === null || typeof method === 'string') {
        this.notice = method ?? undefined;
        this.show('idle');
        if (method) void this.focusNotice();
        return;
      }
      await code.charge(this, method, deviceType, options);
    } catch (error) {
      // The words for the error's code come with the payment code: wait for it (it is usually here).
      const code = await payPath().catch(() => undefined);
      if (code) this.#loaded(code);
      this.problem(error);
    }
  }

  async #run(step: (code: PayPath) => unknown): Promise<void> {
    try {
      const code = await payPath();
      this.#loaded(code);
      await step(code);
    } catch (error) {
      this.problem(error);
    }
  }

  #loaded(code: PayPath): void {
    code.adoptPaymentStyles(this.host);
    this.#code = code;
  }

  /**
   * The one way the payment's state changes, with what the step changes besides (`change`),
   * checked against the moves table (`payment-moves.ts`, which comes with the payment code): a move
   * the table does not allow, or any move out of an order shown paid, is refused (false), and then
   * nothing changes. A new step clears what the live region said of the last one.
   */
  show(state: PaymentState, change?: PaymentChange): boolean {
    if (this.#code && !this.#code.mayMove(this, state, change)) return false;
    if (this.state !== state) this.announcement = '';
    Object.assign(this, change);
    this.state = state;
    this.host.requestUpdate();
    return true;
  }

  announce(text: string): void {
    // Every other announcement ends in a no-break space, so the same words said twice are read again.
    this.announcement = text + (++this.#announced % 2 ? '' : '\u00a0');
    this.host.requestUpdate();
  }

  async focusNotice(): Promise<void> {
    await this.host.updateComplete;
    this.host.shadowRoot?.querySelector<HTMLElement>('.message[tabindex]')?.focus();
  }

  problem(error: unknown, key?: MessageKey): void {
    const e = asClientError(error);
    this.retryable = e.retryable;
    // A refused attempt will not succeed as it is: the next press is a new attempt.
    if (!e.retryable) this.forget();
    this.notice = key ?? e;
    // The notice is an alert, and takes focus.
    if (!this.show('idle')) return;
    void this.focusNotice();
    this.host.dispatchEvent(new SatangErrorEvent(e.code || e.kind.toUpperCase(), e.message));
  }

  forget(): void {
    this.attemptKey = undefined;
    this.steps.forgetToken();
  }

  again = (): void => {
    if (!this.show('idle')) return;
    this.charge = this.notice = this.declined = undefined;
    void this.steps.focusMethod();
  };

  /** The notice in words, if there is one: a decline with its heading, in the words of the method paid with. */
  get noticeText(): TemplateResult | string | undefined {
    const { notice, declined } = this;
    if (declined) return this.#code?.declineView(this.localize, declined);
    if (!notice) return undefined;
    if (typeof notice === 'string') return this.localize.msg(notice);
    if (typeof notice === 'function') return notice();
    // Without the payment code (which has the words for every error code) its fetch failed: the network.
    return this.#code?.problemText(this.localize, notice) ?? this.localize.msg(notice.kind === 'config' ? 'error.config' : 'error.network', { detail: notice.message });
  }

  /**
   * What is happening to the payment, above the form (or instead of it); drawn by the payment
   * code, which is fetched before any payment starts. `renewQr` hears the shopper ask for a new QR
   * code once the shown one expired.
   */
  view(renewQr: () => void): TemplateResult | typeof nothing {
    // Nothing while a saved payment's code is fetched, to pick it up.
    return this.#code?.paymentView(this, renewQr) ?? nothing;
  }
}
