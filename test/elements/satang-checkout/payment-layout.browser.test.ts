import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import '../../../src/elements/index.js';
import type { SatangCheckout } from '../../../src/elements/index.js';
import { CHECKING_AFTER_MS } from '../../../src/elements/satang-checkout/payment-layout.js';
import { pageCheckoutAttributes } from '../../support/page-tokens.js';

/**
 * A card payment on a phone, as the page around the checkout sees it: "Processing…" over the form
 * until the payment is final, "Checking your payment…" (with its way out) only once the status has
 * been slow past `CHECKING_AFTER_MS`, and the page not moving meanwhile: the cumulative layout shift
 * of the whole payment, measured by Chromium's own `layout-shift` entries, stays within 0.1 (the
 * "good" threshold of Core Web Vitals). The sandbox pays; the slow network is the one fault made
 * here, by holding the status answers back.
 */

const YEAR = String((new Date().getFullYear() + 2) % 100).padStart(2, '0');
const WORDS = {
  en: { checking: 'Checking your payment…', another: 'Choose another method', success: 'Payment successful' },
  th: { checking: 'กำลังตรวจสอบการชำระเงิน…', another: 'เลือกวิธีชำระเงินอื่น', success: 'ชำระเงินสำเร็จ' },
} as const;

beforeAll(async () => {
  await page.viewport(390, 844);
});

afterEach(() => {
  document.body.replaceChildren();
  sessionStorage.clear();
  vi.restoreAllMocks();
});

interface LayoutShift extends PerformanceEntry {
  value: number;
  hadRecentInput: boolean;
}

/** Starts adding up the page's layout shifts, as CLS counts them (not those right after the shopper's input). */
function measureShifts(): { total: () => number; stop: () => void } {
  let total = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as LayoutShift[]) if (!entry.hadRecentInput) total += entry.value;
  });
  observer.observe({ type: 'layout-shift' });
  return {
    total: () => {
      for (const entry of observer.takeRecords() as LayoutShift[]) if (!entry.hadRecentInput) total += entry.value;
      return total;
    },
    stop: () => observer.disconnect(),
  };
}

/** A shop's page on a phone: a heading, the checkout, and the shop's footer under it. */
async function mountOnPage(locale: 'en' | 'th'): Promise<SatangCheckout> {
  const heading = document.createElement('h1');
  heading.textContent = 'Your order';
  const element = document.createElement('satang-checkout');
  const amount = 178_000;
  const attributes = await pageCheckoutAttributes(amount, { locale });
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  const footer = document.createElement('footer');
  footer.textContent = 'Free delivery in Bangkok. Returns within 30 days.';
  footer.style.height = '400px';
  document.body.append(heading, element, footer);
  await element.updateComplete;
  await element.shadowRoot!.querySelector('satang-card-form')!.whenReady();
  await vi.waitUntil(() => (element as unknown as { panelCode?: unknown }).panelCode, { timeout: 5000 });
  return element;
}

const root = (element: SatangCheckout) => element.shadowRoot!;
const cardInput = (element: SatangCheckout, id: string) => root(element).querySelector('satang-card-form')!.shadowRoot!.querySelector<HTMLInputElement>(`#${id}`)!;

/** Holds every status answer back by `ms`: a slow network between the shopper and the shop. */
function slowStatus(ms: number): void {
  const realFetch = window.fetch.bind(window);
  vi.spyOn(window, 'fetch').mockImplementation(async (input, init) => {
    const answer = await realFetch(input, init);
    const url = input instanceof Request ? input.url : input.toString();
    if (/\/charges\/[^/]+\/status/.test(url)) await new Promise((resolve) => setTimeout(resolve, ms));
    return answer;
  });
}

/** Pays by card, noting each moment "checking" shows and when the success came. */
async function payWatching(element: SatangCheckout, locale: 'en' | 'th'): Promise<{ checkingAt: number | undefined; paidAt: number; pressedAt: number; cls: number; wayOut: boolean }> {
  await userEvent.type(cardInput(element, 'number'), '4111111111111111');
  await userEvent.type(cardInput(element, 'expiry'), `12${YEAR}`);
  await userEvent.type(cardInput(element, 'cvc'), '123');
  await userEvent.type(cardInput(element, 'holder'), 'Somchai Jaidee');
  // Whatever settled while typing is past; from here on, the payment alone.
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const shifts = measureShifts();
  let checkingAt: number | undefined;
  let wayOut = false;
  const watcher = new MutationObserver(() => {
    const progress = root(element).querySelector('.progress');
    if (checkingAt === undefined && progress?.textContent.includes(WORDS[locale].checking)) {
      checkingAt = performance.now();
      wayOut = [...root(element).querySelectorAll('button')].some((b) => b.textContent.includes(WORDS[locale].another));
    }
  });
  watcher.observe(root(element), { childList: true, subtree: true, characterData: true });
  const success = new Promise<void>((resolve) => element.addEventListener('satang-success', () => resolve(), { once: true }));
  const pressedAt = performance.now();
  await userEvent.click(root(element).querySelector<HTMLButtonElement>('[part="pay-button"]')!);
  await success;
  const paidAt = performance.now();
  await element.updateComplete;
  await vi.waitFor(() => expect(root(element).querySelector('[part="outcome"] h2')?.textContent).toBe(WORDS[locale].success));
  // Two frames for the last shift, if any, to be recorded.
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  watcher.disconnect();
  const cls = shifts.total();
  shifts.stop();
  return { checkingAt, paidAt, pressedAt, cls, wayOut };
}

describe('a card payment on a phone', () => {
  for (const locale of ['en', 'th'] as const) {
    it(`(${locale}) goes from "Processing…" straight to its success when its status comes within the deadline, the page not moving`, async () => {
      const element = await mountOnPage(locale);
      slowStatus(CHECKING_AFTER_MS / 2);
      const { checkingAt, cls } = await payWatching(element, locale);
      expect(checkingAt, 'no "checking" (nor its way out) before the status was slow').toBeUndefined();
      expect(cls).toBeLessThanOrEqual(0.1);
    });

    it(`(${locale}) shows "checking" with its way out once the status is slow past the deadline, the page not moving`, async () => {
      const element = await mountOnPage(locale);
      slowStatus(CHECKING_AFTER_MS * 2);
      const { checkingAt, pressedAt, cls, wayOut } = await payWatching(element, locale);
      expect(checkingAt, '"checking" shown').toBeDefined();
      expect(checkingAt! - pressedAt).toBeGreaterThanOrEqual(CHECKING_AFTER_MS);
      expect(wayOut, '"Choose another method" with it').toBe(true);
      expect(cls).toBeLessThanOrEqual(0.1);
    });
  }
});
