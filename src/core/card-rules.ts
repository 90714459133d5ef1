/**
 * Card form rules as data: which check runs on which field at which moment, and the message key
 * the i18n layer translates when it fails. Plus the formatting the card inputs apply as the
 * shopper types. Pure: no DOM, no Node.
 */
import { CARD_BRANDS, detectCardBrand, isExpiryInFuture, normalizeDigits, passesLuhn, securityCodeLength, type CardBrand } from './card.js';
import { cardNumberLengths } from './card-format.js';

/** The longest number the brand of `digits` has: where typing stops. */
const maxLengthOf = (digits: string): number => cardNumberLengths(detectCardBrand(digits)).at(-1) ?? 19;

// The formatting as the shopper types lives in its own module, so a card form can have it before the rules.
export { cardNumberLengths, formatCardNumber, formatExpiry } from './card-format.js';

/** Every message key a card rule can return; the i18n catalogues must translate each one. */
export const CARD_MESSAGE_KEYS = [
  'number.required',
  'number.incomplete',
  'number.invalid',
  'number.unsupportedBrand',
  'expiry.required',
  'expiry.incomplete',
  'expiry.month',
  'expiry.past',
  'expiry.buddhistEra',
  'expiry.tooFar',
  'cvc.required',
  'cvc.length',
  'holderName.required',
  'holderName.tooLong',
] as const;
export type CardMessageKey = (typeof CARD_MESSAGE_KEYS)[number];

/** The card form's fields, as the rules and the form name them. */
export type CardField = 'number' | 'expiry' | 'cvc' | 'holderName';

/**
 * When a rule runs. Each moment includes the earlier ones: an `input` rule also runs on blur and
 * submit, a `blur` rule also on submit.
 */
export type CardValidationMoment = 'input' | 'blur' | 'submit';

/** What a rule may need beyond the field's own value. */
export interface CardRuleContext {
  /** Brand of the number typed so far; sets the CVC length. */
  brand: CardBrand;
  /** The current time, for expiry checks; passed in so tests and servers control it. */
  now: Date;
  /** Brands this checkout accepts; all of {@link CARD_BRANDS} when absent. */
  brands?: readonly CardBrand[];
}

/** One rule: `check` answers true when the value is acceptable at that moment. */
export interface CardRule {
  when: CardValidationMoment;
  check: (value: string, context: CardRuleContext) => boolean;
  messageKey: CardMessageKey;
}

/** The first rule a field failed; the form shows its translated message next to the field. */
export interface CardFieldError {
  field: CardField;
  messageKey: CardMessageKey;
}

/** Longest cardholder name the service accepts, in UTF-16 code units. */
export const CARD_HOLDER_NAME_MAX_LENGTH = 100;
/** Cards are not issued further ahead than this; a later year is a typo. */
export const EXPIRY_MAX_YEARS_AHEAD = 20;
/** Buddhist era year = Western year + this; Thai shoppers often write BE years (2568 = 2025). */
export const BUDDHIST_ERA_OFFSET_YEARS = 543;

const MOMENTS: readonly CardValidationMoment[] = ['input', 'blur', 'submit'];

/**
 * Read an expiry as typed, pasted or autofilled ("MM/YY", "MM / YY", "MMYY", "M/YY", "MM/YYYY",
 * Thai digits) into the month and the two-digit year the service takes, or the message key of
 * what is wrong. A Buddhist-era year (2500-2700, or two digits that only make sense as one) gets
 * its own key so the message can say which year to enter.
 */
export function parseExpiry(input: string, now: Date): { month: number; year: number } | { error: CardMessageKey } {
  const s = normalizeDigits(input);
  const m = /^(\d\d?)\/(\d*)$/.exec(s) ?? /^(\d\d)(\d*)$/.exec(s);
  if (!m) return { error: s ? 'expiry.incomplete' : 'expiry.required' };
  const month = Number(m[1]);
  const y = m[2] ?? '';
  if (month < 1 || month > 12) return { error: 'expiry.month' };
  if (y.length !== 2 && y.length !== 4) return { error: 'expiry.incomplete' };
  const typed = Number(y);
  if (typed >= 2500 && typed <= 2700) return { error: 'expiry.buddhistEra' };
  const year = y.length > 2 ? typed : 2000 + typed;
  const nowYear = now.getUTCFullYear();
  if (year < 2000 || !isExpiryInFuture(month, year - 2000, now)) return { error: 'expiry.past' };
  if (year - nowYear > EXPIRY_MAX_YEARS_AHEAD) {
    // "68" typed in 2025 is 2568 BE, i.e. this year, not 2068.
    const western = 2500 + typed - BUDDHIST_ERA_OFFSET_YEARS;
    return { error: y.length < 3 && Math.abs(western - nowYear) <= EXPIRY_MAX_YEARS_AHEAD ? 'expiry.buddhistEra' : 'expiry.tooFar' };
  }
  return { month, year: year - 2000 };
}

