import { describe, expect, it } from 'vitest';
import { CreateCardAuthorizationRequestSchema } from '../../../src/core/schemas/card-authorization.js';
import { CreateChargeRequestSchema } from '../../../src/core/schemas/charge.js';
import { CardNetworkTokenMethodRequestSchema, PAYMENT_METHOD_RESPONSE_MEMBERS, PaymentMethodResponseSchema } from '../../../src/core/schemas/payment-method.js';

const networkToken = {
  number: '4111111111111111',
  cryptogram: 'AAECAwQFBgcICQoLDA0ODxAREhM=',
  cardHolderName: 'Somchai Jaidee',
  expiryMonth: 12,
  expiryYear: 30,
  first8: '45396202',
  last4: '0042',
  initiatorType: 'CUSTOMER',
};

function paths(result: { error?: { issues: { path: PropertyKey[] }[] } }): string[] {
  return (result.error?.issues ?? []).map((issue) => issue.path.map(String).join('.')).sort();
}

describe('CardNetworkTokenMethodRequestSchema', () => {
  it('accepts the members the service names', () => {
    expect(CardNetworkTokenMethodRequestSchema.parse(networkToken)).toEqual(networkToken);
  });

  it('accepts an empty cryptogram, as the playground does, and a merchant-initiated payment', () => {
    const token = { ...networkToken, cryptogram: '', initiatorType: 'MERCHANT' };
    expect(CardNetworkTokenMethodRequestSchema.parse(token)).toEqual(token);
  });

  it('refuses the tokenNumber and eci shape, naming the members it lacks', () => {
    const invented = { tokenNumber: '4111111111111111', expiryMonth: 12, expiryYear: 30, cryptogram: 'AAEC', eci: '05' };
    expect(paths(CardNetworkTokenMethodRequestSchema.safeParse(invented))).toEqual(['cardHolderName', 'first8', 'initiatorType', 'last4', 'number']);
  });

  it('drops members it does not know, as every request object does', () => {
    const parsed = CardNetworkTokenMethodRequestSchema.parse({ ...networkToken, eci: '05', tokenNumber: '4111111111111111' });
    expect(parsed).toEqual(networkToken);
  });

  it.each([
    ['an initiatorType that is neither CUSTOMER nor MERCHANT', { initiatorType: 'SHOPPER' }, 'initiatorType'],
    ['a number that fails Luhn', { number: '4111111111111112' }, 'number'],
    ['a first8 of seven digits', { first8: '4539620' }, 'first8'],
    ['a last4 with a letter', { last4: '004x' }, 'last4'],
    ['a cryptogram over 64 characters', { cryptogram: 'A'.repeat(65) }, 'cryptogram'],
    ['an expiry month of 13', { expiryMonth: 13 }, 'expiryMonth'],
  ])('refuses %s', (_name, change, field) => {
    expect(paths(CardNetworkTokenMethodRequestSchema.safeParse({ ...networkToken, ...change }))).toEqual([field]);
  });

  it('is the network token of charges and of card authorizations', () => {
    const paymentMethod = { paymentMethodType: 'CARD_NETWORK_TOKEN', cardNetworkToken: networkToken };
    const base = { amount: 10_000, currency: 'THB', referenceId: 'order-1', paymentMethod };
    expect(CreateChargeRequestSchema.parse(base).paymentMethod).toEqual(paymentMethod);
    expect(CreateCardAuthorizationRequestSchema.parse(base).paymentMethod).toEqual(paymentMethod);
    const invented = { ...base, paymentMethod: { ...paymentMethod, cardNetworkToken: { ...networkToken, number: undefined, tokenNumber: networkToken.number } } };
    expect(paths(CreateChargeRequestSchema.safeParse(invented))).toEqual(['paymentMethod.cardNetworkToken.number']);
    expect(paths(CreateCardAuthorizationRequestSchema.safeParse(invented))).toEqual(['paymentMethod.cardNetworkToken.number']);
  });
});

describe('PaymentMethodResponseSchema', () => {
  it('reads a network token member with the card digits and no secret', () => {
    const member = { first8: '45396202', last4: '0042', brand: 'VISA', countryAlpha2: 'TH', cardHolderName: 'Somchai Jaidee', expiryMonth: 12, expiryYear: 30, initiatorType: 'CUSTOMER' };
    const read = PaymentMethodResponseSchema.parse({ paymentMethodType: 'CARD_NETWORK_TOKEN', cardNetworkToken: member });
    expect(read.cardNetworkToken).toEqual(member);
  });

  it('lists every method member a charge carries, sPayLater included', () => {
    expect(PAYMENT_METHOD_RESPONSE_MEMBERS).toContain('sPayLater');
    expect(new Set(PAYMENT_METHOD_RESPONSE_MEMBERS).size).toBe(PAYMENT_METHOD_RESPONSE_MEMBERS.length);
  });
});
