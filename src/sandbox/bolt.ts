/**
 * Bolt in the sandbox: bolt intents (payment requests sent to a paired terminal or opened by a
 * deep link) and bolt devices (the merchant's registered terminals).
 *
 * The shopper's side is the bolt page, one per intent at `/sandbox/pages/bolt/{id}`: the
 * intent's `deepLinkUrl` in DEEP_LINK mode, and the paired terminal's screen in PAIRING mode.
 * There the payment succeeds (a SUCCEEDED charge, the intent PAID), is declined (a FAILED charge,
 * the intent stays ACTIVE for another try) or the request is canceled. An intent nobody acts on
 * EXPIRES at `expiresAt`, read from the sandbox clock whenever the intent is looked at.
 */
import { CHARGE_FAILURE_CODES, type Charge, type ChargeFailureCode } from '../core/schemas/charge.js';
import {
  CreateBoltIntentRequestSchema,
  RenameBoltDeviceRequestSchema,
  type BoltDevice,
  type BoltDeviceMetric,
  type BoltIntent,
  type BoltPaymentMethod,
  type BoltPaymentMethodType,
} from '../core/schemas/bolt.js';
import {
  PAYMENT_METHOD_RESPONSE_MEMBERS,
  type PaymentMethodFamily,
  type PaymentMethodResponse,
  type PaymentMethodType,
} from '../core/schemas/payment-method.js';
import { renderBoltIntentPage, type BoltIntentView } from './bolt-pages.js';
import { SANDBOX_DEFAULTS } from './defaults.js';
import { SANDBOX_PAGES_PATH, STYLESHEET_HREF } from './http/page-layout.js';
import { newId } from './store/ids.js';
import { readFormPost } from './http/read-body.js';
import { allowOnly, decodePathSegment, escapeHtml, formatAmountSatang, htmlResponse, renderDocument, renderErrorPage, renderIssuer, seeOther } from './string-pages.js';
import type { ChargeOutcome } from './charges/charge-records.js';
import type { SandboxPayments } from './charges/sandbox-payments.js';
import { parseRequest } from './http/parse-request.js';
import type { SandboxMerchant } from './partners/sandbox-merchant.js';
import { SandboxError } from './http/sandbox-error.js';
import { pageNewestFirst } from './store/sandbox-store.js';
import type { WebhookDispatcher } from './webhooks/webhook-dispatcher.js';

/** Where the bolt pages live: `/{boltIntentId}` is an intent's page, the path itself lists the open ones. */
export const SANDBOX_BOLT_PAGE_PATH = `${SANDBOX_PAGES_PATH}/bolt`;

/** Delay between `POST .../health-check` (202) and the device's new `latestMetric`. */
export const SANDBOX_BOLT_HEALTH_CHECK_DELAY_MS = 1_500;

/** The card a sandbox terminal reads when the shopper pays a CARD or CARD_INSTALLMENTS intent. */
export const SANDBOX_BOLT_CARD = { last4: '1111', brand: 'VISA', countryAlpha2: 'TH' } as const;

/** App version the sandbox's devices report. */
export const SANDBOX_BOLT_APP_VERSION = '2.14.0';

/** A bolt device to register for a merchant when the sandbox starts. */
export interface SandboxBoltDeviceSeed {
  /** A random `bd_…` id when omitted. Ids must be unique across merchants. */
  boltDeviceId?: string;
  name: string;
  /** ISO 8601; by default the seeds are registered a day apart, the last one a day ago. */
  createdAt?: string;
  /**
   * What the device last reported; `null` for a device that never reported. When omitted the
   * device reports once as the sandbox starts.
   */
  latestMetric?: BoltDeviceMetric | null;
}

/**
 * The devices every merchant has unless {@link SandboxBoltOptions.devices} says otherwise: two
 * that have reported and a handheld that never has.
 */
