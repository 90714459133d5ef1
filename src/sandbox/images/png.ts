/**
 * The few parts of PNG the sandbox writes and reads: its signature, chunks with their CRC-32, and
 * the zlib stream of the image data, deflated by the platform's `CompressionStream`. No image
 * library: the sandbox draws only black-and-white codes and flat colours (the charge's QR code,
 * a transfer slip), whose pixels it sets itself.
 */

export const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** The PNG header: how the pixels of each scanline are laid out. */
export interface PngHeader {
  width: number;
  height: number;
  /** Bits per sample (or per palette index): 1 for black and white, 8 for a palette of up to 256 colours. */
  bitDepth: 1 | 8;
  /** 0: greyscale (with bit depth 1, a set bit is white); 3: indexed colour, with `palette`. */
  colorType: 0 | 3;
}

/**
 * The PNG of `scanlines`: every row of the image, each preceded by its filter type byte (0, none:
 * flat colours deflate well enough without one). `palette`: the colours of an indexed image, as
 * RGB; `texts`: `tEXt` chunks (Latin-1 keyword and text), before the image data.
 */
export async function encodePng(header: PngHeader, scanlines: Uint8Array, extras: { palette?: Uint8Array; texts?: readonly (readonly [string, string])[] } = {}): Promise<Uint8Array> {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, header.width);
  view.setUint32(4, header.height);
  ihdr.set([header.bitDepth, header.colorType, 0, 0, 0], 8); // deflate, adaptive filtering, no interlace
  return concat([
    PNG_SIGNATURE,
    chunk('IHDR', ihdr),
    ...(extras.palette ? [chunk('PLTE', extras.palette)] : []),
    ...(extras.texts ?? []).map(([keyword, text]) => chunk('tEXt', fromLatin1(`${keyword}\u0000${text}`))),
    chunk('IDAT', await zlibDeflate(scanlines)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(fromLatin1(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** zlib-wrapped deflate, as PNG's IDAT wants, with the platform's CompressionStream. */
async function zlibDeflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const CRC32_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (ISO-HDLC), the checksum of every PNG chunk. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC32_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** The bytes of Latin-1 text (a chunk's type, a `tEXt` keyword and text); a character past U+00FF keeps its low byte. */
export function fromLatin1(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0) & 0xff);
}

/** Bytes read as Latin-1 text: a chunk's type, a `tEXt` chunk's keyword and text. */
export function latin1(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += String.fromCharCode(byte);
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
