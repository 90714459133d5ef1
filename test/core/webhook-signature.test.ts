import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base64Decode, base64Encode } from '../../src/core/base64.js';
import { SERVICE_HEADERS } from '../../src/core/constants.js';
import {
  decodeWebhookKey,
  generateTestWebhookHeaders,
  signWebhookPayload,
  verifyWebhookSignature,
} from '../../src/core/webhook-signature.js';

const KEY_BASE64 = randomBytes(32).toString('base64');
const OTHER_KEY_BASE64 = randomBytes(32).toString('base64');
const BODY = JSON.stringify({ id: 'ch_123', amount: 10_000, currency: 'THB', description: 'ค่ากาแฟ ☕' });

function nodeHmacBase64(body: string | Uint8Array, keyBase64: string): string {
  return createHmac('sha256', Buffer.from(keyBase64, 'base64')).update(body).digest('base64');
}

describe('signWebhookPayload', () => {
  it('matches node:crypto HMAC-SHA256 over the UTF-8 bytes of a string body', async () => {
    expect(await signWebhookPayload(BODY, KEY_BASE64)).toBe(nodeHmacBase64(BODY, KEY_BASE64));
  });

  it('matches node:crypto HMAC-SHA256 over a byte body', async () => {
    const bytes = new Uint8Array(randomBytes(1_000));
    expect(await signWebhookPayload(bytes, KEY_BASE64)).toBe(nodeHmacBase64(bytes, KEY_BASE64));
  });

  it('gives the same signature for a string and for its UTF-8 bytes', async () => {
    const fromString = await signWebhookPayload(BODY, KEY_BASE64);
    const fromBytes = await signWebhookPayload(new TextEncoder().encode(BODY), KEY_BASE64);
    expect(fromBytes).toBe(fromString);
  });

  it('signs an empty body', async () => {
    expect(await signWebhookPayload('', KEY_BASE64)).toBe(nodeHmacBase64('', KEY_BASE64));
  });
});

describe('verifyWebhookSignature', () => {
  describe('when the signature was made over the same body with the same key', () => {
    it('accepts a string body', async () => {
      expect(await verifyWebhookSignature(BODY, nodeHmacBase64(BODY, KEY_BASE64), KEY_BASE64)).toBe(true);
    });

    it('accepts the same body as bytes, such as a Buffer from node:http', async () => {
      const signature = nodeHmacBase64(BODY, KEY_BASE64);
      expect(await verifyWebhookSignature(Buffer.from(BODY, 'utf8'), signature, KEY_BASE64)).toBe(true);
      expect(await verifyWebhookSignature(new TextEncoder().encode(BODY), signature, KEY_BASE64)).toBe(true);
    });
  });

  describe('when the body differs by one byte', () => {
    it('rejects it as a string and as bytes', async () => {
      const signature = nodeHmacBase64(BODY, KEY_BASE64);
      const bytes = new TextEncoder().encode(BODY);
      bytes[5] = (bytes[5] ?? 0) ^ 0x01;
      expect(await verifyWebhookSignature(bytes, signature, KEY_BASE64)).toBe(false);
      expect(await verifyWebhookSignature(new TextDecoder().decode(bytes), signature, KEY_BASE64)).toBe(false);
    });
  });

  describe('when the signature is not a valid signature of the body', () => {
    it('rejects a signature made with another key', async () => {
      expect(await verifyWebhookSignature(BODY, nodeHmacBase64(BODY, OTHER_KEY_BASE64), KEY_BASE64)).toBe(false);
    });

    it('rejects a truncated signature', async () => {
      const signature = base64Decode(nodeHmacBase64(BODY, KEY_BASE64));
      const truncated = base64Encode(signature.subarray(0, 31));
      expect(await verifyWebhookSignature(BODY, truncated, KEY_BASE64)).toBe(false);
      expect(await verifyWebhookSignature(BODY, nodeHmacBase64(BODY, KEY_BASE64).slice(0, -4), KEY_BASE64)).toBe(false);
    });

    it('rejects a signature with one bit flipped', async () => {
      const signature = base64Decode(nodeHmacBase64(BODY, KEY_BASE64));
      signature[31] = (signature[31] ?? 0) ^ 0x80;
      expect(await verifyWebhookSignature(BODY, base64Encode(signature), KEY_BASE64)).toBe(false);
    });

    it('rejects garbage, a longer signature and a hex digest without throwing', async () => {
      const hex = createHmac('sha256', Buffer.from(KEY_BASE64, 'base64')).update(BODY).digest('hex');
      for (const signature of ['not base64!', '====', 'abc', base64Encode(new Uint8Array(64)), hex]) {
        expect(await verifyWebhookSignature(BODY, signature, KEY_BASE64)).toBe(false);
      }
    });

    it('rejects a missing or empty signature without throwing', async () => {
      expect(await verifyWebhookSignature(BODY, null, KEY_BASE64)).toBe(false);
      expect(await verifyWebhookSignature(BODY, undefined, KEY_BASE64)).toBe(false);
      expect(await verifyWebhookSignature(BODY, '', KEY_BASE64)).toBe(false);
    });
  });

  describe('when the webhook key is misconfigured', () => {
    it('throws a TypeError that says what to set, even without a signature', async () => {
      await expect(verifyWebhookSignature(BODY, null, 'not a key')).rejects.toThrow(TypeError);
      await expect(verifyWebhookSignature(BODY, 'x', '')).rejects.toThrow(/webhookKeyBase64/);
    });
  });

  describe('when given parsed JSON instead of the raw body', () => {
    it('throws a TypeError that asks for the raw body', async () => {
      const parsed = JSON.parse(BODY) as unknown as string;
      await expect(verifyWebhookSignature(parsed, 'x', KEY_BASE64)).rejects.toThrow(/raw request body/);
    });
  });
});

