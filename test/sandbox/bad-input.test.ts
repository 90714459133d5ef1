import { describe, expect } from 'vitest';
import { SERVICE_HEADERS } from '../../src/core/constants.js';
import { SERVICE_ERROR_STATUS, type ServiceErrorCode } from '../../src/core/service-error.js';
import { SANDBOX_DEFAULTS, SANDBOX_MAX_BODY_BYTES, SANDBOX_PAGES_PATH, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { qrChargeBody } from '../support/qr-charge.js';
import { seededRandom } from '../support/seeded-random.js';
import {
  API_AUTH,
  basic,
  CLIENT_AUTH,
  FUTURE_EXPIRY_YEAR,
  IDEMPOTENCY_HEADER,
  ORIGIN,
  type Answer,
  type SandboxClient,
} from '../support/sandbox-client.js';
import { sandboxTest } from '../support/sandbox-fixture.js';

// The promise under test: bad input anywhere gets a clear 4xx in the service's error shape,
// never a 5xx, never a hang, and never changes state.

const REQUEST_TIMEOUT_MS = 2_000;
const JSON_TYPE = { 'content-type': 'application/json' } as const;
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' } as const;
const REQUEST_ID = SERVICE_HEADERS.requestId;
const PARTNER_ID_HEADER = SERVICE_HEADERS.partnerId;
const PARTNER_AUTH = basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.partnerApiKey);

