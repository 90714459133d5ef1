import jsqrModule from 'jsqr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { buildPromptPayBillPaymentPayload } from '../../../src/core/emv-qr.js';
import type { CheckoutStatusResponse } from '../../../src/core/schemas/checkout.js';
import '../../../src/elements/index.js';
import '../../../src/elements/satang-qr-payment/define.js';
import type { SatangQrPayment } from '../../../src/elements/satang-qr-payment/satang-qr-payment.js';

// jsqr is CommonJS: Vite hands over the function, while NodeNext types see the module object.
const jsQR = (typeof jsqrModule === 'function' ? jsqrModule : jsqrModule.default);

const AMOUNT_SATANG = 12_900;
const PAYLOAD = buildPromptPayBillPaymentPayload({ billerId: '010555501234501', reference1: 'CH1A2B3C4D5E', amountSatang: AMOUNT_SATANG, merchantName: 'SATANG SHOP' });

/** A real PNG, as the service's `imageBase64Encoded` would be (its content does not matter here). */
function pngBase64(): string {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 8;
  return canvas.toDataURL('image/png').slice('data:image/png;base64,'.length);
}

type Props = Partial<Pick<SatangQrPayment, 'rawData' | 'image' | 'expiry' | 'amount' | 'currency' | 'locale' | 'endpoint' | 'chargeId' | 'statusToken'>>;

async function mount(props: Props = {}): Promise<SatangQrPayment> {
  const element = document.createElement('satang-qr-payment');
  Object.assign(element, { rawData: PAYLOAD, amount: AMOUNT_SATANG, locale: 'en', ...props });
  document.body.append(element);
  await element.updateComplete;
  return element;
}

const part = (element: Element, name: string) => element.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const liveRegion = (element: Element) => element.shadowRoot!.querySelector('[role="status"]')!;

/** The WCAG contrast ratio of two computed `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (colour: string) => {
    const [r = 0, g = 0, bl = 0] = (colour.match(/[\d.]+/g) ?? []).map(Number).map((c) => {
      const v = c / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

async function drawn(element: SatangQrPayment): Promise<SVGSVGElement> {
  const found = await vi.waitFor(() => {
    const svg = part(element, 'qr')?.querySelector('svg');
    if (!svg) throw new Error('no SVG yet');
    return svg;
  });
  await element.updateComplete;
  return found;
}

/** What a phone's scanner reads from the SVG: rasterized as an image, then decoded. */
async function scan(svg: SVGSVGElement): Promise<string | null> {
  const sizePx = 480;
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('width', String(sizePx));
  copy.setAttribute('height', String(sizePx));
  const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(copy)], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = sizePx;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0, sizePx, sizePx);
    return jsQR(context.getImageData(0, 0, sizePx, sizePx).data, sizePx, sizePx)?.data ?? null;
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The dark cells a path of `M{x} {y}h{run}v1h-{run}z` runs covers, as "x,y". */
function cellsOf(d: string): Set<string> {
  const cells = new Set<string>();
  for (const [, x, y, run] of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let i = 0; i < Number(run); i += 1) cells.add(`${Number(x) + i},${y}`);
  }
  return cells;
}

function next<K extends keyof GlobalEventHandlersEventMap>(target: EventTarget, type: K): Promise<GlobalEventHandlersEventMap[K]> {
  return new Promise((resolve) => target.addEventListener(type, resolve as EventListener, { once: true }));
}

/** A scripted stand-in for the proxy's status endpoint; with no reply left it holds the request like a long-poll. */
function statusEndpoint(chargeId: string, replies: (CheckoutStatusResponse['status'] | 'FAILED:CH_PROCESSING_FAILED' | number | 'network')[]) {
  const calls: { url: string; signal: AbortSignal }[] = [];
  const answer = (status: number, body: unknown) => ({ ok: status < 300, status, json: () => Promise.resolve(body) }) as Response;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init: RequestInit = {}) => {
    const signal = init.signal!;
    calls.push({ url: input instanceof Request ? input.url : input.toString(), signal });
    const reply = replies.shift();
    if (reply === undefined) {
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    }
    if (reply === 'network') return Promise.reject(new TypeError('Failed to fetch'));
    if (typeof reply === 'number') {
      const errorCode = reply === 403 ? 'INVALID_STATUS_TOKEN' : 'UPSTREAM_UNAVAILABLE';
      return Promise.resolve(answer(reply, { code: errorCode, message: 'no', error: { errorCode, errorMessage: 'no', retryable: reply >= 500 } }));
    }
    const [status, failureCode = null] = reply.split(':');
    // A success is answered with what it did for its order, as the shop's server always does.
    return Promise.resolve(answer(200, { chargeId, status, failureCode, ...(status === 'SUCCEEDED' ? { outcome: 'paid' } : {}) }));
  });
  return calls;
}

