import { describe, expect } from 'vitest';
import { SERVICE_HEADERS } from '../../../src/core/constants.js';
import { CardAuthorizationListSchema, CardAuthorizationSchema, CreateCardAuthorizationResponseSchema } from '../../../src/core/schemas/card-authorization.js';
import { ChargeListSchema, ChargeSchema } from '../../../src/core/schemas/charge.js';
import { parseWebhookEvent } from '../../../src/core/schemas/webhook-events.js';
import { verifyWebhookSignature } from '../../../src/core/webhook-signature.js';
import {
  defaultSandboxMerchant,
  REPLAYED_HEADER,
  SANDBOX_CARD_AUTHORIZATION_TTL_MS,
  SANDBOX_DEFAULTS,
  type SandboxMerchant,
  type SandboxOptions,
} from '../../../src/sandbox/index.js';
import { basic, FUTURE_EXPIRY_YEAR, IDEMPOTENCY_HEADER, ORIGIN, type Answer, type SandboxClient } from '../../support/sandbox-client.js';
import { sandboxTest } from '../../support/sandbox-fixture.js';

const PATH = '/api/v1/card-authorizations';
const RETURN_URL = 'https://shop.example/checkout/return?order=1';
const VISA = '4111111111111111';
const OTP_CARD = '4953261730509988';
const FORCE_CARD = '4389783280144506';
const INSUFFICIENT_FUNDS_CARD = '4943129900084541';

interface Hook {
  event: string;
  signature: string;
  raw: string;
}

let now: number;
let hooks: Hook[];

/**
 * Options for a sandbox on a clock the test moves, whose webhooks land in `hooks`: its dispatcher
 * delivers through a fetch that plays the merchant's receiver and acknowledges with 204.
 */
function authOptions(options: { merchant?: Partial<SandboxMerchant> } = {}): SandboxOptions {
  now = Date.now();
  const mine: Hook[] = [];
  hooks = mine;
  return {
    refundSettleDelayMs: 0,
    now: () => new Date(now),
    merchants: [{ ...defaultSandboxMerchant(), ...options.merchant }],
    webhook: {
      url: 'http://127.0.0.1:9/webhooks',
      webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64,
      fetch: async (_url, init) => {
        // As a real fetch does: a delivery aborted by close() never arrives.
        if (init?.signal?.aborted) throw init.signal.reason;
        const headers = new Headers(init?.headers);
        mine.push({ event: headers.get(SERVICE_HEADERS.event) ?? '', signature: headers.get(SERVICE_HEADERS.signature) ?? '', raw: typeof init?.body === 'string' ? init.body : '' });
        return new Response(null, { status: 204 });
      },
    },
  };
}

const securityCodeOf = (pan: string) => (pan.startsWith('37') ? '1234' : '123');

/** Authorizes 100.00 THB on a fresh card token of `pan`; `fields` override the body. */
async function authorize(client: SandboxClient, pan: string, fields: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const cardTokenId = await client.tokenize(pan);
  return client.post(
    PATH,
    { amount: 10_000, currency: 'THB', referenceId: 'order-1', paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: securityCodeOf(pan) } }, ...fields },
    { headers },
  );
}

/** An AUTHORIZED authorization of `amount`, its id. */
async function authorized(client: SandboxClient, fields: Record<string, unknown> = {}): Promise<string> {
  const created = await authorize(client, VISA, fields);
  expect(created.status).toBe(201);
  return created.body.cardAuthorizationId;
}

