/**
 * SHA-256 and HMAC-SHA256 for the handler's hot path. On Node, `node:crypto` computes them in the
 * calling turn, with no WebCrypto promise job or key import per call; elsewhere (edge runtimes,
 * Deno, Bun without it) WebCrypto does. The module is reached through `process.getBuiltinModule`,
 * never imported, so the handler stays free of `node:` imports and runs where Fetch does.
 */

import { nodeBuiltin } from '../node-builtin.js';

interface NodeHash {
  update(data: Uint8Array): NodeHash;
  digest(): Uint8Array;
}

interface NodeCrypto {
  createHash(algorithm: 'sha256'): NodeHash;
  createHmac(algorithm: 'sha256', key: Uint8Array): NodeHash;
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}

const nodeCrypto = nodeBuiltin('node:crypto') as NodeCrypto | undefined;

const encoder = new TextEncoder();

/** SHA-256 of a string's UTF-8 bytes. */
export async function sha256(text: string): Promise<Uint8Array> {
  const bytes = encoder.encode(text);
  if (nodeCrypto) return new Uint8Array(nodeCrypto.createHash('sha256').update(bytes).digest());
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
}

/** An HMAC-SHA256 key: signs, and verifies in constant time. */
export class HmacSha256 {
  readonly #secret: Uint8Array;
  #webKey: Promise<CryptoKey> | undefined;

  constructor(secret: string) {
    this.#secret = encoder.encode(secret);
  }

  async sign(data: Uint8Array): Promise<Uint8Array> {
    if (nodeCrypto) return new Uint8Array(nodeCrypto.createHmac('sha256', this.#secret).update(data).digest());
    return new Uint8Array(await crypto.subtle.sign('HMAC', await this.#key(), data as Uint8Array<ArrayBuffer>));
  }

  async verify(mac: Uint8Array, data: Uint8Array): Promise<boolean> {
    if (nodeCrypto) {
      const expected = nodeCrypto.createHmac('sha256', this.#secret).update(data).digest();
      return mac.length === expected.length && nodeCrypto.timingSafeEqual(mac, expected);
    }
    return crypto.subtle.verify('HMAC', await this.#key(), mac as Uint8Array<ArrayBuffer>, data as Uint8Array<ArrayBuffer>);
  }

  #key(): Promise<CryptoKey> {
    this.#webKey ??= crypto.subtle.importKey('raw', this.#secret as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    return this.#webKey;
  }
}
