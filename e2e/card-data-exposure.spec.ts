import type { BrowserContext, Page, Request } from '@playwright/test';
import { addScarvesUntilInstallments, CARDS, expect, expectPaid, FROM_THE_SERVER, onlyChargeFor, openShop, OTP, payButton, SANDBOX, test, typeCard } from './support.js';

/**
 * Where card data goes, seen from the browser. Every request of the shop's page (and of any page,
 * frame or worker of its context), every WebSocket frame and beacon is recorded while a shopper
 * pays; then:
 *
 *  - the card number, the expiry and the holder's name are in the one request to the service's
 *    `POST /client/v1/card-tokens` and in no other request, URL or header;
 *  - the CVC is in the one request to the shop's `POST /api/checkout/charges` (as `securityCode`)
 *    and nowhere else, not even in the token request;
 *  - no attribute of the page (shadow roots included), no property of the elements, no event they
 *    dispatch and no storage (local and session storage, cookies, IndexedDB, the Cache API) holds
 *    the number or the CVC: while the form is filled, and after the payment.
 *
 * The values are chosen so that they cannot turn up by accident: a holder name no page carries, an
 * expiry month and year nothing else writes, and a CVC looked for as a value (a JSON value, a
 * query or form field, a header), since three digits turn up in any long text.
 */

/** What the shopper types, and the forms each value could be written in. */
interface Card {
  number: string;
  /** MM/YY as typed. */
  expiry: string;
  cvc: string;
  name: string;
}

const YEAR = (new Date().getFullYear() + 3) % 100;
const EXPIRY = `07/${String(YEAR).padStart(2, '0')}`;
const HOLDER = 'Kittipong Wattanasiri';

/** Every way a card number could be written: digits, grouped by spaces or dashes, URL-encoded. */
function numberForms(number: string): string[] {
  const groups = number.length === 15 ? [number.slice(0, 4), number.slice(4, 10), number.slice(10)] : number.match(/\d{1,4}/g)!;
  return [number, groups.join(' '), groups.join('-'), groups.join('+'), groups.join('%20'), groups.join('\u00a0')];
}

function nameForms(name: string): string[] {
  return [name, name.replace(/ /g, '+'), name.replace(/ /g, '%20')].map((n) => n.toLowerCase());
}

function expiryForms(expiry: string): string[] {
  return [expiry, expiry.replace('/', '%2F'), expiry.replace('/', '%2f'), expiry.replace('/', ' / ')];
}

/** One request as it left the browser. */
interface Sent {
  kind: 'request' | 'websocket' | 'beacon';
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Every leaf value of a JSON document, with the key it sits under. */
function jsonLeaves(value: unknown, key = ''): { key: string; value: string }[] {
  if (Array.isArray(value)) return value.flatMap((v) => jsonLeaves(v, key));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [{ key: k, value: '' }, ...jsonLeaves(v, k)]);
  return [{ key, value: String(value) }];
}

/** The values a request carries as values: query fields, JSON or form fields of its body, headers. */
function fieldsOf(sent: Sent): { key: string; value: string }[] {
  const fields: { key: string; value: string }[] = [];
  try {
    for (const [key, value] of new URL(sent.url).searchParams) fields.push({ key, value });
  } catch {
    // Not a URL with a query (data:, blob:): its text is searched below all the same.
  }
  for (const [key, value] of Object.entries(sent.headers)) fields.push({ key, value });
  try {
    fields.push(...jsonLeaves(JSON.parse(sent.body)));
  } catch {
    for (const [key, value] of new URLSearchParams(sent.body)) fields.push({ key, value });
  }
  return fields;
}

/** The whole text of a request, raw and URL-decoded, lower-cased. */
function textOf(sent: Sent): string {
  const raw = [sent.url, ...Object.entries(sent.headers).map(([k, v]) => `${k}: ${v}`), sent.body].join('\n');
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    // Not valid percent-encoding: the raw text is searched.
  }
  return `${raw}\n${decoded}`.toLowerCase();
}

function carriesNumber(sent: Sent, card: Card): boolean {
  const text = textOf(sent);
  return numberForms(card.number).some((form) => text.includes(form.toLowerCase()));
}

