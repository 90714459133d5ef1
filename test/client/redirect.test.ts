import { describe, expect, it } from 'vitest';
import { safeRedirectUrl } from '../../src/client/redirect.js';

describe('safeRedirectUrl', () => {
  it.each([
    'https://pay.example/3ds?x=1',
    'http://127.0.0.1:4010/sandbox/pages/otp/ch_1',
    'http://localhost:4010/x',
    'HTTPS://BANK.EXAMPLE/',
    'HtTp://LOCALHOST:4010/x',
    'http://[::1]:4010/sandbox/pages/otp/ch_1',
    'http://[0:0:0:0:0:0:0:1]/x',
    // Other spellings of 127.0.0.1, which the URL parser normalises: still this machine.
    'http://127.1:4010/x',
    'http://0x7f.0.0.1/x',
  ])('follows %s', (url) => {
    expect(safeRedirectUrl(url)?.href).toBe(new URL(url).href);
  });

  it('follows an address with surrounding spaces or line breaks, trimmed', () => {
    expect(safeRedirectUrl('  https://bank.example/3ds\n')?.href).toBe('https://bank.example/3ds');
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
    'HTTP://EVIL.EXAMPLE/3ds',
    'JAVASCRIPT:alert(1)',
    'DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'blob:https://bank.example/5d1f',
    'file:///etc/passwd',
    // Loopback look-alikes that are other machines.
    'http://localhost.evil.com/',
    'http://127.0.0.1.nip.io/',
    'http://localhost./',
    'http://[::ffff:7f00:1]/',
    'http://[::2]/',
    'http://128.0.0.1/',
    'http://0.0.0.0/',
    // Credentials in the address: shown as a trusted name, they hide where the page really is.
    'https://good@evil.example/',
    'https://bank.example@evil.example/',
    'https://bank.example:443@evil.example/',
    'http://localhost:4010@evil.example/',
    'http://127.0.0.1@evil.example/',
    'https://:secret@bank.example/',
    // Control characters and whitespace inside the scheme or host.
    '\u0000https://bank.example/',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    '\u0001javascript:alert(1)',
    'ht\ttp://evil.example/',
    'http://127.0.0.1\t.evil.example/',
    'http://local\nhost.evil.example/',
    'https:/evil.example',
    'https:evil.example',
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
