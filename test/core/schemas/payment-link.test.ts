import { describe, expect, it } from 'vitest';
import {
  CreatePaymentLinkRequestSchema,
  CreatePaymentLinkResponseSchema,
  LinkSettingsSchema,
  PaymentLinkSchema,
  PaymentLinkStatusSchema,
} from '../../../src/core/schemas/payment-link.js';

const linkSettings = {
  buyNowPayLater: { isEnabled: false },
  card: { isEnabled: true },
  cardInstallments: {
    isEnabled: true,
    installments3m: { isEnabled: true },
    installments4m: { isEnabled: false },
    installments6m: { isEnabled: true },
    installments10m: { isEnabled: false },
  },
  qrPromptPay: { isEnabled: true },
  eWallets: { isEnabled: true },
  mobileBanking: { isEnabled: false },
};

const paymentLink = {
  paymentLinkId: 'pl_9HsT2qLm4Vx7Nc1Rb8Kd3Wp',
  merchantId: 'mch_sandbox',
  url: 'https://pay.example.test/pl_9HsT2qLm4Vx7Nc1Rb8Kd3Wp',
  status: 'PAID',
  order: {
    netAmount: 159_000,
    currency: 'THB',
    description: 'Ceramic tea set',
    referenceId: 'order-2001',
    internalNote: '',
    orderItems: [
      {
        itemName: 'Tea pot',
        description: 'Celadon, 600 ml',
        imageUrl: 'https://shop.example.test/teapot.png',
        price: 99_000,
        productId: 'p-1',
        quantity: 1,
        sku: 'TP-600',
      },
      { itemName: 'Cup', price: 15_000, quantity: 4 },
    ],
  },
  linkSettings,
  collectDeliveryAddress: true,
  collectPhoneNumber: false,
  redirectUrl: 'https://shop.example.test/thanks',
  cancelUrl: 'https://shop.example.test/cart',
  expiresAt: '2025-04-01T00:00:00+07:00',
  feeType: 'TRANSACTION_FEE',
  createdAt: '2025-03-14T09:00:00Z',
  updatedAt: '2025-03-14T09:26:54Z',
};

const createRequest = {
  order: {
    netAmount: 159_000,
    currency: 'THB',
    description: 'Ceramic tea set',
    referenceId: 'order-2001',
    orderItems: [{ itemName: 'Tea pot', price: 99_000, quantity: 1, imageUrl: 'https://shop.example.test/teapot.png' }],
  },
  linkSettings: { card: { isEnabled: true }, qrPromptPay: { isEnabled: true } },
  redirectUrl: 'https://shop.example.test/thanks',
  cancelUrl: 'https://shop.example.test/cart',
  expiresAt: '2025-04-01T00:00:00+07:00',
  collectPhoneNumber: true,
  collectDeliveryAddress: false,
  feeType: 'TRANSACTION_FEE',
};

