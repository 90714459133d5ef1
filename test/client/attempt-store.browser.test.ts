import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hasSavedAttempt } from '../../src/client/attempt-key.js';
import { abandonAttempt, clearAttempt, forgetLeftPayment, keepLeftPayment, leftPayments, loadAttempt, SAVED_ATTEMPT_TTL_MS, saveAttempt, wasAbandoned } from '../../src/client/attempt-store.js';

// The browser tests share one origin: start from an empty session storage.
beforeEach(() => sessionStorage.clear());
afterEach(() => {
  sessionStorage.clear();
  vi.useRealTimers();
});

const QR = { rawData: '000201010212', expiry: '2030-01-01T00:00:00Z', image: 'iVBORw0KGgo=' };

describe('the saved attempt', () => {
  it('keeps the charge, its method, its status token and a QR code for the order, in this tab only', () => {
    saveAttempt('order-1', { chargeId: 'ch_1', statusToken: 'st_1', method: 'QR_PROMPT_PAY', action: 'qr', qr: QR });
    expect(hasSavedAttempt('order-1')).toBe(true);
    expect(loadAttempt('order-1')).toMatchObject({ chargeId: 'ch_1', statusToken: 'st_1', method: 'QR_PROMPT_PAY', action: 'qr', qr: QR });
    expect(Object.keys(sessionStorage).filter((key) => key.endsWith(':order-1'))).toEqual(['satang:attempt:order-1']);
    expect(localStorage.length).toBe(0);
    expect(document.cookie).not.toContain('satang');
    expect(loadAttempt('order-2')).toBeUndefined();
  });

  it('forgets it after an hour, the life of a status token', () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    saveAttempt('order-1', { chargeId: 'ch_1', statusToken: 'st_1', method: 'CARD_TOKEN', action: 'wait' });
    vi.setSystemTime(Date.now() + SAVED_ATTEMPT_TTL_MS - 1000);
    expect(loadAttempt('order-1')?.chargeId).toBe('ch_1');
    vi.setSystemTime(Date.now() + 2000);
    expect(loadAttempt('order-1')).toBeUndefined();
  });

  it('reads nothing from a malformed or foreign entry', () => {
    sessionStorage.setItem('satang:attempt:order-1', 'not json');
    expect(loadAttempt('order-1')).toBeUndefined();
    sessionStorage.setItem('satang:attempt:order-1', JSON.stringify({ chargeId: 'ch_1', statusToken: '', action: 'wait', savedAt: Date.now() }));
    expect(loadAttempt('order-1')).toBeUndefined();
    sessionStorage.setItem('satang:attempt:order-1', JSON.stringify({ chargeId: 'ch_1', statusToken: 'st', action: 'pay-twice', savedAt: Date.now() }));
    expect(loadAttempt('order-1')).toBeUndefined();
  });

  it('reads an attempt an earlier version saved (no action) as a redirect', () => {
    sessionStorage.setItem('satang:attempt:order-1', JSON.stringify({ chargeId: 'ch_1', statusToken: 'st_1', method: 'CARD_TOKEN', savedAt: Date.now() }));
    expect(loadAttempt('order-1')?.action).toBe('redirect');
  });

  it('once abandoned, keeps only the charge id, marked so the next charge replaces it, until a new attempt is saved', () => {
    saveAttempt('order-1', { chargeId: 'ch_1', statusToken: 'st_1', method: 'QR_PROMPT_PAY', action: 'qr', qr: QR });
    abandonAttempt('order-1', 'ch_1');
    expect(loadAttempt('order-1')).toBeUndefined();
    expect(wasAbandoned('order-1')).toBe(true);
    expect(Object.values(Object.fromEntries(Object.entries(sessionStorage))).join(' ')).not.toContain('st_1');
    saveAttempt('order-1', { chargeId: 'ch_2', statusToken: 'st_2', method: 'CARD_TOKEN', action: 'wait' });
    expect(wasAbandoned('order-1')).toBe(false);
    clearAttempt('order-1');
    expect(sessionStorage.length).toBe(0);
  });
});

describe('the payments left for another method', () => {
  const left = (n: number) => ({ chargeId: `ch_${n}`, statusToken: `st_${n}`, method: 'QR_PROMPT_PAY', amount: 10_000 + n, currency: 'THB' });

  it('keeps the four newest, once each, oldest first, and forgets one when asked', () => {
    for (const n of [1, 2, 3, 4, 5]) keepLeftPayment('order-1', left(n));
    expect(leftPayments('order-1').map((p) => p.chargeId)).toEqual(['ch_2', 'ch_3', 'ch_4', 'ch_5']);
    // Left again (a reload, then another method): once, as the newest.
    keepLeftPayment('order-1', left(3));
    expect(leftPayments('order-1').map((p) => p.chargeId)).toEqual(['ch_2', 'ch_4', 'ch_5', 'ch_3']);
    expect(leftPayments('order-1')[3]).toMatchObject({ statusToken: 'st_3', amount: 10_003, currency: 'THB' });
    expect(leftPayments('order-2')).toEqual([]);
    for (const n of [2, 4, 5, 3]) forgetLeftPayment('order-1', `ch_${n}`);
    expect(leftPayments('order-1')).toEqual([]);
    expect(sessionStorage.getItem('satang:left:order-1'), 'the last one forgotten removes the entry').toBeNull();
  });

  it('forgets them after an hour, and reads nothing from a malformed entry or one without a token', () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    keepLeftPayment('order-1', left(1));
    vi.setSystemTime(Date.now() + SAVED_ATTEMPT_TTL_MS + 1000);
    keepLeftPayment('order-1', left(2));
    expect(leftPayments('order-1').map((p) => p.chargeId)).toEqual(['ch_2']);
    for (const raw of ['not json', '{"chargeId":"ch_1"}', JSON.stringify([{ ...left(3), statusToken: '', savedAt: Date.now() }]), JSON.stringify([{ ...left(3), amount: '100', savedAt: Date.now() }])]) {
      sessionStorage.setItem('satang:left:order-1', raw);
      expect(leftPayments('order-1'), raw).toEqual([]);
    }
  });

  it('loses only the word of them when the storage refuses to keep them', () => {
    const setItem = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    try {
      expect(() => keepLeftPayment('order-1', left(1))).not.toThrow();
    } finally {
      setItem.mockRestore();
    }
    expect(leftPayments('order-1')).toEqual([]);
  });
});