/** Fails with a clear message when `work` takes longer than the per-request limit. */
async function within<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} got no answer within ${REQUEST_TIMEOUT_MS} ms`)), REQUEST_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

type Init = NonNullable<Parameters<SandboxClient['request']>[2]>;

/** One request through the test client, bounded in time. */
function send(client: SandboxClient, method: string, path: string, init: Init = {}): Promise<Answer> {
  return within(`${method} ${path.slice(0, 80)}`, client.request(method, path, init));
}

/** Raw text declared as JSON. */
function sendRaw(client: SandboxClient, method: string, path: string, raw: string, init: Omit<Init, 'raw' | 'body'> = {}): Promise<Answer> {
  return send(client, method, path, { ...init, raw, headers: { ...JSON_TYPE, ...init.headers } });
}

/** A hand-built request (bytes, no content type, a lying Content-Length), bounded in time. */
function sendRequest(sandbox: Sandbox, request: Request): Promise<Answer> {
  return within(
    `${request.method} ${new URL(request.url).pathname.slice(0, 80)}`,
    (async () => {
      const response = await sandbox.fetch(request);
      const text = await response.text();
      let body: unknown = text;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        // pages stay text
      }
      return { status: response.status, body, headers: response.headers };
    })(),
  );
}

function brief(body: unknown): string {
  // JSON.stringify gives undefined for an undefined body, which its type omits.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
  return (typeof body === 'string' ? body : JSON.stringify(body) ?? 'no body').slice(0, 300);
}

/** The answer is `status` with the service's error body, its code and a request id. */
function expectServiceError(answer: Answer, status: number, errorCode?: ServiceErrorCode) {
  expect(answer.status, brief(answer.body)).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json\b/);
  expect(answer.headers.get(REQUEST_ID)).toMatch(/^req_/);
  expect(answer.body).toEqual({
    code: status,
    message: expect.stringMatching(/\S/),
    error: { errorCode: errorCode ?? expect.any(String), errorMessage: expect.stringMatching(/\S/) },
  });
  expect(answer.body.error.errorMessage).toBe(answer.body.message);
  expect(SERVICE_ERROR_STATUS[answer.body.error.errorCode as ServiceErrorCode]).toBe(status);
}

/** A hosted page (HTML) answered `status`. */
function expectPage(answer: Answer, status: number) {
  expect(answer.status, brief(answer.body)).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^text\/html\b/);
  expect(answer.headers.get(REQUEST_ID)).toMatch(/^req_/);
}

/** Everything a request could change. */
function state(sandbox: Sandbox) {
  const store = sandbox.store;
  return {
    charges: [...store.charges.values()].map(({ charge, refundedAmount }) => `${charge.chargeId}:${charge.status}:${refundedAmount}`),
    cardTokens: [...store.cardTokens.values()].map((token) => `${token.id}:${token.usedAt ? 'used' : 'unused'}`),
    refunds: [...store.refunds.keys()],
    transactions: [...store.transactions.keys()],
    webhooks: sandbox.webhooks.list().length,
  };
}

// ---------------------------------------------------------------------------------------------
// Valid bodies, to which each case applies one fault.

const VISA = '4111111111111111';
const tokenBody = (): Record<string, unknown> => ({ pan: VISA, expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee' });
const cardBody = (card: Record<string, unknown> = {}): Record<string, unknown> => ({
  amount: 10_000,
  currency: 'THB',
  referenceId: 'order-1',
  paymentMethod: { paymentMethodType: 'CARD', card: { ...tokenBody(), securityCode: '123', ...card } },
});
const walletBody = (): Record<string, unknown> => ({ amount: 10_000, currency: 'THB', referenceId: 'order-w', paymentMethod: { paymentMethodType: 'ALIPAY' } });

/** Creates a SUCCEEDED card charge and answers its id. */
async function succeededChargeId(client: SandboxClient): Promise<string> {
  const created = await send(client, 'POST', '/api/v1/charges', { body: cardBody() });
  expect(created.status, brief(created.body)).toBe(201);
  return created.body.chargeId as string;
}

interface JsonEndpoint {
  name: string;
  path: string;
  auth: string;
  required: string[];
  /** A body the endpoint accepts with 201; may create what it needs first. */
  valid: (client: SandboxClient) => Promise<Record<string, unknown>>;
}

const ENDPOINTS: JsonEndpoint[] = [
  { name: 'POST /client/v1/card-tokens', path: '/client/v1/card-tokens', auth: CLIENT_AUTH, required: ['pan', 'expiryMonth', 'expiryYear', 'cardHolderName'], valid: () => Promise.resolve(tokenBody()) },
  { name: 'POST /api/v1/charges', path: '/api/v1/charges', auth: API_AUTH, required: ['amount', 'currency', 'paymentMethod', 'referenceId'], valid: () => Promise.resolve(cardBody()) },
  { name: 'POST /api/v1/refunds', path: '/api/v1/refunds', auth: API_AUTH, required: ['chargeId'], valid: async (client) => ({ chargeId: await succeededChargeId(client) }) },
];

const MALFORMED_JSON = [
  { name: 'truncated JSON', raw: '{"amount": 10000, "curr' },
  { name: 'trailing garbage', raw: '{"amount": 10000} trailing' },
  { name: 'two documents', raw: '{}{}' },
  { name: "single quotes {'a':1}", raw: "{'a':1}" },
  { name: 'an unquoted key', raw: '{a:1}' },
  { name: 'NaN', raw: '{"amount": NaN}' },
  { name: 'Infinity', raw: '{"amount": Infinity}' },
  { name: 'a trailing comma', raw: '{"a":1,}' },
  { name: 'a comment', raw: '// note\n{}' },
  { name: 'the word undefined', raw: 'undefined' },
  { name: 'a raw control character inside a string', raw: '{"a":"x\u0001y"}' },
  { name: '10,000 unclosed [', raw: '['.repeat(10_000) },
];

const WRONG_JSON_TYPES = [
  { name: 'null', raw: 'null' },
  { name: 'an empty array', raw: '[]' },
  { name: 'an array of one object', raw: '[{}]' },
  { name: 'a string', raw: '"text"' },
  { name: 'a number', raw: '42' },
  { name: 'true', raw: 'true' },
];

describe.each(ENDPOINTS)('$name with a body that is not a usable JSON object', (endpoint) => {
  sandboxTest.for(MALFORMED_JSON)('answers 400 INVALID_JSON_ERROR to $name and changes nothing', async ({ raw }, { startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const before = state(sandbox);
    expectServiceError(await sendRaw(client, 'POST', endpoint.path, raw, { auth: endpoint.auth }), 400, 'INVALID_JSON_ERROR');
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest('answers 400 INVALID_JSON_ERROR to bytes that are not UTF-8', async ({ startInProcess }) => {
    const { sandbox } = startInProcess({ refundSettleDelayMs: 0 });
    const before = state(sandbox);
    const request = new Request(`${ORIGIN}${endpoint.path}`, {
      method: 'POST',
      headers: { authorization: endpoint.auth, ...JSON_TYPE },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x00, 0x7d]),
    });
    expectServiceError(await sendRequest(sandbox, request), 400, 'INVALID_JSON_ERROR');
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest.for([
    { name: 'an empty body', raw: '' },
    { name: 'a body of whitespace', raw: ' \n\t ' },
    { name: 'a byte order mark alone', raw: '\ufeff' },
  ])('answers 400 INVALID_JSON_ERROR to $name', async ({ raw }, { startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const before = state(sandbox);
    expectServiceError(await sendRaw(client, 'POST', endpoint.path, raw, { auth: endpoint.auth }), 400, 'INVALID_JSON_ERROR');
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest.for(WRONG_JSON_TYPES)('answers 400 API_VALIDATION_ERROR to JSON that is $name, saying the body must be an object', async ({ raw }, { startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const before = state(sandbox);
    const answer = await sendRaw(client, 'POST', endpoint.path, raw, { auth: endpoint.auth });
    expectServiceError(answer, 400, 'API_VALIDATION_ERROR');
    expect(answer.body.message).toContain('body must be an object');
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest('ignores a UTF-8 byte order mark before valid JSON and answers 201', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const body = await endpoint.valid(client);
    const answer = await sendRaw(client, 'POST', endpoint.path, `\ufeff${JSON.stringify(body)}`, { auth: endpoint.auth });
    expect(answer.status, brief(answer.body)).toBe(201);
  });

  sandboxTest('answers 400 API_VALIDATION_ERROR to an empty object, naming every required field', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const before = state(sandbox);
    const answer = await send(client, 'POST', endpoint.path, { auth: endpoint.auth, body: {} });
    expectServiceError(answer, 400, 'API_VALIDATION_ERROR');
    for (const field of endpoint.required) expect(answer.body.message).toContain(field);
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest.for(endpoint.required)('answers 400 API_VALIDATION_ERROR naming %s when it is missing, and changes nothing', async (field, { startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const { [field]: _missing, ...body } = await endpoint.valid(client);
    const before = state(sandbox);
    const answer = await send(client, 'POST', endpoint.path, { auth: endpoint.auth, body });
    expectServiceError(answer, 400, 'API_VALIDATION_ERROR');
    expect(answer.body.message).toMatch(new RegExp(`^inputs are failing validation; .*\\b${field}\\b`));
    expect(state(sandbox)).toEqual(before);
  });
});

describe.each(ENDPOINTS)('$name with odd but well-formed JSON', (endpoint) => {
  sandboxTest('accepts and ignores unknown fields (201)', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const body = { ...(await endpoint.valid(client)), unknownField: 'x', nested: { deeper: [1, { a: null }] } };
    const answer = await send(client, 'POST', endpoint.path, { auth: endpoint.auth, body });
    expect(answer.status, brief(answer.body)).toBe(201);
  });

  sandboxTest('accepts a valid body with 5,000 extra keys (201)', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const extra = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`key${i}`, i]));
    const answer = await send(client, 'POST', endpoint.path, { auth: endpoint.auth, body: { ...extra, ...(await endpoint.valid(client)) } });
    expect(answer.status, brief(answer.body)).toBe(201);
  });

  sandboxTest('answers 400 API_VALIDATION_ERROR to a 5,000-key object without the required fields', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const before = state(sandbox);
    const body = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`key${i}`, i]));
    const answer = await send(client, 'POST', endpoint.path, { auth: endpoint.auth, body });
    expectServiceError(answer, 400, 'API_VALIDATION_ERROR');
    expect(answer.body.message).toContain(endpoint.required[0]!);
    expect(state(sandbox)).toEqual(before);
  });

  const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;

  sandboxTest('answers 400 API_VALIDATION_ERROR to 10,000 nested arrays', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const before = state(sandbox);
    expectServiceError(await sendRaw(client, 'POST', endpoint.path, deep, { auth: endpoint.auth }), 400, 'API_VALIDATION_ERROR');
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest('answers 400 API_VALIDATION_ERROR to 10,000 nested arrays sent with an idempotency key', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const before = state(sandbox);
    const answer = await sendRaw(client, 'POST', endpoint.path, deep, { auth: endpoint.auth, headers: { [IDEMPOTENCY_HEADER]: 'deep-nesting-1' } });
    expectServiceError(answer, 400, 'API_VALIDATION_ERROR');
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest('answers 201 when the body is at the size limit and 413 REQUEST_TOO_LARGE_ERROR one byte over it', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const body = await endpoint.valid(client);
    const empty = JSON.stringify({ ...body, padding: '' });
    const atLimit = JSON.stringify({ ...body, padding: 'a'.repeat(SANDBOX_MAX_BODY_BYTES - empty.length) });
    expect(Buffer.byteLength(atLimit)).toBe(SANDBOX_MAX_BODY_BYTES);

    const before = state(sandbox);
    expectServiceError(await sendRaw(client, 'POST', endpoint.path, `${atLimit} `, { auth: endpoint.auth }), 413, 'REQUEST_TOO_LARGE_ERROR');
    expect(state(sandbox)).toEqual(before);
    const accepted = await sendRaw(client, 'POST', endpoint.path, atLimit, { auth: endpoint.auth });
    expect(accepted.status, brief(accepted.body)).toBe(201);
  });

  sandboxTest('answers 413 REQUEST_TOO_LARGE_ERROR when Content-Length claims more than the limit, whatever the body', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const body = JSON.stringify(await endpoint.valid(client));
    const before = state(sandbox);
    const request = new Request(`${ORIGIN}${endpoint.path}`, {
      method: 'POST',
      headers: { authorization: endpoint.auth, ...JSON_TYPE, 'content-length': String(SANDBOX_MAX_BODY_BYTES + 1) },
      body,
    });
    expectServiceError(await sendRequest(sandbox, request), 413, 'REQUEST_TOO_LARGE_ERROR');
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest('answers 413 REQUEST_TOO_LARGE_ERROR when Content-Length claims less than a body over the limit', async ({ startInProcess }) => {
    const { sandbox } = startInProcess({ refundSettleDelayMs: 0 });
    const before = state(sandbox);
    const request = new Request(`${ORIGIN}${endpoint.path}`, {
      method: 'POST',
      headers: { authorization: endpoint.auth, ...JSON_TYPE, 'content-length': '2' },
      body: JSON.stringify({ padding: 'a'.repeat(SANDBOX_MAX_BODY_BYTES) }),
    });
    expectServiceError(await sendRequest(sandbox, request), 413, 'REQUEST_TOO_LARGE_ERROR');
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest.for([
    { name: 'text/plain', type: 'text/plain' },
    { name: 'application/jsonx', type: 'application/jsonx' },
    { name: 'application/json-patch+json', type: 'application/json-patch+json' },
    { name: 'application/x-www-form-urlencoded', type: 'application/x-www-form-urlencoded' },
    { name: 'multipart/form-data', type: 'multipart/form-data; boundary=x' },
    { name: 'an empty Content-Type', type: '' },
  ])('answers 415 UNSUPPORTED_MEDIA_TYPE_ERROR to a valid body sent as $name', async ({ type }, { startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const body = JSON.stringify(await endpoint.valid(client));
    const before = state(sandbox);
    const answer = await send(client, 'POST', endpoint.path, { auth: endpoint.auth, raw: body, headers: { 'content-type': type } });
    expectServiceError(answer, 415, 'UNSUPPORTED_MEDIA_TYPE_ERROR');
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest('answers 415 UNSUPPORTED_MEDIA_TYPE_ERROR to a valid body without a Content-Type', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const body = new TextEncoder().encode(JSON.stringify(await endpoint.valid(client)));
    const before = state(sandbox);
    const request = new Request(`${ORIGIN}${endpoint.path}`, { method: 'POST', headers: { authorization: endpoint.auth }, body });
    expect(request.headers.get('content-type')).toBeNull();
    expectServiceError(await sendRequest(sandbox, request), 415, 'UNSUPPORTED_MEDIA_TYPE_ERROR');
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest.for(['application/json; charset=utf-8', 'Application/JSON'])('accepts Content-Type %s (201)', async (type, { startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await send(client, 'POST', endpoint.path, { auth: endpoint.auth, raw: JSON.stringify(await endpoint.valid(client)), headers: { 'content-type': type } });
    expect(answer.status, brief(answer.body)).toBe(201);
  });
});

// ---------------------------------------------------------------------------------------------

interface FieldCase {
  name: string;
  body: () => Record<string, unknown>;
  says: string;
}

const CHARGE_FIELD_CASES: FieldCase[] = [
  { name: 'a string amount', body: () => ({ ...cardBody(), amount: '10000' }), says: 'amount must be a whole number of satang' },
  { name: 'a float amount', body: () => ({ ...cardBody(), amount: 100.5 }), says: 'amount must be a whole number of satang' },
  { name: 'a negative amount', body: () => ({ ...cardBody(), amount: -100 }), says: 'amount must be at least 100' },
  { name: 'amount 99, below the minimum', body: () => ({ ...cardBody(), amount: 99 }), says: 'amount must be at least 100' },
  { name: 'amount 0', body: () => ({ ...cardBody(), amount: 0 }), says: 'amount must be at least 100' },
  { name: 'a huge amount', body: () => ({ ...cardBody(), amount: 1e15 }), says: 'amount must be at most' },
  { name: 'an amount past the safe integers', body: () => ({ ...cardBody(), amount: 2 ** 60 }), says: 'amount' },
  { name: 'amount null', body: () => ({ ...cardBody(), amount: null }), says: 'amount' },
  { name: 'currency USD', body: () => ({ ...cardBody(), currency: 'USD' }), says: 'currency must be THB' },
  { name: 'currency thb in lower case', body: () => ({ ...cardBody(), currency: 'thb' }), says: 'currency must be THB' },
  { name: 'currency as a number', body: () => ({ ...cardBody(), currency: 764 }), says: 'currency must be THB' },
  { name: 'an unknown paymentMethodType', body: () => ({ ...cardBody(), paymentMethod: { paymentMethodType: 'BITCOIN' } }), says: 'payment method is not supported' },
  { name: 'paymentMethodType in lower case', body: () => ({ ...cardBody(), paymentMethod: { paymentMethodType: 'alipay' } }), says: 'payment method is not supported' },
  { name: 'paymentMethod null', body: () => ({ ...cardBody(), paymentMethod: null }), says: 'paymentMethod' },
  { name: 'paymentMethod as a string', body: () => ({ ...cardBody(), paymentMethod: 'CARD' }), says: 'paymentMethod' },
  { name: 'paymentMethod as an array', body: () => ({ ...cardBody(), paymentMethod: [] }), says: 'paymentMethod' },
  { name: 'a CARD method without its card', body: () => ({ ...cardBody(), paymentMethod: { paymentMethodType: 'CARD' } }), says: 'paymentMethod.card' },
  { name: 'a CARD method with card null', body: () => ({ ...cardBody(), paymentMethod: { paymentMethodType: 'CARD', card: null } }), says: 'paymentMethod.card' },
  { name: 'a card with a 20-digit pan', body: () => cardBody({ pan: '41111111111111111113' }), says: 'paymentMethod.card.pan must be 12 to 19 digits' },
  { name: 'a card with a pan that fails Luhn', body: () => cardBody({ pan: '4111111111111112' }), says: 'paymentMethod.card.pan is not a valid card number' },
  { name: 'a card with a numeric pan', body: () => cardBody({ pan: 4111111111111111 }), says: 'paymentMethod.card.pan' },
  { name: 'expiryMonth 0', body: () => cardBody({ expiryMonth: 0 }), says: 'paymentMethod.card.expiryMonth must be from 1 to 12' },
  { name: 'expiryMonth 13', body: () => cardBody({ expiryMonth: 13 }), says: 'paymentMethod.card.expiryMonth must be from 1 to 12' },
  { name: 'expiryMonth as a string', body: () => cardBody({ expiryMonth: '12' }), says: 'paymentMethod.card.expiryMonth' },
  { name: 'expiryYear 2030 (four digits)', body: () => cardBody({ expiryYear: 2030 }), says: 'paymentMethod.card.expiryYear must be a two-digit year' },
  { name: 'an expired card', body: () => cardBody({ expiryYear: (new Date().getUTCFullYear() - 1) % 100 }), says: 'card has expired' },
  { name: 'securityCode "12a"', body: () => cardBody({ securityCode: '12a' }), says: 'paymentMethod.card.securityCode must be 3 or 4 digits' },
  { name: 'securityCode as a number', body: () => cardBody({ securityCode: 123 }), says: 'paymentMethod.card.securityCode' },
  { name: 'a four-digit securityCode on a Visa', body: () => cardBody({ securityCode: '1234' }), says: 'paymentMethod.card.securityCode must be 3 digits' },
  { name: 'an empty cardHolderName', body: () => cardBody({ cardHolderName: '' }), says: 'paymentMethod.card.cardHolderName' },
  { name: 'a referenceId of 256 characters', body: () => ({ ...cardBody(), referenceId: 'r'.repeat(256) }), says: 'referenceId must be at most 255 characters' },
  { name: 'an empty referenceId', body: () => ({ ...cardBody(), referenceId: '' }), says: 'referenceId' },
  { name: 'a numeric referenceId', body: () => ({ ...cardBody(), referenceId: 42 }), says: 'referenceId' },
  { name: 'returnUrl javascript:alert(1)', body: () => ({ ...cardBody(), returnUrl: 'javascript:alert(1)' }), says: 'returnUrl must be an absolute http or https URL' },
  { name: 'returnUrl /relative', body: () => ({ ...cardBody(), returnUrl: '/relative' }), says: 'returnUrl must be an absolute http or https URL' },
  { name: 'returnUrl ftp://x', body: () => ({ ...cardBody(), returnUrl: 'ftp://x' }), says: 'returnUrl must be an absolute http or https URL' },
  { name: 'returnUrl data:', body: () => ({ ...cardBody(), returnUrl: 'data:text/html,<script>alert(1)</script>' }), says: 'returnUrl must be an absolute http or https URL' },
  { name: 'skip3dsFlow as a string', body: () => ({ ...cardBody(), skip3dsFlow: 'yes' }), says: 'skip3dsFlow must be true or false' },
  { name: 'an unknown deviceType', body: () => ({ ...cardBody(), deviceType: 'PHONE' }), says: 'deviceType must be ANDROID, IOS or WEB' },
  { name: 'a customer email that is not an address', body: () => ({ ...cardBody(), customer: { email: 'not-an-email' } }), says: 'customer.email must be an email address' },
  { name: 'a QR expiryTime that is not a timestamp', body: () => ({ ...walletBody(), paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY', qrPromptPay: { expiryTime: 'tomorrow' } } }), says: 'paymentMethod.qrPromptPay.expiryTime' },
];

describe('POST /api/v1/charges with one field wrong', () => {
  sandboxTest('accepts the body the cases start from (201)', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await send(client, 'POST', '/api/v1/charges', { body: cardBody() });
    expect(answer.status, brief(answer.body)).toBe(201);
  });

  sandboxTest.for(CHARGE_FIELD_CASES)('answers 400 API_VALIDATION_ERROR to $name, naming the field, and creates no charge', async ({ body, says }, { startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const before = state(sandbox);
    const answer = await send(client, 'POST', '/api/v1/charges', { body: body() });
    expectServiceError(answer, 400, 'API_VALIDATION_ERROR');
    expect(answer.body.message).toMatch(/^inputs are failing validation; /);
    expect(answer.body.message).toContain(says);
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest('accepts unknown fields inside paymentMethod and card (201)', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const body = cardBody({ nickname: 'my card', track2: 'x' });
    (body.paymentMethod as Record<string, unknown>).extra = { a: 1 };
    const answer = await send(client, 'POST', '/api/v1/charges', { body });
    expect(answer.status, brief(answer.body)).toBe(201);
  });

  sandboxTest('accepts a Thai cardHolderName on a card charge (201)', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await send(client, 'POST', '/api/v1/charges', { body: cardBody({ cardHolderName: 'สมชาย ใจดี' }) });
    expect(answer.status, brief(answer.body)).toBe(201);
    expect((await client.getCharge(answer.body.chargeId)).status).toBe('SUCCEEDED');
  });

  sandboxTest('keeps a referenceId with Thai text, a NUL and a lone surrogate intact (201, read back the same)', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const raw = JSON.stringify({ ...walletBody(), referenceId: 'PLACEHOLDER' }).replace('PLACEHOLDER', 'ใบสั่งซื้อ\\u0000-\\ud800-end');
    const answer = await sendRaw(client, 'POST', '/api/v1/charges', raw);
    expect(answer.status, brief(answer.body)).toBe(201);
    const charge = await send(client, 'GET', `/api/v1/charges/${answer.body.chargeId}`);
    expect(charge.status).toBe(200);
    expect(charge.body.referenceId).toBe('ใบสั่งซื้อ\u0000-\ud800-end');
  });

  const nestedIn = (levels: number) => JSON.stringify(walletBody()).replace(/}$/, `,"ignored":${'['.repeat(levels)}${']'.repeat(levels)}}`);

  sandboxTest('accepts a valid charge whose unknown field nests 63 levels deep (64 with the body)', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await sendRaw(client, 'POST', '/api/v1/charges', nestedIn(63), { headers: { [IDEMPOTENCY_HEADER]: 'deep-ok' } });
    expect(answer.status, brief(answer.body)).toBe(201);
  });

  sandboxTest('refuses a body nested deeper than 64 levels with 400, with or without an idempotency key', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const before = state(sandbox);
    for (const headers of [{}, { [IDEMPOTENCY_HEADER]: 'deep-nesting-2' }] as Record<string, string>[]) {
      const answer = await sendRaw(client, 'POST', '/api/v1/charges', nestedIn(10_000), { headers });
      expectServiceError(answer, 400, 'API_VALIDATION_ERROR');
      expect(answer.body.message).toContain('nested deeper than 64 levels');
    }
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest('leaves a card token unspent when a charge with it is refused', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const cardTokenId = await client.tokenize(VISA);
    const withToken = (securityCode: string, extra: Record<string, unknown> = {}) => ({
      amount: 10_000,
      currency: 'THB',
      referenceId: 'order-t',
      paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode } },
      ...extra,
    });
    const refusals = [
      withToken('12a'),
      withToken('1234'),
      withToken('123', { returnUrl: 'javascript:alert(1)' }),
      withToken('123', { amount: 99 }),
      withToken('123', { payerAuthenticationDetails: { eci: '05' } }),
    ];
    const before = state(sandbox);
    for (const body of refusals) {
      const answer = await send(client, 'POST', '/api/v1/charges', { body });
      expect(answer.status, brief(answer.body)).toBeGreaterThanOrEqual(400);
      expect(answer.status, brief(answer.body)).toBeLessThan(500);
      expectServiceError(answer, answer.status);
    }
    expect(state(sandbox)).toEqual(before);
    expect(sandbox.store.cardTokens.get(cardTokenId)?.usedAt).toBeUndefined();
    const charged = await send(client, 'POST', '/api/v1/charges', { body: withToken('123') });
    expect(charged.status, brief(charged.body)).toBe(201);
  });
});

const TOKEN_FIELD_CASES: FieldCase[] = [
  { name: 'a 20-digit pan', body: () => ({ ...tokenBody(), pan: '41111111111111111113' }), says: 'pan must be 12 to 19 digits' },
  { name: 'an 11-digit pan', body: () => ({ ...tokenBody(), pan: '41111111111' }), says: 'pan must be 12 to 19 digits' },
  { name: 'a pan with spaces', body: () => ({ ...tokenBody(), pan: '4111 1111 1111 1111' }), says: 'pan must be 12 to 19 digits' },
  { name: 'a pan in Thai digits', body: () => ({ ...tokenBody(), pan: '๔๑๑๑๑๑๑๑๑๑๑๑๑๑๑๑' }), says: 'pan must be 12 to 19 digits' },
  { name: 'a numeric pan', body: () => ({ ...tokenBody(), pan: 4111111111111111 }), says: 'pan' },
  { name: 'a pan that fails Luhn', body: () => ({ ...tokenBody(), pan: '4111111111111112' }), says: 'pan is not a valid card number' },
  { name: 'expiryMonth 0', body: () => ({ ...tokenBody(), expiryMonth: 0 }), says: 'expiryMonth must be from 1 to 12' },
  { name: 'expiryMonth 13', body: () => ({ ...tokenBody(), expiryMonth: 13 }), says: 'expiryMonth must be from 1 to 12' },
  { name: 'expiryMonth "12"', body: () => ({ ...tokenBody(), expiryMonth: '12' }), says: 'expiryMonth' },
  { name: 'expiryMonth 1.5', body: () => ({ ...tokenBody(), expiryMonth: 1.5 }), says: 'expiryMonth' },
  { name: 'expiryYear 2030 (four digits)', body: () => ({ ...tokenBody(), expiryYear: 2030 }), says: 'expiryYear must be a two-digit year' },
  { name: 'expiryYear -1', body: () => ({ ...tokenBody(), expiryYear: -1 }), says: 'expiryYear must be a two-digit year' },
  { name: 'an empty cardHolderName', body: () => ({ ...tokenBody(), cardHolderName: '' }), says: 'cardHolderName is required' },
  { name: 'a cardHolderName of 101 characters', body: () => ({ ...tokenBody(), cardHolderName: 'n'.repeat(101) }), says: 'cardHolderName must be at most 100 characters' },
  { name: 'cardHolderName null', body: () => ({ ...tokenBody(), cardHolderName: null }), says: 'cardHolderName' },
];

describe('POST /client/v1/card-tokens with one field wrong', () => {
  sandboxTest.for(TOKEN_FIELD_CASES)('answers 400 API_VALIDATION_ERROR to $name, naming the field, and stores no token', async ({ body, says }, { startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const before = state(sandbox);
    const answer = await send(client, 'POST', '/client/v1/card-tokens', { body: body() });
    expectServiceError(answer, 400, 'API_VALIDATION_ERROR');
    expect(answer.body.message).toContain(says);
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest('accepts a Thai cardHolderName (201)', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await send(client, 'POST', '/client/v1/card-tokens', { body: { ...tokenBody(), cardHolderName: 'สมชาย ใจดี' } });
    expect(answer.status, brief(answer.body)).toBe(201);
    expect(sandbox.store.cardTokens.get(answer.body.id)?.cardHolderName).toBe('สมชาย ใจดี');
  });

  sandboxTest('keeps a cardHolderName with a NUL and a lone surrogate as sent (201)', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const raw = JSON.stringify({ ...tokenBody(), cardHolderName: 'PLACEHOLDER' }).replace('PLACEHOLDER', 'Som\\u0000chai \\ud800');
    const answer = await sendRaw(client, 'POST', '/client/v1/card-tokens', raw);
    expect(answer.status, brief(answer.body)).toBe(201);
    expect(sandbox.store.cardTokens.get(answer.body.id)?.cardHolderName).toBe('Som\u0000chai \ud800');
  });

  sandboxTest('ignores a securityCode sent with the card and does not keep it', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await send(client, 'POST', '/client/v1/card-tokens', { body: { ...tokenBody(), securityCode: '987' } });
    expect(answer.status, brief(answer.body)).toBe(201);
    const record = sandbox.store.cardTokens.get(answer.body.id);
    expect(record).toBeDefined();
    // As a value of its own: a timestamp's milliseconds or a random id may carry the digits by chance.
    expect(JSON.stringify(record)).not.toMatch(/(?<![\w.-])987(?![\w-])/);
  });
});

describe('POST /api/v1/refunds with one field wrong', () => {
  const cases: { name: string; body: (chargeId: string) => Record<string, unknown>; status: number; code: ServiceErrorCode; says: string }[] = [
    { name: 'a numeric chargeId', body: () => ({ chargeId: 42 }), status: 400, code: 'API_VALIDATION_ERROR', says: 'chargeId' },
    { name: 'chargeId null', body: () => ({ chargeId: null }), status: 400, code: 'API_VALIDATION_ERROR', says: 'chargeId' },
    { name: 'an empty chargeId', body: () => ({ chargeId: '' }), status: 400, code: 'API_VALIDATION_ERROR', says: 'chargeId' },
    { name: 'a chargeId of 256 characters', body: () => ({ chargeId: 'c'.repeat(256) }), status: 400, code: 'API_VALIDATION_ERROR', says: 'chargeId must be at most 255 characters' },
    { name: 'an unknown chargeId', body: () => ({ chargeId: 'ch_unknown' }), status: 404, code: 'NOT_FOUND_ERROR', says: 'ch_unknown' },
    { name: 'chargeId __proto__', body: () => ({ chargeId: '__proto__' }), status: 404, code: 'NOT_FOUND_ERROR', says: '__proto__' },
    { name: 'a string amount', body: (chargeId) => ({ chargeId, amount: '100' }), status: 400, code: 'API_VALIDATION_ERROR', says: 'amount must be a whole number of satang' },
    { name: 'a negative amount', body: (chargeId) => ({ chargeId, amount: -1 }), status: 400, code: 'API_VALIDATION_ERROR', says: 'amount must not be negative' },
    { name: 'a float amount', body: (chargeId) => ({ chargeId, amount: 1.5 }), status: 400, code: 'API_VALIDATION_ERROR', says: 'amount must be a whole number of satang' },
    { name: 'amount true', body: (chargeId) => ({ chargeId, amount: true }), status: 400, code: 'API_VALIDATION_ERROR', says: 'amount' },
    { name: 'an amount larger than the charge', body: (chargeId) => ({ chargeId, amount: 10_001 }), status: 400, code: 'API_VALIDATION_ERROR', says: 'amount must be at most 10000' },
    { name: 'a reason of 256 characters', body: (chargeId) => ({ chargeId, reason: 'r'.repeat(256) }), status: 400, code: 'API_VALIDATION_ERROR', says: 'reason must be at most 255 characters' },
    { name: 'a numeric reason', body: (chargeId) => ({ chargeId, reason: 42 }), status: 400, code: 'API_VALIDATION_ERROR', says: 'reason' },
  ];

  sandboxTest.for(cases)('answers $status $code to $name and refunds nothing', async ({ body, status, code, says }, { startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const chargeId = await succeededChargeId(client);
    const before = state(sandbox);
    const answer = await send(client, 'POST', '/api/v1/refunds', { body: body(chargeId) });
    expectServiceError(answer, status, code);
    expect(answer.body.message).toContain(says);
    expect(state(sandbox)).toEqual(before);
    expect(sandbox.store.charges.get(chargeId)?.refundedAmount).toBe(0);
  });

  sandboxTest('still refunds the whole charge after refused attempts', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const chargeId = await succeededChargeId(client);
    for (const { body } of cases) await send(client, 'POST', '/api/v1/refunds', { body: body(chargeId) });
    const refund = await send(client, 'POST', '/api/v1/refunds', { body: { chargeId } });
    expect(refund.status, brief(refund.body)).toBe(201);
    expect((await send(client, 'GET', `/api/v1/refunds/${refund.body.refundId}`)).body.amount).toBe(10_000);
  });

  sandboxTest('keeps a reason with Thai text, a NUL and a lone surrogate as sent (201)', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const chargeId = await succeededChargeId(client);
    const raw = JSON.stringify({ chargeId, reason: 'PLACEHOLDER' }).replace('PLACEHOLDER', 'คืนเงิน\\u0000\\udc00');
    const answer = await sendRaw(client, 'POST', '/api/v1/refunds', raw);
    expect(answer.status, brief(answer.body)).toBe(201);
    expect((await send(client, 'GET', `/api/v1/refunds/${answer.body.refundId}`)).body.refundReason).toBe('คืนเงิน\u0000\udc00');
  });
});

// ---------------------------------------------------------------------------------------------

describe('GET lists with bad query strings', () => {
  const LISTS = ['/api/v1/charges', '/api/v1/transactions', '/sandbox/v1/webhook-deliveries'];
  const BAD_QUERIES = [
    { query: 'limit=0', field: 'limit' },
    { query: 'limit=101', field: 'limit' },
    { query: 'limit=-1', field: 'limit' },
    { query: 'limit=abc', field: 'limit' },
    { query: 'limit=1.5', field: 'limit' },
    { query: 'limit=1e2', field: 'limit' },
    { query: 'limit=0x10', field: 'limit' },
    { query: 'limit=%zz', field: 'limit' },
    { query: 'limit=%205', field: 'limit' },
    { query: 'offset=-1', field: 'offset' },
    { query: 'offset=1e3', field: 'offset' },
    { query: 'offset=99999999999999999999', field: 'offset' },
    { query: `offset=${'9'.repeat(5_000)}`, field: 'offset' },
  ];
  const cases = LISTS.flatMap((path) => BAD_QUERIES.map(({ query, field }) => ({ path, query: query.slice(0, 40), url: `${path}?${query}`, field })));

  sandboxTest.for(cases)('$path?$query answers 400 API_VALIDATION_ERROR naming $field', async ({ url, field }, { startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await send(client, 'GET', url);
    expectServiceError(answer, 400, 'API_VALIDATION_ERROR');
    expect(answer.body.message).toContain(field);
  });

  sandboxTest.for(['source_in=FOO', 'source_in=API,FOO', 'source_in=api'])('/api/v1/charges?%s answers 400 API_VALIDATION_ERROR naming source_in', async (query, { startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await send(client, 'GET', `/api/v1/charges?${query}`);
    expectServiceError(answer, 400, 'API_VALIDATION_ERROR');
    expect(answer.body.message).toContain('source_in');
  });

  sandboxTest.for(['referenceId=%00', '%zz=1', `referenceId=${encodeURIComponent('ก'.repeat(300))}`, 'source_in=API,,API', 'limit=', 'unknown=1&unknown=2', 'referenceId=a&referenceId=b'])(
    '/api/v1/charges?%s is harmless and answers a list (200)',
    async (query, { startInProcess }) => {
      const { client } = startInProcess({ refundSettleDelayMs: 0 });
      await succeededChargeId(client);
      const answer = await send(client, 'GET', `/api/v1/charges?${query}`);
      expect(answer.status, brief(answer.body)).toBe(200);
      expect(answer.body).toEqual({ data: expect.any(Array), totalCount: expect.any(Number) });
    },
  );
});

describe('GET by id with odd ids', () => {
  const ODD_IDS = [
    'nope',
    '%00',
    '%2F',
    '%zz',
    '%',
    '..%2F..',
    '%20',
    '%E0%B8%81',
    '__proto__',
    'constructor',
    'toString',
    encodeURIComponent("'; DROP TABLE charges;--"),
    encodeURIComponent('<script>alert(1)</script>'),
    `ch_${'x'.repeat(10_000)}`,
  ];
  const cases = ['/api/v1/charges/', '/api/v1/refunds/', '/api/v1/transactions/'].flatMap((base) => ODD_IDS.map((id) => ({ base, id: id.slice(0, 40), path: `${base}${id}` })));

  sandboxTest.for(cases)('$base$id answers 404 NOT_FOUND_ERROR', async ({ path }, { startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    await succeededChargeId(client);
    expectServiceError(await send(client, 'GET', path), 404, 'NOT_FOUND_ERROR');
  });

  sandboxTest.for(['nope', '%zz', '__proto__'])('redelivering webhook delivery %s answers 404 NOT_FOUND_ERROR', async (id, { startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    expectServiceError(await send(client, 'POST', `/sandbox/v1/webhook-deliveries/${id}/redeliver`, { body: {} }), 404, 'NOT_FOUND_ERROR');
  });
});

// ---------------------------------------------------------------------------------------------

describe('authentication faults', () => {
  const encoded = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
  const COMMON = [
    { name: 'no Authorization header', auth: null },
    { name: 'Bearer x', auth: 'Bearer x' },
    { name: 'Basic with no credentials', auth: 'Basic' },
    { name: 'Basic with text that is not base64', auth: 'Basic not*base64!' },
    { name: 'Basic with base64 of one character', auth: 'Basic a' },
    { name: 'Basic with base64 that has no colon', auth: encoded(SANDBOX_DEFAULTS.merchantId) },
    { name: 'Basic with base64 of bytes that are not UTF-8', auth: `Basic ${Buffer.from([0xff, 0xfe, 0x3a, 0xff]).toString('base64')}` },
    { name: 'an unknown merchant', auth: basic('mch_nobody', SANDBOX_DEFAULTS.apiKey) },
    { name: 'an empty merchant id', auth: basic('', SANDBOX_DEFAULTS.apiKey) },
    { name: 'the right merchant with a wrong key', auth: basic(SANDBOX_DEFAULTS.merchantId, 'sk_wrong') },
    { name: 'the right merchant with an empty key', auth: basic(SANDBOX_DEFAULTS.merchantId, '') },
  ];
  interface AuthCase { name: string; auth: string | null; headers?: Record<string, string> }
  const API_CASES: AuthCase[] = [
    ...COMMON,
    { name: 'the publishable key on /api', auth: CLIENT_AUTH },
    { name: 'a partner key without the partner header', auth: PARTNER_AUTH },
    { name: 'a partner key with a wrong partner header', auth: PARTNER_AUTH, headers: { [PARTNER_ID_HEADER]: 'ptn_other' } },
    { name: 'a partner key with an empty partner header', auth: PARTNER_AUTH, headers: { [PARTNER_ID_HEADER]: '' } },
    { name: 'a wrong key with the right partner header', auth: basic(SANDBOX_DEFAULTS.merchantId, 'sk_wrong'), headers: { [PARTNER_ID_HEADER]: SANDBOX_DEFAULTS.partnerId } },
  ];
  const CLIENT_CASES: AuthCase[] = [
    ...COMMON,
    { name: 'the API key on /client', auth: API_AUTH },
    { name: 'a partner key with its header on /client', auth: PARTNER_AUTH, headers: { [PARTNER_ID_HEADER]: SANDBOX_DEFAULTS.partnerId } },
  ];
  const routes = [
    { route: 'POST /api/v1/charges', method: 'POST', path: '/api/v1/charges', body: cardBody, cases: API_CASES },
    { route: 'POST /api/v1/refunds', method: 'POST', path: '/api/v1/refunds', body: () => ({ chargeId: 'ch_x' }), cases: API_CASES },
    { route: 'GET /api/v1/charges', method: 'GET', path: '/api/v1/charges', body: undefined, cases: API_CASES },
    { route: 'GET /api/v1/charges/{id}', method: 'GET', path: '/api/v1/charges/ch_x', body: undefined, cases: API_CASES },
    { route: 'POST /client/v1/card-tokens', method: 'POST', path: '/client/v1/card-tokens', body: tokenBody, cases: CLIENT_CASES },
  ];
  const cases = routes.flatMap(({ cases: authCases, ...route }) => authCases.map((authCase) => ({ ...route, ...authCase })));

  sandboxTest.for(cases)('$route with $name answers 401 INVALID_CREDENTIALS_ERROR and changes nothing', async ({ method, path, body, auth, headers }, { startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const before = state(sandbox);
    const answer = await send(client, method, path, { auth, ...(headers ? { headers } : {}), ...(body ? { body: body() } : {}) });
    expectServiceError(answer, 401, 'INVALID_CREDENTIALS_ERROR');
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest('checks credentials before reading the body: malformed JSON without credentials is 401', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    expectServiceError(await sendRaw(client, 'POST', '/api/v1/charges', '{"amount":', { auth: null }), 401, 'INVALID_CREDENTIALS_ERROR');
    expectServiceError(await send(client, 'POST', '/api/v1/charges', { auth: 'Bearer x', raw: 'x', headers: { 'content-type': 'text/plain' } }), 401, 'INVALID_CREDENTIALS_ERROR');
  });

  describe('partners', () => {
    const PARTNER_OPTIONS: SandboxOptions = {
      refundSettleDelayMs: 0,
        merchants: [
          { merchantId: 'mch_a', apiKey: 'sk_a', publishableKey: 'pk_a', partnerId: 'ptn_a' },
          { merchantId: 'mch_b', apiKey: 'sk_b', publishableKey: 'pk_b', partnerId: 'ptn_b' },
          { merchantId: 'mch_solo', apiKey: 'sk_solo', publishableKey: 'pk_solo' },
        ],
        partners: [
          { partnerId: 'ptn_a', apiKey: 'sk_partner_a' },
          { partnerId: 'ptn_b', apiKey: 'sk_partner_b' },
        ],
    };

    sandboxTest('lets a partner act for its own merchant (the control case)', async ({ startInProcess }) => {
      const { client } = startInProcess(PARTNER_OPTIONS);
      const answer = await send(client, 'POST', '/api/v1/charges', { auth: basic('mch_a', 'sk_partner_a'), headers: { [PARTNER_ID_HEADER]: 'ptn_a' }, body: walletBody() });
      expect(answer.status, brief(answer.body)).toBe(201);
    });

    sandboxTest.for([
      { name: 'a merchant under another partner', merchant: 'mch_b' },
      { name: 'a merchant under no partner', merchant: 'mch_solo' },
    ])('answers 403 NO_PERMISSION_ERROR to a partner acting for $name, and creates nothing', async ({ merchant }, { startInProcess }) => {
      const { sandbox, client } = startInProcess(PARTNER_OPTIONS);
      const before = state(sandbox);
      const auth = basic(merchant, 'sk_partner_a');
      const headers = { [PARTNER_ID_HEADER]: 'ptn_a' };
      expectServiceError(await send(client, 'POST', '/api/v1/charges', { auth, headers, body: walletBody() }), 403, 'NO_PERMISSION_ERROR');
      expectServiceError(await send(client, 'GET', '/api/v1/charges', { auth, headers }), 403, 'NO_PERMISSION_ERROR');
      expect(state(sandbox)).toEqual(before);
    });

    sandboxTest.for([
      { name: "another partner's id in the header", partner: 'ptn_b' },
      { name: 'an unknown partner id in the header', partner: 'ptn_zzz' },
    ])('answers 401 INVALID_CREDENTIALS_ERROR to a partner key with $name', async ({ partner }, { startInProcess }) => {
      const { sandbox, client } = startInProcess(PARTNER_OPTIONS);
      const before = state(sandbox);
      const answer = await send(client, 'POST', '/api/v1/charges', { auth: basic('mch_a', 'sk_partner_a'), headers: { [PARTNER_ID_HEADER]: partner }, body: walletBody() });
      expectServiceError(answer, 401, 'INVALID_CREDENTIALS_ERROR');
      expect(state(sandbox)).toEqual(before);
    });
  });
});

// ---------------------------------------------------------------------------------------------

describe('routing', () => {
  const UNKNOWN_PATHS = [
    { path: '/', methods: ['GET', 'POST'] },
    { path: '/api', methods: ['GET', 'POST'] },
    { path: '/api/v1', methods: ['GET', 'POST'] },
    { path: '/api/v1/unknown', methods: ['GET', 'POST'] },
    { path: '/api/v2/charges', methods: ['GET', 'POST'] },
    { path: '/API/V1/CHARGES', methods: ['GET', 'POST'] },
    { path: '/api/v1/charges/', methods: ['GET', 'POST'] },
    { path: '/api/v1/charges/a/b', methods: ['GET', 'POST'] },
    { path: '//api/v1/charges', methods: ['GET', 'POST'] },
    { path: '/api/v1/charges%2Fx', methods: ['GET', 'POST'] },
    { path: '/api/v1/charges/%zz', methods: ['GET'] },
    { path: '/client/v1/card-tokens/', methods: ['GET', 'POST'] },
    { path: '/sandbox/pages', methods: ['GET', 'POST'] },
    { path: `/${'a'.repeat(10_240)}`, methods: ['GET', 'POST'] },
    { path: `/api/v1/${'x/'.repeat(5_000)}`, methods: ['GET', 'POST'] },
  ];
  const cases = UNKNOWN_PATHS.flatMap(({ path, methods }) => methods.map((method) => ({ method, path, shown: path.slice(0, 40) })));

  sandboxTest.for(cases)('$method $shown answers 404 NOT_FOUND_ERROR and changes nothing', async ({ method, path }, { startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const before = state(sandbox);
    const answer = await send(client, method, path, method === 'POST' ? { body: cardBody() } : {});
    expectServiceError(answer, 404, 'NOT_FOUND_ERROR');
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest.for([
    { method: 'DELETE', path: '/api/v1/charges', allow: ['GET', 'POST'] },
    { method: 'PUT', path: '/api/v1/charges', allow: ['GET', 'POST'] },
    { method: 'PATCH', path: '/api/v1/charges', allow: ['GET', 'POST'] },
    { method: 'POST', path: '/api/v1/charges/ch_x', allow: ['GET'] },
    { method: 'DELETE', path: '/api/v1/charges/ch_x', allow: ['GET'] },
    { method: 'GET', path: '/client/v1/card-tokens', allow: ['POST'] },
    { method: 'GET', path: '/api/v1/refunds', allow: ['POST'] },
    { method: 'PUT', path: '/api/v1/refunds/re_x', allow: ['GET'] },
  ])('$method $path answers 405 METHOD_NOT_ALLOWED_ERROR with Allow: $allow and changes nothing', async ({ method, path, allow }, { startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const before = state(sandbox);
    const answer = await send(client, method, path, method === 'GET' ? {} : { body: cardBody() });
    expectServiceError(answer, 405, 'METHOD_NOT_ALLOWED_ERROR');
    const allowed = (answer.headers.get('allow') ?? '').split(',').map((m) => m.trim()).sort();
    expect(allowed).toEqual(allow);
    expect(state(sandbox)).toEqual(before);
  });

  const IDEMPOTENCY_KEYS = [
    { name: 'of 256 characters', key: 'k'.repeat(256) },
    { name: 'containing a space', key: 'key with space' },
    { name: 'containing a control character', key: 'key\u0001x' },
    { name: 'containing a tab', key: 'key\tx' },
    { name: 'containing DEL', key: 'key\u007fx' },
    { name: 'containing a Latin-1 letter', key: 'clé' },
    { name: 'that is empty', key: '' },
  ];

  sandboxTest.for(IDEMPOTENCY_KEYS)('answers 400 to an idempotency key $name and creates no charge', async ({ key }, { startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const before = state(sandbox);
    const answer = await send(client, 'POST', '/api/v1/charges', { body: cardBody(), headers: { [IDEMPOTENCY_HEADER]: key } });
    expectServiceError(answer, 400, 'API_VALIDATION_ERROR');
    expect(answer.body.message).toContain('idempotency key');
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest('accepts an idempotency key of 255 visible characters (201)', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await send(client, 'POST', '/api/v1/charges', { body: cardBody(), headers: { [IDEMPOTENCY_HEADER]: 'k'.repeat(255) } });
    expect(answer.status, brief(answer.body)).toBe(201);
  });

  sandboxTest('answers 412 IDEMPOTENCY_KEY_ERROR to a reused key with another body, creating nothing more', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const headers = { [IDEMPOTENCY_HEADER]: 'reused-key' };
    expect((await send(client, 'POST', '/api/v1/charges', { body: walletBody(), headers })).status).toBe(201);
    const before = state(sandbox);
    expectServiceError(await send(client, 'POST', '/api/v1/charges', { body: { ...walletBody(), amount: 10_001 }, headers }), 412, 'IDEMPOTENCY_KEY_ERROR');
    expect(state(sandbox)).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------

describe('hosted pages under /sandbox/pages/', () => {
  const page = (step: string, chargeId: string) => `${SANDBOX_PAGES_PATH}/${step}/${chargeId}`;
  async function pendingCharge(client: SandboxClient, pan: string): Promise<string> {
    const created = await send(client, 'POST', '/api/v1/charges', { body: cardBody({ pan }) });
    expect(created.status, brief(created.body)).toBe(201);
    expect(created.body.actionRequired).toBe('REDIRECT');
    return created.body.chargeId as string;
  }
  const OTP_CARD = '4953261730509988';
  const FORCE_CARD = '4389783280144506';
  const statusOf = (sandbox: Sandbox, chargeId: string) => sandbox.store.charges.get(chargeId)?.charge.status;

  sandboxTest.for(['otp', 'force', 'authorize'])('answers a 404 page to an unknown charge on the %s page, for GET and a form POST', async (step, { startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    expectPage(await send(client, 'GET', page(step, 'ch_unknown'), { auth: null }), 404);
    const before = state(sandbox);
    expectPage(await send(client, 'POST', page(step, 'ch_unknown'), { auth: null, raw: 'otp=123456&outcome=succeed&decision=approve', headers: FORM_TYPE }), 404);
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest.for(
    [`${SANDBOX_PAGES_PATH}/`, `${SANDBOX_PAGES_PATH}/nope`, `${SANDBOX_PAGES_PATH}/otp/`, `${SANDBOX_PAGES_PATH}/otp/%zz`, `${SANDBOX_PAGES_PATH}/otp/a/b`, `${SANDBOX_PAGES_PATH}/otp/${'x'.repeat(10_000)}`].map(
      (path) => ({ path, shown: path.slice(0, 40) }),
    ),
  )('answers a 404 page to $shown', async ({ path }, { startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    expectPage(await send(client, 'GET', path, { auth: null }), 404);
  });

  sandboxTest('answers a 404 page to a pending charge on the wrong step, and leaves it PENDING', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const chargeId = await pendingCharge(client, OTP_CARD);
    expectPage(await send(client, 'POST', page('force', chargeId), { auth: null, raw: 'outcome=succeed', headers: FORM_TYPE }), 404);
    expect(statusOf(sandbox, chargeId)).toBe('PENDING');
  });

  sandboxTest('refuses JSON instead of a form with 415 UNSUPPORTED_MEDIA_TYPE_ERROR, and leaves the charge PENDING', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const chargeId = await pendingCharge(client, OTP_CARD);
    expectServiceError(await send(client, 'POST', page('otp', chargeId), { auth: null, body: { otp: '123456' } }), 415, 'UNSUPPORTED_MEDIA_TYPE_ERROR');
    expectServiceError(await send(client, 'POST', `${SANDBOX_PAGES_PATH}/promptpay`, { auth: null, body: { outcome: 'succeed' } }), 415, 'UNSUPPORTED_MEDIA_TYPE_ERROR');
    expect(statusOf(sandbox, chargeId)).toBe('PENDING');
  });

  sandboxTest.for(['', 'otp=', 'otp=%20%20', 'otp', '%zz=%zz&otp', '&&&=', 'OTP=123456'])('answers a 400 page to the OTP form %j, and leaves the charge PENDING', async (form, { startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const chargeId = await pendingCharge(client, OTP_CARD);
    const before = state(sandbox);
    expectPage(await send(client, 'POST', page('otp', chargeId), { auth: null, raw: form, headers: FORM_TYPE }), 400);
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest.for(['', 'outcome=maybe', 'outcome=SUCCEED', 'outcome=', 'decision=approve'])('answers a 400 page to the force form %j, and leaves the charge PENDING', async (form, { startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const chargeId = await pendingCharge(client, FORCE_CARD);
    const before = state(sandbox);
    expectPage(await send(client, 'POST', page('force', chargeId), { auth: null, raw: form, headers: FORM_TYPE }), 400);
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest.for(['', 'decision=yes', 'outcome=succeed'])('answers a 400 page to the authorize form %j, and leaves the charge PENDING', async (form, { startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const created = await send(client, 'POST', '/api/v1/charges', { body: walletBody() });
    const chargeId = created.body.chargeId as string;
    const before = state(sandbox);
    expectPage(await send(client, 'POST', page('authorize', chargeId), { auth: null, raw: form, headers: FORM_TYPE }), 400);
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest.for([
    { form: '', status: 400 },
    { form: 'outcome=succeed', status: 400 },
    { form: 'outcome=maybe&rawData=x', status: 400 },
    { form: 'outcome=succeed&rawData=not-a-qr', status: 404 },
    { form: 'outcome=succeed&rawData=%E0%A4', status: 404 },
  ])('answers a $status page to the PromptPay form $form', async ({ form, status }, { startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const before = state(sandbox);
    expectPage(await send(client, 'POST', `${SANDBOX_PAGES_PATH}/promptpay`, { auth: null, raw: form, headers: FORM_TYPE }), status);
    expect(state(sandbox)).toEqual(before);
  });

  sandboxTest('refuses a form body over the limit with 413 REQUEST_TOO_LARGE_ERROR, and leaves the charge PENDING', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const chargeId = await pendingCharge(client, OTP_CARD);
    const huge = `otp=123456&filler=${'a'.repeat(SANDBOX_MAX_BODY_BYTES)}`;
    expectServiceError(await send(client, 'POST', page('otp', chargeId), { auth: null, raw: huge, headers: FORM_TYPE }), 413, 'REQUEST_TOO_LARGE_ERROR');
    expectServiceError(await send(client, 'POST', `${SANDBOX_PAGES_PATH}/promptpay`, { auth: null, raw: huge, headers: FORM_TYPE }), 413, 'REQUEST_TOO_LARGE_ERROR');
    expect(statusOf(sandbox, chargeId)).toBe('PENDING');
  });

  sandboxTest.for(['PUT', 'DELETE', 'PATCH'])('answers %s on a page with 405 METHOD_NOT_ALLOWED_ERROR and an Allow header', async (method, { startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const chargeId = await pendingCharge(client, OTP_CARD);
    const answer = await send(client, method, page('otp', chargeId), { auth: null, raw: 'otp=123456', headers: FORM_TYPE });
    expectServiceError(answer, 405, 'METHOD_NOT_ALLOWED_ERROR');
    expect(answer.headers.get('allow')).toBe('GET, POST');
    expect(statusOf(sandbox, chargeId)).toBe('PENDING');
  });
});

// ---------------------------------------------------------------------------------------------
// A generated sweep of requests mixing methods, paths, headers and bodies.


class Dice {
  readonly #next: () => number;
  constructor(seed: number) {
    this.#next = seededRandom(seed);
  }
  float(): number {
    return this.#next();
  }
  int(below: number): number {
    return Math.floor(this.#next() * below);
  }
  chance(p: number): boolean {
    return this.#next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

const STRING_PIECES = ['a', 'Z', '0', '9', ' ', '-', '_', '/', '%', '"', '\\', '\u0000', '\ud800', '\udfff', 'ก', 'ไทย', '😀', '<b>', '&', '\n', 'THB', 'CARD', VISA];
const KEY_POOL = ['amount', 'currency', 'referenceId', 'paymentMethod', 'paymentMethodType', 'card', 'pan', 'chargeId', 'reason', 'returnUrl', '__proto__', 'constructor', '', 'x'];
const NUMBER_POOL = [0, -1, 1, 99, 100, 10_000, 1.5, -0.5, 1e21, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, 1_000_000_001];

function randomString(dice: Dice): string {
  const pieces = dice.pick([0, 1, 3, 8, 20, 120]);
  let text = '';
  for (let i = 0; i < pieces; i += 1) text += dice.pick(STRING_PIECES);
  return text;
}

function randomJson(dice: Dice, depth: number): unknown {
  switch (dice.int(depth <= 0 ? 5 : 7)) {
    case 0:
      return null;
    case 1:
      return dice.chance(0.5);
    case 2:
      return dice.chance(0.5) ? dice.pick(NUMBER_POOL) : dice.int(1_000_000);
    case 3:
    case 4:
      return randomString(dice);
    case 5:
      return Array.from({ length: dice.int(4) }, () => randomJson(dice, depth - 1));
    default:
      // fromEntries keeps "__proto__" as an own key, as JSON.parse would.
      return Object.fromEntries(Array.from({ length: dice.int(5) }, () => [dice.chance(0.7) ? dice.pick(KEY_POOL) : randomString(dice), randomJson(dice, depth - 1)]));
  }
}

function validChargeBody(dice: Dice): Record<string, unknown> {
  switch (dice.int(10)) {
    case 0:
      return qrChargeBody({ amount: 100, referenceId: 'sweep-qr' });
    case 1:
    case 2:
      return { amount: 20_000, currency: 'THB', referenceId: 'sweep-bank', deviceType: 'IOS', returnUrl: 'https://shop.example/return', paymentMethod: { paymentMethodType: 'KRUNGSRI_APP', krungsriApp: {} } };
    case 3:
    case 4:
    case 5:
      return { amount: 5_000, currency: 'THB', referenceId: 'sweep-wallet', paymentMethod: { paymentMethodType: 'TRUE_MONEY', trueMoney: {} } };
    default:
      return { ...cardBody(), referenceId: 'sweep-card' };
  }
}

/** Every path to an object member of `value`, e.g. `paymentMethod.card.pan`. */
function memberPaths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, member]) => [[...prefix, key], ...memberPaths(member, [...prefix, key])]);
}

/** A copy of `body` with one member removed or replaced by a random value. */
function mutate(dice: Dice, body: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(body);
  const path = dice.pick(memberPaths(copy));
  let parent: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  const last = path[path.length - 1]!;
  if (dice.chance(0.3)) Reflect.deleteProperty(parent, last);
  else parent[last] = randomJson(dice, 2);
  return copy;
}

interface SweepFixture {
  knownPaths: string[];
  succeededChargeIds: string[];
}

function randomSegment(dice: Dice): string {
  const alphabet = 'abcxyz019-_.~%ABC';
  let segment = '';
  for (let i = 0, n = 1 + dice.int(12); i < n; i += 1) segment += dice.chance(0.05) ? 'ก' : dice.pick(Array.from(alphabet));
  return segment;
}

function mutatePath(dice: Dice, path: string): string {
  const at = dice.int(path.length + 1);
  switch (dice.int(10)) {
    case 0:
      return path.slice(0, at) + dice.pick(Array.from('aZ9-_.~%/?#;')) + path.slice(at);
    case 1:
      return path.slice(0, at) + path.slice(at + 1);
    case 2:
      return path.replace('/', '//');
    case 3:
      return `${path}/`;
    case 4:
      return `${path}/${randomSegment(dice)}`;
    case 5:
      return path.toUpperCase();
    case 6:
      return path.slice(0, at) + dice.pick(['%zz', '%', '%00', '%2F', '%2e%2e']) + path.slice(at);
    case 7:
      return path.slice(0, at) || '/';
    case 8:
      return path.replace(/\/[^/]*$/, `/${randomSegment(dice)}`);
    default:
      return `${path}/../${randomSegment(dice)}`;
  }
}

const QUERY_PIECES = ['limit=0', 'limit=5', 'limit=101', 'limit=abc', 'offset=-1', 'offset=3', 'source_in=API', 'source_in=NOPE', 'referenceId=sweep-card', '%zz', 'limit=%zz', '&&'];

function sweepPath(dice: Dice, fixture: SweepFixture): string {
  const known = dice.pick(fixture.knownPaths);
  const roll = dice.float();
  if (roll < 0.6) return dice.chance(0.25) ? `${known}?${dice.pick(QUERY_PIECES)}&${dice.pick(QUERY_PIECES)}` : known;
  if (roll < 0.85) {
    const mutated = mutatePath(dice, known);
    return mutated.startsWith('/') ? mutated : `/${mutated}`;
  }
  return `/${Array.from({ length: 1 + dice.int(4) }, () => randomSegment(dice)).join('/')}`;
}

function validSweepBody(dice: Dice, pathname: string, fixture: SweepFixture): Record<string, unknown> {
  if (pathname === '/client/v1/card-tokens') return tokenBody();
  if (pathname === '/api/v1/refunds') {
    const chargeId = dice.pick(fixture.succeededChargeIds);
    return dice.chance(0.5) ? { chargeId } : { chargeId, amount: dice.pick([0, 100, 10_000]), reason: 'sweep' };
  }
  return validChargeBody(dice);
}

/** A valid body for the endpoint, or one with a member removed or replaced. */
function nearMissBody(dice: Dice, pathname: string, fixture: SweepFixture): { kind: string; body: string } {
  const valid = validSweepBody(dice, pathname, fixture);
  return dice.chance(0.4) ? { kind: 'valid', body: JSON.stringify(valid) } : { kind: 'mutated', body: JSON.stringify(mutate(dice, valid)) };
}

function sweepBody(dice: Dice, pathname: string, fixture: SweepFixture): { kind: string; body: string | Uint8Array<ArrayBuffer> | undefined } {
  const valid = () => validSweepBody(dice, pathname, fixture);
  switch (dice.int(10)) {
    case 0:
      return { kind: 'none', body: undefined };
    case 1:
    case 2:
      return { kind: 'valid', body: JSON.stringify(valid()) };
    case 3:
    case 4:
    case 5:
      return { kind: 'mutated', body: JSON.stringify(mutate(dice, valid())) };
    case 6:
      // JSON.stringify gives undefined for undefined, which its type omits.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
      return { kind: 'random JSON', body: JSON.stringify(randomJson(dice, 4)) ?? 'null' };
    case 7: {
      const text = JSON.stringify(valid());
      return { kind: 'malformed JSON', body: text.slice(0, dice.int(text.length)) + dice.pick(['', '}', ']]', ',', ' x', 'NaN', "'"]) };
    }
    case 8:
      return { kind: 'random bytes', body: Uint8Array.from({ length: dice.int(200) }, () => dice.int(256)) };
    default:
      return { kind: 'form', body: dice.pick(['otp=000000', 'outcome=fail', 'decision=decline', 'rawData=x&outcome=succeed', `${randomSegment(dice)}=${randomSegment(dice)}`]) };
  }
}

function junkHeaderValue(dice: Dice): string {
  let value = '';
  for (let i = 0, n = dice.int(40); i < n; i += 1) value += String.fromCharCode(0x21 + dice.int(0x5e));
  return value;
}

describe('a generated sweep of bad requests', () => {
  sandboxTest('never answers 5xx, always in the error shape with a request id, and creates nothing on a 4xx', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    // Resources the known paths point at.
    const succeededChargeIds = [await succeededChargeId(client), await succeededChargeId(client), await succeededChargeId(client)];
    const otpCharge = await send(client, 'POST', '/api/v1/charges', { body: cardBody({ pan: '4953261730509988' }) });
    const forceCharge = await send(client, 'POST', '/api/v1/charges', { body: cardBody({ pan: '4389783280144506' }) });
    const walletCharge = await send(client, 'POST', '/api/v1/charges', { body: walletBody() });
    const refund = await send(client, 'POST', '/api/v1/refunds', { body: { chargeId: succeededChargeIds[0] } });
    expect(refund.status).toBe(201);
    const fixture: SweepFixture = {
      succeededChargeIds,
      knownPaths: [
        '/client/v1/card-tokens',
        '/client/v1/card-tokens',
        '/api/v1/charges',
        '/api/v1/charges',
        '/api/v1/charges',
        `/api/v1/charges/${succeededChargeIds[1]}`,
        '/api/v1/refunds',
        '/api/v1/refunds',
        `/api/v1/refunds/${refund.body.refundId}`,
        '/api/v1/transactions',
        `/api/v1/transactions/${succeededChargeIds[2]}`,
        '/sandbox/v1/webhook-deliveries',
        '/sandbox/health',
        `${SANDBOX_PAGES_PATH}/otp/${otpCharge.body.chargeId}`,
        `${SANDBOX_PAGES_PATH}/force/${forceCharge.body.chargeId}`,
        `${SANDBOX_PAGES_PATH}/authorize/${walletCharge.body.chargeId}`,
        `${SANDBOX_PAGES_PATH}/promptpay`,
        `${SANDBOX_PAGES_PATH}/style.css`,
      ],
    };

    const existing = {
      charges: new Set(sandbox.store.charges.keys()),
      cardTokens: new Set(sandbox.store.cardTokens.keys()),
      refunds: new Set(sandbox.store.refunds.keys()),
    };
    const created = { charges: new Set<string>(), cardTokens: new Set<string>(), refunds: new Set<string>() };
    const statuses = new Map<number, number>();
    const problems: string[] = [];

    const dice = new Dice(0x5a7a6);
    const REQUESTS = 800;
    // 'partner' and 'junk' stand for a partner's credentials and for random bytes.
    const AUTHS: (string | null)[] = [API_AUTH, API_AUTH, API_AUTH, CLIENT_AUTH, CLIENT_AUTH, null, 'Bearer x', 'Basic ???', basic(SANDBOX_DEFAULTS.merchantId, 'sk_wrong'), basic('mch_nobody', 'x'), 'partner', 'junk'];
    const TYPES: (string | null)[] = ['application/json', 'application/json', 'application/json', 'application/json; charset=utf-8', null, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'junk'];
    const METHODS = ['POST', 'POST', 'POST', 'POST', 'GET', 'GET', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
    const POST_PATHS = ['/api/v1/charges', '/api/v1/charges', '/api/v1/charges', '/client/v1/card-tokens', '/api/v1/refunds'];

    for (let n = 0; n < REQUESTS; n += 1) {
      // Half the requests are near misses of a real call (right method, path and key, a valid or
      // mutated body); the other half mix everything at random.
      const nearMiss = dice.chance(0.5);
      const method = nearMiss ? 'POST' : dice.pick(METHODS);
      const path = nearMiss ? dice.pick(POST_PATHS) : sweepPath(dice, fixture);
      const url = new URL(`${ORIGIN}${path}`);
      const headers = new Headers();
      const rightAuth = url.pathname.startsWith('/client/') ? CLIENT_AUTH : API_AUTH;
      const auth = nearMiss ? (dice.chance(0.85) ? rightAuth : dice.pick(AUTHS)) : dice.pick(AUTHS);
      if (auth === 'partner') {
        headers.set('authorization', PARTNER_AUTH);
        if (dice.chance(0.7)) headers.set(PARTNER_ID_HEADER, dice.pick([SANDBOX_DEFAULTS.partnerId, 'ptn_other', '']));
      } else if (auth === 'junk') {
        headers.set('authorization', junkHeaderValue(dice));
      } else if (auth !== null) {
        headers.set('authorization', auth);
      }
      const canCarryBody = method !== 'GET' && method !== 'HEAD';
      const { kind, body } = !canCarryBody
        ? { kind: 'none', body: undefined }
        : nearMiss
          ? nearMissBody(dice, url.pathname, fixture)
          : sweepBody(dice, url.pathname, fixture);
      const type = nearMiss && dice.chance(0.85) ? 'application/json' : dice.pick(TYPES);
      if (type === 'junk') headers.set('content-type', junkHeaderValue(dice));
      else if (type !== null) headers.set('content-type', type);
      if (dice.chance(0.25)) {
        headers.set(IDEMPOTENCY_HEADER, dice.pick(['sweep-key-1', 'sweep-key-2', `sweep-${n}`, `sweep-${n}`, 'has space', 'k'.repeat(256), '']));
      }

      const label = `#${n} ${method} ${path.slice(0, 120)} [auth ${String(auth).slice(0, 20)}, type ${type}, body ${kind}]`;
      let answer: Answer;
      try {
        answer = await sendRequest(sandbox, new Request(url, { method, headers, body: body ?? null }));
      } catch (error) {
        problems.push(`${label}: ${(error as Error).message}`);
        continue;
      }
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);

      const hostedPage = url.pathname.startsWith(`${SANDBOX_PAGES_PATH}/`);
      const contentType = answer.headers.get('content-type') ?? '';
      if (answer.status >= 500 || answer.status < 200) problems.push(`${label}: status ${answer.status} ${brief(answer.body)}`);
      if (answer.status >= 300 && answer.status < 400 && !hostedPage) problems.push(`${label}: redirect ${answer.status} outside the hosted pages`);
      if (!(answer.headers.get(REQUEST_ID) ?? '').startsWith("req_")) problems.push(`${label}: no ${REQUEST_ID} header`);
      if (answer.status >= 400 && (!hostedPage || contentType.startsWith('application/json'))) {
        const error = answer.body as { code?: unknown; message?: unknown; error?: { errorCode?: unknown; errorMessage?: unknown } } | string | null | undefined;
        const shaped =
          typeof error === 'object' &&
          error !== null &&
          error.code === answer.status &&
          typeof error.message === 'string' &&
          error.message !== '' &&
          typeof error.error?.errorCode === 'string' &&
          error.error.errorMessage === error.message &&
          SERVICE_ERROR_STATUS[error.error.errorCode as ServiceErrorCode] === answer.status;
        if (!shaped || !contentType.startsWith('application/json')) problems.push(`${label}: ${answer.status} not in the error shape: ${brief(answer.body)}`);
      }

      if (method === 'POST' && answer.status === 201) {
        if (url.pathname === '/api/v1/charges') created.charges.add(answer.body.chargeId);
        else if (url.pathname === '/client/v1/card-tokens') created.cardTokens.add(answer.body.id);
        else if (url.pathname === '/api/v1/refunds') created.refunds.add(answer.body.refundId);
        else problems.push(`${label}: 201 from an unexpected path`);
      }
    }

    expect(problems).toEqual([]);

    const added = (all: Iterable<string>, before: Set<string>) => [...all].filter((id) => !before.has(id)).sort();
    expect(added(sandbox.store.charges.keys(), existing.charges)).toEqual([...created.charges].sort());
    expect(added(sandbox.store.cardTokens.keys(), existing.cardTokens)).toEqual([...created.cardTokens].sort());
    expect(added(sandbox.store.refunds.keys(), existing.refunds)).toEqual([...created.refunds].sort());

    // The sweep exercised both sides: some requests were accepted, most were refused for many reasons.
    expect(created.charges.size).toBeGreaterThan(0);
    expect(created.cardTokens.size).toBeGreaterThan(0);
    const refused = [...statuses].filter(([status]) => status >= 400).reduce((sum, [, count]) => sum + count, 0);
    expect(refused).toBeGreaterThan(REQUESTS / 2);
    for (const status of [400, 401, 404, 405, 415]) expect(statuses.get(status) ?? 0, `answers with status ${status}`).toBeGreaterThan(0);
  });
});
