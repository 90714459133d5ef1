import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_HEADERS } from '../../src/core/constants.js';
import { CreateCardAuthorizationRequestSchema } from '../../src/core/schemas/card-authorization.js';
import { CreateChargeRequestSchema } from '../../src/core/schemas/charge.js';
import { CHECKOUT_ERROR_CODES, CHECKOUT_IDEMPOTENCY_HEADER, CHECKOUT_STATUS_TOKEN_HEADER } from '../../src/core/schemas/checkout.js';
import { VerifyQrSlipRequestSchema } from '../../src/core/schemas/qr-slip.js';
import { WEBHOOK_EVENT_NAMES } from '../../src/core/schemas/webhook-events.js';
import { signWebhookPayload } from '../../src/core/webhook-signature.js';
import type { ResolvedOrder } from '../../src/server/index.js';
import { BASE, createCheckoutHarness, SHOP, WEBHOOK_KEY, type CheckoutHarness } from '../support/checkout-harness.js';
import {
  anyMethod,
  bodyText,
  breakOff,
  buildRequest,
  count,
  contentLengthLie,
  fuzzParameters,
  fuzzTestTimeout,
  headerValue,
  jsonContentType,
  mutatedBody,
  nastyString,
  pathSegment,
  printTally,
  queryString,
  within,
} from './arbitraries.js';

/**
 * The checkout proxy under generated hostile input, in front of a real sandbox. For every
 * request: an answer comes, it is never a 5xx, a refusal is the documented error shape with a
 * documented code, and every call the proxy makes to the service carries a body the service's own
 * request schemas accept. A refusal changes nothing at the service.
 */

const ORDERS: Record<string, ResolvedOrder> = {
  'order-1': { amount: 10_000, currency: 'THB', referenceId: 'order-1' },
  // One order per fixture: an order has one payment at a time.
  'order-2': { amount: 10_000, currency: 'THB', referenceId: 'order-2' },
  'order-3': { amount: 10_000, currency: 'THB', referenceId: 'order-3' },
  'order-4': { amount: 10_000, currency: 'THB', referenceId: 'order-4' },
  'order-5': { amount: 10_000, currency: 'THB', referenceId: 'order-5' },
  'order-big': { amount: 600_000, currency: 'THB', referenceId: 'order-big' },
  'order-auth': { amount: 25_000, currency: 'THB', referenceId: 'order-auth', intent: 'authorize' },
};
const ALLOWED_ORIGIN = 'https://app.example';
/** Replaced, in the body text sent, by a card token made for that request. */
const FRESH_TOKEN = '{{fresh-card-token}}';
const KBANK_TOKEN = '{{fresh-kbank-token}}';
const USED_TOKEN = '{{used-card-token}}';

/** Refusals that repeat the service's own refusal of a call the proxy was right to make. */
const SERVICE_REFUSALS = new Set(['PAYMENT_DETAILS_REJECTED', 'IDEMPOTENCY_CONFLICT', 'NOT_FOUND', 'SLIP_NOT_FOUND', 'SLIP_MISMATCH']);

interface ServiceCall {
  method: string;
  path: string;
  idempotencyKey: string | null;
  body: string;
  status: number;
}

let harness: CheckoutHarness;
const calls: ServiceCall[] = [];
/** Charges and card authorizations, each with its status token, that the status and slip routes are fuzzed on. */
const fixtures = { pending: { id: '', token: '' }, paid: { id: '', token: '' }, failed: { id: '', token: '' }, authorized: { id: '', token: '' }, qr: { id: '', token: '' }, slip: '', otherSlip: '', charge: '', authorization: '', usedToken: '' };

