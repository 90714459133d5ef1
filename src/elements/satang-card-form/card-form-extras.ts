import '../shared-with-entry.js';
/**
 * What the card form needs only once the shopper types, fetched right after its first render: the
 * card rules and their messages, and the tokenization call. (The brands' marks are a chunk of
 * their own, `card-brand-marks.ts`.)
 */
import { cardRuleMessages } from '../i18n/card-rules.js';
import { useMessages } from '../i18n/localize.js';

export { createCardToken } from '../../client/card-tokens.js';
export { parseExpiry, validateCardField } from '../../core/card-rules.js';

useMessages(cardRuleMessages);
