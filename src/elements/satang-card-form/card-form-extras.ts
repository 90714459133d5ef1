/**
 * What the card form needs only once the shopper types, fetched right after its first render: the
 * card rules and their messages, and the tokenization call. (The brands' marks are a chunk of
 * their own, `card-brand-marks.ts`.)
 */
import '../shared-with-entry.js';
import { createCardToken as tokenize } from '../../client/card-tokens.js';
import { parseExpiry as parse, validateCardField as validate } from '../../core/card-rules.js';
import { cardRuleMessages } from '../i18n/card-rules.js';
import { useMessages } from '../i18n/localize.js';

useMessages(cardRuleMessages);

// Declared here rather than re-exported, so that the elements' manifest names this module.
export const createCardToken = tokenize;
export const parseExpiry = parse;
export const validateCardField = validate;
