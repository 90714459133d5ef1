import type { CardTokenRecord, ChargeRecord, RefundRecord, TransactionRecord } from '../charges/charge-records.js';
import { RetainedTable } from './retained-table.js';

/**
 * A part of the store that one feature keeps its records in, declared next to that feature:
 * `const CARD_AUTHORIZATIONS = defineStoreSlice('cardAuthorizations', () => new Map<…>())`, then
 * `store.slice(CARD_AUTHORIZATIONS)`. The store creates it on first use, so a feature adds its
 * records without the store knowing its types.
 */
export interface StoreSlice<T> {
  readonly name: string;
  readonly create: () => T;
}

/** Declares a {@link StoreSlice}; the store tells slices apart by the object, `name` labels it. */
export function defineStoreSlice<T>(name: string, create: () => T): StoreSlice<T> {
  return { name, create };
}

/** Most charges a sandbox keeps by default; past it the oldest go, with their refunds and transactions. */
export const SANDBOX_MAX_CHARGES = 20_000;
/** Most card tokens kept, spent or not; the oldest go first (a token is good for 30 minutes anyway). */
export const SANDBOX_MAX_CARD_TOKENS = 20_000;

/** Separates the parts of an index key; no id, reference or merchant id can hold it. */
const SEP = '\u0001';

/** The index keys of the resources listed newest first. */
export const indexKeys = {
  merchant: (merchantId: string) => `m${SEP}${merchantId}`,
  reference: (merchantId: string, referenceId: string) => `r${SEP}${merchantId}${SEP}${referenceId}`,
  source: (merchantId: string, source: string) => `s${SEP}${merchantId}${SEP}${source}`,
  sourceId: (merchantId: string, sourceId: string) => `i${SEP}${merchantId}${SEP}${sourceId}`,
  charge: (chargeId: string) => `c${SEP}${chargeId}`,
};

/**
 * Everything the sandbox knows, in memory: every resource, its indexes and the records behind
 * the sandbox's own endpoints. Every change happens synchronously inside one request handler turn,
 * so concurrent requests see a consistent store without locks.
 *
 * The charge tables are named, since nearly every feature reads them; a charge's record is
 * written only by the charge state machine (`charges/charge-state-machine.ts`). Every other
 * feature keeps its records in a {@link StoreSlice}.
 *
 * Memory is bounded: past `maxCharges` the oldest charge is evicted with what hangs off it (its QR
 * payload's entry, its refunds, its transactions), and lists read newest-first pages from indexes
 * kept in creation order, so a list call costs the same at 1,000 charges as at 20,000.
 */
export class SandboxStore {
  readonly charges: RetainedTable<ChargeRecord>;
  /** rawData of a QR charge -> charge id, for the payer simulator. */
  readonly chargeIdByQrPayload = new Map<string, string>();
  readonly cardTokens: RetainedTable<CardTokenRecord>;
  readonly refunds: RetainedTable<RefundRecord>;
  readonly transactions: RetainedTable<TransactionRecord>;
  readonly #slices = new Map<StoreSlice<unknown>, unknown>();
  #seq = 0;

  constructor(options: { maxCharges?: number } = {}) {
    const maxCharges = options.maxCharges ?? SANDBOX_MAX_CHARGES;
    this.charges = new RetainedTable<ChargeRecord>({
      maxRecords: maxCharges,
      keysOf: ({ charge }) => [
        indexKeys.merchant(charge.merchantId),
        ...(charge.referenceId ? [indexKeys.reference(charge.merchantId, charge.referenceId)] : []),
        indexKeys.source(charge.merchantId, charge.source),
        ...(charge.sourceId ? [indexKeys.sourceId(charge.merchantId, charge.sourceId)] : []),
      ],
      onEvict: (chargeId, record) => this.#forgetCharge(chargeId, record),
    });
    this.cardTokens = new RetainedTable<CardTokenRecord>({ maxRecords: SANDBOX_MAX_CARD_TOKENS, keysOf: () => [] });
    // Refunds and transactions leave with their charge; their own caps only back that up.
    this.refunds = new RetainedTable<RefundRecord>({
      maxRecords: 4 * maxCharges,
      keysOf: ({ refund }) => [indexKeys.merchant(refund.merchantId), indexKeys.charge(refund.chargeId)],
    });
    this.transactions = new RetainedTable<TransactionRecord>({
      maxRecords: 4 * maxCharges,
      keysOf: ({ transaction }) => [
        indexKeys.merchant(transaction.merchantId),
        ...(transaction.referenceId ? [indexKeys.reference(transaction.merchantId, transaction.referenceId)] : []),
      ],
    });
  }

  /** A number that orders records by creation, for "newest first" when timestamps tie. */
  nextSeq(): number {
    this.#seq += 1;
    return this.#seq;
  }

  /** The records of one feature, created on first use. */
  slice<T>(slice: StoreSlice<T>): T {
    if (!this.#slices.has(slice)) this.#slices.set(slice, slice.create());
    return this.#slices.get(slice) as T;
  }

  #forgetCharge(chargeId: string, record: ChargeRecord): void {
    if (record.qr) this.chargeIdByQrPayload.delete(record.qr.rawData);
    this.transactions.delete(chargeId);
    for (const { refund } of [...this.refunds.newestFirst(indexKeys.charge(chargeId))]) {
      this.refunds.delete(refund.refundId);
      this.transactions.delete(refund.refundId);
    }
  }
}

/** A page of `items`, newest first, with the total before paging. */
export function pageNewestFirst<T extends { seq: number }, R>(
  items: Iterable<T>,
  keep: (item: T) => boolean,
  project: (item: T) => R,
  page: { limit: number; offset: number },
): { data: R[]; totalCount: number } {
  const matching: T[] = [];
  for (const item of items) if (keep(item)) matching.push(item);
  matching.sort((a, b) => b.seq - a.seq);
  return {
    data: matching.slice(page.offset, page.offset + page.limit).map(project),
    totalCount: matching.length,
  };
}
