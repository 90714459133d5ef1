import { base64Decode, base64Encode } from '../../core/base64.js';
import { sha256 } from './hashing.js';

/** base64url without padding (RFC 4648 §5): safe in a header, a query and a store key as it is. */
export function base64Url(bytes: Uint8Array): string {
  return base64Encode(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Strict: a base64url text with leftover bits (another spelling of the same bytes) throws. */
export function base64UrlDecode(text: string): Uint8Array<ArrayBuffer> {
  const standard = text.replace(/-/g, '+').replace(/_/g, '/');
  return base64Decode(standard + '='.repeat((4 - (standard.length % 4)) % 4));
}

/** base64url SHA-256 of a string: a short, fixed-size store key for a request body. */
export async function sha256Base64Url(text: string): Promise<string> {
  return base64Url(await sha256(text));
}