export const SANDBOX_BOLT_DEVICES: readonly SandboxBoltDeviceSeed[] = [
  { name: 'Front counter' },
  { name: 'Bar' },
  { name: 'Delivery handheld', latestMetric: null },
];

/** Bolt settings of a sandbox. */
export interface SandboxBoltOptions {
  /**
   * Devices registered per merchant id. A merchant not named gets {@link SANDBOX_BOLT_DEVICES};
   * an empty list means none.
   */
  devices?: Readonly<Record<string, readonly SandboxBoltDeviceSeed[]>>;
  /** Delay before a health check's report lands; {@link SANDBOX_BOLT_HEALTH_CHECK_DELAY_MS} by default. */
  healthCheckDelayMs?: number;
}

export interface SandboxBoltDeps {
  payments: SandboxPayments;
  webhooks: WebhookDispatcher;
  now: () => Date;
  merchants: ReadonlyMap<string, SandboxMerchant>;
  maxBodyBytes: number;
  options?: SandboxBoltOptions | undefined;
}

/** The member of a bolt intent's (and its charge's) `paymentMethod` for each type. */
const BOLT_METHOD_MEMBERS = {
  CARD: 'card',
  CARD_INSTALLMENTS: 'cardInstallments',
  QR_PROMPT_PAY: 'qrPromptPay',
  ALIPAY: 'alipay',
  ALIPAY_PLUS: 'alipayPlus',
  LINE_PAY: 'linePay',
  SHOPEE_PAY: 'shopeePay',
  TRUE_MONEY: 'trueMoney',
  WECHAT_PAY: 'weChatPay',
  SPAY_LATER: 'sPayLater',
} as const satisfies Record<BoltPaymentMethodType, string>;

const BOLT_METHOD_FAMILY: Readonly<Record<BoltPaymentMethodType, PaymentMethodFamily>> = {
  CARD: 'card',
  CARD_INSTALLMENTS: 'card',
  QR_PROMPT_PAY: 'qr',
  ALIPAY: 'e-wallet',
  ALIPAY_PLUS: 'e-wallet',
  LINE_PAY: 'e-wallet',
  SHOPEE_PAY: 'e-wallet',
  TRUE_MONEY: 'e-wallet',
  WECHAT_PAY: 'e-wallet',
  SPAY_LATER: 'pay-later',
};

/** Who changed an intent, as `updatedBy` says: besides the API caller, the shopper's side or the clock. */
const ACTOR = { device: 'device', shopper: 'shopper', system: 'system' } as const;

const DAY_MS = 24 * 60 * 60 * 1000;

interface IntentRecord {
  intent: BoltIntent;
  seq: number;
  expiresAtMs: number;
  returnUrl: string | undefined;
}

interface DeviceRecord {
  device: BoltDevice;
  seq: number;
  merchantId: string;
}

/**
 * Bolt intents and devices of the sandbox, kept here in memory, and the bolt pages. The payments
 * an intent takes are ordinary charges (source API, `sourceId` the intent's id) with their
 * transactions, refunds and webhooks.
 */
export class SandboxBolt {
  readonly #payments: SandboxPayments;
  readonly #webhooks: WebhookDispatcher;
  readonly #now: () => Date;
  readonly #maxBodyBytes: number;
  readonly #healthCheckDelayMs: number;
  readonly #intents = new Map<string, IntentRecord>();
  readonly #devices = new Map<string, DeviceRecord>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #seq = 0;

