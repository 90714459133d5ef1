import * as z from 'zod/mini';
import { INSTALLMENT_PERIODS } from '../constants.js';
import { passesLuhn } from '../card.js';

/** Payment method types accepted by `POST /api/v1/charges`. */
export const PAYMENT_METHOD_TYPES = [
  'CARD',
  'CARD_INSTALLMENTS',
  'CARD_TOKEN',
  'CARD_TOKEN_INSTALLMENTS',
  'CARD_NETWORK_TOKEN',
  'QR_PROMPT_PAY',
  'ALIPAY',
  'LINE_PAY',
  'SHOPEE_PAY',
  'TRUE_MONEY',
  'WECHAT_PAY',
  'BANGKOK_BANK_APP',
  'KPLUS',
  'KRUNGSRI_APP',
  'SCB_EASY',
  'MAKE',
  'SPAY_LATER',
] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];

/**
 * Types a charge may carry when read back: the creatable ones, ALIPAY_PLUS (created through bolt
 * intents only) and KRUNGTHAI_NEXT (no longer creatable, still on old charges).
 */
export const READABLE_PAYMENT_METHOD_TYPES = [...PAYMENT_METHOD_TYPES, 'ALIPAY_PLUS', 'KRUNGTHAI_NEXT'] as const;
export type ReadablePaymentMethodType = (typeof READABLE_PAYMENT_METHOD_TYPES)[number];

/** The request member that carries each method's details, e.g. `CARD` -> `card`. */
export const PAYMENT_METHOD_OBJECT_KEYS = {
  CARD: 'card',
  CARD_INSTALLMENTS: 'cardInstallments',
  CARD_TOKEN: 'cardToken',
  CARD_TOKEN_INSTALLMENTS: 'cardTokenInstallments',
  CARD_NETWORK_TOKEN: 'cardNetworkToken',
  QR_PROMPT_PAY: 'qrPromptPay',
  ALIPAY: 'alipay',
  LINE_PAY: 'linePay',
  SHOPEE_PAY: 'shopeePay',
  TRUE_MONEY: 'trueMoney',
  WECHAT_PAY: 'weChatPay',
  BANGKOK_BANK_APP: 'bangkokBankApp',
  KPLUS: 'kPlus',
  KRUNGSRI_APP: 'krungsriApp',
  SCB_EASY: 'scbEasy',
  MAKE: 'make',
  SPAY_LATER: 'sPayLater',
} as const satisfies Record<PaymentMethodType, string>;

/** How a method is paid, which decides the shopper's next step. */
export type PaymentMethodFamily = 'card' | 'qr' | 'e-wallet' | 'mobile-banking' | 'pay-later';
export const PAYMENT_METHOD_FAMILY: Readonly<Record<PaymentMethodType, PaymentMethodFamily>> = {
  CARD: 'card',
  CARD_INSTALLMENTS: 'card',
  CARD_TOKEN: 'card',
  CARD_TOKEN_INSTALLMENTS: 'card',
  CARD_NETWORK_TOKEN: 'card',
  QR_PROMPT_PAY: 'qr',
  ALIPAY: 'e-wallet',
  LINE_PAY: 'e-wallet',
  SHOPEE_PAY: 'e-wallet',
  TRUE_MONEY: 'e-wallet',
  WECHAT_PAY: 'e-wallet',
  MAKE: 'e-wallet',
  BANGKOK_BANK_APP: 'mobile-banking',
  KPLUS: 'mobile-banking',
  KRUNGSRI_APP: 'mobile-banking',
  SCB_EASY: 'mobile-banking',
  SPAY_LATER: 'pay-later',
};

/** Mobile banking apps the service only accepts with deviceType ANDROID or IOS. */
export const PHONE_ONLY_PAYMENT_METHOD_TYPES: readonly PaymentMethodType[] = ['BANGKOK_BANK_APP', 'KRUNGSRI_APP'];

export const DEVICE_TYPES = ['ANDROID', 'IOS', 'WEB'] as const;
export const DeviceTypeSchema = z.enum(DEVICE_TYPES, { error: 'must be ANDROID, IOS or WEB' });
export type DeviceType = z.infer<typeof DeviceTypeSchema>;

/** Who started a card payment: the shopper (CIT) or the merchant on the shopper's behalf (MIT). */
export const INITIATOR_TYPES = ['CUSTOMER', 'MERCHANT'] as const;
export const InitiatorTypeSchema = z.enum(INITIATOR_TYPES, { error: 'must be CUSTOMER or MERCHANT' });

