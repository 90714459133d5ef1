import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import '../../../src/elements/card.js';
import type { SatangCardForm } from '../../../src/elements/card.js';

/**
 * The card number on a 320 px phone: in the checkout, the number field is 254 px wide there (the
 * page's and the checkout's margins taken off). Every digit must show, none under the brand's mark.
 */
const NARROW_FIELD_PX = 254;

beforeEach(async () => {
  await page.viewport(320, 640);
});

afterEach(() => {
  document.body.replaceChildren();
});

async function mount(width: number): Promise<SatangCardForm> {
  const box = document.createElement('div');
  box.style.width = `${width}px`;
  const element = document.createElement('satang-card-form');
  element.setAttribute('locale', 'en');
  box.append(element);
  document.body.append(box);
  await element.updateComplete;
  await element.whenReady();
  return element;
}

/** Where the typed number ends, and where the brand's mark starts, in the page's pixels. */
async function measure(element: SatangCardForm, number: string) {
  const input = element.shadowRoot!.querySelector<HTMLInputElement>('#number')!;
  await userEvent.type(input, number);
  // The brand's marks come right after the first render; its name stands in until then.
  await vi.waitFor(() => expect(element.shadowRoot!.querySelector('[part="brand"] svg')).not.toBeNull());
  const style = getComputedStyle(input);
  const context = document.createElement('canvas').getContext('2d')!;
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  context.letterSpacing = style.letterSpacing;
  const box = input.getBoundingClientRect();
  const mark = element.shadowRoot!.querySelector('[part="brand"]')!.getBoundingClientRect();
  return {
    value: input.value,
    scrollWidth: input.scrollWidth,
    clientWidth: input.clientWidth,
    textEnd: box.left + input.clientLeft + Number.parseFloat(style.paddingLeft) + context.measureText(input.value).width,
    markStart: mark.left,
    markWidth: mark.width,
    fontSize: Number.parseFloat(style.fontSize),
  };
}

describe('<satang-card-form> card number at 320 px', () => {
  for (const [brand, number, shown] of [
    ['an American Express number (15 digits)', '378282246310005', '3782 822463 10005'],
    ['a UnionPay number (19 digits)', '6212345678901234567', '6212 3456 7890 1234 567'],
    ['a Visa number (16 digits)', '4111111111111111', '4111 1111 1111 1111'],
  ] as const) {
    it(`shows the whole of ${brand}, clear of the brand's mark`, async () => {
      const element = await mount(NARROW_FIELD_PX);
      const m = await measure(element, number);
      expect(m.value).toBe(shown);
      // Nothing scrolled out of view, and the last digit ends before the mark starts.
      expect(m.scrollWidth).toBeLessThanOrEqual(m.clientWidth);
      expect(m.textEnd).toBeLessThanOrEqual(m.markStart);
      // Still readable.
      expect(m.fontSize).toBeGreaterThanOrEqual(12);
    });
  }

  it('keeps the full size where the field is wide enough', async () => {
    const element = await mount(420);
    const m = await measure(element, '6212345678901234567');
    expect(m.fontSize).toBe(16);
    expect(m.textEnd).toBeLessThanOrEqual(m.markStart);
  });
});
