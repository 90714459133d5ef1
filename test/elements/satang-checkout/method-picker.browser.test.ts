import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import '../../../src/elements/index.js';
import type { SatangCheckout } from '../../../src/elements/index.js';
import { pageCheckoutAttributes } from '../../support/page-tokens.js';

/** The method picker and the panels under it: installments only where the order qualifies, the plans, the dark box. */

afterEach(() => {
  document.body.replaceChildren();
  sessionStorage.clear();
});

async function mount(amount: number, attributes: Record<string, string> = {}): Promise<SatangCheckout> {
  const element = document.createElement('satang-checkout');
  for (const [name, value] of Object.entries(await pageCheckoutAttributes(amount, attributes))) element.setAttribute(name, value);
  document.body.append(element);
  await element.updateComplete;
  // What the checkout fetches right after its first render: the card form's rules and the other panels.
  await root(element).querySelector('satang-card-form')?.whenReady();
  await vi.waitUntil(() => (element as unknown as { panelCode?: unknown }).panelCode, { timeout: 5000 });
  await element.updateComplete;
  return element;
}

const root = (element: Element) => element.shadowRoot!;
const radios = (element: SatangCheckout) => [...root(element).querySelectorAll<HTMLInputElement>('input[name="method"]')];
const radioOf = (element: SatangCheckout, label: string) =>
  radios(element).find((r) => r.closest('[part="method"]')!.querySelector('span')!.textContent.trim() === label)!;
const chosen = (element: SatangCheckout) => root(element).querySelector('input[name="method"]:checked')!.closest('[part="method"]')!.querySelector('span')!.textContent.trim();
const plans = (element: SatangCheckout) => root(element).querySelector<HTMLFieldSetElement>('fieldset[part="options"]');
/** The hint under each plan: its first month when it differs, and the total. */
const planHints = (element: SatangCheckout) => [...root(element).querySelectorAll('[part="option-hint"]')].map((hint) => hint.textContent.replace(/\s+/g, ' ').trim());
/** Each plan's words, without the total under them. */
const planTexts = (element: SatangCheckout) =>
  [...root(element).querySelectorAll('[part="option"] > span')].map((span) =>
    [...span.childNodes]
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent)
      .join('')
      .replace(/\s+/g, ' ')
      .trim(),
  );
const cardForm = (element: SatangCheckout) => root(element).querySelector('satang-card-form')!;
const payButton = (element: SatangCheckout) => root(element).querySelector<HTMLButtonElement>('[part="pay-button"]')!;

async function setAmount(element: SatangCheckout, amount: number): Promise<void> {
  element.amount = amount;
  await element.updateComplete;
}

async function choose(element: SatangCheckout, label: string): Promise<void> {
  await userEvent.click(radioOf(element, label).closest('label')!);
  await element.updateComplete;
}