const PanSchema = z.string().check(
  z.regex(/^\d{12,19}$/, 'must be 12 to 19 digits'),
  z.refine(passesLuhn, 'is not a valid card number'),
);
const ExpiryMonthSchema = z.int({ error: 'must be a whole number from 1 to 12' }).check(
  z.gte(1, 'must be from 1 to 12'),
  z.lte(12, 'must be from 1 to 12'),
);
/** Two digits, as the contract states: 29 means 2029. */
const ExpiryYearSchema = z.int({ error: 'must be a two-digit year' }).check(
  z.gte(0, 'must be a two-digit year'),
  z.lte(99, 'must be a two-digit year'),
);
const SecurityCodeSchema = z.string().check(z.regex(/^\d{3,4}$/, 'must be 3 or 4 digits'));
const CardHolderNameSchema = z.string().check(
  z.minLength(1, 'is required'),
  z.maxLength(100, 'must be at most 100 characters'),
);
const CardTokenIdSchema = z.string().check(z.minLength(1, 'is required'), z.maxLength(255, 'must be at most 255 characters'));
/** Installment periods in months. */
export const InstallmentPeriodSchema = z.literal(INSTALLMENT_PERIODS, { error: 'must be 3, 4, 6 or 10' });

/** Card details as a merchant server sends them (method object `card`). */
export const CardDetailsRequestSchema = z.object({
  pan: PanSchema,
  expiryMonth: ExpiryMonthSchema,
  expiryYear: ExpiryYearSchema,
  cardHolderName: CardHolderNameSchema,
  securityCode: z.optional(SecurityCodeSchema),
});
export type CardDetailsRequest = z.infer<typeof CardDetailsRequestSchema>;

/** A card token and the CVC collected with it (method object `cardToken`). */
export const CardTokenMethodRequestSchema = z.object({
  cardTokenId: CardTokenIdSchema,
  securityCode: z.optional(SecurityCodeSchema),
});

/** The leading or trailing digits of the card a network token stands for. */
const cardDigits = (count: number) => z.string().check(z.regex(new RegExp(`^\\d{${count}}$`), `must be ${count} digits`));

/**
 * A network token (method object `cardNetworkToken`): the token's `number` and expiry, the
 * `cryptogram` the token's network issued for this payment (may be `""` in the playground), the
 * first eight and last four digits of the card it stands for, and who started the payment.
 * Members the service does not know are dropped, as in every request object.
 */
export const CardNetworkTokenMethodRequestSchema = z.object({
  number: PanSchema,
  cryptogram: z.string().check(z.maxLength(64, 'must be at most 64 characters')),
  cardHolderName: CardHolderNameSchema,
  expiryMonth: ExpiryMonthSchema,
  expiryYear: ExpiryYearSchema,
  first8: cardDigits(8),
  last4: cardDigits(4),
  initiatorType: InitiatorTypeSchema,
});
export type CardNetworkTokenMethodRequest = z.infer<typeof CardNetworkTokenMethodRequestSchema>;

