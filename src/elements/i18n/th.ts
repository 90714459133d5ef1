import { cardMessages } from './card.js';
import { cardRuleMessages } from './card-rules.js';
import { checkoutMessages } from './checkout.js';
import { conflictMessages } from './conflict.js';
import { errorMessages } from './errors.js';
import type { MessageKey } from './localize.js';
import { outcomeMessages } from './outcome.js';
import { panelMessages } from './panels.js';
import { paymentMessages } from './payment.js';
import { qrMessages } from './qr.js';

/** Every Thai string, gathered from the elements' catalogs (card, card rules, checkout, panels, conflict, errors, payment, outcome, qr); typed so that none is missing. */
export const th: Record<MessageKey, string> = { ...cardMessages.th, ...cardRuleMessages.th, ...checkoutMessages.th, ...conflictMessages.th, ...errorMessages.th, ...panelMessages.th, ...paymentMessages.th, ...outcomeMessages.th, ...qrMessages.th };
