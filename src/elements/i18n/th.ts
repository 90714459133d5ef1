import { cardMessages } from './card.js';
import { checkoutMessages } from './checkout.js';
import { conflictMessages } from './conflict.js';
import type { MessageKey } from './localize.js';
import { outcomeMessages } from './outcome.js';
import { paymentMessages } from './payment.js';
import { qrMessages } from './qr.js';

/** Every Thai string, gathered from the elements' catalogs (card, checkout, conflict, payment, outcome, qr); typed so that none is missing. */
export const th: Record<MessageKey, string> = { ...cardMessages.th, ...checkoutMessages.th, ...conflictMessages.th, ...paymentMessages.th, ...outcomeMessages.th, ...qrMessages.th };