const read = async (client: SandboxClient, id: string) => (await client.get(`${PATH}/${id}`)).body;
const capture = (client: SandboxClient, id: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  client.post(`${PATH}/${id}/charges`, { currency: 'THB', referenceId: 'capture-1', ...body }, { headers });
const cancel = (client: SandboxClient, id: string, headers: Record<string, string> = {}) => client.request('POST', `${PATH}/${id}/cancel`, { headers });

/** The webhooks received so far, once every delivery has settled. */
async function received(client: SandboxClient) {
  await client.sandbox.webhooks.idle();
  return hooks.map((hook) => ({ event: hook.event, body: JSON.parse(hook.raw) }));
}

function expectRefusal(answer: Answer, status: number, errorCode: string, message: string | RegExp) {
  expect(answer.status).toBe(status);
  expect(answer.body).toMatchObject({ code: status, error: { errorCode } });
  if (typeof message === 'string') expect(answer.body.message).toContain(message);
  else expect(answer.body.message).toMatch(message);
}

describe('POST /api/v1/card-authorizations', () => {
  describe('with a card that succeeds', () => {
    sandboxTest('answers 201 {cardAuthorizationId, actionRequired NONE} and reads AUTHORIZED with the whole amount capturable for 7 days', async ({ startInProcess }) => {
      const { client } = startInProcess(authOptions());
      const created = await authorize(client, VISA);
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ cardAuthorizationId: expect.stringMatching(/^ca_[A-Za-z0-9]{24}$/), actionRequired: 'NONE' });
      expect(CreateCardAuthorizationResponseSchema.safeParse(created.body).success).toBe(true);

      const authorization = await read(client, created.body.cardAuthorizationId);
      expect(CardAuthorizationSchema.safeParse(authorization).success).toBe(true);
      expect(authorization).toEqual({
        cardAuthorizationId: created.body.cardAuthorizationId,
        merchantId: SANDBOX_DEFAULTS.merchantId,
        referenceId: 'order-1',
        status: 'AUTHORIZED',
        supportsMulticapture: false,
        currency: 'THB',
        amount: 10_000,
        capturedAmount: 0,
        capturableAmount: 10_000,
        latestChargeId: '',
        authorizedAt: new Date(now).toISOString(),
        expiresAt: new Date(now + 7 * 24 * 60 * 60 * 1000).toISOString(),
        paymentMethod: {
          paymentMethodType: 'CARD',
          card: {
            last4: '1111',
            brand: 'VISA',
            countryAlpha2: 'US',
            iso8583ResponseCode: '00',
            merchantAdviceCode: null,
            networkTransactionId: expect.stringMatching(/^\d{15}$/),
          },
          cardNetworkToken: null,
        },
        failureCode: '',
        createdAt: new Date(now).toISOString(),
        updatedAt: new Date(now).toISOString(),
      });
      expect(SANDBOX_CARD_AUTHORIZATION_TTL_MS).toBe(7 * 24 * 60 * 60 * 1000);
    });

    sandboxTest('authorizes Mastercard and Amex (CVC 1234) as well', async ({ startInProcess }) => {
      const { client } = startInProcess(authOptions());
      for (const [pan, brand] of [['5372074248113841', 'MASTERCARD'], ['378282246310005', 'AMEX']] as const) {
        const created = await authorize(client, pan);
        expect(created.body.actionRequired, pan).toBe('NONE');
        expect(await read(client, created.body.cardAuthorizationId)).toMatchObject({ status: 'AUTHORIZED', paymentMethod: { card: { brand } } });
      }
    });

    sandboxTest('takes the card itself (CARD), with its security code', async ({ startInProcess }) => {
      const { client } = startInProcess(authOptions());
      const created = await client.post(PATH, {
        amount: 25_000,
        currency: 'THB',
        referenceId: 'order-card',
        paymentMethod: { paymentMethodType: 'CARD', card: { pan: VISA, expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee', securityCode: '123' } },
      });
      expect(created.status).toBe(201);
      expect(await read(client, created.body.cardAuthorizationId)).toMatchObject({ status: 'AUTHORIZED', amount: 25_000, capturableAmount: 25_000, paymentMethod: { paymentMethodType: 'CARD' } });
    });

  });

  describe('with a network token (CARD_NETWORK_TOKEN)', () => {
    const CRYPTOGRAM = 'AAECAwQFBgcICQoLDA0ODxAREhM=';
    const networkToken = (fields: Record<string, unknown> = {}) => ({
      number: VISA,
      cryptogram: CRYPTOGRAM,
      cardHolderName: 'Somchai Jaidee',
      expiryMonth: 12,
      expiryYear: FUTURE_EXPIRY_YEAR,
      first8: '53720742',
      last4: '3841',
      initiatorType: 'CUSTOMER',
      ...fields,
    });
    const authorizeToken = (client: SandboxClient, cardNetworkToken: Record<string, unknown>) =>
      client.post(PATH, { amount: 10_000, currency: 'THB', referenceId: 'order-ntk', paymentMethod: { paymentMethodType: 'CARD_NETWORK_TOKEN', cardNetworkToken } });

    sandboxTest('takes the service’s members, needs no security code, and reads back the card’s digits without the token number or cryptogram', async ({ startInProcess }) => {
      const { client } = startInProcess(authOptions());
      const created = await authorizeToken(client, networkToken());
      expect(created.status).toBe(201);
      expect(created.body.actionRequired).toBe('NONE');
      const authorization = await read(client, created.body.cardAuthorizationId);
      expect(authorization.status).toBe('AUTHORIZED');
      expect(authorization.failureCode).toBe('');
      expect(authorization.paymentMethod).toEqual({
        paymentMethodType: 'CARD_NETWORK_TOKEN',
        card: null,
        cardNetworkToken: {
          first8: '53720742',
          last4: '3841',
          brand: 'MASTERCARD',
          countryAlpha2: 'TH',
          cardHolderName: 'Somchai Jaidee',
          expiryMonth: 12,
          expiryYear: FUTURE_EXPIRY_YEAR,
          initiatorType: 'CUSTOMER',
          iso8583ResponseCode: '00',
          merchantAdviceCode: null,
          networkTransactionId: expect.stringMatching(/^\d{15}$/),
        },
      });
      expect(JSON.stringify(authorization)).not.toContain(VISA);
      expect(JSON.stringify(authorization)).not.toContain(CRYPTOGRAM);
    });

    sandboxTest('takes an empty cryptogram, as the playground does, for a merchant-initiated payment', async ({ startInProcess }) => {
      const { client } = startInProcess(authOptions());
      const created = await authorizeToken(client, networkToken({ cryptogram: '', initiatorType: 'MERCHANT' }));
      expect(created.status).toBe(201);
      const authorization = await read(client, created.body.cardAuthorizationId);
      expect(authorization.status).toBe('AUTHORIZED');
      expect(authorization.paymentMethod?.cardNetworkToken).toMatchObject({ initiatorType: 'MERCHANT' });
    });

    sandboxTest('captures as a charge that shows the same network token', async ({ startInProcess }) => {
      const { client } = startInProcess(authOptions());
      const created = await authorizeToken(client, networkToken());
      const captured = await capture(client, created.body.cardAuthorizationId, { amount: 4_000 });
      const charge = ChargeSchema.parse(await client.getCharge(captured.body.chargeId));
      expect(charge.paymentMethod).toMatchObject({ paymentMethodType: 'CARD_NETWORK_TOKEN', card: null, cardNetworkToken: { first8: '53720742', last4: '3841', initiatorType: 'CUSTOMER' } });
    });

    sandboxTest('refuses the tokenNumber and eci shape, naming the members it lacks, and keeps no authorization', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(authOptions());
      const answer = await authorizeToken(client, { tokenNumber: VISA, expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cryptogram: CRYPTOGRAM, eci: '05' });
      expectRefusal(answer, 400, 'API_VALIDATION_ERROR', 'paymentMethod.cardNetworkToken.number is required');
      for (const member of ['cardHolderName', 'first8', 'last4', 'initiatorType']) expect(answer.body.message).toContain(`paymentMethod.cardNetworkToken.${member} is required`);
      expect(sandbox.authorizations.records.size).toBe(0);
    });

    sandboxTest.for<[string, Record<string, unknown>, string]>([
      ['an initiatorType that is neither CUSTOMER nor MERCHANT', { initiatorType: 'SHOPPER' }, 'paymentMethod.cardNetworkToken.initiatorType must be CUSTOMER or MERCHANT'],
      ['a first8 that is not eight digits', { first8: '5372' }, 'paymentMethod.cardNetworkToken.first8 must be 8 digits'],
      ['a token number that fails Luhn', { number: '4111111111111112' }, 'paymentMethod.cardNetworkToken.number is not a valid card number'],
      ['an expired token', { expiryYear: (new Date().getUTCFullYear() - 1) % 100 }, 'paymentMethod.cardNetworkToken card has expired'],
    ])('refuses %s', async ([, change, message], { startInProcess }) => {
      const { client } = startInProcess(authOptions());
      expectRefusal(await authorizeToken(client, networkToken(change)), 400, 'API_VALIDATION_ERROR', message);
    });
  });

  describe('with a card that fails', () => {
    sandboxTest('answers 201 and reads FAILED CH_INSUFFICIENT_FUNDS for 4943129900084541, with nothing capturable', async ({ startInProcess }) => {
      const { client } = startInProcess(authOptions());
      const created = await authorize(client, INSUFFICIENT_FUNDS_CARD);
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ cardAuthorizationId: expect.stringMatching(/^ca_/), actionRequired: 'NONE' });
      expect(await read(client, created.body.cardAuthorizationId)).toMatchObject({
        status: 'FAILED',
        failureCode: 'CH_INSUFFICIENT_FUNDS',
        capturableAmount: 0,
        authorizedAt: null,
        expiresAt: null,
        paymentMethod: { card: { iso8583ResponseCode: '51' } },
      });
    });

    sandboxTest('reads FAILED CH_PROCESSING_FAILED for any other valid number', async ({ startInProcess }) => {
      const { client } = startInProcess(authOptions());
      const created = await authorize(client, '4242424242424242');
      expect(await read(client, created.body.cardAuthorizationId)).toMatchObject({ status: 'FAILED', failureCode: 'CH_PROCESSING_FAILED' });
    });
  });

  describe('with a card that needs the shopper', () => {
    sandboxTest('redirects 4953261730509988 to the OTP page and reads PENDING, with nothing authorized yet', async ({ startInProcess }) => {
      const { client } = startInProcess(authOptions());
      const created = await authorize(client, OTP_CARD);
      const id = created.body.cardAuthorizationId;
      expect(created.body).toEqual({ cardAuthorizationId: id, actionRequired: 'REDIRECT', redirect: { redirectUrl: `${ORIGIN}/sandbox/pages/otp/${id}` } });
      expect(await read(client, id)).toMatchObject({ status: 'PENDING', capturableAmount: 0, authorizedAt: null, expiresAt: null, failureCode: '' });
    });

    sandboxTest('redirects 4389783280144506 to the force page', async ({ startInProcess }) => {
      const { client } = startInProcess(authOptions());
      const created = await authorize(client, FORCE_CARD);
      expect(created.body.redirect.redirectUrl).toBe(`${ORIGIN}/sandbox/pages/force/${created.body.cardAuthorizationId}`);
    });

    sandboxTest('skips 3-D Secure with skip3dsFlow when the merchant may, and only then', async ({ startInProcess }) => {
      let { client } = startInProcess(authOptions({ merchant: { canSkip3ds: true } }));
      const skipped = await authorize(client, OTP_CARD, { skip3dsFlow: true });
      expect(skipped.body.actionRequired).toBe('NONE');
      expect((await read(client, skipped.body.cardAuthorizationId)).status).toBe('AUTHORIZED');

      ({ client } = startInProcess(authOptions()));
      const notAllowed = await authorize(client, OTP_CARD, { skip3dsFlow: true });
      expect(notAllowed.body.actionRequired).toBe('REDIRECT');
    });
  });

  describe('card tokens', () => {
    sandboxTest('are single-use across charges and authorizations', async ({ startInProcess }) => {
      const { client } = startInProcess(authOptions());
      const cardTokenId = await client.tokenize(VISA);
      const body = { amount: 10_000, currency: 'THB', referenceId: 'o', paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } } };
      expect((await client.post(PATH, body)).status).toBe(201);
      expectRefusal(await client.post(PATH, body), 400, 'API_VALIDATION_ERROR', 'paymentMethod.cardToken.cardTokenId has already been used');
      expectRefusal(await client.post('/api/v1/charges', body), 400, 'API_VALIDATION_ERROR', 'has already been used');

      const charged = await client.tokenize(VISA);
      const chargeBody = { ...body, paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId: charged, securityCode: '123' } } };
      expect((await client.post('/api/v1/charges', chargeBody)).status).toBe(201);
      expectRefusal(await client.post(PATH, chargeBody), 400, 'API_VALIDATION_ERROR', 'has already been used');
    });

    sandboxTest('are not spent by a request that is refused', async ({ startInProcess }) => {
      const { client } = startInProcess(authOptions());
      const cardTokenId = await client.tokenize(VISA);
      const refused = await client.post(PATH, { amount: 10_000, currency: 'THB', referenceId: 'o', paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '12' } } });
      expect(refused.status).toBe(400);
      const accepted = await client.post(PATH, { amount: 10_000, currency: 'THB', referenceId: 'o', paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } } });
      expect(accepted.status).toBe(201);
    });

    sandboxTest('belong to the merchant that made them', async ({ startInProcess }) => {
      const { sandbox } = startInProcess(authOptions());
      sandbox.close();
      const { client } = startInProcess({
        merchants: [
          { merchantId: 'm1', apiKey: 'sk1', publishableKey: 'pk1' },
          { merchantId: 'm2', apiKey: 'sk2', publishableKey: 'pk2' },
        ],
      });
      const token = await client.post('/client/v1/card-tokens', { pan: VISA, expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'A' }, { auth: basic('m1', 'pk1') });
      const answer = await client.post(
        PATH,
        { amount: 10_000, currency: 'THB', referenceId: 'o', paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId: token.body.id, securityCode: '123' } } },
        { auth: basic('m2', 'sk2') },
      );
      expectRefusal(answer, 400, 'API_VALIDATION_ERROR', 'does not match a card token of this merchant');
    });
  });

  describe('fields kept from the request', () => {
    sandboxTest('keeps returnUrl, skip3dsFlow, customer with its billingAddress, initiatorType, networkTransactionId and payerAuthenticationDetails, and never the card data', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(authOptions({ merchant: { canSupplyPayerAuthentication: true } }));
      const customer = {
        email: 'somchai@example.com',
        billingAddress: { streetAddress: '1 Sukhumvit Rd', city: 'Bangkok', country: 'THA', postCode: '10110' },
      };
      const created = await authorize(client, VISA, {
        returnUrl: RETURN_URL,
        skip3dsFlow: false,
        customer,
        initiatorType: 'MERCHANT',
        networkTransactionId: '123456789012345',
        payerAuthenticationDetails: { eci: '05', cavv: 'AAABBBCCC' },
        supportsMulticapture: true,
      });
      expect(created.status).toBe(201);
      const id = created.body.cardAuthorizationId;
      const record = sandbox.authorizations.records.get(id)!;
      expect(record.request).toEqual({
        returnUrl: RETURN_URL,
        skip3dsFlow: false,
        customer,
        initiatorType: 'MERCHANT',
        networkTransactionId: '123456789012345',
        payerAuthenticationDetails: { eci: '05', cavv: 'AAABBBCCC' },
      });
      expect(JSON.stringify(record)).not.toContain(VISA);
      expect(JSON.stringify(record)).not.toContain('securityCode');
      expect((await read(client, id)).supportsMulticapture).toBe(true);

      // A capture carries the customer in the service's charge shape: what was not given is "",
      // and the billing address stays with the request.
      const captured = await capture(client, id, { amount: 1_000 });
      const charge = await client.getCharge(captured.body.chargeId);
      expect(charge.customer).toEqual({
        primaryPhone: { countryCode: '', number: '' },
        email: customer.email,
        deliveryAddress: { contactName: '', phone: { countryCode: '', number: '' }, address: { streetAddress: '', city: '', country: '', postCode: '' } },
      });
    });

    sandboxTest('refuses payerAuthenticationDetails from a merchant not approved to send them', async ({ startInProcess }) => {
      const { client } = startInProcess(authOptions());
      expectRefusal(await authorize(client, VISA, { payerAuthenticationDetails: { eci: '05' } }), 403, 'OPERATION_NOT_ALLOWED_ERROR', 'payerAuthenticationDetails');
    });
  });

  describe('bad input', () => {
    const card = { pan: VISA, expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'A', securityCode: '123' };
    const base = { amount: 10_000, currency: 'THB', referenceId: 'o', paymentMethod: { paymentMethodType: 'CARD', card } };
    const lastYear = (new Date().getUTCFullYear() - 1) % 100;
    const cases: [string, Record<string, unknown>, string][] = [
      ['no amount', { amount: undefined }, 'amount'],
      ['an amount below 1.00 THB', { amount: 99 }, 'amount must be at least 100'],
      ['a fractional amount', { amount: 100.5 }, 'amount must be a whole number of satang'],
      ['a currency other than THB', { currency: 'USD' }, 'currency must be THB'],
      ['no referenceId', { referenceId: undefined }, 'referenceId'],
      ['a QR PromptPay method', { paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY' } }, 'payment method is not supported for card authorizations'],
      ['an installments method', { paymentMethod: { paymentMethodType: 'CARD_INSTALLMENTS', cardInstallments: { ...card, installmentPeriod: 3 } } }, 'not supported for card authorizations'],
      ['no payment method', { paymentMethod: undefined }, 'paymentMethod'],
      ['a number that fails Luhn', { paymentMethod: { paymentMethodType: 'CARD', card: { ...card, pan: '4111111111111112' } } }, 'paymentMethod.card.pan is not a valid card number'],
      ['an expired card', { paymentMethod: { paymentMethodType: 'CARD', card: { ...card, expiryYear: lastYear } } }, 'card has expired'],
      ['no security code', { paymentMethod: { paymentMethodType: 'CARD', card: { ...card, securityCode: undefined } } }, 'paymentMethod.card.securityCode is required'],
      ['a 3-digit code on Amex', { paymentMethod: { paymentMethodType: 'CARD', card: { ...card, pan: '378282246310005' } } }, 'securityCode must be 4 digits'],
      ['an unknown card token', { paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId: 'ctk_nope', securityCode: '123' } } }, 'does not match a card token'],
      ['a non-boolean supportsMulticapture', { supportsMulticapture: 'yes' }, 'supportsMulticapture must be true or false'],
      ['a non-boolean skip3dsFlow', { skip3dsFlow: 1 }, 'skip3dsFlow must be true or false'],
      ['an unknown initiatorType', { initiatorType: 'ROBOT' }, 'initiatorType must be CUSTOMER or MERCHANT'],
      ['a javascript: returnUrl', { returnUrl: 'javascript:alert(1)' }, 'returnUrl must be an absolute http or https URL'],
      ['a billing country that is not three letters', { customer: { billingAddress: { country: 'TH' } } }, 'customer.billingAddress.country must be a three-letter country code'],
      ['an overlong networkTransactionId', { networkTransactionId: 'x'.repeat(65) }, 'networkTransactionId must be at most 64 characters'],
    ];
    for (const [what, fields, message] of cases) {
      sandboxTest(`answers 400 API_VALIDATION_ERROR naming the field for ${what}`, async ({ startInProcess }) => {
        const { sandbox, client } = startInProcess(authOptions());
        const answer = await client.post(PATH, { ...base, ...fields });
        expectRefusal(answer, 400, 'API_VALIDATION_ERROR', message);
        expect(sandbox.authorizations.records.size).toBe(0);
      });
    }

    sandboxTest('answers 400 INVALID_JSON_ERROR for a body that is not JSON, and for an array', async ({ startInProcess }) => {
      const { client } = startInProcess(authOptions());
      expectRefusal(await client.request('POST', PATH, { raw: '{"amount":', headers: { 'content-type': 'application/json' } }), 400, 'INVALID_JSON_ERROR', /./);
      expect((await client.post(PATH, [base])).status).toBe(400);
    });

    sandboxTest('answers 401 without credentials or with the publishable key, 405 for a method the path has not', async ({ startInProcess }) => {
      const { client } = startInProcess(authOptions());
      expectRefusal(await client.post(PATH, base, { auth: null }), 401, 'INVALID_CREDENTIALS_ERROR', /./);
      expectRefusal(await client.post(PATH, base, { auth: basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.publishableKey) }), 401, 'INVALID_CREDENTIALS_ERROR', 'publishable key');
      expect((await client.request('PATCH', PATH, { body: base })).status).toBe(405);
    });
  });

  describe('with an idempotency key', () => {
    sandboxTest('authorizes once: a retry answers as the first call did, another body with the key is 412', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(authOptions());
      const cardTokenId = await client.tokenize(VISA);
      const body = { amount: 10_000, currency: 'THB', referenceId: 'o', paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } } };
      const headers = { [IDEMPOTENCY_HEADER]: 'auth-key-1' };
      const first = await client.post(PATH, body, { headers });
      const again = await client.post(PATH, body, { headers });
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get(REPLAYED_HEADER)).toBe('true');
      expect(sandbox.authorizations.records.size).toBe(1);
      expectRefusal(await client.post(PATH, { ...body, amount: 20_000 }, { headers }), 412, 'IDEMPOTENCY_KEY_ERROR', /./);
    });
  });

  sandboxTest('works with a partner key acting for the merchant', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions({ merchant: { partnerId: SANDBOX_DEFAULTS.partnerId } }));
    const auth = basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.partnerApiKey);
    const partnerHeaders = { [SERVICE_HEADERS.partnerId]: SANDBOX_DEFAULTS.partnerId };
    const cardTokenId = await client.tokenize(VISA);
    const created = await client.post(
      PATH,
      { amount: 10_000, currency: 'THB', referenceId: 'partner-order', paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } } },
      { auth, headers: partnerHeaders },
    );
    expect(created.status).toBe(201);
    const id = created.body.cardAuthorizationId;
    expect((await client.get(`${PATH}/${id}`, { auth, headers: partnerHeaders })).body).toMatchObject({ status: 'AUTHORIZED', merchantId: SANDBOX_DEFAULTS.merchantId });
    expect((await client.post(`${PATH}/${id}/charges`, { amount: 10_000, currency: 'THB', referenceId: 'p' }, { auth, headers: partnerHeaders })).status).toBe(201);
    expect((await client.get(`${PATH}/${id}`, { auth })).status).toBe(401);
  });
});

