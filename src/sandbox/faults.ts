import { SERVICE_HEADERS } from '../core/constants.js';
import { serviceErrorBody } from '../core/service-error.js';
import type { FieldIssue } from '../core/validation.js';
import { newId } from './store/ids.js';
import { SandboxError } from './http/sandbox-error.js';

/**
 * What can go wrong between a caller and the service, as the sandbox can make it happen:
 *
 * - `reset`: the connection is dropped without an answer (over a socket, a TCP reset).
 * - `timeout`: no answer at all, or (with `delayMs`) the answer only after that long.
 * - `status`: a 5xx instead of the answer: 500 and 503 in the service's error body, 502 and 504
 *   as the HTML page a gateway in front of the service sends.
 * - `rate-limit`: 429 in the service's error body, with `Retry-After`.
 * - `slow-body`: the real answer, its body dribbled out over `delayMs`.
 * - `truncated-body`: the real answer's headers (Content-Length included), then half its body,
 *   then the connection is closed.
 * - `malformed-json`: a JSON answer that does not parse.
 * - `wrong-content-type`: a 200 HTML page, as a captive portal or a misrouted proxy answers.
 */
export const SANDBOX_FAULT_KINDS = ['reset', 'timeout', 'status', 'rate-limit', 'slow-body', 'truncated-body', 'malformed-json', 'wrong-content-type'] as const;
export type SandboxFaultKind = (typeof SANDBOX_FAULT_KINDS)[number];

/** Statuses a `status` fault may answer with. */
export const SANDBOX_FAULT_STATUSES = [500, 502, 503, 504] as const;
/** Methods a rule may name; `*` is any. */
export const SANDBOX_FAULT_METHODS = ['*', 'GET', 'POST', 'PATCH', 'DELETE'] as const;
/** Most rules held at once, and most requests one rule remembers. */
export const SANDBOX_MAX_FAULT_RULES = 100;
export const SANDBOX_FAULT_HITS_KEPT = 100;
/** Longest `delayMs` of a `timeout` or `slow-body` rule (ten minutes). */
export const SANDBOX_MAX_FAULT_DELAY_MS = 600_000;
/** Most requests one rule may hit (`times`). */
export const SANDBOX_MAX_FAULT_TIMES = 10_000;
/** The control endpoints are never faulted, so a rule can always be removed again. */
export const SANDBOX_FAULTS_PATH = '/sandbox/v1/faults';

/** Kinds whose answer is the real one, so the request is always processed first. */
const CARRIES_REAL_ANSWER: ReadonlySet<SandboxFaultKind> = new Set(['slow-body', 'truncated-body']);

/** One request a rule turned into a fault. */
export interface SandboxFaultHit {
  method: string;
  path: string;
  /** The request's idempotency key, so a test can see that every retry carried the same one. */
  idempotencyKey: string | null;
  at: string;
}

/** A fault rule as `GET /sandbox/v1/faults` lists it. */
export interface SandboxFaultRule {
  faultId: string;
  /** `*` or one method. */
  method: (typeof SANDBOX_FAULT_METHODS)[number];
  /** A path (`/api/v1/charges`), or a prefix ending in `*` (`/api/v1/charges/*`). The query is not matched. */
  path: string;
  kind: SandboxFaultKind;
  /**
   * `before`: the request is not processed (the service is down). `after`: it is processed (a
   * charge is made) and then its answer is lost or mangled, the case that tests idempotency.
   */
  when: 'before' | 'after';
  /** How many matching requests the rule spoils in all; `remaining` of them are left. */
  times: number;
  remaining: number;
  /**
   * Only requests whose JSON body has this `referenceId` (creating a charge, a card authorization,
   * a payment link...), so one order's payment fails while others go through.
   */
  referenceId?: string;
  /** Status of a `status` fault. */
  status?: number;
  /** `Retry-After` of a `rate-limit` fault, in seconds. */
  retryAfterSeconds?: number;
  /** Wait of a `timeout` fault (none: never answers), or how long a `slow-body` takes. */
  delayMs?: number;
  createdAt: string;
  /** The requests it spoiled, oldest first (the last {@link SANDBOX_FAULT_HITS_KEPT}). */
  hits: SandboxFaultHit[];
}

