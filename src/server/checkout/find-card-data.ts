import { passesLuhn } from '../../core/card.js';

/** Keys that carry card data, which never comes to the merchant's server. */
const CARD_DATA_KEY = /^(pan|primary_?account_?number|card_?number|cc_?number|cc_?num|expiry|expiry_?(month|year|date)|exp_?(month|year|date)|expiration(_?(month|year|date))?|track_?[12]?)$/i;
/**
 * Fields whose values are the merchant's own ids, not card data. (A card token id is `ctk_…`, never
 * a card number: one that is a card number was put where the token goes, and is refused as such.)
 */
const ID_FIELDS = new Set(['orderReference']);

/** The path of the first field that looks like card data: a card-data key, or a card number as a value. */
export function findCardData(value: unknown, path: string[] = []): string | undefined {
  const stack: [unknown, string[]][] = [[value, path]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [item, at] = next;
    const key = at[at.length - 1];
    if (typeof item === 'string' || typeof item === 'number') {
      if (key !== undefined && ID_FIELDS.has(key)) continue;
      const digits = String(item).replace(/[\s-]/g, '');
      if (/^\d{13,19}$/.test(digits) && passesLuhn(digits)) return at.join('.') || '(body)';
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    for (const [childKey, child] of Object.entries(item)) {
      if (!Array.isArray(item) && CARD_DATA_KEY.test(childKey)) return [...at, childKey].join('.');
      stack.push([child, [...at, childKey]]);
    }
  }
  return undefined;
}
