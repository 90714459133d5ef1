import type { PaymentMethodResponse } from '../../../core/schemas/payment-method.js';
import { SandboxError } from '../../http/sandbox-error.js';

/** Largest amount typed into an action form, in baht: the largest charge the sandbox takes. */
const MAX_FORM_AMOUNT_BAHT_DIGITS = 8;

/** "VISA •••• 1111" for a card member of a payment method, or nothing. */
export function cardText(method: Partial<Pick<PaymentMethodResponse, 'card' | 'cardInstallments' | 'cardNetworkToken'>>): string | null {
  const card = method.card ?? method.cardInstallments ?? method.cardNetworkToken;
  return card ? `${card.brand ?? 'Card'} •••• ${card.last4 ?? ''}`.trim() : null;
}

/**
 * An amount typed in baht ("1,250.50") as satang, exactly; `undefined` when left empty. A
 * validation error names `field` otherwise.
 */
export function satangFromBaht(text: string, field: string): number | undefined {
  const plain = text.replace(/[\s,฿]/g, '').replace(/^THB/i, '');
  if (plain === '') return undefined;
  const match = new RegExp(`^(\\d{1,${MAX_FORM_AMOUNT_BAHT_DIGITS}})(?:\\.(\\d{1,2}))?$`).exec(plain);
  if (!match) throw SandboxError.field(field, 'must be an amount in baht, such as 120 or 120.50');
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
