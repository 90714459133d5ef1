import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import '../../../src/elements/index.js';
import type { SatangCheckout } from '../../../src/elements/index.js';
import { SANDBOX_DEFAULTS } from '../../../src/sandbox/defaults.js';
import { pageOrderToken, withPageOrderToken } from '../../support/page-tokens.js';

/**
 * `<satang-checkout>` when the shop's server will not charge (409 AMOUNT_CHANGED,
 * PAYMENT_IN_PROGRESS, ORDER_ALREADY_PAID; 403 STATUS_TOKEN_EXPIRED) and when a charge went
 * through without paying its order (the status answer's `outcome`). Against the real shop server
 * and sandbox of the browser tests (test/browser/backend.ts, whose orders are priced by their
 * reference, `order-<satang>-…`); the answers that server cannot be made to give on demand are
 * routed by the test's own fetch, and each such test says so in its name ("(routed)").
 */

const API = { authorization: `Basic ${btoa(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.apiKey}`)}` };
const YEAR = String((new Date().getFullYear() + 2) % 100).padStart(2, '0');
const orderFor = (amount: number) => `order-${amount}-${crypto.randomUUID()}`;
const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : input.toString());
const isChargePost = (url: string, init?: RequestInit) => init?.method === 'POST' && new URL(url, location.href).pathname === '/api/checkout/charges';
const isStatus = (url: string) => /\/api\/checkout\/charges\/[^/]+\/status/.test(url);

afterEach(() => {
  document.body.replaceChildren();
  sessionStorage.clear();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

async function mount(attributes: Record<string, string> = {}, into: Document = document): Promise<SatangCheckout> {
  const element = into.createElement('satang-checkout');
  const all: Record<string, string> = {
    'merchant-id': SANDBOX_DEFAULTS.merchantId,
    'publishable-key': SANDBOX_DEFAULTS.publishableKey,
    'service-url': location.origin,
    endpoint: '/api/checkout',
    amount: '12345',
    'order-reference': orderFor(12_345),
    locale: 'en',
    ...attributes,
  };
  for (const [name, value] of Object.entries(await withPageOrderToken(all))) element.setAttribute(name, value);
  into.body.append(element);
  await element.updateComplete;
  // The card form's rules come right after its first render.
  await element.shadowRoot?.querySelector('satang-card-form')?.whenReady();
  return element;
}

const root = (element: Element) => element.shadowRoot!;
const part = (element: Element, name: string) => root(element).querySelector<HTMLElement>(`[part~="${name}"]`);
const cardForm = (element: SatangCheckout) => root(element).querySelector('satang-card-form')!;
const cardInput = (element: SatangCheckout, id: string) => root(cardForm(element)).querySelector<HTMLInputElement>(`#${id}`)!;
const formShown = (element: SatangCheckout) => !root(element).querySelector<HTMLElement>('.form')!.hidden;
const text = (node: Element | null) => node?.textContent.replace(/\s+/g, ' ').trim() ?? '';

async function fillCard(element: SatangCheckout, pan = '4111111111111111') {
  await userEvent.type(cardInput(element, 'number'), pan);
  await userEvent.type(cardInput(element, 'expiry'), `12${YEAR}`);
  await userEvent.type(cardInput(element, 'cvc'), '123');
  await userEvent.type(cardInput(element, 'holder'), 'Somchai Jaidee');
}

async function chooseMethod(element: SatangCheckout, label: string) {
  const radio = [...root(element).querySelectorAll<HTMLLabelElement>('[part="method"]')].find((l) => l.textContent.includes(label));
  await userEvent.click(radio!);
  await element.updateComplete;
}

function next<K extends keyof GlobalEventHandlersEventMap>(target: EventTarget, type: K): Promise<GlobalEventHandlersEventMap[K]> {
  return new Promise((resolve) => target.addEventListener(type, resolve as EventListener, { once: true }));
}

/**
 * Resolves once the server has answered the page's read of the state of the order `reference`
 * (`GET …/orders/:ref/state`, asked just after the first frame): what it answered was decided then.
 */
