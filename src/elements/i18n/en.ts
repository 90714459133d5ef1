import { cardMessages } from './card.js';
import { checkoutMessages } from './checkout.js';
import { outcomeMessages } from './outcome.js';
import { paymentMessages } from './payment.js';
import { qrMessages } from './qr.js';

/** Every English string, gathered from the elements' catalogs (card, checkout, payment, outcome, qr). */
export const en = { ...cardMessages.en, ...checkoutMessages.en, ...paymentMessages.en, ...outcomeMessages.en, ...qrMessages.en };
