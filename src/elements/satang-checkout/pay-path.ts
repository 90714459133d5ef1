/**
 * What the checkout runs once the shopper presses pay: creating the charge, following it, leaving
 * for a redirect, and the words of the outcome. Not needed to show the form, so the checkout fetches
 * it right after its first render (while the shopper types) instead of before it.
 */
import { useMessages } from '../i18n/localize.js';
import { outcomeMessages } from '../i18n/outcome.js';

export { createCheckoutCharge } from '../../client/checkout-api.js';
export { safeRedirectUrl } from '../../client/redirect.js';
export { failureMessageKey } from '../../core/failure.js';
export { StatusPoller } from '../controllers/status-poller.js';

useMessages(outcomeMessages);
