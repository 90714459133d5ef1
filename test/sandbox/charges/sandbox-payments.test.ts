import { afterEach, describe, expect, it } from 'vitest';
import { ChargeSchema, CreateChargeResponseSchema } from '../../../src/core/schemas/charge.js';
import { PAYMENT_METHOD_RESPONSE_MEMBERS } from '../../../src/core/schemas/payment-method.js';
import { RefundSchema } from '../../../src/core/schemas/refund.js';
import { TransactionSchema } from '../../../src/core/schemas/transaction.js';
import { readEmvField, readPromptPayAmountSatang, verifyEmvCrc } from '../../../src/core/emv-qr.js';
import { SANDBOX_DEFAULT_QR_EXPIRY_MS, SANDBOX_DEFAULTS, SANDBOX_TEST_CARDS, type Sandbox } from '../../../src/sandbox/index.js';
import { scanQrPngBase64 } from '../../support/scan-qr.js';
import { createQrCharge } from '../../support/qr-charge.js';
import { FUTURE_EXPIRY_YEAR, newSandbox, type SandboxClient } from '../../support/sandbox-client.js';


let sandbox: Sandbox;
let client: SandboxClient;
function start(options: Parameters<typeof newSandbox>[0] = {}) {
  ({ sandbox, client } = newSandbox({ refundSettleDelayMs: 0, ...options }));
}
// eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset until a test starts one
afterEach(() => sandbox?.close());


describe('card tokens', () => {
  it('answers 201 with a ctk_ id and no card data', async () => {
    start();
    const answer = await client.post('/client/v1/card-tokens', { pan: '4111111111111111', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'A' });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ id: expect.stringMatching(/^ctk_[A-Za-z0-9]{24}$/) });
  });

  it('refuses a number that fails Luhn, naming the field', async () => {
    start();
    const answer = await client.post('/client/v1/card-tokens', { pan: '4111111111111112', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'A' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.errorCode).toBe('API_VALIDATION_ERROR');
    expect(answer.body.message).toContain('pan is not a valid card number');
  });

  it('refuses an expired card', async () => {
    start();
    const lastYear = (new Date().getUTCFullYear() - 1) % 100;
    const answer = await client.post('/client/v1/card-tokens', { pan: '4111111111111111', expiryMonth: 12, expiryYear: lastYear, cardHolderName: 'A' });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('expired');
  });

  it('can be charged once only', async () => {
    start();
    const cardTokenId = await client.tokenize('4111111111111111');
    const method = { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } };
    expect((await client.createCharge({ paymentMethod: method })).status).toBe(201);
    const second = await client.createCharge({ paymentMethod: method });
    expect(second.status).toBe(400);
    expect(second.body.message).toContain('paymentMethod.cardToken.cardTokenId has already been used');
  });

  it('expires after 30 minutes', async () => {
    let now = Date.now();
    start({ now: () => new Date(now) });
    const cardTokenId = await client.tokenize('4111111111111111');
    now += 31 * 60 * 1000;
    const answer = await client.createCharge({ paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('has expired');
  });

  it('belongs to the merchant that created it', async () => {
    start({
      merchants: [
        { merchantId: 'm1', apiKey: 'sk1', publishableKey: 'pk1' },
        { merchantId: 'm2', apiKey: 'sk2', publishableKey: 'pk2' },
      ],
    });
    const token = await client.post('/client/v1/card-tokens', { pan: '4111111111111111', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'A' }, { auth: `Basic ${btoa('m1:pk1')}` });
    const answer = await client.post(
      '/api/v1/charges',
      { amount: 10_000, currency: 'THB', referenceId: 'x', paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId: token.body.id, securityCode: '123' } } },
      { auth: `Basic ${btoa('m2:sk2')}` },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('does not match a card token of this merchant');
  });
});

