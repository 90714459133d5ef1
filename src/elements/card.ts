/**
 * `satang/card`: only the card entry element, for pages that take cards alone and want the
 * smallest download.
 */
import { SatangCardForm } from './satang-card-form/satang-card-form.js';

export { SatangCardForm, type TokenizedCard } from './satang-card-form/satang-card-form.js';
export * from './events.js';

if (!customElements.get(SatangCardForm.tagName)) customElements.define(SatangCardForm.tagName, SatangCardForm);
