import { nothing, type ReactiveController, type TemplateResult } from 'lit';
import { hasSavedAttempt, resumeBeforeFirstRender } from '../../client/attempt-key.js';
import { asClientError } from '../../client/client-error.js';
import type { DeviceType } from '../../core/schemas/payment-method.js';
import type { LocalizeController } from '../controllers/localize-controller.js';
import { SatangErrorEvent } from '../events.js';
import type { MessageKey } from '../i18n/localize.js';
import { afterPaint, lazyModule, prefetch } from '../lazy.js';
import { configProblem } from './checkout-config.js';
import { transition } from './payment-machine.js';
import type { ChargeOptions, Payment, PaymentChange, PaymentHost, PaymentNow, PaymentState, PaymentSteps } from './payment-state.js';

/** The code after the press (`pay-path.ts`), fetched once and shared by every checkout on the page. */
type PayPath = typeof import('./pay-path.js');
type PaymentFlow = import('./payment-flow.js').PaymentFlow;
const payPath = lazyModule<PayPath>(() => import('./pay-path.js'));


/**
 * The payment of `<satang-checkout>`: its state, the press of pay, and an attempt picked up again
 * when the shopper reloads, comes back from a redirect or goes Back to the page (from the tab's
 * `sessionStorage`, see `attempt-store.ts`). The state is private, read through {@link now} and
 * changed by {@link move} alone, through the pure {@link transition} of `payment-machine.ts`, loaded
 * with it. Everything after the charge is asked for (the redirect, QR code or status wait it
 * answers with, and the outcome) is the flow in the code fetched once the form shows
 * (`payment-flow.ts`), so the first render does not wait for it.
 */
export class CheckoutPayment implements ReactiveController, Payment {
  #now: PaymentNow = { state: 'idle' };
  #announced = 0;
  /** The code after the press, once loaded: the flow, the outcome and the QR code are its views. */
  #code: PayPath | undefined;
  #flow: PaymentFlow | undefined;
  #syncing: Promise<void> | undefined;

  constructor(
    readonly host: PaymentHost,
    readonly localize: LocalizeController,
    readonly steps: PaymentSteps,
  ) {
    host.addController(this);
  }

  /** The payment as it is now: replaced whole by each move, never changed in place (its fields are read-only). */
  get now(): PaymentNow {
    return this.#now;
  }

  /**
   * While the order's state is being asked of the server (with an `order-token`): a press of pay
   * waits for it, so no payment starts for an order that is paid or being paid.
   */
  get syncing(): Promise<void> | undefined {
    return this.#syncing;
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
    this.#flow?.disconnect();
  }