beforeAll(async () => {
  // Known references only: a plain ORDERS[reference] would price "__proto__" as Object.prototype.
  const resolveOrder = (reference: string) => (Object.hasOwn(ORDERS, reference) ? ORDERS[reference]! : null);
  harness = createCheckoutHarness(ORDERS, { resolveOrder, rateLimit: false, allowedOrigins: [ALLOWED_ORIGIN], statusPollIntervalMs: 20 }, {}, async (request) => {
    const body = await request.clone().text();
    const response = await harness.sandbox.fetch(request);
    const url = new URL(request.url);
    calls.push({ method: request.method, path: url.pathname, idempotencyKey: request.headers.get(SERVICE_HEADERS.idempotencyKey), body, status: response.status });
    return response;
  });
  const create = async (body: unknown) => {
    const answer = await harness.call('POST', '/charges', { body });
    expect(answer.status, answer.text).toBe(201);
    return { id: answer.body.chargeId as string, token: answer.body.statusToken as string };
  };
  const card = async (pan: string) => ({ type: 'CARD_TOKEN', cardTokenId: await harness.service.tokenize(pan), securityCode: '123' });
  const paidWith = await card('4111111111111111');
  fixtures.usedToken = paidWith.cardTokenId;
  fixtures.paid = await create({ orderReference: 'order-1', paymentMethod: paidWith });
  fixtures.failed = await create({ orderReference: 'order-2', paymentMethod: await card('4943129900084541') });
  fixtures.authorized = await create({ orderReference: 'order-auth', intent: 'authorize', paymentMethod: await card('4111111111111111') });
  fixtures.qr = await create({ orderReference: 'order-3', paymentMethod: { type: 'QR_PROMPT_PAY' } });
  fixtures.pending = await create({ orderReference: 'order-4', paymentMethod: { type: 'QR_PROMPT_PAY' } });
  const other = await create({ orderReference: 'order-5', paymentMethod: { type: 'QR_PROMPT_PAY' } });
  fixtures.slip = (await harness.service.get(`/sandbox/v1/charges/${fixtures.qr.id}/slip`)).body.raw;
  fixtures.otherSlip = (await harness.service.get(`/sandbox/v1/charges/${other.id}/slip`)).body.raw;
  fixtures.charge = JSON.stringify(await harness.service.getCharge(fixtures.paid.id));
  fixtures.authorization = JSON.stringify((await harness.service.get(`/api/v1/card-authorizations/${fixtures.authorized.id}`)).body);
  await harness.sandbox.webhooks.idle();
});

afterAll(() => {
  printTally('checkout proxy answers');
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
  harness?.sandbox.close();
});

/** What the service holds that a call could have created. */
function serviceRecords(): number {
  return harness.sandbox.store.charges.size + harness.sandbox.authorizations.records.size + harness.sandbox.store.refunds.size;
}

/** Sends one generated request and asserts everything the proxy promises about its answer. */
async function check(route: string, request: Request | undefined, what: string): Promise<{ status: number; body: any }> {
  fc.pre(request !== undefined);
  const before = serviceRecords();
  const first = calls.length;
  const response = await within(what, harness.handler(request));
  const text = await within(`${what} (body)`, response.text());
  const made = calls.slice(first);
  const status = response.status;

  expect(status, `${what} → ${status} ${text.slice(0, 300)}`).toBeLessThan(500);
  let body: any;
  if (status !== 204) {
    expect(response.headers.get('content-type'), what).toMatch(/^application\/json/);
    body = JSON.parse(text);
  }
  if (status >= 400) {
    expect(body, `${what}: ${text.slice(0, 300)}`).toEqual({
      ...conflictDetails(body),
      code: status,
      message: expect.any(String),
      error: { errorCode: expect.any(String), errorMessage: body.message, retryable: expect.any(Boolean), ...(body.error.field !== undefined ? { field: expect.any(String) } : {}) },
    });
    expect(Object.keys(body.error).every((key) => ['errorCode', 'errorMessage', 'retryable', 'field'].includes(key)), text).toBe(true);
    expect(CHECKOUT_ERROR_CODES, what).toContain(body.error.errorCode);
    // A refusal leaves nothing behind at the service; only a refusal the service made itself follows a write to it.
    expect(serviceRecords(), `${what}: ${text}`).toBe(before);
    for (const call of made.filter((c) => c.method !== 'GET')) {
      expect(SERVICE_REFUSALS.has(body.error.errorCode), `${what} was refused (${body.error.errorCode}) after ${call.method} ${call.path}`).toBe(true);
      if (body.error.errorCode !== 'SLIP_MISMATCH') expect(call.status, `${call.method} ${call.path}`).toBeGreaterThanOrEqual(400);
    }
  }
  for (const call of made) checkServiceCall(call, what);
  count(`${route} ${status} ${body?.error?.errorCode ?? ''}`);
  return { status, body };
}

