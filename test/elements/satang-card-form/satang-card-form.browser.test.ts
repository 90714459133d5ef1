import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { CheckoutClientError } from '../../../src/client/client-error.js';
import type { TokenizeConfig } from '../../../src/client/card-tokens.js';
import '../../../src/elements/card.js';
import type { SatangCardForm } from '../../../src/elements/card.js';
import { SANDBOX_DEFAULTS } from '../../../src/sandbox/defaults.js';

/** The sandbox, reached same-origin through the test server's proxy, with the publishable key. */
const TOKENIZE: TokenizeConfig = { serviceUrl: location.origin, merchantId: SANDBOX_DEFAULTS.merchantId, publishableKey: SANDBOX_DEFAULTS.publishableKey };
/** The prefix of the sandbox's card token ids. */
const TOKEN_PREFIX = 'ctk_';

const THIS_YEAR = new Date().getFullYear();
const yy = (year: number) => String(year % 100).padStart(2, '0');
/** A year a card can expire in: two years from now. */
const YEAR = yy(THIS_YEAR + 2);
/** This year in the Buddhist era, as a Thai shopper may write it: 2569 in 2026. */
const BUDDHIST_YEAR = String(THIS_YEAR + 543);

const VISA = '4111111111111111';
const AMEX = '378282246310005';
const CVC = '987';
/** ๐ to ๙, the Thai digits a Thai keyboard types. */
const thaiDigits = (ascii: string) => ascii.replace(/\d/g, (d) => String.fromCharCode(0x0e50 + Number(d)));

afterEach(() => {
  document.body.replaceChildren();
  document.documentElement.removeAttribute('lang');
  sessionStorage.clear();
  localStorage.clear();
  vi.restoreAllMocks();
});

async function mount(attributes: Record<string, string> = { locale: 'en' }, parent: HTMLElement = document.body): Promise<SatangCardForm> {
  const element = document.createElement('satang-card-form');
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  parent.append(element);
  await element.updateComplete;
  // The rules and their messages come right after the first render.
  await element.whenReady();
  await element.updateComplete;
  return element;
}

type FieldId = 'number' | 'expiry' | 'cvc' | 'holder';
const root = (element: SatangCardForm) => element.shadowRoot!;
const input = (element: SatangCardForm, id: FieldId) => root(element).querySelector<HTMLInputElement>(`#${id}`)!;
const fieldOf = (element: SatangCardForm, id: FieldId) => input(element, id).closest<HTMLElement>('[part="field"]')!;
/** The message shown under a field, or null when there is none. */
const errorOf = (element: SatangCardForm, id: FieldId) => fieldOf(element, id).querySelector('[part="error"]')?.textContent.trim() ?? null;
const labelOf = (element: SatangCardForm, id: FieldId) => input(element, id).labels![0]!.textContent.trim();
const hintOf = (element: SatangCardForm, id: FieldId) => fieldOf(element, id).querySelector('[part="hint"]')?.textContent.trim() ?? null;
/** The colour each brand's mark is drawn in (the first path's fill): which mark the form shows. */
const MARK_COLOURS: Record<string, string> = { '#1A1F71': 'VISA', '#EB001B': 'MASTERCARD', '#0B4EA2': 'JCB', '#2E77BC': 'AMEX', '#D7262A': 'UNIONPAY' };
/** The brand shown at the number: its mark (an SVG, by its colour) once fetched, else its name. */
const brandMark = async (element: SatangCardForm): Promise<string | null> => {
  const brand = root(element).querySelector('[part="brand"]');
  if (!brand) return null;
  // The marks arrive right after the first render; the brand's name stands in until then.
  await vi.waitUntil(() => brand.querySelector('svg path'), { timeout: 2000 }).catch(() => undefined);
  const fill = brand.querySelector('svg path')?.getAttribute('fill');
  return fill ? (MARK_COLOURS[fill] ?? fill) : brand.textContent.trim();
};
const liveRegion = (element: SatangCardForm) => root(element).querySelector('[role="status"]');
/** An object's own properties as a plain object: what JSON of it shows. */
const own = (value: object) => Object.fromEntries(Object.entries(value));
/** The input that has focus inside the element, as the page sees it. */
const focused = (element: SatangCardForm) => (document.activeElement === element ? root(element).activeElement : null);

