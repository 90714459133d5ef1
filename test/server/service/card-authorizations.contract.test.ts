import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SERVICE_HEADERS } from '../../../src/core/constants.js';
import type { CreateCardAuthorizationRequest } from '../../../src/core/schemas/card-authorization.js';
import { Sandbox, SANDBOX_DEFAULTS } from '../../../src/sandbox/index.js';
import { NotFoundError, StateConflictError, ValidationError } from '../../../src/server/errors.js';
import { ServiceClient, type ServiceClientOptions } from '../../../src/server/service/service-client.js';
import { FUTURE_EXPIRY_YEAR } from '../../support/sandbox-client.js';
import { rejection } from '../../support/rejection.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** One request as the sandbox received it. */
interface Seen {
  method: string;
  path: string;
  headers: Headers;
  body: string;
}

let sandbox: Sandbox;
let seen: Seen[];
beforeEach(() => {
  sandbox = new Sandbox({ refundSettleDelayMs: 0 });
  seen = [];
});
afterEach(() => sandbox.close());

/** A client that talks to the sandbox through its fetch, noting what went over the wire. */
function serviceClient(overrides: Partial<ServiceClientOptions> = {}): ServiceClient {
  return new ServiceClient({
    baseUrl: 'http://127.0.0.1:4010',
    merchantId: SANDBOX_DEFAULTS.merchantId,
    apiKey: SANDBOX_DEFAULTS.apiKey,
    publishableKey: SANDBOX_DEFAULTS.publishableKey,
    retryBaseDelayMs: 1,
    fetch: async (request) => {
      const body = request.method === 'GET' ? '' : await request.clone().text();
      seen.push({ method: request.method, path: new URL(request.url).pathname, headers: request.headers, body });
      return sandbox.fetch(request);
    },
    ...overrides,
  });
}


/** A 100.00 THB authorization request on a fresh card token of `pan`. */
async function authorizationOf(client: ServiceClient, pan = '4111111111111111', overrides: Partial<CreateCardAuthorizationRequest> = {}): Promise<CreateCardAuthorizationRequest> {
  const { id } = await client.cardTokens.create({ pan, expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee' });
  return {
    amount: 10_000,
    currency: 'THB',
    referenceId: 'order-1',
    paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId: id, securityCode: '123' } },
    ...overrides,
  };
}

