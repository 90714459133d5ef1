import jsqrModule from 'jsqr';
import { PNG } from 'pngjs';

// jsqr is CommonJS with an ES-style `default`: under NodeNext the default import is the module.
const jsQR = jsqrModule.default;

/** The text a QR scanner reads from a base64 PNG, or null when it finds no code. */
export function scanQrPngBase64(base64: string): string | null {
  const png = PNG.sync.read(Buffer.from(base64, 'base64'));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}
