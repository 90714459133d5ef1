import type { FieldIssue } from '../../core/validation.js';
import { SandboxError } from '../http/sandbox-error.js';

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
/** Most rules held at once by each merchant (and in process), and most requests one rule remembers. */
export const SANDBOX_MAX_FAULT_RULES = 100;
export const SANDBOX_FAULT_HITS_KEPT = 100;
/** Longest `delayMs` of a `timeout` or `slow-body` rule (ten minutes). */
export const SANDBOX_MAX_FAULT_DELAY_MS = 600_000;
/** Most requests one rule may hit (`times`). */
export const SANDBOX_MAX_FAULT_TIMES = 10_000;
/** The control endpoints are never faulted, so a rule can always be removed again. */
export const SANDBOX_FAULTS_PATH = '/sandbox/v1/faults';

/** Kinds whose answer is the real one, so the request is always processed first. */
export const CARRIES_REAL_ANSWER: ReadonlySet<SandboxFaultKind> = new Set(['slow-body', 'truncated-body']);

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
  /**
   * The merchant whose requests the rule spoils: the one whose key added it through
   * `POST /sandbox/v1/faults`, so one merchant's rules never touch another's requests, nor pages,
   * which carry no key. Absent on a rule added in process (`sandbox.faults.add`), which spoils
   * every request.
   */
  merchantId?: string;
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

/** Whether a rule's path (exact, or a prefix ending in `*`) matches a request path. */
export function pathMatches(pattern: string, path: string): boolean {
  return pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern;
}


/** Checks a rule as sent; every wrong field is named at once. */
export function checkInput(input: unknown): Omit<SandboxFaultRule, 'faultId' | 'remaining' | 'createdAt' | 'hits' | 'merchantId'> {
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
    issues.push({ field: 'when', message: `must be after for ${kind}: it spoils the real answer` });
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
