import { cardMessages } from './card.js';
import { checkoutMessages } from './checkout.js';
import { conflictMessages } from './conflict.js';
import { outcomeMessages } from './outcome.js';
import { paymentMessages } from './payment.js';
import { qrMessages } from './qr.js';

/** Every English string, gathered from the elements' catalogs (card, checkout, conflict, payment, outcome, qr). */
export const en = { ...cardMessages.en, ...checkoutMessages.en, ...conflictMessages.en, ...paymentMessages.en, ...outcomeMessages.en, ...qrMessages.en };
