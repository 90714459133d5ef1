/**
 * Every record the checkout handler keeps in its store, in one place: the key of each (a prefix
 * and what follows it), the schema of its value, how it is written (`set`, `setIfAbsent`,
 * `setIfNewer`, `increment`) and when it expires. Nothing else in the handler builds a key or
 * reads a value: the routes ask the typed records of {@link CheckoutRecords}.
 *
 * A value is checked against its record's schema each time it is read. One that does not fit (a
 * record changed by hand, or written by a version of this package with another shape) is refused
 * with a {@link CheckoutRecordError} naming its key, never taken for what it is not. The keys and
 * the values' JSON are the ones this package has always written, so records written before an
 * upgrade are read as they are; the key layout is documented in `docs/server.md`.
 */

import * as z from 'zod/mini';
import { CHECKOUT_ORDER_OUTCOMES, CheckoutStatusResponseSchema, type CheckoutStatusResponse } from '../../core/schemas/checkout.js';
import { ORDER_RECORD_TTL_MS, STATUS_CACHE_TTL_MS, STATUS_READ_REUSE_MS, WEBHOOK_DEDUPE_TTL_MS } from './checkout-options.js';
import type { CheckoutStore } from './checkout-store.js';
import { OrderRecordSchema, type OrderRecord } from './order-record.js';

/**
 * How long a webhook state stays marked in hand: longer than any handling takes, short beside the
 * service's retries, so a delivery whose handler died is handled on a later retry.
 */
export const WEBHOOK_IN_HAND_MS = 60_000;

/**
 * A record in the store that does not fit its schema: changed by hand, or written by a version of
 * this package that kept another shape. Nothing is decided from it; the request is answered 500
 * (a webhook: retried by the service) and the error, with the key, goes to the log.
 */
export class CheckoutRecordError extends Error {
  /** The store key of the record, as the handler names it (without a store's own prefix). */
  readonly key: string;

  constructor(key: string, reason: string, options?: { cause?: unknown }) {
    super(`the checkout store's record "${key}" cannot be read: ${reason}`, options);
    this.name = 'CheckoutRecordError';
    this.key = key;
  }
}

// ───────────────────────────── the values' schemas ─────────────────────────────

const StatusTokenKindSchema = z.enum(['charge', 'authorization']);

/** An attempt as the handler started it: the order and the amount the shopper approved (`attempt:{chargeId}`, and each of `pending:{referenceId}`). */
export const AttemptRecordSchema = z.object({
  referenceId: z.string(),
  orderReference: z.string(),
  amount: z.number(),
  currency: z.string(),
  kind: StatusTokenKindSchema,
  paymentMethodType: z.string(),
  createdAtMs: z.number(),
  /** For a capture: the card authorization (of the authorize intent) it takes money from. */
  captureOf: z.optional(z.string()),
  /** The widget's attempt (its idempotency key) that made it, or that waits for its answer. */
  attempt: z.optional(z.string()),
});
export type AttemptRecord = z.infer<typeof AttemptRecordSchema>;

/** The decided outcome of one payment, and how far its consequences went (`outcome:{chargeId}`). */
export const OutcomeRecordSchema = z.object({
  outcome: z.enum(CHECKOUT_ORDER_OUTCOMES),
  /** For a refund outcome: which refund undid it, once the service accepted it. */
  refundId: z.optional(z.string()),
  /** What the order cost when the payment settled; null when `resolveOrder` no longer offered it. */
  orderAmount: z.optional(z.nullable(z.number())),
  /** The payment that paid the order, for a duplicate. */
  paidBy: z.optional(z.string()),
  /** Why the refund failed, for `refund_failed`. */
  refundError: z.optional(z.string()),
  refundReason: z.optional(z.enum(['duplicate_refunded', 'repriced_refunded'])),
  /** How many tries of the refund the service refused for now (another refund of the charge pending). */
  refundTries: z.optional(z.number()),
  /** For a capture: what the authorization's captures add up to so far. */
  capturedAmount: z.optional(z.number()),
  /** What the payment took. */
  amount: z.number(),
  currency: z.string(),
  /** Whether `onOrder` has heard of it. */
  told: z.boolean(),
});
export type OutcomeRecord = z.infer<typeof OutcomeRecordSchema>;

