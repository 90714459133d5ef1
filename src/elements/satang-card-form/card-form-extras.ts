/**
 * What the card form needs only once the shopper types, fetched right after its first render: the
 * formatting as they type, the card rules and their messages, and the tokenization call. (The
 * brands' marks are a chunk of their own, `card-brand-marks.ts`.)
 */
import { createCardToken as tokenize } from '../../client/card-tokens.js';
import { normalizeDigits as normalize, securityCodeLength, type CardBrand } from '../../core/card.js';
import { formatCardNumber, formatExpiry } from '../../core/card-format.js';
import { parseExpiry as parse, validateCardField as validate, type CardField } from '../../core/card-rules.js';
import { cardRuleMessages } from '../i18n/card-rules.js';
import { useMessages } from '../i18n/localize.js';
import { replaceKeepingCaret } from './replace-keeping-caret.js';

useMessages(cardRuleMessages);

// Declared here rather than re-exported, so that the elements' manifest names this module.
export const createCardToken = tokenize;
export const parseExpiry = parse;
export const validateCardField = validate;
export const normalizeDigits = normalize;

/**
 * Formats a field's text as the shopper types it, keeping the caret: the number grouped by its
 * brand, the expiry as MM/YY, the security code cut to its brand's length (Thai digits become
 * digits). Answers the card's brand, as the number now shows it.
 */
export function formatInput(field: CardField, input: HTMLInputElement, brand: CardBrand, deleting: boolean): CardBrand {
  if (field === 'number') {
    const { formatted, brand: shown } = formatCardNumber(input.value);
    replaceKeepingCaret(input, formatted);
    return shown;
  }
  if (field === 'expiry') replaceKeepingCaret(input, formatExpiry(input.value, deleting));
  else if (field === 'cvc') replaceKeepingCaret(input, normalize(input.value).replace(/\D/g, '').slice(0, brand === 'UNKNOWN' ? 4 : securityCodeLength(brand)));
  return brand;
}
