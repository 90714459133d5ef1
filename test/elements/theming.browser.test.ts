import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import '../../src/elements/index.js';
import type { SatangCheckout } from '../../src/elements/index.js';
import { pageCheckoutAttributes } from '../support/page-tokens.js';

/**
 * A page themes the checkout from its own stylesheet, the way designers do: tokens on `:root` or
 * on a wrapper, parts with `::part()`. Every state the shopper meets (the card form, a decline, a
 * changed total, the QR code, the order paid) must show the page's tokens, the card form and the
 * QR code inside the checkout included, and their parts must be styleable through the checkout.
 */

const YEAR = String((new Date().getFullYear() + 2) % 100).padStart(2, '0');

/** The page's theme, in the computed form the browser gives back (colours as rgb()). */
const THEME = {
  accent: 'rgb(194, 65, 12)',
  onAccent: 'rgb(255, 251, 235)',
  text: 'rgb(61, 31, 11)',
  muted: 'rgb(124, 74, 36)',
  surface: 'rgb(255, 250, 243)',
  field: 'rgb(254, 243, 226)',
  border: 'rgb(185, 120, 63)',
  error: 'rgb(180, 35, 24)',
  success: 'rgb(47, 107, 31)',
  cardBrand: 'rgb(250, 240, 230)',
  radius: '18px',
  fieldHeight: '52px',
  font: 'Georgia',
  qrSize: '200px',
  focusRing: 'rgb(1, 2, 3) 0px 0px 0px 5px',
};

const TOKENS = `
  --satang-color-accent: ${THEME.accent};
  --satang-color-on-accent: ${THEME.onAccent};
  --satang-color-text: ${THEME.text};
  --satang-color-muted: ${THEME.muted};
  --satang-color-surface: ${THEME.surface};
  --satang-color-field: ${THEME.field};
  --satang-color-border: ${THEME.border};
  --satang-color-error: ${THEME.error};
  --satang-color-success: ${THEME.success};
  --satang-color-card-brand: ${THEME.cardBrand};
  --satang-radius: ${THEME.radius};
  --satang-field-height: ${THEME.fieldHeight};
  --satang-font-family: ${THEME.font};
  --satang-qr-size: ${THEME.qrSize};
  --satang-focus-ring: 0 0 0 5px rgb(1, 2, 3);
`;

/** Where the page sets its tokens: the whole document, or a wrapper around the checkout. */
const PLACES = [
  { name: 'on :root', css: `:root {${TOKENS}}`, wrap: false },
  { name: 'on a wrapping ancestor', css: `.shop-theme {${TOKENS}}`, wrap: true },
] as const;

afterEach(() => {
  document.body.replaceChildren();
  document.head.querySelectorAll('style[data-theme-test]').forEach((style) => style.remove());
  sessionStorage.clear();
  vi.restoreAllMocks();
});

function pageStyle(css: string): void {
  const style = document.createElement('style');
  style.dataset.themeTest = '';
  style.textContent = css;
  document.head.append(style);
}

async function mount(wrap: boolean, attributes: Record<string, string> = {}, amount = 12_345): Promise<SatangCheckout> {
  const element = document.createElement('satang-checkout');
  for (const [name, value] of Object.entries(await pageCheckoutAttributes(amount, attributes))) element.setAttribute(name, value);
  // Two levels down, so the tokens are inherited, never set on the element itself.
  const outer = document.createElement('div');
  const inner = document.createElement('section');
  if (wrap) outer.className = 'shop-theme';
  inner.append(element);
  outer.append(inner);
  document.body.append(outer);
  await element.updateComplete;
  await cardForm(element)?.whenReady();
  await vi.waitUntil(() => (element as unknown as { panelCode?: unknown }).panelCode, { timeout: 5000 });
  await element.updateComplete;
  return element;
}

const root = (element: Element) => element.shadowRoot!;
const part = (element: Element, name: string) => root(element).querySelector<HTMLElement>(`[part~="${name}"]`);
const cardForm = (element: SatangCheckout) => root(element).querySelector('satang-card-form');
const cardPart = (element: SatangCheckout, name: string) => root(cardForm(element)!).querySelector<HTMLElement>(`[part~="${name}"]`)!;
const qrElement = (element: SatangCheckout) => root(element).querySelector('satang-qr-payment')!;
const qrPart = (element: SatangCheckout, name: string) => root(qrElement(element)).querySelector<HTMLElement>(`[part~="${name}"]`);
const style = (node: Element | null, pseudo?: string) => {
  if (!node) throw new Error('no such part');
  return getComputedStyle(node, pseudo);
};
const cardInput = (element: SatangCheckout, id: string) => root(cardForm(element)!).querySelector<HTMLInputElement>(`#${id}`)!;

async function fillCard(element: SatangCheckout, pan: string): Promise<void> {
  await userEvent.type(cardInput(element, 'number'), pan);
  await userEvent.type(cardInput(element, 'expiry'), `12${YEAR}`);
  await userEvent.type(cardInput(element, 'cvc'), '123');
  await userEvent.type(cardInput(element, 'holder'), 'Somchai Jaidee');
}