/** Every own property of an object, string- or symbol-keyed (Lit keeps reactive state under symbols), as text. */
function ownPropertiesText(object: object): string {
  return Reflect.ownKeys(object)
    .map((key) => {
      const value: unknown = Reflect.get(object, key);
      let text: string;
      try {
        text = typeof value === 'object' && value !== null && !(value instanceof Node) ? JSON.stringify(value instanceof Map ? [...value] : value) : String(value);
      } catch {
        text = String(value);
      }
      return `${String(key)}=${text}`;
    })
    .join(' ');
}

/** Types into a field as a person does: clicks into it, then presses each key at the end of the text. */
async function type(element: SatangCardForm, id: FieldId, text: string): Promise<void> {
  await userEvent.click(input(element, id));
  await userEvent.keyboard(`{End}${text}`);
  await element.updateComplete;
}

/** Leaves the focused field with Tab. */
async function tab(element: SatangCardForm): Promise<void> {
  await userEvent.tab();
  await element.updateComplete;
}

async function fillCard(element: SatangCardForm, { number = VISA, expiry = `12${YEAR}`, cvc = CVC, holder = 'Somchai Jaidee' } = {}): Promise<void> {
  await type(element, 'number', number);
  await type(element, 'expiry', expiry);
  await type(element, 'cvc', cvc);
  await type(element, 'holder', holder);
}