const passes = (d: string): boolean => cardNumberLengths(detectCardBrand(d)).includes(d.length) && passesLuhn(d);
const expiryIsNot =
  (key: CardMessageKey, onlyIfFinal?: boolean) =>
  (v: string, c: CardRuleContext): boolean => {
    // A four-digit year is as long as the input goes, so its error cannot be typed away.
    if (onlyIfFinal && !/(\/|\d\d)\d{4}$/.test(v)) return true;
    const r = parseExpiry(v, c.now);
    return !('error' in r) || r.error !== key;
  };
const filled = (v: string): boolean => v !== '';

/**
 * The rules of each field, in the order they are tried. Checks receive the value as
 * {@link validateCardField} prepares it: digits normalised (number, expiry, CVC), name trimmed.
 */
export const CARD_RULES: Readonly<Record<CardField, readonly CardRule[]>> = {
  number: [
    { when: 'blur', messageKey: 'number.required', check: filled },
    {
      when: 'input',
      messageKey: 'number.unsupportedBrand',
      // Every brand is known by its fourth digit, so from there on UNKNOWN is final.
      check: (v, c) => v.length < 4 || (c.brands ?? CARD_BRANDS).includes(detectCardBrand(v)),
    },
    { when: 'input', messageKey: 'number.invalid', check: (v) => /^\d*$/.test(v) && (v.length < maxLengthOf(v) || passes(v)) },
    {
      when: 'blur',
      messageKey: 'number.incomplete',
      check: (v) => cardNumberLengths(detectCardBrand(v)).includes(v.length) || v.length > maxLengthOf(v),
    },
    { when: 'blur', messageKey: 'number.invalid', check: passes },
  ],
  expiry: [
    { when: 'blur', messageKey: 'expiry.required', check: filled },
    { when: 'input', messageKey: 'expiry.month', check: expiryIsNot('expiry.month') },
    { when: 'blur', messageKey: 'expiry.incomplete', check: expiryIsNot('expiry.incomplete') },
    { when: 'input', messageKey: 'expiry.buddhistEra', check: expiryIsNot('expiry.buddhistEra', true) },
    { when: 'input', messageKey: 'expiry.past', check: expiryIsNot('expiry.past', true) },
    { when: 'input', messageKey: 'expiry.tooFar', check: expiryIsNot('expiry.tooFar', true) },
    { when: 'blur', messageKey: 'expiry.buddhistEra', check: expiryIsNot('expiry.buddhistEra') },
    { when: 'blur', messageKey: 'expiry.past', check: expiryIsNot('expiry.past') },
    { when: 'blur', messageKey: 'expiry.tooFar', check: expiryIsNot('expiry.tooFar') },
  ],
  cvc: [
    { when: 'blur', messageKey: 'cvc.required', check: filled },
    { when: 'input', messageKey: 'cvc.length', check: (v, c) => /^\d*$/.test(v) && v.length <= securityCodeLength(c.brand) },
    { when: 'blur', messageKey: 'cvc.length', check: (v, c) => v.length === securityCodeLength(c.brand) },
  ],
  holderName: [
    { when: 'blur', messageKey: 'holderName.required', check: filled },
    { when: 'input', messageKey: 'holderName.tooLong', check: (v) => v.length <= CARD_HOLDER_NAME_MAX_LENGTH },
  ],
};

/**
 * Validate one field at one moment: on every keystroke (`input`: only errors no further typing
 * can fix), when the shopper leaves it (`blur`: also empty and incomplete), or on submit.
 * Answers the first failing rule, or null when the field is fine for now.
 */
export function validateCardField(field: CardField, value: string, context: CardRuleContext, moment: CardValidationMoment): CardFieldError | null {
  const v = field === 'holderName' ? value.trim() : normalizeDigits(value);
  const rank = MOMENTS.indexOf(moment);
  const failed = CARD_RULES[field].find((r) => MOMENTS.indexOf(r.when) <= rank && !r.check(v, context));
  return failed ? { field, messageKey: failed.messageKey } : null;
}
