import { describe, expect, it } from 'vitest';
import { ChargeSchema, CreateChargeResponseSchema } from '../../../src/core/schemas/charge.js';
import { PAYMENT_METHOD_RESPONSE_MEMBERS } from '../../../src/core/schemas/payment-method.js';
import { RefundSchema } from '../../../src/core/schemas/refund.js';
import { TransactionSchema } from '../../../src/core/schemas/transaction.js';
import { readEmvField, readPromptPayAmountSatang, verifyEmvCrc } from '../../../src/core/emv-qr.js';
import { SANDBOX_DEFAULT_QR_EXPIRY_MS, SANDBOX_DEFAULTS, SANDBOX_TEST_CARDS, type SandboxOptions } from '../../../src/sandbox/index.js';
import { scanQrPngBase64 } from '../../support/scan-qr.js';
import { createQrCharge } from '../../support/qr-charge.js';
import { FUTURE_EXPIRY_YEAR, type SandboxClient } from '../../support/sandbox-client.js';
import { sandboxTest } from '../../support/sandbox-fixture.js';




describe('card tokens', () => {
  sandboxTest('answers 201 with a ctk_ id and no card data', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await client.post('/client/v1/card-tokens', { pan: '4111111111111111', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'A' });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ id: expect.stringMatching(/^ctk_[A-Za-z0-9]{24}$/) });
  });

  sandboxTest('refuses a number that fails Luhn, naming the field', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await client.post('/client/v1/card-tokens', { pan: '4111111111111112', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'A' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.errorCode).toBe('API_VALIDATION_ERROR');
    expect(answer.body.message).toContain('pan is not a valid card number');
  });

  sandboxTest('refuses an expired card', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const lastYear = (new Date().getUTCFullYear() - 1) % 100;
    const answer = await client.post('/client/v1/card-tokens', { pan: '4111111111111111', expiryMonth: 12, expiryYear: lastYear, cardHolderName: 'A' });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('expired');
  });

  sandboxTest('can be charged once only', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const cardTokenId = await client.tokenize('4111111111111111');
    const method = { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } };
    expect((await client.createCharge({ paymentMethod: method })).status).toBe(201);
    const second = await client.createCharge({ paymentMethod: method });
    expect(second.status).toBe(400);
    expect(second.body.message).toContain('paymentMethod.cardToken.cardTokenId has already been used');
  });

  sandboxTest('expires after 30 minutes', async ({ startInProcess }) => {
    let now = Date.now();
    const { client } = startInProcess({ refundSettleDelayMs: 0, now: () => new Date(now) });
    const cardTokenId = await client.tokenize('4111111111111111');
    now += 31 * 60 * 1000;
    const answer = await client.createCharge({ paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('has expired');
  });

  sandboxTest('belongs to the merchant that created it', async ({ startInProcess }) => {
    const { client } = startInProcess({
      refundSettleDelayMs: 0,
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
    sandboxTest(`${pan} reads ${status}${failureCode ? ` ${failureCode}` : ''} with action ${action}`, async ({ startInProcess }) => {
      const { client } = startInProcess({ refundSettleDelayMs: 0 });
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

  sandboxTest('behaves the same through CARD with the card details', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const created = await client.createCharge({
      paymentMethod: { paymentMethodType: 'CARD', card: { pan: '4943129900084541', expiryMonth: 1, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'A', securityCode: '123' } },
    });
    expect((await client.getCharge(created.body.chargeId)).failureCode).toBe('CH_INSUFFICIENT_FUNDS');
  });

  sandboxTest('asks for the security code unless the merchant may omit it', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const cardTokenId = await client.tokenize('4111111111111111');
    const answer = await client.createCharge({ paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId } } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('paymentMethod.cardToken.securityCode is required');
  });

  sandboxTest('wants four digits of CVC on Amex', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const cardTokenId = await client.tokenize('378282246310005');
    const answer = await client.createCharge({ paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('must be 4 digits for a AMEX card');
  });

  sandboxTest('skips 3-D Secure only for a merchant allowed to', async ({ startInProcess }) => {
    let { client } = startInProcess({ refundSettleDelayMs: 0, merchants: [{ merchantId: 'mch_sandbox', apiKey: 'sk_sandbox_0000000000000000000000', publishableKey: 'pk_sandbox_0000000000000000000000', canSkip3ds: true }] });
    const skipped = await client.chargeCard('4953261730509988', { skip3dsFlow: true });
    expect(skipped.body.actionRequired).toBe('NONE');
    expect((await client.getCharge(skipped.body.chargeId)).status).toBe('SUCCEEDED');
    ({ client } = startInProcess({ refundSettleDelayMs: 0 }));
    const notSkipped = await client.chargeCard('4953261730509988', { skip3dsFlow: true });
    expect(notSkipped.body.actionRequired).toBe('REDIRECT');
  });
});

describe('installments', () => {
  const installment = async (client: SandboxClient, pan: string, amount: number, installmentPeriod: number) => {
    const cardTokenId = await client.tokenize(pan);
    return client.createCharge({ amount, paymentMethod: { paymentMethodType: 'CARD_TOKEN_INSTALLMENTS', cardTokenInstallments: { cardTokenId, securityCode: '123', installmentPeriod } } });
  };

  sandboxTest('succeeds with the KBANK card and reads back as CARD_INSTALLMENTS with its period', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const created = await installment(client, '4417704002802961', 300_000, 3);
    const charge = await client.getCharge(created.body.chargeId);
    expect(charge.status).toBe('SUCCEEDED');
    expect(charge.paymentMethod.paymentMethodType).toBe('CARD_INSTALLMENTS');
    expect(charge.paymentMethod.cardInstallments).toMatchObject({ last4: '2961', installmentPeriod: 3 });
  });

  sandboxTest('redirects the KTC card to the OTP page', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const created = await installment(client, '4391370000000006', 500_000, 10);
    expect(created.body.actionRequired).toBe('REDIRECT');
    expect(created.body.redirect.redirectUrl).toMatch(/\/sandbox\/pages\/otp\/ch_/);
  });

  const minimums: [number, number][] = [[3, 300_000], [4, 300_000], [6, 400_000], [10, 500_000]];
  for (const [period, minimum] of minimums) {
    sandboxTest(`refuses ${period} months below ${minimum / 100} THB and accepts it at the minimum`, async ({ startInProcess }) => {
      const { client } = startInProcess({ refundSettleDelayMs: 0 });
      const below = await installment(client, '4417704002802961', minimum - 1, period);
      expect(below.status).toBe(400);
      expect(below.body.message).toContain(`installmentPeriod of ${period} months needs an amount of at least ${minimum}`);
      expect((await installment(client, '4417704002802961', minimum, period)).status).toBe(201);
    });
  }

  sandboxTest('refuses a period that does not exist', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await installment(client, '4417704002802961', 600_000, 5);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('installmentPeriod must be 3, 4, 6 or 10');
  });

  sandboxTest('works through CARD_INSTALLMENTS with the card details', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const created = await client.createCharge({
      amount: 400_000,
      paymentMethod: { paymentMethodType: 'CARD_INSTALLMENTS', cardInstallments: { pan: '4417704002802961', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'A', securityCode: '123', installmentPeriod: 6 } },
    });
    expect((await client.getCharge(created.body.chargeId)).status).toBe('SUCCEEDED');
  });
});

describe('QR PromptPay', () => {
  sandboxTest('answers ENCODED_IMAGE with a valid Thai QR payload carrying the amount, and its PNG', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const created = await createQrCharge(client, { amount: 12_345 });
    const { encodedImage } = CreateChargeResponseSchema.parse(created.body);
    expect(created.body.actionRequired).toBe('ENCODED_IMAGE');
    expect(verifyEmvCrc(encodedImage!.rawData)).toBe(true);
    expect(readEmvField(encodedImage!.rawData, '54')).toBe('123.45');
    expect(readPromptPayAmountSatang(encodedImage!.rawData)).toBe(12_345);
    expect(scanQrPngBase64(encodedImage!.imageBase64Encoded)).toBe(encodedImage!.rawData);
  });

  sandboxTest('expires after the documented default, or at qrPromptPay.expiryTime, or at expiresAt', async ({ startInProcess }) => {
    const now = new Date('2030-01-01T00:00:00Z');
    const { client } = startInProcess({ refundSettleDelayMs: 0, now: () => now });
    const byDefault = await client.createCharge({ paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY' } });
    expect(Date.parse(byDefault.body.encodedImage.expiry)).toBe(now.getTime() + SANDBOX_DEFAULT_QR_EXPIRY_MS);
    const custom = await client.createCharge({ paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY', qrPromptPay: { expiryTime: '2030-01-01T00:05:00Z' } } });
    expect(custom.body.encodedImage.expiry).toBe('2030-01-01T00:05:00.000Z');
    const alias = await client.createCharge({ paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY', qrPromptPay: { expiresAt: '2030-01-01T00:07:00+00:00' } } });
    expect(alias.body.encodedImage.expiry).toBe('2030-01-01T00:07:00.000Z');
  });

  sandboxTest('refuses an expiry in the past', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await client.createCharge({ paymentMethod: { paymentMethodType: 'QR_PROMPT_PAY', qrPromptPay: { expiryTime: '2001-01-01T00:00:00Z' } } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('paymentMethod.qrPromptPay.expiryTime must be between 1 minute and 24 hours from now');
  });

  sandboxTest('stays PENDING after its expiry', async ({ startInProcess }) => {
    let now = Date.now();
    const { client } = startInProcess({ refundSettleDelayMs: 0, now: () => new Date(now) });
    const created = await createQrCharge(client);
    now += SANDBOX_DEFAULT_QR_EXPIRY_MS + 1;
    expect((await client.getCharge(created.chargeId)).status).toBe('PENDING');
  });
});

describe('e-wallets and mobile banking', () => {
  const redirecting = ['ALIPAY', 'LINE_PAY', 'SHOPEE_PAY', 'TRUE_MONEY', 'WECHAT_PAY', 'KPLUS', 'SCB_EASY', 'MAKE', 'SPAY_LATER'];
  for (const type of redirecting) {
    sandboxTest(`${type} redirects to the sandbox authorize page and reads back with its member`, async ({ startInProcess }) => {
      const { client } = startInProcess({ refundSettleDelayMs: 0 });
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
    sandboxTest(`${type} needs deviceType ANDROID or IOS`, async ({ startInProcess }) => {
      const { client } = startInProcess({ refundSettleDelayMs: 0 });
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

  sandboxTest('refuses ALIPAY_PLUS, which only bolt intents create', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await client.createCharge({ paymentMethod: { paymentMethodType: 'ALIPAY_PLUS', alipayPlus: {} } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('inputs are failing validation; paymentMethod.paymentMethodType payment method is not supported');
  });

  sandboxTest('refuses card-only fields on other methods', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await client.createCharge({ initiatorType: 'CUSTOMER', paymentMethod: { paymentMethodType: 'ALIPAY' } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('initiatorType only applies to CARD');
  });
});

describe('listing charges', () => {
  sandboxTest('answers {data, totalCount}, newest first, filtered and paged', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
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

  sandboxTest('refuses a bad limit, offset or source, naming it', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    for (const [query, field] of [['limit=0', 'limit'], ['limit=101', 'limit'], ['limit=x', 'limit'], ['offset=-1', 'offset'], ['source_in=SHOP', 'source_in']]) {
      const answer = await client.get(`/api/v1/charges?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.message, query).toContain(`${field} must`);
    }
  });

  sandboxTest('shows a merchant only its own charges', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0, merchants: [{ merchantId: 'm1', apiKey: 'sk1', publishableKey: 'pk1' }, { merchantId: 'm2', apiKey: 'sk2', publishableKey: 'pk2' }] });
    const created = await client.post('/api/v1/charges', { amount: 100, currency: 'THB', referenceId: 'r', paymentMethod: { paymentMethodType: 'ALIPAY' } }, { auth: `Basic ${btoa('m1:sk1')}` });
    const asOther = await client.get(`/api/v1/charges/${created.body.chargeId}`, { auth: `Basic ${btoa('m2:sk2')}` });
    expect(asOther.status).toBe(404);
    expect((await client.get('/api/v1/charges', { auth: `Basic ${btoa('m2:sk2')}` })).body.totalCount).toBe(0);
  });
});

describe('transactions', () => {
  sandboxTest('records one PAYMENT per succeeded charge with the RATE fee and VAT on the fee', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const created = await client.chargeCard('4111111111111111', { amount: 100_000 });
    const transaction = TransactionSchema.parse((await client.get(`/api/v1/transactions/${created.body.chargeId}`)).body);
    // card: 2.95% of 1,000.00 = 29.50; VAT 7% of the fee = 2.07 (2.065 rounded half up).
    expect(transaction).toMatchObject({ transactionType: 'PAYMENT', grossAmount: 100_000, feeAmount: 2_950, vatAmount: 207, netAmount: 96_843, feeStrategy: 'RATE', chargeSource: 'API' });
    const list = await client.get('/api/v1/transactions');
    expect(list.body.totalCount).toBe(1);
  });

  sandboxTest('records nothing for a failed or pending charge', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    await client.chargeCard('4943129900084541');
    await client.chargeCard('4953261730509988');
    expect((await client.get('/api/v1/transactions')).body.totalCount).toBe(0);
  });
});

describe('refunds', () => {
  const refund = (client: SandboxClient, body: Record<string, unknown>) => client.post('/api/v1/refunds', body);
  const settled = async (client: SandboxClient, refundId: string) => {
    await expect.poll(async () => (await client.get(`/api/v1/refunds/${refundId}`)).body.status, { timeout: 5_000 }).not.toBe('PENDING');
    return RefundSchema.parse((await client.get(`/api/v1/refunds/${refundId}`)).body);
  };

  sandboxTest('refunds a card charge in full and records a REFUND transaction', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const { body } = await client.chargeCard('4111111111111111');
    const created = await refund(client, { chargeId: body.chargeId, reason: 'customer request' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ refundId: expect.stringMatching(/^re_/) });
    const done = await settled(client, created.body.refundId);
    expect(done).toMatchObject({ status: 'SUCCEEDED', amount: 10_000, chargeId: body.chargeId, refundReason: 'customer request' });
    const transaction = (await client.get(`/api/v1/transactions/${created.body.refundId}`)).body;
    expect(transaction).toMatchObject({ transactionType: 'REFUND', grossAmount: 10_000 });
    const again = await refund(client, { chargeId: body.chargeId });
    expect(again.status).toBe(409);
  });

  sandboxTest('refunds a CARD charge in parts, never past its amount', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const { body } = await client.chargeCard('4111111111111111');
    await settled(client, (await refund(client, { chargeId: body.chargeId, amount: 4_000 })).body.refundId);
    const tooMuch = await refund(client, { chargeId: body.chargeId, amount: 6_001 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.message).toContain('amount must be at most 6000');
    expect((await settled(client, (await refund(client, { chargeId: body.chargeId })).body.refundId)).amount).toBe(6_000);
  });

  sandboxTest('refuses a partial refund of a non-card charge', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const created = await client.createCharge({ paymentMethod: { paymentMethodType: 'ALIPAY' } });
    sandbox.payments.settleCharge(created.body.chargeId, { status: 'SUCCEEDED' });
    const partial = await refund(client, { chargeId: created.body.chargeId, amount: 5_000 });
    expect(partial.status).toBe(400);
    expect(partial.body.message).toContain('partial refunds are only possible for CARD charges');
    expect((await refund(client, { chargeId: created.body.chargeId })).status).toBe(201);
  });

  sandboxTest('answers 422 CHARGE_PENDING for a pending charge, 403 for a failed one, 404 for an unknown one', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const pending = await client.chargeCard('4953261730509988');
    expect((await refund(client, { chargeId: pending.body.chargeId })).body.error.errorCode).toBe('CHARGE_PENDING');
    const failed = await client.chargeCard('4943129900084541');
    expect((await refund(client, { chargeId: failed.body.chargeId })).status).toBe(403);
    expect((await refund(client, { chargeId: 'ch_unknown' })).status).toBe(404);
  });

  sandboxTest('answers 422 REFUND_PENDING while an earlier refund is pending', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 60_000 });
    const { body } = await client.chargeCard('4111111111111111');
    expect((await refund(client, { chargeId: body.chargeId, amount: 100 })).status).toBe(201);
    const second = await refund(client, { chargeId: body.chargeId, amount: 100 });
    expect(second.status).toBe(422);
    expect(second.body.error.errorCode).toBe('REFUND_PENDING');
  });

  sandboxTest('refuses refunds of 4000007640000003 and fails those of 4000000000005126', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const refused = await client.chargeCard('4000007640000003');
    const answer = await refund(client, { chargeId: refused.body.chargeId });
    expect(answer.status).toBe(403);
    expect(answer.body.error.errorCode).toBe('OPERATION_NOT_ALLOWED_ERROR');
    const failing = await client.chargeCard('4000000000005126');
    const failed = await settled(client, (await refund(client, { chargeId: failing.body.chargeId })).body.refundId);
    expect(failed.status).toBe('FAILED');
    expect(failed.failureCode).not.toBe('');
    expect((await client.get('/api/v1/transactions')).body.data.filter((t: { transactionType: string }) => t.transactionType === 'REFUND')).toHaveLength(0);
  });
});

describe('the charge state machine', () => {
  sandboxTest('moves PENDING to SUCCEEDED once and refuses any later move', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
    const created = await client.chargeCard('4389783280144506');
    sandbox.payments.settleCharge(created.body.chargeId, { status: 'SUCCEEDED' });
    expect(() => sandbox.payments.settleCharge(created.body.chargeId, { status: 'FAILED', failureCode: 'CH_PROCESSING_FAILED' })).toThrow(/already SUCCEEDED/);
    expect(() => sandbox.payments.settleCharge(created.body.chargeId, { status: 'SUCCEEDED' })).toThrow(/already SUCCEEDED/);
    const charge = await client.getCharge(created.body.chargeId);
    expect(charge.status).toBe('SUCCEEDED');
    expect(charge.transactionTime).toBe(charge.updatedAt);
    expect((await client.get('/api/v1/transactions')).body.totalCount).toBe(1);
  });

  sandboxTest('moves PENDING to FAILED with its failure code and no transaction', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ refundSettleDelayMs: 0 });
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

  /** Options for a sandbox whose webhooks are acknowledged, so their bodies can be read from its deliveries. */
  const WITH_WEBHOOKS: SandboxOptions = {
    refundSettleDelayMs: 0,
    webhook: { url: 'http://127.0.0.1:9/webhooks', webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64, fetch: () => Promise.resolve(new Response(null, { status: 204 })) },
  };

  async function webhookBody(client: SandboxClient, event: string, chargeId: string): Promise<unknown> {
    const { sandbox } = client;
    await sandbox.webhooks.idle();
    const delivery = sandbox.webhooks.list().find((d) => d.event === event && d.resourceId === chargeId);
    if (!delivery) throw new Error(`no ${event} webhook for ${chargeId}`);
    return JSON.parse(delivery.body);
  }

  /** The charge as the raw JSON of GET, of the list (filtered by its reference) and of `event`'s webhook. */
  async function threeWays(client: SandboxClient, chargeId: string, referenceId: string, event: string) {
    const got = await client.getCharge(chargeId);
    const listed = (await client.get(`/api/v1/charges?referenceId=${referenceId}`)).body.data.find((c: { chargeId: string }) => c.chargeId === chargeId);
    return { got, listed, hooked: await webhookBody(client, event, chargeId) };
  }

  sandboxTest('writes every member of an API charge: sourceId "", failureCode "", the customer all "", every method member null but the card', async ({ startInProcess }) => {
    const { client } = startInProcess(WITH_WEBHOOKS);
    const created = await client.chargeCard('4111111111111111', { referenceId: 'shape-1' });
    const { got, listed, hooked } = await threeWays(client, created.body.chargeId, 'shape-1', 'charge.succeeded');
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

  sandboxTest('writes the customer given at creation, in the service shape, without its billing address', async ({ startInProcess }) => {
    const { client } = startInProcess(WITH_WEBHOOKS);
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
    const { got, listed, hooked } = await threeWays(client, created.body.chargeId, 'shape-2', 'charge.succeeded');
    const { billingAddress, ...shown } = customer;
    expect(got.customer).toEqual(shown);
    expect(listed.customer).toEqual(shown);
    expect((hooked as { customer: unknown }).customer).toEqual(shown);
  });

  sandboxTest('fills what a partial customer leaves out with "", never null', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const created = await client.chargeCard('4111111111111111', { customer: { email: 'somchai@example.com', deliveryAddress: { address: { city: 'Chiang Mai' } } } });
    expect((await client.getCharge(created.body.chargeId)).customer).toEqual({
      primaryPhone: { countryCode: '', number: '' },
      email: 'somchai@example.com',
      deliveryAddress: { contactName: '', phone: { countryCode: '', number: '' }, address: { streetAddress: '', city: 'Chiang Mai', country: '', postCode: '' } },
    });
  });

  sandboxTest('writes the failure code of a failed charge, and the same shape in charge.failed', async ({ startInProcess }) => {
    const { client } = startInProcess(WITH_WEBHOOKS);
    const created = await client.chargeCard('4943129900084541', { referenceId: 'shape-3' });
    const { got, listed, hooked } = await threeWays(client, created.body.chargeId, 'shape-3', 'charge.failed');
    expect(got).toMatchObject({ status: 'FAILED', failureCode: 'CH_INSUFFICIENT_FUNDS', sourceId: '', customer: NO_CUSTOMER });
    expect(listed).toEqual(got);
    expect(hooked).toEqual(got);
  });

  sandboxTest('writes a pending charge the same way: failureCode "" until it settles', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const created = await createQrCharge(client);
    const charge = await client.getCharge(created.chargeId);
    expect(charge).toMatchObject({ status: 'PENDING', sourceId: '', failureCode: '', customer: NO_CUSTOMER });
    const filled = PAYMENT_METHOD_RESPONSE_MEMBERS.filter((member) => charge.paymentMethod[member] !== null);
    expect(filled).toEqual(['qrPromptPay']);
    expect(Object.keys(charge.paymentMethod)).toHaveLength(PAYMENT_METHOD_RESPONSE_MEMBERS.length + 1);
  });

  sandboxTest('gives a SPAY_LATER charge its own member and every other member null', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const created = await client.createCharge({ paymentMethod: { paymentMethodType: 'SPAY_LATER', sPayLater: {} } });
    const charge = await client.getCharge(created.body.chargeId);
    expect(PAYMENT_METHOD_RESPONSE_MEMBERS.filter((member) => charge.paymentMethod[member] !== null)).toEqual(['sPayLater']);
  });

  sandboxTest('records the API charge’s sourceId "" on its transaction', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const created = await client.chargeCard('4111111111111111');
    const transaction = (await client.get(`/api/v1/transactions/${created.body.chargeId}`)).body;
    expect(transaction).toMatchObject({ chargeSource: 'API', sourceId: '' });
  });

  sandboxTest('reads back through ChargeSchema unchanged', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
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
  const chargeToken = (client: SandboxClient, cardNetworkToken: Record<string, unknown>, fields: Record<string, unknown> = {}) =>
    client.createCharge({ paymentMethod: { paymentMethodType: 'CARD_NETWORK_TOKEN', cardNetworkToken }, ...fields });

  sandboxTest('charges the token as its test card, with no security code, and shows the card’s digits, never the token number or cryptogram', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const created = await chargeToken(client, networkToken());
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

  sandboxTest('takes an empty cryptogram, as the playground does, and a merchant-initiated payment', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const created = await chargeToken(client, networkToken({ cryptogram: '', initiatorType: 'MERCHANT' }), { initiatorType: 'MERCHANT', networkTransactionId: '123456789012345' });
    expect(created.status).toBe(201);
    const charge = await client.getCharge(created.body.chargeId);
    expect(charge.status).toBe('SUCCEEDED');
    expect(charge.paymentMethod.cardNetworkToken.initiatorType).toBe('MERCHANT');
  });

  sandboxTest('fails as its test card does', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const created = await chargeToken(client, networkToken({ number: '4943129900084541' }));
    expect(await client.getCharge(created.body.chargeId)).toMatchObject({ status: 'FAILED', failureCode: 'CH_INSUFFICIENT_FUNDS' });
  });

  sandboxTest('ignores members the service does not know, as every request object does', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const created = await chargeToken(client, networkToken({ eci: '05' }));
    expect(created.status).toBe(201);
    expect(JSON.stringify(await client.getCharge(created.body.chargeId))).not.toContain('eci');
  });

  sandboxTest('refuses the tokenNumber and eci shape with 400 naming each member it lacks, and makes no charge', async ({ startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await chargeToken(client, { tokenNumber: TOKEN_NUMBER, expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cryptogram: CRYPTOGRAM, eci: '05' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.errorCode).toBe('API_VALIDATION_ERROR');
    for (const member of ['number', 'cardHolderName', 'first8', 'last4', 'initiatorType']) {
      expect(answer.body.message).toContain(`paymentMethod.cardNetworkToken.${member} is required`);
    }
    expect((await client.get('/api/v1/charges')).body.totalCount).toBe(0);
  });

  sandboxTest.for<[string, Record<string, unknown>, string]>([
    ['an initiatorType that is neither CUSTOMER nor MERCHANT', { initiatorType: 'ROBOT' }, 'paymentMethod.cardNetworkToken.initiatorType must be CUSTOMER or MERCHANT'],
    ['no cryptogram at all', { cryptogram: undefined }, 'paymentMethod.cardNetworkToken.cryptogram is required'],
    ['a last4 of three digits', { last4: '042' }, 'paymentMethod.cardNetworkToken.last4 must be 4 digits'],
    ['an expiry month of 0', { expiryMonth: 0 }, 'paymentMethod.cardNetworkToken.expiryMonth must be from 1 to 12'],
  ])('refuses %s, naming the member', async ([, change, message], { startInProcess }) => {
    const { client } = startInProcess({ refundSettleDelayMs: 0 });
    const answer = await chargeToken(client, networkToken(change));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain(message);
  });
});
