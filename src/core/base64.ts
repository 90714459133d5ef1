/**
 * Standard base64 (RFC 4648 §4, with padding) that runs the same in Node and in browsers, without
 * Buffer. Decoding is strict because it guards keys and signatures: text that a lenient decoder
 * would quietly repair is a sign of a mangled value and is refused instead.
 */

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const DECODE_TABLE: readonly number[] = (() => {
  const table = new Array<number>(128).fill(-1);
  for (let index = 0; index < BASE64_ALPHABET.length; index++) table[BASE64_ALPHABET.charCodeAt(index)] = index;
  return table;
})();

/**
 * Encodes bytes as padded standard base64, e.g. to print an HMAC as the signature header carries
 * it. Use it instead of Buffer or btoa so code shared with the browser needs neither.
 */
export function base64Encode(bytes: Uint8Array): string {
  let out = '';
  for (let index = 0; index < bytes.length; index += 3) {
    const byte0 = bytes[index] ?? 0;
    const byte1 = bytes[index + 1];
    const byte2 = bytes[index + 2];
    const group = (byte0 << 16) | ((byte1 ?? 0) << 8) | (byte2 ?? 0);
    out += BASE64_ALPHABET.charAt((group >> 18) & 63);
    out += BASE64_ALPHABET.charAt((group >> 12) & 63);
    out += byte1 === undefined ? '=' : BASE64_ALPHABET.charAt((group >> 6) & 63);
    out += byte2 === undefined ? '=' : BASE64_ALPHABET.charAt(group & 63);
  }
  return out;
}

/**
 * Decodes padded standard base64, e.g. a webhook key or a received signature. Throws a
 * SyntaxError for anything that is not canonical base64: characters outside the alphabet
 * (whitespace and the URL-safe `-`/`_` included), missing or misplaced `=` padding, and non-zero
 * bits left over before the padding. The empty string decodes to no bytes.
 */
export function base64Decode(text: string): Uint8Array<ArrayBuffer> {
  if (text.length % 4 !== 0) {
    throw new SyntaxError('base64 text must be padded with "=" to a multiple of 4 characters');
  }
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - padding);
  let written = 0;
  for (let index = 0; index < text.length; index += 4) {
    const isLastGroup = index + 4 === text.length;
    const sextet0 = sextetAt(text, index);
    const sextet1 = sextetAt(text, index + 1);
    const sextet2 = isLastGroup && padding === 2 ? 0 : sextetAt(text, index + 2);
    const sextet3 = isLastGroup && padding >= 1 ? 0 : sextetAt(text, index + 3);
    // Bits below the last encoded byte must be zero; otherwise several texts decode to the same
    // bytes, which a signature check should not accept.
    if (isLastGroup && padding === 2 && (sextet1 & 0x0f) !== 0) throw nonCanonical();
    if (isLastGroup && padding === 1 && (sextet2 & 0x03) !== 0) throw nonCanonical();
    const group = (sextet0 << 18) | (sextet1 << 12) | (sextet2 << 6) | sextet3;
    out[written++] = (group >> 16) & 0xff;
    if (written < out.length) out[written++] = (group >> 8) & 0xff;
    if (written < out.length) out[written++] = group & 0xff;
  }
  return out;
}

function sextetAt(text: string, index: number): number {
  const code = text.charCodeAt(index);
  const value = code < 128 ? (DECODE_TABLE[code] ?? -1) : -1;
  if (value < 0) {
    throw new SyntaxError(`base64 text has an invalid character ${JSON.stringify(text[index])} at position ${index}`);
  }
  return value;
}

function nonCanonical(): SyntaxError {
  return new SyntaxError('base64 text is not canonical: the bits before the "=" padding must be zero');
}
