/**
 * Amounts as shoppers read them. The service counts in satang (1/100 baht) as integers; these
 * helpers turn that into text without ever dividing into a float.
 */

// th-TH would otherwise be free to pick Thai digits; -u-nu-latn pins Western ones, which is what
// Thai receipts and banking apps show.
const LOCALES = { th: 'th-TH-u-nu-latn', en: 'en-TH' } as const;

/**
 * "1234.56" from 123456: the exact decimal form of an integer satang amount, for display and for
 * anything that must not round (the formatter below reads it as a decimal string).
 * Throws a RangeError on a non-integer, which would mean a unit mix-up upstream.
 */
export function satangToDecimalString(amountSatang: number): string {
  if (!Number.isSafeInteger(amountSatang)) throw new RangeError(`amount must be a whole number of satang, got ${amountSatang}`);
  const abs = Math.abs(amountSatang);
  const cents = abs % 100;
  return `${amountSatang < 0 ? '-' : ''}${(abs - cents) / 100}.${String(cents).padStart(2, '0')}`;
}

/**
 * An amount as the checkout shows it, "฿1,234.56" in both languages: always two decimals and
 * Western digits, so the total reads the same as on the shopper's bank statement.
 */
export function formatAmount(amountSatang: number, currency: string, locale: 'th' | 'en'): string {
  return new Intl.NumberFormat(LOCALES[locale], {
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(satangToDecimalString(amountSatang) as `${number}`);
}