/** The successful refunds heard of for one payment, by refund id (`refunds:{chargeId}`, its version their count). */
export const RefundsRecordSchema = z.object({
  refunds: z.record(z.string(), z.object({ amount: z.number(), currency: z.string() })),
});
export type RefundsRecord = z.infer<typeof RefundsRecordSchema>;

/** An id the record holds on its own (a charge's, an order's, an attempt's): never empty. */
const IdTextSchema = z.string().check(z.minLength(1));

/** A webhook state being handled (for {@link WEBHOOK_IN_HAND_MS} at most), then handled. */
export const WEBHOOK_MARKS = { inHand: 'in-hand', handled: '1' } as const;
export type WebhookMark = (typeof WEBHOOK_MARKS)[keyof typeof WEBHOOK_MARKS];

// ───────────────────────────── how a record is kept ─────────────────────────────

/**
 * How a record's value is written in the store: JSON for a record of several members, the bare
 * text for one string (an id, a mark), the decimal digits for a number.
 */
type RecordFormat = 'json' | 'text' | 'number';

/** One kind of record: where it is kept, its value's shape, and how long it lasts. */
export interface RecordSpec<Id, T> {
  /** What every key of the record starts with, e.g. `paid:`. */
  readonly prefix: string;
  /** The rest of the key, from what identifies one record. */
  readonly suffix: (id: Id) => string;
  readonly format: RecordFormat;
  readonly schema: z.ZodMiniType<T>;
  /** How long a value lasts from its write, in ms; it may depend on the value (an order lock, a mark). */
  readonly ttlMs: (value: T) => number;
  /**
   * What the handler can learn again (a charge's answer replayed to its retry, a status read from
   * the service): the in-memory store evicts these first.
   */
  readonly relearnable?: boolean;
}

/** A record's spec, typed by what identifies it (`Id`) and what it holds (`T`). */
function defineRecord<Id, T>(fields: RecordSpec<Id, T>): RecordSpec<Id, T> {
  return fields;
}

/** The same expiry for every value of a record. */
const fixedTtl = (ms: number) => () => ms;

/** The value of the store's text at `key`, checked against the record's schema. */
function decode<Id, T>(recordSpec: RecordSpec<Id, T>, key: string, text: string): T {
  let raw: unknown = text;
  if (recordSpec.format === 'json') {
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new CheckoutRecordError(key, 'it is not JSON', { cause: error });
    }
  } else if (recordSpec.format === 'number') {
    raw = text.trim() === '' ? Number.NaN : Number(text);
  }
  const parsed = recordSpec.schema.safeParse(raw);
  if (!parsed.success) throw new CheckoutRecordError(key, `it does not have the shape this version writes (${describeIssues(parsed.error.issues)})`);
  return parsed.data;
}

/** Where a value departs from its schema, shortly: `amount: expected number; kind: not one of the allowed values`. */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const where = issue.path.length === 0 ? 'the value' : issue.path.map(String).join('.');
      const what = issue.code === 'invalid_type' ? `expected ${issue.expected}` : issue.code === 'invalid_value' ? 'not one of the allowed values' : issue.message;
      return `${where}: ${what}`;
    })
    .join('; ');
}

function encode<Id, T>(recordSpec: RecordSpec<Id, T>, value: T): string {
  if (recordSpec.format === 'json') return JSON.stringify(value);
  return String(value);
}

/** One kind of record in one store: its key for an id, and its value read back checked. */
export class StoredRecord<Id, T> {
  protected readonly store: CheckoutStore;
  protected readonly spec: RecordSpec<Id, T>;

  constructor(store: CheckoutStore, recordSpec: RecordSpec<Id, T>) {
    this.store = store;
    this.spec = recordSpec;
  }

  /** The store key of the record `id`. */
  key(id: Id): string {
    return this.spec.prefix + this.spec.suffix(id);
  }

  /** The value, checked; undefined when there is none. Rejects with a {@link CheckoutRecordError} for a value that does not fit. */
  async get(id: Id): Promise<T | undefined> {
    const key = this.key(id);
    const text = await this.store.get(key);
    return text === undefined ? undefined : decode(this.spec, key, text);
  }

  protected text(value: T): string {
    return encode(this.spec, value);
  }
}

/** A record written whole (`set`), or claimed by the first writer (`setIfAbsent`). */
export class PlainRecord<Id, T> extends StoredRecord<Id, T> {
  set(id: Id, value: T): Promise<void> {
    return this.store.set(this.key(id), this.text(value), this.spec.ttlMs(value));
  }

