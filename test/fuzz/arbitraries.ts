import fc from 'fast-check';

/**
 * Structure-aware generators of hostile HTTP input, shared by the proxy and sandbox fuzz tests:
 * mutations of valid bodies (dropped, retyped, huge or odd values, prototype keys, deep nesting),
 * broken encodings, and garbage methods, paths, query strings and headers.
 *
 * `FUZZ_RUNS` sets the runs of every property (small by default, for CI; `npm run fuzz` runs
 * thousands); `FUZZ_SEED` (and `FUZZ_PATH`, both printed by fast-check on a failure) replays one.
 */

/** Runs per property when `FUZZ_RUNS` is not set: enough to catch a regression, cheap in CI. */
export const DEFAULT_FUZZ_RUNS = 120;

/** How long one request may take before it counts as a hang. Generous: CI machines are shared. */
export const ANSWER_TIMEOUT_MS = 5_000;

/** Runs per property: `FUZZ_RUNS`, else {@link DEFAULT_FUZZ_RUNS}. */
export function fuzzRuns(): number {
  const runs = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(runs) && runs > 0 ? runs : DEFAULT_FUZZ_RUNS;
}

/** fast-check parameters for one property, from the environment; `share` scales the runs of a costly property. */
export function fuzzParameters(share = 1): fc.Parameters<unknown> {
  const seed = process.env.FUZZ_SEED;
  const path = process.env.FUZZ_PATH;
  return {
    numRuns: Math.max(1, Math.ceil(fuzzRuns() * share)),
    ...(seed !== undefined && seed !== '' ? { seed: Number(seed) } : {}),
    ...(path !== undefined && path !== '' ? { path } : {}),
    // A counterexample is shrunk, but not for ever: a failing run should report quickly.
    plugins: [fc.interruptAfterTimeLimit(10 * 60_000)],
    endOnFailure: false,
  };
}

/** The vitest timeout of one fuzz property: room for every run to take its full time budget on a busy machine. */
export function fuzzTestTimeout(): number {
  return 60_000 + fuzzRuns() * 200;
}