function issues(result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return (result.error?.issues ?? []).map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

describe('PaymentLinkSchema', () => {
  it('reads a paid payment link as the payment_link.paid webhook carries it', () => {
    expect(PaymentLinkSchema.parse(paymentLink)).toEqual(paymentLink);
  });

  it('keeps fields the service adds later, on the link and inside its order', () => {
    const parsed = PaymentLinkSchema.parse({ ...paymentLink, qrCodeUrl: 'https://x.test/q.png', order: { ...paymentLink.order, tax: 0 } });
    expect(parsed).toHaveProperty('qrCodeUrl', 'https://x.test/q.png');
    expect(parsed.order).toHaveProperty('tax', 0);
  });

  it('reads a link without timestamps, settings or order items, which the contract does not guarantee', () => {
    const { createdAt, updatedAt, linkSettings: _settings, ...rest } = paymentLink;
    const bare = { ...rest, order: { netAmount: 100, currency: 'THB' } };
    expect(PaymentLinkSchema.safeParse(bare).success).toBe(true);
  });

  it('reads a fee type the contract has not shown yet', () => {
    expect(PaymentLinkSchema.parse({ ...paymentLink, feeType: 'SURCHARGE' }).feeType).toBe('SURCHARGE');
  });

  it('refuses a net amount that is not a number, naming the nested field', () => {
    const result = PaymentLinkSchema.safeParse({ ...paymentLink, order: { ...paymentLink.order, netAmount: '1590.00' } });
    expect(result.success).toBe(false);
    expect(issues(result).map((i) => i.path)).toEqual(['order.netAmount']);
  });

  it('refuses an undocumented status', () => {
    expect(issues(PaymentLinkSchema.safeParse({ ...paymentLink, status: 'OPEN' })).map((i) => i.path)).toEqual(['status']);
  });

  it('knows the six link statuses of the live service', () => {
    expect(PaymentLinkStatusSchema.options).toEqual(['ACTIVE', 'PAID', 'EXPIRED', 'DISABLED', 'VOIDED', 'REFUNDED']);
    expect(PaymentLinkStatusSchema.safeParse('VOIDED').success).toBe(true);
    expect(PaymentLinkStatusSchema.safeParse('REFUNDED').success).toBe(true);
  });
});

describe('LinkSettingsSchema', () => {
  it('refuses a switch whose isEnabled is not a boolean, naming the installment period', () => {
    const bad = { ...linkSettings, cardInstallments: { ...linkSettings.cardInstallments, installments6m: { isEnabled: 'yes' } } };
    expect(issues(LinkSettingsSchema.safeParse(bad)).map((i) => i.path)).toEqual(['cardInstallments.installments6m.isEnabled']);
  });
});

describe('CreatePaymentLinkRequestSchema', () => {
  it('accepts a complete request', () => {
    expect(CreatePaymentLinkRequestSchema.parse(createRequest)).toEqual(createRequest);
  });

  it('accepts an order alone', () => {
    const body = { order: { netAmount: 100, currency: 'THB', description: 'Donation' } };
    expect(CreatePaymentLinkRequestSchema.safeParse(body).success).toBe(true);
  });

  it('refuses a net amount below 100 satang', () => {
    const result = CreatePaymentLinkRequestSchema.safeParse({ ...createRequest, order: { ...createRequest.order, netAmount: 99 } });
    expect(issues(result)).toEqual([{ path: 'order.netAmount', message: 'must be at least 100 (1.00 THB)' }]);
  });

  it('refuses a currency other than THB', () => {
    const result = CreatePaymentLinkRequestSchema.safeParse({ ...createRequest, order: { ...createRequest.order, currency: 'USD' } });
    expect(issues(result)).toEqual([{ path: 'order.currency', message: 'must be THB' }]);
  });

  it('accepts an order without a description, which the service leaves optional', () => {
    const { description, ...order } = createRequest.order;
    const result = CreatePaymentLinkRequestSchema.safeParse({ ...createRequest, order });
    expect(issues(result)).toEqual([]);
    expect(result.data?.order).not.toHaveProperty('description');
  });

  it('still bounds a description that is given', () => {
    const result = CreatePaymentLinkRequestSchema.safeParse({ ...createRequest, order: { ...createRequest.order, description: 'x'.repeat(256) } });
    expect(issues(result)).toEqual([{ path: 'order.description', message: 'must be at most 255 characters' }]);
  });

  it('accepts a netAmount that differs from what the items add up to', () => {
    const order = { ...createRequest.order, netAmount: 100, orderItems: [{ itemName: 'Cup', price: 15_000, quantity: 2 }] };
    expect(CreatePaymentLinkRequestSchema.safeParse({ ...createRequest, order }).success).toBe(true);
  });

  it('refuses a request without an order', () => {
    const { order, ...rest } = createRequest;
    expect(issues(CreatePaymentLinkRequestSchema.safeParse(rest)).map((i) => i.path)).toEqual(['order']);
  });

  it('refuses an order item with a quantity of 0, naming its index', () => {
    const order = { ...createRequest.order, orderItems: [{ itemName: 'Cup', price: 15_000, quantity: 0 }] };
    const result = CreatePaymentLinkRequestSchema.safeParse({ ...createRequest, order });
    expect(issues(result)).toEqual([{ path: 'order.orderItems.0.quantity', message: 'must be at least 1' }]);
  });

  it('refuses redirect and cancel URLs that are not http or https', () => {
    const result = CreatePaymentLinkRequestSchema.safeParse({
      ...createRequest,
      redirectUrl: 'javascript:alert(1)',
      cancelUrl: '/cart',
    });
    expect(issues(result)).toEqual([
      { path: 'redirectUrl', message: 'must be an absolute http or https URL' },
      { path: 'cancelUrl', message: 'must be an absolute http or https URL' },
    ]);
  });

  it('refuses an expiry without a UTC offset', () => {
    const result = CreatePaymentLinkRequestSchema.safeParse({ ...createRequest, expiresAt: '2025-04-01 00:00' });
    expect(issues(result).map((i) => i.path)).toEqual(['expiresAt']);
  });

  it('refuses an unknown fee type', () => {
    const result = CreatePaymentLinkRequestSchema.safeParse({ ...createRequest, feeType: 'FREE' });
    expect(issues(result)).toEqual([{ path: 'feeType', message: 'must be TRANSACTION_FEE' }]);
  });

  it('refuses a collect switch that is not a boolean', () => {
    const result = CreatePaymentLinkRequestSchema.safeParse({ ...createRequest, collectPhoneNumber: 'false' });
    expect(issues(result)).toEqual([{ path: 'collectPhoneNumber', message: 'must be true or false' }]);
  });
});

describe('CreatePaymentLinkResponseSchema', () => {
  it('reads the id and the URL of a new link', () => {
    const answer = { id: 'pl_1', url: 'https://pay.example.test/pl_1' };
    expect(CreatePaymentLinkResponseSchema.parse(answer)).toEqual(answer);
  });

  it('refuses an answer without a URL', () => {
    expect(issues(CreatePaymentLinkResponseSchema.safeParse({ id: 'pl_1' })).map((i) => i.path)).toEqual(['url']);
  });
});
