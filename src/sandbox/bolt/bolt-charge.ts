import type { BoltIntent, BoltPaymentMethod, BoltPaymentMethodType } from '../../core/schemas/bolt.js';
import type { Charge } from '../../core/schemas/charge.js';
import {
  PAYMENT_METHOD_RESPONSE_MEMBERS,
  type PaymentMethodFamily,
  type PaymentMethodType,
} from '../../core/schemas/payment-method.js';
import { chargeCustomer } from '../charges/charge-customer.js';
import type { ChargeOutcome } from '../charges/charge-records.js';
import type { NewChargeRecord } from '../charges/charge-state-machine.js';
import { newId } from '../store/ids.js';

/** The card a sandbox terminal reads when the shopper pays a CARD or CARD_INSTALLMENTS intent. */
export const SANDBOX_BOLT_CARD = { last4: '1111', brand: 'VISA', countryAlpha2: 'TH' } as const;

/** The member of a bolt intent's (and its charge's) `paymentMethod` for each type. */
const BOLT_METHOD_MEMBERS = {
  CARD: 'card',
  CARD_INSTALLMENTS: 'cardInstallments',
  QR_PROMPT_PAY: 'qrPromptPay',
  ALIPAY: 'alipay',
  ALIPAY_PLUS: 'alipayPlus',
  LINE_PAY: 'linePay',
  SHOPEE_PAY: 'shopeePay',
  TRUE_MONEY: 'trueMoney',
  WECHAT_PAY: 'weChatPay',
  SPAY_LATER: 'sPayLater',
} as const satisfies Record<BoltPaymentMethodType, string>;

const BOLT_METHOD_FAMILY: Readonly<Record<BoltPaymentMethodType, PaymentMethodFamily>> = {
  CARD: 'card',
  CARD_INSTALLMENTS: 'card',
  QR_PROMPT_PAY: 'qr',
  ALIPAY: 'e-wallet',
  ALIPAY_PLUS: 'e-wallet',
  LINE_PAY: 'e-wallet',
  SHOPEE_PAY: 'e-wallet',
  TRUE_MONEY: 'e-wallet',
  WECHAT_PAY: 'e-wallet',
  SPAY_LATER: 'pay-later',
};

/** `paymentMethod` of a new intent: the type, and every member null but the chosen one. */
export function boltPaymentMethod(type: BoltPaymentMethodType): BoltPaymentMethod {
  const members = Object.fromEntries(Object.values(BOLT_METHOD_MEMBERS).map((member) => [member, null]));
  return { paymentMethodType: type, ...members, [BOLT_METHOD_MEMBERS[type]]: {} };
}

/**
 * The PENDING charge a payment of `intent` opens, to be settled at once with `outcome` (what the
 * terminal's test card does). The contract's sources name no bolt source: a bolt payment is an
 * API charge whose `sourceId` points back at its intent.
 */
export function boltChargeDraft(intent: BoltIntent, outcome: ChargeOutcome, now: Date): NewChargeRecord {
  const type = intent.paymentMethod?.paymentMethodType ?? 'CARD';
  const isCard = type === 'CARD' || type === 'CARD_INSTALLMENTS';
  const members = Object.fromEntries(PAYMENT_METHOD_RESPONSE_MEMBERS.map((member) => [member, null]));
  const detail = isCard ? { ...SANDBOX_BOLT_CARD, iso8583ResponseCode: null, merchantAdviceCode: null, networkTransactionId: null } : {};
  const at = now.toISOString();
  const charge: Charge = {
    chargeId: newId('ch_'),
    merchantId: intent.merchantId,
    referenceId: intent.referenceId ?? '',
    status: 'PENDING',
    currency: intent.currency,
    amount: intent.amount,
    source: 'API',
    sourceId: intent.id,
    transactionTime: null,
    paymentMethod: { paymentMethodType: type, ...members, [BOLT_METHOD_MEMBERS[type]]: detail },
    failureCode: '',
    customer: chargeCustomer(undefined),
    createdAt: at,
    updatedAt: at,
  };
  return {
    charge,
    // ALIPAY_PLUS cannot be a direct charge; the record's requested type only labels pages.
    requestedType: (type === 'ALIPAY_PLUS' ? 'ALIPAY' : type) satisfies PaymentMethodType,
    family: BOLT_METHOD_FAMILY[type],
    returnUrl: undefined,
    qr: undefined,
    cardBehaviour: isCard ? (outcome.status === 'SUCCEEDED' ? { outcome: 'succeed' } : { outcome: 'fail', failureCode: outcome.failureCode }) : undefined,
  };
}