/** `work`, or a rejection naming `what` when it has not settled within {@link ANSWER_TIMEOUT_MS}. */
export async function within<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms: ${what}`)), ANSWER_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------
// Values

const LONG = 'A'.repeat(70_000);

/** Strings that break naive code: empty, control characters, surrogates, scripts, traversal, huge. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\u0000',
      '%00',
      '\ud800',
      '\udfff\ud800',
      '../../etc/passwd',
      '<script>alert(1)</script>',
      '"><img src=x onerror=alert(1)>',
      '__proto__',
      'constructor',
      'toString',
      'null',
      'undefined',
      'NaN',
      '-1',
      '1e309',
      '0x10',
      'ชำระเงิน ๑๒๓',
      '\u202Eevil',
      '😀'.repeat(100),
      '4111 1111 1111 1111',
      '4111111111111111',
      'javascript:alert(1)',
      'data:text/html,hi',
      'https://evil.example/return',
      'http://[::1',
      '0000-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
      '2026-02-30T00:00:00Z',
      '2026-01-01T00:00:00+23:59',
      '1970-01-01T00:00:00.000000001Z',
      '9'.repeat(400),
      'x'.repeat(256),
      'x'.repeat(3000),
      LONG,
    ),
  },
);

/** Numbers around every boundary an amount, a period or a page can have, and the non-finite ones. */
export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, -1, 1, 99, 100, 101, 3, 4, 6, 10, 12, 1.5, 0.1, -100, 300_000, 1_000_000_000, 1_000_000_001, 2 ** 31, 2 ** 53, 2 ** 53 + 2, 1e21, 1e308, -1e308, 5e-324, Number.NaN, Infinity, -Infinity),
  fc.integer(),
  fc.double(),
);

/** Any JSON-ish value a hostile client might put where a field belongs. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 3, arbitrary: nastyNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.constant([]) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.nat({ max: 200 }).map((depth) => nest(depth)) },
  { weight: 1, arbitrary: fc.constantFrom(JSON.parse('{"__proto__":{"polluted":true}}'), { constructor: { prototype: { polluted: true } } }) },
);

/** An object key: ordinary, prototype-polluting, card-ish, or odd. */
export const nastyKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'amount', 'currency', 'pan', 'cardNumber', 'expiry_month', 'id', '', ' ', '\u0000', 'a.b', '$where'),
  fc.string({ maxLength: 12 }),
);

/** `[[...]]` nested `depth` levels. */
export function nest(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

// ---------------------------------------------------------------------------------------------
// Mutations of a valid body

type Mutation =
  | { op: 'drop'; at: number }
  | { op: 'set'; at: number; value: unknown }
  | { op: 'add'; at: number; key: string; value: unknown }
  | { op: 'duplicate'; at: number }
  | { op: 'wrap'; at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('set' as const), at: fc.nat(), value: nastyValue }),
  fc.record({ op: fc.constant('add' as const), at: fc.nat(), key: nastyKey, value: nastyValue }),
  fc.record({ op: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('wrap' as const), at: fc.nat() }),
);

/** Paths to every value inside `value` (objects and arrays), the root excluded. */
function leafPaths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [];
  const paths: string[][] = [];
  for (const [key, child] of Object.entries(value)) {
    paths.push([...prefix, key]);
    paths.push(...leafPaths(child, [...prefix, key]));
  }
  return paths;
}

function containers(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return [prefix, ...Object.entries(value).flatMap(([key, child]) => containers(child, [...prefix, key]))];
}

function parentOf(root: Record<string, unknown>, path: string[]): Record<string, unknown> | undefined {
  let at: unknown = root;
  for (const key of path.slice(0, -1)) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at !== null && typeof at === 'object' ? (at as Record<string, unknown>) : undefined;
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, so `__proto__` becomes an own key as JSON.parse would make it.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `valid` with a few mutations applied, each at a field chosen by index. */
export function applyMutations(valid: Record<string, unknown>, mutations: readonly Mutation[]): unknown {
  const root: Record<string, unknown> = structuredClone(valid);
  for (const m of mutations) {
    if (m.op === 'add') {
      const places = containers(root);
      const place = places[m.at % places.length]!;
      const target = place.length === 0 ? root : (parentOf(root, [...place, '']) ?? root);
      define(target, m.key, structuredClone(m.value));
      continue;
    }
    const paths = leafPaths(root);
    if (paths.length === 0) continue;
    const path = paths[m.at % paths.length]!;
    const parent = parentOf(root, path);
    const key = path[path.length - 1]!;
    if (!parent) continue;
    if (m.op === 'drop') Reflect.deleteProperty(parent, key);
    else if (m.op === 'set') define(parent, key, structuredClone(m.value));
    else if (m.op === 'duplicate') define(parent, key, [parent[key], parent[key]]);
    else define(parent, key, [parent[key]]);
  }
  return root;
}

/** A valid body, or one to three mutations of it; sometimes replaced whole by an array or a primitive. */
export function mutatedBody(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(valid) },
    { weight: 8, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }).map((ms) => applyMutations(valid, ms)) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>([valid], [], null, 0, '', 'body', true) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  );
}

// ---------------------------------------------------------------------------------------------
// Encodings of a body

/**
 * The text sent for a body value: its JSON most of the time, else broken JSON (truncated, a
 * duplicated key, a BOM, NaN, trailing garbage), nothing at all, or deep nesting.
 */
export function bodyText(value: unknown): fc.Arbitrary<string> {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant(text) },
    { weight: 1, arbitrary: fc.nat({ max: Math.max(0, text.length - 1) }).map((n) => text.slice(0, n)) },
    { weight: 1, arbitrary: fc.constant(text.startsWith('{"') ? `{"amount":1,${text.slice(1)}` : `${text}}`) },
    { weight: 1, arbitrary: fc.constantFrom(`\uFEFF${text}`, `${text} trailing`, `${text}\u0000`, ' \n\t') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        'null',
        '[]',
        '{',
        '{"a":NaN}',
        '{"amount":1e999}',
        '{"amount":-0}',
        "{'single':'quotes'}",
        '{"a":"\\ud800"}',
        '{"__proto__":{"isAdmin":true}}',
        '{"constructor":{"prototype":{"x":1}}}',
        '[['.repeat(5_000),
        `${'['.repeat(200)}${']'.repeat(200)}`,
        '{"a":'.repeat(100) + '1' + '}'.repeat(100),
        'a=1&b=2',
        '<xml/>',
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  );
}

/** The Content-Type sent: JSON most of the time, else another type, a near miss, or none. */
export const jsonContentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 10, arbitrary: fc.constant('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      undefined,
      '',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json;charset=latin1',
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=xyz',
      'application/jsonp',
      'application/json-patch+json',
      'application/ld+json',
      'application/json, text/plain',
      ' application/json ',
      'application/',
      '*/*',
    ),
  },
);

/** The Content-Type of a hosted page's form post: a form most of the time. */
export const formContentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 10, arbitrary: fc.constant('application/x-www-form-urlencoded') },
  { weight: 3, arbitrary: fc.constantFrom(undefined, '', 'application/x-www-form-urlencoded; charset=UTF-8', 'multipart/form-data; boundary=x', 'application/json', 'text/plain') },
);

/** Numbers as a person or a script might type them into a form or a query: odd digits, separators, exponents, signs. */
export const numericText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('0', '-0', '-1', '0.001', '1.005', '.5', '5.', '1,000.00', '1 000', '1e3', '1e309', 'NaN', 'Infinity', '0x10', '๑๐๐', '١٠٠', '１００', '99999999999999999999', '100000000.01', ' 1 ', '+1', '1.2.3'),
  fc.double().map(String),
  fc.integer().map(String),
);

/** A form body from field names and values, sometimes with repeated names or raw garbage. */
export function formBody(names: readonly string[], valid: Record<string, string> = {}): fc.Arbitrary<string> {
  const value = fc.oneof(
    { weight: 3, arbitrary: nastyString },
    { weight: 2, arbitrary: numericText },
    { weight: 2, arbitrary: fc.constantFrom(...new Set(['', ...Object.values(valid)])) },
  );
  const field = fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: nastyKey }), value);
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(new URLSearchParams(valid).toString()) },
    {
      weight: 8,
      arbitrary: fc
        .tuple(fc.subarray(Object.entries(valid)), fc.array(field, { maxLength: 6 }))
        .map(([kept, extra]) => new URLSearchParams([...kept, ...extra]).toString()),
    },
    { weight: 1, arbitrary: fc.constantFrom('', '%', '%zz=%zz', '=&=&', 'a'.repeat(20_000), '&&&&', 'otp=%00', '{"json":true}') },
  );
}

// ---------------------------------------------------------------------------------------------
// Requests: methods, paths, queries, headers

export const anyMethod: fc.Arbitrary<string> = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'get', 'PROPFIND', 'TRACE-X');

/** A path segment: a real one given, an encoded trick, traversal, an id lookalike, or something long. */
export function pathSegment(real: readonly string[] = []): fc.Arbitrary<string> {
  const tricks = fc.constantFrom('..', '.', '%2e%2e', '%2E%2E%2F', '%2F', '%00', '%', '%zz', '%E0%A4%A', '%C0%AE', '%20', '+', ';', ';a=b', '~', 'ch_', 'ch_%00', 'ca_x', '__proto__', 'constructor', '%5F%5Fproto%5F%5F', 'a'.repeat(3000), '%41'.repeat(500), 'ชำระ', '😀');
  const random = fc.string({ maxLength: 20 }).map((s) => encodeURIComponent(s));
  return real.length > 0
    ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...real) }, { weight: 2, arbitrary: tricks }, { weight: 1, arbitrary: random })
    : fc.oneof({ weight: 2, arbitrary: tricks }, { weight: 1, arbitrary: random });
}

/** A query string of the given parameter names (and random ones), repeated and garbled. */
export function queryString(names: readonly string[], values: readonly string[] = []): fc.Arbitrary<string> {
  const value = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('', '0', '1', '-1', '5', '20', '21', '100', '101', '1.5', '1e3', 'NaN', 'Infinity', '0x10', '007', ' 1', '999999999999999999999', 'true', '%00', ...values) },
    { weight: 1, arbitrary: nastyString.map((s) => s.slice(0, 300)) },
  );
  const name = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) });
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant('') },
    {
      weight: 4,
      arbitrary: fc.array(fc.tuple(name, value), { maxLength: 5 }).map((pairs) => (pairs.length === 0 ? '' : `?${new URLSearchParams(pairs).toString()}`)),
    },
    { weight: 1, arbitrary: fc.constantFrom('?', '?&&', '?=', '?wait', '?wait=%', '?limit=%zz', '?a=1&a=2&a=3', `?${'x=1&'.repeat(500)}`, '?%00=%00') },
  );
}

/**
 * A header value a Fetch `Headers` accepts (Latin-1, no NUL, CR or LF) but a server may not expect:
 * empty, long, non-ASCII bytes, commas, quotes.
 */
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0x01, max: 0xff }).filter((c) => c !== 0x0a && c !== 0x0d).map((c) => String.fromCharCode(c)), maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', 'a'.repeat(5000), 'null', 'undefined', ',', '"quoted"', 'é', '\u00ff\u00fe', '\t') },
);

/** An Authorization header: the real one given, or a broken Basic header, another scheme, or none. */
export function authorizationHeader(real: readonly string[]): fc.Arbitrary<string | undefined> {
  const basic = (text: string) => `Basic ${Buffer.from(text, 'latin1').toString('base64')}`;
  return fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...real) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 3,
      arbitrary: fc.oneof(
        fc.constantFrom('Basic', 'Basic ', 'Basic ====', 'Basic !!!', 'basic Og==', 'Bearer token', 'Digest x', 'Basic ' + 'A'.repeat(10_000), basic(':'), basic('::::'), basic('mch_x'), basic('\u00ff:\u00ff')),
        fc.tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 })).map(([user, key]) => basic(`${user}:${key}`)),
        headerValue,
      ),
    },
  );
}

/** A Content-Length header: none most of the time, else a lie (too small, too large, garbage). */
export const contentLengthLie: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constantFrom('0', '1', '-1', 'abc', '1e3', '99999999999', '18446744073709551616', ' 5', '5, 5') },
);

/** Whether the body breaks off mid-upload (the client resets the connection): now and then. */
export const breakOff: fc.Arbitrary<boolean> = fc.oneof({ weight: 15, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });

/** A body stream that sends the first half of `text`, then fails as a reset connection does. */
export function brokenBody(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text.slice(0, Math.ceil(text.length / 2)));
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.length > 0) controller.enqueue(bytes);
      controller.error(new TypeError('terminated: other side closed'));
    },
  });
}

/**
 * Builds a request, or `undefined` when Fetch itself refuses it (a body on GET, a bad method
 * name). `breakOff` sends the body as a stream that fails halfway.
 */
export function buildRequest(
  url: string,
  init: { method: string; headers: Record<string, string | undefined>; body?: string | undefined; breakOff?: boolean },
): Request | undefined {
  const headers = new Headers();
  try {
    for (const [name, value] of Object.entries(init.headers)) if (value !== undefined) headers.append(name, value);
    const bodyAllowed = init.method.toUpperCase() !== 'GET' && init.method.toUpperCase() !== 'HEAD';
    if (!bodyAllowed || init.body === undefined) return new Request(url, { method: init.method, headers });
    if (init.breakOff) return new Request(url, { method: init.method, headers, body: brokenBody(init.body), duplex: 'half' } as RequestInit);
    return new Request(url, { method: init.method, headers, body: init.body });
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Coverage figures

const tally = new Map<string, number>();

/** Counts one answer under `label` (e.g. "POST /charges 400 INVALID_REQUEST"), for {@link printTally}. */
export function count(label: string): void {
  tally.set(label, (tally.get(label) ?? 0) + 1);
}

/** Prints what the answers were, when `FUZZ_STATS` is set: shows the generators reach past the first refusal. */
export function printTally(title: string): void {
  if (!process.env.FUZZ_STATS) return;
  const lines = [...tally.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([label, n]) => `  ${String(n).padStart(6)}  ${label}`);
  console.log(`${title}\n${lines.join('\n')}`);
  tally.clear();
}