/** QR PromptPay options: a custom expiry, sent as `expiryTime` (or `expiresAt`, which the service also accepts). */
export const QrPromptPayMethodRequestSchema = z.object({
  expiryTime: z.optional(z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp with a UTC offset or Z' })),
  expiresAt: z.optional(z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp with a UTC offset or Z' })),
});

/** E-wallets, mobile banking and pay-later carry an empty object named for the method. */
const EmptyMethodObjectSchema = z.optional(z.object({}));

const CardVariant = z.object({ paymentMethodType: z.literal('CARD'), card: CardDetailsRequestSchema });
const CardInstallmentsVariant = z.object({
  paymentMethodType: z.literal('CARD_INSTALLMENTS'),
  cardInstallments: z.extend(CardDetailsRequestSchema, { installmentPeriod: InstallmentPeriodSchema }),
});
const CardTokenVariant = z.object({ paymentMethodType: z.literal('CARD_TOKEN'), cardToken: CardTokenMethodRequestSchema });
const CardTokenInstallmentsVariant = z.object({
  paymentMethodType: z.literal('CARD_TOKEN_INSTALLMENTS'),
  cardTokenInstallments: z.extend(CardTokenMethodRequestSchema, { installmentPeriod: InstallmentPeriodSchema }),
});
const CardNetworkTokenVariant = z.object({
  paymentMethodType: z.literal('CARD_NETWORK_TOKEN'),
  cardNetworkToken: CardNetworkTokenMethodRequestSchema,
});
const QrPromptPayVariant = z.object({
  paymentMethodType: z.literal('QR_PROMPT_PAY'),
  qrPromptPay: z.optional(QrPromptPayMethodRequestSchema),
});

/** `paymentMethod` of a create-charge request: the type and the object named for it. */
export const PaymentMethodRequestSchema = z.discriminatedUnion(
  'paymentMethodType',
  [
    CardVariant,
    CardInstallmentsVariant,
    CardTokenVariant,
    CardTokenInstallmentsVariant,
    CardNetworkTokenVariant,
    QrPromptPayVariant,
    z.object({ paymentMethodType: z.literal('ALIPAY'), alipay: EmptyMethodObjectSchema }),
    z.object({ paymentMethodType: z.literal('LINE_PAY'), linePay: EmptyMethodObjectSchema }),
    z.object({ paymentMethodType: z.literal('SHOPEE_PAY'), shopeePay: EmptyMethodObjectSchema }),
    z.object({ paymentMethodType: z.literal('TRUE_MONEY'), trueMoney: EmptyMethodObjectSchema }),
    z.object({ paymentMethodType: z.literal('WECHAT_PAY'), weChatPay: EmptyMethodObjectSchema }),
    z.object({ paymentMethodType: z.literal('BANGKOK_BANK_APP'), bangkokBankApp: EmptyMethodObjectSchema }),
    z.object({ paymentMethodType: z.literal('KPLUS'), kPlus: EmptyMethodObjectSchema }),
    z.object({ paymentMethodType: z.literal('KRUNGSRI_APP'), krungsriApp: EmptyMethodObjectSchema }),
    z.object({ paymentMethodType: z.literal('SCB_EASY'), scbEasy: EmptyMethodObjectSchema }),
    z.object({ paymentMethodType: z.literal('MAKE'), make: EmptyMethodObjectSchema }),
    z.object({ paymentMethodType: z.literal('SPAY_LATER'), sPayLater: EmptyMethodObjectSchema }),
  ],
  { error: 'payment method is not supported' },
);
export type PaymentMethodRequest = z.infer<typeof PaymentMethodRequestSchema>;

/** The card methods a card authorization accepts. */
export const CardAuthorizationPaymentMethodRequestSchema = z.discriminatedUnion(
  'paymentMethodType',
  [CardVariant, CardTokenVariant, CardNetworkTokenVariant],
  { error: 'payment method is not supported for card authorizations; use CARD, CARD_TOKEN or CARD_NETWORK_TOKEN' },
);

// ---------------------------------------------------------------------------------------------
// Response shapes: lenient, unknown fields kept.

/** A card as the service shows it on a charge: never the number, only its last four digits. */
export const CardResponseSchema = z.looseObject({
  last4: z.optional(z.nullable(z.string())),
  brand: z.optional(z.nullable(z.string())),
  countryAlpha2: z.optional(z.nullable(z.string())),
  iso8583ResponseCode: z.optional(z.nullable(z.string())),
  merchantAdviceCode: z.optional(z.nullable(z.string())),
  networkTransactionId: z.optional(z.nullable(z.string())),
});

/**
 * A network token as a charge or a card authorization shows it: what a card shows, plus the
 * token's members that are not secret. Never the token's `number` nor its `cryptogram`.
 */
export const CardNetworkTokenResponseSchema = z.extend(CardResponseSchema, {
  first8: z.optional(z.nullable(z.string())),
  cardHolderName: z.optional(z.nullable(z.string())),
  expiryMonth: z.optional(z.nullable(z.int())),
  expiryYear: z.optional(z.nullable(z.int())),
  initiatorType: z.optional(z.nullable(z.string())),
});
export type CardNetworkTokenResponse = z.infer<typeof CardNetworkTokenResponseSchema>;

/** A member of `paymentMethod` in a response: null unless it is the chosen method. */
export const MemberSchema = z.optional(z.nullable(z.looseObject({})));
/** A card member of `paymentMethod` in a response. */
export const CardMemberSchema = z.optional(z.nullable(CardResponseSchema));
/** The network token member of `paymentMethod` in a response. */
export const CardNetworkTokenMemberSchema = z.optional(z.nullable(CardNetworkTokenResponseSchema));

/**
 * `paymentMethod` on a charge read back: the type and every method's member, null but the one
 * used (the service writes them all; a missing one reads as absent).
 */
export const PaymentMethodResponseSchema = z.looseObject({
  paymentMethodType: z.enum(READABLE_PAYMENT_METHOD_TYPES),
  card: CardMemberSchema,
  cardInstallments: CardMemberSchema,
  cardNetworkToken: CardNetworkTokenMemberSchema,
  qrPromptPay: MemberSchema,
  alipay: MemberSchema,
  alipayPlus: MemberSchema,
  weChatPay: MemberSchema,
  trueMoney: MemberSchema,
  linePay: MemberSchema,
  shopeePay: MemberSchema,
  make: MemberSchema,
  bangkokBankApp: MemberSchema,
  kPlus: MemberSchema,
  scbEasy: MemberSchema,
  krungsriApp: MemberSchema,
  krungthaiNext: MemberSchema,
  sPayLater: MemberSchema,
});
export type PaymentMethodResponse = z.infer<typeof PaymentMethodResponseSchema>;

/**
 * Response members of `paymentMethod`, in the order the service lists them, and `sPayLater`,
 * which a SPAY_LATER charge needs: a charge carries every one of them.
 */
export const PAYMENT_METHOD_RESPONSE_MEMBERS = [
  'card',
  'cardInstallments',
  'cardNetworkToken',
  'qrPromptPay',
  'alipay',
  'alipayPlus',
  'weChatPay',
  'trueMoney',
  'linePay',
  'shopeePay',
  'make',
  'bangkokBankApp',
  'kPlus',
  'scbEasy',
  'krungsriApp',
  'krungthaiNext',
  'sPayLater',
] as const;
export type PaymentMethodResponseMember = (typeof PAYMENT_METHOD_RESPONSE_MEMBERS)[number];
