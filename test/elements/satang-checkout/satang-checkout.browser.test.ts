import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import '../../../src/elements/index.js';
import type { SatangCheckout } from '../../../src/elements/index.js';
import { SANDBOX_DEFAULTS } from '../../../src/sandbox/defaults.js';
import { withPageOrderToken } from '../../support/page-tokens.js';

/** The sandbox API key, used here only to read back what the sandbox recorded. */
const API = { authorization: `Basic ${btoa(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.apiKey}`)}` };
const YEAR = String((new Date().getFullYear() + 2) % 100).padStart(2, '0');
const orderFor = (amount: number) => `order-${amount}-${crypto.randomUUID()}`;
/** An object's own properties as a plain object: what JSON of it shows. */
const own = (value: object) => Object.fromEntries(Object.entries(value));
/**
 * The 3-D Secure test card's number where it would start a value, formatted or not: the same four
 * digits inside an order reference's UUID, a token or a timestamp are chance, not the card.
 */
const CARD_NUMBER_START = /(?<![\w.-])4953/;

afterEach(() => {
  document.body.replaceChildren();
  sessionStorage.clear();
  vi.restoreAllMocks();
});

async function mount(attributes: Record<string, string> = {}, amount = 12_345): Promise<SatangCheckout> {
  const element = document.createElement('satang-checkout');
  const all: Record<string, string> = {
    'merchant-id': SANDBOX_DEFAULTS.merchantId,
    'publishable-key': SANDBOX_DEFAULTS.publishableKey,
    'service-url': location.origin,
    endpoint: '/api/checkout',
    amount: String(amount),
    'order-reference': orderFor(amount),
    locale: 'en',
    ...attributes,
  };
  for (const [name, value] of Object.entries(await withPageOrderToken(all))) element.setAttribute(name, value);
  document.body.append(element);
  await element.updateComplete;
  await settled(element);
  return element;
}

/**
 * Waits for what the checkout fetches right after its first render: the card form's rules and the
 * other methods' panels (with the payment code). A misconfigured checkout fetches neither.
 */
async function settled(element: SatangCheckout): Promise<void> {
  if (root(element).querySelector('[part="config-error"]')) return;
  await root(element).querySelector('satang-card-form')?.whenReady();
  await vi.waitUntil(() => (element as unknown as { panelCode?: unknown }).panelCode, { timeout: 5000 });
  await element.updateComplete;
}

/** The sentence a misconfigured checkout shows, once its words are fetched. */
async function configText(element: SatangCheckout): Promise<string> {
  const box = root(element).querySelector('[part="config-error"]')!;
  await vi.waitUntil(() => !box.textContent.trim().endsWith(':'), { timeout: 5000 });
  return box.textContent;
}

const root = (element: Element) => element.shadowRoot!;
const cardForm = (element: SatangCheckout) => root(element).querySelector('satang-card-form')!;
const cardInput = (element: SatangCheckout, id: string) => root(cardForm(element)).querySelector<HTMLInputElement>(`#${id}`)!;
const payButton = (element: SatangCheckout) => root(element).querySelector<HTMLButtonElement>('[part="pay-button"]')!;
const chooseMethod = async (element: SatangCheckout, label: string) => {
  const radio = [...root(element).querySelectorAll<HTMLLabelElement>('[part="method"]')].find((l) => l.textContent.includes(label));
  await userEvent.click(radio!);
  await element.updateComplete;
};

async function fillCard(element: SatangCheckout, pan: string, cvc = '123') {
  await userEvent.type(cardInput(element, 'number'), pan);
  await userEvent.type(cardInput(element, 'expiry'), `12${YEAR}`);
  await userEvent.type(cardInput(element, 'cvc'), cvc);
  await userEvent.type(cardInput(element, 'holder'), 'Somchai Jaidee');
}

function next<K extends keyof GlobalEventHandlersEventMap>(element: Element, type: K): Promise<GlobalEventHandlersEventMap[K]> {
  return new Promise((resolve) => element.addEventListener(type, resolve as EventListener, { once: true }));
}