  /** Writes `value` unless the record is there; true when it was absent (this writer claimed it). */
  setIfAbsent(id: Id, value: T): Promise<boolean> {
    return this.store.setIfAbsent(this.key(id), this.text(value), this.spec.ttlMs(value));
  }

  delete(id: Id): Promise<void> {
    return this.store.delete(this.key(id));
  }
}

/**
 * A record written only with `setIfNewer`: of two writers the higher version stays, whatever
 * their order. It has no `set`, which would count as older than any version.
 */
export class VersionedRecord<Id, T> extends StoredRecord<Id, T> {
  /** Writes `value` unless the record holds one of a `version` at least as high; true when it wrote. */
  setIfNewer(id: Id, version: number, value: T): Promise<boolean> {
    return this.store.setIfNewer(this.key(id), version, this.text(value), this.spec.ttlMs(value));
  }
}

/** A rate-limit window: who counts, in which bucket, since when and for how long. */
export interface RateWindow {
  bucket: string;
  client: string;
  windowStartMs: number;
  windowMs: number;
}

/** A client's requests in one rate-limit window (`rate:{bucket}:{client}:{windowStart}`), kept for the window. */
export class RateCounter {
  readonly #store: CheckoutStore;

  constructor(store: CheckoutStore) {
    this.#store = store;
  }

  key(window: RateWindow): string {
    return `rate:${window.bucket}:${window.client}:${window.windowStartMs}`;
  }

  /** Counts one more request in the window; the count so far, this one included. */
  increment(window: RateWindow): Promise<number> {
    return this.#store.increment(this.key(window), window.windowMs);
  }
}

/** Where a payment's final status is announced (`charge:{chargeId}`), to the long-polls of every instance. */
export class StatusChannel {
  readonly #store: CheckoutStore;

  constructor(store: CheckoutStore) {
    this.#store = store;
  }

  name(chargeId: string): string {
    return `charge:${chargeId}`;
  }

  /** Tells every listener of the payment that a final status was noted (its status, as the message). */
  announce(chargeId: string, status: string): Promise<void> {
    return this.#store.publish(this.name(chargeId), status);
  }

  /** Listens for the payment's news until the returned function is called. */
  listen(chargeId: string, listener: () => void): () => void {
    return this.#store.subscribe(this.name(chargeId), listener);
  }
}

// ───────────────────────────── every record ─────────────────────────────

const keyedById = (id: string) => id;

const ORDER = defineRecord<string, OrderRecord>({ prefix: 'order:', suffix: keyedById, format: 'json', schema: OrderRecordSchema, ttlMs: fixedTtl(ORDER_RECORD_TTL_MS) });
const ORDER_REFERENCE = defineRecord({ prefix: 'order-reference:', suffix: keyedById, format: 'text', schema: IdTextSchema, ttlMs: fixedTtl(ORDER_RECORD_TTL_MS) });
// Written by the version before the one order record: read only, as an order of then is met again.
const LEGACY_ATTEMPT = defineRecord<string, AttemptRecord>({ prefix: 'attempt:', suffix: keyedById, format: 'json', schema: AttemptRecordSchema, ttlMs: fixedTtl(ORDER_RECORD_TTL_MS) });
const LEGACY_PAID_BY = defineRecord({ prefix: 'paid:', suffix: keyedById, format: 'text', schema: IdTextSchema, ttlMs: fixedTtl(ORDER_RECORD_TTL_MS) });
const LEGACY_REFUNDS = defineRecord<string, RefundsRecord>({ prefix: 'refunds:', suffix: keyedById, format: 'json', schema: RefundsRecordSchema, ttlMs: fixedTtl(ORDER_RECORD_TTL_MS) });
const LEGACY_OUTCOME = defineRecord<string, OutcomeRecord>({ prefix: 'outcome:', suffix: keyedById, format: 'json', schema: OutcomeRecordSchema, ttlMs: fixedTtl(ORDER_RECORD_TTL_MS) });
// `status:read:` first: a `status:` key is a final status only when it is not a read.
const RECENT_STATUS = defineRecord<string, CheckoutStatusResponse>({
  prefix: 'status:read:',
  suffix: keyedById,
  format: 'json',
  schema: CheckoutStatusResponseSchema,
  ttlMs: fixedTtl(STATUS_READ_REUSE_MS),
  relearnable: true,
});
const FINAL_STATUS = defineRecord<string, CheckoutStatusResponse>({
  prefix: 'status:',
  suffix: keyedById,
  format: 'json',
  schema: CheckoutStatusResponseSchema,
  ttlMs: fixedTtl(STATUS_CACHE_TTL_MS),
  relearnable: true,
});

