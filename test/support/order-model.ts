import fc from 'fast-check';
import { expect, vi } from 'vitest';
import { SERVICE_HEADERS } from '../../src/core/constants.js';
import { Sandbox } from '../../src/sandbox/index.js';
import { CheckoutRecords } from '../../src/server/checkout/checkout-records.js';
import { createCheckoutHandler, type CheckoutHandler, type CheckoutStore, type OrderEvent } from '../../src/server/index.js';
import { BASE, SERVICE, SHOP, WEBHOOK_KEY } from './checkout-harness.js';
import { ORIGIN, SandboxClient } from './sandbox-client.js';
import { seededRandom } from './seeded-random.js';

/**
 * A model of one order paid through the checkout handler, for property tests: one sandbox in
 * process, one order (`cart-1`, `order-1`), one or two handler instances sharing one store, and a
 * generated sequence of what shoppers, the payment service, the network and the shop's servers
 * do, some of it at the same moment. After the sequence everything in the air lands (held webhooks,
 * retries, refunds), every payment a tab holds is read once more (the shopper's tab coming back),
 * and the order is checked against the service's own records: see {@link checkInvariants}.
 *
 * The events:
 * - `pay`: a shopper's tab starts a payment through an instance: a card that succeeds at once, a
 *   3-D Secure card that waits for its OTP, or a PromptPay QR that waits to be paid; with
 *   `replace` ("pay here instead") or not; with `lose`, the service makes the charge but its
 *   answer never reaches the instance (every try of that idempotency key), so the tab gets a 503.
 *   A 409 (in progress, already paid, total changed) or a 404 (the order no longer for sale) is a
 *   fine answer.
 * - `retry`: a tab whose answer was lost (and not found again since) sends the same request with
 *   the same idempotency key, through an instance of its choice.
 * - `approve`: a payment a tab was shown is approved at the service: its OTP entered on the bank's
 *   page, its QR paid on the PromptPay payer page; or declined.
 * - `webhooks`: the webhooks the service sent and that are held back arrive now: in order, newest
 *   first (out of order), or only the newest; at one instance or at both at once; once or twice.
 * - `route`: from now on webhooks are delivered live (the service retries them on a non-2xx) to
 *   one instance, or held back.
 * - `status`: a tab reads its payment's status (`GET /charges/:id/status`, with its status token).
 * - `state`: a tab reads the order's state (`GET /orders/:ref/state`, with the order token); a
 *   payment it is shown there is one more the shopper can approve and read.
 * - `restart`: an instance restarts. With the in-memory store the store lives in the process, so
 *   the restart is of the process holding it: every instance starts afresh on a new, empty store.
 *   On Redis one instance starts again on the same Redis. Requests in flight finish on the old
 *   handler (their writes to a discarded in-memory store are lost).
 * - `reprice`: the shop changes the order's price.
 *
 * With the authorize intent (a pre-order) the same events reserve the amount instead: each card
 * and 3-D Secure payment is a card authorization (a QR code is paid by card instead), a lost
 * answer one the service made, and the invariants hold of the order's authorizations: exactly one
 * stands (AUTHORIZED) when the order reads paid, and every other is cancelled.
 *
 * Indexes (`tab`, `payment`, `via`, `to`, `instance`) are taken modulo what exists when the event
 * starts, so every generated sequence means something and shrinks to small numbers. A seed per
 * scenario (`jitter`) spreads the calls to the service and the store over turns of the event loop,
 * so events started together interleave in many ways.
 */

export const PRICE = 24_500;
const PRICES = [24_500, 30_000, 12_345] as const;
export const ORDER_REFERENCE = 'cart-1';
export const REFERENCE_ID = 'order-1';
const CARDS = { card: '4111111111111111', '3ds': '4953261730509988' } as const;
const OTP = '123456';

export type Method = 'card' | '3ds' | 'qr';
export type Delivery = 'in-order' | 'newest-first' | 'newest-only';

export type ModelEvent =
  | { type: 'pay'; via: number; method: Method; replace: boolean; lose: boolean }
  | { type: 'retry'; tab: number; via: number }
  | { type: 'approve'; payment: number; succeed: boolean }
  | { type: 'webhooks'; delivery: Delivery; to: number | 'both'; twice: boolean }
  | { type: 'route'; live: boolean; to: number }
  | { type: 'status'; payment: number; via: number }
  | { type: 'state'; via: number }
  | { type: 'restart'; instance: number }
  | { type: 'reprice'; price: number };

/** One event, and whether it starts together with the event before it (at the same moment). */
export interface ModelStep {
  event: ModelEvent;
  together: boolean;
}

