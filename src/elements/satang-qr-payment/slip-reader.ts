/**
 * Reads the QR code on a picture of a bank transfer slip, in the browser: with the platform's
 * `BarcodeDetector` where it reads QR codes, else with the `qr` library's decoder, fetched as its
 * own chunk only when a shopper picks a slip. The picture never leaves the page; only the code's text does.
 */

/** Longest side, in pixels, of the first attempt: a screenshot is read as it is, a phone photo scaled down to this. */
export const SLIP_READ_MAX_SIDE_PX = 2048;
/** Longest sides of the smaller copies tried when a larger one gave nothing (noise and blur shrink away). */
export const SLIP_READ_RETRY_SIDES_PX = [1200, 800, 500] as const;

interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(image: ImageBitmapSource): Promise<DetectedBarcode[]>;
}
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats(): Promise<string[]>;
}

/**
 * The text of the QR code in the picture, or `undefined` when the file is not a picture the
 * browser can open or no QR code can be read in it. Never throws.
 */
export async function readSlipQr(file: Blob): Promise<string | undefined> {
  let image: ImageBitmap;
  try {
    image = await createImageBitmap(file);
  } catch {
    return undefined;
  }
  try {
    const native = await detectNatively(image);
    return native === null ? await detectWithDecoder(image) : native;
  } catch {
    return undefined;
  } finally {
    image.close();
  }
}

/** The platform's reading: its text, `undefined` when it found none, `null` when it cannot read QR codes. */
async function detectNatively(image: ImageBitmap): Promise<string | undefined | null> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (!Detector) return null;
  try {
    if (!(await Detector.getSupportedFormats()).includes('qr_code')) return null;
    const codes = await new Detector({ formats: ['qr_code'] }).detect(image);
    return codes.find((code) => code.rawValue)?.rawValue;
  } catch {
    // A detector that exists but fails (no barcode service on this device): the library reads instead.
    return null;
  }
}

async function detectWithDecoder(image: ImageBitmap): Promise<string | undefined> {
  const { default: decodeQR } = await import('qr/decode.js');
  const longest = Math.max(image.width, image.height);
  const first = Math.min(longest, SLIP_READ_MAX_SIDE_PX);
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return undefined;
  for (const side of [first, ...SLIP_READ_RETRY_SIDES_PX.filter((s) => s < first)]) {
    const scale = side / longest;
    const width = (canvas.width = Math.max(1, Math.round(image.width * scale)));
    const height = (canvas.height = Math.max(1, Math.round(image.height * scale)));
    // Transparent pixels would read as black: the slip is laid on white, as on paper.
    context.fillStyle = '#fff';
    context.fillRect(0, 0, width, height);
    context.imageSmoothingQuality = 'high';
    context.drawImage(image, 0, 0, width, height);
    const code = readQr(decodeQR, context.getImageData(0, 0, width, height));
    if (code) return code;
    // Each attempt takes a moment on a phone: let the page paint and answer in between.
    await new Promise((resolve) => setTimeout(resolve));
  }
  return undefined;
}

/** The text of the QR code in `image`, or undefined when the decoder finds none (it throws then). */
function readQr(decodeQR: (image: { width: number; height: number; data: Uint8ClampedArray }) => string, image: ImageData): string | undefined {
  try {
    return decodeQR(image) || undefined;
  } catch {
    return undefined;
  }
}