function next<K extends keyof GlobalEventHandlersEventMap>(target: EventTarget, type: K): Promise<GlobalEventHandlersEventMap[K]> {
  return new Promise((resolve) => target.addEventListener(type, resolve as EventListener, { once: true }));
}

/** Every part inside a nested element's shadow root is exported by the checkout, under some name. */
function expectAllExported(nested: Element): void {
  const exported = (nested.getAttribute('exportparts') ?? '').split(',').map((pair) => pair.split(':')[0]!.trim());
  const parts = [...root(nested).querySelectorAll('[part]')].flatMap((node) => node.getAttribute('part')!.split(/\s+/));
  expect(parts.length).toBeGreaterThan(0);
  expect(parts.filter((name) => !exported.includes(name)), `parts of <${nested.localName}> the checkout does not export`).toEqual([]);
}

describe.each(PLACES)('a theme set $name', ({ css, wrap }) => {
  it('styles the card form: the picker, the nested card fields and their brand badge, the pay button', async () => {
    pageStyle(css);
    const element = await mount(wrap);
    expect(style(part(element, 'container')).backgroundColor).toBe(THEME.surface);
    expect(style(part(element, 'container')).fontFamily).toBe(THEME.font);
    expect(style(part(element, 'methods-label')).color).toBe(THEME.text);
    // One not chosen: the chosen one is tinted with the accent.
    const method = [...root(element).querySelectorAll('[part~="method"]')].find((m) => !m.querySelector('input')!.checked)!;
    expect([style(method).borderTopLeftRadius, style(method).backgroundColor, style(method).minHeight]).toEqual([THEME.radius, THEME.field, THEME.fieldHeight]);
    expect(style(part(element, 'method-radio')).accentColor).toBe(THEME.accent);
    expect(style(part(element, 'method-mark')).stroke).toBe(THEME.text);
    const pay = style(part(element, 'pay-button'));
    expect([pay.backgroundColor, pay.color, pay.borderTopLeftRadius, pay.fontFamily]).toEqual([THEME.accent, THEME.onAccent, THEME.radius, THEME.font]);

    // The card form inside the checkout follows the same tokens.
    const input = style(cardPart(element, 'input'));
    expect([input.backgroundColor, input.borderTopColor, input.borderTopLeftRadius, input.minHeight, input.fontFamily]).toEqual([
      THEME.field,
      THEME.border,
      THEME.radius,
      THEME.fieldHeight,
      THEME.font,
    ]);
    expect(style(cardPart(element, 'hint')).color).toBe(THEME.muted);
    await userEvent.type(cardInput(element, 'number'), '5555555555554444');
    await vi.waitFor(() => expect(cardPart(element, 'brand').querySelector('svg')).not.toBeNull());
    expect(style(cardPart(element, 'brand').querySelector('svg')).backgroundColor).toBe(THEME.cardBrand);
    // Still in the number field: focused, with the page's focus ring.
    expect(root(cardForm(element)!).activeElement).toBe(cardInput(element, 'number'));
    expect(style(cardInput(element, 'number')).boxShadow).toBe(THEME.focusRing);
    expectAllExported(cardForm(element)!);
  });

  it('styles a decline in the error colour', async () => {
    pageStyle(css);
    const element = await mount(wrap);
    await fillCard(element, '4943129900084541');
    const failure = next(element, 'satang-failure');
    await userEvent.click(part(element, 'pay-button')!);
    await failure;
    await vi.waitFor(() => expect(part(element, 'message')).not.toBeNull());
    const message = style(part(element, 'message'));
    expect([message.color, message.borderTopColor, message.borderTopLeftRadius]).toEqual([THEME.error, THEME.error, THEME.radius]);
  });

  it('styles the changed total and its confirm button', async () => {
    pageStyle(css);
    const element = await mount(wrap, { amount: '24500', 'order-reference': `order-387000-${crypto.randomUUID()}` });
    await fillCard(element, '4111111111111111');
    const changed = next(document, 'satang-amount-changed');
    await userEvent.click(part(element, 'pay-button')!);
    await changed;
    await vi.waitFor(() => expect(part(element, 'confirm-button')).not.toBeNull());
    expect(style(part(element, 'conflict')).borderTopLeftRadius).toBe(THEME.radius);
    const confirm = style(part(element, 'confirm-button'));
    expect([confirm.backgroundColor, confirm.color]).toEqual([THEME.accent, THEME.onAccent]);
    const back = style(part(element, 'back-button'));
    expect([back.color, back.borderTopColor]).toEqual([THEME.accent, THEME.accent]);
  });

  it('styles the QR code inside the checkout, its size and every part of it, and the way out', async () => {
    pageStyle(css);
    const element = await mount(wrap, { methods: 'promptpay, card' });
    const shown = next(element, 'satang-action');
    await userEvent.click(part(element, 'pay-button')!);
    await shown;
    await vi.waitFor(() => expect(qrElement(element)).not.toBeNull());
    const qr = qrElement(element);
    await vi.waitFor(() => expect(qrPart(element, 'slip-button')).not.toBeNull());
    expect(style(qrPart(element, 'container')).backgroundColor).toBe(THEME.surface);
    expect(style(qrPart(element, 'qr')).width).toBe(THEME.qrSize);
    expect(style(qrPart(element, 'qr')).borderTopLeftRadius).toBe(THEME.radius);
    expect(style(qrPart(element, 'amount')).color).toBe(THEME.text);
    expect(style(qrPart(element, 'amount')).fontFamily).toBe(THEME.font);
    expect(style(qrPart(element, 'countdown')).color).toBe(THEME.muted);
    expect(style(qrPart(element, 'status'), '::before').backgroundColor).toBe(THEME.accent);
    const slip = style(qrPart(element, 'slip-button'));
    expect([slip.color, slip.minHeight, slip.borderTopLeftRadius]).toEqual([THEME.accent, THEME.fieldHeight, THEME.radius]);
    const wayOut = style(part(element, 'change-method-button'));
    expect([wayOut.color, wayOut.borderTopColor]).toEqual([THEME.accent, THEME.accent]);
    expectAllExported(qr);
  });

  it('styles the order paid in the success colour', async () => {
    pageStyle(css);
    const element = await mount(wrap);
    await fillCard(element, '4111111111111111');
    const success = next(element, 'satang-success');
    await userEvent.click(part(element, 'pay-button')!);
    await success;
    await vi.waitFor(() => expect(part(element, 'outcome')).not.toBeNull());
    const outcome = style(part(element, 'outcome'));
    // The success stands in the form's box, centred under its check mark, drawn in the success colour.
    const mark = style(part(element, 'outcome-mark'));
    expect([outcome.color, mark.stroke, outcome.borderTopLeftRadius, outcome.fontFamily]).toEqual([THEME.success, THEME.success, THEME.radius, THEME.font]);
  });
});