  constructor(deps: SandboxBoltDeps) {
    this.#payments = deps.payments;
    this.#webhooks = deps.webhooks;
    this.#now = deps.now;
    this.#maxBodyBytes = deps.maxBodyBytes;
    this.#healthCheckDelayMs = deps.options?.healthCheckDelayMs ?? SANDBOX_BOLT_HEALTH_CHECK_DELAY_MS;
    if (!Number.isFinite(this.#healthCheckDelayMs) || this.#healthCheckDelayMs < 0) {
      throw new RangeError('bolt.healthCheckDelayMs must be a number of milliseconds, 0 or more');
    }
    for (const merchantId of deps.merchants.keys()) {
      this.#seedDevices(merchantId, deps.options?.devices?.[merchantId] ?? SANDBOX_BOLT_DEVICES);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Bolt intents

  /**
   * `POST /api/v1/bolt-intents`: an ACTIVE intent that expires `expiryDurationInSec` from now,
   * created (`createdBy`) by the merchant whose key or partner acted.
   */
  createIntent(merchant: SandboxMerchant, body: unknown, origin: string): BoltIntent {
    const createdBy = merchant.merchantId;
    const request = parseRequest(CreateBoltIntentRequestSchema, body);
    const now = this.#now();
    const id = newId('bi_');
    const expiresAtMs = now.getTime() + request.expiryDurationInSec * 1000;
    const returnUrl = request.mode.type === 'DEEP_LINK' ? request.mode.deepLink.returnUrl : undefined;
    const intent: BoltIntent = {
      id,
      merchantId: merchant.merchantId,
      amount: request.amount,
      currency: request.currency,
      status: 'ACTIVE',
      mode: {
        type: request.mode.type,
        deepLink: returnUrl === undefined ? null : { deepLinkUrl: `${origin}${SANDBOX_BOLT_PAGE_PATH}/${id}`, returnUrl },
      },
      paymentMethod: boltPaymentMethod(request.paymentMethod.paymentMethodType),
      boltConnectionId: request.boltConnectionId ?? null,
      referenceId: request.referenceId,
      internalNote: request.internalNote ?? '',
      expiresAt: new Date(expiresAtMs).toISOString(),
      merchant: {
        merchantId: merchant.merchantId,
        name: merchant.name ?? SANDBOX_DEFAULTS.merchantName,
        logoUrl: merchant.logoUrl ?? '',
      },
      latestChargeId: '',
      latestChargeStatus: '',
      latestChargeFailureCode: '',
      result: '',
      createdAt: now.toISOString(),
      createdBy,
      updatedAt: now.toISOString(),
      updatedBy: createdBy,
    };
    const record: IntentRecord = { intent, seq: this.#nextSeq(), expiresAtMs, returnUrl };
    this.#intents.set(id, record);
    // With the real clock the expiry (and its webhook) happens on time even if nobody looks.
    this.#later(expiresAtMs - now.getTime(), () => this.#refresh(record));
    return structuredClone(intent);
  }

  /** `GET /api/v1/bolt-intents/{id}`. */
  getIntent(merchant: SandboxMerchant, id: string): BoltIntent {
    const record = this.#intents.get(id);
    if (!record || record.intent.merchantId !== merchant.merchantId) throw new SandboxError('NOT_FOUND_ERROR', `no bolt intent with id ${id}`);
    this.#refresh(record);
    return structuredClone(record.intent);
  }

  /**
   * The merchant's intents, newest first, each brought up to date as GET does. The contract has no
   * list endpoint for bolt intents; this is for the sandbox's dashboard.
   */
  listIntents(merchant: SandboxMerchant, page: { limit: number; offset: number }) {
    return pageNewestFirst(
      this.#intents.values(),
      (record) => record.intent.merchantId === merchant.merchantId,
      (record) => {
        this.#refresh(record);
        return structuredClone(record.intent);
      },
      page,
    );
  }

  /**
   * Pays, declines (with `failureCode`) or cancels an ACTIVE intent exactly as its page does: the
   * same charge, webhooks and `updatedBy` (the device in PAIRING mode, the shopper in DEEP_LINK
   * mode). For tools that act for the shopper, such as the sandbox's dashboard. Throws
   * NOT_FOUND_ERROR for an intent of another merchant and REQUEST_CONFLICT_ERROR once it is no
   * longer ACTIVE.
   */
  completeIntent(merchant: SandboxMerchant, id: string, action: BoltIntentAction, failureCode: ChargeFailureCode = 'CH_PROCESSING_FAILED'): BoltIntent {
    const record = this.#intents.get(id);
    if (!record || record.intent.merchantId !== merchant.merchantId) throw new SandboxError('NOT_FOUND_ERROR', `no bolt intent with id ${id}`);
    this.#refresh(record);
    if (record.intent.status !== 'ACTIVE') throw new SandboxError('REQUEST_CONFLICT_ERROR', `bolt intent ${id} is already ${record.intent.status}`);
    this.#complete(record, action, failureCode);
    return structuredClone(record.intent);
  }

  // -------------------------------------------------------------------------------------------
  // Bolt devices

  /** `GET /api/v1/bolt-devices`: the merchant's devices, newest first. */
  listDevices(merchant: SandboxMerchant, page: { limit: number; offset: number }) {
    return pageNewestFirst(this.#devices.values(), (d) => d.merchantId === merchant.merchantId, (d) => structuredClone(d.device), page);
  }

  /** `GET /api/v1/bolt-devices/{id}`, with its latest metric. */
  getDevice(merchant: SandboxMerchant, id: string): BoltDevice {
    return structuredClone(this.#device(merchant, id).device);
  }

  /** `PATCH /api/v1/bolt-devices/{id}/name`: the renamed device. */
  renameDevice(merchant: SandboxMerchant, id: string, body: unknown): BoltDevice {
    const record = this.#device(merchant, id);
    const { name } = parseRequest(RenameBoltDeviceRequestSchema, body);
    record.device.name = name.trim();
    record.device.updatedAt = this.#now().toISOString();
    return structuredClone(record.device);
  }

  /**
   * `POST /api/v1/bolt-devices/{id}/health-check` (answered 202): the device reports after the
   * configured delay, which replaces its `latestMetric`.
   */
  requestHealthCheck(merchant: SandboxMerchant, id: string): void {
    const record = this.#device(merchant, id);
    this.#later(this.#healthCheckDelayMs, () => {
      record.device.latestMetric = this.#metric();
    });
  }

  /** Cancels pending timers (expiries, health-check reports). */
  close(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  // -------------------------------------------------------------------------------------------
  // The bolt pages

  /** Answers a bolt page request, or `undefined` when the path is not one. */
  async handlePage(request: Request, url: URL): Promise<Response | undefined> {
    const path = url.pathname;
    if (path === SANDBOX_BOLT_PAGE_PATH) {
      allowOnly(request, ['GET']);
      return htmlResponse(200, this.#renderOpenIntents());
    }
    if (!path.startsWith(`${SANDBOX_BOLT_PAGE_PATH}/`)) return undefined;
    allowOnly(request, ['GET', 'POST']);
    const record = this.#intents.get(decodePathSegment(path.slice(SANDBOX_BOLT_PAGE_PATH.length + 1)));
    if (!record) {
      return htmlResponse(404, renderErrorPage({ stylesheetHref: STYLESHEET_HREF, title: 'Payment request not found', message: 'No bolt intent has this address. Check the link, or ask the merchant for a new one.' }));
    }
    this.#refresh(record);
    const show = (status: number, message?: { kind: 'error' | 'success'; text: string }) =>
      htmlResponse(status, this.#renderIntent(record, url.pathname, message));
    if (request.method === 'GET') return show(200);

    const form = await readFormPost(request, this.#maxBodyBytes);
    const action = form.get('action');
    const { intent } = record;
    if (action !== 'pay' && action !== 'decline' && action !== 'cancel') return show(400, { kind: 'error', text: 'Choose pay, decline or cancel.' });
    if (intent.status !== 'ACTIVE') return show(409, { kind: 'error', text: `This payment request is already ${intent.status}.` });

    if (action === 'decline') {
      const failureCode = form.get('failureCode') || 'CH_PROCESSING_FAILED';
      if (!isChargeFailureCode(failureCode)) {
        return show(400, { kind: 'error', text: `Choose a failure code: ${CHARGE_FAILURE_CODES.join(', ')}.` });
      }
      this.#complete(record, action, failureCode);
      return show(200, { kind: 'error', text: `The payment was declined (${failureCode}). The request stays open: the shopper can try again.` });
    }
    this.#complete(record, action);
    if (record.returnUrl) return seeOther(record.returnUrl);
    return show(200, action === 'pay' ? { kind: 'success', text: 'Payment approved.' } : { kind: 'error', text: 'The payment request was canceled.' });
  }

  // -------------------------------------------------------------------------------------------

  /**
   * Brings an intent up to date with the sandbox clock and its charge: an ACTIVE intent past
   * `expiresAt` EXPIRES (once, with its webhook); a PAID one whose charge has been refunded in
   * full reads REFUNDED.
   */
  #refresh(record: IntentRecord): void {
    const { intent } = record;
    if (intent.status === 'ACTIVE' && this.#now().getTime() >= record.expiresAtMs) {
      intent.status = 'EXPIRED';
      intent.result = 'BI_EXPIRED';
      intent.updatedAt = new Date(record.expiresAtMs).toISOString();
      intent.updatedBy = ACTOR.system;
      this.#webhooks.send('bolt_intent.expired', structuredClone(intent), intent.id);
      return;
    }
    if (intent.status === 'PAID' && intent.latestChargeId) {
      let refunded = 0;
      let lastAt = '';
      for (const { refund } of this.#payments.store.refunds.values()) {
        if (refund.chargeId !== intent.latestChargeId || refund.status !== 'SUCCEEDED') continue;
        refunded += refund.amount;
        if (refund.updatedAt > lastAt) lastAt = refund.updatedAt;
      }
      if (refunded >= intent.amount) {
        intent.status = 'REFUNDED';
        intent.updatedAt = lastAt;
        intent.updatedBy = ACTOR.system;
      }
    }
  }

  /**
   * What the terminal or the shopper's app does to an ACTIVE intent: a declined payment is a
   * FAILED charge and leaves the intent open; a paid one is a SUCCEEDED charge and `bolt_intent.paid`;
   * a cancel is `bolt_intent.canceled`.
   */
  #complete(record: IntentRecord, action: BoltIntentAction, failureCode: ChargeFailureCode = 'CH_PROCESSING_FAILED'): void {
    const { intent } = record;
    const actor = intent.mode.type === 'PAIRING' ? ACTOR.device : ACTOR.shopper;
    if (action === 'decline') {
      const charge = this.#charge(record, { status: 'FAILED', failureCode });
      this.#update(record, actor, { latestChargeId: charge.chargeId, latestChargeStatus: 'FAILED', latestChargeFailureCode: failureCode, result: failureCode });
      return;
    }
    if (action === 'pay') {
      const charge = this.#charge(record, { status: 'SUCCEEDED' });
      if (charge.paymentMethod.card) intent.paymentMethod = { ...intent.paymentMethod!, card: { last4: SANDBOX_BOLT_CARD.last4, brand: SANDBOX_BOLT_CARD.brand } };
      if (charge.paymentMethod.cardInstallments) {
        intent.paymentMethod = { ...intent.paymentMethod!, cardInstallments: { last4: SANDBOX_BOLT_CARD.last4, brand: SANDBOX_BOLT_CARD.brand } };
      }
      this.#update(record, actor, { status: 'PAID', latestChargeId: charge.chargeId, latestChargeStatus: 'SUCCEEDED', latestChargeFailureCode: '', result: 'CH_SUCCEEDED' });
      this.#webhooks.send('bolt_intent.paid', structuredClone(intent), intent.id);
      return;
    }
    this.#update(record, actor, { status: 'CANCELED', result: 'BI_CANCELED' });
    this.#webhooks.send('bolt_intent.canceled', structuredClone(intent), intent.id);
  }

  #update(record: IntentRecord, actor: string, changes: Partial<BoltIntent>): void {
    Object.assign(record.intent, changes, { updatedAt: this.#now().toISOString(), updatedBy: actor });
  }

  /** A charge for the intent's payment, settled at once with its transaction and webhooks. */
  #charge(record: IntentRecord, outcome: ChargeOutcome): Charge {
    const { intent } = record;
    const type = intent.paymentMethod?.paymentMethodType ?? 'CARD';
    const isCard = type === 'CARD' || type === 'CARD_INSTALLMENTS';
    const members = Object.fromEntries(PAYMENT_METHOD_RESPONSE_MEMBERS.map((member) => [member, null]));
    const detail = isCard ? { ...SANDBOX_BOLT_CARD, iso8583ResponseCode: null, merchantAdviceCode: null, networkTransactionId: null } : {};
    const now = this.#now().toISOString();
    const chargeId = newId('ch_');
    const charge: Charge = {
      chargeId,
      merchantId: intent.merchantId,
      referenceId: intent.referenceId ?? '',
      status: 'PENDING',
      currency: intent.currency,
      amount: intent.amount,
      // The contract's sources name no bolt source: a bolt payment is an API charge that points
      // back at its intent.
      source: 'API',
      sourceId: intent.id,
      transactionTime: null,
      paymentMethod: { paymentMethodType: type, ...members, [BOLT_METHOD_MEMBERS[type]]: detail } as PaymentMethodResponse,
      failureCode: '',
      customer: null,
      createdAt: now,
      updatedAt: now,
    };
    this.#payments.store.charges.set(chargeId, {
      charge,
      seq: this.#payments.store.nextSeq(),
      // ALIPAY_PLUS cannot be a direct charge; the record's requested type only labels pages.
      requestedType: (type === 'ALIPAY_PLUS' ? 'ALIPAY' : type) satisfies PaymentMethodType,
      family: BOLT_METHOD_FAMILY[type],
      returnUrl: undefined,
      qr: undefined,
      cardBehaviour: isCard ? (outcome.status === 'SUCCEEDED' ? { outcome: 'succeed' } : { outcome: 'fail', failureCode: outcome.failureCode }) : undefined,
      refundedAmount: 0,
    });
    return this.#payments.settleCharge(chargeId, outcome);
  }

  #renderIntent(record: IntentRecord, action: string, message?: { kind: 'error' | 'success'; text: string }): string {
    const { intent } = record;
    const view: BoltIntentView = {
      id: intent.id,
      mode: intent.mode.type,
      amountSatang: intent.amount,
      currency: intent.currency,
      referenceId: intent.referenceId ?? '',
      merchantName: intent.merchant?.name ?? SANDBOX_DEFAULTS.merchantName,
      paymentMethodType: intent.paymentMethod?.paymentMethodType ?? '',
      status: intent.status,
      result: intent.result ?? '',
      expiresAt: intent.expiresAt ?? '',
      latestChargeId: intent.latestChargeId ?? '',
      latestChargeFailureCode: intent.latestChargeFailureCode ?? '',
      ...(record.returnUrl ? { returnUrl: record.returnUrl } : {}),
    };
    return renderBoltIntentPage({ stylesheetHref: STYLESHEET_HREF, intent: view, action, failureCodes: CHARGE_FAILURE_CODES, ...(message ? { message } : {}) });
  }

  /** The terminal's home screen: the open intents, newest first, each linking to its page. */
  #renderOpenIntents(): string {
    const open = [...this.#intents.values()]
      .filter((record) => {
        this.#refresh(record);
        return record.intent.status === 'ACTIVE';
      })
      .sort((a, b) => b.seq - a.seq)
      .slice(0, 20);
    const items = open.map(({ intent }) => {
      const amount = formatAmountSatang(intent.amount, intent.currency);
      const href = `${SANDBOX_BOLT_PAGE_PATH}/${encodeURIComponent(intent.id)}`;
      return `<li class="pending-item">
<div>
<p class="pending-amount">${escapeHtml(amount)}</p>
<p class="pending-meta"><span class="mono">${escapeHtml(intent.id)}</span> · ${escapeHtml(intent.mode.type)} · ${escapeHtml(intent.referenceId ?? '')}</p>
</div>
<a class="button button-primary button-compact" href="${escapeHtml(href)}">Open<span class="visually-hidden"> ${escapeHtml(amount)}, ${escapeHtml(intent.id)}</span></a>
</li>`;
    });
    const list = items.length > 0 ? `<ul class="pending">\n${items.join('\n')}\n</ul>` : '<p class="lede">No bolt intents are waiting. Create one with POST /api/v1/bolt-intents, then reload this page.</p>';
    const body = `<div class="card">
${renderIssuer('Satang Bolt · Terminal simulator', 'B')}
<h1>Open payment requests</h1>
<p class="lede">The bolt intents still waiting for a shopper. Open one to pay it, decline it or cancel it as the terminal would.</p>
${list}
</div>`;
    return renderDocument({ title: 'Bolt terminal', stylesheetHref: STYLESHEET_HREF, body, wide: true });
  }

  #device(merchant: SandboxMerchant, id: string): DeviceRecord {
    const record = this.#devices.get(id);
    if (!record || record.merchantId !== merchant.merchantId) throw new SandboxError('NOT_FOUND_ERROR', `no bolt device with id ${id}`);
    return record;
  }

  #seedDevices(merchantId: string, seeds: readonly SandboxBoltDeviceSeed[]): void {
    const now = this.#now().getTime();
    const dated = seeds.map((seed, index) => ({ seed, createdAt: seed.createdAt ?? new Date(now - (seeds.length - index) * DAY_MS).toISOString() }));
    dated.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
    for (const { seed, createdAt } of dated) {
      const boltDeviceId = seed.boltDeviceId ?? newId('bd_');
      if (this.#devices.has(boltDeviceId)) throw new RangeError(`bolt device id ${boltDeviceId} is given twice`);
      this.#devices.set(boltDeviceId, {
        merchantId,
        seq: this.#nextSeq(),
        device: {
          boltDeviceId,
          name: seed.name,
          latestMetric: seed.latestMetric === undefined ? this.#metric() : seed.latestMetric,
          createdAt,
          updatedAt: createdAt,
        },
      });
    }
  }

