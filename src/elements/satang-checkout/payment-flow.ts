/**
 * The flow of a payment of `<satang-checkout>` after the press, in one place: it sends the charge,
 * hears its answer, follows its status, asks the order's state, hears the other tabs, and leaves a
 * payment for another method. What to do next is decided by the pure steps (`payment-steps.ts`);
 * the flow makes each step's move through the payment's one writer and runs the step's effects
 * only when the move was made. Part of the code fetched after the form shows (`pay-path.ts`).
 */
import { html } from 'lit';
import { RETURN_PARAM } from '../../client/attempt-key.js';
import { abandonAttempt, abandonedCharge, clearAttempt, loadAttempt, saveAttempt, wasAbandoned } from '../../client/attempt-store.js';
import { createCheckoutCharge, getCheckoutStatus, getOrderState } from '../../client/checkout-api.js';
import { asClientError, CheckoutClientError } from '../../client/client-error.js';
import type { CheckoutChargeRequest, CheckoutChargeResponse } from '../../core/schemas/checkout.js';
import type { DeviceType } from '../../core/schemas/payment-method.js';
import { deviceTypeFromUserAgent } from '../../core/device.js';
import { SatangAbandonEvent } from '../checkout-events.js';
import { StatusPoller } from '../controllers/status-poller.js';
import { SatangErrorEvent, SatangSubmitEvent } from '../events.js';
import { returnUrlOf } from './checkout-config.js';
import { rememberLeft, tellLeftPayments } from './left-payments.js';
import { listenToPage, listenToTabs, stopListening, tellTabs } from './order-tabs.js';
import { CHECKING_AFTER_MS, holdHeight } from './payment-layout.js';
import { isSettled } from './payment-machine.js';
import type { ChargeOptions, Notice, Payment, PaymentMethod } from './payment-state.js';
import { answered, expired, heardStatus, heardTab, orderState, ORDER_CREATING_RETRY_MS, outcome, paidElsewhere, qrShown, refused, resumed, statusFailed, waiting, type Effect, type Outcome, type Step } from './payment-steps.js';
import { loadQrElement } from './promptpay-panel.js';
import { methodWords } from './provider-names.js';

/** The flow of each payment, made when its code arrives. */
const flows = new WeakMap<Payment, PaymentFlow>();

/** The flow of `payment` (one per payment). */
export function flowOf(payment: Payment): PaymentFlow {
  let flow = flows.get(payment);
  if (!flow) flows.set(payment, (flow = new PaymentFlow(payment)));
  return flow;
}

export class PaymentFlow {
  /** Follows the charge; made for the first charge to follow. */
  #poller: StatusPoller | undefined;
  /** How many times in a row the server said another tab or device is creating the order's payment. */
  #creatingAsked = 0;

  constructor(readonly payment: Payment) {}

  /** Makes `step`'s move and, only if it was made, runs its effects; answers whether it was made. */
  go(step: Step | undefined): boolean {
    if (!step || !this.payment.move(step.to, step.change)) return false;
    for (const effect of step.effects ?? []) this.#run(effect);
    return true;
  }

  #run(effect: Effect): void {
    const { payment } = this;
    const { host, steps } = payment;
    switch (effect.do) {
      case 'stop': return this.#poller?.stop();
      case 'forget': return payment.forget();
      case 'clear': return clearAttempt(host.orderReference);
      case 'save': return saveAttempt(host.orderReference, effect.attempt);
      case 'tell': return tellTabs(payment, effect.message);
      case 'event': return void host.dispatchEvent(effect.event);
      case 'focus': return void this.#focusOn(effect.selector);
      case 'follow': return this.#follow(effect.chargeId, effect.statusToken);
      case 'qr': return this.#showQr();
      case 'clearSecurityCode': return steps.clearSecurityCode();
      case 'focusMethod': return void steps.focusMethod(effect.type);
      case 'focusNotice': return void payment.focusNotice();
      case 'keepLeft': return rememberLeft(payment, effect.charge);
      case 'tellLeft': return void tellLeftPayments(payment, effect.paidBy);
      case 'announce': return payment.announce(payment.localize.msg(effect.key));
      case 'navigate': return steps.navigate(effect.url);
      case 'holdHeight': return holdHeight(payment, true);
      case 'slowAfter': return void setTimeout(() => this.#slow(effect.charge), CHECKING_AFTER_MS);
      case 'syncSoon': return void setTimeout(() => payment.sync(), ORDER_CREATING_RETRY_MS);
      case 'problem': return payment.problem(effect.error);
    }
  }