/** The members a 409 of `POST /charges` adds beside the error shape (CheckoutConflictDetails), checked by type. */
function conflictDetails(body: any): Record<string, unknown> {
  switch (body.error?.errorCode) {
    case 'AMOUNT_CHANGED':
      return { amount: expect.any(Number), currency: expect.any(String) };
    case 'PAYMENT_IN_PROGRESS':
      return { replaceable: expect.any(Boolean), ...(body.paymentMethodType !== undefined ? { paymentMethodType: expect.any(String) } : {}) };
    case 'SLIP_MISMATCH':
      // Says that the slip's payment is paid, never which one it is.
      return { slipPayment: 'another', slipPaymentStatus: 'SUCCEEDED' };
    default:
      return {};
  }
}

/** A call the proxy made: one it may make, with an idempotency key when it writes, and a body the service's schema accepts. */
function checkServiceCall(call: ServiceCall, what: string): void {
  const where = `${what}: ${call.method} ${call.path} ${call.body.slice(0, 300)}`;
  const idMatch = /^\/api\/v1\/(charges|card-authorizations)\/([^/]+)$/.exec(call.path);
  if (call.method === 'GET') {
    expect(idMatch, where).not.toBeNull();
    expect(call.path.includes('verify-qr-slip'), where).toBe(false);
    expect(decodeURIComponent(idMatch![2]!), where).toMatch(/^[\w-]{1,128}$/);
    return;
  }
  expect(call.method, where).toBe('POST');
  expect(call.idempotencyKey, where).toMatch(/^[\x21-\x7e]{1,255}$/);
  const body = JSON.parse(call.body);
  if (call.path === '/api/v1/charges') {
    expect(CreateChargeRequestSchema.safeParse(body).success, where).toBe(true);
    expect(body.amount, where).toBe(ORDERS[Object.keys(ORDERS).find((k) => ORDERS[k]!.referenceId === body.referenceId)!]!.amount);
  } else if (call.path === '/api/v1/card-authorizations') {
    expect(CreateCardAuthorizationRequestSchema.safeParse(body).success, where).toBe(true);
    expect(body.amount, where).toBe(ORDERS['order-auth']!.amount);
  } else if (call.path === '/api/v1/charges/verify-qr-slip') {
    expect(VerifyQrSlipRequestSchema.safeParse(body).success, where).toBe(true);
  } else {
    expect.fail(`unexpected call ${where}`);
  }
}

/** Puts fresh card tokens where the generated body asks for them. */
async function withFreshTokens(text: string): Promise<string> {
  let out = text;
  if (out.includes(FRESH_TOKEN)) out = out.split(FRESH_TOKEN).join(await harness.service.tokenize('4111111111111111'));
  if (out.includes(USED_TOKEN)) out = out.split(USED_TOKEN).join(fixtures.usedToken);
  if (out.includes(KBANK_TOKEN)) out = out.split(KBANK_TOKEN).join(await harness.service.tokenize('4417704002802961'));
  return out;
}

const origin = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom<string | undefined>(undefined, SHOP, ALLOWED_ORIGIN) },
  { weight: 1, arbitrary: fc.constantFrom('https://evil.example', 'null', 'https://shop.example.evil.example', '', 'http://shop.example', 'https://app.example:443') },
);
const idempotencyKey = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constantFrom('attempt-1', 'attempt-2', 'attempt-3') },
  { weight: 2, arbitrary: headerValue },
);

