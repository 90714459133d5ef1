/**
 * The picture of a bank transfer slip the sandbox hands to a payer: a PNG with the bank's header,
 * the amount, the payee, the references and the slip's verification QR code, as a banking app
 * shows after a transfer. Drawn here pixel by pixel (a 5x7 bitmap font and the QR modules from
 * `qrcode`) so no image or font library is needed.
 *
 * The PNG also carries the slip's QR text in a `tEXt` chunk ({@link SLIP_PNG_TEXT_KEYWORD}). A
 * real service scans the QR code of an uploaded slip; the sandbox has no QR decoder at run time,
 * so it reads that chunk instead ({@link readSlipTextFromPng}). A slip PNG the sandbox issued
 * therefore verifies when uploaded as it was downloaded; other pictures cannot be read.
 */
import QRCode from 'qrcode';
import { formatAmount } from '../../core/money.js';
import { QR_PNG_RENDER_OPTIONS } from '../charges/qr-image.js';
import { crc32, encodePng, latin1, PNG_SIGNATURE } from '../images/png.js';

/** `tEXt` keyword under which a slip PNG carries its QR text. */
export const SLIP_PNG_TEXT_KEYWORD = 'satang-slip-qr';

/** Width of a slip image. */
export const SLIP_IMAGE_WIDTH_PX = 400;

/** What the slip shows besides its QR code. Text is drawn in capitals; other characters become "?". */
export interface SlipImageContent {
  /** The verification QR text, drawn as the QR code and kept in the PNG's `tEXt` chunk. */
  qrText: string;
  amountSatang: number;
  /** When the transfer was made, shown in Bangkok time. */
  paidAt: Date;
  payeeName: string;
  /** Reference 1 of the PromptPay bill payment the transfer paid. */
  reference: string;
  transactionRef: string;
}

/** Palette of the slip: index 0 is the background. */
const PALETTE = [
  [0xff, 0xff, 0xff], // background
  [0x00, 0x00, 0x00], // QR modules and main text: pure black, for scanners
  [0x0a, 0x58, 0xb0], // bank colour, as the hosted pages' primary
  [0x0b, 0x6b, 0x3a], // success
  [0x4a, 0x55, 0x63], // muted labels
  [0xd5, 0xdb, 0xe3], // rules
] as const;
const WHITE = 0;
const BLACK = 1;
const BRAND = 2;
const SUCCESS = 3;
const MUTED = 4;
const RULE = 5;

/**
 * A 5x7 font: seven rows per glyph, each two hex digits whose low five bits are the pixels,
 * the leftmost pixel in bit 4.
 */
const FONT: Readonly<Record<string, string>> = {
  '0': '0e11131519110e', '1': '040c040404040e', '2': '0e11010204081f', '3': '1f02040201110e',
  '4': '02060a121f0202', '5': '1f101e0101110e', '6': '0608101e11110e', '7': '1f010204080808',
  '8': '0e11110e11110e', '9': '0e11110f01020c',
  A: '0e1111111f1111', B: '1e11111e11111e', C: '0e11101010110e', D: '1c12111111121c',
  E: '1f10101e10101f', F: '1f10101e101010', G: '0e11101711110f', H: '1111111f111111',
  I: '0e04040404040e', J: '0702020202120c', K: '11121418141211', L: '1010101010101f',
  M: '111b1515111111', N: '11111915131111', O: '0e11111111110e', P: '1e11111e101010',
  Q: '0e11111115120d', R: '1e11111e141211', S: '0f10100e01011e', T: '1f040404040404',
  U: '1111111111110e', V: '11111111110a04', W: '1111111515150a', X: '11110a040a1111',
  Y: '1111110a040404', Z: '1f01020408101f',
  ' ': '00000000000000', '.': '00000000000c0c', ',': '000000000c0408', ':': '000c0c000c0c00',
  '-': '0000001f000000', '/': '00010204081000', '#': '0a0a1f0a1f0a0a', '(': '02040808080402',
  ')': '08040202020408', '+': '0004041f040400', '?': '0e110102040004', '&': '0c12140815120d',
  "'": '0c040800000000', '*': '0004150e150400', '_': '0000000000001f', '@': '0e11010d15150e',
  '!': '04040404040004',
};

/** What a character the font lacks is drawn as. */
const UNKNOWN_GLYPH = FONT['?'] ?? '';
const GLYPH_WIDTH = 5;
const GLYPH_HEIGHT = 7;
/** One blank column between glyphs. */
const GLYPH_ADVANCE = GLYPH_WIDTH + 1;

const MARGIN_PX = 20;
const QR_MODULE_PX = QR_PNG_RENDER_OPTIONS.scale;
const QR_QUIET_ZONE = QR_PNG_RENDER_OPTIONS.margin;

/** An indexed-colour canvas. */
class Raster {
  readonly pixels: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = new Uint8Array(width * height);
  }

  fill(x: number, y: number, w: number, h: number, color: number): void {
    const x0 = Math.max(0, x);
    const x1 = Math.min(this.width, x + w);
    for (let row = Math.max(0, y); row < Math.min(this.height, y + h); row += 1) {
      this.pixels.fill(color, row * this.width + x0, row * this.width + Math.max(x0, x1));
    }
  }

  /** Draws `text` from its top-left corner; what does not fit before `maxWidth` is cut. */
  text(text: string, x: number, y: number, scale: number, color: number, maxWidth = this.width - x - MARGIN_PX): void {
    let cursor = x;
    for (const char of text.toUpperCase()) {
      if (cursor + GLYPH_WIDTH * scale > x + maxWidth) break;
      const glyph = FONT[char] ?? UNKNOWN_GLYPH;
      for (let row = 0; row < GLYPH_HEIGHT; row += 1) {
        const bits = Number.parseInt(glyph.slice(row * 2, row * 2 + 2), 16);
        for (let col = 0; col < GLYPH_WIDTH; col += 1) {
          if (bits & (1 << (GLYPH_WIDTH - 1 - col))) this.fill(cursor + col * scale, y + row * scale, scale, scale, color);
        }
      }
      cursor += GLYPH_ADVANCE * scale;
    }
  }

  centredText(text: string, y: number, scale: number, color: number): void {
    const width = textWidth(text, scale);
    this.text(text, Math.max(MARGIN_PX, Math.floor((this.width - width) / 2)), y, scale, color);
  }
}

