/**
 * The PNG behind a QR PromptPay charge's `encodedImage.imageBase64Encoded`: the sandbox renders
 * the very payload it returns as `encodedImage.rawData`, so a banking app (or a test decoding
 * the image) reads back exactly that string.
 *
 * The symbol's modules come from `qrcode`; the PNG is written here, one bit per pixel (black or
 * white, as a QR code is), with the platform's deflate. `qrcode`'s own PNG output draws every
 * pixel as RGBA in JavaScript and deflates that: about 11 ms of CPU per charge, which made the
 * sandbox's QR charges its dearest request. This way takes about 2 ms (most of it `qrcode`'s
 * symbol and the deflate), and the PNG is a fifth of the size for the same picture.
 */
import QRCode from 'qrcode';
import type { QRCodeToBufferOptions } from 'qrcode';
import { base64Encode } from '../../core/base64.js';
import { encodePng } from '../images/png.js';

/** Width of the blank border around the symbol; 4 modules is the minimum the QR standard requires. */
export const QR_QUIET_ZONE_MODULES = 4;

/**
 * Pixels per module. A bill-payment payload (about 90 to 190 characters, typically 130) needs a
 * version 4 to 8 symbol, 33 to 49 modules wide, so with the quiet zone the image is 246 to 342 px,
 * typically 294: large enough to scan from a screen, and every module a whole number of pixels so
 * edges stay sharp.
 */
export const QR_MODULE_SIZE_PX = 6;

/**
 * Options every sandbox QR image is rendered with, in `qrcode`'s terms (its own renderer draws the
 * same picture with them). Error correction 'M' (about 15% recoverable) is what Thai QR payment
 * codes commonly use: it survives a smudged screen without making the symbol much denser. Use them
 * when another sandbox image must look like the charge QR.
 */
export const QR_PNG_RENDER_OPTIONS = {
  type: 'png',
  errorCorrectionLevel: 'M',
  margin: QR_QUIET_ZONE_MODULES,
  scale: QR_MODULE_SIZE_PX,
  color: { dark: '#000000ff', light: '#ffffffff' },
} as const satisfies QRCodeToBufferOptions;

/**
 * The PNG of `payload` as plain base64 (no `data:` prefix), the form the service puts in
 * `encodedImage.imageBase64Encoded`. Use it when the sandbox answers a QR PromptPay charge.
 */
export async function renderQrPngBase64(payload: string): Promise<string> {
  const { modules } = QRCode.create(payload, { errorCorrectionLevel: QR_PNG_RENDER_OPTIONS.errorCorrectionLevel });
  const scale = QR_PNG_RENDER_OPTIONS.scale;
  const quiet = QR_PNG_RENDER_OPTIONS.margin;
  const sizePx = (modules.size + 2 * quiet) * scale;
  // Greyscale at one bit per pixel: a set bit is white. Each scanline starts with its filter byte (0).
  const stride = 1 + Math.ceil(sizePx / 8);
  const scanlines = new Uint8Array(sizePx * stride);
  const row = new Uint8Array(stride);
  for (let moduleRow = -quiet; moduleRow < modules.size + quiet; moduleRow += 1) {
    row.fill(0xff);
    row[0] = 0;
    if (moduleRow >= 0 && moduleRow < modules.size) {
      for (let col = 0; col < modules.size; col += 1) {
        if (!modules.get(moduleRow, col)) continue;
        const left = (col + quiet) * scale;
        for (let x = left; x < left + scale; x += 1) {
          const byte = 1 + (x >> 3);
          row[byte] = (row[byte] ?? 0) & ~(0x80 >> (x & 7));
        }
      }
    }
    // The module's row of pixels, `scale` times.
    const top = (moduleRow + quiet) * scale;
    for (let y = top; y < top + scale; y += 1) scanlines.set(row, y * stride);
  }
  return base64Encode(await encodePng({ width: sizePx, height: sizePx, bitDepth: 1, colorType: 0 }, scanlines));
}
