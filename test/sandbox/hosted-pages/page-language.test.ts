import { describe, expect, it } from 'vitest';
import { LanguageRefused, negotiatePageLanguage, preferredLanguage } from '../../../src/sandbox/hosted-pages/page-language.js';

const PAGE = 'http://127.0.0.1:4010/sandbox/pages/otp/ch_1';

/** The language a page speaks to a request with these query and Accept-Language. */
function negotiated(query: string, acceptLanguage?: string) {
  const url = new URL(`${PAGE}${query}`);
  return negotiatePageLanguage(new Request(url, acceptLanguage === undefined ? {} : { headers: { 'accept-language': acceptLanguage } }), url);
}

describe('preferredLanguage (Accept-Language)', () => {
  it.each([
    ['th', 'th'],
    ['th-TH', 'th'],
    ['TH-th', 'th'],
    ['en', 'en'],
    ['en-GB,en;q=0.9', 'en'],
    ['th-TH,th;q=0.9,en-US;q=0.8,en;q=0.7', 'th'],
    ['en-US,en;q=0.9,th;q=0.8', 'en'],
    ['en;q=0.5, th;q=0.8', 'th'],
    ['fr-FR,fr;q=0.9,th;q=0.5', 'th'],
    ['th;q=0.3, *;q=0.5', 'en'],
  ] as const)('%s gives %s', (header, expected) => {
    expect(preferredLanguage(header)).toBe(expected);
  });

  it('lets the first listed win a tie of quality', () => {
    expect(preferredLanguage('th, en')).toBe('th');
    expect(preferredLanguage('en, th')).toBe('en');
    expect(preferredLanguage('en;q=0.8, th;q=0.8')).toBe('en');
  });

  it('never chooses a language its sender refused with q=0', () => {
    expect(preferredLanguage('th;q=0, en;q=0.1')).toBe('en');
    expect(preferredLanguage('th;q=0')).toBe('en');
  });

  it.each([null, '', 'fr, de;q=0.9', 'ja-JP', ';;;,,,', 'th;q=2', 'th;q=abc', 'x'.repeat(5000), 't h']) ('gives English for %j: no header, no language the pages speak, or one it cannot read', (header) => {
    expect(preferredLanguage(header)).toBe('en');
  });
});

describe('negotiatePageLanguage', () => {
  it('speaks the Accept-Language it is sent, without a lang parameter', () => {
    expect(negotiated('', 'th-TH,th;q=0.9')).toMatchObject({ lang: 'th', query: '' });
    expect(negotiated('', 'en-US')).toMatchObject({ lang: 'en', query: '' });
    expect(negotiated('')).toMatchObject({ lang: 'en', query: '' });
  });

  it('lets lang= override Accept-Language either way, and keeps the choice for the page’s forms', () => {
    expect(negotiated('?lang=en', 'th')).toMatchObject({ lang: 'en', query: '?lang=en' });
    expect(negotiated('?lang=th', 'en-US,en;q=0.9')).toMatchObject({ lang: 'th', query: '?lang=th' });
    expect(negotiated('?lang=TH-th')).toMatchObject({ lang: 'th', query: '?lang=th' });
  });

  it('leaves the choice to Accept-Language for a lang the pages do not speak', () => {
    expect(negotiated('?lang=fr', 'th')).toMatchObject({ lang: 'th', query: '' });
    expect(negotiated('?lang=de')).toMatchObject({ lang: 'en', query: '' });
  });

  it.each(['th%0D%0ASet-Cookie:x=1', 'th%00', '%3Cscript%3E', '', 'x'.repeat(40), 'th_TH'])('refuses lang=%s, which is no language tag, and answers in the Accept-Language', (value) => {
    const answer = negotiated(`?lang=${value}`, 'th');
    expect(answer).toBeInstanceOf(LanguageRefused);
    expect((answer as LanguageRefused).locale.lang).toBe('th');
  });

  it('sets <html lang> and the switch of the language it chose', () => {
    const thai = negotiated('', 'th');
    expect(thai).not.toBeInstanceOf(LanguageRefused);
    if (thai instanceof LanguageRefused) return;
    expect(thai.document.lang).toBe('th');
    expect(String(thai.document.languageSwitch)).toContain('aria-current="true">ไทย</a>');
  });
});