export interface Scenario {
  /** How many handler instances share the store. */
  instances: 1 | 2;
  /** `authorize`: the order is a pre-order, its payments card authorizations; absent: charges. */
  intent?: 'authorize';
  /**
   * Whether the shop's `resolveOrder` answers null once `onOrder` told it the order is paid (as
   * docs/server.md asks of a shop whose store may forget, and as the demo does), or keeps offering
   * the order at its price.
   */
  soldOutWhenPaid: boolean;
  /**
   * Whether that shop, once told the order is paid, answers `{ paidBy }` (the payment `order.paid`
   * named) instead of null: docs/server.md asks that of a shop whose store may forget.
   */
  namesPayer?: boolean;
  /** How webhooks go at the start: live to one instance, or held back. */
  webhooks: { live: boolean; to: number };
  /**
   * Seeds how long each call to the service, each webhook delivery and each store call waits
   * (none, or one or two turns of the event loop), so events run together interleave differently.
   */
  jitter: number;
  steps: ModelStep[];
}

/** Where the model's handlers keep their records. */
export interface ModelBackend {
  name: string;
  /** A store for one instance: a new, empty in-memory store; or one more store object on the run's Redis prefix. */
  openStore(): CheckoutStore;
  /** Whether a restart loses what the store held (the in-memory store, which lives in the process) or not (Redis). */
  restartLosesStore: boolean;
}

// ───────────────────────────── generated scenarios ─────────────────────────────

const instance = fc.nat({ max: 1 });
const sometimes = (weight: number) => fc.oneof({ weight: 100 - weight, arbitrary: fc.constant(false) }, { weight, arbitrary: fc.constant(true) });

export const modelEvent: fc.Arbitrary<ModelEvent> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({ type: fc.constant('pay' as const), via: instance, method: fc.constantFrom<Method>('card', '3ds', 'qr'), replace: sometimes(50), lose: sometimes(25) }),
  },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('retry' as const), tab: fc.nat(7), via: instance }) },
  { weight: 6, arbitrary: fc.record({ type: fc.constant('approve' as const), payment: fc.nat(7), succeed: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant('webhooks' as const),
      delivery: fc.constantFrom<Delivery>('in-order', 'newest-first', 'newest-only'),
      to: fc.oneof(instance, fc.constant('both' as const)),
      twice: sometimes(30),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('route' as const), live: fc.boolean(), to: instance }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('status' as const), payment: fc.nat(7), via: instance }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('state' as const), via: instance }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('restart' as const), instance }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('reprice' as const), price: fc.constantFrom(...PRICES.slice(1)) }) },
);

/**
 * Scenarios of 3 to `maxEvents` events, each started together with the one before about one time
 * in three. With `forgetfulStore` (the in-memory store, which a restart empties) a scenario with a
 * restart has a shop whose `resolveOrder` names the payment that paid the order once it is paid:
 * docs/server.md asks that of such a shop, since after a restart nothing else tells which payment
 * the shop was told of (a shop that keeps offering a paid order is paid twice, and one that
 * answers null may see the service's first success kept instead, both as documented).
 */
export function scenarios({ maxEvents = 10, forgetfulStore = false, events = modelEvent }: { maxEvents?: number; forgetfulStore?: boolean; events?: fc.Arbitrary<ModelEvent> } = {}): fc.Arbitrary<Scenario> {
  return fc
    .record({
      instances: fc.constantFrom(1 as const, 2 as const),
      intent: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constant('authorize' as const) }),
      soldOutWhenPaid: fc.boolean(),
      namesPayer: fc.boolean(),
      webhooks: fc.record({ live: fc.boolean(), to: instance }),
      jitter: fc.nat(),
      steps: fc.array(fc.record({ event: events, together: sometimes(30) }), { minLength: Math.min(3, maxEvents), maxLength: maxEvents }),
    })
    .map(({ intent, ...scenario }) => ({ ...scenario, ...(intent ? { intent } : {}) }))
    .map((scenario) => (forgetfulStore && scenario.steps.some((s) => s.event.type === 'restart') ? { ...scenario, soldOutWhenPaid: true, namesPayer: true } : scenario));
}

// ───────────────────────────── the world of one run ─────────────────────────────

interface Tab {
  n: number;
  /** The widget's idempotency key of the attempt. */
  key: string;
  method: Method;
  body: Record<string, unknown>;
  via: number;
  /** Its first answer was lost (503 after the service made the charge). */
  lost: boolean;
  /** The payment it was answered, once it was. */
  chargeId?: string;
}

/** A payment a shopper holds a status token for, and how to approve it. */
interface HeldPayment {
  chargeId: string;
  statusToken: string;
  redirectUrl?: string;
  rawData?: string;
}

interface HeldWebhook {
  event: string;
  signature: string;
  body: string;
}

interface Answer {
  status: number;
  body: any;
  text: string;
}