  /** Back to a page kept whole in the back-forward cache: what was left open is asked again, as on a reload. */
  #onPageShow = (event: PageTransitionEvent): void => {
    if (!event.persisted) return;
    if (this.#now.state === 'redirecting' && this.move('waiting', { charge: undefined })) this.#resume(true);
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
    const syncing = this.#run((flow) => flow.sync()).finally(() => {
      if (this.#syncing === syncing) this.#syncing = undefined;
    });
    if (orderToken) this.#syncing = syncing;
  }

  /**
   * Picks up the attempt this tab kept for the order: a QR code shows again with the time it has
   * left, a redirect or a charge being checked is followed to its outcome, a paid one shows as
   * paid ("checking your payment" meanwhile). Looked for before the first render when the page
   * may well hold one (see `resumeBeforeFirstRender`), else just after the first frame.
   */
  #resume(again = false): void {
    const { orderReference, isConnected } = this.host;
    if (!isConnected || (!again && this.#now.state !== 'idle') || this.#now.charge || !orderReference || !hasSavedAttempt(orderReference) || configProblem(this.host)) return;
    if (this.move('waiting', { resumed: true })) void this.#run((flow) => flow.resume());
  }

  /** Fetches the code after the press while the shopper fills the form, so pressing pay does not wait for it. */
  prepare(): void {
    afterPaint(() => prefetch(payPath));
  }

  /** The details changed: the next press is a new attempt, with a new idempotency key. */
  newAttempt(): void {
    if (this.#now.attemptKey) this.move(this.#now.state, { attemptKey: undefined });
  }

  /** The shopper typed: the notice over the form has been read, and goes. */
  clearNotice(): void {
    if (this.#now.notice !== undefined || this.#now.declined !== undefined) this.move(this.#now.state, { notice: undefined, declined: undefined });
  }

  /** The QR code shown expired and the shopper asked for a new one: a new attempt, ready to pay. */
  renew(): void {
    this.newAttempt();
    this.move('idle');
  }

  /**
   * Starts (or retries) a payment attempt with the chosen method; the checkout has checked that it
   * is idle and the details valid. `options` come from a conflict's view, asking again. Nothing is
   * sent while one is, nor when the payment may not move to `submitting` (the order is shown paid, say).
   */
  async pay(deviceType: DeviceType, options?: ChargeOptions): Promise<void> {
    if (this.#now.state === 'submitting' || !this.move('submitting', { notice: undefined, declined: undefined })) return;
    this.announce(this.localize.msg('pay.processing'));
    try {
      const [method, code] = await Promise.all([this.steps.chosen(), payPath()]);
      const flow = this.#loaded(code);
      if (method === null || typeof method === 'string') {
        if (this.move('idle', { notice: method ?? undefined }) && method) void this.focusNotice();
        return;
      }
      await flow.charge(method, deviceType, options);
    } catch (error) {
      // The words for the error's code come with the payment code: wait for it (it is usually here).
      const code = await payPath().catch(() => undefined);
      if (code) this.#loaded(code);
      this.problem(error);
    }
  }

  async #run(step: (flow: PaymentFlow) => unknown): Promise<void> {
    try {
      await step(this.#loaded(await payPath()));
    } catch (error) {
      this.problem(error);
    }
  }

  #loaded(code: PayPath): PaymentFlow {
    code.adoptPaymentStyles(this.host);
    this.#code = code;
    return (this.#flow ??= code.flowOf(this));
  }

  /**
   * The one way the payment changes: to `state`, with what the step changes besides (`change`),
   * if {@link transition} allows it; refused, nothing changes, and the answer is false, on which
   * the caller does nothing of what would have followed the move.
   */
  move(state: PaymentState, change?: PaymentChange): boolean {
    const next = transition(this.#now, state, change);
    if (!next) return false;
    this.#now = next;
    this.host.requestUpdate();
    return true;
  }

  announce(text: string): void {
    // Every other announcement ends in a no-break space, so the same words said twice are read again.
    this.move(this.#now.state, { announcement: text + (++this.#announced % 2 ? '' : '\u00a0') });
  }

  async focusNotice(): Promise<void> {
    await this.host.updateComplete;
    this.host.shadowRoot?.querySelector<HTMLElement>('.message[tabindex]')?.focus();
  }

  problem(error: unknown, key?: MessageKey): void {
    const e = asClientError(error);
    // A refused attempt will not succeed as it is: the next press is a new attempt.
    if (!e.retryable) this.forget();
    // The notice is an alert, and takes focus.
    if (!this.move('idle', { retryable: e.retryable, notice: key ?? e })) return;
    void this.focusNotice();
    this.host.dispatchEvent(new SatangErrorEvent(e.code || e.kind.toUpperCase(), e.message));
  }

  forget(): void {
    this.newAttempt();
    this.steps.forgetToken();
  }

  /** Whether the notice is news, not an error (a payment left that may still be paid): announced once, politely, never as an alert too. */
  get noticeIsInfo(): boolean {
    return typeof this.#now.notice === 'function' && this.#now.declined === undefined;
  }

  /** The notice in words, if there is one: a decline with its heading, in the words of the method paid with. */
  get noticeText(): TemplateResult | string | undefined {
    const { notice, declined } = this.#now;
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
    return this.#flow && this.#code ? this.#code.paymentView(this.#flow, renewQr) : nothing;
  }
}
