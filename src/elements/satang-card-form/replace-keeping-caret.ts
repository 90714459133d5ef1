import { normalizeDigits } from '../../core/card.js';

/**
 * Replaces an input's text, keeping the caret in place relative to the digits before it, or at
 * the end when it was there: formatting may add a zero or a slash ahead of the caret ("3" ->
 * "03/"), and the next key must land after them.
 */
export function replaceKeepingCaret(input: HTMLInputElement, next: string): void {
  if (input.value === next) return;
  const caret = input.selectionStart ?? input.value.length;
  const atEnd = caret >= input.value.length;
  // Thai digits count as digits: they are what the shopper typed before the caret.
  const digitsBefore = normalizeDigits(input.value.slice(0, caret)).replace(/\D/g, '').length;
  input.value = next;
  if (atEnd) {
    input.setSelectionRange(next.length, next.length);
    return;
  }
  let position = 0;
  for (let seen = 0; position < next.length && seen < digitsBefore; position += 1) if (/\d/.test(next.charAt(position))) seen += 1;
  input.setSelectionRange(position, position);
}
