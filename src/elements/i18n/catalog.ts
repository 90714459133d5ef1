/**
 * A catalog of English and Thai strings. Each element registers only the catalogs it shows
 * (`LocalizeController`), so a page that loads the card form alone does not download the
 * checkout's or the QR code's strings. The Thai half has every English key: `th.ts` makes the
 * compiler check it over all the catalogs, without a function call left in the bundles.
 */
export type Catalog = Readonly<{ en: Readonly<Record<string, string>>; th: Readonly<Record<string, string>> }>;
