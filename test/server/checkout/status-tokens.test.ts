import { describe, expect, it } from 'vitest';
import { StatusTokens, VERIFIED_TOKENS_CACHED } from '../../../src/server/checkout/status-tokens.js';

describe('StatusTokens', () => {
  const tokens = () => new StatusTokens('a status token secret of some length');

  it('accepts the token of a charge, and only for that charge, before and after it is remembered', async () => {
    const t = tokens();
    const token = await t.sign('chrg_1');
    for (let round = 0; round < 2; round += 1) {
      expect(await t.verify('chrg_1', token)).toBe(true);
      expect(await t.verify('chrg_2', token)).toBe(false);
    }
  });

  it('refuses a token signed with another secret, a changed token and malformed ones', async () => {
    const t = tokens();
    const token = await t.sign('chrg_1');
    await t.verify('chrg_1', token);
    const foreign = await new StatusTokens('another secret, also long enough').sign('chrg_1');
    expect(await t.verify('chrg_1', foreign)).toBe(false);
    const flipped = (token.startsWith('A') ? 'B' : 'A') + token.slice(1);
    expect(await t.verify('chrg_1', flipped)).toBe(false);
    for (const bad of [undefined, null, '', 'short', `${token}x`, token.replace(/./, '+')]) expect(await t.verify('chrg_1', bad)).toBe(false);
  });

  it('still verifies tokens once more have been checked than it remembers', async () => {
    const t = tokens();
    const first = await t.sign('chrg_first');
    expect(await t.verify('chrg_first', first)).toBe(true);
    for (let i = 0; i < VERIFIED_TOKENS_CACHED + 5; i += 1) expect(await t.verify(`chrg_${i}`, await t.sign(`chrg_${i}`))).toBe(true);
    // Forgotten by now: checked again with the HMAC, with the same answers.
    expect(await t.verify('chrg_first', first)).toBe(true);
    expect(await t.verify('chrg_other', first)).toBe(false);
  });
});