describe('ServiceClient.cardAuthorizations against the sandbox', () => {
  describe('create and get', () => {
    it('authorizes a card and reads it back AUTHORIZED, sending an idempotency key with the POST', async () => {
      const client = serviceClient();
      const created = await client.cardAuthorizations.create(await authorizationOf(client));
      expect(created).toEqual({ cardAuthorizationId: expect.stringMatching(/^ca_/), actionRequired: 'NONE' });
      const post = seen.find((r) => r.path === '/api/v1/card-authorizations')!;
      expect(post.method).toBe('POST');
      expect(post.headers.get(SERVICE_HEADERS.idempotencyKey)).toMatch(UUID_V4);

      const authorization = await client.cardAuthorizations.get(created.cardAuthorizationId);
      expect(authorization).toMatchObject({
        cardAuthorizationId: created.cardAuthorizationId,
        status: 'AUTHORIZED',
        amount: 10_000,
        capturedAmount: 0,
        capturableAmount: 10_000,
        supportsMulticapture: false,
        paymentMethod: { paymentMethodType: 'CARD', card: { last4: '1111', brand: 'VISA' } },
      });
      expect(Date.parse(authorization.expiresAt!) - Date.parse(authorization.authorizedAt!)).toBe(7 * 24 * 60 * 60 * 1000);
    });

    it('gets a REDIRECT for a 3-D Secure card, which the OTP page completes', async () => {
      const client = serviceClient();
      const created = await client.cardAuthorizations.create(await authorizationOf(client, '4953261730509988', { returnUrl: 'https://shop.example/return' }));
      expect(created.actionRequired).toBe('REDIRECT');
      const redirectUrl = created.redirect!.redirectUrl;
      expect((await client.cardAuthorizations.get(created.cardAuthorizationId)).status).toBe('PENDING');

      const page = await sandbox.fetch(
        new Request(redirectUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'otp=123456', redirect: 'manual' }),
      );
      expect(page.status).toBe(303);
      expect(page.headers.get('location')).toBe('https://shop.example/return');
      expect((await client.cardAuthorizations.get(created.cardAuthorizationId)).status).toBe('AUTHORIZED');
    });

    it('turns bad input into a ValidationError naming the field, and an unknown id into NotFoundError', async () => {
      const client = serviceClient();
      const request = await authorizationOf(client);
      const error = await rejection(client.cardAuthorizations.create({ ...request, paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId: 'ctk_nope', securityCode: '123' } } }));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ status: 400, field: 'paymentMethod.cardToken.cardTokenId' });
      expect(await rejection(client.cardAuthorizations.get('ca_unknown'))).toBeInstanceOf(NotFoundError);
    });
  });

  describe('list and iterate', () => {
    it('lists a page newest first, and iterates over every authorization once across pages', async () => {
      const client = serviceClient();
      const ids: string[] = [];
      for (let i = 0; i < 7; i += 1) {
        ids.push((await client.cardAuthorizations.create(await authorizationOf(client, '4111111111111111', { referenceId: `order-${i}` }))).cardAuthorizationId);
      }
      const page = await client.cardAuthorizations.list({ limit: 3, offset: 2 });
      expect(page.totalCount).toBe(7);
      expect(page.data.map((a) => a.cardAuthorizationId)).toEqual([ids[4], ids[3], ids[2]]);

      seen = [];
      const iterated: string[] = [];
      for await (const authorization of client.cardAuthorizations.iterate({ limit: 3 })) iterated.push(authorization.cardAuthorizationId);
      expect(iterated).toEqual([...ids].reverse());
      expect(seen.map((r) => r.path)).toEqual(Array(3).fill('/api/v1/card-authorizations'));
    });
  });

  describe('capture and listCaptures', () => {
    it('captures in parts with supportsMulticapture and lists the captures newest first', async () => {
      const client = serviceClient();
      const { cardAuthorizationId } = await client.cardAuthorizations.create(await authorizationOf(client, '4111111111111111', { supportsMulticapture: true }));
      const first = await client.cardAuthorizations.capture(cardAuthorizationId, { amount: 4_000, currency: 'THB', referenceId: 'shipment-1' });
      const second = await client.cardAuthorizations.capture(cardAuthorizationId, { amount: 1_000, currency: 'THB', referenceId: 'shipment-2', isFinal: true });
      expect(first.chargeId).toMatch(/^ch_/);

      expect(await client.cardAuthorizations.get(cardAuthorizationId)).toMatchObject({ status: 'CAPTURED', capturedAmount: 5_000, capturableAmount: 0, latestChargeId: second.chargeId });
      const captures = await client.cardAuthorizations.listCaptures(cardAuthorizationId);
      expect(captures.totalCount).toBe(2);
      expect(captures.data.map((c) => [c.chargeId, c.amount, c.status, c.sourceId])).toEqual([
        [second.chargeId, 1_000, 'SUCCEEDED', cardAuthorizationId],
        [first.chargeId, 4_000, 'SUCCEEDED', cardAuthorizationId],
      ]);
      expect((await client.cardAuthorizations.listCaptures(cardAuthorizationId, { limit: 1, offset: 1 })).data[0]?.chargeId).toBe(first.chargeId);
      // A capture is a charge like any other: readable, and refundable.
      expect((await client.charges.get(first.chargeId)).status).toBe('SUCCEEDED');
      expect((await client.refunds.create({ chargeId: first.chargeId, amount: 1_000 })).refundId).toMatch(/^re_/);
    });

    it('captures once for one idempotency key, even when called again', async () => {
      const client = serviceClient();
      const { cardAuthorizationId } = await client.cardAuthorizations.create(await authorizationOf(client, '4111111111111111', { supportsMulticapture: true }));
      const body = { amount: 2_000, currency: 'THB' as const, referenceId: 'shipment-1' };
      const a = await client.cardAuthorizations.capture(cardAuthorizationId, body, { idempotencyKey: 'capture-order-1' });
      const b = await client.cardAuthorizations.capture(cardAuthorizationId, body, { idempotencyKey: 'capture-order-1' });
      expect(b.chargeId).toBe(a.chargeId);
      expect((await client.cardAuthorizations.get(cardAuthorizationId)).capturedAmount).toBe(2_000);
    });

    it('throws ValidationError on amount for more than is capturable, StateConflictError for a second capture without multicapture', async () => {
      const client = serviceClient();
      const { cardAuthorizationId } = await client.cardAuthorizations.create(await authorizationOf(client));
      const tooMuch = await rejection(client.cardAuthorizations.capture(cardAuthorizationId, { amount: 10_001, currency: 'THB', referenceId: 'x' }));
      expect(tooMuch).toBeInstanceOf(ValidationError);
      expect(tooMuch).toMatchObject({ status: 400, field: 'amount' });

      await client.cardAuthorizations.capture(cardAuthorizationId, { amount: 5_000, currency: 'THB', referenceId: 'x' });
      const again = await rejection(client.cardAuthorizations.capture(cardAuthorizationId, { amount: 1_000, currency: 'THB', referenceId: 'y' }));
      expect(again).toBeInstanceOf(StateConflictError);
      expect(again).toMatchObject({ status: 422, errorCode: 'CARD_AUTHORIZATION_STATUS_INVALID_ERROR', retryable: false });
      expect(again.message).toContain('supportsMulticapture');
    });
  });

  describe('cancel', () => {
    it('cancels an AUTHORIZED authorization and answers it CANCELED', async () => {
      const client = serviceClient();
      const { cardAuthorizationId } = await client.cardAuthorizations.create(await authorizationOf(client));
      const canceled = await client.cardAuthorizations.cancel(cardAuthorizationId);
      expect(canceled).toMatchObject({ cardAuthorizationId, status: 'CANCELED', capturableAmount: 0 });
      const post = seen.find((r) => r.path.endsWith('/cancel'))!;
      expect(post.headers.get(SERVICE_HEADERS.idempotencyKey)).toMatch(UUID_V4);
      const capture = await rejection(client.cardAuthorizations.capture(cardAuthorizationId, { amount: 100, currency: 'THB', referenceId: 'x' }));
      expect(capture).toBeInstanceOf(StateConflictError);
    });

    it('throws StateConflictError CARD_AUTHORIZATION_PENDING while the shopper has not finished', async () => {
      const client = serviceClient();
      const { cardAuthorizationId } = await client.cardAuthorizations.create(await authorizationOf(client, '4389783280144506'));
      const error = await rejection(client.cardAuthorizations.cancel(cardAuthorizationId));
      expect(error).toBeInstanceOf(StateConflictError);
      expect(error).toMatchObject({ status: 422, errorCode: 'CARD_AUTHORIZATION_PENDING' });
      expect(error.requestId).toMatch(/^req_/);
    });
  });

  it('works with a partner key acting for the merchant', async () => {
    const tokenizer = serviceClient();
    const request = await authorizationOf(tokenizer);
    const partner = serviceClient({ apiKey: undefined, partner: { partnerId: SANDBOX_DEFAULTS.partnerId, apiKey: SANDBOX_DEFAULTS.partnerApiKey } });
    seen = [];
    const { cardAuthorizationId } = await partner.cardAuthorizations.create(request);
    await partner.cardAuthorizations.capture(cardAuthorizationId, { amount: 10_000, currency: 'THB', referenceId: 'p' });
    expect((await partner.cardAuthorizations.get(cardAuthorizationId)).status).toBe('CAPTURED');
    for (const r of seen) expect(r.headers.get(SERVICE_HEADERS.partnerId)).toBe(SANDBOX_DEFAULTS.partnerId);
  });
});
