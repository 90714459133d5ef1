import { SERVICE_HEADERS } from '../../core/constants.js';
import { serviceErrorBody } from '../../core/service-error.js';
import { jsonResponse, SandboxError } from '../http/sandbox-error.js';
import { newId } from '../store/ids.js';
import { defineStoreSlice } from '../store/sandbox-store.js';
import { bodyReferenceId, captivePortalAnswer, SandboxConnectionReset, statusAnswer, truncated } from './fault-answers.js';
import {
  CARRIES_REAL_ANSWER,
  checkInput,
  pathMatches,
  SANDBOX_FAULT_HITS_KEPT,
  SANDBOX_FAULTS_PATH,
  SANDBOX_MAX_FAULT_RULES,
  type SandboxFaultRule,
} from './fault-rules.js';

/** The fault rules, by id, oldest first. */
export const FAULT_RULES = defineStoreSlice('faultRules', () => new Map<string, SandboxFaultRule>());

/**
 * The merchant a request belongs to, by the key it carries (undefined without one that
 * authenticates): what a merchant's own rules match on.
 */
export type FaultRequestOwner = (request: Request) => string | undefined;

/**
 * Which rules a call acts on: a merchant id for that merchant's rules alone (the control
 * endpoints), undefined for every rule (in process, where the caller owns the whole sandbox).
 */
type Owner = string | undefined;

/**
 * The sandbox's fault injection: rules that spoil matching requests on their way in or their
 * answers on their way out, so a merchant sees how a shop behaves when the service fails. Managed
 * with `sandbox.faults` (rules that spoil every request) or `POST/GET/DELETE /sandbox/v1/faults`
 * (a merchant's rules, that spoil only requests made with its keys and that only it sees); each
 * applies until `times` requests have been spoiled or it is removed.
 */
export class SandboxFaults {
  readonly #rules: Map<string, SandboxFaultRule>;
  readonly #now: () => Date;
  readonly #log: ((line: string) => void) | undefined;
  readonly #ownerOf: FaultRequestOwner;
  readonly #idempotencyHeader: string;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #hanging = new Set<() => void>();

  /**
   * `rules` is where the rules are kept (the sandbox's store); a map of its own by default.
   * `ownerOf` tells whose a request is; without it a merchant's rules match no request.
   * `idempotencyHeader` is the name a hit's idempotency key is read from.
   */
  constructor(
    now: () => Date,
    log?: (line: string) => void,
    rules = new Map<string, SandboxFaultRule>(),
    ownerOf: FaultRequestOwner = () => undefined,
    idempotencyHeader: string = SERVICE_HEADERS.idempotencyKey,
  ) {
    this.#idempotencyHeader = idempotencyHeader;
    this.#now = now;
    this.#log = log;
    this.#rules = rules;
    this.#ownerOf = ownerOf;
  }

  /**
   * Adds a rule, `merchantId`'s when given (it then spoils only that merchant's requests); throws
   * the service's 400 naming the wrong fields, or when the owner already holds
   * {@link SANDBOX_MAX_FAULT_RULES} rules.
   */
  add(input: unknown, merchantId?: string): SandboxFaultRule {
    const checked = checkInput(input);
    if (this.#owned(merchantId).length >= SANDBOX_MAX_FAULT_RULES) {
      throw SandboxError.field('faults', `at most ${SANDBOX_MAX_FAULT_RULES} rules at once: delete some first`);
    }
    const rule: SandboxFaultRule = {
      faultId: newId('flt_'),
      ...checked,
      remaining: checked.times,
      createdAt: this.#now().toISOString(),
      ...(merchantId === undefined ? {} : { merchantId }),
      hits: [],
    };
    this.#rules.set(rule.faultId, rule);
    return structuredClone(rule);
  }