describe('charging the playground test cards', () => {
  const outcomes: [string, string, string | null, string][] = [
    ['4111111111111111', 'SUCCEEDED', null, 'NONE'],
    ['5372074248113841', 'SUCCEEDED', null, 'NONE'],
    ['378282246310005', 'SUCCEEDED', null, 'NONE'],
    ['4943129900084541', 'FAILED', 'CH_INSUFFICIENT_FUNDS', 'NONE'],
    ['4000007640000003', 'SUCCEEDED', null, 'NONE'],
    ['4000000000005126', 'SUCCEEDED', null, 'NONE'],
    ['4417704002802961', 'SUCCEEDED', null, 'NONE'],
    ['4953261730509988', 'PENDING', null, 'REDIRECT'],
    ['4389783280144506', 'PENDING', null, 'REDIRECT'],
    ['4242424242424242', 'FAILED', 'CH_PROCESSING_FAILED', 'NONE'],
  ];
  for (const [pan, status, failureCode, action] of outcomes) {
    it(`${pan} reads ${status}${failureCode ? ` ${failureCode}` : ''} with action ${action}`, async () => {
      start();
      const created = await client.chargeCard(pan);
      expect(created.status).toBe(201);
      expect(CreateChargeResponseSchema.parse(created.body).actionRequired).toBe(action);
      expect(created.body).not.toHaveProperty('status');
      const charge = ChargeSchema.parse(await client.getCharge(created.body.chargeId));
      expect(charge.status).toBe(status);
      expect(charge.failureCode).toBe(failureCode ?? '');
      expect(charge.source).toBe('API');
      expect(charge.paymentMethod.paymentMethodType).toBe('CARD');
      expect(charge.paymentMethod.card?.last4).toBe(pan.slice(-4));
      expect(JSON.stringify(charge)).not.toContain(pan);
    });
  }

  it('documents every test card it knows', () => {
    expect(SANDBOX_TEST_CARDS.map((c) => c.number)).toEqual(expect.arrayContaining(outcomes.slice(0, -1).map(([pan]) => pan)));
  });

  it('behaves the same through CARD with the card details', async () => {
    start();
    const created = await client.createCharge({
      paymentMethod: { paymentMethodType: 'CARD', card: { pan: '4943129900084541', expiryMonth: 1, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'A', securityCode: '123' } },
    });
    expect((await client.getCharge(created.body.chargeId)).failureCode).toBe('CH_INSUFFICIENT_FUNDS');
  });

  it('asks for the security code unless the merchant may omit it', async () => {
    start();
    const cardTokenId = await client.tokenize('4111111111111111');
    const answer = await client.createCharge({ paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId } } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('paymentMethod.cardToken.securityCode is required');
  });

  it('wants four digits of CVC on Amex', async () => {
    start();
    const cardTokenId = await client.tokenize('378282246310005');
    const answer = await client.createCharge({ paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('must be 4 digits for a AMEX card');
  });

  it('skips 3-D Secure only for a merchant allowed to', async () => {
    start({ merchants: [{ merchantId: 'mch_sandbox', apiKey: 'sk_sandbox_0000000000000000000000', publishableKey: 'pk_sandbox_0000000000000000000000', canSkip3ds: true }] });
    const skipped = await client.chargeCard('4953261730509988', { skip3dsFlow: true });
    expect(skipped.body.actionRequired).toBe('NONE');
    expect((await client.getCharge(skipped.body.chargeId)).status).toBe('SUCCEEDED');
    start();
    const notSkipped = await client.chargeCard('4953261730509988', { skip3dsFlow: true });
    expect(notSkipped.body.actionRequired).toBe('REDIRECT');
  });
});

describe('installments', () => {
  const installment = async (pan: string, amount: number, installmentPeriod: number) => {
    const cardTokenId = await client.tokenize(pan);
    return client.createCharge({ amount, paymentMethod: { paymentMethodType: 'CARD_TOKEN_INSTALLMENTS', cardTokenInstallments: { cardTokenId, securityCode: '123', installmentPeriod } } });
  };

  it('succeeds with the KBANK card and reads back as CARD_INSTALLMENTS with its period', async () => {
    start();
    const created = await installment('4417704002802961', 300_000, 3);
    const charge = await client.getCharge(created.body.chargeId);
    expect(charge.status).toBe('SUCCEEDED');
    expect(charge.paymentMethod.paymentMethodType).toBe('CARD_INSTALLMENTS');
    expect(charge.paymentMethod.cardInstallments).toMatchObject({ last4: '2961', installmentPeriod: 3 });
  });

  it('redirects the KTC card to the OTP page', async () => {
    start();
    const created = await installment('4391370000000006', 500_000, 10);
    expect(created.body.actionRequired).toBe('REDIRECT');
    expect(created.body.redirect.redirectUrl).toMatch(/\/sandbox\/pages\/otp\/ch_/);
  });

  const minimums: [number, number][] = [[3, 300_000], [4, 300_000], [6, 400_000], [10, 500_000]];
  for (const [period, minimum] of minimums) {
    it(`refuses ${period} months below ${minimum / 100} THB and accepts it at the minimum`, async () => {
      start();
      const below = await installment('4417704002802961', minimum - 1, period);
      expect(below.status).toBe(400);
      expect(below.body.message).toContain(`installmentPeriod of ${period} months needs an amount of at least ${minimum}`);
      expect((await installment('4417704002802961', minimum, period)).status).toBe(201);
    });
  }

  it('refuses a period that does not exist', async () => {
    start();
    const answer = await installment('4417704002802961', 600_000, 5);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('installmentPeriod must be 3, 4, 6 or 10');
  });

  it('works through CARD_INSTALLMENTS with the card details', async () => {
    start();
    const created = await client.createCharge({
      amount: 400_000,
      paymentMethod: { paymentMethodType: 'CARD_INSTALLMENTS', cardInstallments: { pan: '4417704002802961', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'A', securityCode: '123', installmentPeriod: 6 } },
    });
    expect((await client.getCharge(created.body.chargeId)).status).toBe('SUCCEEDED');
  });
});

describe('QR PromptPay', () => {
  it('answers ENCODED_IMAGE with a valid Thai QR payload carrying the amount, and its PNG', async () => {
    start();
    const created = await createQrCharge(client, { amount: 12_345 });
    const { encodedImage } = CreateChargeResponseSchema.parse(created.body);
    expect(created.body.actionRequired).toBe('ENCODED_IMAGE');
    expect(verifyEmvCrc(encodedImage!.rawData)).toBe(true);
    expect(readEmvField(encodedImage!.rawData, '54')).toBe('123.45');
    expect(readPromptPayAmountSatang(encodedImage!.rawData)).toBe(12_345);
    expect(scanQrPngBase64(encodedImage!.imageBase64Encoded)).toBe(encodedImage!.rawData);
  });

  it('expires after the documented default, or at qrPromptPay.expiryTime, or at expiresAt', async () => {
    const now = new Date('2030-01-01T00:00:00Z');
    start({ now: () => now });
    const byDefault = await client.createCharge({ paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY' } });
    expect(Date.parse(byDefault.body.encodedImage.expiry)).toBe(now.getTime() + SANDBOX_DEFAULT_QR_EXPIRY_MS);
    const custom = await client.createCharge({ paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY', qrPromptPay: { expiryTime: '2030-01-01T00:05:00Z' } } });
    expect(custom.body.encodedImage.expiry).toBe('2030-01-01T00:05:00.000Z');
    const alias = await client.createCharge({ paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY', qrPromptPay: { expiresAt: '2030-01-01T00:07:00+00:00' } } });
    expect(alias.body.encodedImage.expiry).toBe('2030-01-01T00:07:00.000Z');
  });

  it('refuses an expiry in the past', async () => {
    start();
    const answer = await client.createCharge({ paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY', qrPromptPay: { expiryTime: '2001-01-01T00:00:00Z' } } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('paymentMethod.qrPromptPay.expiryTime must be between 1 minute and 24 hours from now');
  });

  it('stays PENDING after its expiry', async () => {
    let now = Date.now();
    start({ now: () => new Date(now) });
    const created = await createQrCharge(client);
    now += SANDBOX_DEFAULT_QR_EXPIRY_MS + 1;
    expect((await client.getCharge(created.chargeId)).status).toBe('PENDING');
  });
});

describe('e-wallets and mobile banking', () => {
  const redirecting = ['ALIPAY', 'LINE_PAY', 'SHOPEE_PAY', 'TRUE_MONEY', 'WECHAT_PAY', 'KPLUS', 'SCB_EASY', 'MAKE', 'SPAY_LATER'];
  for (const type of redirecting) {
    it(`${type} redirects to the sandbox authorize page and reads back with its member`, async () => {
      start();
      const created = await client.createCharge({ paymentMethod: { paymentMethodType: type } });
      expect(created.status).toBe(201);
      expect(created.body.actionRequired).toBe('REDIRECT');
      expect(created.body.redirect.redirectUrl).toBe(`http://127.0.0.1:4010/sandbox/pages/authorize/${created.body.chargeId}`);
      const charge = ChargeSchema.parse(await client.getCharge(created.body.chargeId));
      expect(charge.paymentMethod.paymentMethodType).toBe(type);
      expect(charge.status).toBe('PENDING');
    });
  }

  for (const type of ['BANGKOK_BANK_APP', 'KRUNGSRI_APP']) {
    it(`${type} needs deviceType ANDROID or IOS`, async () => {
      start();
      for (const deviceType of [undefined, 'WEB']) {
        const answer = await client.createCharge({ deviceType, paymentMethod: { paymentMethodType: type } });
        expect(answer.status).toBe(400);
        expect(answer.body.message).toBe(`inputs are failing validation; deviceType must be ANDROID or IOS for ${type}`);
      }
      for (const deviceType of ['ANDROID', 'IOS']) {
        expect((await client.createCharge({ deviceType, paymentMethod: { paymentMethodType: type } })).status).toBe(201);
      }
    });
  }

  it('refuses ALIPAY_PLUS, which only bolt intents create', async () => {
    start();
    const answer = await client.createCharge({ paymentMethod: { paymentMethodType: 'ALIPAY_PLUS', alipayPlus: {} } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('inputs are failing validation; paymentMethod.paymentMethodType payment method is not supported');
  });

  it('refuses card-only fields on other methods', async () => {
    start();
    const answer = await client.createCharge({ initiatorType: 'CUSTOMER', paymentMethod: { paymentMethodType: 'ALIPAY' } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('initiatorType only applies to CARD');
  });
});

describe('listing charges', () => {
  it('answers {data, totalCount}, newest first, filtered and paged', async () => {
    start();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const created = await client.createCharge({ referenceId: i % 2 === 0 ? 'even' : 'odd', paymentMethod: { paymentMethodType: 'ALIPAY' } });
      ids.push(created.body.chargeId);
    }
    const all = await client.get('/api/v1/charges');
    expect(all.body.totalCount).toBe(5);
    expect(all.body.data.map((c: { chargeId: string }) => c.chargeId)).toEqual([...ids].reverse());

    const even = await client.get('/api/v1/charges?referenceId=even&limit=2&offset=1');
    expect(even.body.totalCount).toBe(3);
    expect(even.body.data.map((c: { chargeId: string }) => c.chargeId)).toEqual([ids[2], ids[0]]);

    expect((await client.get('/api/v1/charges?source_in=API,PAYMENT_LINK')).body.totalCount).toBe(5);
    expect((await client.get('/api/v1/charges?source_in=PAYMENT_LINK')).body.totalCount).toBe(0);
    expect((await client.get('/api/v1/charges?sourceId=pl_nothing')).body.totalCount).toBe(0);
  });

  it('refuses a bad limit, offset or source, naming it', async () => {
    start();
    for (const [query, field] of [['limit=0', 'limit'], ['limit=101', 'limit'], ['limit=x', 'limit'], ['offset=-1', 'offset'], ['source_in=SHOP', 'source_in']]) {
      const answer = await client.get(`/api/v1/charges?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.message, query).toContain(`${field} must`);
    }
  });

  it('shows a merchant only its own charges', async () => {
    start({ merchants: [{ merchantId: 'm1', apiKey: 'sk1', publishableKey: 'pk1' }, { merchantId: 'm2', apiKey: 'sk2', publishableKey: 'pk2' }] });
    const created = await client.post('/api/v1/charges', { amount: 100, currency: 'THB', referenceId: 'r', paymentMethod: { paymentMethodType: 'ALIPAY' } }, { auth: `Basic ${btoa('m1:sk1')}` });
    const asOther = await client.get(`/api/v1/charges/${created.body.chargeId}`, { auth: `Basic ${btoa('m2:sk2')}` });
    expect(asOther.status).toBe(404);
    expect((await client.get('/api/v1/charges', { auth: `Basic ${btoa('m2:sk2')}` })).body.totalCount).toBe(0);
  });
});

describe('transactions', () => {
  it('records one PAYMENT per succeeded charge with the RATE fee and VAT on the fee', async () => {
    start();
    const created = await client.chargeCard('4111111111111111', { amount: 100_000 });
    const transaction = TransactionSchema.parse((await client.get(`/api/v1/transactions/${created.body.chargeId}`)).body);
    // card: 2.95% of 1,000.00 = 29.50; VAT 7% of the fee = 2.07 (2.065 rounded half up).
    expect(transaction).toMatchObject({ transactionType: 'PAYMENT', grossAmount: 100_000, feeAmount: 2_950, vatAmount: 207, netAmount: 96_843, feeStrategy: 'RATE', chargeSource: 'API' });
    const list = await client.get('/api/v1/transactions');
    expect(list.body.totalCount).toBe(1);
  });

  it('records nothing for a failed or pending charge', async () => {
    start();
    await client.chargeCard('4943129900084541');
    await client.chargeCard('4953261730509988');
    expect((await client.get('/api/v1/transactions')).body.totalCount).toBe(0);
  });
});

describe('refunds', () => {
  const refund = (body: Record<string, unknown>) => client.post('/api/v1/refunds', body);
  const settled = async (refundId: string) => {
    await expect.poll(async () => (await client.get(`/api/v1/refunds/${refundId}`)).body.status, { timeout: 5_000 }).not.toBe('PENDING');
    return RefundSchema.parse((await client.get(`/api/v1/refunds/${refundId}`)).body);
  };

  it('refunds a card charge in full and records a REFUND transaction', async () => {
    start();
    const { body } = await client.chargeCard('4111111111111111');
    const created = await refund({ chargeId: body.chargeId, reason: 'customer request' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ refundId: expect.stringMatching(/^re_/) });
    const done = await settled(created.body.refundId);
    expect(done).toMatchObject({ status: 'SUCCEEDED', amount: 10_000, chargeId: body.chargeId, refundReason: 'customer request' });
    const transaction = (await client.get(`/api/v1/transactions/${created.body.refundId}`)).body;
    expect(transaction).toMatchObject({ transactionType: 'REFUND', grossAmount: 10_000 });
    const again = await refund({ chargeId: body.chargeId });
    expect(again.status).toBe(409);
  });

  it('refunds a CARD charge in parts, never past its amount', async () => {
    start();
    const { body } = await client.chargeCard('4111111111111111');
    await settled((await refund({ chargeId: body.chargeId, amount: 4_000 })).body.refundId);
    const tooMuch = await refund({ chargeId: body.chargeId, amount: 6_001 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.message).toContain('amount must be at most 6000');
    expect((await settled((await refund({ chargeId: body.chargeId })).body.refundId)).amount).toBe(6_000);
  });

  it('refuses a partial refund of a non-card charge', async () => {
    start();
    const created = await client.createCharge({ paymentMethod: { paymentMethodType: 'ALIPAY' } });
    sandbox.payments.settleCharge(created.body.chargeId, { status: 'SUCCEEDED' });
    const partial = await refund({ chargeId: created.body.chargeId, amount: 5_000 });
    expect(partial.status).toBe(400);
    expect(partial.body.message).toContain('partial refunds are only possible for CARD charges');
    expect((await refund({ chargeId: created.body.chargeId })).status).toBe(201);
  });

  it('answers 422 CHARGE_PENDING for a pending charge, 403 for a failed one, 404 for an unknown one', async () => {
    start();
    const pending = await client.chargeCard('4953261730509988');
    expect((await refund({ chargeId: pending.body.chargeId })).body.error.errorCode).toBe('CHARGE_PENDING');
    const failed = await client.chargeCard('4943129900084541');
    expect((await refund({ chargeId: failed.body.chargeId })).status).toBe(403);
    expect((await refund({ chargeId: 'ch_unknown' })).status).toBe(404);
  });

  it('answers 422 REFUND_PENDING while an earlier refund is pending', async () => {
    start({ refundSettleDelayMs: 60_000 });
    const { body } = await client.chargeCard('4111111111111111');
    expect((await refund({ chargeId: body.chargeId, amount: 100 })).status).toBe(201);
    const second = await refund({ chargeId: body.chargeId, amount: 100 });
    expect(second.status).toBe(422);
    expect(second.body.error.errorCode).toBe('REFUND_PENDING');
  });

  it('refuses refunds of 4000007640000003 and fails those of 4000000000005126', async () => {
    start();
    const refused = await client.chargeCard('4000007640000003');
    const answer = await refund({ chargeId: refused.body.chargeId });
    expect(answer.status).toBe(403);
    expect(answer.body.error.errorCode).toBe('OPERATION_NOT_ALLOWED_ERROR');
    const failing = await client.chargeCard('4000000000005126');
    const failed = await settled((await refund({ chargeId: failing.body.chargeId })).body.refundId);
    expect(failed.status).toBe('FAILED');
    expect(failed.failureCode).not.toBe('');
    expect((await client.get('/api/v1/transactions')).body.data.filter((t: { transactionType: string }) => t.transactionType === 'REFUND')).toHaveLength(0);
  });
});

describe('the charge state machine', () => {
  it('moves PENDING to SUCCEEDED once and refuses any later move', async () => {
    start();
    const created = await client.chargeCard('4389783280144506');
    sandbox.payments.settleCharge(created.body.chargeId, { status: 'SUCCEEDED' });
    expect(() => sandbox.payments.settleCharge(created.body.chargeId, { status: 'FAILED', failureCode: 'CH_PROCESSING_FAILED' })).toThrow(/already SUCCEEDED/);
    expect(() => sandbox.payments.settleCharge(created.body.chargeId, { status: 'SUCCEEDED' })).toThrow(/already SUCCEEDED/);
    const charge = await client.getCharge(created.body.chargeId);
    expect(charge.status).toBe('SUCCEEDED');
    expect(charge.transactionTime).toBe(charge.updatedAt);
    expect((await client.get('/api/v1/transactions')).body.totalCount).toBe(1);
  });

  it('moves PENDING to FAILED with its failure code and no transaction', async () => {
    start();
    const created = await client.chargeCard('4389783280144506');
    sandbox.payments.settleCharge(created.body.chargeId, { status: 'FAILED', failureCode: 'CH_AUTHENTICATION_FAILED' });
    expect(() => sandbox.payments.settleCharge(created.body.chargeId, { status: 'SUCCEEDED' })).toThrow(/already FAILED/);
    expect((await client.getCharge(created.body.chargeId)).failureCode).toBe('CH_AUTHENTICATION_FAILED');
    expect((await client.get('/api/v1/transactions')).body.totalCount).toBe(0);
  });
});

describe('a charge as GET, the list and the webhooks show it', () => {
  const NO_CUSTOMER = {
    primaryPhone: { countryCode: '', number: '' },
    email: '',
    deliveryAddress: { contactName: '', phone: { countryCode: '', number: '' }, address: { streetAddress: '', city: '', country: '', postCode: '' } },
  };

  /** A sandbox whose webhooks are acknowledged, so their bodies can be read from its deliveries. */
  function startWithWebhooks() {
    start({
      webhook: { url: 'http://127.0.0.1:9/webhooks', webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64, fetch: () => Promise.resolve(new Response(null, { status: 204 })) },
    });
  }

  async function webhookBody(event: string, chargeId: string): Promise<unknown> {
    await sandbox.webhooks.idle();
    const delivery = sandbox.webhooks.list().find((d) => d.event === event && d.resourceId === chargeId);
    if (!delivery) throw new Error(`no ${event} webhook for ${chargeId}`);
    return JSON.parse(delivery.body);
  }

  /** The charge as the raw JSON of GET, of the list (filtered by its reference) and of `event`'s webhook. */
  async function threeWays(chargeId: string, referenceId: string, event: string) {
    const got = await client.getCharge(chargeId);
    const listed = (await client.get(`/api/v1/charges?referenceId=${referenceId}`)).body.data.find((c: { chargeId: string }) => c.chargeId === chargeId);
    return { got, listed, hooked: await webhookBody(event, chargeId) };
  }

  it('writes every member of an API charge: sourceId "", failureCode "", the customer all "", every method member null but the card', async () => {
    startWithWebhooks();
    const created = await client.chargeCard('4111111111111111', { referenceId: 'shape-1' });
    const { got, listed, hooked } = await threeWays(created.body.chargeId, 'shape-1', 'charge.succeeded');
    expect(got).toMatchObject({ status: 'SUCCEEDED', source: 'API', sourceId: '', failureCode: '', customer: NO_CUSTOMER });
    expect(Object.keys(got.paymentMethod).sort()).toEqual(['paymentMethodType', ...PAYMENT_METHOD_RESPONSE_MEMBERS].sort());
    for (const member of PAYMENT_METHOD_RESPONSE_MEMBERS) {
      if (member === 'card') expect(got.paymentMethod.card).toMatchObject({ last4: '1111', brand: 'VISA' });
      else expect(got.paymentMethod[member], member).toBeNull();
    }
    // The list and the webhook carry the same object, member for member, in the raw JSON.
    expect(listed).toEqual(got);
    expect(hooked).toEqual(got);
  });

  it('writes the customer given at creation, in the service shape, without its billing address', async () => {
    startWithWebhooks();
    const customer = {
      email: 'somchai@example.com',
      primaryPhone: { countryCode: '66', number: '812345678' },
      deliveryAddress: {
        contactName: 'Somchai Jaidee',
        phone: { countryCode: '66', number: '898765432' },
        address: { streetAddress: '99 Sukhumvit Rd', city: 'Bangkok', country: 'THA', postCode: '10110' },
      },
      billingAddress: { streetAddress: '1 Silom Rd', city: 'Bangkok', country: 'THA', postCode: '10500' },
    };
    const created = await client.chargeCard('4111111111111111', { referenceId: 'shape-2', customer });
    const { got, listed, hooked } = await threeWays(created.body.chargeId, 'shape-2', 'charge.succeeded');
    const { billingAddress, ...shown } = customer;
    expect(got.customer).toEqual(shown);
    expect(listed.customer).toEqual(shown);
    expect((hooked as { customer: unknown }).customer).toEqual(shown);
  });

  it('fills what a partial customer leaves out with "", never null', async () => {
    start();
    const created = await client.chargeCard('4111111111111111', { customer: { email: 'somchai@example.com', deliveryAddress: { address: { city: 'Chiang Mai' } } } });
    expect((await client.getCharge(created.body.chargeId)).customer).toEqual({
      primaryPhone: { countryCode: '', number: '' },
      email: 'somchai@example.com',
      deliveryAddress: { contactName: '', phone: { countryCode: '', number: '' }, address: { streetAddress: '', city: 'Chiang Mai', country: '', postCode: '' } },
    });
  });

  it('writes the failure code of a failed charge, and the same shape in charge.failed', async () => {
    startWithWebhooks();
    const created = await client.chargeCard('4943129900084541', { referenceId: 'shape-3' });
    const { got, listed, hooked } = await threeWays(created.body.chargeId, 'shape-3', 'charge.failed');
    expect(got).toMatchObject({ status: 'FAILED', failureCode: 'CH_INSUFFICIENT_FUNDS', sourceId: '', customer: NO_CUSTOMER });
    expect(listed).toEqual(got);
    expect(hooked).toEqual(got);
  });

  it('writes a pending charge the same way: failureCode "" until it settles', async () => {
    start();
    const created = await createQrCharge(client);
    const charge = await client.getCharge(created.chargeId);
    expect(charge).toMatchObject({ status: 'PENDING', sourceId: '', failureCode: '', customer: NO_CUSTOMER });
    const filled = PAYMENT_METHOD_RESPONSE_MEMBERS.filter((member) => charge.paymentMethod[member] !== null);
    expect(filled).toEqual(['qrPromptPay']);
    expect(Object.keys(charge.paymentMethod)).toHaveLength(PAYMENT_METHOD_RESPONSE_MEMBERS.length + 1);
  });

  it('gives a SPAY_LATER charge its own member and every other member null', async () => {
    start();
    const created = await client.createCharge({ paymentMethod: { paymentMethodType: 'SPAY_LATER', sPayLater: {} } });
    const charge = await client.getCharge(created.body.chargeId);
    expect(PAYMENT_METHOD_RESPONSE_MEMBERS.filter((member) => charge.paymentMethod[member] !== null)).toEqual(['sPayLater']);
  });

  it('records the API charge’s sourceId "" on its transaction', async () => {
    start();
    const created = await client.chargeCard('4111111111111111');
    const transaction = (await client.get(`/api/v1/transactions/${created.body.chargeId}`)).body;
    expect(transaction).toMatchObject({ chargeSource: 'API', sourceId: '' });
  });

  it('reads back through ChargeSchema unchanged', async () => {
    start();
    const created = await client.chargeCard('4111111111111111', { customer: { email: 'somchai@example.com' } });
    const raw = await client.getCharge(created.body.chargeId);
    expect(ChargeSchema.parse(raw)).toEqual(raw);
  });
});

describe('network tokens (CARD_NETWORK_TOKEN)', () => {
  const CRYPTOGRAM = 'AAECAwQFBgcICQoLDA0ODxAREhM=';
  const TOKEN_NUMBER = '4111111111111111';
  const networkToken = (fields: Record<string, unknown> = {}) => ({
    number: TOKEN_NUMBER,
    cryptogram: CRYPTOGRAM,
    cardHolderName: 'Somchai Jaidee',
    expiryMonth: 12,
    expiryYear: FUTURE_EXPIRY_YEAR,
    first8: '45396202',
    last4: '0042',
    initiatorType: 'CUSTOMER',
    ...fields,
  });
  const chargeToken = (cardNetworkToken: Record<string, unknown>, fields: Record<string, unknown> = {}) =>
    client.createCharge({ paymentMethod: { paymentMethodType: 'CARD_NETWORK_TOKEN', cardNetworkToken }, ...fields });

  it('charges the token as its test card, with no security code, and shows the card’s digits, never the token number or cryptogram', async () => {
    start();
    const created = await chargeToken(networkToken());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ paymentMethodType: 'CARD_NETWORK_TOKEN', actionRequired: 'NONE' });
    const charge = await client.getCharge(created.body.chargeId);
    expect(charge.status).toBe('SUCCEEDED');
    expect(charge.paymentMethod.paymentMethodType).toBe('CARD_NETWORK_TOKEN');
    expect(charge.paymentMethod.card).toBeNull();
    expect(charge.paymentMethod.cardNetworkToken).toEqual({
      first8: '45396202',
      last4: '0042',
      brand: 'VISA',
      countryAlpha2: 'US',
      cardHolderName: 'Somchai Jaidee',
      expiryMonth: 12,
      expiryYear: FUTURE_EXPIRY_YEAR,
      initiatorType: 'CUSTOMER',
      iso8583ResponseCode: '00',
      merchantAdviceCode: null,
      networkTransactionId: expect.stringMatching(/^\d{15}$/),
    });
    expect(JSON.stringify(charge)).not.toContain(TOKEN_NUMBER);
    expect(JSON.stringify(charge)).not.toContain(CRYPTOGRAM);
  });

  it('takes an empty cryptogram, as the playground does, and a merchant-initiated payment', async () => {
    start();
    const created = await chargeToken(networkToken({ cryptogram: '', initiatorType: 'MERCHANT' }), { initiatorType: 'MERCHANT', networkTransactionId: '123456789012345' });
    expect(created.status).toBe(201);
    const charge = await client.getCharge(created.body.chargeId);
    expect(charge.status).toBe('SUCCEEDED');
    expect(charge.paymentMethod.cardNetworkToken.initiatorType).toBe('MERCHANT');
  });

  it('fails as its test card does', async () => {
    start();
    const created = await chargeToken(networkToken({ number: '4943129900084541' }));
    expect(await client.getCharge(created.body.chargeId)).toMatchObject({ status: 'FAILED', failureCode: 'CH_INSUFFICIENT_FUNDS' });
  });

  it('ignores members the service does not know, as every request object does', async () => {
    start();
    const created = await chargeToken(networkToken({ eci: '05' }));
    expect(created.status).toBe(201);
    expect(JSON.stringify(await client.getCharge(created.body.chargeId))).not.toContain('eci');
  });

  it('refuses the tokenNumber and eci shape with 400 naming each member it lacks, and makes no charge', async () => {
    start();
    const answer = await chargeToken({ tokenNumber: TOKEN_NUMBER, expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cryptogram: CRYPTOGRAM, eci: '05' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.errorCode).toBe('API_VALIDATION_ERROR');
    for (const member of ['number', 'cardHolderName', 'first8', 'last4', 'initiatorType']) {
      expect(answer.body.message).toContain(`paymentMethod.cardNetworkToken.${member} is required`);
    }
    expect((await client.get('/api/v1/charges')).body.totalCount).toBe(0);
  });

  it.each([
    ['an initiatorType that is neither CUSTOMER nor MERCHANT', { initiatorType: 'ROBOT' }, 'paymentMethod.cardNetworkToken.initiatorType must be CUSTOMER or MERCHANT'],
    ['no cryptogram at all', { cryptogram: undefined }, 'paymentMethod.cardNetworkToken.cryptogram is required'],
    ['a last4 of three digits', { last4: '042' }, 'paymentMethod.cardNetworkToken.last4 must be 4 digits'],
    ['an expiry month of 0', { expiryMonth: 0 }, 'paymentMethod.cardNetworkToken.expiryMonth must be from 1 to 12'],
  ])('refuses %s, naming the member', async (_what, change, message) => {
    start();
    const answer = await chargeToken(networkToken(change));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain(message);
  });
});
