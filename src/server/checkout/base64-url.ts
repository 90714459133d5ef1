import { base64Encode } from '../../core/base64.js';
import { sha256 } from './hashing.js';

/** base64url without padding (RFC 4648 §5): safe in a header, a query and a store key as it is. */
export function base64Url(bytes: Uint8Array): string {
  return base64Encode(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url SHA-256 of a string: a short, fixed-size store key for a request body. */
export async function sha256Base64Url(text: string): Promise<string> {
  return base64Url(await sha256(text));
}
