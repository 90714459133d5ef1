import { describe, expect, it } from 'vitest';
import { parseRetryAfterMs } from '../../../src/server/service/transport.js';

describe('parseRetryAfterMs', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfterMs('0')).toBe(0);
    expect(parseRetryAfterMs(' 3 ')).toBe(3_000);
  });

  it('reads an HTTP date as the time left until it', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(parseRetryAfterMs('Tue, 01 Jan 2030 00:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfterMs('Mon, 31 Dec 2029 23:59:00 GMT', now)).toBe(0);
  });

  it('ignores a missing or unreadable value', () => {
    expect(parseRetryAfterMs(null)).toBeUndefined();
    expect(parseRetryAfterMs('soon')).toBeUndefined();
    expect(parseRetryAfterMs('-5')).toBeUndefined();
  });
});
