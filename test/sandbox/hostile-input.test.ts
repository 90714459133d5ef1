import { describe, expect } from 'vitest';
import { qrChargeBody } from '../support/qr-charge.js';
import { sandboxTest } from '../support/sandbox-fixture.js';

/**
 * URLs carrying control characters (which URL parsing silently strips or keeps, and which a
 * Location header or a log line would carry on) are refused up front with a 400 in the service's
 * error shape that names the field; the sandbox never answers 500 to input, and keeps nothing.
 */

const CONTROL_CHARACTERS = { NUL: '\u0000', BEL: '\u0007', TAB: '\t', LF: '\n', CR: '\r', 'CR LF': '\r\n', DEL: '\u007f', 'C1 NEL': '\u0085', 'C1 CSI': '\u009b' };
const CASES = Object.entries(CONTROL_CHARACTERS);
const hostile = (character: string) => `https://shop.example/ret${character}urn?x=1`;

function expectRefused(answer: { status: number; body: any }, field: string) {
  expect(answer.status).toBe(400);
  expect(answer.body.error.errorCode).toBe('API_VALIDATION_ERROR');
  expect(answer.body.error.errorMessage).toContain(field);
}

describe('the sandbox API and a URL with a control character', () => {
  sandboxTest.for(CASES)('refuses a charge whose returnUrl holds %s', async ([, character], { startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await client.post('/api/v1/charges', qrChargeBody({ referenceId: 'r-1', returnUrl: hostile(character) }));
    expectRefused(answer, 'returnUrl');
    expect((await client.request('GET', '/api/v1/charges')).body.totalCount).toBe(0);
  });

  sandboxTest.for(CASES)('refuses a card authorization whose returnUrl holds %s', async ([, character], { startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const cardTokenId = await client.tokenize('4111111111111111');
    const answer = await client.post('/api/v1/card-authorizations', {
      amount: 10_000,
      currency: 'THB',
      referenceId: 'r-2',
      returnUrl: hostile(character),
      paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } },
    });
    expectRefused(answer, 'returnUrl');
  });

  sandboxTest.for(['redirectUrl', 'cancelUrl'])('refuses a payment link whose %s holds a line break', async (field, { startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await client.post('/api/v1/payment-links', { order: { netAmount: 10_000, currency: 'THB', description: 'x' }, [field]: hostile('\r\n') });
    expectRefused(answer, field);
  });

  sandboxTest('refuses a payment link item whose imageUrl holds NUL', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await client.post('/api/v1/payment-links', {
      order: { netAmount: 10_000, currency: 'THB', orderItems: [{ itemName: 'Tea', price: 10_000, quantity: 1, imageUrl: hostile('\u0000') }] },
    });
    expectRefused(answer, 'imageUrl');
  });

  sandboxTest('refuses a deep-link Bolt intent whose returnUrl holds a line break', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await client.post('/api/v1/bolt-intents', {
      amount: 45_000,
      currency: 'THB',
      referenceId: 'table-12',
      expiryDurationInSec: 120,
      mode: { type: 'DEEP_LINK', deepLink: { returnUrl: hostile('\n') } },
      paymentMethod: { paymentMethodType: 'ALIPAY_PLUS' },
    });
    expectRefused(answer, 'returnUrl');
  });

  sandboxTest('still takes a URL whose control characters are percent-encoded', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await client.post('/api/v1/charges', qrChargeBody({ referenceId: 'r-3', returnUrl: 'https://shop.example/ret%0Aurn' }));
    expect(answer.status).toBe(201);
  });
});
