import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_TTL_MS } from '../../../src/core/constants.js';
import { IDEMPOTENCY_KEYS, IdempotencyStore, requestFingerprint } from '../../../src/sandbox/http/idempotency.js';
import { REPLAYED_HEADER } from '../../../src/sandbox/index.js';
import { IDEMPOTENCY_HEADER } from '../../support/sandbox-client.js';
import { sandboxTest } from '../../support/sandbox-fixture.js';

const ALIPAY = { amount: 10_000, currency: 'THB', referenceId: 'order-1', paymentMethod: { paymentMethodType: 'ALIPAY' } };

describe('idempotency keys in the sandbox', () => {
  sandboxTest('replay the first answer for the same body, whatever the order of its keys, and refuse another body with 412', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess();
    const first = await client.createCharge(ALIPAY, { [IDEMPOTENCY_HEADER]: 'key-1' });
    const reordered = { paymentMethod: ALIPAY.paymentMethod, referenceId: 'order-1', currency: 'THB', amount: 10_000 };
    const again = await client.post('/api/v1/charges', reordered, { headers: { [IDEMPOTENCY_HEADER]: 'key-1' } });
    expect(again.status).toBe(201);
    expect(again.headers.get(REPLAYED_HEADER)).toBe('true');
    expect(again.body).toEqual(first.body);

    const other = await client.createCharge({ ...ALIPAY, amount: 10_001 }, { [IDEMPOTENCY_HEADER]: 'key-1' });
    expect([other.status, other.body.error.errorCode]).toEqual([412, 'IDEMPOTENCY_KEY_ERROR']);
    expect(sandbox.store.charges.size).toBe(1);
  });

  sandboxTest('keep a hash of the request, not the request: a 100 KB body costs its key a few dozen bytes', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess();
    const padded = { ...ALIPAY, description: 'x'.repeat(100_000) };
    await client.createCharge(padded, { [IDEMPOTENCY_HEADER]: 'key-big' });
    const [entry] = [...sandbox.store.slice(IDEMPOTENCY_KEYS).values()];
    expect(entry!.fingerprint).toBe(await requestFingerprint('POST', '/api/v1/charges', padded));
    expect(entry!.fingerprint).toHaveLength(44);
    expect(JSON.stringify(entry)).not.toContain('xxxx');
  });

  sandboxTest('are forgotten 12 hours after their first use, as the service forgets them', async ({ startInProcess }) => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    const { sandbox, client } = startInProcess({ now: () => new Date(now) });
    await client.createCharge(ALIPAY, { [IDEMPOTENCY_HEADER]: 'key-old' });
    now += IDEMPOTENCY_KEY_TTL_MS - 1;
    expect((await client.createCharge({ ...ALIPAY, amount: 2_000 }, { [IDEMPOTENCY_HEADER]: 'key-old' })).status).toBe(412);
    now += 2;
    const reused = await client.createCharge({ ...ALIPAY, amount: 2_000 }, { [IDEMPOTENCY_HEADER]: 'key-old' });
    expect(reused.status).toBe(201);
    expect(reused.headers.get(REPLAYED_HEADER)).toBeNull();
    expect(sandbox.store.slice(IDEMPOTENCY_KEYS).size).toBe(1);
  });
});

describe('IdempotencyStore', () => {
  const answer = (text: string) => () => Promise.resolve(new Response(text, { status: 201 }));

  it('holds at most maxEntries keys, forgetting the oldest first', async () => {
    const store = new IdempotencyStore(() => new Date(), new Map(), 3);
    for (const key of ['a', 'b', 'c', 'd']) await store.run('mch', key, `fp-${key}`, answer(key));
    expect(store.size).toBe(3);
    // "a" was forgotten: another request under it runs; "b" is still kept and refuses one.
    expect((await store.run('mch', 'a', 'fp-other', answer('a2'))).replayed).toBe(false);
    await expect(store.run('mch', 'c', 'fp-other', answer('c2'))).rejects.toMatchObject({ errorCode: 'IDEMPOTENCY_KEY_ERROR' });
    expect(store.size).toBe(3);
  });

  it('keeps keys of each merchant apart', async () => {
    const store = new IdempotencyStore(() => new Date());
    await store.run('mch_a', 'k', 'fp-1', answer('a'));
    const other = await store.run('mch_b', 'k', 'fp-2', answer('b'));
    expect([other.replayed, other.answer.body]).toEqual([false, 'b']);
  });

  it('refuses a bound below one', () => {
    expect(() => new IdempotencyStore(() => new Date(), new Map(), 0)).toThrow(RangeError);
  });
});
