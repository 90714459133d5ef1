/**
 * Amounts as shoppers read them. The service counts in satang (1/100 baht) as integers; these
 * helpers turn that into text without ever dividing into a float.
 */

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
 * An amount as the checkout shows it, "฿1,234.56" in both languages: always two decimals, Western
 * digits and comma groups, so the total reads the same as on the shopper's bank statement (a Thai
 * page shows the same text). Written by hand rather than with `Intl.NumberFormat`: it is exact for
 * every safe integer, and building a formatter costs milliseconds on a phone before the first paint.
 * Currencies other than THB (which the service does not charge in) show their ISO code, and so does
 * every currency with `currencyDisplay: 'code'` ("THB 1,234.56"), for text where the baht sign
 * cannot be drawn or read (a slip picture, an error message). A currency that is not an ISO 4217
 * code (three capital letters) throws a RangeError.
 */
export function formatAmount(
  amountSatang: number,
  currency: string,
  _locale?: 'th' | 'en',
  { currencyDisplay = 'symbol' }: { currencyDisplay?: 'symbol' | 'code' } = {},
): string {
  if (!/^[A-Z]{3}$/.test(currency)) throw new RangeError(`currency must be an ISO 4217 code, got ${currency}`);
  const [whole, cents] = satangToDecimalString(amountSatang).split('.') as [string, string];
  const sign = whole.startsWith('-') ? '-' : '';
  const grouped = whole.replace('-', '').replace(/\B(?=(\d{3})+$)/g, ',');
  return `${sign}${currency === 'THB' && currencyDisplay === 'symbol' ? '฿' : `${currency} `}${grouped}.${cents}`;
}