async function chargesOf(orderReference: string): Promise<{ chargeId: string; amount: number; status: string }[]> {
  const answer = await fetch(`/api/v1/charges?referenceId=${encodeURIComponent(orderReference)}`, { headers: API });
  return (await answer.json()).data;
}

describe('<satang-checkout>', () => {
  describe('when an attribute is missing or wrong', () => {
    it('shows what to fix in the element, logs it and fires satang-error', async () => {
      const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const heard: string[] = [];
      document.addEventListener('satang-error', (e) => heard.push(e.code), { once: true });
      const element = await mount({ endpoint: '' });
      const box = root(element).querySelector('[part="config-error"]')!;
      expect(await configText(element)).toContain('endpoint is required');
      expect(box.getAttribute('role')).toBe('alert');
      expect(errors).toHaveBeenCalledWith(expect.stringContaining('endpoint is required'));
      expect(heard).toEqual(['CONFIG']);
    });

    it('tells the page once that it is ready', async () => {
      const heard: EventTarget[] = [];
      document.addEventListener('satang-ready', (e) => heard.push(e.target!));
      const element = await mount();
      // The renders that follow the first (the card rules, the other methods' panels, awaited by
      // mount) are over: a second satang-ready would have come with one of them.
      const form = cardForm(element);
      await form.whenReady();
      await form.updateComplete;
      await element.updateComplete;
      expect(heard).toEqual([element]);
    });

    it('refuses a return-url that is not a web address', async () => {
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const element = await mount({ 'return-url': 'javascript:alert(1)' });
      expect(await configText(element)).toContain('return-url must be an http(s) URL');
    });

    it('refuses an unknown intent, and methods other than card with intent="authorize"', async () => {
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      expect(await configText(await mount({ intent: 'reserve' }))).toContain('intent must be charge or authorize, got "reserve"');
      document.body.replaceChildren();
      expect(await configText(await mount({ intent: 'authorize', methods: 'card,promptpay' }))).toContain('intent="authorize" takes card payments only');
    });

    it('offers the card alone with intent="authorize" and the methods left to their default', async () => {
      const element = await mount({ intent: 'authorize' });
      expect([...root(element).querySelectorAll('[part="method"]')].map((m) => m.textContent.trim())).toEqual(['Card']);
    });

    it('refuses a secret key given as the publishable key', async () => {
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const element = await mount({ 'publishable-key': SANDBOX_DEFAULTS.apiKey });
      expect(await configText(element)).toContain('looks like a secret API key');
    });
  });

  describe('paying by card', () => {
    it('tokenizes, charges the server’s amount and shows success', async () => {
      const element = await mount();
      const ready = root(element).querySelector('[part="pay-button"]')!;
      expect(ready.textContent).toContain('Pay ฿123.45');
      await fillCard(element, '4111111111111111');
      const success = next(element, 'satang-success');
      await userEvent.click(payButton(element));
      const { chargeId } = await success;
      await element.updateComplete;
      expect(root(element).querySelector('[part="outcome"]')!.textContent).toContain('Payment successful');
      const [charge] = await chargesOf(element.orderReference);
      expect(charge).toMatchObject({ chargeId, amount: 12_345, status: 'SUCCEEDED' });
    });

    it('shows a decline over the card, still filled in but for its security code, and moves focus to the reason', async () => {
      const element = await mount();
      await fillCard(element, '4943129900084541');
      const failure = next(element, 'satang-failure');
      await userEvent.click(payButton(element));
      expect((await failure).failureCode).toBe('CH_INSUFFICIENT_FUNDS');
      await element.updateComplete;
      const message = root(element).querySelector<HTMLElement>('[part="message"]')!;
      expect(message.textContent).toContain('Payment not completed');
      expect(message.textContent).toContain('insufficient funds. Try another card, or pay with PromptPay');
      expect(message.textContent).toContain('To pay with this card again, enter its security code.');
      await vi.waitFor(() => expect(root(element).activeElement).toBe(message));
      // Above the form, which stays as it was: only the security code is to be typed again.
      expect(message.compareDocumentPosition(cardForm(element)) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      expect(cardForm(element).hidden).toBe(false);
      expect(root(element).querySelector('[part="outcome"]')).toBeNull();
      expect(cardInput(element, 'number').value).toBe('4943 1299 0008 4541');
      expect(cardInput(element, 'holder').value).toBe('Somchai Jaidee');
      expect(cardInput(element, 'cvc').value).toBe('');
      // The next try, with the security code again, is a new attempt that pays.
      await userEvent.type(cardInput(element, 'number'), '{Backspace}'.repeat(19));
      await userEvent.type(cardInput(element, 'number'), '4111111111111111');
      await userEvent.type(cardInput(element, 'cvc'), '123');
      const success = next(element, 'satang-success');
      await userEvent.click(payButton(element));
      await success;
    });

    it('pays when Enter is pressed in the security code, as in a form', async () => {
      const element = await mount();
      await fillCard(element, '4111111111111111');
      const success = next(element, 'satang-success');
      await userEvent.type(cardInput(element, 'cvc'), '{Enter}');
      await success;
      await element.updateComplete;
      await vi.waitFor(() => expect(root(element).activeElement?.textContent).toContain('Payment successful'));
    });

    it('validates everything on one click of pay, straight from a wrong field', async () => {
      const element = await mount();
      await userEvent.type(cardInput(element, 'number'), '4111 1111');
      // One press, focus still in the number field: the error must not move pay from under the pointer.
      await userEvent.click(payButton(element));
      await element.updateComplete;
      const form = root(cardForm(element));
      expect(cardInput(element, 'expiry').getAttribute('aria-invalid')).toBe('true');
      expect(form.activeElement).toBe(cardInput(element, 'number'));
    });

    it('makes one charge however fast pay is pressed', async () => {
      const element = await mount();
      await fillCard(element, '4111111111111111');
      const success = next(element, 'satang-success');
      const button = payButton(element);
      button.click();
      button.click();
      button.click();
      await success;
      expect(await chargesOf(element.orderReference)).toHaveLength(1);
    });

    it('keeps everything after a network failure, and the retry makes exactly one charge', async () => {
      const element = await mount();
      await fillCard(element, '4111111111111111');
      const realFetch = window.fetch.bind(window);
      let failOnce = true;
      // The connection fails before the request reaches the shop: nothing was charged.
      vi.spyOn(window, 'fetch').mockImplementation(async (input, init) => {
        if (failOnce && (input instanceof Request ? input.url : input.toString()).endsWith('/api/checkout/charges')) {
          failOnce = false;
          throw new TypeError('Failed to fetch');
        }
        return realFetch(input, init);
      });
      await userEvent.click(payButton(element));
      await vi.waitFor(() => expect(root(element).querySelector('[part="message"]')?.textContent).toContain('could not reach the payment service'));
      expect(cardInput(element, 'number').value).toBe('4111 1111 1111 1111');
      expect(cardInput(element, 'cvc').value).toBe('123');
      expect(payButton(element).textContent).toContain('Try again');
      expect(await chargesOf(element.orderReference)).toHaveLength(0);
      const success = next(element, 'satang-success');
      await userEvent.click(payButton(element));
      await success;
      expect(await chargesOf(element.orderReference)).toHaveLength(1);
    });

    it('shows its own payment when the answer is lost after the shop made the charge: sent again under the same key, one charge, no offer to pay again', async () => {
      const element = await mount();
      await fillCard(element, '4111111111111111');
      const realFetch = window.fetch.bind(window);
      const sent: string[] = [];
      let failOnce = true;
      // The answer is lost after the server has created the charge: the nastiest network fault.
      vi.spyOn(window, 'fetch').mockImplementation(async (input, init) => {
        const request = new Request(input, init);
        const answer = await realFetch(request.clone());
        if (request.url.endsWith('/api/checkout/charges')) {
          sent.push(request.headers.get('idempotency-key') ?? '');
          if (failOnce) {
            failOnce = false;
            throw new TypeError('Failed to fetch');
          }
        }
        return answer;
      });
      const messages: string[] = [];
      element.addEventListener('satang-error', (event) => messages.push((event as Event & { message: string }).message));
      const success = next(element, 'satang-success');
      await userEvent.click(payButton(element));
      await success;
      expect(sent).toHaveLength(2);
      expect(new Set(sent).size, 'one attempt, one key').toBe(1);
      expect(messages, 'no error was shown on the way').toEqual([]);
      expect(await chargesOf(element.orderReference)).toHaveLength(1);
    });

    it('never lets the card number into attributes, events or storage', async () => {
      // An order reference whose random part carries the CVC's digits, as one in a few hundred does.
      const element = await mount({ 'order-reference': `${orderFor(12_345)}-a987f` });
      const events: string[] = [];
      for (const type of ['satang-change', 'satang-submit', 'satang-action', 'satang-success', 'satang-failure', 'satang-error']) {
        document.addEventListener(type, (e) => events.push(JSON.stringify({ ...own(e), type: e.type }, (_k, v) => v)));
      }
      await fillCard(element, '4111111111111111', '987');
      const success = next(element, 'satang-success');
      await userEvent.click(payButton(element));
      await success;
      const form = cardForm(element);
      const attributes = [element, form, ...root(form).querySelectorAll('*')].flatMap((node) => [...node.attributes].map((a) => a.value)).join(' ');
      // The kept attempt's random ids and token may hold any three digits: they are checked for what they are, not searched.
      const kept = Object.values(own(sessionStorage)).map((v) => JSON.parse(String(v)) as Record<string, unknown>);
      for (const attempt of kept) expect(Object.keys(attempt).sort()).toEqual(['action', 'chargeId', 'method', 'savedAt', 'statusToken']);
      const storage = JSON.stringify(kept.map(({ chargeId: _c, statusToken: _t, ...rest }) => rest)) + JSON.stringify(own(localStorage));
      const properties = JSON.stringify(Object.fromEntries(Object.keys(form).map((k) => [k, String((form as unknown as Record<string, unknown>)[k])])));
      // The CVC is looked for as a value of its own, never as three digits inside something else:
      // the order reference's random UUID, the kept attempt's clock (savedAt), or the path data of
      // the brand's mark, drawn once its lazy chunk arrives (some hold "987").
      const cvc = /(?<![\w.,-])987(?![\w.,-])/;
      for (const text of [attributes, storage, properties, events.join(' ')]) {
        expect(text).not.toMatch(/4111\s?1111/);
        expect(text).not.toMatch(cvc);
      }
      expect(events.length).toBeGreaterThan(1);
    });
  });

  describe('switching methods', () => {
    it('keeps the card entered while another method is chosen, and shows it again on the way back', async () => {
      const element = await mount({}, 400_000);
      await fillCard(element, '4111111111111111');
      const form = cardForm(element);
      for (const method of ['PromptPay', 'E-wallet', 'Installments']) {
        await chooseMethod(element, method);
        expect(cardForm(element), method).toBe(form);
      }
      await chooseMethod(element, 'Card');
      expect(cardForm(element).hidden).toBe(false);
      expect(cardInput(element, 'number').value).toBe('4111 1111 1111 1111');
      expect(cardInput(element, 'holder').value).toBe('Somchai Jaidee');
    });
  });

  describe('paying by PromptPay', () => {
    it('shows the QR and turns to success when the payer pays, without a reload', async () => {
      const element = await mount();
      await chooseMethod(element, 'PromptPay');
      const action = next(element, 'satang-action');
      await userEvent.click(payButton(element));
      expect((await action).action).toBe('qr');
      await element.updateComplete;
      const qr = root(element).querySelector('satang-qr-payment')!;
      expect(qr).not.toBeNull();
      const rawData = qr.getAttribute('raw-data')!;
      expect(rawData).toMatch(/^000201/);
      const success = next(element, 'satang-success');
      const paid = await fetch('/sandbox/pages/promptpay', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ rawData, outcome: 'succeed' }), redirect: 'manual' });
      // The charge carries the shop page as its return URL, so the payer page answers with a redirect there.
      expect(paid.type).toBe('opaqueredirect');
      await success;
      await element.updateComplete;
      expect(root(element).querySelector('[part="outcome"]')!.textContent).toContain('Payment successful');
    });
  });

  describe('redirect methods', () => {
    it('saves the attempt without card data, leaves for the OTP page, and resumes with the outcome on return', async () => {
      const element = await mount();
      const reference = element.orderReference;
      let target: URL | undefined;
      (element as unknown as { navigate: (url: URL) => void }).navigate = (url) => (target = url);
      await fillCard(element, '4953261730509988');
      const action = next(element, 'satang-action');
      await userEvent.click(payButton(element));
      expect((await action).action).toBe('redirect');
      expect(target?.pathname).toMatch(/^\/sandbox\/pages\/otp\/ch_/);
      const saved = JSON.stringify(own(sessionStorage));
      expect(saved).toContain('statusToken');
      expect(saved).not.toMatch(CARD_NUMBER_START);
      // The shopper passes the OTP page, and comes back to the shop's page.
      await fetch(target!.pathname, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'otp=123456', redirect: 'manual' });
      document.body.replaceChildren();
      const back = document.createElement('satang-checkout');
      const success = next(back, 'satang-success');
      for (const attribute of element.getAttributeNames()) back.setAttribute(attribute, element.getAttribute(attribute)!);
      document.body.append(back);
      await success;
      expect(back.orderReference).toBe(reference);
      // Kept, paid, so that a reload shows the order paid rather than a form to pay again.
      expect(JSON.stringify(own(sessionStorage))).not.toMatch(CARD_NUMBER_START);
      await back.updateComplete;
      expect(root(back).querySelector('[part="outcome"]')!.textContent).toContain('Payment successful');
    });

    it('back from the OTP page whole (the back-forward cache), keeps the card but for its security code, stored nowhere', async () => {
      const element = await mount();
      (element as unknown as { navigate: (url: URL) => void }).navigate = () => undefined;
      await fillCard(element, '4953261730509988');
      const action = next(element, 'satang-action');
      await userEvent.click(payButton(element));
      await action;
      await element.updateComplete;
      // What Chromium fires when it shows the page again from its back-forward cache (Playwright's
      // Chromium runs with that cache off, and a shop page sent with no-store is never kept in it).
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
      const another = await vi.waitUntil(() => root(element).querySelector<HTMLButtonElement>('[part="change-method-button"]'), { timeout: 10_000 });
      await userEvent.click(another);
      await vi.waitUntil(() => !cardForm(element).closest('[hidden]') && payButton(element).textContent.includes('Pay'), { timeout: 10_000 });
      expect(cardInput(element, 'number').value).toBe('4953 2617 3050 9988');
      expect(cardInput(element, 'holder').value).toBe('Somchai Jaidee');
      expect(cardInput(element, 'expiry').value).toBe(`12/${YEAR}`);
      expect(cardInput(element, 'cvc').value).toBe('');
      expect(cardInput(element, 'cvc').getAttribute('aria-invalid')).toBe('true');
      expect(JSON.stringify(own(sessionStorage)) + JSON.stringify(own(localStorage))).not.toMatch(CARD_NUMBER_START);
    });

    it('sends a return-url given as a path as the full address on the page’s site', async () => {
      const element = await mount({ 'return-url': '/checkout/return?step=2' });
      let target: URL | undefined;
      (element as unknown as { navigate: (url: URL) => void }).navigate = (url) => (target = url);
      await fillCard(element, '4953261730509988');
      const action = next(element, 'satang-action');
      await userEvent.click(payButton(element));
      await action;
      // After the OTP page the shopper lands on the return URL the charge was given.
      const done = await fetch(target!.pathname, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'otp=123456' });
      expect(done.url).toBe(`${location.origin}/checkout/return?step=2&satang-return=1`);
    });

    it('explains on a desktop that a bank app needs the phone, and does not submit', async () => {
      const element = await mount({ methods: 'mobile-banking' });
      expect(root(element).querySelector('[part="notice"]')!.textContent).toContain('Bank apps open on a phone');
      expect(payButton(element).disabled).toBe(true);
    });

    it('leaves mobile banking out on a desktop when other methods are offered, and says to scan the QR with a bank app', async () => {
      const element = await mount();
      const methods = [...root(element).querySelectorAll('[part="method"] span')].map((m) => m.textContent.trim());
      expect(methods).toEqual(['Card', 'Installments', 'PromptPay QR', 'E-wallet']);
      expect(root(element).querySelector('[part="method-note"]')!.textContent).toContain('choose PromptPay QR and scan it with the app');
      // Once PromptPay is chosen, the panel itself says to scan with a banking app: the note would say it twice.
      await userEvent.click([...root(element).querySelectorAll<HTMLElement>('[part="method"]')].find((m) => m.textContent.includes('PromptPay'))!);
      await element.updateComplete;
      expect(root(element).querySelector('[part="method-note"]')).toBeNull();
    });

    it('lists the wallets to choose from', async () => {
      const element = await mount({ methods: 'ewallet' });
      const options = [...root(element).querySelectorAll('[part="option"]')];
      const names = options.map((o) => o.querySelector('span')!.textContent.trim());
      expect(names).toContain('TrueMoney');
      expect(names).toContain('ShopeePay');
      // Each with its mark, decorative beside the name.
      for (const option of options) expect(option.querySelector('svg.mark')?.getAttribute('aria-hidden')).toBe('true');
    });
  });

  describe('installments', () => {
    it('offers only the plans the amount allows, in parts that add up to it exactly, the first month taking the odd satang', async () => {
      const element = await mount({ methods: 'installments' }, 400_000);
      const plans = [...root(element).querySelectorAll('[part="option"]')].map((o) => o.textContent.replace(/\s+/g, ' ').trim());
      expect(plans).toEqual([
        '฿1,333.33 × 3 months First month ฿1,333.34 · Total ฿4,000.00',
        '฿1,000.00 × 4 months Total ฿4,000.00',
        '฿666.66 × 6 months First month ฿666.70 · Total ฿4,000.00',
      ]);
    });

    it('splits ฿5,650.00 in three as ฿1,883.34 then twice ฿1,883.33', async () => {
      const element = await mount({ methods: 'installments' }, 565_000);
      const [three] = [...root(element).querySelectorAll('[part="option"]')].map((o) => o.textContent.replace(/\s+/g, ' ').trim());
      expect(three).toBe('฿1,883.33 × 3 months First month ฿1,883.34 · Total ฿5,650.00');
    });

    for (const [locale, plan, paid] of [
      ['en', '฿694.00 × 10 months', 'Paid in installments: ฿694.00 × 10 months.'],
      ['th', '฿694.00 × 10 เดือน', 'ผ่อนชำระ ฿694.00 × 10 เดือน'],
    ] as const) {
      it(`(${locale}) names the plan paid in its success, in the words it was chosen in`, async () => {
        const element = await mount({ methods: 'installments', locale }, 694_000);
        const option = [...root(element).querySelectorAll<HTMLElement>('[part="option"]')].find((o) => o.textContent.includes(plan))!;
        await userEvent.click(option);
        await fillCard(element, '4417704002802961');
        const success = next(element, 'satang-success');
        await userEvent.click(payButton(element));
        await success;
        await element.updateComplete;
        const outcome = root(element).querySelector('[part="outcome"]')!;
        expect(outcome.getAttribute('role')).toBe('status');
        expect(outcome.textContent.replace(/\s+/g, ' ')).toContain(paid);
        const [charge] = await chargesOf(element.orderReference);
        expect(charge).toMatchObject({ status: 'SUCCEEDED', paymentMethod: { cardInstallments: { installmentPeriod: 10 } } });
      });
    }

    it('says the interest and the cards the shop gives, under the plans, in Thai and English', async () => {
      const terms = (element: SatangCheckout) => root(element).querySelector('fieldset[part="options"] + [part="notice"]')?.textContent.trim();
      const free = await mount({ methods: 'installments', 'installment-interest': '0', 'installment-cards': 'KBank, SCB credit cards' }, 400_000);
      expect(terms(free)).toBe('0% interest · Eligible cards: KBank, SCB credit cards');
      document.body.replaceChildren();
      const thai = await mount({ methods: 'installments', locale: 'th', 'installment-interest': '0.8', 'installment-cards': 'บัตรเครดิตกสิกรไทย' }, 400_000);
      expect(terms(thai)).toBe('ดอกเบี้ย 0.8% ต่อเดือน เรียกเก็บโดยธนาคารผู้ออกบัตร · บัตรที่ร่วมรายการ: บัตรเครดิตกสิกรไทย');
      document.body.replaceChildren();
      const none = await mount({ methods: 'installments' }, 400_000);
      expect(terms(none)).toBeUndefined();
    });

    it('shows no interest it cannot read, and says so in the console once', async () => {
      const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const element = await mount({ methods: 'installments', 'installment-interest': 'zero', 'installment-cards': 'Any Visa' }, 400_000);
      element.requestUpdate();
      await element.updateComplete;
      expect(root(element).querySelector('fieldset[part="options"] + [part="notice"]')?.textContent.trim()).toBe('Eligible cards: Any Visa');
      expect(errors.mock.calls.filter(([text]) => String(text).includes('installment-interest'))).toHaveLength(1);
    });

    it('says why the amount is too small for installments when nothing else is offered', async () => {
      const element = await mount({ methods: 'installments' }, 100_000);
      expect(root(element).querySelector('[part="notice"]')!.textContent).toContain('Installments start at ฿3,000.00, and this order is ฿1,000.00');
      expect(payButton(element).disabled).toBe(true);
      // No card form to fill in for nothing.
      expect(root(element).querySelector('satang-card-form')!.hidden).toBe(true);
    });

    it('offers the other methods instead when the amount falls below the minimum with installments chosen', async () => {
      const element = await mount({ methods: 'installments,card,promptpay' }, 400_000);
      element.amount = 100_000;
      await element.updateComplete;
      expect(root(element).querySelector<HTMLInputElement>('input[name="method"]:checked')!.parentElement!.textContent).toContain('Card');
      expect(payButton(element).disabled).toBe(false);
      expect(root(element).querySelector('satang-card-form')!.hidden).toBe(false);
    });
  });

  describe('theming', () => {
    it('passes tokens set on the checkout down to the card fields, and lets the page style them as parts', async () => {
      const style = document.createElement('style');
      style.textContent = `satang-checkout.brand { --satang-radius: 18px; --satang-color-field: rgb(255, 240, 220); }
        satang-checkout.brand::part(card-input) { letter-spacing: 3px; }`;
      document.head.append(style);
      try {
        const element = await mount();
        element.classList.add('brand');
        await cardForm(element).updateComplete;
        const input = getComputedStyle(cardInput(element, 'number'));
        expect(input.borderTopLeftRadius).toBe('18px');
        expect(input.backgroundColor).toBe('rgb(255, 240, 220)');
        expect(input.letterSpacing).toBe('3px');
      } finally {
        style.remove();
      }
    });

    it('says PromptPay was chosen when PromptPay is chosen', async () => {
      const element = await mount();
      const change = next(element, 'satang-change');
      await chooseMethod(element, 'PromptPay');
      expect((await change).method).toBe('QR_PROMPT_PAY');
    });
  });

  describe('in Thai', () => {
    it('speaks Thai when the page does', async () => {
      document.documentElement.lang = 'th';
      try {
        const element = await mount({ locale: '' });
        expect(payButton(element).textContent).toContain('ชำระเงิน ฿123.45');
        expect(root(cardForm(element)).textContent).toContain('หมายเลขบัตร');
      } finally {
        document.documentElement.lang = 'en';
      }
    });
  });
});
