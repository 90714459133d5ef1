import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CreateCardAuthorizationRequest } from '../../../src/core/schemas/card-authorization.js';
import type { CreateChargeRequest } from '../../../src/core/schemas/charge.js';
import { Sandbox, SANDBOX_DEFAULTS } from '../../../src/sandbox/index.js';
import { ValidationError } from '../../../src/server/errors.js';
import { ServiceClient, type ServiceClientOptions } from '../../../src/server/service/service-client.js';
import { FUTURE_EXPIRY_YEAR } from '../../support/sandbox-client.js';
import { rejection } from '../../support/rejection.js';

const NO_CUSTOMER = {
  primaryPhone: { countryCode: '', number: '' },
  email: '',
  deliveryAddress: { contactName: '', phone: { countryCode: '', number: '' }, address: { streetAddress: '', city: '', country: '', postCode: '' } },
};

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = new Sandbox({ refundSettleDelayMs: 0 });
});
afterEach(() => sandbox.close());

function serviceClient(overrides: Partial<ServiceClientOptions> = {}): ServiceClient {
  return new ServiceClient({
    baseUrl: 'http://127.0.0.1:4010',
    merchantId: SANDBOX_DEFAULTS.merchantId,
    apiKey: SANDBOX_DEFAULTS.apiKey,
    publishableKey: SANDBOX_DEFAULTS.publishableKey,
    retryBaseDelayMs: 1,
    fetch: (request) => sandbox.fetch(request),
    ...overrides,
  });
}


/** A network token as the service takes it; the types come from the request schema. */
const networkToken = {
  number: '4111111111111111',
  cryptogram: '',
  cardHolderName: 'Somchai Jaidee',
  expiryMonth: 12,
  expiryYear: FUTURE_EXPIRY_YEAR,
  first8: '45396202',
  last4: '0042',
  initiatorType: 'MERCHANT',
} as const;

describe('ServiceClient.charges against the sandbox: the live charge shape', () => {
  it('reads an API charge with sourceId "", failureCode "" and a customer of "" members, alike from get, list and iterate', async () => {
    const client = serviceClient();
    const { id } = await client.cardTokens.create({ pan: '4111111111111111', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee' });
    const { chargeId } = await client.charges.create({
      amount: 10_000,
      currency: 'THB',
      referenceId: 'order-live',
      paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId: id, securityCode: '123' } },
    });
    const charge = await client.charges.get(chargeId);
    expect(charge).toMatchObject({ status: 'SUCCEEDED', source: 'API', sourceId: '', failureCode: '', customer: NO_CUSTOMER });
    // Every reader asks "is there one" the same way: a string, empty for none.
    expect(charge.failureCode || 'none').toBe('none');
    expect((await client.charges.list({ referenceId: 'order-live' })).data).toEqual([charge]);
    for await (const listed of client.charges.iterate({ referenceId: 'order-live' })) expect(listed).toEqual(charge);
  });

  it('charges a network token with the service’s members and reads back the card’s digits only', async () => {
    const client = serviceClient();
    const body: CreateChargeRequest = { amount: 10_000, currency: 'THB', referenceId: 'order-ntk', paymentMethod: { paymentMethodType: 'CARD_NETWORK_TOKEN', cardNetworkToken: networkToken } };
    const { chargeId } = await client.charges.create(body);
    const charge = await client.charges.get(chargeId);
    expect(charge.status).toBe('SUCCEEDED');
    expect(charge.paymentMethod.cardNetworkToken).toMatchObject({ first8: '45396202', last4: '0042', initiatorType: 'MERCHANT', brand: 'VISA' });
    expect(JSON.stringify(charge)).not.toContain(networkToken.number);
  });

  it('authorizes a network token the same way', async () => {
    const client = serviceClient();
    const body: CreateCardAuthorizationRequest = { amount: 10_000, currency: 'THB', referenceId: 'order-ntk', paymentMethod: { paymentMethodType: 'CARD_NETWORK_TOKEN', cardNetworkToken: networkToken } };
    const { cardAuthorizationId } = await client.cardAuthorizations.create(body);
    const authorization = await client.cardAuthorizations.get(cardAuthorizationId);
    expect(authorization).toMatchObject({ status: 'AUTHORIZED', failureCode: '', paymentMethod: { cardNetworkToken: { first8: '45396202', last4: '0042' } } });
  });

  it('is refused a network token of the tokenNumber and eci shape, naming number', async () => {
    const client = serviceClient();
    const invented = { tokenNumber: '4111111111111111', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cryptogram: 'AAEC', eci: '05' };
    // @ts-expect-error -- the request type has no tokenNumber or eci: they are not the service's
    const body: CreateChargeRequest = { amount: 10_000, currency: 'THB', referenceId: 'order-ntk', paymentMethod: { paymentMethodType: 'CARD_NETWORK_TOKEN', cardNetworkToken: invented } };
    const error = await rejection(client.charges.create(body));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain('paymentMethod.cardNetworkToken.number is required');
  });
});

describe('ServiceClient.charges reading an older answer', () => {
  it('reads null sourceId, failureCode and customer as the live shape, so no reader breaks', async () => {
    const older = {
      chargeId: 'ch_old',
      merchantId: SANDBOX_DEFAULTS.merchantId,
      referenceId: 'order-old',
      status: 'SUCCEEDED',
      currency: 'THB',
      amount: 10_000,
      source: 'API',
      sourceId: null,
      transactionTime: null,
      paymentMethod: { paymentMethodType: 'ALIPAY', alipay: {} },
      failureCode: null,
      customer: { email: 'somchai@example.com', primaryPhone: null, deliveryAddress: null },
      createdAt: '2025-03-14T09:26:54Z',
      updatedAt: '2025-03-14T09:26:54Z',
    };
    const client = serviceClient({ fetch: () => Promise.resolve(Response.json(older)) });
    const charge = await client.charges.get('ch_old');
    expect(charge).toMatchObject({ sourceId: '', failureCode: '', customer: { ...NO_CUSTOMER, email: 'somchai@example.com' } });
  });
});
