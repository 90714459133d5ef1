/**
 * SHA-256 and HMAC-SHA256 of texts for the handler's hot path. On Node, `node:crypto` computes them
 * in the calling turn from the text itself, with no WebCrypto promise job or key import per call;
 * elsewhere (edge runtimes, Deno, Bun without it) WebCrypto does. The module is reached through
 * `process.getBuiltinModule`, never imported, so the handler stays free of `node:` imports and runs
 * where Fetch does.
 */

import { nodeBuiltin } from '../node-builtin.js';
import { base64Url } from './base64-url.js';

interface NodeHash {
  update(data: string, encoding: 'utf8'): NodeHash;
  digest(): Uint8Array;
  digest(encoding: 'base64url'): string;
}

interface NodeCrypto {
  createHash(algorithm: 'sha256'): NodeHash;
  createHmac(algorithm: 'sha256', key: Uint8Array): NodeHash;
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}

const nodeCrypto = nodeBuiltin('node:crypto') as NodeCrypto | undefined;

const encoder = new TextEncoder();

/**
 * base64url SHA-256 of a string's UTF-8 bytes: a short, fixed-size store key for a request body.
 * On Node the text goes to the hash as it is (encoded natively) and comes back encoded natively.
 */
export async function sha256Base64Url(text: string): Promise<string> {
  if (nodeCrypto) return nodeCrypto.createHash('sha256').update(text, 'utf8').digest('base64url');
  return base64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))));
}

/**
 * An HMAC-SHA256 key over texts (their UTF-8 bytes): signs, as base64url, and verifies in
 * constant time.
 */
export class HmacSha256 {
  readonly #secret: Uint8Array;
  #webKey: Promise<CryptoKey> | undefined;

  constructor(secret: string) {
    this.#secret = encoder.encode(secret);
  }

  /** The MAC of `text`, base64url without padding. */
  async sign(text: string): Promise<string> {
    if (nodeCrypto) return nodeCrypto.createHmac('sha256', this.#secret).update(text, 'utf8').digest('base64url');
    return base64Url(new Uint8Array(await crypto.subtle.sign('HMAC', await this.#key(), encoder.encode(text))));
  }

  async verify(mac: Uint8Array, text: string): Promise<boolean> {
    if (nodeCrypto) {
      const expected = nodeCrypto.createHmac('sha256', this.#secret).update(text, 'utf8').digest();
      return mac.length === expected.length && nodeCrypto.timingSafeEqual(mac, expected);
    }
    return crypto.subtle.verify('HMAC', await this.#key(), mac as Uint8Array<ArrayBuffer>, encoder.encode(text));
  }

  #key(): Promise<CryptoKey> {
    this.#webKey ??= crypto.subtle.importKey('raw', this.#secret as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    return this.#webKey;
  }
}
