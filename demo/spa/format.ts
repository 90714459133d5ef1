import { formatAmount } from '../../src/core/money.js';
import { PROVIDER_NAMES } from '../../src/elements/satang-checkout/provider-names.js';

/** "฿1,780.00", as the checkout shows amounts. */
export const money = (satang: number): string => formatAmount(satang, 'THB', 'en');

/** "21 Nov 2026, 20:59", for the receipt. */
export const dateTime = (time: number): string => new Date(time).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** "20:59:07", for the payment log. */
export const clock = (time: number): string => new Date(time).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

const METHOD_NAMES: Readonly<Record<string, string>> = {
  CARD: 'Card',
  CARD_TOKEN: 'Card',
  CARD_TOKEN_INSTALLMENTS: 'Card installments',
  QR_PROMPT_PAY: 'PromptPay QR',
  ...PROVIDER_NAMES,
};

/** A payment method type as shoppers call it. */
export const methodName = (type: string): string => METHOD_NAMES[type] ?? type;
