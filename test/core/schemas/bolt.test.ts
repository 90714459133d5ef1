import { describe, expect, it } from 'vitest';
import {
  BoltConnectionSchema,
  boltIntentModeType,
  BoltDeviceListSchema,
  BoltDeviceSchema,
  BoltIntentSchema,
  BoltIntentStatusSchema,
  CancelBoltIntentResponseSchema,
  CreateBoltConnectionRequestSchema,
  CreateBoltIntentRequestSchema,
  RenameBoltDeviceRequestSchema,
} from '../../../src/core/schemas/bolt.js';

const paidIntent = {
  id: 'bi_5Tq8Lm2Xv7Nc4Rb1Kd9Wp3Hs',
  merchantId: 'mch_sandbox',
  amount: 45_000,
  currency: 'THB',
  status: 'PAID',
  mode: { type: 'PAIRING', deepLink: null },
  paymentMethod: {
    paymentMethodType: 'CARD',
    card: { last4: '1111', brand: 'VISA' },
    cardInstallments: null,
    qrPromptPay: null,
    alipay: null,
    alipayPlus: null,
    linePay: null,
    shopeePay: null,
    trueMoney: null,
    weChatPay: null,
    sPayLater: null,
  },
  boltConnectionId: 'bc_8Hs3Kd1Wp9Rb4Nc7Lm2Xv5Tq',
  referenceId: 'table-12',
  internalNote: 'lunch',
  expiresAt: '2025-03-14T09:36:53Z',
  merchant: { merchantId: 'mch_sandbox', name: 'SATANG SANDBOX', logoUrl: 'https://cdn.example.test/logo.png' },
  latestChargeId: 'ch_3fZk8pQ2mN7vX1cR4tL9bW6y',
  latestChargeStatus: 'SUCCEEDED',
  latestChargeFailureCode: '',
  result: 'CH_SUCCEEDED',
  createdAt: '2025-03-14T09:26:53Z',
  createdBy: 'api',
  updatedAt: '2025-03-14T09:27:40Z',
  updatedBy: 'system',
};

const activeDeepLinkIntent = {
  ...paidIntent,
  status: 'ACTIVE',
  mode: {
    type: 'DEEP_LINK',
    deepLink: { deepLinkUrl: 'https://pay.example.test/bolt/bi_1', returnUrl: 'myshop://orders/12' },
  },
  paymentMethod: { paymentMethodType: 'ALIPAY_PLUS', alipayPlus: {} },
  boltConnectionId: null,
  latestChargeId: '',
  latestChargeStatus: '',
  latestChargeFailureCode: '',
  result: '',
};

const pairingRequest = {
  amount: 45_000,
  currency: 'THB',
  referenceId: 'table-12',
  internalNote: 'lunch',
  expiryDurationInSec: 600,
  boltConnectionId: 'bc_8Hs3Kd1Wp9Rb4Nc7Lm2Xv5Tq',
  mode: { type: 'PAIRING' },
  paymentMethod: { paymentMethodType: 'CARD' },
};

const deepLinkRequest = {
  amount: 45_000,
  currency: 'THB',
  referenceId: 'order-7',
  expiryDurationInSec: 90,
  mode: { type: 'DEEP_LINK', deepLink: { returnUrl: 'https://shop.example.test/return' } },
  paymentMethod: { paymentMethodType: 'SPAY_LATER' },
};

const device = {
  boltDeviceId: 'bd_2Wp9Rb4Nc7Lm',
  name: 'Counter 1',
  latestMetric: {
    reportedAt: '2025-03-14T09:20:00Z',
    batteryLevel: 87,
    networkType: 'WIFI',
    signalStrength: -58,
    appVersion: '2.4.1',
  },
  createdAt: '2025-01-02T03:04:05Z',
  updatedAt: '2025-03-14T09:20:00Z',
};

