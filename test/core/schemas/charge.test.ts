import { describe, expect, it } from 'vitest';
import { CardAuthorizationSchema } from '../../../src/core/schemas/card-authorization.js';
import { ChargeListSchema, ChargeSchema } from '../../../src/core/schemas/charge.js';
import { CustomerSchema } from '../../../src/core/schemas/common.js';
import { TransactionSchema } from '../../../src/core/schemas/transaction.js';

const at = '2025-03-14T09:26:54Z';

const noCustomer = {
  primaryPhone: { countryCode: '', number: '' },
  email: '',
  deliveryAddress: { contactName: '', phone: { countryCode: '', number: '' }, address: { streetAddress: '', city: '', country: '', postCode: '' } },
};

/** An API charge exactly as the live service writes it. */
const liveCharge = {
  chargeId: 'ch_1',
  merchantId: 'mch_sandbox',
  referenceId: 'order-1',
  status: 'SUCCEEDED',
  currency: 'THB',
  amount: 10_000,
  source: 'API',
  sourceId: '',
  transactionTime: at,
  paymentMethod: { paymentMethodType: 'CARD', card: { last4: '1111', brand: 'VISA', countryAlpha2: 'TH' }, cardNetworkToken: null, qrPromptPay: null },
  failureCode: '',
  customer: noCustomer,
  createdAt: at,
  updatedAt: at,
};

describe('ChargeSchema', () => {
  it('reads a charge in the live shape as it is', () => {
    expect(ChargeSchema.parse(liveCharge)).toEqual(liveCharge);
  });

  it('reads null or missing sourceId, failureCode and customer as the live service writes them', () => {
    const { sourceId, failureCode, customer, ...bare } = liveCharge;
    expect(ChargeSchema.parse(bare)).toEqual(liveCharge);
    expect(ChargeSchema.parse({ ...bare, sourceId: null, failureCode: null, customer: null })).toEqual(liveCharge);
  });

  it('keeps a failure code and a payment link id', () => {
    const charge = ChargeSchema.parse({ ...liveCharge, status: 'FAILED', failureCode: 'CH_INSUFFICIENT_FUNDS', source: 'PAYMENT_LINK', sourceId: 'pl_1' });
    expect(charge).toMatchObject({ failureCode: 'CH_INSUFFICIENT_FUNDS', sourceId: 'pl_1' });
  });

  it('fills the members of a partial customer with ""', () => {
    const charge = ChargeSchema.parse({
      ...liveCharge,
      customer: { email: 'somchai@example.com', primaryPhone: null, deliveryAddress: { contactName: 'Somchai', phone: null, address: { city: 'Bangkok', postCode: null } } },
    });
    expect(charge.customer).toEqual({
      primaryPhone: { countryCode: '', number: '' },
      email: 'somchai@example.com',
      deliveryAddress: { contactName: 'Somchai', phone: { countryCode: '', number: '' }, address: { streetAddress: '', city: 'Bangkok', country: '', postCode: '' } },
    });
  });

  it('still refuses a member of the wrong type, naming it', () => {
    const result = ChargeSchema.safeParse({ ...liveCharge, failureCode: 51 });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['failureCode']);
  });

  it('keeps members no schema names', () => {
    expect(ChargeSchema.parse({ ...liveCharge, customer: { ...noCustomer, loyaltyId: 'L1' } }).customer).toHaveProperty('loyaltyId', 'L1');
  });

  it('reads every charge of a list the same way', () => {
    const { sourceId, failureCode, customer, ...bare } = liveCharge;
    expect(ChargeListSchema.parse({ data: [bare], totalCount: 1 }).data).toEqual([liveCharge]);
  });
});

describe('CustomerSchema', () => {
  it('reads an empty object as the customer with every member ""', () => {
    expect(CustomerSchema.parse({})).toEqual(noCustomer);
  });
});

describe('CardAuthorizationSchema', () => {
  it('reads a null or missing failureCode as ""', () => {
    const authorization = { cardAuthorizationId: 'ca_1', merchantId: 'mch_sandbox', status: 'AUTHORIZED', currency: 'THB', amount: 10_000, createdAt: at, updatedAt: at };
    expect(CardAuthorizationSchema.parse(authorization).failureCode).toBe('');
    expect(CardAuthorizationSchema.parse({ ...authorization, failureCode: null }).failureCode).toBe('');
    expect(CardAuthorizationSchema.parse({ ...authorization, status: 'FAILED', failureCode: 'CH_PROCESSING_FAILED' }).failureCode).toBe('CH_PROCESSING_FAILED');
  });
});

describe('TransactionSchema', () => {
  it('reads a null or missing sourceId as "", as the charge it records has it', () => {
    const transaction = {
      transactionId: 'ch_1',
      merchantId: 'mch_sandbox',
      transactionType: 'PAYMENT',
      currency: 'THB',
      grossAmount: 10_000,
      feeAmount: 295,
      vatAmount: 21,
      netAmount: 9_684,
      createdAt: at,
    };
    expect(TransactionSchema.parse(transaction).sourceId).toBe('');
    expect(TransactionSchema.parse({ ...transaction, sourceId: null }).sourceId).toBe('');
  });
});