/** One payment of the order at the service, a charge or a card authorization (see `paymentsOfOrder`). */
export interface OrderPayment {
  chargeId: string;
  type: string;
  status: string;
  amount: number;
  currency: string;
  succeeded: boolean;
  kept: number;
}

interface Told {
  instance: string;
  event: OrderEvent;
}

/** The shop's own database: it outlives any restart of the checkout's processes. */
interface ShopDatabase {
  price: number;
  /** The charge `onOrder` said paid the order. */
  paid: string | undefined;
}

/**
 * One run of the model: the sandbox, the shop's handler instances (named A1, B2…: the instance and
 * its start), what the shoppers' tabs hold, what `onOrder` heard, and a trace for the report.
 */
export class OrderModelRun {
  readonly sandbox: Sandbox;
  readonly service: SandboxClient;
  readonly db: ShopDatabase = { price: PRICE, paid: undefined };
  readonly handlers: CheckoutHandler[] = [];
  /** Each instance's store; with the in-memory store, the one store all instances share. */
  readonly stores: CheckoutStore[] = [];
  readonly told: Told[] = [];
  readonly tabs: Tab[] = [];
  readonly payments = new Map<string, HeldPayment>();
  readonly held: HeldWebhook[] = [];
  /** What status reads answered a tab: the outcome it was shown for a payment. */
  readonly shown: { chargeId: string; outcome: string }[] = [];
  /** The charge the service made for each attempt (the widget's idempotency key), answered or not. */
  readonly made = new Map<string, string>();
  /** The service's idempotency keys whose answers the network loses. */
  readonly losing = new Set<string>();
  /** The service's charges as they stood at each restart that lost the store. */
  readonly lostStores: Set<string>[] = [];
  /** Answers no shopper or service should ever get. */
  readonly problems: string[] = [];
  readonly trace: string[] = [];
  route: { live: boolean; to: number };
  readonly #random: () => number;
  #starts = 0;
  #tabCount = 0;

  constructor(
    readonly scenario: Scenario,
    readonly backend: ModelBackend,
  ) {
    this.route = { ...scenario.webhooks, to: scenario.webhooks.to % scenario.instances };
    this.#random = seededRandom(scenario.jitter);
    this.sandbox = new Sandbox({
      refundSettleDelayMs: 0,
      webhook: {
        url: `${BASE}/webhooks`,
        webhookKeyBase64: WEBHOOK_KEY,
        // The service retries a delivery answered non-2xx; quickly here, and long enough for any
        // webhook that another instance holds in hand.
        retryBaseDelayMs: 5,
        maxRetryDelayMs: 50,
        maxAttempts: 60,
        fetch: (input, init) => this.#fromService(new Request(input, init)),
      },
    });
    this.service = new SandboxClient(this.sandbox);
    if (backend.restartLosesStore) {
      const store = this.#openStore();
      for (let i = 0; i < scenario.instances; i += 1) this.#start(i, store);
    } else {
      for (let i = 0; i < scenario.instances; i += 1) this.#start(i, this.#openStore());
    }
  }

  /** Waits none, one or two turns of the event loop, as the seed says. */
  async jitter(): Promise<void> {
    for (let turns = Math.floor(this.#random() * 3); turns > 0; turns -= 1) await new Promise((resolve) => setImmediate(resolve));
  }

  #openStore(): CheckoutStore {
    return jittery(this.backend.openStore(), () => this.jitter());
  }

  /** Whether the shop answers null for the order now. */
  get soldOut(): boolean {
    return this.scenario.soldOutWhenPaid && this.db.paid !== undefined;
  }

  #start(i: number, store: CheckoutStore): void {
    this.#starts += 1;
    const name = `${String.fromCharCode(65 + i)}${this.#starts}`;
    this.stores[i] = store;
    this.handlers[i] = createCheckoutHandler({
      service: { ...SERVICE, fetch: (request) => this.#toService(request), retryBaseDelayMs: 1 },
      store,
      resolveOrder: (reference) => {
        if (reference !== ORDER_REFERENCE) return null;
        if (!this.soldOut) return { amount: this.db.price, currency: 'THB', referenceId: REFERENCE_ID, ...(this.scenario.intent ? { intent: this.scenario.intent } : {}) };
        return this.scenario.namesPayer === true && this.db.paid !== undefined ? { paidBy: this.db.paid } : null;
      },
      basePath: '/api/checkout',
      publicUrl: SHOP,
      webhookKeyBase64: WEBHOOK_KEY,
      rateLimit: false,
      onOrder: (event) => {
        this.told.push({ instance: name, event });
        if (event.type === 'order.paid' || event.type === 'order.authorized') this.db.paid ??= event.chargeId;
      },
      log: (entry) => {
        if (entry.status >= 500 && entry.error !== undefined) this.trace.push(`  log ${name} ${entry.method} ${entry.path} ${entry.status} ${entry.error instanceof Error ? entry.error.message : JSON.stringify(entry.error)}`);
      },
    });
  }

  handler(via: number): CheckoutHandler {
    return this.handlers[via % this.handlers.length]!;
  }

  /** The instance's fetch of the service: the network loses the answers of the keys in `losing`. */
  async #toService(request: Request): Promise<Response> {
    const key = request.headers.get(SERVICE_HEADERS.idempotencyKey);
    const path = new URL(request.url).pathname;
    const charging = request.method === 'POST' && (path === '/api/v1/charges' || path === '/api/v1/card-authorizations') && key !== null;
    await this.jitter();
    const response = await this.sandbox.fetch(request);
    if (charging && response.status === 201) {
      const made = (await response.clone().json()) as { chargeId?: string; cardAuthorizationId?: string };
      this.made.set(key.replace(/^checkout-/, ''), made.chargeId ?? made.cardAuthorizationId ?? '');
    }
    await this.jitter();
    if (!charging || !this.losing.has(key)) return response;
    await response.arrayBuffer();
    throw new TypeError('fetch failed: the connection was reset');
  }

