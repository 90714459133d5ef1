import type { Catalog } from './catalog.js';
import type { en } from './en.js';

export type Locale = 'th' | 'en';
/** Every message key of every element; `en.ts` gathers them. */
export type MessageKey = keyof typeof en;

const registered: Record<Locale, Record<string, string>> = { en: {}, th: {} };

/** The catalogs already registered. */
const used = new WeakSet<Catalog>();

/** Makes these catalogs' strings available to {@link msg}. */
export function useMessages(...catalogs: Catalog[]): void {
  for (const catalog of catalogs) {
    // Every element registers its catalogs; each is copied once.
    if (used.has(catalog)) continue;
    used.add(catalog);
    Object.assign(registered.en, catalog.en);
    Object.assign(registered.th, catalog.th);
  }
}

/** The string for `key` in `locale`, with `{name}` placeholders filled from `params`. */
export function msg(locale: Locale, key: MessageKey, params: Record<string, string | number> = {}): string {
  const text = registered[locale][key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/**
 * The locale an element speaks: its `locale` attribute when its language is th or en (`th-TH`,
 * `TH` and `en-US` read as th, th and en), else the language of the nearest `lang` around it,
 * else English.
 */
export function resolveLocale(attribute: string | null | undefined, host: Element): Locale {
  for (const tag of [attribute, host.closest('[lang]')?.getAttribute('lang') ?? host.ownerDocument.documentElement.lang]) {
    const language = tag?.slice(0, 2).toLowerCase();
    if (language === 'th' || language === 'en') return language;
  }
  return 'en';
}