/** What `POST /sandbox/v1/faults` and `sandbox.faults.add` take. */
export interface SandboxFaultInput {
  method?: string;
  path: string;
  kind: SandboxFaultKind;
  when?: 'before' | 'after';
  times?: number;
  referenceId?: string;
  status?: number;
  retryAfterSeconds?: number;
  delayMs?: number;
}

const INPUT_FIELDS = new Set(['method', 'path', 'kind', 'when', 'times', 'referenceId', 'status', 'retryAfterSeconds', 'delayMs']);
/** Largest body read to match a rule's `referenceId`. */
const MAX_MATCHED_BODY_BYTES = 64 * 1024;

/**
 * Marks the rejection of a `reset` fault, so the socket code can drop the connection. In process
 * it reads like the TypeError a Fetch implementation rejects with when a connection is reset.
 */
export class SandboxConnectionReset extends TypeError {
  constructor() {
    super('fetch failed', { cause: Object.assign(new Error('read ECONNRESET (sandbox fault)'), { code: 'ECONNRESET' }) });
    this.name = 'TypeError';
  }
}

/** A body stream's error when a `truncated-body` fault cuts it. */
export class SandboxTruncatedBody extends TypeError {
  constructor() {
    super('terminated', { cause: Object.assign(new Error('other side closed (sandbox fault)'), { code: 'UND_ERR_SOCKET' }) });
    this.name = 'TypeError';
  }
}

const GATEWAY_PAGES: Record<number, string> = {
  502: 'Bad Gateway',
  504: 'Gateway Time-out',
};

const CAPTIVE_PORTAL_PAGE =
  '<!doctype html><html><head><title>Sign in to the network</title></head><body><h1>Welcome</h1><p>Please accept the terms of use to continue.</p><form method="post"><button>Accept</button></form></body></html>';

/**
 * The sandbox's fault injection: rules that spoil matching requests on their way in or their
 * answers on their way out, so a merchant sees how a shop behaves when the service fails. Managed
 * with `sandbox.faults` or `POST/GET/DELETE /sandbox/v1/faults`; they apply to every request the
 * sandbox gets, whoever sends it, until `times` requests have been spoiled or they are removed.
 */
export class SandboxFaults {
  #rules: SandboxFaultRule[] = [];
  readonly #now: () => Date;
  readonly #log: ((line: string) => void) | undefined;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #hanging = new Set<() => void>();

  constructor(now: () => Date, log?: (line: string) => void) {
    this.#now = now;
    this.#log = log;
  }