  /** A webhook the service sends: held back, or delivered to the instance webhooks go to now. */
  async #fromService(request: Request): Promise<Response> {
    const held: HeldWebhook = { event: request.headers.get(SERVICE_HEADERS.event) ?? '', signature: request.headers.get(SERVICE_HEADERS.signature) ?? '', body: await request.text() };
    if (!this.route.live) {
      this.held.push(held);
      return new Response(null, { status: 204 });
    }
    const answer = await this.#deliver(held, this.route.to);
    if (answer.status !== 200 && answer.status !== 503) this.problems.push(`live webhook ${held.event}: ${answer.status} ${answer.text}`);
    return new Response(answer.text, { status: answer.status });
  }

  async #deliver(webhook: HeldWebhook, to: number): Promise<Answer> {
    await this.jitter();
    const response = await this.handler(to)(
      new Request(`${BASE}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SERVICE_HEADERS.event]: webhook.event, [SERVICE_HEADERS.signature]: webhook.signature },
        body: webhook.body,
      }),
    );
    return answerOf(response);
  }

  /** A held webhook delivered now; one answered 503 (try again later) is held again, as the service sends it again. */
  async deliverHeld(webhook: HeldWebhook, to: number | 'both'): Promise<void> {
    const answers = await Promise.all((to === 'both' ? [0, 1] : [to]).map((i) => this.#deliver(webhook, i)));
    if (answers.every((a) => a.status === 503)) this.held.push(webhook);
    for (const answer of answers) if (answer.status !== 200 && answer.status !== 503) this.problems.push(`webhook ${webhook.event}: ${answer.status} ${answer.text}`);
  }

  async call(via: number, method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
    const handler = this.handler(via);
    const headers: Record<string, string> = { ...init.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (method === 'POST' && path === '/charges') headers['X-Satang-Order-Token'] = await handler.orderToken(ORDER_REFERENCE);
    const response = await handler(new Request(`${BASE}${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) }));
    return answerOf(response);
  }

  // ─────────────── the events ───────────────

  async run(event: ModelEvent): Promise<void> {
    switch (event.type) {
      case 'pay':
        return this.pay(event);
      case 'retry': {
        const lost = this.tabs.filter((t) => t.lost && t.chargeId === undefined);
        const tab = pick(lost, event.tab);
        if (tab) await this.send(tab, event.via, false);
        return;
      }
      case 'approve': {
        const approvable = [...this.payments.values()].filter((p) => p.redirectUrl !== undefined || p.rawData !== undefined);
        const payment = pick(approvable, event.payment);
        if (payment) await this.approve(payment, event.succeed);
        return;
      }
      case 'webhooks': {
        const now = event.delivery === 'newest-only' ? this.held.splice(-1) : this.held.splice(0);
        if (event.delivery === 'newest-first') now.reverse();
        const to = event.to === 'both' ? (this.scenario.instances === 2 ? 'both' : 0) : event.to % this.scenario.instances;
        for (const webhook of now) {
          await this.deliverHeld(webhook, to);
          if (event.twice) await this.deliverHeld(webhook, to);
        }
        this.trace.push(`  delivered ${now.map((w) => w.event).join(', ') || 'nothing'}`);
        return;
      }
      case 'route':
        this.route = { live: event.live, to: event.to % this.scenario.instances };
        return;
      case 'status': {
        const payment = pick([...this.payments.values()], event.payment);
        if (payment) await this.status(payment, event.via);
        return;
      }
      case 'state':
        await this.state(event.via);
        return;
      case 'restart':
        this.restart(event.instance % this.scenario.instances);
        return;
      case 'reprice':
        this.db.price = event.price;
        return;
    }
  }

  async pay(event: Extract<ModelEvent, { type: 'pay' }>): Promise<void> {
    const n = (this.#tabCount += 1);
    // A pre-order is reserved on a card: a QR code is paid by card instead.
    const method = this.scenario.intent === 'authorize' && event.method === 'qr' ? 'card' : event.method;
    const paymentMethod = method === 'qr' ? { type: 'QR_PROMPT_PAY' } : { type: 'CARD_TOKEN', cardTokenId: await this.service.tokenize(CARDS[method]), securityCode: '123' };
    const body = {
      orderReference: ORDER_REFERENCE,
      amount: this.db.price,
      currency: 'THB',
      paymentMethod,
      ...(this.scenario.intent ? { intent: this.scenario.intent } : {}),
      ...(method === '3ds' ? { returnUrl: `${SHOP}/return` } : {}),
      ...(event.replace ? { replace: true } : {}),
    };
    const tab: Tab = { n, key: `tab-${n}`, method, body, via: event.via, lost: false };
    this.tabs.push(tab);
    await this.send(tab, event.via, event.lose);
  }

  async send(tab: Tab, via: number, lose: boolean): Promise<void> {
    const serviceKey = `checkout-${tab.key}`;
    if (lose) this.losing.add(serviceKey);
    let answer: Answer;
    try {
      answer = await this.call(via, 'POST', '/charges', { body: tab.body, headers: { 'Idempotency-Key': tab.key } });
    } finally {
      if (lose) this.losing.delete(serviceKey);
    }
    this.trace.push(`  tab ${tab.n} (${tab.method}${lose ? ', answer lost' : ''}) via ${via}: ${answer.status} ${answer.body?.chargeId ?? answer.body?.error?.errorCode ?? ''}`);
    count(`pay ${tab.method}${lose ? ' lost' : ''}: ${answer.status} ${answer.body?.error?.errorCode ?? ''}`);
    if (answer.status === 201) {
      tab.chargeId = answer.body.chargeId;
      this.hold({ chargeId: answer.body.chargeId, statusToken: answer.body.statusToken, redirectUrl: answer.body.redirect?.redirectUrl, rawData: answer.body.encodedImage?.rawData });
      return;
    }
    const code = answer.body?.error?.errorCode;
    if (answer.status === 409 && ['PAYMENT_IN_PROGRESS', 'ORDER_ALREADY_PAID', 'AMOUNT_CHANGED'].includes(code)) return;
    if (answer.status === 404 && code === 'ORDER_NOT_FOUND' && this.scenario.soldOutWhenPaid) return;
    // The charge was made, its answer lost on the way back: the tab is told to try again.
    if (lose && answer.status === 503 && answer.body?.error?.retryable === true) {
      tab.lost = true;
      return;
    }
    this.problems.push(`POST /charges of tab ${tab.n}: ${answer.status} ${answer.text}`);
  }

  hold(payment: HeldPayment): void {
    const known = this.payments.get(payment.chargeId);
    const redirectUrl = payment.redirectUrl ?? known?.redirectUrl;
    const rawData = payment.rawData ?? known?.rawData;
    this.payments.set(payment.chargeId, { chargeId: payment.chargeId, statusToken: payment.statusToken, ...(redirectUrl ? { redirectUrl } : {}), ...(rawData ? { rawData } : {}) });
  }

  async approve(payment: HeldPayment, succeed: boolean): Promise<void> {
    if (payment.redirectUrl !== undefined) await this.service.submitPage(payment.redirectUrl, succeed ? { otp: OTP } : { otp: '000000' });
    else if (payment.rawData !== undefined) await this.service.submitPage(`${ORIGIN}/sandbox/pages/promptpay`, { rawData: payment.rawData, outcome: succeed ? 'succeed' : 'fail' });
    this.trace.push(`  ${succeed ? 'approved' : 'declined'} ${payment.chargeId}: ${this.paymentsOfOrder().find((p) => p.chargeId === payment.chargeId)?.status ?? '?'}`);
  }

  async status(payment: HeldPayment, via: number): Promise<void> {
    const answer = await this.call(via, 'GET', `/charges/${payment.chargeId}/status`, { headers: { 'X-Satang-Status-Token': payment.statusToken } });
    this.trace.push(`  status of ${payment.chargeId} via ${via}: ${answer.status} ${answer.body?.status ?? ''} ${answer.body?.outcome ?? ''}`);
    if (answer.status !== 200) {
      this.problems.push(`status of ${payment.chargeId}: ${answer.status} ${answer.text}`);
      return;
    }
    if (answer.body.status === 'SUCCEEDED') {
      if (typeof answer.body.outcome !== 'string') this.problems.push(`status of ${payment.chargeId}: SUCCEEDED without its outcome: ${answer.text}`);
      else this.shown.push({ chargeId: payment.chargeId, outcome: answer.body.outcome });
    }
  }

  async state(via: number, traced = true): Promise<any> {
    const handler = this.handler(via);
    const answer = await this.call(via, 'GET', `/orders/${ORDER_REFERENCE}/state`, { headers: { 'X-Satang-Order-Token': await handler.orderToken(ORDER_REFERENCE) } });
    if (traced) this.trace.push(`  state via ${via}: ${answer.status} ${answer.body?.state ?? answer.text} ${answer.body?.paidBy ?? answer.body?.payment?.chargeId ?? ''}`);
    if (answer.status !== 200) {
      this.problems.push(`order state: ${answer.status} ${answer.text}`);
      return undefined;
    }
    const payment = answer.body.payment;
    if (payment?.statusToken) this.hold({ chargeId: payment.chargeId, statusToken: payment.statusToken, redirectUrl: payment.redirect?.redirectUrl, rawData: payment.encodedImage?.rawData });
    return answer.body;
  }

  restart(i: number): void {
    if (this.backend.restartLosesStore) {
      this.lostStores.push(new Set(this.paymentsOfOrder().map((c) => c.chargeId)));
      const store = this.#openStore();
      for (let j = 0; j < this.scenario.instances; j += 1) this.#start(j, store);
    } else {
      this.#start(i, this.#openStore());
    }
  }

  // ─────────────── the end of a run ───────────────

  chargesOfOrder() {
    return [...this.sandbox.store.charges.values()].map((r) => r.charge).filter((c) => c.referenceId === REFERENCE_ID);
  }

  /**
   * The order's payments at the service, charges and card authorizations alike: whether each went
   * through (an authorization: was authorized, cancelled since or not) and what of it the shop keeps.
   */
  paymentsOfOrder(): OrderPayment[] {
    const charges = this.chargesOfOrder().map((c) => ({
      chargeId: c.chargeId,
      type: c.paymentMethod.paymentMethodType,
      status: c.status,
      amount: c.amount,
      currency: c.currency,
      succeeded: c.status === 'SUCCEEDED',
      kept: c.status === 'SUCCEEDED' ? c.amount - this.refunded(c.chargeId, c.currency) : 0,
    }));
    const authorizations = [...this.sandbox.authorizations.records.values()]
      .map((r) => r.authorization)
      .filter((a) => a.referenceId === REFERENCE_ID)
      .map((a) => ({
        chargeId: a.cardAuthorizationId,
        type: 'AUTHORIZATION',
        status: a.status,
        amount: a.amount,
        currency: a.currency,
        succeeded: Boolean(a.authorizedAt),
        kept: a.status === 'AUTHORIZED' ? a.amount : 0,
      }));
    return [...charges, ...authorizations];
  }

  /** What the service refunded of a charge, in its currency. */
  refunded(chargeId: string, currency: string): number {
    return [...this.sandbox.store.refunds.values()]
      .map((r) => r.refund)
      .filter((r) => r.chargeId === chargeId && r.status === 'SUCCEEDED' && r.currency === currency)
      .reduce((sum, r) => sum + r.amount, 0);
  }

  /** Until nothing is in the air: held webhooks delivered (in order, to the first instance), the service's retries over, refunds settled. */
  async land(): Promise<void> {
    await vi.waitFor(
      async () => {
        await this.sandbox.webhooks.idle();
        for (const webhook of this.held.splice(0)) await this.deliverHeld(webhook, 0);
        await this.sandbox.webhooks.idle();
        expect([...this.sandbox.store.refunds.values()].filter((r) => r.refund.status === 'PENDING').map((r) => r.refund.refundId)).toEqual([]);
        expect(this.held.map((w) => w.event)).toEqual([]);
      },
      { timeout: 10_000, interval: 5 },
    );
  }

  /** The scenario's events, each group of events started together run at once. */
  async play(): Promise<void> {
    const groups: ModelEvent[][] = [];
    for (const step of this.scenario.steps) {
      const last = groups.at(-1);
      if (step.together && last) last.push(step.event);
      else groups.push([step.event]);
    }
    for (const events of groups) {
      this.trace.push(events.map((e) => JSON.stringify(e)).join(' | '));
      await Promise.all(events.map((e) => this.run(e)));
    }
  }

  /** The end of a run: what is in the air lands, each tab whose answer was lost tries once more, and every tab reads its payment. */
  async finish(): Promise<void> {
    this.trace.push('  -- the end: everything lands, lost answers are retried, every payment read');
    await this.land();
    // The widget tries a lost answer again with the same key: the service gives back the charge it made.
    for (const tab of this.tabs.filter((t) => t.lost && t.chargeId === undefined)) await this.send(tab, tab.via, false);
    await this.land();
    // Every tab comes back and reads its payment, which settles a success the store may not know.
    for (const payment of [...this.payments.values()]) await this.status(payment, 0);
    await this.land();
  }

  close(): void {
    this.sandbox.close();
  }

  describe(state: unknown): string {
    const charges = this.paymentsOfOrder().map((c) => `${c.chargeId} ${c.type} ${c.status} ${c.amount} kept ${c.kept}`);
    return [
      'trace:',
      ...this.trace,
      `service payments of the ${this.scenario.intent === 'authorize' ? 'pre-order' : 'order'}:`,
      ...charges.map((c) => `  ${c}`),
      'onOrder:',
      ...this.told.map((t) => `  ${t.instance} ${t.event.type} ${t.event.chargeId}`),
      `shop db: ${JSON.stringify(this.db)}`,
      `order state: ${JSON.stringify(state)}`,
    ].join('\n');
  }
}

