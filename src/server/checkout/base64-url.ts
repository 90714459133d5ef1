import { base64Decode } from '../../core/base64.js';
import { nodeBuiltin } from '../node-builtin.js';

const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * base64url without padding (RFC 4648 §5): safe in a header, a query and a store key as it is.
 * Written out directly (a token and a request key each take two per charge), not as base64 with
 * three replacements.
 */
export function base64Url(bytes: Uint8Array): string {
  let out = '';
  const whole = bytes.length - (bytes.length % 3);
  for (let index = 0; index < whole; index += 3) {
    const group = ((bytes[index] ?? 0) << 16) | ((bytes[index + 1] ?? 0) << 8) | (bytes[index + 2] ?? 0);
    out += BASE64URL_ALPHABET.charAt(group >> 18) + BASE64URL_ALPHABET.charAt((group >> 12) & 63) + BASE64URL_ALPHABET.charAt((group >> 6) & 63) + BASE64URL_ALPHABET.charAt(group & 63);
  }
  const left = bytes.length - whole;
  if (left > 0) {
    const group = ((bytes[whole] ?? 0) << 16) | (left === 2 ? (bytes[whole + 1] ?? 0) << 8 : 0);
    out += BASE64URL_ALPHABET.charAt(group >> 18) + BASE64URL_ALPHABET.charAt((group >> 12) & 63);
    if (left === 2) out += BASE64URL_ALPHABET.charAt((group >> 6) & 63);
  }
  return out;
}

/** Strict: a base64url text with leftover bits (another spelling of the same bytes) throws. */
export function base64UrlDecode(text: string): Uint8Array<ArrayBuffer> {
  const standard = text.replace(/-/g, '+').replace(/_/g, '/');
  return base64Decode(standard + '='.repeat((4 - (standard.length % 4)) % 4));
}

interface NodeBuffer {
  Buffer: { from(text: string, encoding: 'utf8'): { toString(encoding: 'base64url'): string } };
}

const nodeBuffer = nodeBuiltin('node:buffer') as NodeBuffer | undefined;
const encoder = new TextEncoder();

/** base64url of a text's UTF-8 bytes; on Node, encoded natively. */
export function utf8Base64Url(text: string): string {
  return nodeBuffer ? nodeBuffer.Buffer.from(text, 'utf8').toString('base64url') : base64Url(encoder.encode(text));
}

/** How many bytes an unpadded base64url text holds. */
export function base64UrlByteLength(encoded: string): number {
  return Math.floor((encoded.length * 3) / 4);
}