function carriesCvc(sent: Sent, card: Card): boolean {
  return fieldsOf(sent).some((f) => f.value.trim() === card.cvc) || new RegExp(`"(securityCode|cvc|cvv|csc)"\\s*:\\s*"?${card.cvc}(?![\\w.])`, 'i').test(sent.body);
}

function carriesName(sent: Sent, card: Card): boolean {
  const text = textOf(sent);
  return nameForms(card.name).some((form) => text.includes(form));
}

function carriesExpiry(sent: Sent, card: Card): boolean {
  const text = textOf(sent);
  return expiryForms(card.expiry).some((form) => text.includes(form.toLowerCase())) || fieldsOf(sent).some((f) => /expir/i.test(f.key));
}

const describeSent = (s: Sent) => `${s.kind} ${s.method} ${s.url}`;
const isTokenRequest = (s: Sent) => s.kind === 'request' && s.method === 'POST' && s.url.startsWith(`${new URL(SANDBOX).protocol}//`) && new URL(s.url).pathname === '/client/v1/card-tokens';
const isChargeRequest = (s: Sent) => s.kind === 'request' && s.method === 'POST' && new URL(s.url).pathname === '/api/checkout/charges';

/** What the page's own code reported: events dispatched, storage written, beacons sent. */
interface PageReport {
  kind: 'event' | 'storage' | 'beacon' | 'indexeddb';
  where: string;
  text: string;
}

/** The names of the events the elements dispatch (src/elements/events.ts, qr-events.ts). */
const ELEMENT_EVENTS = ['satang-ready', 'satang-change', 'satang-submit', 'satang-action', 'satang-success', 'satang-failure', 'satang-error', 'satang-qr-renew'];

/**
 * Records everything that leaves the browser, and what the page's code does with events, storage
 * and beacons, for every page of the context from its first script on.
 */
async function capture(context: BrowserContext, page: Page): Promise<{ sent: Sent[]; reports: PageReport[]; settle: () => Promise<void> }> {
  const sent: Sent[] = [];
  const pending: Promise<void>[] = [];
  const reports: PageReport[] = [];
  const record = async (request: Request) => {
    const body = request.postDataBuffer();
    sent.push({ kind: 'request', method: request.method(), url: request.url(), headers: await request.allHeaders().catch(() => request.headers()), body: body ? body.toString('latin1') : '' });
  };
  context.on('request', (request) => void pending.push(record(request)));
  page.on('websocket', (socket) => {
    socket.on('framesent', (frame) => void sent.push({ kind: 'websocket', method: 'SEND', url: socket.url(), headers: {}, body: String(frame.payload) }));
  });
  await context.exposeBinding('__reportCardWatch', (_source, report: PageReport) => void reports.push(report));
  await context.addInitScript((names: string[]) => {
    const report = (kind: string, text: string) => (window as unknown as { __reportCardWatch: (r: unknown) => void }).__reportCardWatch({ kind, where: location.href, text });
    /** An event's own fields (the elements' events carry them as properties) and `detail`. */
    const describe = (event: Event) => {
      const fields: Record<string, unknown> = {};
      for (const key of Object.keys(event)) fields[key] = (event as unknown as Record<string, unknown>)[key];
      if ('detail' in event) fields.detail = (event as CustomEvent).detail;
      try {
        return `${event.type} ${JSON.stringify(fields)}`;
      } catch {
        // A field that cannot be serialised (a cycle, a BigInt): each field on its own then.
        return `${event.type} ${Object.entries(fields).map(([key, value]) => `${key}=${String(value)}`).join(' ')}`;
      }
    };
    // Every event dispatched by a script, whatever its name or where it is dispatched (shadow roots too)…
    // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be called with the element as `this`
    const dispatch = EventTarget.prototype.dispatchEvent;
    EventTarget.prototype.dispatchEvent = function (this: EventTarget, event: Event) {
      report('event', `dispatched ${describe(event)}`);
      return dispatch.call(this, event);
    };
    // …and the elements' events as a page listening at the window hears them.
    for (const name of names) window.addEventListener(name, (event) => report('event', `heard ${describe(event)}`), true);
    // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be called with the storage as `this`
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (this: Storage, key: string, value: string) {
      report('storage', `${this === window.sessionStorage ? 'sessionStorage' : 'localStorage'} ${key}=${value}`);
      return setItem.call(this, key, value);
    };
    const beacon = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url: string | URL, data?: BodyInit | null) => {
      // A body of any kind (a form or a blob too) as the text that would be sent.
      void new Response(data).text().then((text) => report('beacon', `${String(url)} ${text}`));
      return beacon(url, data);
    };
    // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be called with the factory as `this`
    const open = IDBFactory.prototype.open;
    IDBFactory.prototype.open = function (this: IDBFactory, name: string, version?: number) {
      report('indexeddb', `open ${name}`);
      return version === undefined ? open.call(this, name) : open.call(this, name, version);
    };
  }, ELEMENT_EVENTS);
  return {
    sent,
    reports,
    settle: async () => {
      // Requests still being read when the test asks.
      while (pending.length > 0) await Promise.all(pending.splice(0));
    },
  };
}

