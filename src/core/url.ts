/**
 * Whether a host is this machine: `localhost`, 127.0.0.0/8 or `[::1]`. Takes `URL.hostname`, which
 * has already normalised IPv4 forms such as 127.1 and 0x7f.0.0.1 to dotted decimal.
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * Whether keys or shoppers may be sent to `url`: https anywhere, plain http only to this machine
 * (the local sandbox). Everything else (`javascript:`, `data:`, plain http elsewhere) is refused.
 */
export function isHttpsOrLoopback(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}

/**
 * Schemes no app owns: the web's own (`http`, `https`, `ws`, `wss`, `ftp`), those the browser
 * handles itself (`javascript:` and `vbscript:` run script where they are followed, `data:` and
 * `blob:` are content rather than a place, `file:` reads the shopper's disk, `about:`,
 * `view-source:`, `filesystem:` and the browsers' internal and extension pages), `intent:`, which on
 * Android opens whichever app it names, and the messaging ones (`mailto:`, `tel:`, `sms:`). A
 * return URL of another scheme goes to the app that registered it.
 */
export const RESERVED_URL_SCHEMES: readonly string[] = [
  'http',
  'https',
  'ws',
  'wss',
  'ftp',
  'file',
  'data',
  'blob',
  'filesystem',
  'javascript',
  'vbscript',
  'about',
  'view-source',
  'intent',
  'mailto',
  'tel',
  'sms',
  'chrome',
  'chrome-extension',
  'edge',
  'moz-extension',
  'resource',
  'safari-extension',
  'safari-web-extension',
];

/** Whether `scheme` (lower case, without its colon) can be an app's own, such as `myshop` or `com.shop.app`. */
export function isAppScheme(scheme: string): boolean {
  return /^[a-z][a-z\d+.-]*$/.test(scheme) && !RESERVED_URL_SCHEMES.includes(scheme);
}

/**
 * `url` as a redirect carries it. A URL parser writes an http(s) URL with everything unsafe
 * percent-encoded, but leaves spaces, quotes, angle brackets and a few more as they are in the
 * path of a URL of another scheme (`myshop:paid now`): those are encoded here too, so a
 * `Location` or a request body never carries them bare. Parsing the answer again gives it back
 * unchanged.
 */
export function redirectUrlText(url: URL): string {
  const href = url.href;
  if (url.protocol === 'http:' || url.protocol === 'https:') return href;
  return href.replace(/[ "<>\\^`{|}]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}
