import { cardMessages } from './card.js';
import { cardRuleMessages } from './card-rules.js';
import { checkoutMessages } from './checkout.js';
import { conflictMessages } from './conflict.js';
import { errorMessages } from './errors.js';
import { outcomeMessages } from './outcome.js';
import { panelMessages } from './panels.js';
import { paymentMessages } from './payment.js';
import { qrMessages } from './qr.js';

/** Every English string, gathered from the elements' catalogs (card, card rules, checkout, panels, conflict, errors, payment, outcome, qr). */
export const en = { ...cardMessages.en, ...cardRuleMessages.en, ...checkoutMessages.en, ...conflictMessages.en, ...errorMessages.en, ...panelMessages.en, ...paymentMessages.en, ...outcomeMessages.en, ...qrMessages.en };
