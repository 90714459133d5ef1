/**
 * A table of records in creation order, bounded and indexed, for the resources the sandbox
 * lists newest first (charges, refunds, transactions).
 *
 * - **Bounded**: past `maxRecords`, the oldest record is evicted (and `onEvict` told, so what
 *   hangs off it goes too). A sandbox left running under load keeps a fixed amount of memory.
 * - **Indexed**: each record is filed under a few keys (its merchant, its merchant and reference,
 *   …). An index is a queue of ids in creation order, so a newest-first page walks back from its
 *   end: O(offset + limit) whatever the table's size, and its count is kept, not counted.
 * - Records may also be deleted out of order (a charge's refunds go with the charge): their ids
 *   stay in the queues until a page walks past them or the queue is compacted.
 */

/** The ids filed under one key, oldest first, with how many of them are still in the table. */
interface IdQueue {
  ids: string[];
  /** Ids before this index were dropped from the front. */
  head: number;
  live: number;
}

export interface RetainedTableOptions<R> {
  /** The keys a record is filed under; they must not change while it is in the table. */
  keysOf: (record: R) => readonly string[];
  /** Most records kept; the oldest goes first past it. */
  maxRecords: number;
  /** Told of every record evicted for room (not of those deleted on purpose). */
  onEvict?: (id: string, record: R) => void;
}

export class RetainedTable<R> {
  readonly #records = new Map<string, R>();
  readonly #queues = new Map<string, IdQueue>();
  readonly #options: RetainedTableOptions<R>;

  constructor(options: RetainedTableOptions<R>) {
    if (!Number.isSafeInteger(options.maxRecords) || options.maxRecords < 1) throw new RangeError(`maxRecords must be a whole number of at least 1, not ${options.maxRecords}`);
    this.#options = options;
  }

  get size(): number {
    return this.#records.size;
  }

  get(id: string): R | undefined {
    return this.#records.get(id);
  }

  has(id: string): boolean {
    return this.#records.has(id);
  }

  /** Every id, oldest first. */
  keys(): IterableIterator<string> {
    return this.#records.keys();
  }

  /** Every record, oldest first. */
  values(): IterableIterator<R> {
    return this.#records.values();
  }

  /**
   * Adds a record, or replaces the record of an id already held (filed under the same keys). A new
   * record beyond `maxRecords` evicts the oldest.
   */
  set(id: string, record: R): void {
    if (this.#records.has(id)) {
      this.#records.set(id, record);
      return;
    }
    this.#records.set(id, record);
    for (const key of this.#options.keysOf(record)) {
      let queue = this.#queues.get(key);
      if (!queue) this.#queues.set(key, (queue = { ids: [], head: 0, live: 0 }));
      queue.ids.push(id);
      queue.live += 1;
    }
    while (this.#records.size > this.#options.maxRecords) {
      const first = this.#records.entries().next();
      if (first.done === true) break;
      const [oldestId, oldest] = first.value;
      this.delete(oldestId);
      this.#options.onEvict?.(oldestId, oldest);
    }
  }

  /** Removes a record; its ids leave the queues lazily. */
  delete(id: string): boolean {
    const record = this.#records.get(id);
    if (record === undefined) return false;
    this.#records.delete(id);
    for (const key of this.#options.keysOf(record)) {
      const queue = this.#queues.get(key);
      if (!queue) continue;
      queue.live -= 1;
      if (queue.live === 0) {
        this.#queues.delete(key);
        continue;
      }
      // The oldest leaving (eviction's usual case) moves the head; a queue mostly of gone ids is compacted.
      while (queue.head < queue.ids.length && !this.#records.has(queue.ids[queue.head] ?? '')) queue.head += 1;
      if (queue.ids.length - queue.head > 2 * queue.live + 64) {
        queue.ids = queue.ids.slice(queue.head).filter((held) => this.#records.has(held));
        queue.head = 0;
      } else if (queue.head > 1024 && queue.head * 2 > queue.ids.length) {
        queue.ids = queue.ids.slice(queue.head);
        queue.head = 0;
      }
    }
    return true;
  }

  /** How many records are filed under `key`. */
  count(key: string): number {
    return this.#queues.get(key)?.live ?? 0;
  }

  /** The records filed under `key`, newest first. */
  *newestFirst(key: string): Generator<R> {
    const queue = this.#queues.get(key);
    if (!queue) return;
    for (let i = queue.ids.length - 1; i >= queue.head; i -= 1) {
      const record = this.#records.get(queue.ids[i] ?? '');
      if (record !== undefined) yield record;
    }
  }

  /**
   * A newest-first page of the records under `key` that `keep` lets through, with their total.
   * Without `keep` it reads only the page (the total is the index's count); with it, every record
   * under `key` is looked at once to count them, so file records under the narrowest key there is.
   */
  page<P>(key: string, page: { limit: number; offset: number }, project: (record: R) => P, keep?: (record: R) => boolean): { data: P[]; totalCount: number } {
    const data: P[] = [];
    let matched = 0;
    for (const record of this.newestFirst(key)) {
      if (keep && !keep(record)) continue;
      if (matched >= page.offset && data.length < page.limit) data.push(project(record));
      matched += 1;
      if (!keep && data.length === page.limit) break;
    }
    return { data, totalCount: keep ? matched : this.count(key) };
  }
}