describe('generateTestWebhookHeaders', () => {
  it('returns the content type, event and a signature that verifies over the body', async () => {
    const headers = await generateTestWebhookHeaders('charge.succeeded', BODY, KEY_BASE64);
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers[SERVICE_HEADERS.event]).toBe('charge.succeeded');
    expect(headers[SERVICE_HEADERS.signature]).toBe(nodeHmacBase64(BODY, KEY_BASE64));
    expect(await verifyWebhookSignature(BODY, headers[SERVICE_HEADERS.signature], KEY_BASE64)).toBe(true);
    expect(Object.keys(headers)).toHaveLength(3);
  });
});

describe('an invalid webhook key', () => {
  it.each([
    ['empty', ''],
    ['not base64', 'this is not a key'],
    ['URL-safe base64', 'c2F0YW5n-_'],
    ['unpadded base64', 'c2F0YW5nLQ'],
  ])('is refused with a TypeError naming webhookKeyBase64 when %s', async (_label, key) => {
    expect(() => decodeWebhookKey(key)).toThrow(TypeError);
    await expect(signWebhookPayload(BODY, key)).rejects.toThrow(TypeError);
    await expect(signWebhookPayload(BODY, key)).rejects.toThrow(/webhookKeyBase64/);
    await expect(generateTestWebhookHeaders('charge.succeeded', BODY, key)).rejects.toThrow(TypeError);
  });
});

describe('base64', () => {
  it('round-trips random bytes of every length up to 64 and agrees with Buffer', () => {
    for (let length = 0; length <= 64; length++) {
      const bytes = new Uint8Array(randomBytes(length));
      const text = base64Encode(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64'));
      expect(base64Decode(text)).toEqual(bytes);
    }
  });

  it('round-trips a large random buffer', () => {
    const bytes = new Uint8Array(randomBytes(100_003));
    expect(base64Decode(base64Encode(bytes))).toEqual(bytes);
  });

  it('decodes the empty string to no bytes', () => {
    expect(base64Decode('')).toEqual(new Uint8Array(0));
  });

  it.each([
    ['a character outside the alphabet', 'ab*d'],
    ['URL-safe characters', 'ab-_'],
    ['whitespace', 'QUJD\nREVG'],
    ['a non-ASCII character', 'QUJé'],
    ['missing padding', 'QUI'],
    ['padding in the middle', 'QQ==QUJD'],
    ['too much padding', 'Q==='],
    ['only padding', '===='],
    ['non-zero bits before one "="', 'QUJ='],
    ['non-zero bits before "=="', 'QR=='],
  ])('rejects %s', (_label, text) => {
    expect(() => base64Decode(text)).toThrow(SyntaxError);
  });
});