describe('GET /api/v1/card-authorizations', () => {
  sandboxTest('lists newest first in {data, totalCount}, paged by limit and offset', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions());
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await authorized(client, { referenceId: `order-${i}` }));
    const all = await client.get(PATH);
    expect(all.status).toBe(200);
    expect(CardAuthorizationListSchema.safeParse(all.body).success).toBe(true);
    expect(all.body.totalCount).toBe(5);
    expect(all.body.data.map((a: { cardAuthorizationId: string }) => a.cardAuthorizationId)).toEqual([...ids].reverse());
    expect(all.body.data[0]).toEqual(await read(client, ids[4]!));

    const page = await client.get(`${PATH}?limit=2&offset=1`);
    expect(page.body.totalCount).toBe(5);
    expect(page.body.data.map((a: { cardAuthorizationId: string }) => a.cardAuthorizationId)).toEqual([ids[3], ids[2]]);
  });

  sandboxTest('shows only the merchant’s own authorizations', async ({ startInProcess }) => {
    const { sandbox } = startInProcess(authOptions());
    sandbox.close();
    const { client } = startInProcess({
      merchants: [defaultSandboxMerchant(), { merchantId: 'm2', apiKey: 'sk2', publishableKey: 'pk2' }],
    });
    const id = await authorized(client);
    expect((await client.get(PATH, { auth: basic('m2', 'sk2') })).body).toEqual({ data: [], totalCount: 0 });
    expectRefusal(await client.get(`${PATH}/${id}`, { auth: basic('m2', 'sk2') }), 404, 'NOT_FOUND_ERROR', id);
  });

  sandboxTest('refuses a limit or offset out of range', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions());
    expectRefusal(await client.get(`${PATH}?limit=0`), 400, 'API_VALIDATION_ERROR', 'limit must be a whole number from 1 to 100');
    expectRefusal(await client.get(`${PATH}?limit=101`), 400, 'API_VALIDATION_ERROR', 'limit');
    expectRefusal(await client.get(`${PATH}?offset=-1`), 400, 'API_VALIDATION_ERROR', 'offset');
  });
});