function issues(result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return (result.error?.issues ?? []).map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

describe('BoltIntentSchema', () => {
  it('reads a paid PAIRING intent as the bolt_intent.paid webhook carries it', () => {
    expect(BoltIntentSchema.parse(paidIntent)).toEqual(paidIntent);
  });

  it('reads an open DEEP_LINK intent whose charge fields are still empty strings', () => {
    const parsed = BoltIntentSchema.parse(activeDeepLinkIntent);
    expect(parsed.mode.deepLink?.deepLinkUrl).toBe('https://pay.example.test/bolt/bi_1');
    expect(parsed.latestChargeStatus).toBe('');
  });

  it('keeps a field the service adds later, also inside the payment method', () => {
    const parsed = BoltIntentSchema.parse({
      ...paidIntent,
      terminalId: 't-9',
      paymentMethod: { ...paidIntent.paymentMethod, card: { last4: '1111', brand: 'VISA', countryAlpha2: 'US' } },
    });
    expect(parsed).toHaveProperty('terminalId', 't-9');
    expect(parsed.paymentMethod?.card).toHaveProperty('countryAlpha2', 'US');
  });

  it('reads a result the contract has not listed', () => {
    expect(BoltIntentSchema.parse({ ...paidIntent, result: 'CH_CARD_EXPIRED' }).result).toBe('CH_CARD_EXPIRED');
  });

  it('refuses a mode type other than PAIRING or DEEP_LINK, naming the nested field', () => {
    const result = BoltIntentSchema.safeParse({ ...paidIntent, mode: { type: 'NFC', deepLink: null } });
    expect(result.success).toBe(false);
    expect(issues(result).map((i) => i.path)).toEqual(['mode.type']);
  });

  it('refuses an amount that is not a whole number', () => {
    expect(issues(BoltIntentSchema.safeParse({ ...paidIntent, amount: 450.5 })).map((i) => i.path)).toEqual(['amount']);
  });

  it('knows the six intent statuses', () => {
    expect(BoltIntentStatusSchema.options).toEqual(['ACTIVE', 'PAID', 'CANCELED', 'EXPIRED', 'VOIDED', 'REFUNDED']);
  });
});

describe('CreateBoltIntentRequestSchema', () => {
  it('accepts a PAIRING intent sent to a bolt connection', () => {
    expect(CreateBoltIntentRequestSchema.parse(pairingRequest)).toEqual(pairingRequest);
  });

  it('accepts a DEEP_LINK intent with a return URL and no connection', () => {
    expect(CreateBoltIntentRequestSchema.parse(deepLinkRequest)).toEqual(deepLinkRequest);
  });

  it('accepts ALIPAY_PLUS, which direct charges do not', () => {
    const body = { ...pairingRequest, paymentMethod: { paymentMethodType: 'ALIPAY_PLUS' } };
    expect(CreateBoltIntentRequestSchema.safeParse(body).success).toBe(true);
  });

  it.each([89, 601])('refuses an expiry of %i seconds', (expiryDurationInSec) => {
    const result = CreateBoltIntentRequestSchema.safeParse({ ...pairingRequest, expiryDurationInSec });
    expect(issues(result).map((i) => i.path)).toEqual(['expiryDurationInSec']);
  });

  it('says what the expiry bounds are', () => {
    expect(issues(CreateBoltIntentRequestSchema.safeParse({ ...pairingRequest, expiryDurationInSec: 89 }))[0]?.message).toBe(
      'must be at least 90 (seconds)',
    );
    expect(issues(CreateBoltIntentRequestSchema.safeParse({ ...pairingRequest, expiryDurationInSec: 601 }))[0]?.message).toBe(
      'must be at most 600 (10 minutes)',
    );
  });

  it('accepts the expiry bounds themselves', () => {
    expect(CreateBoltIntentRequestSchema.safeParse({ ...pairingRequest, expiryDurationInSec: 90 }).success).toBe(true);
    expect(CreateBoltIntentRequestSchema.safeParse({ ...pairingRequest, expiryDurationInSec: 600 }).success).toBe(true);
  });

  it('refuses DEEP_LINK mode without a return URL', () => {
    const result = CreateBoltIntentRequestSchema.safeParse({ ...deepLinkRequest, mode: { type: 'DEEP_LINK', deepLink: {} } });
    expect(issues(result)).toEqual([{ path: 'mode.deepLink.returnUrl', message: 'is required in DEEP_LINK mode' }]);
  });

  it('refuses DEEP_LINK mode without a deep link at all', () => {
    const result = CreateBoltIntentRequestSchema.safeParse({ ...deepLinkRequest, mode: { type: 'DEEP_LINK' } });
    expect(issues(result)).toEqual([{ path: 'mode.deepLink', message: 'is required in DEEP_LINK mode' }]);
  });

  it('refuses a return URL that is not http or https', () => {
    const mode = { type: 'DEEP_LINK', deepLink: { returnUrl: 'not a url' } };
    const result = CreateBoltIntentRequestSchema.safeParse({ ...deepLinkRequest, mode });
    expect(issues(result)).toEqual([{ path: 'mode.deepLink.returnUrl', message: 'must be an absolute http or https URL' }]);
  });

  it('refuses PAIRING mode without a bolt connection', () => {
    const { boltConnectionId, ...body } = pairingRequest;
    expect(issues(CreateBoltIntentRequestSchema.safeParse(body))).toEqual([
      { path: 'boltConnectionId', message: 'is required in PAIRING mode' },
    ]);
  });

  it('takes an intent with a connection and no mode as PAIRING', () => {
    const { mode: _mode, ...body } = pairingRequest;
    const parsed = CreateBoltIntentRequestSchema.parse(body);
    expect(parsed.mode).toBeUndefined();
    expect(boltIntentModeType(parsed)).toBe('PAIRING');
    expect(boltIntentModeType(CreateBoltIntentRequestSchema.parse(deepLinkRequest))).toBe('DEEP_LINK');
  });

  it('refuses an intent with neither a mode nor a connection, naming mode', () => {
    const { mode: _mode, boltConnectionId: _connection, ...body } = pairingRequest;
    expect(issues(CreateBoltIntentRequestSchema.safeParse(body))).toEqual([
      { path: 'mode', message: 'is required when no boltConnectionId is given (PAIRING needs a boltConnectionId, DEEP_LINK needs mode.deepLink.returnUrl)' },
    ]);
  });

  it('refuses an unknown mode type', () => {
    const result = CreateBoltIntentRequestSchema.safeParse({ ...pairingRequest, mode: { type: 'NFC' } });
    expect(issues(result)).toEqual([{ path: 'mode.type', message: 'must be PAIRING or DEEP_LINK' }]);
  });

  it('refuses a payment method bolt intents do not take', () => {
    const result = CreateBoltIntentRequestSchema.safeParse({ ...pairingRequest, paymentMethod: { paymentMethodType: 'KPLUS' } });
    expect(issues(result).map((i) => i.path)).toEqual(['paymentMethod.paymentMethodType']);
    expect(issues(result)[0]?.message).toMatch(/^is not supported for bolt intents/);
  });

  it('refuses an amount below 100 satang', () => {
    const result = CreateBoltIntentRequestSchema.safeParse({ ...pairingRequest, amount: 99 });
    expect(issues(result)).toEqual([{ path: 'amount', message: 'must be at least 100 (1.00 THB)' }]);
  });
});

describe('bolt connections', () => {
  it('reads a connection, keeping fields it does not know', () => {
    const connection = { id: 'bc_1', deviceId: 'bd_1', merchantId: 'mch_1', createdAt: '2025-03-14T09:26:53Z', label: 'till' };
    expect(BoltConnectionSchema.parse(connection)).toEqual(connection);
    expect(BoltConnectionSchema.safeParse({ ...connection, deviceId: undefined }).success).toBe(false);
  });

  it('takes a pairing code and refuses a missing or blank one', () => {
    expect(CreateBoltConnectionRequestSchema.parse({ pairingCode: '482913' })).toEqual({ pairingCode: '482913' });
    expect(issues(CreateBoltConnectionRequestSchema.safeParse({ pairingCode: '' }))).toEqual([{ path: 'pairingCode', message: 'is required' }]);
    expect(issues(CreateBoltConnectionRequestSchema.safeParse({ pairingCode: '  ' }))).toEqual([{ path: 'pairingCode', message: 'must not be blank' }]);
  });

  it('reads the cancel answer', () => {
    expect(CancelBoltIntentResponseSchema.parse({ message: 'canceled' })).toEqual({ message: 'canceled' });
    expect(CancelBoltIntentResponseSchema.safeParse({}).success).toBe(false);
  });
});

describe('BoltDeviceSchema', () => {
  it('reads a device with its latest metric', () => {
    expect(BoltDeviceSchema.parse(device)).toEqual(device);
  });

  it('reads a device that has never reported', () => {
    expect(BoltDeviceSchema.parse({ boltDeviceId: 'bd_1', name: 'Spare', latestMetric: null }).latestMetric).toBeNull();
  });

  it('keeps metric fields the contract does not show', () => {
    const parsed = BoltDeviceSchema.parse({ ...device, latestMetric: { ...device.latestMetric, storageFreeMb: 512 } });
    expect(parsed.latestMetric).toHaveProperty('storageFreeMb', 512);
  });

  it('refuses a device without a name', () => {
    const { name, ...rest } = device;
    expect(issues(BoltDeviceSchema.safeParse(rest)).map((i) => i.path)).toEqual(['name']);
  });

  it('refuses a battery level that is not a number, naming the nested field', () => {
    const result = BoltDeviceSchema.safeParse({ ...device, latestMetric: { ...device.latestMetric, batteryLevel: '87%' } });
    expect(issues(result).map((i) => i.path)).toEqual(['latestMetric.batteryLevel']);
  });

  it('reads a page of devices', () => {
    expect(BoltDeviceListSchema.parse({ data: [device], totalCount: 1 }).data[0]?.name).toBe('Counter 1');
  });
});

describe('RenameBoltDeviceRequestSchema', () => {
  it('accepts a name of 1 to 100 characters', () => {
    expect(RenameBoltDeviceRequestSchema.safeParse({ name: 'A' }).success).toBe(true);
    expect(RenameBoltDeviceRequestSchema.safeParse({ name: 'x'.repeat(100) }).success).toBe(true);
  });

  it('refuses an empty name', () => {
    expect(issues(RenameBoltDeviceRequestSchema.safeParse({ name: '' }))).toEqual([{ path: 'name', message: 'is required' }]);
  });

  it('refuses a name of only spaces', () => {
    expect(issues(RenameBoltDeviceRequestSchema.safeParse({ name: '   ' }))).toEqual([{ path: 'name', message: 'must not be blank' }]);
  });

  it('refuses a name longer than 100 characters', () => {
    expect(issues(RenameBoltDeviceRequestSchema.safeParse({ name: 'x'.repeat(101) }))).toEqual([
      { path: 'name', message: 'must be at most 100 characters' },
    ]);
  });
});
