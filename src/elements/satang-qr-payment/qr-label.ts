/**
 * The QR image the shopper saves ("Save QR image"): the service's PNG of the code, labelled so that
 * it still says what it is once it sits among the phone's photos, opened later from a banking app:
 * the PromptPay mark, the shop (the name the code itself carries, which the banking app shows
 * too), the amount, and until when it can be paid. Drawn in the browser on a canvas; nothing leaves
 * the page.
 */
import { EMV_TAGS, readEmvField } from '../../core/emv-qr.js';

/** What the label says, in the shopper's language. */
export interface QrLabel {
  /** "PromptPay": the mark at the top. */
  readonly mark: string;
  /** The amount, as shown on the page ("฿1,780.00"). */
  readonly amount: string;
  /** "Pay by 29 Nov, 14:32", or nothing without an expiry. */
  readonly expiry: string | undefined;
}

/** The PromptPay blue, and the sizes of the picture (px). */
const MARK_COLOUR = '#1b3f77';
const WIDTH = 600;
const CODE = 440;
const FONT = 'system-ui, "Noto Sans Thai", "Sukhumvit Set", Tahoma, sans-serif';

/** The shop's name as the code's payload carries it (EMV tag 59), if it does. */
export function shopOf(rawData: string): string | undefined {
  try {
    const name = readEmvField(rawData, EMV_TAGS.merchantName)?.trim();
    // An empty name is no name.
    if (!name) return undefined;
    return name;
  } catch {
    return undefined;
  }
}

/**
 * The labelled picture as a PNG data URL, or undefined where it cannot be drawn (no canvas, a PNG
 * that does not decode): the bare PNG is saved then.
 */
export async function labelledQr(png: string, shop: string | undefined, label: QrLabel): Promise<string | undefined> {
  try {
    const code = new Image();
    code.src = `data:image/png;base64,${png}`;
    await code.decode();
    const lines = [shop, label.amount, label.expiry].filter(Boolean).length;
    const top = 96 + lines * 52;
    const canvas = document.createElement('canvas');
    canvas.width = WIDTH;
    canvas.height = top + CODE + 48;
    const context = canvas.getContext('2d');
    if (!context) return undefined;
    context.fillStyle = '#fff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    // The mark: the method's name, white on its blue band.
    context.fillStyle = MARK_COLOUR;
    context.fillRect(0, 0, WIDTH, 72);
    context.textAlign = 'center';
    context.fillStyle = '#fff';
    context.font = `bold 36px ${FONT}`;
    context.fillText(label.mark, WIDTH / 2, 50);
    context.fillStyle = '#111';
    let y = 72;
    const line = (text: string | undefined, font: string) => {
      if (!text) return;
      y += 52;
      context.font = `${font} ${FONT}`;
      context.fillText(text, WIDTH / 2, y, WIDTH - 48);
    };
    line(shop, '28px');
    line(label.amount, 'bold 40px');
    line(label.expiry, '24px');
    // The code itself, unsmoothed: its modules stay sharp for the scanner.
    context.imageSmoothingEnabled = false;
    context.drawImage(code, (WIDTH - CODE) / 2, top, CODE, CODE);
    return canvas.toDataURL('image/png');
  } catch {
    return undefined;
  }
}