  /** What a sandbox device reports about itself now. */
  #metric(): BoltDeviceMetric {
    const random = crypto.getRandomValues(new Uint8Array(3));
    return {
      reportedAt: this.#now().toISOString(),
      batteryLevel: 20 + (random[0]! % 81),
      isCharging: random[1]! % 2 === 0,
      networkType: random[2]! % 3 === 0 ? 'CELLULAR' : 'WIFI',
      signalStrength: 40 + (random[2]! % 61),
      appVersion: SANDBOX_BOLT_APP_VERSION,
    };
  }

  #nextSeq(): number {
    this.#seq += 1;
    return this.#seq;
  }

  #later(delayMs: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, Math.max(0, delayMs));
    timer.unref?.();
    this.#timers.add(timer);
  }
}

/** What the terminal or the shopper can do to an ACTIVE bolt intent. */
export type BoltIntentAction = 'pay' | 'decline' | 'cancel';

/** Whether `code` is a charge failure code the sandbox can decline a payment with. */
export function isChargeFailureCode(code: string): code is ChargeFailureCode {
  return (CHARGE_FAILURE_CODES as readonly string[]).includes(code);
}

/** `paymentMethod` of a new intent: the type, and every member null but the chosen one. */
function boltPaymentMethod(type: BoltPaymentMethodType): BoltPaymentMethod {
  const members = Object.fromEntries(Object.values(BOLT_METHOD_MEMBERS).map((member) => [member, null]));
  return { paymentMethodType: type, ...members, [BOLT_METHOD_MEMBERS[type]]: {} } as BoltPaymentMethod;
}
