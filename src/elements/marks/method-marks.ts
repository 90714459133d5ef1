/**
 * The marks of the method picker: one small line drawing per choice (card, installments,
 * PromptPay QR, e-wallet, mobile banking), drawn for Satang in `currentColor` (the stroke is set in
 * the checkout's styles, `.glyph`), so they follow the theme and forced colours. Shown with the first render, so each is a few bytes of path.
 */
import { html, type TemplateResult } from 'lit';
import type { MethodGroup } from '../satang-checkout/payment-methods.js';

const PATHS: Record<MethodGroup, string> = {
  // A card with its magnetic stripe.
  CARD: 'M3 6h18v12H3zM3 10h18M6 15h4',
  // A card and a calendar's rings: paid month by month.
  CARD_INSTALLMENTS: 'M3 7h18v12H3zM3 11h18M8 4v5M16 4v5M7 15h2m3 0h2m3 0h0',
  // A QR code's three finder squares and a dot of data.
  QR_PROMPT_PAY: 'M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 14h2v2h-2zM18 18h2v2h-2zM14 19h1M19 14h1',
  // A wallet with its clasp.
  E_WALLET: 'M4 7h15a1 1 0 0 1 1 1v11H4zM4 7l12-3v3M15 12h5v4h-5z',
  // A phone.
  MOBILE_BANKING: 'M7 3h10v18H7zM11 18h2',
};

/** The mark of a method choice; decorative, its name is written beside it. */
export function methodMark(group: MethodGroup): TemplateResult {
  return html`<svg part="method-mark" viewBox="0 0 24 24" class="mark glyph" aria-hidden="true"><path d=${PATHS[group]} /></svg>`;
}
