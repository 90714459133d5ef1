import { describe, expect, it } from 'vitest';
import {
  WEBHOOK_EVENT_NAMES,
  WEBHOOK_EVENT_SCHEMAS,
  isWebhookEventName,
  parseWebhookEvent,
  type WebhookEventName,
} from '../../../src/core/schemas/webhook-events.js';

const createdAt = '2025-03-14T09:26:53Z';
const updatedAt = '2025-03-14T09:26:54Z';

/** A customer as the service writes one it knows nothing about: every member, all `""`. */
const unknownCustomer = {
  primaryPhone: { countryCode: '', number: '' },
  email: '',
  deliveryAddress: { contactName: '', phone: { countryCode: '', number: '' }, address: { streetAddress: '', city: '', country: '', postCode: '' } },
};
const charge = {
  chargeId: 'ch_1',
  merchantId: 'mch_sandbox',
  status: 'SUCCEEDED',
  currency: 'THB',
  amount: 10_000,
  source: 'API',
  sourceId: '',
  paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY', qrPromptPay: {} },
  failureCode: '',
  customer: unknownCustomer,
  createdAt,
  updatedAt,
};
const paymentLink = {
  paymentLinkId: 'pl_1',
  merchantId: 'mch_sandbox',
  url: 'https://pay.example.test/pl_1',
  status: 'PAID',
  order: { netAmount: 10_000, currency: 'THB' },
};
const cardAuthorization = {
  cardAuthorizationId: 'ca_1',
  merchantId: 'mch_sandbox',
  status: 'AUTHORIZED',
  currency: 'THB',
  amount: 10_000,
  failureCode: '',
  createdAt,
  updatedAt,
};
const refund = {
  refundId: 're_1',
  chargeId: 'ch_1',
  merchantId: 'mch_sandbox',
  amount: 10_000,
  currency: 'THB',
  status: 'SUCCEEDED',
  createdAt,
  updatedAt,
};
const boltIntent = {
  id: 'bi_1',
  merchantId: 'mch_sandbox',
  amount: 10_000,
  currency: 'THB',
  status: 'PAID',
  mode: { type: 'PAIRING', deepLink: null },
  createdAt,
  updatedAt,
};
const transaction = {
  transactionId: 'ch_1',
  merchantId: 'mch_sandbox',
  transactionType: 'PAYMENT',
  sourceId: '',
  currency: 'THB',
  grossAmount: 10_000,
  feeAmount: 160,
  vatAmount: 11,
  netAmount: 9_829,
  createdAt,
};

const minimalPayloads: Record<WebhookEventName, Record<string, unknown>> = {
  'charge.succeeded': charge,
  'charge.failed': { ...charge, status: 'FAILED', failureCode: 'CH_INSUFFICIENT_FUNDS' },
  'payment_link.paid': paymentLink,
  'card_authorization.authorized': cardAuthorization,
  'card_authorization.failed': { ...cardAuthorization, status: 'FAILED', failureCode: 'CH_INSUFFICIENT_FUNDS' },
  'card_authorization.canceled': { ...cardAuthorization, status: 'CANCELED' },
  'refund.succeeded': refund,
  'refund.failed': { ...refund, status: 'FAILED', failureCode: 'RF_REFUSED' },
  'bolt_intent.paid': boltIntent,
  'bolt_intent.canceled': { ...boltIntent, status: 'CANCELED', result: 'BI_CANCELED' },
  'bolt_intent.expired': { ...boltIntent, status: 'EXPIRED', result: 'BI_EXPIRED' },
  'transaction.created': transaction,
};

describe('WEBHOOK_EVENT_NAMES', () => {
  it('lists the twelve events the service sends', () => {
    expect(WEBHOOK_EVENT_NAMES).toHaveLength(12);
    expect(new Set(WEBHOOK_EVENT_NAMES).size).toBe(12);
  });

  it('has a payload schema for every event and no other', () => {
    expect(Object.keys(WEBHOOK_EVENT_SCHEMAS).sort()).toEqual([...WEBHOOK_EVENT_NAMES].sort());
  });
});

describe('isWebhookEventName', () => {
  it('recognises an event name exactly', () => {
    expect(isWebhookEventName('refund.failed')).toBe(true);
    expect(isWebhookEventName('Refund.Failed')).toBe(false);
  });

  it('does not take inherited object keys for event names', () => {
    expect(isWebhookEventName('toString')).toBe(false);
    expect(isWebhookEventName('__proto__')).toBe(false);
  });
});

describe('parseWebhookEvent', () => {
  it.each(WEBHOOK_EVENT_NAMES)('accepts a minimal %s payload and keeps its name and body', (name) => {
    const payload = minimalPayloads[name];
    const result = parseWebhookEvent(name, payload);
    expect(result).toEqual({ ok: true, event: { name, payload } });
  });

  it('reads a charge written with null or missing sourceId, failureCode and customer in the live shape', () => {
    const { sourceId, failureCode, customer, ...bare } = charge;
    for (const older of [bare, { ...bare, sourceId: null, failureCode: null, customer: null }]) {
      const result = parseWebhookEvent('charge.succeeded', older);
      expect(result).toEqual({ ok: true, event: { name: 'charge.succeeded', payload: charge } });
    }
  });

  it('narrows the payload to the resource of the event', () => {
    const result = parseWebhookEvent('refund.succeeded', refund);
    if (!result.ok) throw new Error(result.error);
    if (result.event.name !== 'refund.succeeded') throw new Error('wrong event');
    expect(result.event.payload.refundId).toBe('re_1');
  });

  it('keeps fields of the payload that no schema names', () => {
    const result = parseWebhookEvent('charge.succeeded', { ...charge, riskScore: 12 });
    expect(result.ok && result.event.payload).toHaveProperty('riskScore', 12);
  });

  it('rejects an unknown event name and lists the known ones', () => {
    const result = parseWebhookEvent('charge.refunded', charge);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/^unknown webhook event "charge\.refunded"; expected one of charge\.succeeded, /);
  });

  it('rejects a payload of another resource, naming the field it lacks', () => {
    const result = parseWebhookEvent('refund.succeeded', charge);
    expect(result).toEqual({ ok: false, error: 'refund.succeeded payload is invalid: refundId is required' });
  });

  it('names a nested field of the wrong type', () => {
    const result = parseWebhookEvent('payment_link.paid', { ...paymentLink, order: { netAmount: '100.00', currency: 'THB' } });
    expect(result).toEqual({ ok: false, error: 'payment_link.paid payload is invalid: order.netAmount must be a number' });
  });

  it('says which values a status may take', () => {
    const result = parseWebhookEvent('bolt_intent.paid', { ...boltIntent, status: 'DONE' });
    expect(!result.ok && result.error).toBe(
      'bolt_intent.paid payload is invalid: status must be one of ACTIVE, PAID, CANCELED, EXPIRED, VOIDED, REFUNDED',
    );
  });

  it('rejects a body that is not an object', () => {
    expect(parseWebhookEvent('transaction.created', 'ok')).toEqual({
      ok: false,
      error: 'transaction.created payload is invalid: payload must be an object',
    });
    expect(parseWebhookEvent('transaction.created', undefined)).toEqual({
      ok: false,
      error: 'transaction.created payload is invalid: payload is required',
    });
  });
});