/** `store`, each call after `wait`. */
function jittery(store: CheckoutStore, wait: () => Promise<void>): CheckoutStore {
  return {
    increment: async (key, windowMs) => (await wait(), store.increment(key, windowMs)),
    setIfAbsent: async (key, value, ttlMs) => (await wait(), store.setIfAbsent(key, value, ttlMs)),
    setIfNewer: async (key, version, value, ttlMs) => (await wait(), store.setIfNewer(key, version, value, ttlMs)),
    get: async (key) => (await wait(), store.get(key)),
    set: async (key, value, ttlMs) => (await wait(), store.set(key, value, ttlMs)),
    delete: async (key) => (await wait(), store.delete(key)),
    publish: async (channel, message) => (await wait(), store.publish(channel, message)),
    subscribe: (channel, listener) => store.subscribe(channel, listener),
  };
}

function pick<T>(list: T[], index: number): T | undefined {
  return list.length === 0 ? undefined : list[index % list.length];
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text };
}

// ───────────────────────────── the invariants ─────────────────────────────

/**
 * The invariants, against the service's own records (`sandbox.store`), the store's order record,
 * what `onOrder` heard and what the shopper was shown:
 * 1. a paid order keeps, net, exactly the amount the shopper approved for the paying charge, and
 *    every other success of the order is refunded in full;
 * 2. an order not paid keeps nothing: every success is refunded in full;
 * 3. nothing owed is left undone in the order's record: no refund owed and not made, no outcome
 *    `onOrder` has not heard;
 * 4. the order's state says paid exactly when one success of the order stands un-refunded, and by
 *    that one; a status read never told a shopper `paid` for another payment;
 * 5. `onOrder` heard each outcome of each payment at most once, `order.paid` only of the payment
 *    that pays the order, and exactly once when the order is paid.
 *
 * What the in-memory store cannot know after a restart is left out, as docs/server.md says it:
 * a charge that existed at a restart that lost the store, whose answer no tab ever got (its
 * answer lost, and its retry refused), is not recognised as the checkout's (`exempt`, unless a
 * later attempt was matched to it and it paid the order); and
 * `onOrder` may hear an outcome again that it heard before such a restart (the store forgot it
 * was told).
 */
