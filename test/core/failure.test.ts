import { describe, expect, it } from 'vitest';
import { CHARGE_FAILURE_CODES } from '../../src/core/schemas/charge.js';
import { FAILURE_MESSAGE_KEYS, failureMessageKey } from '../../src/core/failure.js';

describe('failureMessageKey', () => {
  it.each([
    ['CH_INSUFFICIENT_FUNDS', 'failure.insufficientFunds'],
    ['CH_AUTHENTICATION_FAILED', 'failure.authentication'],
    ['CH_PROCESSING_FAILED', 'failure.processing'],
  ])('maps %s to %s', (code, key) => {
    expect(failureMessageKey(code)).toBe(key);
  });

  it('has a specific key for every code the contract documents', () => {
    for (const code of CHARGE_FAILURE_CODES) expect(failureMessageKey(code)).not.toBe('failure.generic');
  });

  describe('when the code is one the service added later, or none', () => {
    it.each(['CH_CARD_EXPIRED', 'ch_insufficient_funds', '', null, undefined])('answers the generic key for %j', (code) => {
      expect(failureMessageKey(code)).toBe('failure.generic');
    });

    it('does not mistake an Object.prototype member for a code', () => {
      expect(failureMessageKey('toString')).toBe('failure.generic');
      expect(failureMessageKey('__proto__')).toBe('failure.generic');
    });
  });

  it('only ever answers a key from FAILURE_MESSAGE_KEYS', () => {
    for (const code of [...CHARGE_FAILURE_CODES, 'OTHER', null]) expect(FAILURE_MESSAGE_KEYS).toContain(failureMessageKey(code));
  });
});
