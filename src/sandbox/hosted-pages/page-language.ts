import { html, type Html } from '../http/html.js';
import type { DocumentParts } from '../http/page-layout.js';
import { pageText, type PageLanguage, type PageText } from './page-text.js';

/** The language of a page when the shopper asks for none the pages speak. */
export const DEFAULT_PAGE_LANGUAGE: PageLanguage = 'en';

/** The query parameter that chooses a page's language, set by the language switch's links. */
export const LANGUAGE_PARAM = 'lang';

/** A BCP 47 tag as `lang=` and Accept-Language carry it: letters, then subtags of letters and digits. */
const LANGUAGE_TAG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;
/** A quality value (RFC 9110 §12.4.2): 0 to 1 with at most three decimals. */
const QUALITY = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;
/** Most Accept-Language entries read; a browser sends a handful. */
const MAX_LANGUAGE_RANGES = 32;

/** The language of `tag` if the pages speak it (`th-TH` is Thai), else undefined. */
function spoken(tag: string): PageLanguage | undefined {
  const primary = tag.split('-')[0]?.toLowerCase();
  return primary === 'th' || primary === 'en' ? primary : undefined;
}

/**
 * The language an `Accept-Language` header prefers among those the pages speak: the highest
 * quality wins, the first listed on a tie; `*` stands for the default. Thai therefore wins only
 * when preferred over English (`th, en;q=0.8`, or `th` alone), and a header that names neither,
 * is missing or cannot be read gives English.
 */
export function preferredLanguage(header: string | null): PageLanguage {
  if (header === null) return DEFAULT_PAGE_LANGUAGE;
  let best: { lang: PageLanguage; quality: number } | undefined;
  for (const range of header.split(',').slice(0, MAX_LANGUAGE_RANGES)) {
    const [tag = '', ...params] = range.split(';').map((part) => part.trim());
    const lang = tag === '*' ? DEFAULT_PAGE_LANGUAGE : LANGUAGE_TAG.test(tag) ? spoken(tag) : undefined;
    if (lang === undefined) continue;
    let quality = 1;
    for (const param of params) {
      const [name, value = ''] = param.split('=').map((part) => part.trim());
      if (name?.toLowerCase() === 'q') quality = QUALITY.test(value) ? Number(value) : 0;
    }
    if (quality > 0 && (best === undefined || quality > best.quality)) best = { lang, quality };
  }
  return best?.lang ?? DEFAULT_PAGE_LANGUAGE;
}

/** The language a hosted page speaks to one request, and what its markup needs to keep it. */
export interface PageLocale {
  lang: PageLanguage;
  text: PageText;
  /** `?lang=…` when the person chose the language with the switch, so a form posted keeps it; else "". */
  query: string;
  /** The document's language, banner and language switch, for `renderDocument`. */
  document: Required<Pick<DocumentParts, 'lang' | 'banner' | 'siteName' | 'languageSwitch'>>;
}

/** A `lang=` value that is no language tag (control characters, markup, anything too long). */
export class LanguageRefused {
  constructor(readonly locale: PageLocale) {}
}

/** The locale of `lang`; `chosen` when the person picked it with `lang=`. */
export function pageLocale(lang: PageLanguage, chosen = false): PageLocale {
  const text = pageText(lang);
  return {
    lang,
    text,
    query: chosen ? `?${LANGUAGE_PARAM}=${lang}` : '',
    document: { lang, banner: text.banner, siteName: text.siteName, languageSwitch: renderLanguageSwitch(lang) },
  };
}

/**
 * The language of a hosted page: `lang=th|en` in the query when given (set by the page's language
 * switch), else the request's `Accept-Language`, else English. A `lang` the pages do not speak
 * (`lang=fr`) leaves the choice to `Accept-Language`; one that is no language tag at all is
 * refused, answered with a {@link LanguageRefused} in the language `Accept-Language` prefers.
 */
export function negotiatePageLanguage(request: Request, url: URL): PageLocale | LanguageRefused {
  const preferred = preferredLanguage(request.headers.get('accept-language'));
  const asked = url.searchParams.get(LANGUAGE_PARAM);
  if (asked === null) return pageLocale(preferred);
  if (!LANGUAGE_TAG.test(asked)) return new LanguageRefused(pageLocale(preferred));
  const lang = spoken(asked);
  return lang === undefined ? pageLocale(preferred) : pageLocale(lang, true);
}

/**
 * Links to the page in each language, the current one marked: plain links that reload the page
 * with `lang=`, so the switch works without script under the pages' CSP. Each language is named
 * in itself.
 */
function renderLanguageSwitch(current: PageLanguage): Html {
  const link = (lang: PageLanguage): Html => {
    const name = pageText(lang).languageName;
    return lang === current
      ? html`<a href="?${LANGUAGE_PARAM}=${lang}" lang="${lang}" hreflang="${lang}" aria-current="true">${name}</a>`
      : html`<a href="?${LANGUAGE_PARAM}=${lang}" lang="${lang}" hreflang="${lang}">${name}</a>`;
  };
  return html`<nav class="language-switch" aria-label="${pageText(current).languageSwitch}">${link('th')}<span aria-hidden="true"> · </span>${link('en')}</nav>`;
}
