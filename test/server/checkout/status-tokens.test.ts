import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { STATUS_TOKEN_TTL_MS } from '../../../src/server/checkout/checkout-options.js';
import { StatusTokens, VERIFIED_TOKENS_CACHED } from '../../../src/server/checkout/status-tokens.js';

const SECRET = 'a status token secret of some length';
const MERCHANT = 'mch_shop_a';
/** The order of a payment: its referenceId, and the page's reference to it. */
const order = (referenceId: string) => ({ referenceId, orderReference: `page-${referenceId}` });

/** Tokens on a clock the test moves. */
function clocked(ttlMs?: number) {
  const clock = { now: 1_750_000_000_000 };
  const tokens = new StatusTokens(SECRET, MERCHANT, { ttlMs, now: () => clock.now });
  return { tokens, clock };
}

/** The token with one of its dot-separated fields replaced. */
function withField(token: string, index: number, value: string): string {
  const fields = token.split('.');
  fields[index] = value;
  return fields.join('.');
}

const base64Url = (text: string) => Buffer.from(text).toString('base64url');

describe('StatusTokens', () => {
  it('accepts the token of a charge, and only for that charge, naming its order and expiry, before and after it is remembered', async () => {
    const { tokens, clock } = clocked();
    const token = await tokens.sign('chrg_1', 'charge', order('order-1001'));
    expect(token).toMatch(/^v3\.\d+\.[\w-]+\.[\w-]+\.[\w-]{43}$/);
    for (let round = 0; round < 2; round += 1) {
      expect(await tokens.verify('chrg_1', token, 'charge')).toEqual({ ok: true, kind: 'charge', referenceId: 'order-1001', orderReference: 'page-order-1001', expiresAtMs: clock.now + STATUS_TOKEN_TTL_MS });
      expect(await tokens.verify('chrg_2', token, 'charge')).toEqual({ ok: false, reason: 'invalid' });
      expect(await tokens.verify('chrg_1', token, 'authorization')).toEqual({ ok: false, reason: 'invalid' });
    }
  });

  it('carries an order reference of any characters', async () => {
    const { tokens } = clocked();
    const reference = 'คำสั่งซื้อ #42 / "a.b"';
    const check = await tokens.verify('chrg_1', await tokens.sign('chrg_1', 'charge', order(reference)), 'charge');
    expect(check).toMatchObject({ ok: true, referenceId: reference, orderReference: `page-${reference}` });
  });

  it('expires ttlMs after signing, even once remembered as verified', async () => {
    const { tokens, clock } = clocked(60_000);
    const token = await tokens.sign('chrg_1', 'charge', order('order-1'));
    clock.now += 59_999;
    expect(await tokens.verify('chrg_1', token, 'charge')).toMatchObject({ ok: true, expiresAtMs: clock.now + 1 });
    clock.now += 1;
    expect(await tokens.verify('chrg_1', token, 'charge')).toEqual({ ok: false, reason: 'expired' });
    // Another instance sharing the secret, which never saw it verified, says the same.
    const other = new StatusTokens(SECRET, MERCHANT, { ttlMs: 60_000, now: () => clock.now });
    expect(await other.verify('chrg_1', token, 'charge')).toEqual({ ok: false, reason: 'expired' });
    // Expired is only said of a genuine token: for another charge it is just invalid.
    expect(await other.verify('chrg_2', token, 'charge')).toEqual({ ok: false, reason: 'invalid' });
  });

  it('defaults to an hour', async () => {
    const { tokens, clock } = clocked();
    const token = await tokens.sign('chrg_1', 'charge', order('order-1'));
    clock.now += STATUS_TOKEN_TTL_MS - 1;
    expect((await tokens.verify('chrg_1', token, 'charge')).ok).toBe(true);
    clock.now += 1;
    expect(await tokens.verify('chrg_1', token, 'charge')).toEqual({ ok: false, reason: 'expired' });
    expect(STATUS_TOKEN_TTL_MS).toBe(60 * 60 * 1000);
  });

  it('breaks when the expiry is moved, later or earlier', async () => {
    const { tokens, clock } = clocked(60_000);
    const token = await tokens.sign('chrg_1', 'charge', order('order-1'));
    const expiry = Number(token.split('.')[1]);
    for (const moved of [expiry + 3_600_000, expiry - 1, clock.now + 60_000 * 1000]) {
      expect(await tokens.verify('chrg_1', withField(token, 1, String(moved)), 'charge'), String(moved)).toEqual({ ok: false, reason: 'invalid' });
    }
    // Once expired, a token whose expiry was pushed forward is still refused, as invalid.
    clock.now = expiry;
    expect(await tokens.verify('chrg_1', withField(token, 1, String(expiry + 60_000)), 'charge')).toEqual({ ok: false, reason: 'invalid' });
    expect(await tokens.verify('chrg_1', withField(token, 1, `0${expiry}`), 'charge')).toEqual({ ok: false, reason: 'invalid' });
  });

  it('binds the token to its order: another reference in the same token does not verify', async () => {
    const { tokens } = clocked();
    const token = await tokens.sign('chrg_1', 'charge', order('order-A'));
    expect(await tokens.verify('chrg_1', withField(token, 2, base64Url('order-B')), 'charge')).toEqual({ ok: false, reason: 'invalid' });
    expect(await tokens.verify('chrg_1', withField(token, 2, ''), 'charge')).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses a token signed with another secret, a changed MAC, the old format and malformed ones', async () => {
    const { tokens, clock } = clocked();
    const token = await tokens.sign('chrg_1', 'charge', order('order-1'));
    await tokens.verify('chrg_1', token, 'charge');
    const foreign = await new StatusTokens('another secret, also long enough', MERCHANT, { now: () => clock.now }).sign('chrg_1', 'charge', order('order-1'));
    expect(await tokens.verify('chrg_1', foreign, 'charge')).toEqual({ ok: false, reason: 'invalid' });
    const mac = token.split('.')[4]!;
    expect(await tokens.verify('chrg_1', withField(token, 4, (mac.startsWith('A') ? 'B' : 'A') + mac.slice(1)), 'charge')).toEqual({ ok: false, reason: 'invalid' });
    // The order it carries is signed too: another order, or another page's reference, is refused.
    const another = await tokens.sign('chrg_1', 'charge', { referenceId: 'order-2', orderReference: 'page-order-2' });
    expect(await tokens.verify('chrg_1', withField(token, 2, another.split('.')[2]!), 'charge')).toEqual({ ok: false, reason: 'invalid' });
    expect(await tokens.verify('chrg_1', withField(token, 3, another.split('.')[3]!), 'charge')).toEqual({ ok: false, reason: 'invalid' });
    const legacy = mac;
    const malformed = [undefined, null, '', 'short', legacy, `${token}x`, `v1${token.slice(2)}`, `v2${token.slice(2)}`, `v4${token.slice(2)}`, token.replace('.', '..'), withField(token, 4, `${mac.slice(0, -1)}+`), withField(token, 1, '-5')];
    for (const bad of malformed) expect(await tokens.verify('chrg_1', bad, 'charge'), String(bad)).toEqual({ ok: false, reason: 'invalid' });
  });

  it("refuses another merchant's token signed with the same secret (one partner key, two shops)", async () => {
    const { tokens, clock } = clocked();
    const shopB = new StatusTokens(SECRET, 'mch_shop_b', { now: () => clock.now });
    const token = await shopB.sign('chrg_1', 'charge', order('order-1'));
    expect(await shopB.verify('chrg_1', token, 'charge')).toMatchObject({ ok: true });
    expect(await tokens.verify('chrg_1', token, 'charge')).toEqual({ ok: false, reason: 'invalid' });
  });

  it('says expired for a genuine token of the earlier kind (v2., no merchant), so its page reloads and is handed a new one', async () => {
    const { tokens, clock } = clocked();
    const reference = Buffer.from('order-1').toString('base64url');
    const expiry = String(clock.now + 60_000);
    const legacy = (secret: string) => `v2.${expiry}.${reference}.${createHmac('sha256', secret).update(JSON.stringify(['satang:status-token:v2', 'charge', 'chrg_1', reference, expiry])).digest('base64url')}`;
    expect(await tokens.verify('chrg_1', legacy(SECRET), 'charge')).toEqual({ ok: false, reason: 'expired' });
    expect(await tokens.verify('chrg_2', legacy(SECRET), 'charge')).toEqual({ ok: false, reason: 'invalid' });
    expect(await tokens.verify('chrg_1', legacy('another secret, also long enough'), 'charge')).toEqual({ ok: false, reason: 'invalid' });
  });

  it('keeps charges and card authorizations apart', async () => {
    const { tokens } = clocked();
    const token = await tokens.sign('auth_1', 'authorization', order('order-1'));
    expect(await tokens.verify('auth_1', token, 'charge')).toEqual({ ok: false, reason: 'invalid' });
    expect(await tokens.verify('auth_1', token, 'authorization')).toMatchObject({ ok: true, kind: 'authorization' });
    expect(await tokens.verify('auth_1', token, 'charge')).toEqual({ ok: false, reason: 'invalid' });
  });

  it('still verifies tokens once more have been checked than it remembers', async () => {
    const { tokens } = clocked();
    const first = await tokens.sign('chrg_first', 'charge', order('order-first'));
    expect((await tokens.verify('chrg_first', first, 'charge')).ok).toBe(true);
    for (let i = 0; i < VERIFIED_TOKENS_CACHED + 5; i += 1) expect((await tokens.verify(`chrg_${i}`, await tokens.sign(`chrg_${i}`, 'charge', order(`order-${i}`)), 'charge')).ok).toBe(true);
    // Forgotten by now: checked again with the HMAC, with the same answers.
    expect(await tokens.verify('chrg_first', first, 'charge')).toMatchObject({ ok: true, referenceId: 'order-first' });
    expect(await tokens.verify('chrg_other', first, 'charge')).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses a lifetime that is not a positive whole number of milliseconds, and an order reference too long to carry', async () => {
    for (const ttlMs of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => new StatusTokens(SECRET, MERCHANT, { ttlMs }), String(ttlMs)).toThrow(RangeError);
    await expect(clocked().tokens.sign('chrg_1', 'charge', order('x'.repeat(1025)))).rejects.toThrow(RangeError);
    await expect(clocked().tokens.sign('chrg_1', 'charge', { referenceId: 'order-1', orderReference: 'x'.repeat(1025) })).rejects.toThrow(RangeError);
  });
});