const VALID_CHARGES: Record<string, unknown>[] = [
  { orderReference: 'order-1', amount: 10_000, currency: 'THB', paymentMethod: { type: 'CARD_TOKEN', cardTokenId: FRESH_TOKEN, securityCode: '123' }, returnUrl: `${SHOP}/done`, deviceType: 'WEB', customer: { email: 'somchai@example.com' } },
  { orderReference: 'order-big', amount: 600_000, currency: 'THB', paymentMethod: { type: 'CARD_TOKEN_INSTALLMENTS', cardTokenId: KBANK_TOKEN, securityCode: '123', installmentPeriod: 3 } },
  { orderReference: 'order-1', amount: 10_000, currency: 'THB', paymentMethod: { type: 'QR_PROMPT_PAY' } },
  { orderReference: 'order-1', amount: 10_000, currency: 'THB', paymentMethod: { type: 'TRUE_MONEY' }, returnUrl: `${SHOP}/done`, deviceType: 'IOS' },
  { orderReference: 'order-1', amount: 10_000, currency: 'THB', paymentMethod: { type: 'KPLUS' }, deviceType: 'ANDROID', returnUrl: `${ALLOWED_ORIGIN}/back` },
  { orderReference: 'order-auth', amount: 25_000, intent: 'authorize', paymentMethod: { type: 'CARD_TOKEN', cardTokenId: FRESH_TOKEN, securityCode: '123' } },
  { orderReference: 'no-such-order', amount: 10_000, currency: 'THB', paymentMethod: { type: 'ALIPAY' } },
  // Valid for the proxy, refused by the service: a used card token, a plan below its minimum amount.
  { orderReference: 'order-1', amount: 10_000, currency: 'THB', paymentMethod: { type: 'CARD_TOKEN', cardTokenId: USED_TOKEN, securityCode: '123' } },
  { orderReference: 'order-1', amount: 10_000, currency: 'THB', paymentMethod: { type: 'CARD_TOKEN_INSTALLMENTS', cardTokenId: KBANK_TOKEN, securityCode: '123', installmentPeriod: 10 } },
];

/** A valid charge body, sometimes for an order reference a naive lookup trips on. */
const chargeBody = fc
  .tuple(
    fc.constantFrom(...VALID_CHARGES),
    fc.oneof(
      { weight: 6, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.oneof(nastyString, fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'order-1 ', 'ORDER-1')) },
    ),
  )
  .map(([valid, reference]) => (reference === undefined ? valid : { ...valid, orderReference: reference }));

const timeout = fuzzTestTimeout();

