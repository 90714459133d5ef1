import { describe, expect, it } from 'vitest';
import { ReturnUrlRequestSchema } from '../../src/core/schemas/common.js';
import { isAppScheme, redirectUrlText, RESERVED_URL_SCHEMES } from '../../src/core/url.js';

describe('isAppScheme', () => {
  it('takes the schemes apps register', () => {
    for (const scheme of ['myshop', 'com.shop.app', 'shop-app', 'fb123', 'a+b']) expect(isAppScheme(scheme), scheme).toBe(true);
  });

  it('refuses the reserved schemes and what is no scheme', () => {
    for (const scheme of [...RESERVED_URL_SCHEMES, '', '1shop', 'my shop', 'MyShop', 'myshop:']) expect(isAppScheme(scheme), scheme).toBe(false);
  });
});

describe('redirectUrlText', () => {
  it('leaves an http(s) URL as a parser writes it', () => {
    const url = new URL('https://Shop.example/a b/ชำระ?q=x y');
    expect(redirectUrlText(url)).toBe(url.href);
  });

  it('percent-encodes what a parser leaves bare in an app URL, and gives the same text back when parsed again', () => {
    for (const [given, text] of [
      ['myshop:paid now', 'myshop:paid%20now'],
      ['myshop:"a"<b>{c}|^`\\', 'myshop:%22a%22%3Cb%3E%7Bc%7D%7C%5E%60%5C'],
      ['myshop://paid/a b?c=d e#f g', 'myshop://paid/a%20b?c=d%20e#f%20g'],
      ['myshop://paid?order=1', 'myshop://paid?order=1'],
      ['myshop:already%20encoded', 'myshop:already%20encoded'],
    ] as const) {
      expect(redirectUrlText(new URL(given)), given).toBe(text);
      expect(redirectUrlText(new URL(text)), text).toBe(text);
      expect(text, text).toMatch(/^[\x21-\x7e]+$/);
    }
  });
});

describe('ReturnUrlRequestSchema', () => {
  it('takes http(s) URLs and URLs of an app’s own scheme', () => {
    for (const url of ['https://shop.example/return', 'http://localhost:3000/r', 'myshop://paid', 'myshop:paid', 'com.shop.app://x']) {
      expect(ReturnUrlRequestSchema.safeParse(url).success, url).toBe(true);
    }
  });

  it('refuses a reserved scheme, a relative URL and a control character, with one message', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'intent://x#Intent;end', 'ftp://x', '/relative', 'myshop://pa\nid']) {
      const parsed = ReturnUrlRequestSchema.safeParse(url);
      expect(parsed.success, url).toBe(false);
      expect(parsed.error?.issues, url).toHaveLength(1);
    }
  });
});
