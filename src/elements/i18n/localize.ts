import { en, type MessageKey } from './en.js';
import { th } from './th.js';

export type Locale = 'th' | 'en';
const CATALOGS = { en, th } as const;

/** The string for `key` in `locale`, with `{name}` placeholders filled from `params`. */
export function msg(locale: Locale, key: MessageKey, params: Record<string, string | number> = {}): string {
  return CATALOGS[locale][key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/**
 * The locale an element speaks: its `locale` attribute when it is th or en, else the language of
 * the nearest `lang` around it (Thai for `th*`), else English.
 */
export function resolveLocale(attribute: string | null | undefined, host: Element): Locale {
  if (attribute === 'th' || attribute === 'en') return attribute;
  const lang = host.closest('[lang]')?.getAttribute('lang') ?? host.ownerDocument?.documentElement.lang ?? '';
  return lang.toLowerCase().startsWith('th') ? 'th' : 'en';
}
