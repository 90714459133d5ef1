import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_HEADERS } from '../../src/core/constants.js';
import { SERVICE_ERROR_CODES, SERVICE_ERROR_STATUS, type ServiceErrorCode } from '../../src/core/service-error.js';
import { SANDBOX_DEFAULTS, SANDBOX_DASHBOARD_PATH, SANDBOX_PAGES_PATH, type Sandbox } from '../../src/sandbox/index.js';
import { createQrCharge } from '../support/qr-charge.js';
import { API_AUTH, basic, CLIENT_AUTH, FUTURE_EXPIRY_YEAR, newSandbox, ORIGIN, type SandboxClient } from '../support/sandbox-client.js';
import {
  anyMethod,
  authorizationHeader,
  bodyText,
  breakOff,
  buildRequest,
  contentLengthLie,
  count,
  formBody,
  formContentType,
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
 * The sandbox under generated hostile input: every /api/v1, /client/v1 and /sandbox/v1 endpoint,
 * the hosted pages' form posts and the dashboard's forms. For every request: an answer comes, it
 * is never a 5xx, an API refusal is the service's error body with a documented code and status,
 * a page refusal is an HTML page (or that error body, for a request no browser form sends), and a
 * refused request creates nothing.
 */

const PARTNER_AUTH = basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.partnerApiKey);
const FORM = 'application/x-www-form-urlencoded';
/** Replaced, in the body text sent, by a card token made for that request. */
const FRESH_TOKEN = '{{fresh-card-token}}';

let sandbox: Sandbox;
let client: SandboxClient;
const world = { paid: '', refund: '', authorization: '', link: '', intent: '', device: '', connection: '', delivery: '', slip: '' };
const session = { cookie: '', csrf: '' };

beforeAll(async () => {
  ({ sandbox, client } = newSandbox({
    refundSettleDelayMs: 0,
    webhook: { url: 'https://shop.example/hooks', webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64, fetch: async () => new Response('ok'), retryBaseDelayMs: 1 },
  }));
  world.paid = (await client.chargeCard('4111111111111111')).body.chargeId;
  world.refund = (await client.post('/api/v1/refunds', { chargeId: world.paid, amount: 100 })).body.refundId;
  world.authorization = (await client.post('/api/v1/card-authorizations', validAuthorization(await client.tokenize('4111111111111111')))).body.cardAuthorizationId;
  world.link = (await client.post('/api/v1/payment-links', { order: { netAmount: 25_000, currency: 'THB', description: 'Celadon bowl' } })).body.id;
  world.device = (await client.get('/api/v1/bolt-devices')).body.data[0].boltDeviceId;
  world.connection = (await client.post('/api/v1/bolt-connections', { pairingCode: pairingCode() })).body.id;
  world.intent = (await client.post('/api/v1/bolt-intents', validIntent('bolt-1'))).body.id;
  await sandbox.webhooks.idle();
  world.delivery = sandbox.webhooks.list()[0]!.deliveryId;
  const qr = await createQrCharge(client);
  world.slip = (await client.get(`/sandbox/v1/charges/${qr.chargeId}/slip`)).body.raw;
  for (const value of Object.values(world)) expect(value).toEqual(expect.any(String));
  await signIn();
});

afterAll(() => {
  printTally('sandbox answers');
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
  sandbox?.close();
});

function validAuthorization(cardTokenId: string) {
  return { amount: 10_000, currency: 'THB', referenceId: 'auth-1', paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } } };
}

function validIntent(referenceId: string) {
  return { amount: 45_000, currency: 'THB', referenceId, expiryDurationInSec: 90, boltConnectionId: world.connection, mode: { type: 'PAIRING' }, paymentMethod: { paymentMethodType: 'CARD' } };
}

/** The code the world's device shows now; it changes after every pairing. */
function pairingCode(): string {
  return sandbox.bolt.pairingCode(sandbox.merchants.get(SANDBOX_DEFAULTS.merchantId)!, world.device);
}

/** Signs in to the dashboard as the default merchant and reads the session's form token. */
async function signIn(): Promise<void> {
  const login = await sandbox.fetch(
    new Request(`${ORIGIN}${SANDBOX_DASHBOARD_PATH}/login`, {
      method: 'POST',
      // As a browser posts the sign-in form: the dashboard takes forms only with a same-origin signal.
      headers: { 'content-type': FORM, origin: ORIGIN, 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey }).toString(),
    }),
  );
  session.cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const home = await (await sandbox.fetch(new Request(`${ORIGIN}${SANDBOX_DASHBOARD_PATH}`, { headers: { cookie: session.cookie } }))).text();
  session.csrf = /name="csrfToken" value="([^"]+)"/.exec(home)![1]!;
}