describe('the checkout proxy under fuzzed input', () => {
  it('answers POST /charges with a charge or a documented refusal, and sends the service only valid charges', { timeout }, async () => {
    await fc.assert(
      fc.asyncProperty(
        chargeBody.chain((valid) => mutatedBody(valid).chain(bodyText)),
        jsonContentType,
        idempotencyKey,
        origin,
        contentLengthLie,
        breakOff,
        async (text, contentType, key, from, length, broken) => {
          const body = await withFreshTokens(text);
          const request = buildRequest(`${BASE}/charges`, {
            method: 'POST',
            headers: { 'content-type': contentType, [CHECKOUT_IDEMPOTENCY_HEADER]: key, origin: from, 'content-length': length },
            body,
            breakOff: broken,
          });
          await check('POST /charges', request, `POST /charges ${body.slice(0, 200)}`);
        },
      ),
      fuzzParameters(),
    );
  });

  it('answers GET /charges/{id}/status with the status or a documented refusal, never holding a final charge', { timeout }, async () => {
    const ids = () => [fixtures.paid.id, fixtures.failed.id, fixtures.authorized.id];
    const tokens = () => [fixtures.paid.token, fixtures.failed.token, fixtures.authorized.token];
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ weight: 3, arbitrary: fc.nat({ max: 2 }).map((i) => ids()[i]!) }, { weight: 1, arbitrary: pathSegment() }),
        fc.oneof({ weight: 3, arbitrary: fc.nat({ max: 2 }).map((i) => tokens()[i]) }, { weight: 1, arbitrary: fc.constantFrom(undefined, '', 'v1.x.y') }, { weight: 1, arbitrary: headerValue }),
        fc.boolean(),
        queryString(['wait', 'token', 'limit'], ['0', '1', '20', '21', '600']),
        fc.oneof({ weight: 8, arbitrary: fc.constant('GET') }, { weight: 1, arbitrary: anyMethod }),
        origin,
        async (id, token, inQuery, query, method, from) => {
          const search = new URLSearchParams(query);
          if (token !== undefined && inQuery) search.append('token', token);
          const qs = search.toString();
          const request = buildRequest(`${BASE}/charges/${id}/status${qs ? `?${qs}` : ''}`, {
            method,
            headers: { ...(token !== undefined && !inQuery ? { [CHECKOUT_STATUS_TOKEN_HEADER]: token } : {}), origin: from },
          });
          const { status, body } = await check('status', request, `${method} status ${id.slice(0, 60)} ${qs.slice(0, 100)}`);
          if (status === 200) expect(['SUCCEEDED', 'FAILED']).toContain(body.status);
          // The token is read from the header only: one in the address opens nothing.
          if (inQuery) expect(status).not.toBe(200);
        },
      ),
      fuzzParameters(),
    );
  });

  it('answers a long-poll on a pending charge when its wait is over, with the status or a documented refusal', { timeout }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('', '0', '1', '00', '001', '-0', '0.5', '1e0', ' 1', '+1'),
        fc.constantFrom('header', 'query', 'both'),
        queryString(['token', 'limit']),
        async (wait, where, extra) => {
          const pending = fixtures.pending;
          const search = new URLSearchParams(extra);
          search.set('wait', wait);
          if (where !== 'header') search.append('token', pending.token);
          const request = buildRequest(`${BASE}/charges/${pending.id}/status?${search}`, { method: 'GET', headers: where !== 'query' ? { [CHECKOUT_STATUS_TOKEN_HEADER]: pending.token } : {} });
          const { status, body } = await check('long-poll', request, `long-poll wait=${wait} ${search}`);
          if (status === 200) expect(body.status).toBe('PENDING');
          if (where === 'query') expect([status, body.error?.errorCode]).toEqual([403, 'INVALID_STATUS_TOKEN']);
        },
      ),
      // A valid wait holds the answer for up to a second: a few runs prove the hold ends.
      fuzzParameters(1 / 40),
    );
  });

  it('answers POST /charges/{id}/slip with the outcome or a documented refusal, and sends the service only valid slips', { timeout }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ weight: 3, arbitrary: fc.constantFrom('qr', 'paid', 'authorized') }, { weight: 1, arbitrary: pathSegment() }),
        fc.constantFrom('own', 'own', 'own', 'own', 'other', 'garbage', 'none'),
        fc.constantFrom('own', 'other').chain((which) => mutatedBody({ raw: which === 'own' ? fixtures.slip : fixtures.otherSlip }).chain(bodyText)),
        jsonContentType,
        origin,
        breakOff,
        async (subject, tokenKind, text, contentType, from, broken) => {
          const fixture = subject === 'qr' || subject === 'paid' || subject === 'authorized' ? fixtures[subject] : { id: subject, token: 'x' };
          const token = tokenKind === 'own' ? fixture.token : tokenKind === 'other' ? fixtures.qr.token : tokenKind === 'garbage' ? 'v1.garbage' : undefined;
          const request = buildRequest(`${BASE}/charges/${fixture.id}/slip`, {
            method: 'POST',
            headers: { 'content-type': contentType, [CHECKOUT_STATUS_TOKEN_HEADER]: token, origin: from },
            body: text,
            breakOff: broken,
          });
          await check('slip', request, `POST slip ${subject.slice(0, 40)} ${tokenKind} ${text.slice(0, 200)}`);
        },
      ),
      fuzzParameters(),
    );
  });

  it('answers POST /webhooks: a bad signature is 401, a signed bad body a documented refusal, never a 5xx', { timeout }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('charge', 'authorization').chain((kind) => mutatedBody(JSON.parse(kind === 'charge' ? fixtures.charge : fixtures.authorization)).chain(bodyText)),
        fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...WEBHOOK_EVENT_NAMES) }, { weight: 1, arbitrary: fc.constantFrom(undefined, '', 'charge.unknown', 'CHARGE.SUCCEEDED', '__proto__', 'charge.') }, { weight: 1, arbitrary: headerValue }),
        fc.constantFrom('valid', 'valid', 'valid', 'other-body', 'garbage', 'missing', 'truncated'),
        fc.oneof({ weight: 6, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: jsonContentType }),
        contentLengthLie,
        fc.constantFrom<string | undefined>(undefined, 'https://evil.example'),
        breakOff,
        async (text, event, signatureKind, contentType, length, from, broken) => {
          const valid = await signWebhookPayload(text, WEBHOOK_KEY);
          const signature =
            signatureKind === 'valid'
              ? valid
              : signatureKind === 'other-body'
                ? await signWebhookPayload(`${text} `, WEBHOOK_KEY)
                : signatureKind === 'truncated'
                  ? valid.slice(0, -4)
                  : signatureKind === 'garbage'
                    ? 'not-a-signature=='
                    : undefined;
          const request = buildRequest(`${BASE}/webhooks`, {
            method: 'POST',
            headers: { 'content-type': contentType, [SERVICE_HEADERS.event]: event, [SERVICE_HEADERS.signature]: signature, 'content-length': length, origin: from },
            body: text,
            breakOff: broken,
          });
          const { status, body } = await check('webhook', request, `webhook ${event} ${signatureKind} ${text.slice(0, 200)}`);
          if (signatureKind !== 'valid' && status !== 413 && !broken) expect([status, body.error.errorCode]).toEqual([401, 'INVALID_SIGNATURE']);
        },
      ),
      fuzzParameters(),
    );
  });

  it('makes one charge for concurrent copies of one attempt, and answers each copy alike', { timeout }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...VALID_CHARGES.slice(0, 6)),
        fc.integer({ min: 2, max: 4 }),
        fc.oneof(fc.uuid(), fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 200 })),
        async (valid, copies, key) => {
          const body = await withFreshTokens(JSON.stringify(valid));
          const before = serviceRecords();
          const send = () => check('concurrent', buildRequest(`${BASE}/charges`, { method: 'POST', headers: { 'content-type': 'application/json', [CHECKOUT_IDEMPOTENCY_HEADER]: key }, body }), `concurrent POST /charges ${body}`);
          const answers = await Promise.all(Array.from({ length: copies }, send));
          expect(new Set(answers.map((a) => JSON.stringify([a.status, a.body.chargeId ?? a.body.error.errorCode]))).size, JSON.stringify(answers)).toBe(1);
          expect(serviceRecords() - before).toBeLessThanOrEqual(1);
        },
      ),
      fuzzParameters(1 / 4),
    );
  });

  it('answers any method on any path with a documented answer', { timeout }, async () => {
    const segment = pathSegment(['charges', 'status', 'slip', 'webhooks', 'api', 'checkout', '']);
    await fc.assert(
      fc.asyncProperty(
        anyMethod,
        fc.constantFrom('/api/checkout', '/api/checkout/', '/api', '', '/api/checkoutx', '/API/checkout'),
        fc.array(fc.oneof(segment, fc.constant(fixtures.paid.id)), { maxLength: 5 }),
        queryString(['wait', 'token']),
        fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: nastyString.chain(bodyText) }),
        jsonContentType,
        origin,
        fc.dictionary(fc.constantFrom('x-forwarded-for', 'x-satang-status-token', CHECKOUT_IDEMPOTENCY_HEADER, 'access-control-request-method', 'cookie', 'authorization'), headerValue, { maxKeys: 3 }),
        async (method, base, segments, query, body, contentType, from, extra) => {
          const path = `${base}/${segments.join('/')}`;
          const request = buildRequest(`${SHOP}${path}${query}`, { method, headers: { 'content-type': contentType, origin: from, ...extra }, body });
          await check('any path', request, `${method} ${path.slice(0, 200)}${query.slice(0, 100)}`);
        },
      ),
      fuzzParameters(),
    );
  });
});

describe('counterexamples the fuzzing found', () => {
  it('refuses a charge whose body breaks off mid-upload with a 400, not a 500, and calls nothing', async () => {
    const body = JSON.stringify({ orderReference: 'order-1', paymentMethod: { type: 'QR_PROMPT_PAY' } });
    const request = buildRequest(`${BASE}/charges`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, breakOff: true });
    const { status, body: answer } = await check('regression', request, 'POST /charges, body broken off');
    expect([status, answer.error.errorCode]).toEqual([400, 'INVALID_REQUEST']);
  });

  it('refuses a webhook whose body breaks off mid-delivery with a 400, so the service sends it again', async () => {
    const signature = await signWebhookPayload(fixtures.charge, WEBHOOK_KEY);
    const request = buildRequest(`${BASE}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SERVICE_HEADERS.event]: 'charge.succeeded', [SERVICE_HEADERS.signature]: signature },
      body: fixtures.charge,
      breakOff: true,
    });
    const { status, body } = await check('regression', request, 'POST /webhooks, body broken off');
    expect([status, body.error.errorCode]).toEqual([400, 'INVALID_REQUEST']);
  });
});
