import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_TTL_MS } from '../../core/constants.js';
import { defineStoreSlice } from '../store/sandbox-store.js';
import { SandboxError } from './sandbox-error.js';

/** An answer kept so a retry with the same key gets it again. */
export interface StoredAnswer {
  status: number;
  body: string;
  headers: [string, string][];
}

/** One idempotency key's request and its answer, kept while the key lives. */
export interface IdempotencyEntry {
  fingerprint: string;
  createdAtMs: number;
  answer: Promise<StoredAnswer | undefined>;
}

/** The idempotency keys of every merchant, oldest first. */
export const IDEMPOTENCY_KEYS = defineStoreSlice('idempotencyKeys', () => new Map<string, IdempotencyEntry>());

/**
 * The service's idempotency on POST and PATCH: a retry with the same key and the same request
 * answers as the first call did and changes nothing; the same key with another request is 412.
 * A retry that arrives while the first call is still running waits for it.
 */
export class IdempotencyStore {
  readonly #entries: Map<string, IdempotencyEntry>;
  readonly #now: () => Date;

  /** `entries` is where the keys are kept (the sandbox's store), by merchant and key, oldest first. */
  constructor(now: () => Date, entries = new Map<string, IdempotencyEntry>()) {
    this.#now = now;
    this.#entries = entries;
  }

  /**
   * Runs `execute` once per (scope, key). Answers that must not be replayed (5xx, 429) are
   * forgotten so a retry runs again.
   */
  async run(
    scope: string,
    key: string,
    fingerprint: string,
    execute: () => Promise<Response>,
  ): Promise<{ answer: StoredAnswer; replayed: boolean }> {
    if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
      throw SandboxError.field('idempotency key', `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters`);
    }
    this.#prune();
    const id = `${scope}\u0000${key}`;
    const existing = this.#entries.get(id);
    if (existing) {
      if (existing.fingerprint !== fingerprint) {
        throw new SandboxError('IDEMPOTENCY_KEY_ERROR', 'this idempotency key was already used with a different request');
      }
      const answer = await existing.answer;
      if (answer) return { answer, replayed: true };
      // The first call's answer was not kept (a fault): this retry runs it again.
      return this.run(scope, key, fingerprint, execute);
    }
    let settle!: (answer: StoredAnswer | undefined) => void;
    const entry: IdempotencyEntry = { fingerprint, createdAtMs: this.#now().getTime(), answer: new Promise((resolve) => (settle = resolve)) };
    this.#entries.set(id, entry);
    let answer: StoredAnswer;
    try {
      answer = await toStoredAnswer(await execute());
    } catch (error) {
      if (this.#entries.get(id) === entry) this.#entries.delete(id);
      settle(undefined);
      throw error;
    }
    if (answer.status >= 500 || answer.status === 429) {
      if (this.#entries.get(id) === entry) this.#entries.delete(id);
      settle(undefined);
    } else {
      settle(answer);
    }
    return { answer, replayed: false };
  }

  #prune(): void {
    const oldest = this.#now().getTime() - IDEMPOTENCY_KEY_TTL_MS;
    for (const [id, entry] of this.#entries) {
      // Entries are in insertion order, so the first young one ends the sweep.
      if (entry.createdAtMs >= oldest) break;
      this.#entries.delete(id);
    }
  }
}

async function toStoredAnswer(response: Response): Promise<StoredAnswer> {
  return { status: response.status, body: await response.text(), headers: [...response.headers] };
}

/** The same JSON value always serialises the same way, whatever the order of its keys. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  // JSON.stringify gives undefined for undefined, a function or a symbol, which its type omits.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
  return (JSON.stringify(value) as string | undefined) ?? 'null';
}
