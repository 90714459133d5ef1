import { html, LitElement } from 'lit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalizeController } from '../../../src/elements/controllers/localize-controller.js';
import { checkoutMessages } from '../../../src/elements/i18n/checkout.js';
import '../../../src/elements/index.js';
import type { SatangCardForm } from '../../../src/elements/index.js';
import { SANDBOX_DEFAULTS } from '../../../src/sandbox/defaults.js';
import { withPageOrderToken } from '../../support/page-tokens.js';

/** An element that shows one string and counts its renders. */
class LocalizedProbe extends LitElement {
  static override properties = { locale: {} };
  locale: string | undefined;
  renders = 0;
  readonly #localize = new LocalizeController(this, checkoutMessages);

  protected override render() {
    this.renders += 1;
    return html`<p>${this.#localize.msg('method.label')}</p>`;
  }
}
customElements.define('localized-probe', LocalizedProbe);

declare global {
  interface HTMLElementTagNameMap {
    'localized-probe': LocalizedProbe;
  }
}

afterEach(() => {
  document.body.replaceChildren();
  document.documentElement.removeAttribute('lang');
  sessionStorage.clear();
  vi.restoreAllMocks();
});

async function mount<K extends 'satang-card-form' | 'satang-checkout' | 'localized-probe'>(
  tag: K,
  attributes: Record<string, string> = {},
  parent: Element | ShadowRoot = document.body,
): Promise<HTMLElementTagNameMap[K]> {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(await withPageOrderToken(attributes))) element.setAttribute(name, value);
  parent.append(element);
  await element.updateComplete;
  // The card form's rules and messages come right after its first render.
  const form = tag === 'satang-card-form' ? element : element.shadowRoot?.querySelector('satang-card-form');
  await (form as SatangCardForm | null | undefined)?.whenReady();
  await element.updateComplete;
  return element;
}

const text = (element: Element, selector: string) => element.shadowRoot!.querySelector(selector)!.textContent.trim();
const label = (form: SatangCardForm) => text(form, 'label[for="number"]');
/** Lets the observer of `lang` report, and the renders it asks for run. */
const settled = async (element: LitElement) => {
  await new Promise((resolve) => setTimeout(resolve));
  await element.updateComplete;
};

