import { detectCardBrand } from '../../core/card.js';
import {
  PAYMENT_METHOD_OBJECT_KEYS,
  PAYMENT_METHOD_RESPONSE_MEMBERS,
  type PaymentMethodRequest,
  type PaymentMethodResponse,
  type PaymentMethodResponseMember,
} from '../../core/schemas/payment-method.js';
import type { ChargeRecord } from './charge-records.js';
import { testCard, type ResolvedCard } from './cards.js';

/**
 * The payment method as a charge shows it: every member present, the method's own filled and the
 * others null. A tokenized card reads back as the card it stands for; the card's network answer
 * (`iso8583ResponseCode`, `networkTransactionId`) is filled when the charge settles.
 */
export function paymentMethodResponse(method: PaymentMethodRequest, card: ResolvedCard | undefined, qr: ChargeRecord['qr']): PaymentMethodResponse {
  const members = Object.fromEntries(PAYMENT_METHOD_RESPONSE_MEMBERS.map((m) => [m, null])) as Record<PaymentMethodResponseMember, null>;
  const type = method.paymentMethodType;
  if (card) {
    const details = {
      last4: card.pan.slice(-4),
      brand: detectCardBrand(card.pan),
      countryAlpha2: testCard(card.pan)?.countryAlpha2 ?? 'TH',
      iso8583ResponseCode: null as string | null,
      merchantAdviceCode: null,
      networkTransactionId: null as string | null,
    };
    if (type === 'CARD_INSTALLMENTS' || type === 'CARD_TOKEN_INSTALLMENTS') {
      return { paymentMethodType: 'CARD_INSTALLMENTS', ...members, cardInstallments: { ...details, installmentPeriod: card.installmentPeriod } };
    }
    if (type === 'CARD_NETWORK_TOKEN') return { paymentMethodType: 'CARD_NETWORK_TOKEN', ...members, cardNetworkToken: details };
    return { paymentMethodType: 'CARD', ...members, card: details };
  }
  if (qr) return { paymentMethodType: 'QR_PROMPT_PAY', ...members, qrPromptPay: { expiryTime: qr.expiresAt.toISOString() } };
  return { paymentMethodType: type, ...members, [PAYMENT_METHOD_OBJECT_KEYS[type]]: {} };
}
