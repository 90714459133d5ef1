import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import type { CheckoutChargeResponse } from '../../../src/core/schemas/checkout.js';
import '../../../src/elements/index.js';
import '../../../src/elements/satang-qr-payment/define.js';
import type { SatangQrPayment } from '../../../src/elements/satang-qr-payment/satang-qr-payment.js';
import { SANDBOX_DEFAULTS } from '../../../src/sandbox/defaults.js';
import { pageOrderToken } from '../../support/page-tokens.js';

/**
 * `<satang-qr-payment>`'s bank transfer slip upload, against the real shop server and sandbox of
 * the browser tests (test/browser/backend.ts): the slips are the sandbox payer's real slip PNGs.
 */

/** The sandbox API key, used here only to get the payer's slip and read back the charge. */
const API = { authorization: `Basic ${btoa(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.apiKey}`)}` };
const AMOUNT_SATANG = 12_900;
const ENDPOINT = '/api/checkout';

/** The address a fetch was called with. */
const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : input.toString());
/** An object's own properties as a plain object: what JSON of it shows. */
const own = (value: object) => Object.fromEntries(Object.entries(value));

type QrCharge = CheckoutChargeResponse & { encodedImage: NonNullable<CheckoutChargeResponse['encodedImage']> };

/** A PromptPay QR charge, made through the shop's server as the checkout makes it. */
async function qrCharge(): Promise<QrCharge> {
  const orderReference = `order-${AMOUNT_SATANG}-${crypto.randomUUID()}`;
  const answer = await fetch(`${ENDPOINT}/charges`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': crypto.randomUUID(), 'X-Satang-Order-Token': await pageOrderToken(orderReference) },
    body: JSON.stringify({ orderReference, paymentMethod: { type: 'QR_PROMPT_PAY' }, amount: AMOUNT_SATANG, currency: 'THB' }),
  });
  expect(answer.status).toBe(201);
  return (await answer.json()) as QrCharge;
}

/** The slip the sandbox's payer got for transferring the charge's amount: `png` (the picture) or `raw` (its QR text). */
async function slipOf(chargeId: string, format: 'png' | 'raw'): Promise<Response> {
  const answer = await fetch(`/sandbox/v1/charges/${chargeId}/slip?format=${format}`, { headers: API });
  expect(answer.status).toBe(200);
  return answer;
}
const slipPicture = async (chargeId: string) => new File([await (await slipOf(chargeId, 'png')).blob()], 'slip.png', { type: 'image/png' });
const slipText = async (chargeId: string) => (await slipOf(chargeId, 'raw')).text();

async function serviceStatus(chargeId: string): Promise<string> {
  return ((await (await fetch(`/api/v1/charges/${chargeId}`, { headers: API })).json()) as { status: string }).status;
}

async function mount(charge: QrCharge, props: Partial<SatangQrPayment> = {}): Promise<SatangQrPayment> {
  const element = document.createElement('satang-qr-payment');
  Object.assign(element, {
    rawData: charge.encodedImage.rawData,
    image: charge.encodedImage.imageBase64Encoded,
    expiry: charge.encodedImage.expiry,
    amount: AMOUNT_SATANG,
    locale: 'en',
    endpoint: ENDPOINT,
    chargeId: charge.chargeId,
    statusToken: charge.statusToken,
    ...props,
  });
  document.body.append(element);
  await element.updateComplete;
  return element;
}

const part = (element: Element, name: string) => element.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const slipInput = (element: Element) => element.shadowRoot!.querySelector<HTMLInputElement>('[part="slip-button"] input[type="file"]');
const liveRegion = (element: Element) => element.shadowRoot!.querySelector('[role="status"]')!;

/** Every text the live region takes, in order. */
function announcements(element: Element): string[] {
  const heard: string[] = [];
  const region = liveRegion(element);
  new MutationObserver(() => {
    const text = region.textContent;
    if (text && heard.at(-1) !== text) heard.push(text);
  }).observe(region, { childList: true, subtree: true, characterData: true });
  return heard;
}

/** The requests the page sends, passed on unchanged. */
function watchRequests(): { url: string; method: string; body: unknown }[] {
  const sent: { url: string; method: string; body: unknown }[] = [];
  const real = window.fetch.bind(window);
  vi.spyOn(window, 'fetch').mockImplementation((input, init) => {
    sent.push({ url: new URL(urlOf(input), location.href).pathname, method: init?.method ?? 'GET', body: init?.body });
    return real(input, init);
  });
  return sent;
}

/** A picture with shapes and words but no QR code, as a PNG. */
async function pictureWithoutQr(): Promise<File> {
  const canvas = document.createElement('canvas');
  canvas.width = 640;
  canvas.height = 480;
  const context = canvas.getContext('2d')!;
  context.fillStyle = '#f4f1ea';
  context.fillRect(0, 0, 640, 480);
  context.fillStyle = '#1b1c1f';
  context.font = '32px sans-serif';
  context.fillText('Transfer successful', 40, 80);
  context.fillText('฿129.00', 40, 140);
  for (let i = 0; i < 12; i += 1) context.fillRect(40 + i * 40, 200 + (i % 3) * 30, 24, 120);
  const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
  return new File([blob], 'photo.png', { type: 'image/png' });
}

/**
 * The slip enlarged to 1600 pixels with single-pixel grain on 4% of it (the same grain each run), as
 * PNG: a decoder that finds no code at that size gets smaller copies, where the grain averages out.
 */
async function grainy(slip: File): Promise<File> {
  const image = await createImageBitmap(slip);
  const canvas = document.createElement('canvas');
  canvas.width = 1600;
  canvas.height = Math.round((image.height / image.width) * 1600);
  const context = canvas.getContext('2d')!;
  context.imageSmoothingEnabled = false;
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x7fffffff;
  for (let i = 0; i < pixels.data.length; i += 4) {
    if (random() < 0.04) pixels.data[i] = pixels.data[i + 1] = pixels.data[i + 2] = random() < 0.5 ? 0 : 255;
  }
  context.putImageData(pixels, 0, 0);
  const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
  return new File([blob], 'grainy-slip.png', { type: 'image/png' });
}

function next<K extends keyof GlobalEventHandlersEventMap>(target: EventTarget, type: K): Promise<GlobalEventHandlersEventMap[K]> {
  return new Promise((resolve) => target.addEventListener(type, resolve as EventListener, { once: true }));
}

const readerRequests = () => performance.getEntriesByType('resource').filter((entry) => /qr_decode|\/qr\/decode\.js/.test(entry.name));

afterEach(() => {
  document.body.replaceChildren();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('<satang-qr-payment> with a bank transfer slip', () => {
  // First in the file: once a slip has been read with the QR reader, the library is in this page for good.
  describe('where the browser has a native QR reader', () => {
    it('reads the slip with BarcodeDetector and never fetches the QR reader', async () => {
      const charge = await qrCharge();
      const raw = await slipText(charge.chargeId);
      const asked: { formats: string[] }[] = [];
      vi.stubGlobal(
        'BarcodeDetector',
        class {
          static getSupportedFormats = () => Promise.resolve(['ean_13', 'qr_code']);
          constructor(options: { formats: string[] }) {
            asked.push(options);
          }
          detect = (image: ImageBitmap) => Promise.resolve(image.width > 0 ? [{ rawValue: raw, format: 'qr_code' }] : []);
        },
      );
      const element = await mount(charge);
      const paid = next(element, 'satang-success');

      await userEvent.upload(slipInput(element)!, await slipPicture(charge.chargeId));

      // With what it did for its order, as the shop's server says it: a checkout reads only that as paid.
      expect(await paid).toMatchObject({ chargeId: charge.chargeId, outcome: 'paid' });
      expect(asked).toEqual([{ formats: ['qr_code'] }]);
      expect(readerRequests()).toEqual([]);
      expect(await serviceStatus(charge.chargeId)).toBe('SUCCEEDED');
    });
  });

  describe('without a native QR reader', () => {
    it('fetches the QR reader only once a slip is chosen, reads it, and the payment succeeds', async () => {
      vi.stubGlobal('BarcodeDetector', undefined);
      const charge = await qrCharge();
      const element = await mount(charge);
      const heard = announcements(element);
      const sent = watchRequests();
      let successes = 0;
      document.addEventListener('satang-success', () => (successes += 1));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(readerRequests()).toEqual([]);

      const paid = next(element, 'satang-success');
      await userEvent.upload(slipInput(element)!, await slipPicture(charge.chargeId));
      await paid;
      await element.updateComplete;

      expect(readerRequests().length).toBeGreaterThan(0);
      expect(element.state).toBe('paid');
      expect(part(element, 'result')!.textContent).toContain('Payment successful');
      expect(heard).toEqual(['Reading the slip…', 'Checking the slip…', 'Payment successful']);
      // Only the code's text went to the shop's server.
      const raw = await slipText(charge.chargeId);
      const slipPosts = sent.filter((request) => request.url.startsWith(ENDPOINT) && request.url.endsWith('/slip'));
      expect(slipPosts).toEqual([{ url: `${ENDPOINT}/charges/${charge.chargeId}/slip`, method: 'POST', body: JSON.stringify({ raw }) }]);
      expect(await serviceStatus(charge.chargeId)).toBe('SUCCEEDED');
      // The status long-poll hears the same success: it is reported once.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(successes).toBe(1);
    });

    it('keeps the slip text out of attributes, the DOM, events and storage', async () => {
      const charge = await qrCharge();
      const raw = await slipText(charge.chargeId);
      const element = await mount(charge);
      const events: string[] = [];
      for (const type of ['satang-success', 'satang-failure', 'satang-error'] as const) {
        document.addEventListener(type, (event) => events.push(JSON.stringify(own(event))));
      }
      const paid = next(element, 'satang-success');
      await userEvent.upload(slipInput(element)!, await slipPicture(charge.chargeId));
      await paid;
      await element.updateComplete;

      const attributes = element.getAttributeNames().map((name) => element.getAttribute(name)).join(' ');
      const storage = JSON.stringify(own(sessionStorage)) + JSON.stringify(own(localStorage));
      const properties = Object.values(element)
        .filter((value) => typeof value === 'string')
        .join(' ');
      for (const text of [attributes, element.shadowRoot!.innerHTML, storage, properties, events.join(' ')]) expect(text).not.toContain(raw);
      expect(events).toHaveLength(1);
      expect(JSON.parse(events[0]!)).toMatchObject({ chargeId: charge.chargeId });
    });

    it('reads a large JPEG photo of the slip', async () => {
      vi.stubGlobal('BarcodeDetector', undefined);
      const charge = await qrCharge();
      const slip = await createImageBitmap(await slipPicture(charge.chargeId));
      const canvas = document.createElement('canvas');
      canvas.width = 3000;
      canvas.height = Math.round((slip.height / slip.width) * 3000);
      canvas.getContext('2d')!.drawImage(slip, 0, 0, canvas.width, canvas.height);
      const photo = new File([await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/jpeg', 0.85))], 'IMG_0042.jpg', { type: 'image/jpeg' });
      const element = await mount(charge);
      const paid = next(element, 'satang-success');

      await userEvent.upload(slipInput(element)!, photo);

      expect((await paid).chargeId).toBe(charge.chargeId);
    });

    it('reads a grainy photo of the slip, on a smaller copy should the full size give nothing', async () => {
      vi.stubGlobal('BarcodeDetector', undefined);
      const charge = await qrCharge();
      const photo = await grainy(await slipPicture(charge.chargeId));
      const element = await mount(charge);
      const paid = next(element, 'satang-success');

      await userEvent.upload(slipInput(element)!, photo);

      expect((await paid).chargeId).toBe(charge.chargeId);
    });

    it('says no QR code was found in a picture without one, sends nothing, and lets the shopper try again', async () => {
      vi.stubGlobal('BarcodeDetector', undefined);
      const charge = await qrCharge();
      const element = await mount(charge);
      const heard = announcements(element);
      const sent = watchRequests();

      await userEvent.upload(slipInput(element)!, await pictureWithoutQr());
      await vi.waitFor(() => expect(part(element, 'slip-status')?.textContent).toBe('No QR code found in this picture. Try a sharper photo of the slip.'), { timeout: 10_000 });

      expect(heard).toEqual(['Reading the slip…', 'No QR code found in this picture. Try a sharper photo of the slip.']);
      expect(sent.filter((request) => request.url.startsWith(ENDPOINT) && request.url.endsWith('/slip'))).toEqual([]);
      expect(slipInput(element)!.disabled).toBe(false);
      expect(element.state).toBe('showing');
      expect(part(element, 'qr')).not.toBeNull();

      // A second, sharper picture: the real slip.
      const paid = next(element, 'satang-success');
      await userEvent.upload(slipInput(element)!, await slipPicture(charge.chargeId));
      await paid;
    });

    it('says the same of a file that is no picture', async () => {
      const charge = await qrCharge();
      const element = await mount(charge);
      await userEvent.upload(slipInput(element)!, new File(['not a picture'], 'slip.txt', { type: 'text/plain' }));
      await vi.waitFor(() => expect(part(element, 'slip-status')?.textContent).toContain('No QR code found in this picture.'));
    });
  });

  describe('with a slip that is not for this payment', () => {
    it('says the slip of another payment does not match, and this payment stays open', async () => {
      const mine = await qrCharge();
      const theirs = await qrCharge();
      const element = await mount(mine);
      const heard = announcements(element);

      await userEvent.upload(slipInput(element)!, await slipPicture(theirs.chargeId));

      await vi.waitFor(() => expect(part(element, 'slip-status')?.textContent).toBe('This slip does not match this payment.'), { timeout: 10_000 });
      expect(heard.at(-1)).toBe('This slip does not match this payment.');
      expect(part(element, 'slip-status')!.classList).toContain('error');
      expect(element.state).toBe('showing');
      expect(await serviceStatus(mine.chargeId)).toBe('PENDING');
    });

    it('says a QR code that is no slip (the payment QR itself) does not match', async () => {
      const charge = await qrCharge();
      const element = await mount(charge);
      const bytes = Uint8Array.from(atob(charge.encodedImage.imageBase64Encoded), (c) => c.charCodeAt(0));

      await userEvent.upload(slipInput(element)!, new File([bytes], 'promptpay-qr.png', { type: 'image/png' }));

      await vi.waitFor(() => expect(part(element, 'slip-status')?.textContent).toBe('This slip does not match this payment.'), { timeout: 10_000 });
      expect(await serviceStatus(charge.chargeId)).toBe('PENDING');
    });
  });

  describe('when the shop cannot check the slip', () => {
    it('asks to try again later, and keeps the code and the picker', async () => {
      const charge = await qrCharge();
      const real = window.fetch.bind(window);
      vi.spyOn(window, 'fetch').mockImplementation((input, init) =>
        urlOf(input).endsWith('/slip')
          ? Promise.resolve(new Response(JSON.stringify({ code: 503, message: 'down', error: { errorCode: 'UPSTREAM_UNAVAILABLE', errorMessage: 'down', retryable: true } }), { status: 503 }))
          : real(input, init),
      );
      const element = await mount(charge);

      await userEvent.upload(slipInput(element)!, await slipPicture(charge.chargeId));

      await vi.waitFor(() => expect(part(element, 'slip-status')?.textContent).toBe('We cannot check the slip right now. Please try again.'), { timeout: 10_000 });
      expect(slipInput(element)!.disabled).toBe(false);
      expect(element.state).toBe('showing');
    });
  });

  describe('the picker', () => {
    for (const [locale, ask] of [
      ['en', 'Paid but the page hasn’t updated?'],
      ['th', 'ชำระแล้วแต่หน้านี้ยังไม่อัปเดต?'],
    ] as const) {
      it(`(${locale}) is quiet beside a new code: behind "${ask}", shown once the shopper asks`, async () => {
        const element = await mount(await qrCharge(), { locale });
        const disclosure = element.shadowRoot!.querySelector('details')!;
        const summary = disclosure.querySelector('summary')!;
        expect(summary.textContent.trim()).toBe(ask);
        expect(disclosure.open).toBe(false);
        // Not drawn, not reachable by Tab, until asked for.
        expect(slipInput(element)!.checkVisibility()).toBe(false);
        expect(part(element, 'slip-button')!.checkVisibility()).toBe(false);
        await userEvent.click(summary);
        expect(disclosure.open).toBe(true);
        expect(part(element, 'slip-button')!.checkVisibility()).toBe(true);
      });
    }

    it('is a labelled file input for pictures, from the gallery or the camera', async () => {
      const element = await mount(await qrCharge());
      await userEvent.click(element.shadowRoot!.querySelector('summary')!);
      const input = slipInput(element)!;
      expect(input.accept).toBe('image/*');
      // No `capture`: the phone offers its camera and its saved screenshots alike.
      expect(input.hasAttribute('capture')).toBe(false);
      expect(input.labels?.[0]?.textContent.trim()).toBe('Paid by bank transfer? Upload the slip');
      expect(input.getAttribute('aria-describedby')).toBeNull();
      input.focus();
      expect(element.shadowRoot!.activeElement).toBe(input);
    });

    it('is busy while the slip is read and checked, described by what is happening', async () => {
      const charge = await qrCharge();
      let release: () => void = () => undefined;
      const real = window.fetch.bind(window);
      vi.spyOn(window, 'fetch').mockImplementation(async (input, init) => {
        if (urlOf(input).endsWith('/slip')) await new Promise<void>((resolve) => (release = resolve));
        return real(input, init);
      });
      const element = await mount(charge);

      await userEvent.upload(slipInput(element)!, await slipPicture(charge.chargeId));

      await vi.waitFor(() => expect(part(element, 'slip-status')?.textContent).toBe('Checking the slip…'), { timeout: 10_000 });
      const input = slipInput(element)!;
      expect(input.disabled).toBe(true);
      // Open while it is under way, whatever the shopper did with the disclosure.
      expect(element.shadowRoot!.querySelector('details')!.open).toBe(true);
      expect(input.getAttribute('aria-describedby')).toBe('slip-status');
      expect(element.shadowRoot!.getElementById('slip-status')).toBe(part(element, 'slip-status'));
      const paid = next(element, 'satang-success');
      release();
      await paid;
    });

    it('speaks Thai with locale="th"', async () => {
      const element = await mount(await qrCharge(), { locale: 'th' });
      expect(slipInput(element)!.labels?.[0]?.textContent.trim()).toBe('โอนเงินผ่านธนาคารแล้ว? อัป\u2060โหลดสลิป');
      await userEvent.upload(slipInput(element)!, await pictureWithoutQr());
      await vi.waitFor(() => expect(part(element, 'slip-status')?.textContent).toBe('ไม่พบคิวอาร์โค้ดในรูปนี้ ลองถ่ายรูปสลิปให้คมชัดขึ้น'), { timeout: 10_000 });
    });

    it('stays offered once the code has expired', async () => {
      const charge = await qrCharge();
      const element = await mount(charge, { expiry: new Date(Date.now() - 1000).toISOString() });
      expect(element.state).toBe('expired');
      expect(part(element, 'renew-button')).not.toBeNull();
      expect(slipInput(element)).not.toBeNull();
    });

    it('is not offered when the element does not follow the charge through the shop', async () => {
      const charge = await qrCharge();
      const element = await mount(charge, { statusToken: '' });
      expect(part(element, 'slip-button')).toBeNull();
    });
  });
});