const POLLING = { endpoint: '/api/checkout', chargeId: 'ch_qr_1', statusToken: 'st_secret_token' };

afterEach(() => {
  document.body.replaceChildren();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('<satang-qr-payment>', () => {
  // First in the file: once any test has drawn a code, the library is in this page for good.
  describe('before a QR code is needed', () => {
    it('does not fetch the QR library, and fetches it once raw-data arrives', async () => {
      const qrLibraryRequests = () => performance.getEntriesByType('resource').filter((entry) => /\/deps\/qr\.js|\/qr\/index\.js/.test(entry.name));
      const element = await mount({ rawData: '', image: pngBase64() });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(qrLibraryRequests()).toEqual([]);
      expect(part(element, 'qr')!.querySelector('img')).not.toBeNull();

      element.rawData = PAYLOAD;
      await drawn(element);
      expect(qrLibraryRequests().length).toBeGreaterThan(0);
      // The SVG replaces the PNG.
      expect(part(element, 'qr')!.querySelector('img')).toBeNull();
    });
  });

  describe('with raw-data', () => {
    it('draws an SVG that scans to exactly the payload', async () => {
      const element = await mount();
      const svg = await drawn(element);
      expect(await scan(svg)).toBe(PAYLOAD);
    });

    it('draws the modules of the payload as one path, inside a 4-module quiet zone', async () => {
      const element = await mount();
      const svg = await drawn(element);
      // The same symbol encoded without its quiet zone (the smallest border the library takes is one module).
      const { default: encodeQR } = await import('qr');
      const symbol = encodeQR(PAYLOAD, 'raw', { ecc: 'medium', border: 1 })
        .slice(1, -1)
        .map((row) => row.slice(1, -1));
      const size = symbol.length;
      expect(svg.getAttribute('viewBox')).toBe(`0 0 ${size + 8} ${size + 8}`);
      const paths = svg.querySelectorAll('path');
      expect(paths).toHaveLength(1);
      const expected = new Set<string>();
      for (let y = 0; y < size; y += 1) for (let x = 0; x < size; x += 1) if (symbol[y]![x]) expected.add(`${x + 4},${y + 4}`);
      expect(cellsOf(paths[0]!.getAttribute('d')!)).toEqual(expected);
    });

    it('labels the code for screen readers and keeps it black on white in dark and forced colours', async () => {
      const element = await mount();
      element.setAttribute('theme', 'dark');
      const svg = await drawn(element);
      expect(svg.getAttribute('role')).toBe('img');
      expect(svg.getAttribute('aria-label')).toBe('PromptPay QR code for ฿129.00');
      expect(getComputedStyle(part(element, 'qr')!).backgroundColor).toBe('rgb(255, 255, 255)');
      expect(getComputedStyle(svg).forcedColorAdjust).toBe('none');
    });

    it('shows the amount, the instructions and that it is waiting for the payment', async () => {
      const element = await mount();
      expect(part(element, 'amount')!.textContent).toBe('฿129.00');
      expect(part(element, 'instructions')!.textContent).toBe('Open your banking app, scan this code and confirm ฿129.00.');
      expect(part(element, 'status')!.textContent).toBe('Waiting for your payment…');
      expect(element.state).toBe('loading');
      await drawn(element);
      expect(element.state).toBe('showing');
    });

    it('speaks Thai with locale="th"', async () => {
      const element = await mount({ locale: 'th', expiry: new Date(Date.now() + 90_000).toISOString() });
      expect(part(element, 'instructions')!.textContent).toBe('เปิดแอปธนาคาร สแกนคิวอาร์โค้ดนี้ และยืนยันยอด ฿129.00');
      expect(part(element, 'countdown')!.textContent).toMatch(/^หมดอายุใน 01:(29|30)$/);
    });

    it('falls back to the PNG when the payload cannot be drawn as a QR code', async () => {
      const image = pngBase64();
      const element = await mount({ rawData: 'X'.repeat(5000), image });
      await import('qr');
      await new Promise((resolve) => setTimeout(resolve, 50));
      await element.updateComplete;
      expect(part(element, 'qr')!.querySelector('img')?.getAttribute('src')).toBe(`data:image/png;base64,${image}`);
      expect(element.state).toBe('showing');
    });

    it('says so when the payload cannot be drawn and there is no PNG', async () => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const element = await mount({ rawData: 'X'.repeat(5000) });
      await vi.waitFor(() => expect(element.state).toBe('invalid'));
      await element.updateComplete;
      expect(part(element, 'error')!.textContent).toContain('the QR code could not be drawn');
      expect(logged).toHaveBeenCalledWith(expect.stringContaining('could not be drawn'));
    });
  });

  describe('with an image', () => {
    it('offers to save it for paying from the same phone', async () => {
      const image = pngBase64();
      const element = await mount({ image });
      const save = part(element, 'save') as HTMLAnchorElement;
      expect(save.getAttribute('download')).toBe('promptpay-qr.png');
      expect(save.getAttribute('href')).toBe(`data:image/png;base64,${image}`);
      expect(save.textContent).toBe('Save QR image');
    });

    it('offers no save link without one', async () => {
      const element = await mount();
      expect(part(element, 'save')).toBeNull();
    });
  });

  describe('the picture "Save QR image" saves', () => {
    /** The element's own drawing of the code as a PNG, as the service's `imageBase64Encoded` is. */
    async function codePng(): Promise<string> {
      const svg = await drawn(await mount());
      const copy = svg.cloneNode(true) as SVGSVGElement;
      copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
      copy.setAttribute('width', '300');
      copy.setAttribute('height', '300');
      const image = new Image();
      image.src = `data:image/svg+xml,${encodeURIComponent(new XMLSerializer().serializeToString(copy))}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 300;
      canvas.getContext('2d')!.drawImage(image, 0, 0);
      document.body.replaceChildren();
      return canvas.toDataURL('image/png').slice('data:image/png;base64,'.length);
    }

    /** The saved picture, once labelled: its pixels. */
    async function saved(element: SatangQrPayment, plain: string): Promise<ImageData> {
      const link = await vi.waitUntil(() => {
        const a = part(element, 'save') as HTMLAnchorElement | null;
        return a && a.href !== `data:image/png;base64,${plain}` ? a : undefined;
      }, { timeout: 5000 });
      expect(link.download).toBe('promptpay-qr.png');
      const image = new Image();
      image.src = link.href;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      return context.getImageData(0, 0, canvas.width, canvas.height);
    }

    it('is labelled: the PromptPay mark on its band, the shop, the amount and until when, over a code that still scans', async () => {
      const png = await codePng();
      const element = await mount({ image: png, expiry: new Date(Date.now() + 600_000).toISOString() });
      const picture = await saved(element, png);
      expect(picture.width).toBe(600);
      // The band of the mark: PromptPay blue, with the white of its name across it.
      const at = (x: number, y: number) => [...picture.data.slice((y * picture.width + x) * 4, (y * picture.width + x) * 4 + 3)];
      expect(at(5, 5)).toEqual([0x1b, 0x3f, 0x77]);
      const bandRow = Array.from({ length: picture.width }, (_, x) => at(x, 40));
      expect(bandRow.some(([r, g, b]) => r! > 200 && g! > 200 && b! > 200)).toBe(true);
      // Three lines of words under it (shop, amount, expiry): dark pixels in each line's band.
      const inkIn = (from: number, to: number) => {
        for (let y = from; y < to; y += 1) for (let x = 0; x < picture.width; x += 1) if (at(x, y)[0]! < 100) return true;
        return false;
      };
      expect([inkIn(96, 130), inkIn(150, 182), inkIn(205, 235)]).toEqual([true, true, true]);
      // And the code, as a phone's scanner reads the saved picture.
      expect(jsQR(picture.data, picture.width, picture.height)?.data).toBe(PAYLOAD);
    });

    it('speaks the shopper’s language: the Thai picture is not the English one', async () => {
      const png = await codePng();
      const expiry = new Date(Date.now() + 600_000).toISOString();
      const english = await saved(await mount({ image: png, expiry }), png);
      document.body.replaceChildren();
      const thai = await saved(await mount({ image: png, expiry, locale: 'th' }), png);
      expect(thai.data.length).toBe(english.data.length);
      expect(thai.data.some((value, i) => value !== english.data[i])).toBe(true);
    });
  });

  describe('with an expiry', () => {
    it('counts down every second but announces the time left only at a few moments', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const element = await mount({ expiry: new Date(Date.now() + 65_000).toISOString() });
      const countdown = part(element, 'countdown')!;
      expect(countdown.getAttribute('role')).toBe('timer');
      expect(countdown.textContent).toBe('Expires in 01:05');
      await vi.advanceTimersByTimeAsync(1000);
      await element.updateComplete;
      expect(countdown.textContent).toBe('Expires in 01:04');

      const announced = [liveRegion(element).textContent];
      for (let second = 0; second < 64; second += 1) {
        await vi.advanceTimersByTimeAsync(1000);
        await element.updateComplete;
        if (announced.at(-1) !== liveRegion(element).textContent) announced.push(liveRegion(element).textContent);
      }
      expect(announced).toEqual(['', '1 minute left to pay with this QR code.', 'Expires in 00:30', 'Expires in 00:10', 'This QR code has expired.']);
    });

    it('stands out in its last minute: larger, bolder, in the error colour, said once', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const element = await mount({ expiry: new Date(Date.now() + 62_000).toISOString() });
      const countdown = () => part(element, 'countdown')!;
      const before = getComputedStyle(countdown());
      const size = Number.parseFloat(before.fontSize);
      expect(countdown().classList).not.toContain('urgent');
      await vi.advanceTimersByTimeAsync(2000);
      await element.updateComplete;

      expect(countdown().textContent).toBe('Expires in 01:00');
      expect(countdown().classList).toContain('urgent');
      const after = getComputedStyle(countdown());
      expect(Number.parseFloat(after.fontSize)).toBeGreaterThanOrEqual(size * 1.2);
      expect(Number(after.fontWeight)).toBeGreaterThanOrEqual(700);
      // The light theme's error colour, #b3261e.
      expect(after.color).toBe('rgb(179, 38, 30)');
      expect(liveRegion(element).textContent).toBe('1 minute left to pay with this QR code.');
      // Not again every second.
      await vi.advanceTimersByTimeAsync(5000);
      await element.updateComplete;
      expect(countdown().textContent).toBe('Expires in 00:55');
      expect(liveRegion(element).textContent).toBe('1 minute left to pay with this QR code.');
    });

    for (const theme of ['light', 'dark']) {
      it(`keeps its last minute readable in the ${theme} theme: contrast at least 4.5:1`, async () => {
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
        const element = await mount({ expiry: new Date(Date.now() + 30_000).toISOString() });
        element.setAttribute('theme', theme);
        await element.updateComplete;
        const text = getComputedStyle(part(element, 'countdown')!).color;
        const surface = getComputedStyle(element.shadowRoot!.querySelector('.container')!).backgroundColor;
        expect(contrast(text, surface), `${text} on ${surface}`).toBeGreaterThanOrEqual(4.5);
      });
    }

    it('says the last minute in Thai', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const element = await mount({ locale: 'th', expiry: new Date(Date.now() + 61_000).toISOString() });
      await vi.advanceTimersByTimeAsync(1000);
      await element.updateComplete;
      expect(liveRegion(element).textContent).toBe('เหลือเวลาชำระด้วยคิวอาร์โค้ดนี้อีก 1 นาที');
    });

    it('dims the code once expired and asks for a new one with satang-qr-renew', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const element = await mount({ expiry: new Date(Date.now() + 3_000).toISOString(), chargeId: 'ch_qr_1', image: pngBase64() });
      expect(element.state).not.toBe('expired');
      await vi.advanceTimersByTimeAsync(3000);
      await element.updateComplete;

      expect(element.state).toBe('expired');
      const qr = part(element, 'qr')!;
      expect(qr.classList).toContain('expired');
      expect(qr.getAttribute('aria-hidden')).toBe('true');
      for (const animation of qr.getAnimations()) animation.finish();
      expect(Number(getComputedStyle(qr).opacity)).toBeLessThan(0.5);
      expect(part(element, 'expired')!.textContent).toBe('This QR code has expired.');
      expect(part(element, 'countdown')).toBeNull();
      expect(part(element, 'save')).toBeNull();
      // Nothing ticks once it has expired.
      expect(vi.getTimerCount()).toBe(0);

      vi.useRealTimers();
      const renew = next(document, 'satang-qr-renew');
      await userEvent.click(part(element, 'renew-button')!);
      const event = await renew;
      expect(event.chargeId).toBe('ch_qr_1');
      expect(event.bubbles && event.composed).toBe(true);
    });

    it('counts again from a new expiry set after renewal', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const element = await mount({ expiry: new Date(Date.now() - 1000).toISOString() });
      expect(element.state).toBe('expired');
      element.expiry = new Date(Date.now() + 600_000).toISOString();
      await element.updateComplete;
      expect(element.state).not.toBe('expired');
      expect(part(element, 'countdown')!.textContent).toBe('Expires in 10:00');
    });
  });

  describe('following the charge', () => {
    it('keeps the status token out of attributes', async () => {
      statusEndpoint('ch_qr_1', []);
      const element = await mount(POLLING);
      expect(element.getAttributeNames().some((name) => element.getAttribute(name)?.includes(POLLING.statusToken))).toBe(false);
      expect(element.shadowRoot!.innerHTML).not.toContain(POLLING.statusToken);
    });

    it('fires satang-success after PENDING answers, and shows the payment as done', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const calls = statusEndpoint('ch_qr_1', ['PENDING', 'PENDING', 'SUCCEEDED']);
      const heard: string[] = [];
      document.addEventListener('satang-success', (e) => heard.push(e.chargeId), { once: true });
      const element = await mount(POLLING);
      await vi.advanceTimersByTimeAsync(5000);
      await element.updateComplete;

      expect(calls.map((c) => new URL(c.url, location.href).pathname)).toEqual(Array(3).fill('/api/checkout/charges/ch_qr_1/status'));
      expect(heard).toEqual(['ch_qr_1']);
      expect(element.state).toBe('paid');
      expect(part(element, 'result')!.textContent).toContain('Payment successful');
      expect(part(element, 'result')!.textContent).toContain('฿129.00');
      expect(liveRegion(element).textContent).toBe('Payment successful');
    });

    it('fires satang-failure with the failure code, and shows why', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      statusEndpoint('ch_qr_1', ['PENDING', 'FAILED:CH_PROCESSING_FAILED']);
      const failed = next(document, 'satang-failure');
      const element = await mount(POLLING);
      await vi.advanceTimersByTimeAsync(2000);
      const event = await failed;
      await element.updateComplete;
      expect([event.chargeId, event.failureCode]).toEqual(['ch_qr_1', 'CH_PROCESSING_FAILED']);
      expect(element.state).toBe('failed');
      expect(part(element, 'result')!.textContent).toContain('The payment could not be processed.');
    });

    it('keeps the code on screen while the status cannot be read, and recovers', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      vi.spyOn(Math, 'random').mockReturnValue(0);
      statusEndpoint('ch_qr_1', ['network', 503, 'network', 'PENDING']);
      const element = await mount(POLLING);
      await drawn(element);
      await vi.advanceTimersByTimeAsync(1600);
      await element.updateComplete;
      expect(element.state).toBe('showing');
      expect(part(element, 'qr')!.querySelector('svg')).not.toBeNull();
      expect(part(element, 'status')!.textContent).toContain('We cannot check your payment right now');

      await vi.advanceTimersByTimeAsync(2000);
      await element.updateComplete;
      expect(part(element, 'status')!.textContent).toBe('Waiting for your payment…');
    });

    it('says so and fires satang-error when the status token is refused, keeping the code', async () => {
      statusEndpoint('ch_qr_1', [403]);
      const error = next(document, 'satang-error');
      const element = await mount(POLLING);
      expect((await error).code).toBe('INVALID_STATUS_TOKEN');
      await element.updateComplete;
      expect(element.state).not.toBe('invalid');
      expect(part(element, 'qr')).not.toBeNull();
      expect(part(element, 'status')!.textContent).toContain('We cannot confirm your payment on this page');
    });

    it('follows the new charge when charge-id changes after an outcome', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const calls = statusEndpoint('ch_qr_1', ['FAILED:CH_PROCESSING_FAILED']);
      const element = await mount(POLLING);
      await vi.advanceTimersByTimeAsync(0);
      await element.updateComplete;
      expect(element.state).toBe('failed');

      Object.assign(element, { chargeId: 'ch_qr_2', statusToken: 'st_second', rawData: PAYLOAD.replace('CH1A2B3C4D5E', 'CH2') });
      await element.updateComplete;
      expect(element.state).not.toBe('failed');
      expect(calls.at(-1)!.url).toContain('/charges/ch_qr_2/status');
    });

    it('leaves no timer and no request behind once removed', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
      const calls = statusEndpoint('ch_qr_1', ['network']);
      const element = await mount({ ...POLLING, expiry: new Date(Date.now() + 600_000).toISOString() });
      await vi.advanceTimersByTimeAsync(1500);
      expect(calls).toHaveLength(2);
      expect(vi.getTimerCount()).toBeGreaterThan(0);

      element.remove();
      expect(calls[1]!.signal.aborted).toBe(true);
      expect(vi.getTimerCount()).toBe(0);
      await vi.advanceTimersByTimeAsync(120_000);
      expect(calls).toHaveLength(2);
    });
  });

  describe('when attributes are missing or wrong', () => {
    it.each([
      ['neither raw-data nor image', { rawData: '' }, 'raw-data'],
      ['an amount that is not whole satang', { amount: 129.5 }, 'amount'],
      ['no amount', { amount: undefined }, 'amount'],
      ['an expiry that is not a time', { expiry: 'tomorrow' }, 'expiry'],
      ['an image that is not base64', { image: '<svg onload=alert(1)>' }, 'image'],
      ['an unknown currency', { currency: 'baht' }, 'currency'],
    ] as const)('with %s it says what to fix, logs it and fires satang-error', async (_, props, named) => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const error = next(document, 'satang-error');
      const element = await mount(props);
      expect(element.state).toBe('invalid');
      const box = part(element, 'error')!;
      expect(box.getAttribute('role')).toBe('alert');
      expect(box.textContent).toContain('This checkout is not set up correctly');
      expect(box.textContent).toContain(named);
      expect(logged).toHaveBeenCalledWith(expect.stringContaining(named));
      expect((await error).code).toBe('CONFIG');
      expect(part(element, 'qr')).toBeNull();
    });
  });
});

describe('<satang-qr-payment> when its order was paid another way', () => {
  it('stops following, says the order is paid and this code is not to be paid, and fires satang-failure with the outcome paid_elsewhere', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init: RequestInit = {}) => {
      asked.push(input instanceof Request ? input.url : input.toString());
      if (asked.length > 1) return new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
      const body = { chargeId: POLLING.chargeId, status: 'PENDING', failureCode: null, order: 'paid' };
      return Promise.resolve({ ok: true, status: 200, json: () => Promise.resolve(body) } as Response);
    });
    const element = document.createElement('satang-qr-payment');
    const failure = next(element, 'satang-failure');
    Object.assign(element, { rawData: PAYLOAD, amount: AMOUNT_SATANG, locale: 'en', expiry: new Date(Date.now() + 600_000).toISOString(), ...POLLING });
    document.body.append(element);

    const event = await failure;
    expect([event.failureCode, event.outcome]).toEqual(['paid_elsewhere', 'paid_elsewhere']);
    await element.updateComplete;
    expect(element.state).toBe('failed');
    const result = part(element, 'result')!;
    expect(result.textContent).toContain('Your order is paid');
    expect(result.textContent).toContain('This order has been paid another way: do not pay this QR code.');
    expect(part(element, 'qr')).toBeNull();
    // Nothing more is asked: the code is no longer followed.
    expect(asked).toHaveLength(1);
  });
});