describe('<satang-card-form>', () => {
  describe('when a person types into it for the first time', () => {
    it('shows no error while the card details are still being typed', async () => {
      for (const [id, text] of [
        ['number', '4111 1111'],
        ['expiry', '1'],
        ['expiry', '12/2'],
        ['cvc', '1'],
      ] as const) {
        const element = await mount();
        await type(element, id, text);
        expect(focused(element), text).toBe(input(element, id));
        expect(errorOf(element, id), text).toBeNull();
        expect(input(element, id).getAttribute('aria-invalid'), text).toBe('false');
        element.remove();
      }
    });

    it('formats what was typed before its formatting arrived, as soon as it arrives', async () => {
      // Mounted without waiting for the formatting and rules, which come right after the first frame.
      const element = document.createElement('satang-card-form');
      element.setAttribute('locale', 'en');
      document.body.append(element);
      await element.updateComplete;
      expect(element.ready).toBe(false);
      const typeRaw = (id: FieldId, text: string) => {
        input(element, id).value = text;
        input(element, id).dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText' }));
      };
      typeRaw('number', '378282246310005');
      typeRaw('expiry', `12${YEAR}`);
      typeRaw('cvc', '๑๒๓๔๕');
      await element.updateComplete;
      expect(input(element, 'number').value).toBe('378282246310005');

      await element.whenReady();
      await element.updateComplete;
      expect(input(element, 'number').value).toBe('3782 822463 10005');
      expect(input(element, 'expiry').value).toBe(`12/${YEAR}`);
      // An American Express security code has four digits; Thai digits count as digits.
      expect(input(element, 'cvc').value).toBe('1234');
      expect(root(element).querySelector('[part="brand"]')).not.toBeNull();
      // Then the form formats as it is typed in, as ever.
      await type(element, 'number', '{Backspace}');
      expect(input(element, 'number').value).toBe('3782 822463 1000');
    });

    it('says nothing when the person tabs through fields they have not typed in', async () => {
      const element = await mount();
      await userEvent.click(input(element, 'number'));
      for (let i = 0; i < 3; i += 1) await tab(element);
      expect(focused(element)).toBe(input(element, 'holder'));
      for (const id of ['number', 'expiry', 'cvc', 'holder'] as const) expect(errorOf(element, id)).toBeNull();
    });
  });

  describe('when a person leaves a field', () => {
    it('shows what is wrong with what they typed', async () => {
      const element = await mount();
      await type(element, 'number', '4111 1111');
      await tab(element);
      expect(errorOf(element, 'number')).toBe('The card number is incomplete.');
      await type(element, 'expiry', '12');
      await tab(element);
      expect(errorOf(element, 'expiry')).toBe('Enter the expiry date as MM/YY.');
    });

    it('asks again for a field they filled in before and have emptied', async () => {
      const element = await mount();
      await type(element, 'holder', 'S');
      await tab(element);
      expect(errorOf(element, 'holder')).toBeNull();
      await type(element, 'holder', '{Backspace}');
      expect(errorOf(element, 'holder')).toBeNull();
      await tab(element);
      expect(errorOf(element, 'holder')).toBe('Enter the name as shown on the card.');
    });
  });

  describe('when the form is submitted', () => {
    it('shows every error at once on validate(), in fields never touched', async () => {
      const element = await mount();
      expect(element.validate()).toBe(false);
      await element.updateComplete;
      expect(errorOf(element, 'number')).toBe('Enter the card number.');
      expect(errorOf(element, 'expiry')).toBe('Enter the expiry date.');
      expect(errorOf(element, 'cvc')).toBe('Enter the security code.');
      expect(errorOf(element, 'holder')).toBe('Enter the name as shown on the card.');
    });

    it('refuses to tokenize incomplete details, showing why, and sends nothing', async () => {
      const element = await mount();
      await fillCard(element, { cvc: '12' });
      const fetchSpy = vi.spyOn(window, 'fetch');
      await expect(element.tokenize(TOKENIZE)).rejects.toThrow('card details are not valid');
      await element.updateComplete;
      expect(errorOf(element, 'cvc')).toBe('The security code has 3 digits.');
      expect(focused(element)).toBe(input(element, 'cvc'));
      expect(fetchSpy).not.toHaveBeenCalled();
    });

    it('moves focus to the first field that is wrong', async () => {
      const element = await mount();
      await type(element, 'number', VISA);
      await type(element, 'cvc', '12');
      await type(element, 'holder', 'Somchai Jaidee');
      element.validate();
      await element.updateComplete;
      expect(focused(element)).toBe(input(element, 'expiry'));
    });

    it('answers true and shows nothing when every field is right', async () => {
      const element = await mount();
      await fillCard(element);
      expect(element.validate()).toBe(true);
      await element.updateComplete;
      expect(root(element).querySelectorAll('[part="error"]')).toHaveLength(0);
      expect(element.complete).toBe(true);
    });
  });

  describe('when a person fixes a field', () => {
    it('takes the error away as soon as the number is complete, before they leave the field', async () => {
      const element = await mount();
      await type(element, 'number', VISA.slice(0, 15));
      await tab(element);
      expect(errorOf(element, 'number')).toBe('The card number is incomplete.');
      await type(element, 'number', VISA.slice(15));
      expect(focused(element)).toBe(input(element, 'number'));
      expect(errorOf(element, 'number')).toBeNull();
      expect(input(element, 'number').getAttribute('aria-invalid')).toBe('false');
    });

    it('takes the error away as soon as the expiry has its year', async () => {
      const element = await mount();
      element.validate();
      await element.updateComplete;
      expect(errorOf(element, 'expiry')).toBe('Enter the expiry date.');
      await type(element, 'expiry', '12');
      expect(errorOf(element, 'expiry')).not.toBeNull();
      await type(element, 'expiry', YEAR);
      expect(errorOf(element, 'expiry')).toBeNull();
    });

    it('keeps an error up until the field is right, telling what is wrong now', async () => {
      const element = await mount();
      await type(element, 'number', '411111111111111');
      await tab(element);
      expect(errorOf(element, 'number')).toBe('The card number is incomplete.');
      // Sixteen digits that fail the Luhn check: the number is no longer short, it is wrong.
      await type(element, 'number', '2');
      expect(errorOf(element, 'number')).toBe('This card number is not valid. Check it for typos.');
    });
  });

  describe('the card number', () => {
    it('is grouped 4-4-4-4 with the VISA mark for a Visa card', async () => {
      const element = await mount();
      expect(await brandMark(element)).toBeNull();
      await type(element, 'number', VISA);
      expect(input(element, 'number').value).toBe('4111 1111 1111 1111');
      expect(await brandMark(element)).toBe('VISA');
    });

    it('is grouped 4-6-5 with the AMEX mark for an Amex card', async () => {
      const element = await mount();
      await type(element, 'number', AMEX);
      expect(input(element, 'number').value).toBe('3782 822463 10005');
      expect(await brandMark(element)).toBe('AMEX');
    });

    it('stops taking digits at the longest number of the brand', async () => {
      const element = await mount();
      await type(element, 'number', `${AMEX}1234`);
      expect(input(element, 'number').value).toBe('3782 822463 10005');
    });

    it('says a Visa number that fails the Luhn check is not valid when the person leaves it', async () => {
      const element = await mount();
      await type(element, 'number', '4111111111111112');
      expect(errorOf(element, 'number')).toBeNull();
      await tab(element);
      expect(errorOf(element, 'number')).toBe('This card number is not valid. Check it for typos.');
    });

    it('says an Amex number that fails the Luhn check is not valid as soon as its last digit is typed', async () => {
      const element = await mount();
      await type(element, 'number', '378282246310006');
      expect(errorOf(element, 'number')).toBe('This card number is not valid. Check it for typos.');
    });

    it('reads Thai digits as the number they are', async () => {
      const element = await mount();
      await type(element, 'number', thaiDigits(VISA));
      expect(input(element, 'number').value).toBe('4111 1111 1111 1111');
      expect(await brandMark(element)).toBe('VISA');
    });

    it('keeps the caret after the digit just typed when a space is added', async () => {
      const element = await mount();
      await type(element, 'number', '41111');
      const number = input(element, 'number');
      expect(number.value).toBe('4111 1');
      expect(number.selectionStart).toBe(number.value.length);
    });
  });

  describe('the expiry date', () => {
    it('gets its slash as the person types MMYY', async () => {
      const element = await mount();
      await type(element, 'expiry', '12');
      expect(input(element, 'expiry').value).toBe('12/');
      await type(element, 'expiry', YEAR);
      expect(input(element, 'expiry').value).toBe(`12/${YEAR}`);
    });

    it('gets a leading zero on a month that can only have one digit', async () => {
      const element = await mount();
      await type(element, 'expiry', `3${YEAR}`);
      expect(input(element, 'expiry').value).toBe(`03/${YEAR}`);
      await tab(element);
      expect(errorOf(element, 'expiry')).toBeNull();
    });

    it('puts the caret after the slash it adds, so the next digit lands after it', async () => {
      const element = await mount();
      await type(element, 'expiry', '12');
      const expiry = input(element, 'expiry');
      expect(expiry.value).toBe('12/');
      expect(expiry.selectionStart).toBe(3);
    });

    it('lets the person delete the slash with Backspace', async () => {
      const element = await mount();
      await type(element, 'expiry', '12');
      await userEvent.keyboard('{Backspace}');
      expect(input(element, 'expiry').value).toBe('12');
      await userEvent.keyboard('{Backspace}');
      expect(input(element, 'expiry').value).toBe('1');
    });

    it('refuses a month that does not exist as soon as it is typed', async () => {
      const element = await mount();
      await type(element, 'expiry', '00');
      expect(errorOf(element, 'expiry')).toBe('The month must be from 01 to 12.');
    });

    it('says a card that expired last year has expired', async () => {
      const element = await mount();
      await type(element, 'expiry', `01${yy(THIS_YEAR - 1)}`);
      await tab(element);
      expect(errorOf(element, 'expiry')).toBe('This card has expired. Use another card.');
    });

    it('accepts Thai digits', async () => {
      const element = await mount();
      await type(element, 'expiry', thaiDigits(`12${YEAR}`));
      expect(input(element, 'expiry').value).toBe(`12/${YEAR}`);
      await tab(element);
      expect(errorOf(element, 'expiry')).toBeNull();
    });

    it('asks for the Western year as soon as a four-digit Buddhist-era year is typed', async () => {
      const element = await mount();
      await type(element, 'expiry', `12${BUDDHIST_YEAR}`);
      expect(input(element, 'expiry').value).toBe(`12/${BUDDHIST_YEAR}`);
      expect(errorOf(element, 'expiry')).toBe('Use the Western year as printed on the card (e.g. 2568 → 25).');
    });

    it('asks for the Western year when a two-digit Buddhist-era year is left in the field', async () => {
      const element = await mount();
      await type(element, 'expiry', `12${BUDDHIST_YEAR.slice(2)}`);
      expect(errorOf(element, 'expiry')).toBeNull();
      await tab(element);
      expect(errorOf(element, 'expiry')).toBe('Use the Western year as printed on the card (e.g. 2568 → 25).');
    });
  });

  describe('the security code', () => {
    it('takes three digits for a Visa card', async () => {
      const element = await mount();
      await type(element, 'number', VISA);
      expect(hintOf(element, 'cvc')).toBe('3 digits on the back');
      await type(element, 'cvc', '1234');
      expect(input(element, 'cvc').value).toBe('123');
    });

    it('takes four digits for an Amex card, and asks for the fourth', async () => {
      const element = await mount();
      await type(element, 'number', AMEX);
      expect(hintOf(element, 'cvc')).toBe('4 digits on the front');
      await type(element, 'cvc', '123');
      await tab(element);
      expect(errorOf(element, 'cvc')).toBe('The security code has 4 digits.');
      await type(element, 'cvc', '45');
      expect(input(element, 'cvc').value).toBe('1234');
      expect(errorOf(element, 'cvc')).toBeNull();
    });

    it('takes only digits', async () => {
      const element = await mount();
      await type(element, 'cvc', '1a2b3');
      expect(input(element, 'cvc').value).toBe('123');
    });
  });

  describe('after a declined payment', () => {
    it('clears the security code alone, and its token, so the shopper types just that again', async () => {
      const element = await mount();
      await fillCard(element);
      expect(element.complete).toBe(true);
      element.clearSecurityCode();
      await element.updateComplete;
      expect(input(element, 'cvc').value).toBe('');
      expect(input(element, 'number').value).toBe('4111 1111 1111 1111');
      expect(input(element, 'holder').value).toBe('Somchai Jaidee');
      expect(element.complete).toBe(false);
      // Still needed to pay with this card: marked invalid, pointing at the words of what to do.
      const cvc = input(element, 'cvc');
      expect(cvc.getAttribute('aria-invalid')).toBe('true');
      expect(errorOf(element, 'cvc')).toBe('Enter the security code.');
      expect(cvc.getAttribute('aria-describedby')).toContain('cvc-error');
      for (const id of ['number', 'expiry', 'holder'] as const) expect(input(element, id).getAttribute('aria-invalid'), id).toBe('false');
      // Typed again, it is valid, and the card complete.
      await type(element, 'cvc', CVC);
      expect(cvc.getAttribute('aria-invalid')).toBe('false');
      expect(errorOf(element, 'cvc')).toBeNull();
      expect(element.complete).toBe(true);
    });

    it('marks nothing invalid when the card was not kept (the form emptied by a page away)', async () => {
      const element = await mount();
      element.clearSecurityCode();
      await element.updateComplete;
      expect(input(element, 'cvc').getAttribute('aria-invalid')).toBe('false');
      expect(errorOf(element, 'cvc')).toBeNull();
    });
  });

  describe('the name on the card', () => {
    it('is required', async () => {
      const element = await mount();
      await fillCard(element, { holder: '' });
      expect(element.validate()).toBe(false);
      await element.updateComplete;
      expect(errorOf(element, 'holder')).toBe('Enter the name as shown on the card.');
      expect(focused(element)).toBe(input(element, 'holder'));
    });

    it('is not satisfied by spaces alone', async () => {
      const element = await mount();
      await fillCard(element, { holder: '   ' });
      expect(element.validate()).toBe(false);
      await element.updateComplete;
      expect(errorOf(element, 'holder')).toBe('Enter the name as shown on the card.');
    });
  });

  describe('for assistive technology', () => {
    it('marks a wrong field invalid and points it at its message, then unmarks it when fixed', async () => {
      const element = await mount();
      const cvc = input(element, 'cvc');
      expect(cvc.getAttribute('aria-invalid')).toBe('false');
      await type(element, 'cvc', '12');
      await tab(element);
      expect(cvc.getAttribute('aria-invalid')).toBe('true');
      const described = cvc.getAttribute('aria-describedby')!.split(' ').map((id) => root(element).getElementById(id));
      expect(described.every((node) => node !== null)).toBe(true);
      expect(described.map((node) => node!.textContent.trim())).toContain('The security code has 3 digits.');
      await type(element, 'cvc', '3');
      expect(cvc.getAttribute('aria-invalid')).toBe('false');
      for (const id of cvc.getAttribute('aria-describedby')!.split(' ').filter(Boolean)) {
        expect(root(element).getElementById(id)?.textContent).not.toContain('security code has');
      }
    });

    it('describes each field only by elements that exist', async () => {
      const element = await mount();
      element.validate();
      await element.updateComplete;
      for (const id of ['number', 'expiry', 'cvc', 'holder'] as const) {
        const ids = (input(element, id).getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
        expect(ids.length, id).toBeGreaterThan(0);
        for (const describedBy of ids) expect(root(element).getElementById(describedBy), `${id} → ${describedBy}`).not.toBeNull();
      }
      expect(input(element, 'number').getAttribute('aria-describedby')).toBe('number-error');
    });

    it('has a polite live region from the first render, and announces the first error on submit', async () => {
      const element = await mount();
      const region = liveRegion(element);
      expect(region).not.toBeNull();
      expect(region!.getAttribute('aria-live')).toBe('polite');
      expect(region!.textContent.trim()).toBe('');
      element.validate();
      await element.updateComplete;
      expect(liveRegion(element)).toBe(region);
      expect(region!.textContent).toBe('Enter the card number.');
    });

    it('announces the error again when the same mistake is submitted twice', async () => {
      const element = await mount();
      const region = liveRegion(element)!;
      const announced: string[] = [];
      new MutationObserver(() => announced.push(region.textContent.trim())).observe(region, { childList: true, characterData: true, subtree: true });
      element.validate();
      await element.updateComplete;
      element.validate();
      await element.updateComplete;
      await vi.waitFor(() => expect(announced.filter((text) => text === 'Enter the card number.')).toHaveLength(2));
    });

    it('says every field is required, as the accessibility tree reads it', async () => {
      const element = await mount();
      for (const id of ['number', 'expiry', 'cvc', 'holder'] as const) {
        expect(input(element, id).required, id).toBe(true);
        // What the browser hands to assistive technology: required, by the platform's own computation.
        expect(input(element, id).matches(':required'), id).toBe(true);
      }
    });

    it('labels every input', async () => {
      const element = await mount();
      expect((['number', 'expiry', 'cvc', 'holder'] as const).map((id) => labelOf(element, id))).toEqual(['Card number', 'Expiry date', 'Security code', 'Name on card']);
    });

    it('asks the browser to autofill each field from the saved card', async () => {
      const element = await mount();
      expect(input(element, 'number').autocomplete).toBe('cc-number');
      expect(input(element, 'expiry').autocomplete).toBe('cc-exp');
      expect(input(element, 'cvc').autocomplete).toBe('cc-csc');
      expect(input(element, 'holder').autocomplete).toBe('cc-name');
    });

    it('brings up the numeric keypad for the number, expiry and security code', async () => {
      const element = await mount();
      for (const id of ['number', 'expiry', 'cvc'] as const) expect(input(element, id).inputMode, id).toBe('numeric');
      expect(input(element, 'holder').inputMode).not.toBe('numeric');
    });

    it('takes focus into the number field when the element is focused', async () => {
      const element = await mount();
      element.focus();
      expect(focused(element)).toBe(input(element, 'number'));
    });
  });

  describe('inside a <form>', () => {
    async function mountInForm(): Promise<{ form: HTMLFormElement; element: SatangCardForm }> {
      const form = document.createElement('form');
      form.innerHTML = '<input name="order" value="A-1">';
      document.body.append(form);
      const element = await mount({ locale: 'en', name: 'card' }, form);
      return { form, element };
    }

    it('submits the form when Enter is pressed in a field, as a native input does', async () => {
      const { form, element } = await mountInForm();
      let submitted = 0;
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        submitted += 1;
      });
      await fillCard(element);
      await type(element, 'cvc', '{Enter}');
      expect(submitted).toBe(1);
    });

    it('makes the form invalid until the card details are complete', async () => {
      const { form, element } = await mountInForm();
      expect(form.checkValidity()).toBe(false);
      expect(element.matches(':invalid')).toBe(true);
      await type(element, 'number', VISA);
      expect(form.checkValidity()).toBe(false);
      await type(element, 'expiry', `12${YEAR}`);
      await type(element, 'cvc', CVC);
      await type(element, 'holder', 'Somchai Jaidee');
      expect(form.checkValidity()).toBe(true);
    });

    it('keeps the form from being sent while the card is incomplete, taking the person to the field to fix', async () => {
      const { form, element } = await mountInForm();
      const button = form.appendChild(document.createElement('button'));
      button.textContent = 'Pay';
      const submitted = vi.fn((event: Event) => event.preventDefault());
      form.addEventListener('submit', submitted);
      await userEvent.click(button);
      expect(submitted).not.toHaveBeenCalled();
      expect(focused(element)).toBe(input(element, 'number'));
      await type(element, 'number', VISA);
      await type(element, 'expiry', '1');
      await tab(element);
      expect(errorOf(element, 'expiry')).toBe('Enter the expiry date as MM/YY.');
      await userEvent.click(button);
      expect(submitted).not.toHaveBeenCalled();
      expect(focused(element)).toBe(input(element, 'expiry'));
    });

    it('marks itself user-invalid only once an error is shown', async () => {
      const { element } = await mountInForm();
      expect(element.matches(':state(user-invalid)')).toBe(false);
      await type(element, 'number', '4111');
      await tab(element);
      expect(element.matches(':state(user-invalid)')).toBe(true);
      await type(element, 'number', VISA.slice(4));
      expect(element.matches(':state(user-invalid)')).toBe(false);
    });

    it('submits the card token under its name after tokenize, never the card', async () => {
      const { form, element } = await mountInForm();
      await fillCard(element);
      expect(new FormData(form).has('card')).toBe(false);
      const card = await element.tokenize(TOKENIZE);
      expect(card).toMatchObject({ securityCode: CVC, brand: 'VISA', last4: '1111' });
      expect(card.cardTokenId.startsWith(TOKEN_PREFIX)).toBe(true);
      const data = new FormData(form);
      expect(data.get('card')).toBe(card.cardTokenId);
      expect(data.get('order')).toBe('A-1');
      const sent = JSON.stringify([...data.entries()]);
      expect(sent).not.toMatch(/4111\s?1111/);
      expect(sent).not.toContain(CVC);
    });

    it('answers the same token when asked again for the same details, and drops it when they change', async () => {
      const { form, element } = await mountInForm();
      await fillCard(element);
      const first = await element.tokenize(TOKENIZE);
      expect((await element.tokenize(TOKENIZE)).cardTokenId).toBe(first.cardTokenId);
      await type(element, 'holder', 'x');
      expect(new FormData(form).has('card')).toBe(false);
      const second = await element.tokenize(TOKENIZE);
      expect(second.cardTokenId).not.toBe(first.cardTokenId);
      expect(new FormData(form).get('card')).toBe(second.cardTokenId);
    });

    it('is emptied by form.reset(), token and all', async () => {
      const { form, element } = await mountInForm();
      await fillCard(element);
      await element.tokenize(TOKENIZE);
      await type(element, 'number', '{Backspace}');
      await tab(element);
      expect(errorOf(element, 'number')).not.toBeNull();
      form.reset();
      await element.updateComplete;
      for (const id of ['number', 'expiry', 'cvc', 'holder'] as const) expect(input(element, id).value, id).toBe('');
      expect(root(element).querySelectorAll('[part="error"]')).toHaveLength(0);
      expect(await brandMark(element)).toBeNull();
      expect(new FormData(form).has('card')).toBe(false);
      expect(form.checkValidity()).toBe(false);
      expect(liveRegion(element)!.textContent.trim()).toBe('');
    });

    it('is emptied by reset(), dropping the token from the form', async () => {
      const { form, element } = await mountInForm();
      await fillCard(element);
      await element.tokenize(TOKENIZE);
      expect(new FormData(form).has('card')).toBe(true);
      element.reset();
      await element.updateComplete;
      for (const id of ['number', 'expiry', 'cvc', 'holder'] as const) expect(input(element, id).value, id).toBe('');
      expect(new FormData(form).has('card')).toBe(false);
      expect(element.complete).toBe(false);
    });

    it('is disabled with its fieldset, and usable again when the fieldset is', async () => {
      const form = document.createElement('form');
      const fieldset = document.createElement('fieldset');
      form.append(fieldset);
      document.body.append(form);
      const element = await mount({ locale: 'en', name: 'card' }, fieldset);
      fieldset.disabled = true;
      await element.updateComplete;
      expect(input(element, 'number').disabled).toBe(true);
      fieldset.disabled = false;
      await element.updateComplete;
      expect(input(element, 'number').disabled).toBe(false);
      await type(element, 'number', '4111');
      expect(input(element, 'number').value).toBe('4111');
    });
  });

  describe('what it tells the page', () => {
    it('fires satang-ready once it is first rendered', async () => {
      const ready = new Promise<Event>((resolve) => document.addEventListener('satang-ready', resolve, { once: true }));
      const element = await mount();
      expect((await ready).target).toBe(element);
    });

    it('fires satang-change when the card becomes complete and when it stops being complete, with no card data', async () => {
      const element = await mount();
      const heard: { method: string; complete: boolean }[] = [];
      document.addEventListener('satang-change', (e) => heard.push({ method: e.method, complete: e.complete }));
      await fillCard(element);
      expect(heard).toEqual([{ method: 'CARD_TOKEN', complete: true }]);
      await type(element, 'cvc', '{Backspace}');
      expect(heard).toEqual([
        { method: 'CARD_TOKEN', complete: true },
        { method: 'CARD_TOKEN', complete: false },
      ]);
    });

    it('never lets the number or security code into attributes, properties, events or storage', async () => {
      const element = await mount({ locale: 'en', name: 'card' }, document.body.appendChild(document.createElement('form')));
      const events: string[] = [];
      for (const name of ['satang-change', 'input', 'change']) {
        document.addEventListener(name, (e) => events.push(JSON.stringify({ ...own(e), type: e.type })), true);
      }
      await fillCard(element, { number: AMEX, cvc: '4321' });
      await tab(element);
      await element.tokenize(TOKENIZE);
      await element.updateComplete;
      const attributes = [element, ...root(element).querySelectorAll('*')].flatMap((node) => [...node.attributes].map((a) => `${a.name}=${a.value}`)).join(' ');
      const properties = ownPropertiesText(element);
      const storage = JSON.stringify(own(sessionStorage)) + JSON.stringify(own(localStorage));
      expect(events.some((e) => e.includes('"complete":true'))).toBe(true);
      for (const [where, text] of Object.entries({ attributes, properties, storage, events: events.join(' ') })) {
        // As numbers of their own: a timestamp or a random id may carry the same digits by chance.
        expect(text, where).not.toMatch(/3782\s?8224|822463|(?<!\d)10005(?!\d)/);
        expect(text, where).not.toMatch(/(?<![\w.-])4321(?![\w-])/);
      }
    });
  });

  describe('in Thai', () => {
    it('shows Thai labels, hints and messages when locale is th', async () => {
      const element = await mount({ locale: 'th' });
      expect(labelOf(element, 'number')).toBe('หมายเลขบัตร');
      expect(labelOf(element, 'expiry')).toBe('วันหมดอายุ');
      expect(labelOf(element, 'cvc')).toBe('รหัสความปลอดภัย');
      expect(labelOf(element, 'holder')).toBe('ชื่อบนบัตร');
      expect(hintOf(element, 'expiry')).toBe('ดด/ปป (ปี ค.ศ.)');
      expect(root(element).querySelector('[role="group"]')!.getAttribute('aria-label')).toBe('รายละเอียดบัตร');
      await type(element, 'expiry', `12${BUDDHIST_YEAR}`);
      expect(errorOf(element, 'expiry')).toBe('กรุณากรอกปี ค.ศ. ตามที่พิมพ์บนบัตร (เช่น พ.ศ. 2568 → 25)');
      element.validate();
      await element.updateComplete;
      expect(errorOf(element, 'number')).toBe('กรุณากรอกหมายเลขบัตร');
      expect(liveRegion(element)!.textContent.trim()).toBe('กรุณากรอกหมายเลขบัตร');
    });

    it('speaks Thai on a Thai page without a locale attribute', async () => {
      document.documentElement.lang = 'th';
      const element = await mount({});
      expect(labelOf(element, 'number')).toBe('หมายเลขบัตร');
    });

    it('switches language when locale changes, messages included', async () => {
      const element = await mount();
      element.validate();
      await element.updateComplete;
      element.locale = 'th';
      await element.updateComplete;
      expect(labelOf(element, 'number')).toBe('หมายเลขบัตร');
      expect(errorOf(element, 'number')).toBe('กรุณากรอกหมายเลขบัตร');
    });
  });

  describe('when tokenizing fails', () => {
    it('rejects with a network error and keeps everything the person entered', async () => {
      const element = await mount();
      await fillCard(element);
      vi.spyOn(window, 'fetch').mockRejectedValueOnce(new TypeError('Failed to fetch'));
      const failure = await element.tokenize(TOKENIZE).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(CheckoutClientError);
      expect(failure).toMatchObject({ kind: 'network', retryable: true });
      await element.updateComplete;
      expect(input(element, 'number').value).toBe('4111 1111 1111 1111');
      expect(input(element, 'expiry').value).toBe(`12/${YEAR}`);
      expect(input(element, 'cvc').value).toBe(CVC);
      expect(input(element, 'holder').value).toBe('Somchai Jaidee');
      expect(root(element).querySelectorAll('[part="error"]')).toHaveLength(0);
      const retried = await element.tokenize(TOKENIZE);
      expect(retried.cardTokenId.startsWith(TOKEN_PREFIX)).toBe(true);
    });

    it('leaves the form without a token after the failure', async () => {
      const form = document.body.appendChild(document.createElement('form'));
      const element = await mount({ locale: 'en', name: 'card' }, form);
      await fillCard(element);
      vi.spyOn(window, 'fetch').mockRejectedValueOnce(new TypeError('Failed to fetch'));
      await expect(element.tokenize(TOKENIZE)).rejects.toMatchObject({ kind: 'network' });
      expect(new FormData(form).has('card')).toBe(false);
    });
  });
});
