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
