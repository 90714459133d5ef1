import { describe, expect, it } from 'vitest';
import { safeRedirectUrl } from '../../src/client/redirect.js';

describe('safeRedirectUrl', () => {
  it.each(['https://pay.example/3ds?x=1', 'http://127.0.0.1:4010/sandbox/pages/otp/ch_1', 'http://localhost:4010/x', 'HTTPS://BANK.EXAMPLE/'])('follows %s', (url) => {
    expect(safeRedirectUrl(url)?.href).toBe(new URL(url).href);
  });

  it.each([
    'javascript:alert(1)',
    ' javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '//evil.example/3ds',
    '/relative/path',
    'http://evil.example/3ds',
    'http://127.0.0.1.evil.example/',
    'https://user:pass@bank.example/',
    'ftp://bank.example/',
    '',
    'https://',
  ])('refuses %s', (url) => {
    expect(safeRedirectUrl(url)).toBeNull();
  });

  it('refuses what is not a string', () => {
    for (const value of [undefined, null, 42, {}, ['https://a.example']]) expect(safeRedirectUrl(value)).toBeNull();
  });
});