  /** The rules, oldest first, used-up ones included (with `remaining: 0`): `merchantId`'s alone when given. */
  list(merchantId?: string): SandboxFaultRule[] {
    return structuredClone(merchantId === undefined ? [...this.#rules.values()] : this.#owned(merchantId));
  }

  /** One rule; undefined when there is none with that id, or it is not `merchantId`'s. */
  get(faultId: string, merchantId?: string): SandboxFaultRule | undefined {
    const rule = this.#find(faultId, merchantId);
    return rule && structuredClone(rule);
  }

  /** Removes one rule; false when there is none with that id, or it is not `merchantId`'s. */
  remove(faultId: string, merchantId?: string): boolean {
    return this.#find(faultId, merchantId) !== undefined && this.#rules.delete(faultId);
  }

  /** Removes every rule (`merchantId`'s alone when given); requests already being spoiled finish as they started. */
  clear(merchantId?: string): number {
    const removed = merchantId === undefined ? [...this.#rules.values()] : this.#owned(merchantId);
    for (const rule of removed) this.#rules.delete(rule.faultId);
    return removed.length;
  }

  /** The rules one owner holds: a merchant's, or those added in process (`undefined`). */
  #owned(owner: Owner): SandboxFaultRule[] {
    return [...this.#rules.values()].filter((rule) => rule.merchantId === owner);
  }

  #find(faultId: string, merchantId: Owner): SandboxFaultRule | undefined {
    const rule = this.#rules.get(faultId);
    return rule && (merchantId === undefined || rule.merchantId === merchantId) ? rule : undefined;
  }

  /** Ends pending delays and hanging answers, so a process or a test can end. */
  close(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const end of this.#hanging) end();
    this.#hanging.clear();
  }

  /**
   * Answers `request` through the first live rule that matches it, counting the hit, or with
   * `answer` untouched when none does. `answer` is the sandbox's own handling.
   */
  async apply(request: Request, answer: (request: Request) => Promise<Response>): Promise<Response> {
    const url = new URL(request.url);
    const live = [...this.#rules.values()].filter((r) => r.remaining > 0);
    const referenceId = live.some((r) => r.referenceId !== undefined) ? await bodyReferenceId(request) : undefined;
    const owner = live.some((r) => r.merchantId !== undefined) ? this.#ownerOf(request) : undefined;
    const rule = this.#take(request, url.pathname, referenceId, owner);
    if (!rule) return answer(request);
    this.#log?.(`${request.method} ${url.pathname} fault ${rule.kind}${rule.status ? ` ${rule.status}` : ''} (${rule.when}) ${rule.faultId}`);
    const processFirst = rule.when === 'after' || CARRIES_REAL_ANSWER.has(rule.kind);
    let real: Response | undefined;
    if (processFirst) real = await answer(request);
    switch (rule.kind) {
      case 'reset':
        await real?.body?.cancel();
        throw new SandboxConnectionReset();
      case 'timeout':
        try {
          await this.#wait(rule.delayMs, request.signal);
        } catch (error) {
          await real?.body?.cancel();
          throw error;
        }
        // Answered late: the answer as it was made (after), or the request processed only now (before).
        return real ?? answer(request);
      case 'status':
        await real?.body?.cancel();
        return statusAnswer(rule.status ?? 500);
      case 'rate-limit':
        await real?.body?.cancel();
        return jsonResponse(429, serviceErrorBody('TOO_MANY_REQUESTS_ERROR', 'too many requests (sandbox fault)'), { 'retry-after': String(rule.retryAfterSeconds ?? 1) });
      case 'slow-body':
        return this.#slow(real ?? (await answer(request)), rule.delayMs ?? 1_000);
      case 'truncated-body':
        return truncated(real ?? (await answer(request)));
      case 'malformed-json': {
        const status = real?.status ?? 200;
        const text = real ? await real.text() : '{"message":"ok","data":[';
        // A body that parses as nothing: the first half of the real one, with a stray brace.
        return new Response(`${text.slice(0, Math.max(1, Math.floor(text.length / 2)))}}{`, {
          status: status === 204 ? 200 : status,
          headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
        });
      }
      case 'wrong-content-type':
        await real?.body?.cancel();
        return captivePortalAnswer();
    }
  }

  #take(request: Request, path: string, referenceId: string | undefined, owner: Owner): SandboxFaultRule | undefined {
    const method = request.method;
    // A CORS preflight is the browser's own exchange: spoiling it would turn every fault into a network error.
    if (method === 'OPTIONS' || path === SANDBOX_FAULTS_PATH || path.startsWith(`${SANDBOX_FAULTS_PATH}/`)) return undefined;
    const rule = [...this.#rules.values()].find(
      (r) =>
        r.remaining > 0 &&
        (r.merchantId === undefined || r.merchantId === owner) &&
        (r.method === '*' || r.method === method) &&
        pathMatches(r.path, path) &&
        (r.referenceId === undefined || r.referenceId === referenceId),
    );
    if (!rule) return undefined;
    rule.remaining -= 1;
    rule.hits.push({ method, path, idempotencyKey: request.headers.get(this.#idempotencyHeader), at: this.#now().toISOString() });
    if (rule.hits.length > SANDBOX_FAULT_HITS_KEPT) rule.hits.shift();
    return rule;
  }

  /** Waits `ms`, or for ever without it; either way ends when the caller goes away or on close. */
  #wait(ms: number | undefined, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = () => {
        if (timer) {
          clearTimeout(timer);
          this.#timers.delete(timer);
        }
        this.#hanging.delete(end);
        signal.removeEventListener('abort', onAbort);
      };
      const end = () => {
        done();
        reject(new SandboxConnectionReset());
      };
      // The caller's own abort reason, whatever it is, as fetch rejects with it.
      const rejectAsAborted = () => reject(signal.reason); // eslint-disable-line @typescript-eslint/prefer-promise-reject-errors
      const onAbort = () => {
        done();
        rejectAsAborted();
      };
      if (signal.aborted) {
        rejectAsAborted();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.#hanging.add(end);
      if (ms !== undefined) {
        timer = setTimeout(() => {
          done();
          resolve();
        }, ms);
        this.#timers.add(timer);
      }
    });
  }

  /** The answer with its body spread over `ms`, a few bytes at a time. */
  #slow(real: Response, ms: number): Response {
    const source = real.body;
    const pieces = 10;
    let bytes: Uint8Array | undefined;
    let sent = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const body = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        bytes ??= source ? new Uint8Array(await new Response(source).arrayBuffer()) : new Uint8Array();
        if (sent >= bytes.length) {
          controller.close();
          return;
        }
        await new Promise<void>((resolve) => {
          timer = setTimeout(resolve, ms / pieces);
          this.#timers.add(timer);
        });
        if (timer) this.#timers.delete(timer);
        const size = Math.max(1, Math.ceil(bytes.length / pieces));
        controller.enqueue(bytes.slice(sent, sent + size));
        sent += size;
      },
      cancel: () => {
        if (timer) {
          clearTimeout(timer);
          this.#timers.delete(timer);
        }
      },
    });
    return new Response(real.status === 204 ? null : body, { status: real.status, headers: real.headers });
  }
}

