import { base64Encode } from '../../core/base64.js';
import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_TTL_MS } from '../../core/constants.js';
import { defineStoreSlice } from '../store/sandbox-store.js';
import { SandboxError } from './sandbox-error.js';

/** An answer kept so a retry with the same key gets it again. */
export interface StoredAnswer {
  status: number;
  body: string;
  headers: [string, string][];
}

/**
 * One idempotency key's request, as its hash, and its answer, kept while the key lives. The
 * request itself is never kept: a body near the size cap would cost its size once per key.
 */
export interface IdempotencyEntry {
  /** {@link requestFingerprint} of the first request made with the key. */
  fingerprint: string;
  createdAtMs: number;
  answer: Promise<StoredAnswer | undefined>;
}

/**
 * Most keys kept at once, every merchant's together; past it the oldest is forgotten first, so a
 * caller minting a new key per request cannot grow the sandbox without bound within the TTL.
 */
export const IDEMPOTENCY_MAX_ENTRIES = 20_000;

/** The idempotency keys of every merchant, oldest first. */
export const IDEMPOTENCY_KEYS = defineStoreSlice('idempotencyKeys', () => new Map<string, IdempotencyEntry>());

/**
 * The service's idempotency on POST and PATCH: a retry with the same key and the same request
 * answers as the first call did and changes nothing; the same key with another request is 412.
 * A retry that arrives while the first call is still running waits for it. Keys live
 * {@link IDEMPOTENCY_KEY_TTL_MS} (12 hours, as the service remembers them), at most
 * `maxEntries` at once.
 */
export class IdempotencyStore {
  readonly #entries: Map<string, IdempotencyEntry>;
  readonly #now: () => Date;
  readonly #maxEntries: number;

  /** `entries` is where the keys are kept (the sandbox's store), by merchant and key, oldest first. */
  constructor(now: () => Date, entries = new Map<string, IdempotencyEntry>(), maxEntries = IDEMPOTENCY_MAX_ENTRIES) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be a whole number from 1, not ${maxEntries}`);
    this.#now = now;
    this.#entries = entries;
    this.#maxEntries = maxEntries;
  }

  /** How many keys are kept now, expired ones not yet swept included. */
  get size(): number {
    return this.#entries.size;
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
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break;
      this.#entries.delete(oldest);
    }
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

/**
 * What tells two requests made with one key apart: a SHA-256 (Web Crypto, so the sandbox runs
 * wherever Fetch does) of the method, the path and the body as {@link canonicalJson}, base64.
 */
export async function requestFingerprint(method: string, path: string, body: unknown): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${method} ${path} ${canonicalJson(body)}`));
  return base64Encode(new Uint8Array(digest));
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