describe('LocalizeController', () => {
  describe('when the page changes its language', () => {
    it('re-renders an element without a locale in the new language, Thai then English again', async () => {
      document.documentElement.lang = 'en';
      const form = await mount('satang-card-form');
      expect(label(form)).toBe('Card number');

      document.documentElement.lang = 'th';
      await expect.poll(() => label(form)).toBe('หมายเลขบัตร');

      document.documentElement.lang = 'en';
      await expect.poll(() => label(form)).toBe('Card number');
    });

    it('rewrites the errors shown, and the message the form reports the card invalid with', async () => {
      const setValidity = vi.spyOn(ElementInternals.prototype, 'setValidity');
      const form = await mount('satang-card-form');
      form.validate();
      await form.updateComplete;
      const error = () => text(form, '[part="error"]');
      const validity = () => setValidity.mock.lastCall?.[1];
      expect(error()).toBe('Enter the card number.');
      expect(validity()).toBe('Enter the card number.');

      document.documentElement.lang = 'th';
      await expect.poll(error).toBe('กรุณากรอกหมายเลขบัตร');
      expect(validity()).toBe('กรุณากรอกหมายเลขบัตร');

      document.documentElement.lang = 'en';
      await expect.poll(error).toBe('Enter the card number.');
      expect(validity()).toBe('Enter the card number.');
    });

    it('reads a locale written as a language tag by its language (th-TH, TH, en-US); one of another language leaves the page’s', async () => {
      document.documentElement.lang = 'en';
      for (const locale of ['th-TH', 'TH', 'th']) expect(label(await mount('satang-card-form', { locale })), locale).toBe('หมายเลขบัตร');
      document.documentElement.lang = 'th-TH';
      expect(label(await mount('satang-card-form', { locale: 'en-US' }))).toBe('Card number');
      expect(label(await mount('satang-card-form', { locale: 'fr' })), 'fr: the page is Thai').toBe('หมายเลขบัตร');
      document.documentElement.lang = 'fr';
      expect(label(await mount('satang-card-form', { locale: 'de' })), 'neither: English').toBe('Card number');
    });

    it('leaves an element whose locale is set in its own language', async () => {
      const form = await mount('satang-card-form', { locale: 'en' });
      document.documentElement.lang = 'th';
      await settled(form);
      expect(label(form)).toBe('Card number');
    });

    it('re-renders the checkout and the card form inside it, its message over the pay button included', async () => {
      document.documentElement.lang = 'th';
      const checkout = await mount('satang-checkout', {
        'merchant-id': SANDBOX_DEFAULTS.merchantId,
        'publishable-key': SANDBOX_DEFAULTS.publishableKey,
        'service-url': location.origin,
        endpoint: '/api/checkout',
        amount: '12345',
        'order-reference': `order-12345-${crypto.randomUUID()}`,
        methods: 'promptpay, card',
      });
      const pay = () => text(checkout, '[part="pay-button"]');
      const form = checkout.shadowRoot!.querySelector<SatangCardForm>('satang-card-form')!;
      await form.updateComplete;
      expect(pay()).toBe('ชำระเงิน ฿123.45');
      expect(label(form)).toBe('หมายเลขบัตร');

      vi.spyOn(window, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
      checkout.shadowRoot!.querySelector<HTMLButtonElement>('[part="pay-button"]')!.click();
      const message = () => checkout.shadowRoot!.querySelector('[part="message"]')?.textContent.trim();
      await expect.poll(message).toBe('เชื่อมต่อระบบชำระเงินไม่ได้ ข้อมูลของคุณยังอยู่ กรุณาลองอีกครั้ง');

      document.documentElement.lang = 'en';
      await expect.poll(message).toBe('We could not reach the payment service. Your details are kept: try again.');
      expect(pay()).toBe('Try again');
      await expect.poll(() => label(form)).toBe('Card number');

      document.documentElement.lang = 'th';
      await expect.poll(message).toBe('เชื่อมต่อระบบชำระเงินไม่ได้ ข้อมูลของคุณยังอยู่ กรุณาลองอีกครั้ง');
      expect(pay()).toBe('ลองอีกครั้ง');
    });
  });

  describe('when a lang around the element changes', () => {
    it('follows the closest one, both ways', async () => {
      const section = document.body.appendChild(document.createElement('section'));
      section.lang = 'th';
      const probe = await mount('localized-probe', {}, section);
      expect(text(probe, 'p')).toBe('วิธีชำระเงิน');

      section.lang = 'en';
      await expect.poll(() => text(probe, 'p')).toBe('Payment method');
      section.lang = 'th-TH';
      await expect.poll(() => text(probe, 'p')).toBe('วิธีชำระเงิน');
    });

    it('follows a lang inside the shadow root it sits in', async () => {
      const host = document.body.appendChild(document.createElement('div'));
      const root = host.attachShadow({ mode: 'open' });
      const wrapper = root.appendChild(document.createElement('div'));
      wrapper.lang = 'en';
      const probe = await mount('localized-probe', {}, wrapper);
      expect(text(probe, 'p')).toBe('Payment method');

      wrapper.lang = 'th';
      await expect.poll(() => text(probe, 'p')).toBe('วิธีชำระเงิน');
    });

    it('re-renders when moved into a part of the page that speaks another language', async () => {
      const thai = document.body.appendChild(document.createElement('div'));
      thai.lang = 'th';
      const english = document.body.appendChild(document.createElement('div'));
      english.lang = 'en';
      const probe = await mount('localized-probe', {}, thai);
      english.append(probe);
      await expect.poll(() => text(probe, 'p')).toBe('Payment method');
    });

    it('does not re-render when its language stays the same', async () => {
      document.documentElement.lang = 'th';
      const probe = await mount('localized-probe');
      const renders = probe.renders;
      document.documentElement.lang = 'th-TH';
      document.body.appendChild(document.createElement('p')).lang = 'en';
      await settled(probe);
      expect(probe.renders).toBe(renders);
    });

    it('stops listening once no element is connected, and listens again when one is', async () => {
      const probe = await mount('localized-probe');
      probe.remove();
      document.documentElement.lang = 'th';
      await settled(probe);
      expect(text(probe, 'p')).toBe('Payment method');

      document.body.append(probe);
      await expect.poll(() => text(probe, 'p')).toBe('วิธีชำระเงิน');
      document.documentElement.lang = 'en';
      await expect.poll(() => text(probe, 'p')).toBe('Payment method');
    });
  });
});