  get #order() {
    const { orderReference, amount, currency } = this.payment.host;
    return { orderReference, amount, currency };
  }

  /**
   * Asks the merchant's server to charge the chosen method, then goes where its answer says. The
   * request carries the amount shown, which the server charges only if it is still the order's.
   * Sent only while the payment is being submitted: should the order have been shown paid while
   * the card was tokenized (another tab paid it), nothing is sent.
   */
  async charge(method: PaymentMethod, deviceType: DeviceType, options: ChargeOptions = {}): Promise<void> {
    const { payment } = this;
    const { host } = payment;
    const attemptKey = payment.now.attemptKey ?? crypto.randomUUID();
    if (payment.now.state !== 'submitting' || !payment.move('submitting', { attemptKey })) {
      payment.forget();
      return;
    }
    host.dispatchEvent(new SatangSubmitEvent(method.type));
    // No payment starts while the configuration is wrong, a bad return-url included.
    const returnUrl = returnUrlOf(host);
    if (!returnUrl) throw new CheckoutClientError('config', 'return-url is not an http(s) URL', 'CONFIG', false);
    // The page the shopper comes back to sees at once that there may be a payment to pick up.
    returnUrl.searchParams.set(RETURN_PARAM, '1');
    const body: CheckoutChargeRequest = { orderReference: host.orderReference, paymentMethod: method, returnUrl: returnUrl.href, deviceType, intent: host.intent };
    // Without an amount (none set, or the shopper asked for the new total) the server charges nothing and answers its own.
    if (Number.isSafeInteger(host.amount) && !options.askTotal) Object.assign(body, { amount: host.amount, currency: host.currency });
    // This tab's own earlier payment still open (a QR that expired, a redirect refused or left): the
    // shopper moved on from it, so it is abandoned rather than resumed or reported as elsewhere.
    // Or one the shopper left for another method, in this page or before a reload.
    const { charge: before, replaceNext } = payment.now;
    if (options.replace || before || replaceNext || wasAbandoned(host.orderReference)) body.replace = true;
    let charge;
    for (let sent = 1; ; sent += 1) {
      try {
        charge = await createCheckoutCharge(host.endpoint, body, attemptKey, host.orderToken);
        break;
      } catch (error) {
        const step = refused(payment.now, error, this.#order);
        if (step) return void this.go(step);
        // Unanswered, the charge may have been made all the same: sent again once, under the same
        // key (one charge however often it is sent), when the order says a payment is under way or
        // paid, so this tab shows its payment rather than an offer to pay again.
        if (sent > 1 || !(await this.#mayHaveCharged(error))) throw error;
      }
    }
    this.go(answered(payment.now, charge, method));
  }

  /** After a charge request that went unanswered: whether the order reads paid or paying now (its order token allowing). */
  async #mayHaveCharged(error: unknown): Promise<boolean> {
    const { host, now } = this.payment;
    if (!asClientError(error).retryable || !host.orderToken || now.state !== 'submitting') return false;
    try {
      const { state } = await getOrderState(host.endpoint, host.orderReference, host.orderToken);
      return state === 'paid' || state === 'paying';
    } catch {
      return false;
    }
  }

  /** Still "Processing…" at the deadline: the wait is called slow, with its way out. */
  #slow(charge: CheckoutChargeResponse): void {
    const { now } = this.payment;
    if (now.state === 'submitting' && now.charge === charge) this.go(waiting());
  }

  /** Shows the charge's QR code once its element is here, and moves focus to it (not when the order was shown paid meanwhile). */
  #showQr(): void {
    loadQrElement().then(
      () => void this.go(qrShown(this.payment.now)),
      (error: unknown) => this.payment.problem(error),
    );
  }

  async #focusOn(selector: string): Promise<void> {
    const { host } = this.payment;
    await host.updateComplete;
    // Only where focus was in the checkout, or lost with the view it was in: never taken from where the page put it.
    const active = document.activeElement;
    if (active && active !== document.body && active !== host) return;
    host.shadowRoot?.querySelector<HTMLElement>(selector)?.focus();
  }

  /** Long-polls the charge's status until it is final. */
  #follow(chargeId: string, statusToken: string): void {
    const { payment } = this;
    this.#poller ??= new StatusPoller(
      payment.host,
      (status) => void this.go(heardStatus(payment.now, status, this.#order)),
      (error) => void this.go(statusFailed(payment.now, error)),
    );
    this.#poller.start(payment.host.endpoint, chargeId, statusToken);
  }

  /**
   * Picks up the attempt saved in this tab (a reload, Back, the return from a redirect): the QR
   * code again, with the time it has left (expired, it offers a new one, and is still followed: it
   * may have been paid just before), or the charge followed to its outcome.
   */
  resume(): void {
    forgetReturnMark();
    this.go(resumed(this.payment.now, loadAttempt(this.payment.host.orderReference)));
  }

  /**
   * Asks the server where the order stands and shows it; listens to the other tabs of the order
   * first. Without an order token only the tabs are heard. A refused token is the page's set-up
   * (`satang-error`, and the console): the checkout goes on with what this tab kept.
   */
  async sync(): Promise<void> {
    const { payment } = this;
    const { host } = payment;
    // Removed while the payment code loaded: nothing to listen for (and nobody to stop listening).
    if (!host.isConnected) return;
    listenToTabs(payment, (message) => {
      // With a token the server is asked; without, only "paid" is taken.
      if (host.orderToken) payment.sync();
      else this.go(heardTab(payment.now, message, this.#order));
    });
    // Back on the page, or online again: the server is asked (with a token), since another device
    // may have paid; not while this tab's own charge request is on its way (its answer tells).
    listenToPage(payment, () => {
      if (host.orderToken && payment.now.state !== 'submitting') payment.sync();
    });
    forgetReturnMark();
    if (!host.orderToken || isSettled(payment.now)) return;
    let answer;
    try {
      answer = await getOrderState(host.endpoint, host.orderReference, host.orderToken);
    } catch (error) {
      const e = asClientError(error);
      if (e.kind === 'rejected') {
        console.error(`<satang-checkout>: the order token was refused (${e.code}): ${e.message}`);
        host.dispatchEvent(new SatangErrorEvent(e.code, e.message));
      }
      // Unanswered: what this tab kept stands, and the server still refuses to charge a paid order.
      return;
    }
    const creating = answer.state === 'paying' && !answer.payment;
    const saved = loadAttempt(host.orderReference);
    const tab = { ...this.#order, savedChargeId: saved?.chargeId, saved, abandonedChargeId: abandonedCharge(host.orderReference), creatingAsked: this.#creatingAsked };
    this.#creatingAsked = creating ? this.#creatingAsked + 1 : 0;
    this.go(orderState(payment.now, answer, tab));
  }

  /** Stops listening to the other tabs of the order (the checkout left the page). */
  disconnect(): void {
    stopListening(this.payment);
  }

  /** The QR element told the payment's outcome: the checkout's own, told once. */
  qrOutcome(told: Outcome): void {
    this.go(outcome(this.payment.now, told));
  }

  /** The QR element heard that the order was paid by another payment. */
  qrPaidElsewhere(): void {
    this.go(paidElsewhere(this.payment.now, this.#order));
  }

  /** The QR element's status token expired. */
  qrExpired(): void {
    this.go(expired(this.payment.now));
  }

  /**
   * The shopper leaves the QR code or the wait for another method. The server is asked first: the
   * payment may have gone through meanwhile, and then that is what the shopper sees. Still open, it
   * is abandoned: no longer followed or resumed, and the next charge replaces it (`replace: true`),
   * which moves the order's lock on. Paid anyway later, it is refunded when another payment paid the
   * order, and otherwise pays it (the next attempt is then told the order is paid): never both. The
   * form says so, visibly, and a QR code left is not chosen again.
   */
  async abandon(): Promise<void> {
    const { payment } = this;
    const { host } = payment;
    const charge = payment.now.charge;
    if (!charge || payment.now.leaving || !payment.move(payment.now.state, { leaving: true })) return;
    try {
      const status = await getCheckoutStatus(host.endpoint, charge.chargeId, charge.statusToken, 0);
      if (payment.now.charge !== charge) return;
      if (status.status !== 'PENDING' || status.order === 'paid') {
        this.go(heardStatus(payment.now, status, this.#order));
        return;
      }
    } catch {
      // Not answered: the shopper still leaves, and the notice says the payment may yet arrive.
    } finally {
      payment.move(payment.now.state, { leaving: false });
    }
    if (payment.now.charge !== charge) return;
    const qr = payment.now.state === 'qr' ? charge.encodedImage : undefined;
    if (!payment.move('idle', { replaceNext: true, resumed: false, charge: undefined })) return;
    this.#poller?.stop();
    abandonAttempt(host.orderReference, charge.chargeId);
    rememberLeft(payment, charge);
    payment.forget();
    // Another method is chosen first (which clears the notice over the form), then the notice is set.
    await payment.steps.focusMethod(payment.now.method, Boolean(qr));
    const l = payment.localize;
    // In words at each render, in the language of the moment; not an error, so not drawn as one.
    const words = () => {
      const method = methodWords(l, payment.now.method);
      if (qr) return l.msg('left.qr', { time: new Date(qr.expiry).toLocaleTimeString(l.locale === 'th' ? 'th-TH' : 'en-GB', { hour: '2-digit', minute: '2-digit' }) });
      return method ? l.msg('left.payment', { method }) : l.msg('left.paymentAny');
    };
    const notice: Notice = () => html`<span class="info">${words()}</span>`;
    if (!payment.move(payment.now.state, { notice })) return;
    payment.announce(words());
    tellTabs(payment, { state: 'open', chargeId: charge.chargeId });
    host.dispatchEvent(new SatangAbandonEvent(charge.chargeId));
  }

  /** After a failed payment or a refusal the shopper can act on, back to the form as it was; a listener of the views' buttons. */
  again = (): void => {
    if (this.payment.move('idle', { charge: undefined, notice: undefined, declined: undefined })) void this.payment.steps.focusMethod();
  };

  /**
   * Asks again from a conflict's or an outcome's view: a new attempt, sent as `options` say. The
   * form has not changed since it was last sent (it is hidden meanwhile), so it needs no new check.
   */
  resend(options: ChargeOptions): void {
    const { payment } = this;
    payment.forget();
    if (!payment.move('idle', { conflict: undefined })) return;
    void payment.pay(deviceTypeFromUserAgent(navigator.userAgent, navigator.maxTouchPoints), options);
  }
}

/**
 * Takes the mark of a return ({@link RETURN_PARAM}) out of the address once the payment is picked
 * up: it served its purpose, and a shopper who copies or shares the address should not carry it.
 */
function forgetReturnMark(): void {
  const url = new URL(location.href);
  if (!url.searchParams.has(RETURN_PARAM)) return;
  url.searchParams.delete(RETURN_PARAM);
  history.replaceState(history.state, '', url);
}