function orderStateRead(reference: string): Promise<void> {
  const path = `/api/checkout/orders/${encodeURIComponent(reference)}/state`;
  return new Promise((resolve) => {
    const observer = new PerformanceObserver((list) => {
      if (!list.getEntries().some((entry) => new URL(entry.name).pathname === path)) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: 'resource', buffered: true });
  });
}

/** Every event of these types the page hears, in order. */
function heard(...types: (keyof GlobalEventHandlersEventMap)[]): Event[] {
  const events: Event[] = [];
  for (const type of types) document.addEventListener(type, (e) => events.push(e));
  return events;
}

async function chargesOf(orderReference: string): Promise<{ chargeId: string; amount: number; status: string; paymentMethod: { paymentMethodType: string } }[]> {
  const answer = await fetch(`/api/v1/charges?referenceId=${encodeURIComponent(orderReference)}`, { headers: API });
  return (await answer.json()).data;
}

interface SentCharge {
  body: Record<string, unknown>;
  key: string;
}

/**
 * Watches the page's fetches: every charge request sent is recorded; `answer` may give the
 * answer of a request instead of the real server (routing), or leave it to the server (undefined).
 */
function watch(answer: (url: string, init: RequestInit | undefined, sent: SentCharge[]) => Response | undefined = () => undefined): SentCharge[] {
  const sent: SentCharge[] = [];
  const realFetch = window.fetch.bind(window);
  vi.spyOn(window, 'fetch').mockImplementation(async (input, init) => {
    const url = urlOf(input);
    if (isChargePost(url, init)) {
      const headers = new Headers(init?.headers);
      sent.push({ body: JSON.parse(init?.body as string) as Record<string, unknown>, key: headers.get('Idempotency-Key') ?? '' });
    }
    return answer(url, init, sent) ?? realFetch(input, init);
  });
  return sent;
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const refusal = (status: number, errorCode: string, message: string, extra: Record<string, unknown> = {}) =>
  json(status, { code: status, message, error: { errorCode, errorMessage: message, retryable: false }, ...extra });

/** A card charge answered as created and then followed, both by the test: the status says `outcome`. */
function routeCardChargeWithOutcome(outcome: string): SentCharge[] {
  return watch((url, init, sent) => {
    if (isChargePost(url, init) && sent.length === 1) return json(201, { chargeId: 'ch_routed_1', actionRequired: 'NONE', statusToken: 'st_routed' });
    if (isStatus(url)) return json(200, { chargeId: 'ch_routed_1', status: 'SUCCEEDED', failureCode: null, outcome });
    return undefined;
  });
}

/** A QR charge of the shop's server for `orderReference`, as another window of the shopper made it. */
async function qrChargeElsewhere(orderReference: string, amount: number): Promise<{ chargeId: string; rawData: string }> {
  const answer = await fetch('/api/checkout/charges', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': crypto.randomUUID(), 'X-Satang-Order-Token': await pageOrderToken(orderReference) },
    body: JSON.stringify({ orderReference, paymentMethod: { type: 'QR_PROMPT_PAY' }, amount, currency: 'THB' }),
  });
  expect(answer.status).toBe(201);
  const body = (await answer.json()) as { chargeId: string; encodedImage: { rawData: string } };
  return { chargeId: body.chargeId, rawData: body.encodedImage.rawData };
}

