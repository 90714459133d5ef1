import { boltIntentModeType, CreateBoltIntentRequestSchema, type BoltIntent } from '../../core/schemas/bolt.js';
import { CHARGE_FAILURE_CODES, type Charge, type ChargeFailureCode } from '../../core/schemas/charge.js';
import { SANDBOX_DEFAULTS } from '../defaults.js';
import { SandboxError } from '../http/sandbox-error.js';
import { parseRequest } from '../http/parse-request.js';
import type { ChargeOutcome } from '../charges/charge-records.js';
import type { SandboxMerchant } from '../partners/sandbox-merchant.js';
import type { SandboxPayments } from '../charges/sandbox-payments.js';
import { newId } from '../store/ids.js';
import { defineStoreSlice, indexKeys, pageNewestFirst, type SandboxStore } from '../store/sandbox-store.js';
import type { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import { boltChargeDraft, boltPaymentMethod, SANDBOX_BOLT_CARD } from './bolt-charge.js';
import type { BoltConnections } from './bolt-connections.js';

/** What the terminal or the shopper can do to an ACTIVE bolt intent. */
export type BoltIntentAction = 'pay' | 'decline' | 'cancel';

/** Whether `code` is a charge failure code the sandbox can decline a payment with. */
export function isChargeFailureCode(code: string): code is ChargeFailureCode {
  return (CHARGE_FAILURE_CODES as readonly string[]).includes(code);
}

/** A bolt intent and what the sandbox keeps about it beyond its public shape; lives in the store. */
export interface BoltIntentRecord {
  intent: BoltIntent;
  seq: number;
  expiresAtMs: number;
  returnUrl: string | undefined;
  /** The device a PAIRING intent was sent to, through its connection; it shows the intent. */
  deviceId: string | undefined;
}

/** The bolt intents of every merchant, by id. */
export const BOLT_INTENTS = defineStoreSlice('boltIntents', () => new Map<string, BoltIntentRecord>());

export interface BoltIntentsOptions {
  store: SandboxStore;
  payments: SandboxPayments;
  webhooks: WebhookDispatcher;
  /** The connections a PAIRING intent's `boltConnectionId` must name. */
  connections: BoltConnections;
  now: () => Date;
  /** Runs `run` after `delayMs`, until the sandbox closes. */
  later: (delayMs: number, run: () => void) => void;
  /** The address of an intent's page, its `deepLinkUrl`. */
  pageUrl: (origin: string, id: string) => string;
}

/** Who changed an intent, as `updatedBy` says: besides the API caller, the shopper's side or the clock. */
const ACTOR = { device: 'device', shopper: 'shopper', system: 'system' } as const;

/**
 * The state machine of bolt intents, the one place an intent changes:
 * ACTIVE -> PAID (a SUCCEEDED charge, `bolt_intent.paid`) | CANCELED (by the merchant through the
 * API, or on the device or in the app; `bolt_intent.canceled`) |
 * EXPIRED (at `expiresAt`, read from the sandbox clock whenever the intent is looked at, and on a
 * timer; `bolt_intent.expired`); PAID -> REFUNDED once its charge is refunded in full. A declined
 * payment is a FAILED charge that leaves the intent ACTIVE for another try. The charges are made
 * and settled by the charges' own state machine.
 */
export class BoltIntents {
  readonly #options: BoltIntentsOptions;
  readonly #intents: Map<string, BoltIntentRecord>;

  constructor(options: BoltIntentsOptions) {
    this.#options = options;
    this.#intents = options.store.slice(BOLT_INTENTS);
  }

  /**
   * `POST /api/v1/bolt-intents`: an ACTIVE intent that expires `expiryDurationInSec` from now,
   * created (`createdBy`) by the merchant whose key or partner acted. Without `mode` it is
   * PAIRING. A `boltConnectionId` must name a connection of the merchant (NOT_FOUND_ERROR
   * otherwise, a deleted one included); a PAIRING intent is then shown on that connection's device.
   */
  create(merchant: SandboxMerchant, body: unknown, origin: string): BoltIntent {
    const { store, now: clock, later, pageUrl, connections } = this.#options;
    const createdBy = merchant.merchantId;
    const request = parseRequest(CreateBoltIntentRequestSchema, body);
    const connection = request.boltConnectionId === undefined ? undefined : connections.own(merchant, request.boltConnectionId).connection;
    const modeType = boltIntentModeType(request);
    const now = clock();
    const id = newId('bi_');
    const expiresAtMs = now.getTime() + request.expiryDurationInSec * 1000;
    const returnUrl = request.mode?.type === 'DEEP_LINK' ? request.mode.deepLink.returnUrl : undefined;
    const intent: BoltIntent = {
      id,
      merchantId: merchant.merchantId,
      amount: request.amount,
      currency: request.currency,
      status: 'ACTIVE',
      mode: {
        type: modeType,
        deepLink: returnUrl === undefined ? null : { deepLinkUrl: pageUrl(origin, id), returnUrl },
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
    const deviceId = modeType === 'PAIRING' ? connection?.deviceId : undefined;
    const record: BoltIntentRecord = { intent, seq: store.nextSeq(), expiresAtMs, returnUrl, deviceId };
    this.#intents.set(id, record);
    // With the real clock the expiry (and its webhook) happens on time even if nobody looks.
    later(expiresAtMs - now.getTime(), () => this.#refresh(record));
    return structuredClone(intent);
  }

  /** `GET /api/v1/bolt-intents/{id}`. */
  get(merchant: SandboxMerchant, id: string): BoltIntent {
    return structuredClone(this.own(merchant, id).intent);
  }

  /**
   * The merchant's intents, newest first, each brought up to date as GET does. The contract has no
   * list endpoint for bolt intents; this is for the sandbox's dashboard.
   */
  list(merchant: SandboxMerchant, page: { limit: number; offset: number }) {
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

  /** An intent by id, whoever owns it (its page is public), brought up to date; or undefined. */
  find(id: string): BoltIntentRecord | undefined {
    const record = this.#intents.get(id);
    if (record) this.#refresh(record);
    return record;
  }

  /**
   * The ACTIVE intents, newest first, at most `limit`: of every merchant, or only those sent to
   * the device `deviceId` (what its screen shows).
   */
  open(limit: number, deviceId?: string): BoltIntentRecord[] {
    return [...this.#intents.values()]
      .filter((record) => {
        if (deviceId !== undefined && record.deviceId !== deviceId) return false;
        this.#refresh(record);
        return record.intent.status === 'ACTIVE';
      })
      .sort((a, b) => b.seq - a.seq)
      .slice(0, limit);
  }

  /**
   * `PATCH /api/v1/bolt-intents/{id}/cancel`: the merchant withdraws an ACTIVE intent, which reads
   * CANCELED with `result` BI_CANCELED (`updatedBy` the merchant) and sends `bolt_intent.canceled`.
   * NOT_FOUND_ERROR for another merchant's intent; REQUEST_CONFLICT_ERROR once it is no longer
   * ACTIVE (paid, canceled, expired).
   */
  cancel(merchant: SandboxMerchant, id: string): BoltIntent {
    const record = this.own(merchant, id);
    this.#cancel(record, merchant.merchantId);
    return structuredClone(record.intent);
  }

  /**
   * Pays, declines (with `failureCode`) or cancels an ACTIVE intent, as its page or the dashboard
   * does for the shopper: a declined payment is a FAILED charge and leaves the intent open; a paid
   * one is a SUCCEEDED charge and `bolt_intent.paid`; a cancel is `bolt_intent.canceled`.
   * `updatedBy` is the device in PAIRING mode, the shopper in DEEP_LINK mode. Throws
   * REQUEST_CONFLICT_ERROR once the intent is no longer ACTIVE.
   */
  complete(record: BoltIntentRecord, action: BoltIntentAction, failureCode: ChargeFailureCode = 'CH_PROCESSING_FAILED'): BoltIntent {
    this.#checkActive(record);
    const { intent } = record;
    const actor = intent.mode.type === 'PAIRING' ? ACTOR.device : ACTOR.shopper;
    if (action === 'decline') {
      const charge = this.#charge(record, { status: 'FAILED', failureCode });
      this.#update(record, actor, { latestChargeId: charge.chargeId, latestChargeStatus: 'FAILED', latestChargeFailureCode: failureCode, result: failureCode });
    } else if (action === 'pay') {
      const charge = this.#charge(record, { status: 'SUCCEEDED' });
      // The intent shows the card the terminal read, on the member of its method.
      const read = { last4: SANDBOX_BOLT_CARD.last4, brand: SANDBOX_BOLT_CARD.brand };
      if (intent.paymentMethod && charge.paymentMethod.card) intent.paymentMethod = { ...intent.paymentMethod, card: read };
      if (intent.paymentMethod && charge.paymentMethod.cardInstallments) intent.paymentMethod = { ...intent.paymentMethod, cardInstallments: read };
      this.#update(record, actor, { status: 'PAID', latestChargeId: charge.chargeId, latestChargeStatus: 'SUCCEEDED', latestChargeFailureCode: '', result: 'CH_SUCCEEDED' });
      this.#options.webhooks.send('bolt_intent.paid', structuredClone(intent), intent.id);
    } else {
      this.#cancel(record, actor);
    }
    return structuredClone(intent);
  }

  /** An intent of `merchant`, brought up to date, or NOT_FOUND_ERROR. */
  own(merchant: SandboxMerchant, id: string): BoltIntentRecord {
    const record = this.#intents.get(id);
    if (record?.intent.merchantId !== merchant.merchantId) throw new SandboxError('NOT_FOUND_ERROR', `no bolt intent with id ${id}`);
    this.#refresh(record);
    return record;
  }

  /**
   * Brings an intent up to date with the sandbox clock and its charge: an ACTIVE intent past
   * `expiresAt` EXPIRES (once, with its webhook); a PAID one whose charge has been refunded in
   * full reads REFUNDED.
   */
  #refresh(record: BoltIntentRecord): void {
    const { intent } = record;
    if (intent.status === 'ACTIVE' && this.#options.now().getTime() >= record.expiresAtMs) {
      intent.status = 'EXPIRED';
      intent.result = 'BI_EXPIRED';
      intent.updatedAt = new Date(record.expiresAtMs).toISOString();
      intent.updatedBy = ACTOR.system;
      this.#options.webhooks.send('bolt_intent.expired', structuredClone(intent), intent.id);
      return;
    }
    if (intent.status === 'PAID' && intent.latestChargeId) {
      let refunded = 0;
      let lastAt = '';
      for (const { refund } of this.#options.store.refunds.newestFirst(indexKeys.charge(intent.latestChargeId))) {
        if (refund.status !== 'SUCCEEDED') continue;
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

  /** Brings the intent up to date, then throws REQUEST_CONFLICT_ERROR unless it is still ACTIVE. */
  #checkActive(record: BoltIntentRecord): void {
    this.#refresh(record);
    const { intent } = record;
    if (intent.status !== 'ACTIVE') throw new SandboxError('REQUEST_CONFLICT_ERROR', `bolt intent ${intent.id} is already ${intent.status}`);
  }

  #cancel(record: BoltIntentRecord, actor: string): void {
    this.#checkActive(record);
    this.#update(record, actor, { status: 'CANCELED', result: 'BI_CANCELED' });
    this.#options.webhooks.send('bolt_intent.canceled', structuredClone(record.intent), record.intent.id);
  }

  #update(record: BoltIntentRecord, actor: string, changes: Partial<BoltIntent>): void {
    Object.assign(record.intent, changes, { updatedAt: this.#options.now().toISOString(), updatedBy: actor });
  }

  /** A charge for the intent's payment, opened and settled at once with its transaction and webhooks. */
  #charge(record: BoltIntentRecord, outcome: ChargeOutcome): Charge {
    const { charges } = this.#options.payments;
    const { charge } = charges.open(boltChargeDraft(record.intent, outcome, this.#options.now()));
    return charges.settle(charge.chargeId, outcome);
  }
}