/** What the page holds at this moment: attributes, element properties, storage, cookies, caches. */
interface PageState {
  attributes: string[];
  properties: string[];
  storage: string[];
  location: string;
}

async function pageState(page: Page): Promise<PageState & { cookies: string[] }> {
  const state = await page.evaluate(async (): Promise<PageState> => {
    const attributes: string[] = [];
    const properties: string[] = [];
    const visit = (root: Document | ShadowRoot, path: string) => {
      for (const element of root.querySelectorAll('*')) {
        // Geometry of drawn icons and codes is numbers by nature: not where data would be reflected.
        const geometry = element instanceof SVGElement;
        for (const attribute of element.attributes) {
          if (geometry && /^(d|points|viewBox|transform|x|y|width|height)$/.test(attribute.name)) continue;
          attributes.push(`${path}${element.localName}[${attribute.name}]=${attribute.value}`);
        }
        if (element.localName.startsWith('satang-')) {
          // The elements' own fields and reactive properties, as a script on the page could read them.
          const props = (element.constructor as unknown as { elementProperties?: Map<string, unknown> }).elementProperties;
          const names = new Set([...Object.keys(element), ...(props ? props.keys() : [])].map(String));
          for (const name of names) {
            let value: unknown;
            try {
              value = (element as unknown as Record<string, unknown>)[name];
              // eslint-disable-next-line @typescript-eslint/no-base-to-string -- not an object here: a primitive or a function, whose String() is its text
              properties.push(`${element.localName}.${name}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
            } catch {
              // A property that throws or cannot be serialised holds nothing to find.
            }
          }
        }
        if (element.shadowRoot) visit(element.shadowRoot, `${path}${element.localName} >> `);
      }
    };
    visit(document, '');
    const storage: string[] = [];
    for (const [name, area] of [['localStorage', localStorage], ['sessionStorage', sessionStorage]] as const) {
      for (let i = 0; i < area.length; i += 1) storage.push(`${name} ${area.key(i)}=${area.getItem(area.key(i)!)}`);
    }
    for (const info of await indexedDB.databases()) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(info.name!);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error ?? new Error(`indexedDB.open(${info.name}) failed`));
      });
      for (const store of db.objectStoreNames) {
        const all = await new Promise<unknown[]>((resolve) => {
          const request = db.transaction(store).objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result);
        });
        storage.push(`indexedDB ${info.name}/${store} ${JSON.stringify(all)}`);
      }
      db.close();
    }
    if ('caches' in window) {
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) storage.push(`cache ${name} ${request.url} ${await (await cache.match(request))!.text()}`);
      }
    }
    return { attributes, properties, storage, location: `${location.href} ${JSON.stringify(history.state)} ${document.title}` };
  });
  const cookies = (await page.context().cookies()).map((c) => `cookie ${c.domain} ${c.name}=${c.value}`);
  return { ...state, cookies };
}

/**
 * The CVC as a whole value in a line of text (`cvc=614`, `"614"`, `: 614`), never three digits
 * inside an id: order references, charge ids and tokens are letters, digits, `_`, `-` and `.`
 * (a UUID's `…-a614b…`, a token's `…_614-…`), and an amount's `1,614.00` is no CVC either.
 */
function cvcValue(cvc: string): RegExp {
  return new RegExp(`(?<![\\w.,-])${cvc}(?![\\w.,-])`);
}

/** The lines of `lines` that hold the number, the CVC (as a whole value), the expiry or the name. */
function cardDataIn(lines: readonly string[], card: Card): string[] {
  const forms = [...numberForms(card.number), ...expiryForms(card.expiry)].map((f) => f.toLowerCase());
  const cvc = cvcValue(card.cvc);
  return lines.filter((line) => {
    const text = line.toLowerCase();
    return forms.some((f) => text.includes(f)) || nameForms(card.name).some((f) => text.includes(f)) || cvc.test(line);
  });
}

/** The page holds no card data: attributes, properties, storage, cookies, location. */
async function expectNothingHeld(page: Page, card: Card, when: string): Promise<void> {
  const state = await pageState(page);
  expect(state.attributes.length, 'the walk found the page and its shadow roots').toBeGreaterThan(50);
  expect(state.properties.some((p) => p.startsWith('satang-card-form.')), 'the card form was read').toBe(true);
  expect(cardDataIn(state.attributes, card), `attributes ${when}`).toEqual([]);
  expect(cardDataIn(state.properties, card), `element properties ${when}`).toEqual([]);
  expect(cardDataIn([...state.storage, ...state.cookies, state.location], card), `storage, cookies and location ${when}`).toEqual([]);
}

/** What the page's code reported holds no card data, and the events the elements fire were heard. */
function expectReportsClean(reports: readonly PageReport[], card: Card): void {
  const lines = reports.map((r) => `${r.kind} ${r.text}`);
  expect(lines.filter((l) => l.startsWith('event heard satang-')).length, 'the elements’ events were heard').toBeGreaterThan(2);
  expect(cardDataIn(lines, card)).toEqual([]);
  // What the checkout keeps for a reload, Back or the way back from a redirect: the charge, its method and status token only.
  for (const stored of reports.filter((r) => r.kind === 'storage' && r.text.includes(' satang'))) {
    expect(stored.text).toMatch(/^sessionStorage satang:attempt:demo-[\w-]+=\{"chargeId":"ch_\w+","statusToken":"[^"]+","method":"CARD_TOKEN(_INSTALLMENTS)?","action":"(redirect|wait)",("redirectUrl":"http[^"]+",)?"savedAt":\d+\}$/);
  }
}

/**
 * The network capture holds the card where it must be and nowhere else: one token request with
 * the number, expiry and name and no CVC, one charge request with the CVC and nothing else of the
 * card, and no other request, URL, header, frame or beacon with any of it.
 */
function expectCardDataOnlyWhereItBelongs(sent: readonly Sent[], card: Card): void {
  const tokens = sent.filter(isTokenRequest);
  const charges = sent.filter(isChargeRequest);
  expect(tokens.map(describeSent), 'one card token request').toHaveLength(1);
  expect(charges.map(describeSent), 'one charge request').toHaveLength(1);

  const token = JSON.parse(tokens[0]!.body) as Record<string, unknown>;
  expect(token).toEqual({ pan: card.number, expiryMonth: 7, expiryYear: expect.any(Number), cardHolderName: card.name });
  expect(String(token.expiryYear).slice(-2)).toBe(String(YEAR).padStart(2, '0'));
  expect(carriesCvc(tokens[0]!, card), 'the CVC is not in the token request').toBe(false);

  const charge = JSON.parse(charges[0]!.body) as { paymentMethod: Record<string, unknown> };
  expect(charge.paymentMethod.securityCode).toBe(card.cvc);
  expect(charge.paymentMethod.cardTokenId).toMatch(/^\w+/);
  for (const [what, found] of [
    ['number', carriesNumber],
    ['expiry', carriesExpiry],
    ['name', carriesName],
  ] as const) {
    expect(found(charges[0]!, card), `the ${what} is not in the charge request`).toBe(false);
  }

  const where = (test: (s: Sent, c: Card) => boolean) => sent.filter((s) => test(s, card)).map(describeSent);
  expect(where(carriesNumber), 'requests with the card number').toEqual(tokens.map(describeSent));
  expect(where(carriesExpiry), 'requests with the expiry').toEqual(tokens.map(describeSent));
  expect(where(carriesName), 'requests with the holder name').toEqual(tokens.map(describeSent));
  expect(where(carriesCvc), 'requests with the CVC').toEqual(charges.map(describeSent));
  // Nothing about the card travels in the query of any URL, the token request's included.
  for (const s of sent) {
    expect(carriesNumber({ ...s, headers: {}, body: '' }, card) || carriesCvc({ ...s, headers: {}, body: '' }, card), `URL of ${describeSent(s)}`).toBe(false);
  }
}

test('the CVC is found where it is held as a value, and never inside an id that happens to carry its digits', () => {
  const card: Card = { number: CARDS.visa, expiry: EXPIRY, cvc: '614', name: HOLDER };
  const held = ['satang-card-form.cvc=614', 'input[value]=614', 'sessionStorage x={"securityCode":"614"}', 'heard satang-change {"detail":{"cvc":614}}', 'location https://shop.example/?cvc=614&x=1'];
  expect(cardDataIn(held, card)).toEqual(held);
  const ids = [
    'location http://localhost/demo/?order=demo-3f2a614b-0614-4c61-a614-61461461461a null Shop',
    'sessionStorage satang:attempt:demo-614e0c2a-1b2c-4d3e-8f61-4a5b6c7d8e9f={"chargeId":"ch_Ab614Cd","statusToken":"eyJ.614-_614.x_614"}',
    'satang-checkout.total=฿1,614.00',
  ];
  expect(cardDataIn(ids, card)).toEqual([]);
});

test('a card paid at once: its number, expiry and name go only to the card token request, its CVC only to the shop’s charge request, and the page keeps none of it', async ({ page, context, request }) => {
  const card: Card = { number: CARDS.visa, expiry: EXPIRY, cvc: '739', name: HOLDER };
  const { sent, reports, settle } = await capture(context, page);
  const reference = await openShop(page);
  await typeCard(page, card);
  await expect(payButton(page)).toBeEnabled();
  await expectNothingHeld(page, card, 'while the form is filled');

  await payButton(page).click();
  await expectPaid(page);
  await expectNothingHeld(page, card, 'after the payment');
  await settle();
  expectCardDataOnlyWhereItBelongs(sent, card);
  expectReportsClean(reports, card);
  expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED', paymentMethod: { paymentMethodType: 'CARD' } });
});

test('a 3-D Secure card: the bank page and the way back carry no card data, and neither does the page it returns to', async ({ page, context, request }) => {
  const card: Card = { number: CARDS.threeDSecure, expiry: EXPIRY, cvc: '582', name: HOLDER };
  const { sent, reports, settle } = await capture(context, page);
  const reference = await openShop(page);
  await typeCard(page, card);
  await expectNothingHeld(page, card, 'while the form is filled');

  await payButton(page).click();
  await expect(page).toHaveURL(new RegExp(`:${new URL(SANDBOX).port}/sandbox/pages/otp/ch_\\w+$`));
  await page.getByLabel('One-time password').fill(OTP);
  await page.getByRole('button', { name: 'Verify and pay' }).click();
  await expect(page).toHaveURL(`/demo/return.html?order=${reference}`, FROM_THE_SERVER);
  await expectPaid(page);
  await expectNothingHeld(page, card, 'back from the bank page');
  await settle();
  expectCardDataOnlyWhereItBelongs(sent, card);
  // The way out and back went through the sandbox's pages.
  expect(sent.filter((s) => s.url.includes('/sandbox/pages/otp/')).length).toBeGreaterThanOrEqual(2);
  expectReportsClean(reports, card);
  expect(reports.some((r) => r.kind === 'storage' && r.text.includes('satang:attempt:')), 'the attempt was kept for the way back').toBe(true);
  expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED' });
});

test('a card paid in installments: the same, with the plan chosen', async ({ page, context, request }) => {
  const card: Card = { number: CARDS.installments, expiry: EXPIRY, cvc: '614', name: HOLDER };
  const { sent, reports, settle } = await capture(context, page);
  const reference = await openShop(page);
  const plans = await addScarvesUntilInstallments(page);
  await plans.getByRole('radio', { name: /× 3 months/ }).check();
  await typeCard(page, card);
  await expectNothingHeld(page, card, 'while the form is filled');

  await payButton(page).click();
  await expectPaid(page, '฿3,070.00');
  await expectNothingHeld(page, card, 'after the payment');
  await settle();
  expectCardDataOnlyWhereItBelongs(sent, card);
  expectReportsClean(reports, card);
  expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED', paymentMethod: { paymentMethodType: 'CARD_INSTALLMENTS' } });
});
