import { cardMessages } from './card.js';
import { checkoutMessages } from './checkout.js';
import { outcomeMessages } from './outcome.js';
import { paymentMessages } from './payment.js';
import { qrMessages } from './qr.js';

/** Every Thai string, gathered from the elements' catalogs (card, checkout, payment, outcome, qr). */
export const th = { ...cardMessages.th, ...checkoutMessages.th, ...paymentMessages.th, ...outcomeMessages.th, ...qrMessages.th };