export async function checkInvariants(world: OrderModelRun, state: any): Promise<void> {
  const succeeded = world.paymentsOfOrder().filter((c) => c.succeeded);
  const paidBy: string | undefined = state?.state === 'paid' ? state.paidBy : undefined;
  // Unless the handler recognised it after all (matched to a later attempt) and it paid the order.
  const exempt = new Set(succeeded.filter((c) => c.chargeId !== paidBy && !world.payments.has(c.chargeId) && world.lostStores.some((known) => known.has(c.chargeId))).map((c) => c.chargeId));
  const counted = succeeded.filter((c) => !exempt.has(c.chargeId));
  const net = (c: OrderPayment) => c.kept;
  const standing = counted.filter((c) => net(c) > 0);

  expect(world.problems, 'answers no shopper or service should get').toEqual([]);
  expect(world.sandbox.webhooks.list().filter((d) => d.status === 'FAILED').map((d) => `${d.event} ${d.resourceId}`), 'webhooks the service gave up on').toEqual([]);
  expect(['paid', 'paying', 'open', 'refunded'], `the order's final state: ${JSON.stringify(state)}`).toContain(state?.state);

  // 1 and 2: the money the service kept for the order.
  for (const charge of counted) {
    if (charge.chargeId === paidBy) {
      const tab = world.tabs.find((t) => t.chargeId === charge.chargeId);
      if (tab) expect(charge.amount, `what the shopper approved for ${charge.chargeId}`).toBe(tab.body.amount);
      expect(net(charge), `what the service keeps of the paying charge ${charge.chargeId}`).toBe(charge.amount);
    } else {
      expect(net(charge), `what the service keeps of ${charge.chargeId}, which did not pay the order`).toBe(0);
    }
  }

  // 3: nothing owed left undone.
  const record = await new CheckoutRecords(world.stores[0]!).order.get(REFERENCE_ID);
  for (const [chargeId, entry] of Object.entries(record?.payments ?? {})) {
    const outcome = entry.outcome;
    if (outcome === undefined) continue;
    expect(outcome.refundReason !== undefined && outcome.refundId === undefined && outcome.outcome !== 'refund_failed', `a refund of ${chargeId} owed and not made`).toBe(false);
    expect(outcome.told, `onOrder not told of ${chargeId}'s ${outcome.outcome}`).toBe(true);
  }

  // 4: what the shopper is shown matches the ledger.
  expect(standing.map((c) => c.chargeId), 'the successes of the order that stand').toEqual(paidBy === undefined ? [] : [paidBy]);
  for (const shown of world.shown.filter((s) => s.outcome === 'paid' || s.outcome === 'authorized')) expect(shown.chargeId, 'a payment a shopper was told paid the order').toBe(paidBy);
  if (paidBy !== undefined) expect(state.outcome, 'what the paying payment did').toBe(world.scenario.intent === 'authorize' ? 'authorized' : 'paid');

  // 5: onOrder.
  const forgotten = world.lostStores.length > 0;
  const tells = new Map<string, number>();
  for (const { event } of world.told) tells.set(`${event.type} ${event.chargeId}`, (tells.get(`${event.type} ${event.chargeId}`) ?? 0) + 1);
  if (!forgotten) for (const [told, times] of tells) expect(times, `onOrder heard ${told}`).toBe(1);
  const paidEvents = world.told.filter((t) => (t.event.type === 'order.paid' || t.event.type === 'order.authorized') && !exempt.has(t.event.chargeId)).map((t) => t.event.chargeId);
  for (const chargeId of paidEvents) expect(chargeId, 'a payment onOrder heard paid the order').toBe(paidBy);
  if (paidBy !== undefined) expect(paidEvents.length, 'order.paid heard').toBeGreaterThanOrEqual(1);
}