describe('<satang-checkout> and the amount it shows', () => {
  it('sends the amount and currency it shows with the charge', async () => {
    const sent = watch();
    const element = await mount();
    await fillCard(element);
    const success = next(element, 'satang-success');
    await userEvent.click(part(element, 'pay-button')!);
    expect((await success).outcome).toBe('paid');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({ amount: 12_345, currency: 'THB', orderReference: element.orderReference });
    expect(sent[0]!.body).not.toHaveProperty('replace');
  });

  it('charges nothing when the total changed, shows the new one to confirm, and pays it only once confirmed', async () => {
    const sent = watch();
    const element = await mount({ amount: '24500', 'order-reference': orderFor(387_000) });
    const events = heard('satang-amount-changed', 'satang-success', 'satang-error');
    await fillCard(element);
    const changed = next(document, 'satang-amount-changed');
    await userEvent.click(part(element, 'pay-button')!);
    const event = await changed;
    expect([event.amount, event.previousAmount, event.currency]).toEqual([387_000, 24_500, 'THB']);
    expect(event.bubbles && event.composed).toBe(true);
    await vi.waitFor(() => expect(part(element, 'conflict')).not.toBeNull());
    const notice = part(element, 'conflict')!;
    expect(text(notice)).toContain('The total is now ฿3,870.00 (was ฿245.00). Confirm to pay the new total.');
    expect(notice.getAttribute('role')).toBe('alert');
    await vi.waitFor(() => expect(root(element).activeElement).toBe(notice.querySelector('h2')));
    expect(text(part(element, 'confirm-button'))).toBe('Confirm and pay ฿3,870.00');
    expect(element.amount).toBe(387_000);
    expect(formShown(element)).toBe(false);
    expect(await chargesOf(element.orderReference)).toEqual([]);
    expect(sent).toHaveLength(1);
    expect(events.map((e) => e.type)).toEqual(['satang-amount-changed']);

    const success = next(element, 'satang-success');
    await userEvent.click(part(element, 'confirm-button')!);
    await success;
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).toMatchObject({ amount: 387_000, currency: 'THB' });
    expect(sent[1]!.key).not.toBe(sent[0]!.key);
    // The card was tokenized again from the form as filled: the shopper typed nothing more.
    const token = (charge: SentCharge) => (charge.body.paymentMethod as { cardTokenId: string }).cardTokenId;
    expect(token(sent[1]!)).not.toBe(token(sent[0]!));
    const charges = await chargesOf(element.orderReference);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ amount: 387_000, status: 'SUCCEEDED' });
  });

  it('goes back to the form from the new total, whose pay button then says it', async () => {
    const element = await mount({ amount: '24500', 'order-reference': orderFor(387_000), methods: 'promptpay' });
    await userEvent.click(part(element, 'pay-button')!);
    await vi.waitFor(() => expect(part(element, 'back-button')).not.toBeNull());
    await userEvent.click(part(element, 'back-button')!);
    await element.updateComplete;
    expect(formShown(element)).toBe(true);
    expect(text(part(element, 'pay-button'))).toBe('Pay ฿3,870.00');
    expect(await chargesOf(element.orderReference)).toEqual([]);
  });

  it('says it in Thai', async () => {
    const element = await mount({ amount: '24500', 'order-reference': orderFor(387_000), methods: 'promptpay', locale: 'th' });
    await userEvent.click(part(element, 'pay-button')!);
    await vi.waitFor(() => expect(part(element, 'conflict')).not.toBeNull());
    expect(text(part(element, 'conflict'))).toContain('ยอดชำระตอนนี้คือ ฿3,870.00 (เดิม ฿245.00) กรุณายืนยันเพื่อชำระยอดใหม่');
    expect(text(part(element, 'confirm-button'))).toBe('ยืนยันและชำระ ฿3,870.00');
  });
});

