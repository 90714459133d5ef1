import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hasSavedAttempt } from '../../src/client/attempt-key.js';
import { abandonAttempt, clearAttempt, loadAttempt, SAVED_ATTEMPT_TTL_MS, saveAttempt, wasAbandoned } from '../../src/client/attempt-store.js';

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