/** How often each kind of ending was reached, over the runs so far: shows the events get past the first refusal. */
export const modelTally = new Map<string, number>();

function count(label: string): void {
  modelTally.set(label, (modelTally.get(label) ?? 0) + 1);
}

function tallyRun(world: OrderModelRun, state: any): void {
  const succeeded = world.paymentsOfOrder().filter((c) => c.succeeded);
  count(`${world.scenario.intent ?? 'charge'}: state ${state?.state}`);
  count(`successes ${succeeded.length}`);
  count(`refunded successes ${succeeded.filter((c) => c.kept < c.amount).length}`);
  for (const t of world.told) count(t.event.type);
  if (world.tabs.some((t) => t.lost)) count('a lost answer');
  if (world.lostStores.length > 0) count('a store lost');
}

/** Runs one scenario on a fresh sandbox and handlers, and checks the invariants once everything landed. */
export async function runScenario(scenario: Scenario, backend: ModelBackend): Promise<void> {
  const world = new OrderModelRun(scenario, backend);
  let state: any;
  try {
    await world.play();
    await world.finish();
    await vi.waitFor(
      async () => {
        await world.land();
        state = await world.state(0, false);
        await checkInvariants(world, state);
      },
      { timeout: 2_000, interval: 20 },
    );
    tallyRun(world, state);
  } catch (error) {
    if (error instanceof Error) error.message = `${error.message}\n${world.describe(state)}`;
    throw error;
  } finally {
    world.close();
  }
}