describe('<satang-checkout> when the order is being paid elsewhere', () => {
  it('says so, naming the other method, and pays here instead only when asked, with replace and a new key', async () => {
    const reference = orderFor(12_345);
    const element = await mount({ 'order-reference': reference });
    // The other payment starts once this page has read its order's state (open), and on a device
    // whose tabs this browser does not hear: the page learns of it only when it pays. (Started
    // before that read, the page shows that payment instead of its form.)
    await orderStateRead(reference);
    const qr = await qrChargeElsewhere(reference, 12_345);
    expect(formShown(element)).toBe(true);
    // This page's charge requests, from here on.
    const sent = watch();
    await fillCard(element);
    await userEvent.click(part(element, 'pay-button')!);
    await vi.waitFor(() => expect(part(element, 'replace-button')).not.toBeNull());
    expect(text(part(element, 'conflict'))).toContain('This order is already being paid in another window (PromptPay QR). Finish it there, or pay here instead.');
    expect(text(part(element, 'replace-button'))).toBe('Pay here instead');
    await vi.waitFor(() => expect(root(element).activeElement?.tagName).toBe('H2'));
    expect((await chargesOf(reference)).map((c) => c.chargeId)).toEqual([qr.chargeId]);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).not.toHaveProperty('replace');

    const success = next(element, 'satang-success');
    await userEvent.click(part(element, 'replace-button')!);
    await success;
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).toMatchObject({ replace: true, amount: 12_345 });
    expect(sent[1]!.key).not.toBe(sent[0]!.key);
    const card = (await chargesOf(reference)).find((c) => c.chargeId !== qr.chargeId);
    expect(card).toMatchObject({ status: 'SUCCEEDED', amount: 12_345 });
  });

  it('still offers to pay here instead when the other window pays by a method this version cannot name (routed)', async () => {
    const sent = watch((url, init, all) =>
      isChargePost(url, init) && all.length === 1
        ? refusal(409, 'PAYMENT_IN_PROGRESS', 'This order is already being paid in another window.', { paymentMethodType: 'SOME_NEW_WALLET', replaceable: true })
        : undefined,
    );
    const element = await mount({ methods: 'promptpay' });
    await userEvent.click(part(element, 'pay-button')!);
    await vi.waitFor(() => expect(part(element, 'replace-button')).not.toBeNull());
    expect(text(part(element, 'conflict'))).toContain('This order is already being paid in another window. Finish it there, or pay here instead.');
    expect(text(part(element, 'conflict'))).not.toContain('SOME_NEW_WALLET');
    const action = next(element, 'satang-action');
    await userEvent.click(part(element, 'replace-button')!);
    expect((await action).action).toBe('qr');
    expect(sent[1]!.body).toMatchObject({ replace: true });
  });

  it('offers "Try again" while the other payment is still being created, and sends the same request again (routed)', async () => {
    const sent = watch((url, init, all) =>
      isChargePost(url, init) && all.length === 1
        ? refusal(409, 'PAYMENT_IN_PROGRESS', 'This order is being paid right now. Please wait a moment and try again.', { paymentMethodType: 'QR_PROMPT_PAY', replaceable: false })
        : undefined,
    );
    const element = await mount({ methods: 'promptpay' });
    await userEvent.click(part(element, 'pay-button')!);
    await vi.waitFor(() => expect(part(element, 'conflict')).not.toBeNull());
    expect(text(part(element, 'conflict'))).toContain('A payment for this order is being processed in another window right now. Try again in a moment.');
    expect(part(element, 'replace-button')).toBeNull();
    const action = next(element, 'satang-action');
    await userEvent.click(part(element, 'retry-button')!);
    expect((await action).action).toBe('qr');
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).not.toHaveProperty('replace');
    expect(sent[1]!.key).not.toBe(sent[0]!.key);
  });

  it('shows a paid order as paid, with no form, and tells the page with satang-already-paid, not satang-success', async () => {
    const reference = orderFor(12_345);
    const first = await mount({ 'order-reference': reference });
    await fillCard(first);
    const paid = next(first, 'satang-success');
    await userEvent.click(part(first, 'pay-button')!);
    await paid;
    document.body.replaceChildren();
    // Another device: it has not kept this tab's paid attempt (which would show the order paid at once).
    sessionStorage.clear();

    // Its page asks the server where the order stands, and shows the answer before any press of pay.
    const events = heard('satang-success', 'satang-failure', 'satang-already-paid', 'satang-error');
    const alreadyPaid = next(document, 'satang-already-paid');
    const element = await mount({ 'order-reference': reference, methods: 'promptpay' });
    expect((await alreadyPaid).orderReference).toBe(reference);
    await element.updateComplete;
    expect(text(part(element, 'conflict'))).toContain('This order is paid');
    expect(formShown(element)).toBe(false);
    expect(part(element, 'conflict')!.querySelector('button')).toBeNull();
    expect(events.map((e) => e.type)).toEqual(['satang-already-paid']);
    expect(await chargesOf(reference)).toHaveLength(1);
  });
});

