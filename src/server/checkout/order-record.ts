/**
 * The one record the checkout handler keeps of an order (`order:{referenceId}`): who may be paying
 * it now (its lock), the payment that paid it, the ledger of every payment the service told of for
 * it (with the attempt it came from, what was decided for it, what is still owed: a refund, an
 * `onOrder` event, and the newest of its webhook states handled), the attempts waiting for an
 * answer, and each attempt's answer for its retries.
 *
 * Every change is one step on the whole record (see `order-book.ts`): read, decided by a pure
 * function of `order-decisions.ts` or `payment-decisions.ts`, written back only if nobody wrote it
 * meanwhile (`setIfNewer` with the next version: one script on Redis, one synchronous step in
 * memory). Nothing about an order lives anywhere else, so no two writes can disagree.
 */

import * as z from 'zod/mini';
import { CHECKOUT_INTENTS, CHECKOUT_ORDER_OUTCOMES, CheckoutChargeResponseSchema } from '../../core/schemas/checkout.js';

const KindSchema = z.enum(['charge', 'authorization']);
const MoneySchema = z.object({ amount: z.number(), currency: z.string() });

const { statusToken: _signedForEachHolder, ...answerShape } = CheckoutChargeResponseSchema.shape;
/** What `POST /charges` answered an attempt, its status token apart (signed afresh for each holder). */
export const AttemptAnswerSchema = z.object(answerShape);
export type AttemptAnswer = z.infer<typeof AttemptAnswerSchema>;

/** The decided outcome of one payment, and how far its consequences went. */
export const OutcomeSchema = z.object({
  outcome: z.enum(CHECKOUT_ORDER_OUTCOMES),
  /** What the payment took. */
  amount: z.number(),
  currency: z.string(),
  /** Why it must be refunded (a duplicate, or a price the order no longer has); absent when it stands. */
  refundReason: z.optional(z.enum(['duplicate_refunded', 'repriced_refunded'])),
  /** The refund (an authorization: its own id, canceled) that undid it, once the service accepted it; `''` when the shop had refunded it in full itself. */
  refundId: z.optional(z.string()),
  /** How many tries of the refund the service refused for now (another refund of the charge pending). */
  refundTries: z.optional(z.number()),
  /** Why the refund failed, for `refund_failed`. */
  refundError: z.optional(z.string()),
  /** What the order cost when the payment settled; null when `resolveOrder` no longer offered it. */
  orderAmount: z.optional(z.nullable(z.number())),
  /** The payment that paid the order, for a duplicate. */
  paidBy: z.optional(z.string()),
  /** For a capture: what the authorization's captures add up to so far. */
  capturedAmount: z.optional(z.number()),
  /** Whether `onOrder` has heard of it. */
  told: z.boolean(),
});
export type Outcome = z.infer<typeof OutcomeSchema>;

/** One payment of the order, as the service told of it. */
export const PaymentEntrySchema = z.object({
  kind: KindSchema,
  /** The amount the shopper approved (a payment of unknown attempt: what it took). */
  amount: z.number(),
  currency: z.string(),
  paymentMethodType: z.string(),
  /** The page's reference it was paid from. */
  orderReference: z.string(),
  /** The widget's attempt (its idempotency key) that made it; absent for a payment whose attempt is unknown. */
  attempt: z.optional(z.string()),
  /** For a capture: the card authorization it takes money from. */
  captureOf: z.optional(z.string()),
  createdAtMs: z.number(),
  /** What `POST /charges` answered for it (to show it again in another tab). */
  answer: z.optional(AttemptAnswerSchema),
  outcome: z.optional(OutcomeSchema),
  /** An authorization that holds the order no more: how it ended (CANCELED, EXPIRED, FAILED). */
  released: z.optional(z.string()),
  /** `onOrder` in the hands of one instance until `untilMs`, so two never tell it at once. */
  telling: z.optional(z.object({ holder: z.string(), untilMs: z.number() })),
  /**
   * The version of the newest webhook state of the payment handled (see webhook-ledger.ts), kept
   * here instead of the ledger's own records; 0: none yet. Absent for a payment that joined the
   * ledger after a webhook of it may have been handled: the ledger's records are read beside it.
   */
  heard: z.optional(z.number()),
  /** When its page's `order-reference:` record was last written (its attempt taking the order). */
  referenceKeptAtMs: z.optional(z.number()),
});
export type PaymentEntry = z.infer<typeof PaymentEntrySchema>;