  /** Adds a rule; throws the service's 400 naming the wrong fields. */
  add(input: unknown): SandboxFaultRule {
    const checked = checkInput(input);
    if (this.#rules.length >= SANDBOX_MAX_FAULT_RULES) {
      throw SandboxError.field('faults', `at most ${SANDBOX_MAX_FAULT_RULES} rules at once: delete some first`);
    }
    const rule: SandboxFaultRule = { faultId: newId('flt_'), ...checked, remaining: checked.times, createdAt: this.#now().toISOString(), hits: [] };
    this.#rules.push(rule);
    return structuredClone(rule);
  }

  /** Every rule, oldest first, used-up ones included (with `remaining: 0`). */
  list(): SandboxFaultRule[] {
    return structuredClone(this.#rules);
  }

  get(faultId: string): SandboxFaultRule | undefined {
    const rule = this.#rules.find((r) => r.faultId === faultId);
    return rule && structuredClone(rule);
  }

  /** Removes one rule; false when there is none with that id. */
  remove(faultId: string): boolean {
    const before = this.#rules.length;
    this.#rules = this.#rules.filter((r) => r.faultId !== faultId);
    return this.#rules.length < before;
  }

  /** Removes every rule; requests already being spoiled finish as they started. */
  clear(): number {
    const count = this.#rules.length;
    this.#rules = [];
    return count;
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
    const referenceId = this.#rules.some((r) => r.referenceId !== undefined && r.remaining > 0) ? await bodyReferenceId(request) : undefined;
    const rule = this.#take(request.method, url.pathname, referenceId, request.headers.get(SERVICE_HEADERS.idempotencyKey));
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
        return jsonAnswer(429, serviceErrorBody('TOO_MANY_REQUESTS_ERROR', 'too many requests (sandbox fault)'), { 'retry-after': String(rule.retryAfterSeconds ?? 1) });
      case 'slow-body':
        return this.#slow(real!, rule.delayMs ?? 1_000);
      case 'truncated-body':
        return truncated(real!);
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
        return new Response(CAPTIVE_PORTAL_PAGE, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
    }
  }

  #take(method: string, path: string, referenceId: string | undefined, idempotencyKey: string | null): SandboxFaultRule | undefined {
    // A CORS preflight is the browser's own exchange: spoiling it would turn every fault into a network error.
    if (method === 'OPTIONS' || path === SANDBOX_FAULTS_PATH || path.startsWith(`${SANDBOX_FAULTS_PATH}/`)) return undefined;
    const rule = this.#rules.find(
      (r) => r.remaining > 0 && (r.method === '*' || r.method === method) && pathMatches(r.path, path) && (r.referenceId === undefined || r.referenceId === referenceId),
    );
    if (!rule) return undefined;
    rule.remaining -= 1;
    rule.hits.push({ method, path, idempotencyKey, at: this.#now().toISOString() });
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
      const onAbort = () => {
        done();
        reject(signal.reason);
      };
      if (signal.aborted) return reject(signal.reason);
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
        if (sent >= bytes.length) return controller.close();
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

/** The `referenceId` of a JSON request body, read from a copy so the request keeps its body. */
async function bodyReferenceId(request: Request): Promise<string | undefined> {
  if (request.body === null || Number(request.headers.get('content-length') ?? 0) > MAX_MATCHED_BODY_BYTES) return undefined;
  try {
    const text = await request.clone().text();
    if (text.length > MAX_MATCHED_BODY_BYTES) return undefined;
    const value = (JSON.parse(text) as { referenceId?: unknown } | null)?.referenceId;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a rule's path (exact, or a prefix ending in `*`) matches a request path. */
function pathMatches(pattern: string, path: string): boolean {
  return pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern;
}

function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers } });
}

function statusAnswer(status: number): Response {
  const gateway = GATEWAY_PAGES[status];
  if (gateway) {
    const page = `<html>\r\n<head><title>${status} ${gateway}</title></head>\r\n<body>\r\n<center><h1>${status} ${gateway}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
    return new Response(page, { status, headers: { 'content-type': 'text/html', server: 'nginx' } });
  }
  const message = status === 503 ? 'the service is temporarily unavailable (sandbox fault)' : 'the service failed to answer this request (sandbox fault)';
  return jsonAnswer(status, { ...serviceErrorBody('INTERNAL_SERVER_ERROR', message), code: status });
}

/** The real answer's headers with its full Content-Length, then half its body, then an error. */
async function truncated(real: Response): Promise<Response> {
  const bytes = new Uint8Array(await real.arrayBuffer());
  const half = bytes.slice(0, Math.floor(bytes.length / 2));
  const headers = new Headers(real.headers);
  headers.set('content-length', String(Math.max(bytes.length, 1)));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (half.length > 0) controller.enqueue(half);
    },
    pull(controller) {
      controller.error(new SandboxTruncatedBody());
    },
  });
  return new Response(body, { status: real.status === 204 ? 200 : real.status, headers });
}

/** Checks a rule as sent; every wrong field is named at once. */
function checkInput(input: unknown): Omit<SandboxFaultRule, 'faultId' | 'remaining' | 'createdAt' | 'hits'> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw SandboxError.field('body', 'must be a JSON object');
  const body = input as Record<string, unknown>;
  const issues: FieldIssue[] = [];
  const unknown = Object.keys(body).filter((key) => !INPUT_FIELDS.has(key));
  if (unknown.length > 0) issues.push({ field: '', message: `has unknown field(s) ${unknown.join(', ')}` });

  const method = body.method === undefined ? '*' : body.method;
  if (typeof method !== 'string' || !(SANDBOX_FAULT_METHODS as readonly string[]).includes(method)) {
    issues.push({ field: 'method', message: `must be one of ${SANDBOX_FAULT_METHODS.join(', ')}` });
  }
  const path = body.path;
  if (typeof path !== 'string' || !/^\/[\x21-\x7e]{0,499}$/.test(path) || path.indexOf('*') !== (path.endsWith('*') ? path.length - 1 : -1)) {
    const shape = 'a path such as /api/v1/charges, or a prefix ending in * such as /api/v1/charges/*';
    issues.push({ field: 'path', message: path === undefined ? `is required: ${shape}` : `must be ${shape}` });
  }
  const kind = body.kind;
  const validKind = typeof kind === 'string' && (SANDBOX_FAULT_KINDS as readonly string[]).includes(kind);
  if (!validKind) issues.push({ field: 'kind', message: `must be one of ${SANDBOX_FAULT_KINDS.join(', ')}` });
  const when = body.when === undefined ? (validKind && CARRIES_REAL_ANSWER.has(kind as SandboxFaultKind) ? 'after' : 'before') : body.when;
  if (when !== 'before' && when !== 'after') issues.push({ field: 'when', message: 'must be before or after' });
  else if (when === 'before' && validKind && CARRIES_REAL_ANSWER.has(kind as SandboxFaultKind)) {
    issues.push({ field: 'when', message: `must be after for ${String(kind)}: it spoils the real answer` });
  }
  const times = body.times === undefined ? 1 : body.times;
  if (!isWhole(times, 1, SANDBOX_MAX_FAULT_TIMES)) issues.push({ field: 'times', message: `must be a whole number from 1 to ${SANDBOX_MAX_FAULT_TIMES}` });

  const only = (field: 'status' | 'retryAfterSeconds' | 'delayMs', kinds: readonly SandboxFaultKind[]) => {
    if (body[field] !== undefined && validKind && !kinds.includes(kind as SandboxFaultKind)) {
      issues.push({ field, message: `applies only to ${kinds.join(' and ')} faults` });
      return false;
    }
    return body[field] !== undefined;
  };
  if (body.referenceId !== undefined && (typeof body.referenceId !== 'string' || body.referenceId.length === 0 || body.referenceId.length > 255)) {
    issues.push({ field: 'referenceId', message: 'must be a string of 1 to 255 characters' });
  }
  if (kind === 'status' && body.status === undefined) issues.push({ field: 'status', message: 'is required' });
  if (only('status', ['status']) && !(SANDBOX_FAULT_STATUSES as readonly unknown[]).includes(body.status)) {
    issues.push({ field: 'status', message: `must be one of ${SANDBOX_FAULT_STATUSES.join(', ')}` });
  }
  if (only('retryAfterSeconds', ['rate-limit']) && !isWhole(body.retryAfterSeconds, 0, 86_400)) {
    issues.push({ field: 'retryAfterSeconds', message: 'must be a whole number from 0 to 86400' });
  }
  if (only('delayMs', ['timeout', 'slow-body']) && !isWhole(body.delayMs, 0, SANDBOX_MAX_FAULT_DELAY_MS)) {
    issues.push({ field: 'delayMs', message: `must be a whole number from 0 to ${SANDBOX_MAX_FAULT_DELAY_MS}` });
  }
  if (issues.length > 0) throw SandboxError.validation(issues);
  return {
    method: method as SandboxFaultRule['method'],
    path: path as string,
    kind: kind as SandboxFaultKind,
    when: when as 'before' | 'after',
    times: times as number,
    ...(body.referenceId !== undefined ? { referenceId: body.referenceId as string } : {}),
    ...(body.status !== undefined ? { status: body.status as number } : {}),
    ...(body.retryAfterSeconds !== undefined ? { retryAfterSeconds: body.retryAfterSeconds as number } : {}),
    ...(body.delayMs !== undefined ? { delayMs: body.delayMs as number } : {}),
  };
}

function isWhole(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}