describe('<satang-checkout> and what a payment did for its order', () => {
  /** A checkout showing a PromptPay QR for `reference`. */
  async function showingQr(reference: string): Promise<SatangCheckout> {
    const element = await mount({ 'order-reference': reference });
    await chooseMethod(element, 'PromptPay');
    const action = next(element, 'satang-action');
    await userEvent.click(part(element, 'pay-button')!);
    await action;
    await element.updateComplete;
    expect(root(element).querySelector('satang-qr-payment')).not.toBeNull();
    return element;
  }

  /**
   * Another window of this browser: a document and a script realm of its own, with the elements
   * loaded there (`otherWindow.document`), and a session storage of its own, as a second tab has (a
   * frame would share this page's; an in-memory one stands for it). It shares this origin's
   * `BroadcastChannel`s with this page, as the tabs of one browser do. Gone with the test's body.
   */
  async function otherWindow(): Promise<{ frame: HTMLIFrameElement; document: Document }> {
    const frame = document.createElement('iframe');
    frame.style.cssText = 'width: 480px; height: 960px; border: 0';
    document.body.append(frame);
    const win = frame.contentWindow!;
    const kept = new Map<string, string>();
    const storage = {
      get length() {
        return kept.size;
      },
      key: (index: number) => [...kept.keys()][index] ?? null,
      getItem: (key: string) => kept.get(key) ?? null,
      setItem: (key: string, value: string) => void kept.set(key, value),
      removeItem: (key: string) => void kept.delete(key),
      clear: () => kept.clear(),
    } satisfies Storage;
    Object.defineProperty(win, 'sessionStorage', { configurable: true, value: storage });
    // Vitest serves modules with their dynamic imports wrapped by its runner, which only this page
    // has; a window of their own runs them as they are (as Vitest does in a worker).
    Object.assign(win, { __vitest_browser_runner__: { wrapDynamicImport: (load: () => unknown) => load() } });
    const script = win.document.createElement('script');
    script.type = 'module';
    script.src = new URL('../../../src/elements/index.ts', import.meta.url).href;
    const loaded = new Promise((resolve, reject) => {
      script.addEventListener('load', resolve, { once: true });
      script.addEventListener('error', () => reject(new Error(`the elements did not load in the other window from ${script.src}`)), { once: true });
    });
    win.document.head.append(script);
    await loaded;
    await win.customElements.whenDefined('satang-checkout');
    return { frame, document: win.document };
  }

  /**
   * Another window of this browser (see `otherWindow`) pays `reference` by card: shown the
   * order's QR open (the order's state), the shopper chooses another method and pays by card
   * there, as a shopper does, with the mouse and the keyboard; `beforePaying` runs just before the
   * press of pay.
   */
  async function payByCardElsewhere(reference: string, beforePaying: () => void = () => undefined): Promise<void> {
    const other = await otherWindow();
    // Its address is the shop's page, as this one's (the frame's own is about:blank).
    const card = await mount({ 'order-reference': reference, 'return-url': location.href }, other.document);
    const there = page.frameLocator(page.elementLocator(other.frame));
    await userEvent.click(there.getByRole('button', { name: 'Choose another method' }));
    await vi.waitFor(() => expect(formShown(card)).toBe(true));
    expect(root(card).querySelector('satang-qr-payment')).toBeNull();
    // The QR code left is news, not an error: said once, politely, and not as an alert too.
    await vi.waitFor(() => expect(root(card).querySelector('[part="message"]')?.textContent).toContain('can still be paid'));
    expect(root(card).querySelector('[part="message"]')?.getAttribute('role')).toBeNull();
    await userEvent.click(there.getByRole('radio', { name: 'Card' }));
    await userEvent.type(there.getByLabelText('Card number'), '4111111111111111');
    await userEvent.type(there.getByLabelText('Expiry date'), `12${YEAR}`);
    await userEvent.type(there.getByLabelText('Security code'), '123');
    await userEvent.type(there.getByLabelText('Name on card'), 'Somchai Jaidee');
    const cardPaid = next(card, 'satang-success');
    beforePaying();
    await userEvent.click(there.getByRole('button', { name: /^Pay ฿/ }));
    await cardPaid;
  }

  it('leaves its QR for "already paid" as soon as another window of this browser paid the order', async () => {
    const reference = orderFor(12_345);
    const element = await showingQr(reference);
    const events = heard('satang-success', 'satang-failure', 'satang-already-paid');
    let told: Promise<GlobalEventHandlersEventMap['satang-already-paid']> | undefined;
    await payByCardElsewhere(reference, () => {
      told = next(element, 'satang-already-paid');
    });
    expect((await told!).orderReference).toBe(reference);
    await element.updateComplete;
    // Not this page's payment: the order is paid, by another.
    expect(events.map((e) => e.type)).toEqual(['satang-already-paid']);
    expect(root(element).querySelector('satang-qr-payment')).toBeNull();
    expect(text(part(element, 'conflict'))).toContain('This order is paid');
    expect(part(element, 'pay-button')?.closest('.form')?.hasAttribute('hidden')).toBe(true);
  });

  it('on a device that did not hear of it, shows a payment the server refunded because another paid the order first as paid, with word of the refund', async () => {
    // No tab of this browser tells it: as on another device, whose status reads are held on the
    // way (a weak signal) until its QR is paid, so the server's news of the card does not reach it.
    vi.stubGlobal('BroadcastChannel', undefined);
    let hear!: () => void;
    const heard = new Promise<void>((resolve) => (hear = resolve));
    const realFetch = window.fetch.bind(window);
    vi.spyOn(window, 'fetch').mockImplementation(async (input, init) => {
      if (isStatus(urlOf(input))) await heard;
      return realFetch(input, init);
    });
    const reference = orderFor(12_345);
    const element = await showingQr(reference);
    const rawData = root(element).querySelector('satang-qr-payment')!.getAttribute('raw-data')!;
    await payByCardElsewhere(reference);

    // The QR is paid all the same, and then the device hears from the server.
    const success = next(element, 'satang-success');
    await fetch('/sandbox/pages/promptpay', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ rawData, outcome: 'succeed' }), redirect: 'manual' });
    hear();
    expect((await success).outcome).toBe('duplicate_refunded');
    await element.updateComplete;
    expect(text(part(element, 'outcome'))).toContain('Your order is paid');
    expect(text(part(element, 'refund-notice'))).toBe('This order had already been paid, so this extra payment of ฿123.45 has been refunded.');
  });

  it('after a refund for a changed price, says so, never succeeds, and asks the server for the new total to confirm (routed)', async () => {
    const sent = watch((url, init, all) => {
      if (isChargePost(url, init) && all.length === 1) return json(201, { chargeId: 'ch_routed_1', actionRequired: 'NONE', statusToken: 'st_routed' });
      if (isStatus(url)) return json(200, { chargeId: 'ch_routed_1', status: 'SUCCEEDED', failureCode: null, outcome: 'repriced_refunded' });
      if (isChargePost(url, init)) return refusal(409, 'AMOUNT_CHANGED', 'The total of this order is ฿150.00.', { amount: 15_000, currency: 'THB' });
      return undefined;
    });
    const events = heard('satang-success', 'satang-failure');
    const element = await mount();
    await fillCard(element);
    const failure = next(element, 'satang-failure');
    await userEvent.click(part(element, 'pay-button')!);
    const event = await failure;
    expect([event.outcome, event.failureCode]).toEqual(['repriced_refunded', 'repriced_refunded']);
    await element.updateComplete;
    expect(text(part(element, 'outcome'))).toContain('Your order has changed');
    expect(text(part(element, 'outcome'))).toContain('so this payment has been refunded. Review the new total and pay again.');
    await vi.waitFor(() => expect(root(element).activeElement?.tagName).toBe('H2'));

    await userEvent.click(part(element, 'review-button')!);
    await vi.waitFor(() => expect(part(element, 'confirm-button')).not.toBeNull());
    // The review asks for the total without one of its own, so the server cannot charge.
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).not.toHaveProperty('amount');
    expect(sent[1]!.key).not.toBe(sent[0]!.key);
    expect(text(part(element, 'conflict'))).toContain('The total is now ฿150.00 (was ฿123.45)');
    expect(events.map((e) => e.type)).toEqual(['satang-failure']);
  });

  for (const outcome of ['amount_mismatch', 'refund_failed']) {
    it(`says a payment with the outcome ${outcome} did not complete the order, offers no retry, and never succeeds (routed)`, async () => {
      routeCardChargeWithOutcome(outcome);
      const events = heard('satang-success', 'satang-failure');
      const element = await mount();
      await fillCard(element);
      const failure = next(element, 'satang-failure');
      await userEvent.click(part(element, 'pay-button')!);
      expect((await failure).outcome).toBe(outcome);
      await element.updateComplete;
      expect(text(part(element, 'outcome'))).toContain('This payment did not complete your order. The shop will contact you.');
      expect(part(element, 'outcome')!.querySelector('button')).toBeNull();
      expect(events.map((e) => e.type)).toEqual(['satang-failure']);
    });
  }

  it('takes an outcome it does not know for a payment that did not pay the order (routed)', async () => {
    routeCardChargeWithOutcome('something_new');
    const element = await mount();
    await fillCard(element);
    const failure = next(element, 'satang-failure');
    await userEvent.click(part(element, 'pay-button')!);
    await failure;
    await element.updateComplete;
    expect(text(part(element, 'outcome'))).toContain('The shop will contact you.');
  });

  it('starts afresh, forgetting it, when a saved payment can no longer be read (routed)', async () => {
    watch((url) => (isStatus(url) ? refusal(403, 'STATUS_TOKEN_EXPIRED', 'This payment page has expired. Please reload the page.') : undefined));
    const reference = orderFor(12_345);
    sessionStorage.setItem(`satang:attempt:${reference}`, JSON.stringify({ chargeId: 'ch_old', statusToken: 'st_old', method: 'CARD_TOKEN', action: 'wait', savedAt: Date.now() }));
    const element = await mount({ 'order-reference': reference });
    await vi.waitFor(() => expect(sessionStorage.getItem(`satang:attempt:${reference}`)).toBeNull());
    await element.updateComplete;
    expect(formShown(element)).toBe(true);
    expect(part(element, 'conflict')).toBeNull();
  });

  it('asks for a reload once the page of a payment under way expired (routed)', async () => {
    watch((url, init) => {
      if (isChargePost(url, init)) return json(201, { chargeId: 'ch_routed_1', actionRequired: 'NONE', statusToken: 'st_routed' });
      return isStatus(url) ? refusal(403, 'STATUS_TOKEN_EXPIRED', 'This payment page has expired. Please reload the page.') : undefined;
    });
    const reference = orderFor(12_345);
    const element = await mount({ 'order-reference': reference });
    await fillCard(element);
    await userEvent.click(part(element, 'pay-button')!);
    await vi.waitFor(() => expect(part(element, 'reload-button')).not.toBeNull());
    expect(text(part(element, 'conflict'))).toContain('This payment page has expired');
    expect(text(part(element, 'conflict'))).toContain('Reload the page to see where your payment stands.');
    expect(text(part(element, 'reload-button'))).toBe('Reload the page');
    expect(sessionStorage.getItem(`satang:attempt:${reference}`)).toBeNull();
    expect(formShown(element)).toBe(false);
  });
});
