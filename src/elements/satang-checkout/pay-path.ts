/**
 * What the checkout runs once the shopper presses pay: the charge and everything after it, with
 * the words of the outcome and of a refusal to charge. Not needed to show the form, so the
 * checkout fetches it right after its first render (while the shopper types) instead of before it.
 */
import { conflictMessages } from '../i18n/conflict.js';
import { useMessages } from '../i18n/localize.js';
import { outcomeMessages } from '../i18n/outcome.js';

export { charge, follow, paymentView } from './charge-steps.js';

useMessages(outcomeMessages, conflictMessages);