/** What a request could have created: what a refusal must leave as it was. */
function records(): number {
  const merchant = sandbox.merchants.get(SANDBOX_DEFAULTS.merchantId)!;
  const page = { limit: 1, offset: 0 };
  return (
    sandbox.store.charges.size +
    sandbox.store.cardTokens.size +
    sandbox.store.refunds.size +
    sandbox.authorizations.records.size +
    sandbox.paymentLinks.list(merchant, page).totalCount +
    sandbox.bolt.listIntents(merchant, page).totalCount +
    sandbox.bolt.listConnections(merchant, page).totalCount +
    sandbox.faults.list().length
  );
}

type Surface = 'api' | 'page' | 'dashboard';

function surfaceOf(path: string): Surface {
  if (path === SANDBOX_DASHBOARD_PATH || path.startsWith(`${SANDBOX_DASHBOARD_PATH}/`)) return 'dashboard';
  if (path.startsWith(`${SANDBOX_PAGES_PATH}/`)) return 'page';
  return 'api';
}

/** Sends one generated request and asserts what the sandbox promises about its answer. */
async function check(label: string, request: Request | undefined, what: string): Promise<{ status: number; text: string }> {
  fc.pre(request !== undefined);
  const before = records();
  const response = await within(what, sandbox.fetch(request));
  const text = await within(`${what} (body)`, response.text());
  const status = response.status;
  const type = response.headers.get('content-type') ?? '';
  const surface = surfaceOf(new URL(request.url).pathname);
  const shown = `${what} → ${status} ${text.slice(0, 300)}`;

  expect(status, shown).toBeLessThan(500);
  expect(response.headers.get(SERVICE_HEADERS.requestId), shown).toMatch(/^req_/);
  let code = '';
  if (status >= 400) {
    if (surface === 'dashboard' || (surface === 'page' && type.startsWith('text/html'))) {
      expect(type, shown).toMatch(/^text\/html/);
      expect(text, shown).toMatch(/^<!doctype html>/i);
    } else {
      expect(type, shown).toMatch(/^application\/json/);
      const body = JSON.parse(text);
      expect(body, shown).toEqual({ code: status, message: expect.any(String), error: { errorCode: expect.any(String), errorMessage: body.message } });
      expect(SERVICE_ERROR_CODES, shown).toContain(body.error.errorCode);
      expect(SERVICE_ERROR_STATUS[body.error.errorCode as ServiceErrorCode], shown).toBe(status);
      code = body.error.errorCode;
    }
    // 402 is a payment link page whose payment was made and failed: the charge exists, as it should.
    if (status !== 402) expect(records(), `${shown}: a refused request created something`).toBe(before);
  } else if (surface === 'api' && text !== '') {
    expect(type, shown).toMatch(/^application\/json/);
    JSON.parse(text);
  }
  count(`${label} ${status} ${code}`);
  // A fault rule a generated request managed to add would spoil the requests after it.
  sandbox.faults.clear();
  return { status, text };
}

async function withFreshTokens(text: string): Promise<string> {
  return text.includes(FRESH_TOKEN) ? text.split(FRESH_TOKEN).join(await client.tokenize('4111111111111111')) : text;
}

const timeout = fuzzTestTimeout();

interface Endpoint {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: Record<string, unknown>;
  query?: string[];
}