export const LOCK_STATES = ['creating', 'open', 'released'] as const;

/** Who may be paying the order now: one attempt at a time. */
export const OrderLockSchema = z.object({
  /** Counts the attempts that took the order. */
  generation: z.number(),
  state: z.enum(LOCK_STATES),
  /** The widget's attempt (its idempotency key). */
  attempt: z.string(),
  paymentMethodType: z.string(),
  amount: z.number(),
  currency: z.string(),
  /** Until when it holds: a charge being created for 2 minutes, an open payment for a day. */
  untilMs: z.number(),
  /** The open payment. */
  chargeId: z.optional(z.string()),
  kind: z.optional(KindSchema),
});
export type OrderLock = z.infer<typeof OrderLockSchema>;

/** An attempt that called the service with no answer recorded yet: a charge it made may still appear. */
export const PendingAttemptSchema = z.object({
  attempt: z.string(),
  amount: z.number(),
  currency: z.string(),
  paymentMethodType: z.string(),
  orderReference: z.string(),
  createdAtMs: z.number(),
  /** `authorization` for an attempt of the authorize intent (a card authorization); absent: a charge. */
  kind: z.optional(z.literal('authorization')),
});
export type PendingAttempt = z.infer<typeof PendingAttemptSchema>;

/** One attempt (its key and a hash of its body) as its retries need it: what it charged, and the payment it made. */
export const AttemptSchema = z.object({
  key: z.string(),
  amount: z.number(),
  currency: z.string(),
  intent: z.optional(z.enum(CHECKOUT_INTENTS)),
  chargeId: z.optional(z.string()),
});
export type AttemptEntry = z.infer<typeof AttemptSchema>;

export const OrderRecordSchema = z.object({
  /** The record's version: one more for each step; a step is written only over the version it read. */
  v: z.number(),
  referenceId: z.string(),
  /** The pages' references charged for this order (the newest last). */
  orderReferences: z.array(z.string()),
  lock: z.optional(OrderLockSchema),
  /** The payment that paid the order (or, with the authorize intent, holds it). */
  paidBy: z.optional(z.string()),
  payments: z.record(z.string(), PaymentEntrySchema),
  /** Refunds heard of (`refund.succeeded`), by payment and refund id: whoever made them, even before their payment. */
  refunds: z.record(z.string(), z.record(z.string(), MoneySchema)),
  /**
   * Refunds heard to have failed (`refund.failed`) while a refund of the handler's own of that
   * payment had no id recorded yet, by payment and refund id, with the failure code: the refund's
   * answer, when it comes, finds it failed already.
   */
  refundsFailed: z.optional(z.record(z.string(), z.record(z.string(), z.string()))),
  pending: z.array(PendingAttemptSchema),
  /** By attempt id (key and body hash), the newest last. */
  attempts: z.record(z.string(), AttemptSchema),
  /** The attempt (its key) answered last. */
  answered: z.optional(z.string()),
  /** Whether the records of the version before the one order record were read for a payer of the order (see order-book.ts). */
  legacyRead: z.optional(z.boolean()),
});
export type OrderRecord = z.infer<typeof OrderRecordSchema>;

/** Most attempts of one order kept waiting for an answer that may never come. */
export const PENDING_KEPT = 10;
/** Most attempts of one order whose answers are kept for their retries. */
export const ATTEMPTS_KEPT = 20;
/** Most page references kept per order. */
export const ORDER_REFERENCES_KEPT = 8;

/** A record never written yet. */
export function emptyOrder(referenceId: string): OrderRecord {
  return { v: 0, referenceId, orderReferences: [], payments: {}, refunds: {}, pending: [], attempts: {} };
}

