import { describe, expect, it } from 'vitest';
import { RESERVED_URL_SCHEMES } from '../../../src/core/url.js';
import { createCheckoutHandler, ConfigurationError, type CheckoutHandlerOptions } from '../../../src/server/index.js';
import { SERVICE } from '../../support/checkout-harness.js';

/** `returnUrls` (and its older spelling, `returnUrlOrigins`) is checked when the handler is created. */

function create(options: Partial<CheckoutHandlerOptions>) {
  return createCheckoutHandler({ service: SERVICE, resolveOrder: () => null, publicUrl: 'https://shop.example', ...options });
}

/** The ConfigurationError creating the handler with `options` throws. */
function refusal(options: Partial<CheckoutHandlerOptions>): string {
  try {
    create(options);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error(`created a handler with ${JSON.stringify(options)}`);
}

/** Anything, as a JavaScript caller may pass it. */
const loose = (returnUrls: unknown) => ({ returnUrls }) as Partial<CheckoutHandlerOptions>;
/** `returnUrlOrigins`, the older spelling of `returnUrls.origins`, as a shop written for it passes it. */
// eslint-disable-next-line @typescript-eslint/no-deprecated -- the older spelling is what is tested here
const older = (returnUrlOrigins: unknown) => ({ returnUrlOrigins }) as Partial<CheckoutHandlerOptions>;

describe('returnUrls', () => {
  it('takes app schemes and exact origins, in any case and with a trailing slash', () => {
    expect(() => create({ returnUrls: { schemes: ['myshop', 'com.shop.app', 'MyShop2', 'a+b-c.d'], origins: ['https://app.shop.example', 'https://APP2.shop.example/', 'http://localhost:3000'] } })).not.toThrow();
    expect(() => create({ returnUrls: {} })).not.toThrow();
    expect(() => create({ returnUrls: { schemes: [], origins: [] } })).not.toThrow();
  });

  it('refuses what is not an object of two lists, naming what it takes', () => {
    expect(refusal(loose('myshop'))).toBe(`returnUrls must be an object such as { schemes: ['myshop'], origins: ['https://app.shop.example'] } (got "myshop")`);
    expect(refusal(loose(['myshop']))).toContain('returnUrls must be an object such as');
    expect(refusal(loose(null))).toContain('(got null)');
    expect(refusal(loose({ scheme: ['myshop'] }))).toBe(`returnUrls takes origins and schemes, not scheme: { schemes: ['myshop'], origins: ['https://app.shop.example'] }`);
    expect(refusal(loose({ schemes: 'myshop' }))).toBe(`returnUrls.schemes must be a list, such as ['myshop'] (got "myshop")`);
    expect(refusal(loose({ origins: 'https://app.shop.example' }))).toBe(`returnUrls.origins must be a list, such as ['https://app.shop.example'] (got "https://app.shop.example")`);
    expect(refusal(loose({ schemes: [42] }))).toBe(`returnUrls.schemes: number is not a URL scheme such as 'myshop'`);
    expect(refusal(loose({ origins: [undefined] }))).toBe('returnUrls.origins: undefined is not an origin such as https://app.shop.example');
  });

  describe('schemes', () => {
    it('asks for the scheme alone when given with its colon or slashes', () => {
      expect(refusal({ returnUrls: { schemes: ['myshop://'] } })).toBe(`returnUrls.schemes: write the scheme alone, 'myshop', not "myshop://"`);
      expect(refusal({ returnUrls: { schemes: ['MyShop:'] } })).toBe(`returnUrls.schemes: write the scheme alone, 'myshop', not "MyShop:"`);
    });

    it.each(['', 'my shop', '1shop', 'my_shop', 'myshop://paid', 'ไทย'])('refuses %j, which is no scheme', (scheme) => {
      expect(refusal({ returnUrls: { schemes: [scheme] } })).toContain(`returnUrls.schemes: "${scheme}" is not a URL scheme: a letter, then letters, digits`);
    });

    it.each(['http', 'HTTPS'])('refuses %s, which would let a shopper go to any website, pointing to origins', (scheme) => {
      expect(refusal({ returnUrls: { schemes: [scheme] } })).toBe(
        `returnUrls.schemes: "${scheme}" would let a shopper be sent to any website; put the origin of the app's universal links in returnUrls.origins, such as https://app.shop.example`,
      );
    });

    it.each(['javascript', 'JavaScript', 'data', 'file', 'vbscript', 'blob', 'about', 'intent', 'ftp', 'ws', 'mailto', 'tel', 'chrome-extension'])(
      'refuses %s, a scheme the browser or the system handles',
      (scheme) => {
        expect(refusal({ returnUrls: { schemes: [scheme] } })).toContain(`returnUrls.schemes: "${scheme}" is not an app's own scheme (the browser or the system handles it`);
      },
    );

    it('refuses every reserved scheme', () => {
      for (const scheme of RESERVED_URL_SCHEMES) expect(() => create({ returnUrls: { schemes: [scheme] } }), scheme).toThrow(ConfigurationError);
    });
  });

  describe('origins', () => {
    it('refuses a wildcard: only exact origins are taken', () => {
      expect(refusal({ returnUrls: { origins: ['https://*.shop.example'] } })).toBe(
        'returnUrls.origins: "https://*.shop.example" has a wildcard; only exact origins are taken, so list each one, such as https://app.shop.example',
      );
    });

    it.each([
      ['https://app.shop.example/paid', 'https://app.shop.example'],
      ['https://app.shop.example/?', 'https://app.shop.example'],
      ['https://app.shop.example#top', 'https://app.shop.example'],
      ['https://app.shop.example:8443/x?y=1', 'https://app.shop.example:8443'],
    ])('refuses %s, which is more than an origin, naming the origin to write', (value, origin) => {
      expect(refusal({ returnUrls: { origins: [value] } })).toBe(`returnUrls.origins: "${value}" is more than an origin; write ${origin} (any page of it may then be returned to)`);
    });

    it('refuses an origin carrying a user name or password', () => {
      expect(refusal({ returnUrls: { origins: ['https://user:pass@app.shop.example'] } })).toBe(
        'returnUrls.origins: "https://user:pass@app.shop.example" carries a user name or password; write the origin alone, https://app.shop.example',
      );
    });

    it('refuses an app scheme given as an origin, pointing to schemes', () => {
      expect(refusal({ returnUrls: { origins: ['myshop://paid'] } })).toBe(
        `returnUrls.origins: "myshop://paid" is not an http or https origin such as https://app.shop.example; an app's own scheme goes in returnUrls.schemes, as 'myshop'`,
      );
      expect(refusal({ returnUrls: { origins: ['javascript:alert(1)'] } })).toBe('returnUrls.origins: "javascript:alert(1)" is not an http or https origin such as https://app.shop.example');
    });

    it('refuses what is no URL', () => {
      expect(refusal({ returnUrls: { origins: ['app.shop.example'] } })).toBe('returnUrls.origins: "app.shop.example" is not an origin such as https://app.shop.example');
    });

    it('checks returnUrlOrigins, the older spelling, the same way', () => {
      expect(() => create(older(['https://pay.shop.example']))).not.toThrow();
      expect(refusal(older(['https://pay.shop.example/return']))).toBe(
        'returnUrlOrigins: "https://pay.shop.example/return" is more than an origin; write https://pay.shop.example (any page of it may then be returned to)',
      );
      expect(refusal(older('https://pay.shop.example'))).toContain('returnUrlOrigins must be a list');
    });
  });
});
