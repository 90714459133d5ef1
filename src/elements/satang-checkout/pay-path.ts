/**
 * What the checkout runs once the shopper presses pay (or comes back to a payment): the charge and
 * everything after it, with the words of the outcome, of a refusal to charge and of every error;
 * and the panels of the methods other than the card. Not needed to show the form, so the checkout
 * fetches it right after its first render (while the shopper types) instead of before it.
 */
import { adoptStyles, type CSSResultOrNative } from 'lit';
import { conflictMessages } from '../i18n/conflict.js';
import { errorMessages } from '../i18n/errors.js';
import { useMessages } from '../i18n/localize.js';
import { outcomeMessages } from '../i18n/outcome.js';
import { paymentStyles } from './payment.styles.js';

export { flowOf } from './payment-flow.js';
export { paymentView } from './payment-view.js';
export { declineView, failureText, problemText } from './error-text.js';
// The other methods' panels come with it: one fetch after the first render, not two.
export { methodPanelView } from './panels.js';

useMessages(outcomeMessages, conflictMessages, errorMessages);

const styled = new WeakSet<ShadowRoot>();

/** Adds the styles of the panels and the payment's views to the checkout's own (once per checkout). */
export function adoptPaymentStyles(host: HTMLElement): void {
  const root = host.shadowRoot;
  if (!root || styled.has(root)) return;
  styled.add(root);
  const own = (host.constructor as { elementStyles?: CSSResultOrNative[] }).elementStyles ?? [];
  adoptStyles(root, [...own, paymentStyles]);
}