function endpoints(): Endpoint[] {
  const card = { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId: FRESH_TOKEN, securityCode: '123' } };
  const charge = (paymentMethod: unknown, extra: Record<string, unknown> = {}) => ({ amount: 10_000, currency: 'THB', referenceId: 'order-1', paymentMethod, ...extra });
  return [
    { method: 'POST', path: '/client/v1/card-tokens', body: { pan: '4111111111111111', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee' } },
    { method: 'POST', path: '/api/v1/charges', body: charge(card, { returnUrl: 'https://shop.example/back', customer: { email: 'a@example.com' } }) },
    { method: 'POST', path: '/api/v1/charges', body: charge({ paymentMethodType: 'CARD_TOKEN_INSTALLMENTS', cardTokenInstallments: { cardTokenId: FRESH_TOKEN, securityCode: '123', installmentPeriod: 3 } }, { amount: 300_000 }) },
    { method: 'POST', path: '/api/v1/charges', body: charge({ paymentMethodType: 'QR_PROMPT_PAY', qrPromptPay: { expiryTime: '2099-01-01T00:00:00Z' } }) },
    { method: 'POST', path: '/api/v1/charges', body: charge({ paymentMethodType: 'TRUE_MONEY', trueMoney: {} }, { returnUrl: 'https://shop.example/back', deviceType: 'IOS' }) },
    { method: 'POST', path: '/api/v1/charges', body: charge({ paymentMethodType: 'CARD', card: { pan: '4111111111111111', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee', securityCode: '123' } }) },
    { method: 'POST', path: '/api/v1/charges/verify-qr-slip', body: { format: 'RAW', raw: world.slip } },
    { method: 'POST', path: '/api/v1/charges/verify-qr-slip', body: { format: 'IMAGE', imageBase64Encoded: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==' } },
    { method: 'POST', path: '/api/v1/refunds', body: { chargeId: world.paid, amount: 100, reason: 'fuzz' } },
    { method: 'POST', path: '/api/v1/card-authorizations', body: validAuthorization(FRESH_TOKEN) },
    { method: 'POST', path: `/api/v1/card-authorizations/${world.authorization}/charges`, body: { amount: 100, currency: 'THB', referenceId: 'capture-1', isFinal: false } },
    { method: 'POST', path: `/api/v1/card-authorizations/${world.authorization}/cancel`, body: {} },
    { method: 'POST', path: '/api/v1/payment-links', body: { order: { netAmount: 25_000, currency: 'THB', description: 'Bowl', orderItems: [{ itemName: 'Bowl', price: 25_000, quantity: 1 }] }, collectPhoneNumber: true, redirectUrl: 'https://shop.example/paid' } },
    { method: 'PATCH', path: `/api/v1/payment-links/${world.link}/disable`, body: {} },
    { method: 'POST', path: '/api/v1/bolt-intents', body: validIntent('bolt-fuzz') },
    { method: 'PATCH', path: `/api/v1/bolt-intents/${world.intent}/cancel`, body: {} },
    { method: 'POST', path: '/api/v1/bolt-connections', body: { pairingCode: pairingCode() } },
    { method: 'PATCH', path: `/api/v1/bolt-devices/${world.device}/name`, body: { name: 'Till 2' } },
    { method: 'POST', path: `/api/v1/bolt-devices/${world.device}/health-check`, body: {} },
    { method: 'POST', path: `/sandbox/v1/webhook-deliveries/${world.delivery}/redeliver`, body: {} },
    { method: 'GET', path: '/api/v1/charges', query: ['limit', 'offset', 'referenceId', 'source_in', 'sourceId'] },
    { method: 'GET', path: `/api/v1/charges/${world.paid}` },
    { method: 'GET', path: `/api/v1/refunds/${world.refund}` },
    { method: 'GET', path: '/api/v1/transactions', query: ['limit', 'offset', 'referenceId'] },
    { method: 'GET', path: `/api/v1/transactions/${world.paid}` },
    { method: 'GET', path: '/api/v1/card-authorizations', query: ['limit', 'offset'] },
    { method: 'GET', path: `/api/v1/card-authorizations/${world.authorization}` },
    { method: 'GET', path: `/api/v1/card-authorizations/${world.authorization}/charges`, query: ['limit', 'offset'] },
    { method: 'GET', path: `/api/v1/payment-links/${world.link}` },
    { method: 'GET', path: `/api/v1/bolt-intents/${world.intent}` },
    { method: 'GET', path: `/api/v1/bolt-connections/${world.connection}` },
    { method: 'GET', path: '/api/v1/bolt-devices', query: ['limit', 'offset'] },
    { method: 'GET', path: `/api/v1/bolt-devices/${world.device}` },
    { method: 'GET', path: '/sandbox/v1/webhook-deliveries', query: ['limit', 'offset'] },
    { method: 'GET', path: `/sandbox/v1/charges/${world.paid}/slip`, query: ['format'] },
    { method: 'GET', path: '/sandbox/health' },
    { method: 'POST', path: '/sandbox/v1/faults', body: { method: 'POST', path: '/api/v1/charges', kind: 'status', status: 503, when: 'after', times: 2, referenceId: 'order-9' } },
    { method: 'POST', path: '/sandbox/v1/faults', body: { path: '/api/v1/*', kind: 'rate-limit', retryAfterSeconds: 1 } },
    { method: 'POST', path: '/sandbox/v1/faults', body: { method: 'GET', path: '/api/v1/charges/*', kind: 'slow-body', delayMs: 10 } },
    { method: 'GET', path: '/sandbox/v1/faults' },
    { method: 'DELETE', path: '/sandbox/v1/faults' },
    { method: 'GET', path: '/sandbox/v1/faults/flt_unknown' },
    { method: 'DELETE', path: '/sandbox/v1/faults/flt_unknown' },
  ];
}

/** The endpoint's path with, sometimes, one id segment swapped for a trick. */
function fuzzedPath(path: string): fc.Arbitrary<string> {
  const segments = path.split('/');
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant(path) },
    { weight: 1, arbitrary: fc.tuple(fc.nat({ max: segments.length - 1 }), pathSegment()).map(([at, segment]) => segments.map((s, i) => (i === at && i > 0 ? segment : s)).join('/')) },
    { weight: 1, arbitrary: fc.constantFrom(`${path}/`, `${path}//`, `${path}/..`, path.toUpperCase(), `${path}%00`) },
  );
}

/** `usual` four times in five, else one of `others`. */
function mostly<T>(usual: T, others: T[]): fc.Arbitrary<T> {
  return fc.oneof({ weight: 4, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: fc.constantFrom(...others) });
}

const idempotencyKey = fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('key-1', 'key-2') }, { weight: 1, arbitrary: headerValue });

describe('the sandbox under fuzzed input', () => {
  it('answers every API endpoint with its result or the service error body, and a refusal creates nothing', { timeout }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...endpoints()).chain((endpoint) =>
          fc.record({
            endpoint: fc.constant(endpoint),
            path: fuzzedPath(endpoint.path),
            method: fc.oneof({ weight: 9, arbitrary: fc.constant(endpoint.method) }, { weight: 1, arbitrary: anyMethod }),
            query: endpoint.query ? queryString(endpoint.query, ['API', 'PAYMENT_LINK', 'RAW', 'IMAGE', 'png', 'json']) : fc.constantFrom('', '', '?x=1'),
            text: endpoint.body ? mutatedBody(endpoint.body).chain(bodyText) : fc.constant(undefined),
          }),
        ),
        authorizationHeader([API_AUTH, API_AUTH, API_AUTH, API_AUTH, PARTNER_AUTH, CLIENT_AUTH]),
        fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(SANDBOX_DEFAULTS.partnerId, 'ptn_nobody', '') }, { weight: 1, arbitrary: headerValue }),
        jsonContentType,
        idempotencyKey,
        contentLengthLie,
        breakOff,
        async ({ endpoint, path, method, query, text }, auth, partner, contentType, key, length, broken) => {
          // The client area takes the publishable key: swap it in where the API key was drawn.
          const authorization = path.startsWith('/client/') && auth === API_AUTH ? CLIENT_AUTH : auth;
          const body = text === undefined ? undefined : await withFreshTokens(text);
          const request = buildRequest(`${ORIGIN}${path}${query}`, {
            method,
            headers: {
              authorization,
              'content-type': contentType,
              [SERVICE_HEADERS.partnerId]: partner ?? (auth === PARTNER_AUTH ? SANDBOX_DEFAULTS.partnerId : undefined),
              [SERVICE_HEADERS.idempotencyKey]: key,
              'content-length': length,
            },
            body,
            breakOff: broken,
          });
          await check(`${endpoint.method} ${endpoint.path.replace(/\/(ch|ca|pl|bi|bd|bc|whd|re)_\w+/g, '/:id')}`, request, `${method} ${path.slice(0, 120)}${query.slice(0, 100)} ${(body ?? '').slice(0, 200)}`);
        },
      ),
      fuzzParameters(),
    );
  });

  it('makes one resource for concurrent copies of one idempotent POST, and answers each copy alike', { timeout }, async () => {
    const creating = endpoints().filter((endpoint) => endpoint.method === 'POST' && endpoint.body && !endpoint.path.includes('verify-qr-slip') && !endpoint.path.startsWith('/sandbox/v1/faults'));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...creating),
        fc.integer({ min: 2, max: 4 }),
        fc.uuid(),
        async (endpoint, copies, key) => {
          const body = await withFreshTokens(JSON.stringify(endpoint.body));
          const auth = endpoint.path.startsWith('/client/') ? CLIENT_AUTH : API_AUTH;
          const before = records();
          const send = () =>
            check(
              'concurrent',
              buildRequest(`${ORIGIN}${endpoint.path}`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json', [SERVICE_HEADERS.idempotencyKey]: key }, body }),
              `concurrent POST ${endpoint.path} ${body}`,
            );
          const answers = await Promise.all(Array.from({ length: copies }, send));
          expect(new Set(answers.map((a) => JSON.stringify([a.status, a.text]))).size, JSON.stringify(answers)).toBe(1);
          expect(records() - before).toBeLessThanOrEqual(1);
        },
      ),
      fuzzParameters(1 / 4),
    );
  });

  it('answers any method on any path with a documented answer', { timeout }, async () => {
    const segment = pathSegment(['api', 'v1', 'client', 'sandbox', 'charges', 'refunds', 'card-tokens', 'pages', 'dashboard', 'otp', 'slips', 'bolt', 'payment-links', world.paid, world.link]);
    await fc.assert(
      fc.asyncProperty(
        anyMethod,
        fc.constantFrom('/api/v1', '/client/v1', '/sandbox/v1', '/sandbox/pages', '/sandbox/dashboard', '/sandbox', ''),
        fc.array(segment, { maxLength: 5 }),
        queryString(['limit', 'offset', 'format', 'rawData', 'attempt', 'done']),
        fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: nastyString.chain(bodyText) }),
        fc.oneof(jsonContentType, formContentType),
        authorizationHeader([API_AUTH, CLIENT_AUTH]),
        async (method, base, segments, query, body, contentType, auth) => {
          const path = `${base}/${segments.join('/')}`;
          const request = buildRequest(`${ORIGIN}${path}${query}`, { method, headers: { authorization: auth, 'content-type': contentType }, body });
          await check(`any ${surfaceOf(new URL(`${ORIGIN}${path}`).pathname)}`, request, `${method} ${path.slice(0, 200)}${query.slice(0, 100)}`);
        },
      ),
      fuzzParameters(),
    );
  });

  it("answers the hosted pages' form posts with a page, never a 5xx, and a refused form changes nothing", { timeout }, async () => {
    /** A fresh resource waiting on the page, so every run reaches the page's form handling. */
    const fresh = async (page: string): Promise<{ id: string; extra: Record<string, string> }> => {
      if (page === 'otp' || page === 'force') {
        const charge = await client.chargeCard(page === 'otp' ? '4953261730509988' : '4389783280144506', { returnUrl: 'https://shop.example/back' });
        return { id: charge.body.chargeId, extra: {} };
      }
      if (page === 'authorize') {
        const charge = await client.createCharge({ paymentMethod: { paymentMethodType: 'LINE_PAY', linePay: {} }, returnUrl: 'https://shop.example/back' });
        return { id: charge.body.chargeId, extra: {} };
      }
      if (page === 'promptpay' || page === 'slips') {
        const charge = await createQrCharge(client);
        return { id: '', extra: { rawData: charge.rawData } };
      }
      if (page === 'payment-links') {
        const link = await client.post('/api/v1/payment-links', { order: { netAmount: 400_000, currency: 'THB', description: 'Set' }, collectPhoneNumber: true, collectDeliveryAddress: true });
        return { id: link.body.id, extra: {} };
      }
      const intent = await client.post('/api/v1/bolt-intents', validIntent(`bolt-${Date.now()}`));
      return { id: intent.body.id, extra: {} };
    };
    const year = String(FUTURE_EXPIRY_YEAR).padStart(2, '0');
    const forms: Record<string, { names: string[]; valid: Record<string, string> }> = {
      otp: { names: ['otp'], valid: { otp: '123456' } },
      force: { names: ['outcome'], valid: { outcome: 'succeed' } },
      authorize: { names: ['decision'], valid: { decision: 'decline' } },
      promptpay: { names: ['rawData', 'outcome'], valid: { outcome: 'succeed' } },
      slips: { names: ['rawData', 'outcome'], valid: { outcome: 'slip' } },
      'payment-links': {
        names: ['method', 'formToken', 'cardNumber', 'cardHolderName', 'expiryMonth', 'expiryYear', 'securityCode', 'installmentPeriod', 'phoneCountryCode', 'phoneNumber', 'contactName', 'streetAddress', 'city', 'postCode', 'country'],
        valid: {
          method: 'CARD',
          cardNumber: '4111 1111 1111 1111',
          cardHolderName: 'Somchai Jaidee',
          expiryMonth: '12',
          expiryYear: year,
          securityCode: '123',
          installmentPeriod: '3',
          phoneCountryCode: '+66',
          phoneNumber: '081 234 5678',
          contactName: 'Somchai',
          streetAddress: '1 Sukhumvit',
          city: 'Bangkok',
          postCode: '10110',
          country: 'THA',
        },
      },
      bolt: { names: ['action', 'failureCode'], valid: { action: 'decline', failureCode: 'CH_INSUFFICIENT_FUNDS' } },
    };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(forms)).chain((page) =>
          fc.record({
            page: fc.constant(page),
            form: formBody(forms[page]!.names, forms[page]!.valid),
            target: fc.constantFrom('fresh', 'fresh', 'fresh', 'fresh', 'other', 'trick'),
            trick: pathSegment([world.paid, world.link, world.intent]),
          }),
        ),
        fc.oneof({ weight: 9, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'HEAD') }),
        formContentType,
        fc.constantFrom<string | undefined>(undefined, 'Mozilla/5.0 (iPhone)', 'Mozilla/5.0 (Linux; Android 14)', ''),
        contentLengthLie,
        breakOff,
        async ({ page, form, target, trick }, method, contentType, agent, length, broken) => {
          const made = await fresh(page);
          const id = target === 'fresh' ? made.id : target === 'other' ? world.paid : trick;
          const withId = page === 'promptpay' || page === 'slips' ? page : `${page}/${id}`;
          // The payer pages carry the QR text; put the real one in front of what was generated.
          const fields = made.extra.rawData && target === 'fresh' ? `rawData=${encodeURIComponent(made.extra.rawData)}&${form}` : form;
          const request = buildRequest(`${ORIGIN}${SANDBOX_PAGES_PATH}/${withId}`, { method, headers: { 'content-type': contentType, 'user-agent': agent, 'content-length': length }, body: fields, breakOff: broken });
          await check(`page ${page}`, request, `${method} ${withId.slice(0, 120)} ${fields.slice(0, 200)}`);
        },
      ),
      fuzzParameters(),
    );
  });

  it("answers the dashboard's forms with a page, never a 5xx, and a refused form changes nothing", { timeout }, async () => {
    const sections: Record<string, { id: () => string; actions: string[] }> = {
      charges: { id: () => world.paid, actions: ['succeed', 'fail', 'refund'] },
      refunds: { id: () => world.refund, actions: [] },
      transactions: { id: () => world.paid, actions: [] },
      'card-authorizations': { id: () => world.authorization, actions: ['authorize', 'fail', 'capture', 'cancel'] },
      webhooks: { id: () => world.delivery, actions: ['resend'] },
      'payment-links': { id: () => world.link, actions: ['disable'] },
      'bolt-intents': { id: () => world.intent, actions: ['pay', 'decline', 'cancel'] },
      'bolt-devices': { id: () => world.device, actions: ['health-check', 'rename'] },
    };
    /** A fresh record that still has its actions, for the sections whose actions use them up. */
    const fresh = async (section: string): Promise<string> => {
      if (section === 'charges') return (await client.chargeCard('4389783280144506')).body.chargeId;
      if (section === 'card-authorizations') return (await client.post('/api/v1/card-authorizations', validAuthorization(await client.tokenize('4111111111111111')))).body.cardAuthorizationId;
      if (section === 'payment-links') return (await client.post('/api/v1/payment-links', { order: { netAmount: 25_000, currency: 'THB', description: 'Bowl' } })).body.id;
      if (section === 'bolt-intents') return (await client.post('/api/v1/bolt-intents', validIntent('bolt-dash'))).body.id;
      return sections[section]!.id();
    };
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom(...Object.keys(sections)).chain((section) => fc.tuple(fc.constant(section), fc.constantFrom('fresh', 'fresh', 'fresh', 'trick'), fc.oneof(fc.constantFrom(...sections[section]!.actions, 'nope'), pathSegment()))) },
          { weight: 1, arbitrary: fc.tuple(fc.constantFrom('login', 'logout', 'style.css', '', 'nowhere'), fc.constant('none'), fc.constant('')) },
          { weight: 1, arbitrary: fc.tuple(pathSegment(), fc.constant('trick'), pathSegment()) },
        ),
        fc.oneof({ weight: 8, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'HEAD', 'DELETE') }),
        mostly('valid', ['garbage', 'none']),
        mostly('valid', ['garbage', 'none']),
        formBody(['csrfToken', 'formId', 'amount', 'reason', 'failureCode', 'name', 'merchantId', 'apiKey'], { formId: 'abcdefgh12345678', amount: '1.00', reason: 'fuzz', failureCode: 'CH_PROCESSING_FAILED', name: 'Till 9' }),
        fc.oneof({ weight: 8, arbitrary: fc.constantFrom<string | undefined>(undefined, ORIGIN) }, { weight: 1, arbitrary: fc.constantFrom('https://evil.example', 'null', 'http://127.0.0.1:4011') }),
        fc.oneof({ weight: 8, arbitrary: fc.constantFrom<string | undefined>(undefined, 'same-origin') }, { weight: 1, arbitrary: fc.constantFrom('cross-site', 'same-site', 'none') }),
        formContentType,
        queryString(['limit', 'offset', 'done']),
        breakOff,
        async ([section, target, action], method, cookieKind, csrfKind, form, origin, site, contentType, query, broken) => {
          const id = target === 'fresh' ? await fresh(section) : target === 'trick' ? encodeURIComponent(`${Object.hasOwn(sections, section) ? sections[section]!.id() : ''}%`) : '';
          const path = [SANDBOX_DASHBOARD_PATH, section, id, action].filter((part) => part !== '').join('/');
          const csrf = csrfKind === 'valid' ? session.csrf : csrfKind === 'garbage' ? 'x'.repeat(32) : undefined;
          // A fresh form id per run, so the double-submit guard does not answer every run as the first one.
          const fields = `${csrf === undefined ? '' : `csrfToken=${csrf}&`}formId=f${Math.random().toString(36).slice(2, 14)}&${form}`;
          const cookie = cookieKind === 'valid' ? session.cookie : cookieKind === 'garbage' ? 'satang_sandbox_dashboard=dss_nope; a=b' : undefined;
          const request = buildRequest(`${ORIGIN}${path}${query}`, { method, headers: { 'content-type': contentType, cookie, origin, 'sec-fetch-site': site }, body: fields, breakOff: broken });
          const { status } = await check(`dashboard ${section || '(home)'}`, request, `${method} ${path.slice(0, 160)} ${fields.slice(0, 200)}`);
          // Signing in or out changes the session; start the next run signed in again.
          if ((section === 'logout' || section === 'login') && status === 303) await signIn();
        },
      ),
      fuzzParameters(),
    );
  });
});