function textWidth(text: string, scale: number): number {
  return Math.max(0, Array.from(text).length * GLYPH_ADVANCE - 1) * scale;
}

const BANGKOK_TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Asia/Bangkok',
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});


/** The slip as PNG bytes; see the module comment for what it shows and carries. */
export async function renderSlipPng(content: SlipImageContent): Promise<Uint8Array> {
  const qr = QRCode.create(content.qrText, { errorCorrectionLevel: QR_PNG_RENDER_OPTIONS.errorCorrectionLevel });
  const qrPx = (qr.modules.size + 2 * QR_QUIET_ZONE) * QR_MODULE_PX;
  const qrTop = 366;
  const height = qrTop + qrPx + 80;
  const canvas = new Raster(SLIP_IMAGE_WIDTH_PX, height);

  canvas.fill(0, 0, canvas.width, 56, BRAND);
  canvas.text('SANDBOX BANK', MARGIN_PX, 18, 3, WHITE);
  canvas.text('TRANSFER SUCCESSFUL', MARGIN_PX, 76, 2, SUCCESS);
  canvas.text(`${BANGKOK_TIME.format(content.paidAt)} BKK`, MARGIN_PX, 100, 2, MUTED);
  canvas.fill(MARGIN_PX, 128, canvas.width - 2 * MARGIN_PX, 2, RULE);
  const rows: [string, string, number][] = [
    ['AMOUNT', formatAmount(content.amountSatang, 'THB', undefined, { currencyDisplay: 'code' }), 3],
    ['TO', content.payeeName, 2],
    ['REF 1', content.reference, 2],
    ['TRANSACTION REF', content.transactionRef, 2],
  ];
  let y = 144;
  for (const [label, value, scale] of rows) {
    canvas.text(label, MARGIN_PX, y, 2, MUTED);
    canvas.text(value, MARGIN_PX, y + 22, scale, BLACK);
    y += 22 + GLYPH_HEIGHT * scale + 14;
  }
  canvas.fill(MARGIN_PX, qrTop - 14, canvas.width - 2 * MARGIN_PX, 2, RULE);

  const qrLeft = Math.floor((canvas.width - qrPx) / 2);
  const offset = QR_QUIET_ZONE * QR_MODULE_PX;
  for (let row = 0; row < qr.modules.size; row += 1) {
    for (let col = 0; col < qr.modules.size; col += 1) {
      if (qr.modules.get(row, col)) {
        canvas.fill(qrLeft + offset + col * QR_MODULE_PX, qrTop + offset + row * QR_MODULE_PX, QR_MODULE_PX, QR_MODULE_PX, BLACK);
      }
    }
  }
  canvas.centredText('SCAN TO VERIFY THIS SLIP', qrTop + qrPx + 8, 2, MUTED);
  canvas.centredText('SANDBOX - NO MONEY MOVED', qrTop + qrPx + 40, 2, BRAND);
  return encodeIndexedPng(canvas, [[SLIP_PNG_TEXT_KEYWORD, content.qrText]]);
}

/**
 * The slip QR text a PNG carries in its `tEXt` chunk, or undefined when `bytes` is not a
 * well-formed PNG or has no such chunk. Never throws.
 */
export function readSlipTextFromPng(bytes: Uint8Array): string | undefined {
  if (bytes.length < PNG_SIGNATURE.length || PNG_SIGNATURE.some((byte, index) => bytes[index] !== byte)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = PNG_SIGNATURE.length;
  while (offset + 12 <= bytes.length) {
    const length = view.getUint32(offset);
    const end = offset + 8 + length + 4;
    if (end > bytes.length) return undefined;
    const typeAndData = bytes.subarray(offset + 4, offset + 8 + length);
    if (crc32(typeAndData) !== view.getUint32(offset + 8 + length)) return undefined;
    const type = latin1(typeAndData.subarray(0, 4));
    if (type === 'IEND') return undefined;
    if (type === 'tEXt') {
      const data = typeAndData.subarray(4);
      const separator = data.indexOf(0);
      if (separator > 0 && latin1(data.subarray(0, separator)) === SLIP_PNG_TEXT_KEYWORD) return latin1(data.subarray(separator + 1));
    }
    offset = end;
  }
  return undefined;
}

/** An 8-bit indexed PNG of `raster` in {@link PALETTE}, with `tEXt` chunks (Latin-1 text). */
function encodeIndexedPng(raster: Raster, texts: readonly (readonly [string, string])[]): Promise<Uint8Array> {
  // Each scanline is preceded by its filter type; 0 (none) compresses well enough for flat colours.
  const scanlines = new Uint8Array(raster.height * (raster.width + 1));
  for (let row = 0; row < raster.height; row += 1) {
    scanlines.set(raster.pixels.subarray(row * raster.width, (row + 1) * raster.width), row * (raster.width + 1) + 1);
  }
  return encodePng({ width: raster.width, height: raster.height, bitDepth: 8, colorType: 3 }, scanlines, { palette: Uint8Array.from(PALETTE.flat()), texts });
}