/** The payer of an order as the version before the one order record kept it: its id, and what is known of it. */
export interface LegacyPayer {
  paidBy: string;
  entry: PaymentEntry | undefined;
  refunds: Record<string, { amount: number; currency: string }> | undefined;
}

/** The record with the payer of the version before (null: there was none) taken in. */
export function withLegacyPayer(order: OrderRecord, legacy: LegacyPayer | null): OrderRecord {
  if (legacy === null || order.paidBy !== undefined) return { ...order, legacyRead: true };
  const { paidBy, entry, refunds } = legacy;
  return {
    ...order,
    legacyRead: true,
    paidBy,
    ...(entry ? { payments: withMember(order.payments, paidBy, entry), orderReferences: order.orderReferences.length > 0 ? order.orderReferences : [entry.orderReference] } : {}),
    ...(refunds ? { refunds: withMember(order.refunds, paidBy, refunds) } : {}),
  };
}

/** What the refunds heard of for a payment add up to, in `currency`. */
export function refundedAmount(order: OrderRecord, chargeId: string, currency: string): number {
  return Object.values(order.refunds[chargeId] ?? {}).reduce((sum, refund) => (refund.currency === currency ? sum + refund.amount : sum), 0);
}

/** The order's payer as its state tells it: which payment, what it did, and whether it was refunded in full since. */
export interface OrderPayer {
  chargeId: string;
  /** A card authorization: `authorized` until a capture of it paid the order. */
  outcome: 'paid' | 'authorized';
  /** The refunds heard of add up to what it took (a card authorization: what its captures took); never guessed. */
  refunded: boolean;
}

export function payerOf(order: OrderRecord): OrderPayer | undefined {
  const chargeId = order.paidBy;
  if (chargeId === undefined) return undefined;
  const entry = order.payments[chargeId];
  if (entry?.kind !== 'authorization') {
    return { chargeId, outcome: 'paid', refunded: entry !== undefined && refundedAmount(order, chargeId, entry.currency) >= entry.amount };
  }
  // Captured, the money is in its captures: the order is paid once one paid it, refunded once
  // their refunds add up to all they took.
  let captured = 0;
  let refunded = 0;
  let paid = false;
  for (const [id, capture] of Object.entries(order.payments)) {
    if (capture.captureOf !== chargeId || !capture.outcome) continue;
    paid ||= capture.outcome.outcome === 'paid';
    captured += capture.outcome.amount;
    refunded += refundedAmount(order, id, capture.outcome.currency);
  }
  return { chargeId, outcome: paid ? 'paid' : 'authorized', refunded: captured > 0 && refunded >= captured };
}

/** The lock while it holds (a lapsed one holds nothing). */
export function liveLock(order: OrderRecord, nowMs: number): OrderLock | undefined {
  const { lock } = order;
  return lock !== undefined && lock.untilMs > nowMs && lock.state !== 'released' ? lock : undefined;
}

/**
 * A record's members by id (its payments, its attempts) with `key` set to `value`, in a new
 * dictionary: `key` keeps its place when it is there, else comes last (`moveLast`: comes last
 * either way). A dictionary is a null-prototype object, which V8 keeps as a hash table: an object
 * literal with a computed key would give each new id a hidden class of its own, every one a
 * transition kept on a class all plain objects share, and each charge would pay more as the ids
 * add up. Its JSON is the same.
 */
export function withMember<T>(members: Readonly<Record<string, T>>, key: string, value: NoInfer<T>, moveLast = false): Record<string, T> {
  const next = Object.create(null) as Record<string, T>;
  for (const name of Object.keys(members)) if (!moveLast || name !== key) next[name] = members[name] as T;
  next[key] = value;
  return next;
}

/** Keeps the newest `max` of a record's members, in the order they were added. */
export function newest<T>(entries: Record<string, T>, max: number): Record<string, T> {
  const keys = Object.keys(entries);
  if (keys.length <= max) return entries;
  const kept = Object.create(null) as Record<string, T>;
  for (const key of keys.slice(-max)) kept[key] = entries[key] as T;
  return kept;
}
