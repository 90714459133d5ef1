import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, createCheckoutHandler } from '../../../src/server/index.js';
import { ORDER_TOKEN_TTL_MS } from '../../../src/server/checkout/checkout-options.js';
import { ORDER_REFERENCE_MAX_LENGTH, OrderTokens } from '../../../src/server/checkout/order-tokens.js';
import { StatusTokens } from '../../../src/server/checkout/status-tokens.js';

const SECRET = 'an order token secret of some length';
const MERCHANT = 'mch_shop_a';

/** Tokens on a clock the test moves. */
function clocked(ttlMs?: number, secret = SECRET, merchantId = MERCHANT) {
  const clock = { now: 1_750_000_000_000 };
  const tokens = new OrderTokens(secret, merchantId, { ttlMs, now: () => clock.now });
  return { tokens, clock };
}

/** The token with one of its dot-separated fields replaced. */
function withField(token: string, index: number, value: string): string {
  const fields = token.split('.');
  fields[index] = value;
  return fields.join('.');
}

/** The text with its character at `index` changed to another of the base64url alphabet. */
function flipped(text: string, index: number): string {
  const at = text.charAt(index);
  return text.slice(0, index) + (at === 'A' ? 'B' : 'A') + text.slice(index + 1);
}

describe('OrderTokens', () => {
  it('accepts the token of an order, and only for that order, until its expiry', async () => {
    const { tokens, clock } = clocked();
    const token = await tokens.sign('cart-1');
    expect(token).toMatch(/^o2\.\d+\.[\w-]{43}$/);
    expect(await tokens.verify('cart-1', token)).toEqual({ ok: true, expiresAtMs: clock.now + ORDER_TOKEN_TTL_MS });
    expect(await tokens.verify('cart-2', token)).toEqual({ ok: false, reason: 'invalid' });
    expect(await tokens.verify('cart-1 ', token)).toEqual({ ok: false, reason: 'invalid' });
    expect(await tokens.verify('Cart-1', token)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('signs a reference of any characters, up to the longest a charge takes', async () => {
    const { tokens } = clocked();
    for (const reference of ['คำสั่งซื้อ #42 / "a.b"', 'x'.repeat(ORDER_REFERENCE_MAX_LENGTH), '["satang:order-token:v1"']) {
      expect(await tokens.verify(reference, await tokens.sign(reference))).toMatchObject({ ok: true });
    }
  });

  it('refuses to sign an empty reference or one longer than a charge takes', async () => {
    const { tokens } = clocked();
    await expect(tokens.sign('')).rejects.toThrow(RangeError);
    await expect(tokens.sign('x'.repeat(ORDER_REFERENCE_MAX_LENGTH + 1))).rejects.toThrow(RangeError);
  });

  describe('when the token is forged', () => {
    it('refuses a MAC changed in any place', async () => {
      const { tokens } = clocked();
      const token = await tokens.sign('cart-1');
      const mac = token.split('.')[2] ?? '';
      for (const index of [0, 21, 41]) {
        expect(await tokens.verify('cart-1', withField(token, 2, flipped(mac, index)))).toEqual({ ok: false, reason: 'invalid' });
      }
      // The last character carries two leftover bits: another spelling of the same MAC is refused too.
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const respelled = mac.slice(0, -1) + alphabet.charAt(alphabet.indexOf(mac.charAt(42)) ^ 1);
      expect(await tokens.verify('cart-1', withField(token, 2, respelled))).toEqual({ ok: false, reason: 'invalid' });
    });

    it('refuses a later expiry, and an earlier one, as invalid rather than expired', async () => {
      const { tokens, clock } = clocked();
      const token = await tokens.sign('cart-1');
      expect(await tokens.verify('cart-1', withField(token, 1, String(clock.now + 10 * ORDER_TOKEN_TTL_MS)))).toEqual({ ok: false, reason: 'invalid' });
      expect(await tokens.verify('cart-1', withField(token, 1, String(clock.now - 1)))).toEqual({ ok: false, reason: 'invalid' });
    });

    it('refuses a token of another secret, and a status token of the same secret', async () => {
      const { tokens } = clocked();
      const other = clocked(undefined, 'another secret of the same length!!');
      expect(await tokens.verify('cart-1', await other.tokens.sign('cart-1'))).toEqual({ ok: false, reason: 'invalid' });
      const statusToken = await new StatusTokens(SECRET, MERCHANT).sign('cart-1', 'charge', { referenceId: 'cart-1', orderReference: 'cart-1' });
      expect(await tokens.verify('cart-1', statusToken)).toEqual({ ok: false, reason: 'invalid' });
    });

    it('refuses garbage and no token at all, without throwing', async () => {
      const { tokens } = clocked();
      const token = await tokens.sign('cart-1');
      for (const garbage of ['', 'o1', 'o1..', `${token}.`, ` ${token}`, token.replace('o2.', 'o1.'), token.replace('o2.', 'o3.'), withField(token, 1, '01750000000000'), 'o1.1.' + '!'.repeat(43), '\u0000', '💥'.repeat(40)]) {
        expect(await tokens.verify('cart-1', garbage)).toEqual({ ok: false, reason: 'invalid' });
      }
      expect(await tokens.verify('cart-1', null)).toEqual({ ok: false, reason: 'invalid' });
      expect(await tokens.verify('cart-1', undefined)).toEqual({ ok: false, reason: 'invalid' });
      expect(await tokens.verify('x'.repeat(10_000), token)).toEqual({ ok: false, reason: 'invalid' });
    });
  });

  describe('when the token is past its expiry', () => {
    it('says expired for a genuine token of that order, and invalid for another order', async () => {
      const { tokens, clock } = clocked(60_000);
      const token = await tokens.sign('cart-1');
      clock.now += 59_999;
      expect(await tokens.verify('cart-1', token)).toMatchObject({ ok: true });
      clock.now += 1;
      expect(await tokens.verify('cart-1', token)).toEqual({ ok: false, reason: 'expired' });
      expect(await tokens.verify('cart-2', token)).toEqual({ ok: false, reason: 'invalid' });
    });
  });

  it('takes only a positive whole number of milliseconds as its lifetime', () => {
    for (const ttlMs of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => new OrderTokens(SECRET, MERCHANT, { ttlMs })).toThrow(RangeError);
    expect(() => new OrderTokens(SECRET, '')).toThrow(RangeError);
  });

  describe('when two merchants share the secret (one partner key, no statusTokenSecret)', () => {
    it("refuses one merchant's token for the same order reference at the other", async () => {
      const shopA = clocked(undefined, SECRET, 'mch_shop_a');
      const shopB = clocked(undefined, SECRET, 'mch_shop_b');
      const token = await shopA.tokens.sign('order-1001');
      expect(await shopA.tokens.verify('order-1001', token)).toMatchObject({ ok: true });
      expect(await shopB.tokens.verify('order-1001', token)).toEqual({ ok: false, reason: 'invalid' });
    });
  });

  describe('when the token was signed before tokens named the merchant (o1.)', () => {
    /** An `o1.` token as the earlier version signed it: an HMAC over the reference and the expiry only. */
    function legacyToken(orderReference: string, expiry: number, secret = SECRET): string {
      const mac = createHmac('sha256', secret).update(JSON.stringify(['satang:order-token:v1', orderReference, String(expiry)])).digest('base64url');
      return `o1.${expiry}.${mac}`;
    }

    it('says expired for a genuine one, so its page reloads and renders a token of the new kind, and invalid for a forged one', async () => {
      const { tokens, clock } = clocked();
      expect(await tokens.verify('cart-1', legacyToken('cart-1', clock.now + 60_000))).toEqual({ ok: false, reason: 'expired' });
      expect(await tokens.verify('cart-2', legacyToken('cart-1', clock.now + 60_000))).toEqual({ ok: false, reason: 'invalid' });
      expect(await tokens.verify('cart-1', legacyToken('cart-1', clock.now + 60_000, 'another secret of the same length!!'))).toEqual({ ok: false, reason: 'invalid' });
    });
  });
});

describe('createCheckoutHandler › orderTokenTtlMs', () => {
  const options = { service: { baseUrl: 'http://127.0.0.1:4010', merchantId: 'm', apiKey: 'an API key of some length' }, resolveOrder: () => null };

  it('refuses a lifetime that is not a positive whole number of milliseconds, saying what to set', () => {
    for (const orderTokenTtlMs of [0, -1, 1.5]) {
      expect(() => createCheckoutHandler({ ...options, orderTokenTtlMs })).toThrow(ConfigurationError);
      expect(() => createCheckoutHandler({ ...options, orderTokenTtlMs })).toThrow(/orderTokenTtlMs must be a positive whole number of milliseconds/);
    }
  });

  it('signs tokens its own routes accept, with the secret derived from the API key unless one is given', async () => {
    const derived = createCheckoutHandler(options);
    const given = createCheckoutHandler({ ...options, statusTokenSecret: SECRET });
    const token = await given.orderToken('cart-1');
    expect(await new OrderTokens(SECRET, 'm').verify('cart-1', token)).toMatchObject({ ok: true });
    expect(await new OrderTokens(SECRET, 'another merchant').verify('cart-1', token)).toEqual({ ok: false, reason: 'invalid' });
    expect(await new OrderTokens(SECRET, 'm').verify('cart-1', await derived.orderToken('cart-1'))).toEqual({ ok: false, reason: 'invalid' });
    await expect(given.orderToken('')).rejects.toThrow(RangeError);
  });
});