describe('<satang-checkout> method picker', () => {
  describe('when the order is below every installment plan\'s minimum (฿1,780.00)', () => {
    it('shows installments disabled, with "From ฿3,000.00" beside it as the radio\'s description', async () => {
      const element = await mount(178_000);
      const installments = radioOf(element, 'Installments');
      expect(installments.disabled).toBe(true);
      const reason = root(element).getElementById(installments.getAttribute('aria-describedby')!)!;
      expect(reason.textContent.trim()).toBe('From ฿3,000.00');
      expect(installments.closest('[part="method"]')!.contains(reason)).toBe(true);
      expect(reason.getBoundingClientRect().height).toBeGreaterThan(0);
      // Named by its method alone: the reason is its description, not part of its name.
      await expect.element(page.getByRole('radio', { name: 'Installments', exact: true })).toHaveAccessibleDescription('From ฿3,000.00');
      expect(payButton(element).disabled).toBe(false);
    });

    it('never lets installments be chosen, not even when they are listed first', async () => {
      const element = await mount(178_000, { methods: 'installments,card,promptpay' });
      expect(chosen(element)).toBe('Card');
      // A click as a shopper's, on a choice the browser holds disabled.
      await userEvent.click(radioOf(element, 'Installments').closest('label')!, { force: true });
      await element.updateComplete;
      expect(chosen(element)).toBe('Card');
      expect(radioOf(element, 'Installments').checked).toBe(false);
      expect(cardForm(element).hidden).toBe(false);
      expect(plans(element)).toBeNull();
    });

    it('says it in Thai', async () => {
      const element = await mount(178_000, { locale: 'th' });
      const installments = radioOf(element, 'ผ่อนชำระ');
      expect(root(element).getElementById(installments.getAttribute('aria-describedby')!)!.textContent.trim()).toBe('ยอดตั้งแต่ ฿3,000.00');
    });
  });

  describe('when the amount changes', () => {
    it('opens installments once the order reaches ฿3,000.00, with no reason shown', async () => {
      const element = await mount(178_000);
      await setAmount(element, 307_000);
      const installments = radioOf(element, 'Installments');
      expect(installments.disabled).toBe(false);
      expect(installments.hasAttribute('aria-describedby')).toBe(false);
      expect(root(element).querySelector('[part="method-reason"]')).toBeNull();
      await choose(element, 'Installments');
      expect(chosen(element)).toBe('Installments');
    });

    it('closes installments again when the order falls below ฿3,000.00, and goes back to the card', async () => {
      const element = await mount(400_000);
      await choose(element, 'Installments');
      await setAmount(element, 178_000);
      expect(radioOf(element, 'Installments').disabled).toBe(true);
      expect(chosen(element)).toBe('Card');
      expect(cardForm(element).hidden).toBe(false);
      expect(plans(element)).toBeNull();
      expect(payButton(element).disabled).toBe(false);
    });
  });

  describe('installment plans', () => {
    it('preselects the first plan the order qualifies for', async () => {
      const element = await mount(400_000);
      await choose(element, 'Installments');
      const checked = [...plans(element)!.querySelectorAll<HTMLInputElement>('input[name="plan"]')].map((r) => r.checked);
      expect(checked).toEqual([true, false, false]);
    });

    it('keeps a longer plan the shopper chose while the order still qualifies for it, and falls back to the first one when not', async () => {
      const element = await mount(500_000);
      await choose(element, 'Installments');
      await userEvent.click(plans(element)!.querySelectorAll('label')[3]!);
      await setAmount(element, 510_000);
      expect(plans(element)!.querySelectorAll<HTMLInputElement>('input[name="plan"]')[3]!.checked).toBe(true);
      await setAmount(element, 450_000);
      expect([...plans(element)!.querySelectorAll<HTMLInputElement>('input[name="plan"]')].map((r) => r.checked)).toEqual([true, false, false]);
    });

    it('lists the plans above the card fields', async () => {
      const element = await mount(400_000);
      await choose(element, 'Installments');
      const list = plans(element)!;
      expect(list.compareDocumentPosition(cardForm(element)) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      expect(list.getBoundingClientRect().bottom).toBeLessThanOrEqual(cardForm(element).getBoundingClientRect().top);
    });

    it('keeps the card entered when the plans move above it and back', async () => {
      const element = await mount(400_000);
      const form = cardForm(element);
      await choose(element, 'Installments');
      await choose(element, 'Card');
      expect(cardForm(element)).toBe(form);
    });

    it('says each plan in one wording, the amount repeated times the months, and a first month that differs once, under it', async () => {
      const element = await mount(436_000);
      await choose(element, 'Installments');
      expect(planTexts(element)).toEqual(['฿1,453.33 × 3 months', '฿1,090.00 × 4 months', '฿726.66 × 6 months']);
      expect(planHints(element)).toEqual(['First month ฿1,453.34 · Total ฿4,360.00', 'Total ฿4,360.00', 'First month ฿726.70 · Total ฿4,360.00']);
    });

    it('says it in Thai, as Thai shops write it', async () => {
      const element = await mount(436_000, { locale: 'th' });
      await choose(element, 'ผ่อนชำระ');
      expect(planTexts(element)).toEqual(['฿1,453.33 × 3 เดือน', '฿1,090.00 × 4 เดือน', '฿726.66 × 6 เดือน']);
      expect(planHints(element)[0]).toBe('เดือนแรก ฿1,453.34 · รวม ฿4,360.00');
    });
  });

  describe('with theme="dark" on a light page', () => {
    it('keeps its content off the edges of its dark box', async () => {
      const element = await mount(178_000, { theme: 'dark' });
      const box = root(element).querySelector<HTMLElement>('[part="container"]')!;
      const padding = Number.parseFloat(getComputedStyle(box).paddingInlineStart);
      expect(padding).toBeGreaterThanOrEqual(12);
      const outer = box.getBoundingClientRect();
      const picker = root(element).querySelector('[part="methods"]')!.getBoundingClientRect();
      expect(picker.left - outer.left).toBeGreaterThanOrEqual(12);
      expect(picker.top - outer.top).toBeGreaterThanOrEqual(12);
      expect(outer.right - payButton(element).getBoundingClientRect().right).toBeGreaterThanOrEqual(12);
      expect(outer.bottom - payButton(element).getBoundingClientRect().bottom).toBeGreaterThanOrEqual(12);
    });

    it('adds no padding in the light theme, where the box is the page\'s colour', async () => {
      const element = await mount(178_000);
      expect(getComputedStyle(root(element).querySelector('[part="container"]')!).paddingInlineStart).toBe('0px');
    });
  });
});
