/**
 * The PNG behind a QR PromptPay charge's `encodedImage.imageBase64Encoded`: the sandbox renders
 * the very payload it returns as `encodedImage.rawData`, so a banking app (or a test decoding
 * the image) reads back exactly that string.
 */
import QRCode from 'qrcode';
import type { QRCodeToBufferOptions } from 'qrcode';

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
 * Options every sandbox QR image is rendered with. Error correction 'M' (about 15% recoverable)
 * is what Thai QR payment codes commonly use: it survives a smudged screen without making the
 * symbol much denser. Use them when another sandbox image must look like the charge QR.
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
  const png = await QRCode.toBuffer(payload, QR_PNG_RENDER_OPTIONS);
  return png.toString('base64');
}
