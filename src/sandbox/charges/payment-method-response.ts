import { detectCardBrand } from '../../core/card.js';
import {
  PAYMENT_METHOD_OBJECT_KEYS,
  PAYMENT_METHOD_RESPONSE_MEMBERS,
  type PaymentMethodRequest,
  type PaymentMethodResponse,
  type PaymentMethodResponseMember,
} from '../../core/schemas/payment-method.js';
import { SANDBOX_TEST_CARDS } from '../defaults.js';
import type { ChargeRecord } from './charge-records.js';
import { testCard, type ResolvedCard } from './cards.js';

/**
 * The payment method as a charge shows it: every member present, the method's own filled and the
 * others null. A tokenized card reads back as the card it stands for; the card's network answer
 * (`iso8583ResponseCode`, `networkTransactionId`) is filled when the charge settles. A network
 * token shows what a card shows (the digits of the card it stands for, given as `first8` and
 * `last4`) and its members that are not secret: never its `number` nor its `cryptogram`.
 */
export function paymentMethodResponse(method: PaymentMethodRequest, card: ResolvedCard | undefined, qr: ChargeRecord['qr']): PaymentMethodResponse {
  const members = Object.fromEntries(PAYMENT_METHOD_RESPONSE_MEMBERS.map((m) => [m, null])) as Record<PaymentMethodResponseMember, null>;
  const type = method.paymentMethodType;
  if (card) {
    const networkAnswer = { iso8583ResponseCode: null as string | null, merchantAdviceCode: null, networkTransactionId: null as string | null };
    if (method.paymentMethodType === 'CARD_NETWORK_TOKEN') {
      const token = method.cardNetworkToken;
      // The card the token stands for: a test card with its digits, else the token's own test card.
      const issuer = SANDBOX_TEST_CARDS.find(({ number }) => number.startsWith(token.first8) && number.endsWith(token.last4)) ?? testCard(token.number);
      const cardNetworkToken = {
        first8: token.first8,
        last4: token.last4,
        brand: detectCardBrand(token.first8),
        countryAlpha2: issuer?.countryAlpha2 ?? 'TH',
        cardHolderName: token.cardHolderName,
        expiryMonth: token.expiryMonth,
        expiryYear: token.expiryYear,
        initiatorType: token.initiatorType,
        ...networkAnswer,
      };
      return { paymentMethodType: 'CARD_NETWORK_TOKEN', ...members, cardNetworkToken };
    }
    const details = { last4: card.pan.slice(-4), brand: detectCardBrand(card.pan), countryAlpha2: testCard(card.pan)?.countryAlpha2 ?? 'TH', ...networkAnswer };
    if (type === 'CARD_INSTALLMENTS' || type === 'CARD_TOKEN_INSTALLMENTS') {
      return { paymentMethodType: 'CARD_INSTALLMENTS', ...members, cardInstallments: { ...details, installmentPeriod: card.installmentPeriod } };
    }
    return { paymentMethodType: 'CARD', ...members, card: details };
  }
  if (qr) return { paymentMethodType: 'QR_PROMPT_PAY', ...members, qrPromptPay: { expiryTime: qr.expiresAt.toISOString() } };
  return { paymentMethodType: type, ...members, [PAYMENT_METHOD_OBJECT_KEYS[type]]: {} };
}