describe('GET /api/v1/card-authorizations/{id}', () => {
  sandboxTest('answers 404 NOT_FOUND_ERROR for an unknown id', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions());
    expectRefusal(await client.get(`${PATH}/ca_unknown`), 404, 'NOT_FOUND_ERROR', 'no card authorization with id ca_unknown');
  });
});

describe('the OTP page for an authorization', () => {
  sandboxTest('shows the authorization, and 123456 makes it AUTHORIZED and returns to the merchant', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(authOptions());
    const created = await authorize(client, OTP_CARD, { returnUrl: RETURN_URL });
    const url: string = created.body.redirect.redirectUrl;
    const page = await sandbox.fetch(new Request(url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('name="otp"');
    expect(html).toContain('Authorization');
    expect(html).toContain(created.body.cardAuthorizationId);
    expect(html).toContain('100.00');

    now += 60_000;
    const submitted = await client.submitPage(url, { otp: '123456' });
    expect(submitted.status).toBe(303);
    expect(submitted.location).toBe(RETURN_URL);
    const authorization = await read(client, created.body.cardAuthorizationId);
    expect(authorization).toMatchObject({ status: 'AUTHORIZED', capturableAmount: 10_000, authorizedAt: new Date(now).toISOString() });
    expect(authorization.expiresAt).toBe(new Date(now + SANDBOX_CARD_AUTHORIZATION_TTL_MS).toISOString());
    expect((await received(client)).map((h) => h.event)).toEqual(['card_authorization.authorized']);
  });

  sandboxTest('fails it with CH_AUTHENTICATION_FAILED on any other code, showing the outcome when there is no returnUrl', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions());
    const created = await authorize(client, OTP_CARD);
    const submitted = await client.submitPage(created.body.redirect.redirectUrl, { otp: '000000' });
    expect(submitted.status).toBe(200);
    expect(submitted.html).toContain('CH_AUTHENTICATION_FAILED');
    expect(await read(client, created.body.cardAuthorizationId)).toMatchObject({ status: 'FAILED', failureCode: 'CH_AUTHENTICATION_FAILED', capturableAmount: 0 });
    expect((await received(client)).map((h) => h.event)).toEqual(['card_authorization.failed']);
  });

  sandboxTest('asks again on an empty code, and says it is complete once done without completing it twice', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions());
    const created = await authorize(client, OTP_CARD);
    const url: string = created.body.redirect.redirectUrl;
    expect((await client.submitPage(url, { otp: ' ' })).status).toBe(400);
    expect((await read(client, created.body.cardAuthorizationId)).status).toBe('PENDING');
    await client.submitPage(url, { otp: '123456' });
    const again = await client.submitPage(url, { otp: '000000' });
    expect(again.html).toContain('already complete');
    expect((await read(client, created.body.cardAuthorizationId)).status).toBe('AUTHORIZED');
    expect((await received(client)).map((h) => h.event)).toEqual(['card_authorization.authorized']);
  });

  sandboxTest('is not offered for an authorization that needs no OTP', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(authOptions());
    const force = await authorize(client, FORCE_CARD);
    expect((await sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/otp/${force.body.cardAuthorizationId}`))).status).toBe(404);
    const id = await authorized(client);
    expect((await sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/otp/${id}`))).status).toBe(404);
  });
});

