import type { CheckoutChargeRequest } from '../../core/schemas/checkout.js';
import { PAYMENT_METHOD_OBJECT_KEYS, type PaymentMethodRequest } from '../../core/schemas/payment-method.js';
import { CheckoutError } from './checkout-error.js';

/**
 * The shape of a card token id as the service hands them out (`ctk_…`, `POST /client/v1/card-tokens`):
 * anything else was never a token, and is refused here rather than sent on to be called expired.
 */
export const CARD_TOKEN_ID_PATTERN = /^ctk_[A-Za-z0-9_-]{1,251}$/;

/**
 * The service's payment method for what the widget chose, if this shop accepts it (`allowed`):
 * a card method needs its token and CVC, and no method takes a field meant for another.
 */
export function checkedPaymentMethod(input: CheckoutChargeRequest, allowed: ReadonlySet<string>): PaymentMethodRequest {
  const { type, cardTokenId, securityCode, installmentPeriod } = input.paymentMethod;
  if (!allowed.has(type)) {
    throw new CheckoutError(400, 'PAYMENT_METHOD_NOT_ALLOWED', 'This payment method is not available in this shop.', { field: 'paymentMethod.type' });
  }
  const missing = (field: string) => new CheckoutError(400, 'INVALID_REQUEST', `The request is not valid: paymentMethod.${field} is required.`, { field: `paymentMethod.${field}` });
  const extra = (field: string) => new CheckoutError(400, 'INVALID_REQUEST', `The request is not valid: paymentMethod.${field} does not apply to ${type}.`, { field: `paymentMethod.${field}` });
  if (type === 'CARD_TOKEN' || type === 'CARD_TOKEN_INSTALLMENTS') {
    if (cardTokenId === undefined) throw missing('cardTokenId');
    if (securityCode === undefined) throw missing('securityCode');
    if (!CARD_TOKEN_ID_PATTERN.test(cardTokenId)) {
      throw new CheckoutError(400, 'INVALID_REQUEST', 'The request is not valid: paymentMethod.cardTokenId is not a card token id (ctk_…, from the card form).', { field: 'paymentMethod.cardTokenId' });
    }
    if (type === 'CARD_TOKEN') {
      if (installmentPeriod !== undefined) throw extra('installmentPeriod');
      return { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode } };
    }
    if (installmentPeriod === undefined) throw missing('installmentPeriod');
    return { paymentMethodType: 'CARD_TOKEN_INSTALLMENTS', cardTokenInstallments: { cardTokenId, securityCode, installmentPeriod } };
  }
  if (cardTokenId !== undefined) throw extra('cardTokenId');
  if (securityCode !== undefined) throw extra('securityCode');
  if (installmentPeriod !== undefined) throw extra('installmentPeriod');
  return { paymentMethodType: type, [PAYMENT_METHOD_OBJECT_KEYS[type]]: {} };
}
