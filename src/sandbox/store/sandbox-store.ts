import type { CardTokenRecord, ChargeRecord, RefundRecord, TransactionRecord } from '../charges/charge-records.js';

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

/**
 * Everything the sandbox knows, in memory: every resource, its indexes and the records behind
 * the sandbox's own endpoints. Every change happens synchronously inside one request handler turn,
 * so concurrent requests see a consistent store without locks.
 *
 * The charge tables are named, since nearly every feature reads them; a charge's record is
 * written only by the charge state machine (`charges/charge-state-machine.ts`). Every other
 * feature keeps its records in a {@link StoreSlice}.
 */
export class SandboxStore {
  readonly charges = new Map<string, ChargeRecord>();
  /** rawData of a QR charge -> charge id, for the payer simulator. */
  readonly chargeIdByQrPayload = new Map<string, string>();
  readonly cardTokens = new Map<string, CardTokenRecord>();
  readonly refunds = new Map<string, RefundRecord>();
  readonly transactions = new Map<string, TransactionRecord>();
  readonly #slices = new Map<StoreSlice<unknown>, unknown>();
  #seq = 0;

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