describe('counterexamples the fuzzing found', () => {
  it('answers an API call whose body breaks off mid-upload with 400 INVALID_JSON_ERROR, not a 500', async () => {
    const body = JSON.stringify({ pan: '4111111111111111', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee' });
    const request = buildRequest(`${ORIGIN}/client/v1/card-tokens`, { method: 'POST', headers: { authorization: CLIENT_AUTH, 'content-type': 'application/json' }, body, breakOff: true });
    const { status, text } = await check('regression', request, 'card token, body broken off');
    expect([status, JSON.parse(text).error.errorCode]).toEqual([400, 'INVALID_JSON_ERROR']);
  });

  it('answers a slip upload that breaks off with 400 INVALID_JSON_ERROR, not 413', async () => {
    const body = '--xyz\r\nContent-Disposition: form-data; name="image"; filename="slip.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG\r\n--xyz--\r\n';
    const request = buildRequest(`${ORIGIN}/api/v1/charges/verify-qr-slip`, { method: 'POST', headers: { authorization: API_AUTH, 'content-type': 'multipart/form-data; boundary=xyz' }, body, breakOff: true });
    const { status, text } = await check('regression', request, 'slip upload, body broken off');
    expect([status, JSON.parse(text).error.errorCode]).toEqual([400, 'INVALID_JSON_ERROR']);
  });

  it('answers a hosted page form that breaks off with a 400, not a 500', async () => {
    const request = buildRequest(`${ORIGIN}${SANDBOX_PAGES_PATH}/promptpay`, { method: 'POST', headers: { 'content-type': FORM }, body: 'rawData=000201&outcome=succeed', breakOff: true });
    const { status } = await check('regression', request, 'payer page, body broken off');
    expect(status).toBe(400);
  });
});