/** A webhook state as the ledger names it. */
export interface WebhookStateId {
  resource: string;
  status: string;
  at: string;
}

function webhookHandledSpec(ttlMs: number) {
  return defineRecord<WebhookStateId, WebhookMark>({
    prefix: 'webhook:',
    suffix: ({ resource, status, at }) => `${resource}:${status}:${at}`,
    format: 'text',
    schema: z.enum([WEBHOOK_MARKS.inHand, WEBHOOK_MARKS.handled]),
    ttlMs: (mark) => (mark === WEBHOOK_MARKS.inHand ? WEBHOOK_IN_HAND_MS : ttlMs),
  });
}

function webhookNewestSpec(ttlMs: number) {
  return defineRecord<string, number>({ prefix: 'webhook-newest:', suffix: keyedById, format: 'number', schema: z.number(), ttlMs: fixedTtl(ttlMs) });
}

/**
 * Key prefixes of what the handler can learn again (see {@link RecordSpec.relearnable}): the
 * in-memory store evicts these before anything else.
 */
export const RELEARNABLE_KEY_PREFIXES: readonly string[] = [RECENT_STATUS, FINAL_STATUS].map((s) => s.prefix);

/** The webhook ledger's records, remembered for `ttlMs` once handled. */
export class WebhookRecords {
  /** A state in hand (`setIfAbsent`, {@link WEBHOOK_IN_HAND_MS}), then handled (`set`, `ttlMs`). */
  readonly handled: PlainRecord<WebhookStateId, WebhookMark>;
  /** The version of the newest state handled of a resource. */
  readonly newest: VersionedRecord<string, number>;

  constructor(store: CheckoutStore, ttlMs: number = WEBHOOK_DEDUPE_TTL_MS) {
    this.handled = new PlainRecord(store, webhookHandledSpec(ttlMs));
    this.newest = new VersionedRecord(store, webhookNewestSpec(ttlMs));
  }
}

/**
 * The checkout handler's records in one store, each typed: read back checked against its schema,
 * written only the way it is meant to be (`set`, `setIfAbsent`, `setIfNewer`) with its own expiry.
 */
export class CheckoutRecords {
  /** The order's one record, by `referenceId`: written only with `setIfNewer`, its `v` the version (see order-book.ts). */
  readonly order: VersionedRecord<string, OrderRecord>;
  /** The order (`referenceId`) a page's `orderReference` was charged for. */
  readonly orderReference: PlainRecord<string, string>;
  /** What the version before the one order record wrote, read only: an order's payer, a payment's attempt, outcome and refunds. */
  readonly legacy: {
    readonly paidBy: StoredRecord<string, string>;
    readonly attempt: StoredRecord<string, AttemptRecord>;
    readonly outcome: StoredRecord<string, OutcomeRecord>;
    readonly refunds: StoredRecord<string, RefundsRecord>;
  };
  /** A payment's final status, by payment id: written only with `setIfNewer`. */
  readonly finalStatus: VersionedRecord<string, CheckoutStatusResponse>;
  /** A PENDING status read from the service moments ago, by payment id. */
  readonly recentStatus: PlainRecord<string, CheckoutStatusResponse>;
  /** Rate-limit counts. */
  readonly rate: RateCounter;
  /** Wake-ups of the long-polls of a payment. */
  readonly statusChannel: StatusChannel;

  constructor(store: CheckoutStore) {
    this.order = new VersionedRecord(store, ORDER);
    this.orderReference = new PlainRecord(store, ORDER_REFERENCE);
    this.legacy = {
      paidBy: new StoredRecord(store, LEGACY_PAID_BY),
      attempt: new StoredRecord(store, LEGACY_ATTEMPT),
      outcome: new StoredRecord(store, LEGACY_OUTCOME),
      refunds: new StoredRecord(store, LEGACY_REFUNDS),
    };
    this.finalStatus = new VersionedRecord(store, FINAL_STATUS);
    this.recentStatus = new PlainRecord(store, RECENT_STATUS);
    this.rate = new RateCounter(store);
    this.statusChannel = new StatusChannel(store);
  }
}