describe('the checkout themed from the page', () => {
  it('keeps its own defaults where the page sets no token', async () => {
    const element = await mount(false);
    const pay = style(part(element, 'pay-button'));
    expect([pay.backgroundColor, pay.color, pay.borderTopLeftRadius]).toEqual(['rgb(11, 87, 208)', 'rgb(255, 255, 255)', '8px']);
    expect(style(cardPart(element, 'input')).minHeight).toBe('48px');
  });

  it('lets tokens on :root win over the dark theme\'s defaults, and keeps the dark defaults for the rest', async () => {
    pageStyle(`:root { --satang-color-accent: ${THEME.accent}; }`);
    const element = await mount(false, { theme: 'dark' });
    expect(style(part(element, 'pay-button')).backgroundColor).toBe(THEME.accent);
    expect(style(part(element, 'container')).backgroundColor).toBe('rgb(29, 31, 35)');
    expect(style(cardPart(element, 'input')).backgroundColor).toBe('rgb(37, 40, 45)');
  });

  it('shows progress as a status line, not a field: no box, no outline when focused, its own part', async () => {
    pageStyle(`:root {${TOKENS}}`);
    const element = await mount(false, { methods: 'ewallet, card' });
    // The redirect is held, so the page stays on the progress.
    const away = new Promise<void>((resolve) => {
      (element as unknown as { navigate: () => void }).navigate = () => resolve();
    });
    await userEvent.click(part(element, 'pay-button')!);
    await away;
    await vi.waitFor(() => expect(part(element, 'progress')).not.toBeNull());
    expect(part(element, 'message')).toBeNull();
    const progress = part(element, 'progress')!;
    progress.focus();
    expect(root(element).activeElement).toBe(progress);
    const line = style(progress);
    expect([line.outlineStyle, line.borderTopStyle, line.backgroundColor, line.color]).toEqual(['none', 'none', 'rgba(0, 0, 0, 0)', THEME.muted]);
    // Nothing is asked of the shopper yet: the spinner turns, in the accent.
    const spinner = style(part(element, 'spinner'));
    expect([spinner.animationName, spinner.borderTopColor]).toEqual(['satang-spin', THEME.accent]);
  });

  it('lets the page style parts of the nested card form and QR code through the checkout', async () => {
    pageStyle(`
      satang-checkout::part(card-input) { letter-spacing: 3px; }
      satang-checkout::part(card-label) { text-transform: uppercase; }
      satang-checkout::part(qr-slip-button) { border-radius: 999px; }
      satang-checkout::part(qr-code) { outline: 4px solid rgb(9, 8, 7); }
    `);
    const element = await mount(false, { methods: 'promptpay, card' });
    await vi.waitFor(() => expect(cardForm(element)).not.toBeNull());
    expect(style(cardPart(element, 'input')).letterSpacing).toBe('3px');
    expect(style(cardPart(element, 'label')).textTransform).toBe('uppercase');
    const shown = next(element, 'satang-action');
    await userEvent.click(part(element, 'pay-button')!);
    await shown;
    await vi.waitFor(() => expect(qrPart(element, 'slip-button')).not.toBeNull());
    expect(style(qrPart(element, 'slip-button')).borderTopLeftRadius).toBe('999px');
    expect(style(qrPart(element, 'qr')).outlineColor).toBe('rgb(9, 8, 7)');
  });
});