describe('the force page for an authorization', () => {
  sandboxTest('authorizes or fails it as the payer chooses', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions());
    const a = await authorize(client, FORCE_CARD, { returnUrl: RETURN_URL });
    const succeeded = await client.submitPage(a.body.redirect.redirectUrl, { outcome: 'succeed' });
    expect(succeeded.location).toBe(RETURN_URL);
    expect((await read(client, a.body.cardAuthorizationId)).status).toBe('AUTHORIZED');

    const b = await authorize(client, FORCE_CARD);
    await client.submitPage(b.body.redirect.redirectUrl, { outcome: 'fail' });
    expect(await read(client, b.body.cardAuthorizationId)).toMatchObject({ status: 'FAILED', failureCode: 'CH_PROCESSING_FAILED' });

    const c = await authorize(client, FORCE_CARD);
    expect((await client.submitPage(c.body.redirect.redirectUrl, { outcome: 'maybe' })).status).toBe(400);
    expect((await read(client, c.body.cardAuthorizationId)).status).toBe('PENDING');
  });
});

describe('POST /api/v1/card-authorizations/{id}/cancel', () => {
  sandboxTest('cancels an AUTHORIZED one: 200 with the authorization CANCELED and nothing capturable', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions());
    const id = await authorized(client);
    now += 1_000;
    const answer = await cancel(client, id);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ cardAuthorizationId: id, status: 'CANCELED', capturableAmount: 0, capturedAmount: 0, updatedAt: new Date(now).toISOString() });
    expect(await read(client, id)).toEqual(answer.body);
  });

  sandboxTest('accepts a JSON body too, which it ignores', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions());
    const id = await authorized(client);
    expect((await client.post(`${PATH}/${id}/cancel`, {})).body.status).toBe('CANCELED');
  });

  sandboxTest('answers 422 CARD_AUTHORIZATION_PENDING while the shopper has not finished', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions());
    const created = await authorize(client, OTP_CARD);
    expectRefusal(await cancel(client, created.body.cardAuthorizationId), 422, 'CARD_AUTHORIZATION_PENDING', 'still PENDING');
    expect((await read(client, created.body.cardAuthorizationId)).status).toBe('PENDING');
  });

  sandboxTest('answers 422 saying why for a FAILED, CANCELED or CAPTURED one', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions());
    const failed = (await authorize(client, INSUFFICIENT_FUNDS_CARD)).body.cardAuthorizationId;
    expectRefusal(await cancel(client, failed), 422, 'CARD_AUTHORIZATION_STATUS_INVALID_ERROR', `card authorization ${failed} FAILED (CH_INSUFFICIENT_FUNDS)`);

    const canceled = await authorized(client);
    await cancel(client, canceled);
    expectRefusal(await cancel(client, canceled), 422, 'CARD_AUTHORIZATION_STATUS_INVALID_ERROR', 'is CANCELED');

    const captured = await authorized(client);
    await capture(client, captured, { amount: 10_000 });
    expectRefusal(await cancel(client, captured), 422, 'CARD_AUTHORIZATION_STATUS_INVALID_ERROR', 'refund its charges instead');
  });

  sandboxTest('releases what is left after partial captures, keeping what was captured', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions());
    const id = await authorized(client, { supportsMulticapture: true });
    await capture(client, id, { amount: 4_000 });
    const answer = await cancel(client, id);
    expect(answer.body).toMatchObject({ status: 'CANCELED', capturedAmount: 4_000, capturableAmount: 0 });
    expectRefusal(await capture(client, id, { amount: 1_000 }), 422, 'CARD_AUTHORIZATION_STATUS_INVALID_ERROR', 'is CANCELED');
  });

  sandboxTest('answers 404 for an unknown id, and replays with an idempotency key instead of refusing the retry', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions());
    expectRefusal(await cancel(client, 'ca_unknown'), 404, 'NOT_FOUND_ERROR', 'ca_unknown');
    const id = await authorized(client);
    const first = await cancel(client, id, { [IDEMPOTENCY_HEADER]: 'cancel-1' });
    const retry = await cancel(client, id, { [IDEMPOTENCY_HEADER]: 'cancel-1' });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get(REPLAYED_HEADER)).toBe('true');
    expect((await received(client)).filter((h) => h.event === 'card_authorization.canceled')).toHaveLength(1);
  });
});

