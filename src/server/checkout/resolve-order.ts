import type { HttpCall } from '../../core/http-call.js';
import { CURRENCY_THB, MAX_CHARGE_AMOUNT_SATANG, MIN_CHARGE_AMOUNT_SATANG } from '../../core/constants.js';
import { CHECKOUT_INTENTS } from '../../core/schemas/checkout.js';
import { ConfigurationError } from '../errors.js';
import { CheckoutError } from './checkout-error.js';
import type { CheckoutHandlerOptions, PaidOrder, ResolvedOrder, ResolveOrderPurpose } from './checkout-options.js';

/** The longest payment id `resolveOrder` may name as an order's payer. */
const MAX_PAYER_ID_LENGTH = 255;

/**
 * Asks the merchant's `resolveOrder` what an order costs: a 404 for an order that cannot be paid,
 * a 409 `ORDER_ALREADY_PAID` for one the shop says is paid, a 500 (the merchant's fault, not the
 * shopper's) when it throws or answers something unchargeable.
 */
export async function resolveOrder(
  options: Pick<CheckoutHandlerOptions, 'resolveOrder'>,
  orderReference: string,
  call: HttpCall,
  purpose: ResolveOrderPurpose = 'charge',
): Promise<ResolvedOrder> {
  const order = await askOrder(options, orderReference, call, purpose);
  if ('paidBy' in order) throw new CheckoutError(409, 'ORDER_ALREADY_PAID', 'This order has already been paid.');
  return order;
}

/** What the merchant's `resolveOrder` says of an order: its price, or the payment that paid it; thrown as {@link resolveOrder} says otherwise. */
export async function askOrder(
  options: Pick<CheckoutHandlerOptions, 'resolveOrder'>,
  orderReference: string,
  call: HttpCall,
  purpose: ResolveOrderPurpose,
): Promise<ResolvedOrder | PaidOrder> {
  let order: ResolvedOrder | PaidOrder | null | undefined;
  try {
    // The Fetch Request is made only if the merchant's code reads it (from node:http, it is made then).
    const context = {
      purpose,
      get request() {
        return call.request();
      },
    };
    order = await options.resolveOrder(orderReference, context);
  } catch (error) {
    throw new CheckoutError(500, 'INTERNAL_ERROR', 'The shop could not look up this order. Please try again.', { retryable: true, cause: error });
  }
  if (order === null || order === undefined) {
    throw new CheckoutError(404, 'ORDER_NOT_FOUND', 'This order cannot be paid: it does not exist or is already paid.', { field: 'orderReference' });
  }
  if (typeof order === 'object' && 'paidBy' in order) {
    const { paidBy } = order;
    if (typeof paidBy === 'string' && paidBy.length > 0 && paidBy.length <= MAX_PAYER_ID_LENGTH) return { paidBy };
    throw new CheckoutError(500, 'INTERNAL_ERROR', 'The shop could not look up this order. Please try again.', {
      cause: new ConfigurationError(`resolveOrder's paidBy must be the chargeId onOrder named in order.paid (1-${MAX_PAYER_ID_LENGTH} characters)`),
    });
  }
  const valid =
    Number.isInteger(order.amount) &&
    order.amount >= MIN_CHARGE_AMOUNT_SATANG &&
    order.amount <= MAX_CHARGE_AMOUNT_SATANG &&
    order.currency === CURRENCY_THB &&
    typeof order.referenceId === 'string' &&
    order.referenceId.length > 0 &&
    order.referenceId.length <= 255 &&
    (order.intent === undefined || (CHECKOUT_INTENTS as readonly unknown[]).includes(order.intent));
  if (!valid) {
    throw new CheckoutError(500, 'INTERNAL_ERROR', 'The shop could not price this order.', {
      cause: new ConfigurationError(
        `resolveOrder must return {amount: whole satang from ${MIN_CHARGE_AMOUNT_SATANG} to ${MAX_CHARGE_AMOUNT_SATANG}, currency: "THB", referenceId: 1-255 characters, intent?: "charge" | "authorize"}, or {paidBy: chargeId} for an order already paid`,
      ),
    });
  }
  return order;
}
