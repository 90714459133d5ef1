/**
 * Card rules shared by the browser form, the merchant server and the sandbox. Pure functions:
 * no DOM, no Node.
 */

/** Card brands Satang recognises from the number, as the service names them. */
export const CARD_BRANDS = ['VISA', 'MASTERCARD', 'AMEX', 'JCB', 'UNIONPAY', 'DINERS', 'DISCOVER'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number] | 'UNKNOWN';

/** Digits only: Thai digits (๐-๙) become ASCII, spaces and dashes go. Anything else stays, so a
 * validator can still reject it. */
export function normalizeDigits(input: string): string {
  return input
    .replace(/[\u0E50-\u0E59]/g, (d) => String(d.charCodeAt(0) - 0x0e50))
    .replace(/[\s-]/g, '');
}

/** The Luhn (mod 10) check every card number passes. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** The brand a card number belongs to, from its leading digits (IIN ranges). */
export function detectCardBrand(digits: string): CardBrand {
  if (digits.startsWith('4')) return 'VISA';
  if (/^3[47]/.test(digits)) return 'AMEX';
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(digits)) return 'MASTERCARD';
  if (/^35(2[89]|[3-8]\d)/.test(digits)) return 'JCB';
  if (/^3(0[0-5]|[68])/.test(digits)) return 'DINERS';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'DISCOVER';
  if (digits.startsWith('62')) return 'UNIONPAY';
  return 'UNKNOWN';
}

/** Security code length by brand: four digits on Amex, three elsewhere. */
export function securityCodeLength(brand: CardBrand): 3 | 4 {
  return brand === 'AMEX' ? 4 : 3;
}

/**
 * Whether a card with this expiry can still be used at `now`: a card is valid through the last
 * day of its expiry month. `expiryYear` is two digits (20YY).
 */
export function isExpiryInFuture(expiryMonth: number, expiryYear: number, now: Date): boolean {
  const fullYear = 2000 + expiryYear;
  const nowYear = now.getUTCFullYear();
  const nowMonth = now.getUTCMonth() + 1;
  return fullYear > nowYear || (fullYear === nowYear && expiryMonth >= nowMonth);
}