describe('POST /api/v1/card-authorizations/{id}/charges (capture)', () => {
  sandboxTest('captures the whole amount as a SUCCEEDED charge with its PAYMENT transaction, and the authorization reads CAPTURED', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions());
    const id = await authorized(client);
    now += 60_000;
    const answer = await capture(client, id, { amount: 10_000, referenceId: 'capture-full', isFinal: true });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ chargeId: expect.stringMatching(/^ch_[A-Za-z0-9]{24}$/) });
    const chargeId: string = answer.body.chargeId;

    const charge = await client.getCharge(chargeId);
    expect(ChargeSchema.safeParse(charge).success).toBe(true);
    expect(charge).toMatchObject({
      chargeId,
      status: 'SUCCEEDED',
      amount: 10_000,
      currency: 'THB',
      referenceId: 'capture-full',
      source: 'API',
      sourceId: id,
      transactionTime: new Date(now).toISOString(),
      failureCode: '',
      paymentMethod: { paymentMethodType: 'CARD', card: { last4: '1111', brand: 'VISA', iso8583ResponseCode: '00' } },
    });
    const transaction = (await client.get(`/api/v1/transactions/${chargeId}`)).body;
    expect(transaction).toMatchObject({ transactionType: 'PAYMENT', chargeSource: 'API', sourceId: id, grossAmount: 10_000, referenceId: 'capture-full' });

    expect(await read(client, id)).toMatchObject({ status: 'CAPTURED', capturedAmount: 10_000, capturableAmount: 0, latestChargeId: chargeId, updatedAt: new Date(now).toISOString() });
    const bySource = await client.get(`/api/v1/charges?sourceId=${id}`);
    expect(bySource.body.data.map((c: { chargeId: string }) => c.chargeId)).toEqual([chargeId]);
  });

  sandboxTest('ends the authorization with one partial capture when it does not support multicapture; a second capture is 422', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions());
    const id = await authorized(client);
    expect((await capture(client, id, { amount: 3_000 })).status).toBe(201);
    expect(await read(client, id)).toMatchObject({ status: 'CAPTURED', capturedAmount: 3_000, capturableAmount: 0 });
    expectRefusal(await capture(client, id, { amount: 1_000 }), 422, 'CARD_AUTHORIZATION_STATUS_INVALID_ERROR', 'without supportsMulticapture');
  });

  sandboxTest('takes several captures with supportsMulticapture, until one is final or nothing is left', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions());
    const id = await authorized(client, { supportsMulticapture: true });
    const first = (await capture(client, id, { amount: 3_000, referenceId: 'c1' })).body.chargeId;
    const second = (await capture(client, id, { amount: 2_000, referenceId: 'c2', isFinal: false })).body.chargeId;
    expect(await read(client, id)).toMatchObject({ status: 'AUTHORIZED', capturedAmount: 5_000, capturableAmount: 5_000, latestChargeId: second });
    const third = (await capture(client, id, { amount: 5_000, referenceId: 'c3' })).body.chargeId;
    expect(await read(client, id)).toMatchObject({ status: 'CAPTURED', capturedAmount: 10_000, capturableAmount: 0, latestChargeId: third });
    expectRefusal(await capture(client, id, { amount: 100 }), 422, 'CARD_AUTHORIZATION_STATUS_INVALID_ERROR', 'its final capture was made');

    const captures = await client.get(`${PATH}/${id}/charges`);
    expect(captures.status).toBe(200);
    expect(ChargeListSchema.safeParse(captures.body).success).toBe(true);
    expect(captures.body.totalCount).toBe(3);
    expect(captures.body.data.map((c: { chargeId: string }) => c.chargeId)).toEqual([third, second, first]);
    expect(captures.body.data.map((c: { amount: number }) => c.amount)).toEqual([5_000, 2_000, 3_000]);
    const paged = await client.get(`${PATH}/${id}/charges?limit=1&offset=1`);
    expect(paged.body).toMatchObject({ totalCount: 3, data: [{ chargeId: second }] });
  });

  sandboxTest('ends further captures with isFinal, releasing the rest', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions());
    const id = await authorized(client, { supportsMulticapture: true });
    await capture(client, id, { amount: 3_000, isFinal: true });
    expect(await read(client, id)).toMatchObject({ status: 'CAPTURED', capturedAmount: 3_000, capturableAmount: 0 });
    expect((await capture(client, id, { amount: 1_000 })).status).toBe(422);
  });

  sandboxTest('refuses more than is capturable with 400 naming amount, and changes nothing', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions());
    const id = await authorized(client, { supportsMulticapture: true });
    expectRefusal(await capture(client, id, { amount: 10_001 }), 400, 'API_VALIDATION_ERROR', 'amount must be at most 10000, the amount still capturable');
    await capture(client, id, { amount: 6_000 });
    expectRefusal(await capture(client, id, { amount: 4_001 }), 400, 'API_VALIDATION_ERROR', 'amount must be at most 4000');
    expect(await read(client, id)).toMatchObject({ status: 'AUTHORIZED', capturedAmount: 6_000, capturableAmount: 4_000 });
    expect((await client.get(`${PATH}/${id}/charges`)).body.totalCount).toBe(1);
  });

  sandboxTest('answers 422 CARD_AUTHORIZATION_PENDING while PENDING, and 422 for FAILED and CANCELED ones', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(authOptions());
    const pending = (await authorize(client, OTP_CARD)).body.cardAuthorizationId;
    expectRefusal(await capture(client, pending, { amount: 1_000 }), 422, 'CARD_AUTHORIZATION_PENDING', 'still PENDING');
    const failed = (await authorize(client, INSUFFICIENT_FUNDS_CARD)).body.cardAuthorizationId;
    expectRefusal(await capture(client, failed, { amount: 1_000 }), 422, 'CARD_AUTHORIZATION_STATUS_INVALID_ERROR', 'only an AUTHORIZED one can be captured');
    const canceled = await authorized(client);
    await cancel(client, canceled);
    expectRefusal(await capture(client, canceled, { amount: 1_000 }), 422, 'CARD_AUTHORIZATION_STATUS_INVALID_ERROR', 'is CANCELED');
    expect(sandbox.store.charges.size).toBe(0);
  });

  sandboxTest('reads EXPIRED from expiresAt on, from the sandbox clock, and then cannot be captured or canceled', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions());
    const id = await authorized(client, { supportsMulticapture: true });
    const { expiresAt } = await read(client, id);
    now += SANDBOX_CARD_AUTHORIZATION_TTL_MS - 1;
    expect((await capture(client, id, { amount: 1_000 })).status).toBe(201);
    now += 1;
    expect(await read(client, id)).toMatchObject({ status: 'EXPIRED', capturedAmount: 1_000, capturableAmount: 0, updatedAt: expiresAt });
    expect((await client.get(PATH)).body.data[0]).toMatchObject({ cardAuthorizationId: id, status: 'EXPIRED' });
    expectRefusal(await capture(client, id, { amount: 1_000 }), 422, 'CARD_AUTHORIZATION_STATUS_INVALID_ERROR', `EXPIRED at ${expiresAt}`);
    expectRefusal(await cancel(client, id), 422, 'CARD_AUTHORIZATION_STATUS_INVALID_ERROR', 'EXPIRED');
  });

  sandboxTest('captures once with an idempotency key, however often it is retried', async ({ startInProcess }) => {
    const { client } = startInProcess(authOptions());
    const id = await authorized(client, { supportsMulticapture: true });
    const headers = { [IDEMPOTENCY_HEADER]: 'capture-key' };
    const first = await capture(client, id, { amount: 2_000 }, headers);
    const retry = await capture(client, id, { amount: 2_000 }, headers);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get(REPLAYED_HEADER)).toBe('true');
    expect(await read(client, id)).toMatchObject({ capturedAmount: 2_000, capturableAmount: 8_000 });
    expectRefusal(await capture(client, id, { amount: 3_000 }, headers), 412, 'IDEMPOTENCY_KEY_ERROR', /./);
  });

  describe('bad input', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['no amount', { amount: undefined }, 'amount'],
      ['a zero amount', { amount: 0 }, 'amount must be at least 100'],
      ['a string amount', { amount: '1000' }, 'amount must be a whole number of satang'],
      ['a currency other than THB', { amount: 1_000, currency: 'USD' }, 'currency must be THB'],
      ['no referenceId', { amount: 1_000, referenceId: undefined }, 'referenceId'],
      ['a non-boolean isFinal', { amount: 1_000, isFinal: 'yes' }, 'isFinal must be true or false'],
    ];
    for (const [what, fields, message] of cases) {
      sandboxTest(`answers 400 naming the field for ${what}`, async ({ startInProcess }) => {
        const { client } = startInProcess(authOptions());
        const id = await authorized(client);
        expectRefusal(await capture(client, id, fields), 400, 'API_VALIDATION_ERROR', message);
        expect((await read(client, id)).capturedAmount).toBe(0);
      });
    }

    sandboxTest('answers 400 for a body that is not JSON and 404 for an unknown authorization', async ({ startInProcess }) => {
      const { client } = startInProcess(authOptions());
      const id = await authorized(client);
      expectRefusal(await client.request('POST', `${PATH}/${id}/charges`, { raw: 'amount=1', headers: { 'content-type': 'application/json' } }), 400, 'INVALID_JSON_ERROR', /./);
      expectRefusal(await capture(client, 'ca_unknown', { amount: 1_000 }), 404, 'NOT_FOUND_ERROR', 'ca_unknown');
      expectRefusal(await client.get(`${PATH}/ca_unknown/charges`), 404, 'NOT_FOUND_ERROR', 'ca_unknown');
    });
  });

  describe('refunds of a capture', () => {
    sandboxTest('refunds part of a capture like a CARD charge, recording the REFUND transaction', async ({ startInProcess }) => {
      const { client } = startInProcess(authOptions());
      const id = await authorized(client);
      const chargeId = (await capture(client, id, { amount: 10_000 })).body.chargeId;
      const refund = await client.post('/api/v1/refunds', { chargeId, amount: 4_000, reason: 'one item returned' });
      expect(refund.status).toBe(201);
      await expect.poll(async () => (await client.get(`/api/v1/refunds/${refund.body.refundId}`)).body.status).toBe('SUCCEEDED');
      expect((await client.get(`/api/v1/transactions/${refund.body.refundId}`)).body).toMatchObject({ transactionType: 'REFUND', grossAmount: 4_000, sourceId: id });
    });

    sandboxTest('keeps the test card’s refund behaviour: 4000007640000003 refuses refunds', async ({ startInProcess }) => {
      const { client } = startInProcess(authOptions());
      const cardTokenId = await client.tokenize('4000007640000003');
      const created = await client.post(PATH, { amount: 10_000, currency: 'THB', referenceId: 'o', paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } } });
      const chargeId = (await capture(client, created.body.cardAuthorizationId, { amount: 10_000 })).body.chargeId;
      expectRefusal(await client.post('/api/v1/refunds', { chargeId }), 403, 'OPERATION_NOT_ALLOWED_ERROR', 'refunds are not allowed for this card');
    });

    sandboxTest('refunds a capture of an authorization that passed the OTP page', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(authOptions());
      const created = await authorize(client, OTP_CARD);
      await client.submitPage(created.body.redirect.redirectUrl, { otp: '123456' });
      const chargeId = (await capture(client, created.body.cardAuthorizationId, { amount: 10_000 })).body.chargeId;
      // The capture is no OTP charge: the step was taken at authorization.
      expect((await sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/otp/${chargeId}`))).status).toBe(404);
      expect((await client.post('/api/v1/refunds', { chargeId })).status).toBe(201);
    });
  });
});

describe('webhooks of card authorizations', () => {
  sandboxTest('sends card_authorization.authorized, .failed and .canceled, signed, each body the authorization as GET returned it then', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(authOptions());
    const authorizedId = await authorized(client);
    const atAuthorization = await read(client, authorizedId);
    const failedId = (await authorize(client, INSUFFICIENT_FUNDS_CARD)).body.cardAuthorizationId;
    now += 1_000;
    const canceled = (await cancel(client, authorizedId)).body;

    const hooksSeen = await received(client);
    expect(hooksSeen.map((h) => h.event)).toEqual(['card_authorization.authorized', 'card_authorization.failed', 'card_authorization.canceled']);
    expect(hooksSeen[0]!.body).toEqual(atAuthorization);
    expect(hooksSeen[1]!.body).toEqual(await read(client, failedId));
    expect(hooksSeen[2]!.body).toEqual(canceled);
    for (const hook of hooks) {
      expect(await verifyWebhookSignature(hook.raw, hook.signature, SANDBOX_DEFAULTS.webhookKeyBase64)).toBe(true);
      expect(parseWebhookEvent(hook.event, JSON.parse(hook.raw)).ok).toBe(true);
    }
    expect(sandbox.webhooks.list().map((d) => d.event)).toEqual(['card_authorization.canceled', 'card_authorization.failed', 'card_authorization.authorized']);
  });

  sandboxTest('sends charge.succeeded and transaction.created for each capture, after the authorization counts it', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(authOptions());
    const id = await authorized(client, { supportsMulticapture: true });
    const chargeId = (await capture(client, id, { amount: 2_500 })).body.chargeId;
    // Sent together, they may arrive in either order, as the service's do: each is checked by its event.
    const hooksSeen = (await received(client)).filter((h) => h.event !== 'card_authorization.authorized');
    expect(hooksSeen.map((h) => h.event).sort()).toEqual(['charge.succeeded', 'transaction.created']);
    expect(hooksSeen.find((h) => h.event === 'charge.succeeded')!.body).toEqual(await client.getCharge(chargeId));
    expect(hooksSeen.find((h) => h.event === 'transaction.created')!.body).toEqual((await client.get(`/api/v1/transactions/${chargeId}`)).body);
    expect(sandbox.authorizations.records.get(id)!.authorization.latestChargeId).toBe(chargeId);
  });
});
