/**
 * Card input formatting as the shopper types: grouping the number, capping it at the brand's
 * longest length, and the expiry's zero and slash. Apart from the rules (`card-rules.ts`, which
 * re-exports it) so a card form can format from its first render and fetch the rules after it.
 * Pure: no DOM, no Node.
 */
import { detectCardBrand, normalizeDigits, type CardBrand } from './card.js';

// Lengths as card-type libraries list them; UNKNOWN spans everything the service accepts so the
// form can still group and cap what a shopper types.
const NUMBER_LENGTHS: Readonly<Record<CardBrand, readonly number[]>> = {
  VISA: [16, 18, 19],
  MASTERCARD: [16],
  AMEX: [15],
  JCB: [16, 17, 18, 19],
  UNIONPAY: [16, 17, 18, 19],
  DINERS: [14, 16, 17, 18, 19],
  DISCOVER: [16, 17, 18, 19],
  UNKNOWN: [12, 13, 14, 15, 16, 17, 18, 19],
};

/** Valid card number lengths for a brand, ascending; the last is where typing stops. */
export function cardNumberLengths(brand: CardBrand): readonly number[] {
  return NUMBER_LENGTHS[brand];
}

const maxLengthOf = (brand: CardBrand): number => NUMBER_LENGTHS[brand].at(-1) ?? 19;

/**
 * Format what the shopper typed or pasted into the number input: Thai digits become ASCII,
 * anything else that is not a digit goes, digits stop at the brand's longest length, and groups
 * are 4-6-5 on Amex, 4-6-4 on 14-digit Diners, 4-4-4-4-3 otherwise. No trailing space, so
 * deleting across a group boundary needs no special case. `maxLength` counts digits.
 */
export function formatCardNumber(input: string): { digits: string; formatted: string; brand: CardBrand; maxLength: number } {
  const all = normalizeDigits(input).replace(/\D/g, '');
  const brand = detectCardBrand(all);
  const maxLength = maxLengthOf(brand);
  const digits = all.slice(0, maxLength);
  // Diners keeps 4-6-4 until a 15th digit shows it is one of the longer numbers.
  const groups = brand === 'AMEX' ? [4, 6, 5] : brand === 'DINERS' && digits.length < 15 ? [4, 6, 4] : [4, 4, 4, 4, 3];
  let at = 0;
  const formatted = groups.map((n) => digits.slice(at, (at += n))).filter(Boolean).join(' ');
  return { digits, formatted, brand, maxLength };
}

/**
 * Format the expiry input as the shopper types: a month that can only be one digit gets its
 * zero ("3" -> "03/", "13" -> "01/3", "1/" -> "01/"), a complete month gets the slash, years keep
 * up to four digits so a Buddhist-era year is seen and refused rather than silently cut.
 * Pass `deleting` (an `inputType` starting with "delete") so a deleted slash stays deleted.
 */
export function formatExpiry(input: string, deleting = false): string {
  const s = normalizeDigits(input);
  let d = s.replace(/\D/g, '');
  if (!deleting && (/^([2-9]|1[3-9]$)/.test(d) || /^1\D/.test(s))) d = '0' + d;
  const month = d.slice(0, 2);
  const year = d.slice(2, 6);
  return month + (year || (month.length > 1 && (!deleting || /\D$/.test(s))) ? '/' : '') + year;
}

