import jsqrModule from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';

import { buildPromptPayBillPaymentPayload, verifyEmvCrc } from '../../../src/core/emv-qr.js';
import QRCode from 'qrcode';
import { QR_MODULE_SIZE_PX, QR_PNG_RENDER_OPTIONS, renderQrPngBase64 } from '../../../src/sandbox/charges/qr-image.js';

// jsqr is CommonJS with an ES-style `default` export: under NodeNext the default import is the
// whole module, and the decoder is its `default` member.
const jsQR = jsqrModule.default;

const BILLER_ID = '010555812345601';
/** The quiet zone the QR standard requires around the symbol. */
const REQUIRED_QUIET_ZONE_MODULES = 4;

/** The PNG behind a base64 string, as RGBA pixels. */
function readPng(base64: string): PNG {
  return PNG.sync.read(Buffer.from(base64, 'base64'));
}

/** The text a QR scanner reads from the PNG, or null when it finds no code. */
function scan(png: PNG): string | null {
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

function isWhite(png: PNG, x: number, y: number): boolean {
  const i = (y * png.width + x) * 4;
  return png.data[i] === 255 && png.data[i + 1] === 255 && png.data[i + 2] === 255;
}

describe('renderQrPngBase64', () => {
  describe.each([
    [
      'the shortest bill-payment payload',
      buildPromptPayBillPaymentPayload({ billerId: BILLER_ID, reference1: 'A', amountSatang: 100 }),
    ],
    [
      'a typical bill-payment payload',
      buildPromptPayBillPaymentPayload({
        billerId: BILLER_ID,
        reference1: 'CH3FZK8QW2PLM7XN4RTB',
        amountSatang: 12_345,
        merchantName: 'Satang Coffee',
        merchantCity: 'Bangkok',
      }),
    ],
    [
      'the longest bill-payment payload',
      buildPromptPayBillPaymentPayload({
        billerId: BILLER_ID,
        reference1: 'ABCDEFGHIJKLMNOPQRST',
        reference2: '01234567890123456789',
        amountSatang: 99_999_999_999,
        merchantName: 'Satang Coffee Co., Ltd. !',
        merchantCity: 'Chiang Mai City',
      }),
    ],
  ])('when given %s', (_name, payload) => {
    it('returns plain base64 of a PNG, without a data: prefix', async () => {
      const base64 = await renderQrPngBase64(payload);
      expect(base64).toMatch(/^iVBORw0KGgo[A-Za-z0-9+/]+=*$/);
    });

    it('renders a code that scans back to exactly that payload, whose CRC verifies', async () => {
      const scanned = scan(readPng(await renderQrPngBase64(payload)));
      expect(scanned).toBe(payload);
      expect(verifyEmvCrc(scanned ?? '')).toBe(true);
    });

    it("draws the very picture qrcode's own PNG renderer draws, pixel for pixel, in a smaller file", async () => {
      const ours = await renderQrPngBase64(payload);
      const theirs = await QRCode.toBuffer(payload, QR_PNG_RENDER_OPTIONS);
      const [mine, reference] = [readPng(ours), PNG.sync.read(theirs)];
      expect([mine.width, mine.height]).toEqual([reference.width, reference.height]);
      expect(mine.data.equals(reference.data)).toBe(true);
      expect(Buffer.from(ours, 'base64').length).toBeLessThan(theirs.length);
    });

    it('renders a square image of roughly 300 px', async () => {
      const png = readPng(await renderQrPngBase64(payload));
      expect(png.width).toBe(png.height);
      expect(png.width).toBeGreaterThanOrEqual(240);
      expect(png.width).toBeLessThanOrEqual(360);
    });

    it('leaves a white quiet zone of 4 modules on every side, with the symbol right inside it', async () => {
      const png = readPng(await renderQrPngBase64(payload));
      const quietZonePx = REQUIRED_QUIET_ZONE_MODULES * QR_MODULE_SIZE_PX;
      const edge = png.width - 1;
      for (let along = 0; along < png.width; along += 1) {
        for (let depth = 0; depth < quietZonePx; depth += 1) {
          expect(isWhite(png, along, depth) && isWhite(png, along, edge - depth)).toBe(true);
          expect(isWhite(png, depth, along) && isWhite(png, edge - depth, along)).toBe(true);
        }
      }
      // The top-left finder pattern starts with a dark module at the corner of the symbol.
      expect(isWhite(png, quietZonePx, quietZonePx)).toBe(false);
    });
  });

  describe('when two payloads differ only in amount', () => {
    it('renders two different images, each scanning to its own payload', async () => {
      const oneBaht = buildPromptPayBillPaymentPayload({ billerId: BILLER_ID, reference1: 'REF1', amountSatang: 100 });
      const oneBahtOneSatang = buildPromptPayBillPaymentPayload({
        billerId: BILLER_ID,
        reference1: 'REF1',
        amountSatang: 101,
      });
      const [first, second] = await Promise.all([renderQrPngBase64(oneBaht), renderQrPngBase64(oneBahtOneSatang)]);
      expect(first).not.toBe(second);
      expect(readPng(first).data.equals(readPng(second).data)).toBe(false);
      expect(scan(readPng(first))).toBe(oneBaht);
      expect(scan(readPng(second))).toBe(oneBahtOneSatang);
    });
  });
});
