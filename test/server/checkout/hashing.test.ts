import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * The handler hashes and signs with `node:crypto` on Node and with WebCrypto where only the Fetch
 * API exists (an edge runtime). Instances of one shop may run on both, behind one secret: a token
 * signed on one must verify on the other, and a request's key must be the same on both.
 */

type Hashing = typeof import('../../../src/server/checkout/hashing.js');
type Base64 = typeof import('../../../src/server/checkout/base64-url.js');

/** The modules as loaded where `process.getBuiltinModule` does not exist. */
async function withoutNode(): Promise<{ hashing: Hashing; base64: Base64 }> {
  vi.resetModules();
  const runtime = process as { getBuiltinModule?: unknown };
  const original = runtime.getBuiltinModule;
  runtime.getBuiltinModule = undefined;
  try {
    return { hashing: await import('../../../src/server/checkout/hashing.js'), base64: await import('../../../src/server/checkout/base64-url.js') };
  } finally {
    runtime.getBuiltinModule = original;
  }
}

async function onNode(): Promise<{ hashing: Hashing; base64: Base64 }> {
  vi.resetModules();
  return { hashing: await import('../../../src/server/checkout/hashing.js'), base64: await import('../../../src/server/checkout/base64-url.js') };
}

afterEach(() => vi.resetModules());

// ASCII, Thai, an astral character and a lone surrogate (what TextEncoder and node:crypto both write as U+FFFD).
const texts = ['order-1001', 'คำสั่งซื้อ-๑๐๐๑', 'gift 🎁', 'lone \ud800 half', ''];

describe('hashing on Node and where only WebCrypto exists', () => {
  it('gives the same SHA-256 and HMAC on both, and each verifies the other', async () => {
    const node = await onNode();
    const web = await withoutNode();
    const nodeKey = new node.hashing.HmacSha256('a shared secret');
    const webKey = new web.hashing.HmacSha256('a shared secret');
    for (const text of texts) {
      expect(await web.hashing.sha256Base64Url(text), JSON.stringify(text)).toBe(await node.hashing.sha256Base64Url(text));
      const nodeMac = await nodeKey.sign(text);
      expect(await webKey.sign(text), JSON.stringify(text)).toBe(nodeMac);
      expect(nodeMac).toMatch(/^[\w-]{43}$/);
      const mac = node.base64.base64UrlDecode(nodeMac);
      expect(await webKey.verify(mac, text)).toBe(true);
      expect(await nodeKey.verify(mac, text)).toBe(true);
      expect(await webKey.verify(mac, `${text}.`)).toBe(false);
      expect(await nodeKey.verify(mac, `${text}.`)).toBe(false);
    }
    expect(await nodeKey.verify(new Uint8Array(31), 'order-1001'), 'a MAC of another length').toBe(false);
  });

  it('encodes a text as base64url of its UTF-8 the same on both, and counts its bytes', async () => {
    const node = await onNode();
    const web = await withoutNode();
    for (const text of texts) {
      const encoded = node.base64.utf8Base64Url(text);
      expect(web.base64.utf8Base64Url(text), JSON.stringify(text)).toBe(encoded);
      expect(node.base64.base64UrlByteLength(encoded), JSON.stringify(text)).toBe(new TextEncoder().encode(text).length);
      expect(new TextDecoder().decode(node.base64.base64UrlDecode(encoded))).toBe(new TextDecoder().decode(new TextEncoder().encode(text)));
    }
  });
});