/**
 * fast-check's parameters of the model's properties: `numRuns` (`MODEL_RUNS` overrides it), a
 * verbose report of a failure, `FC_SEED` and `FC_PATH` to replay one. Runs and shrinking stop
 * after `timeLimitMs` (each failing run waits out its invariants' timeout, so shrinking a failure
 * is what takes long): a failure found by then is reported as shrunk so far.
 */
export function modelParameters(numRuns: number, timeLimitMs = 60_000): fc.Parameters<unknown> {
  const seed = process.env.FC_SEED;
  const path = process.env.FC_PATH;
  const runs = Number(process.env.MODEL_RUNS ?? numRuns);
  return {
    numRuns: runs,
    verbose: fc.VerbosityLevel.Verbose,
    plugins: [fc.interruptAfterTimeLimit(timeLimitMs)],
    ...(seed !== undefined && seed !== '' ? { seed: Number(seed) } : {}),
    ...(path !== undefined && path !== '' ? { path } : {}),
  };
}

/** What `modelTally` counted, when `FUZZ_STATS` is set (as for the fuzz tests). */
export function printModelTally(title: string): void {
  if (!process.env.FUZZ_STATS) return;
  console.log(`${title}\n${[...modelTally.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([label, n]) => `  ${String(n).padStart(6)}  ${label}`).join('\n')}`);
  modelTally.clear();
}
