import { isAppScheme, redirectUrlText, RESERVED_URL_SCHEMES } from '../../core/url.js';
import { ConfigurationError } from '../errors.js';
import { CheckoutError } from './checkout-error.js';
import type { CheckoutHandlerOptions } from './checkout-options.js';

/**
 * Where a charge's `returnUrl` may send the shopper back: the shop's pages (`publicUrl`'s origin,
 * `allowedOrigins`) and what `returnUrls` adds (its app's universal links by their origins, its
 * app's own schemes). Built once, when the handler is created.
 */
export interface ReturnUrlPolicy {
  /** Exact origins, as a URL parser writes them (`https://app.shop.example`). */
  readonly origins: ReadonlySet<string>;
  /** The app's schemes, in lower case, without their colon (`myshop`). */
  readonly schemes: ReadonlySet<string>;
  /** The origin named when a page of another is refused: `publicUrl`'s, else the first allowed. */
  readonly shopOrigin: string | undefined;
}

const ORIGIN_EXAMPLE = 'https://app.shop.example';
const RETURN_URLS_EXAMPLE = `{ schemes: ['myshop'], origins: ['${ORIGIN_EXAMPLE}'] }`;

/**
 * Checks `returnUrls` (and `returnUrlOrigins`, its older spelling of `returnUrls.origins`) as
 * given, since a JavaScript caller may pass anything: a {@link ConfigurationError} saying what to
 * write for anything that is not an exact origin or an app's own scheme.
 */
export function returnUrlPolicy(options: CheckoutHandlerOptions, shopOrigins: ReadonlySet<string>, publicOrigin: string | undefined): ReturnUrlPolicy {
  const given: unknown = options.returnUrls;
  let origins: readonly string[] = [];
  let schemes: readonly string[] = [];
  if (given !== undefined) {
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      throw new ConfigurationError(`returnUrls must be an object such as ${RETURN_URLS_EXAMPLE} (got ${describe(given)})`);
    }
    const unknown = Object.keys(given).filter((key) => key !== 'origins' && key !== 'schemes');
    if (unknown.length > 0) throw new ConfigurationError(`returnUrls takes origins and schemes, not ${unknown.join(', ')}: ${RETURN_URLS_EXAMPLE}`);
    const lists = given as { origins?: unknown; schemes?: unknown };
    origins = listOf(lists.origins, 'returnUrls.origins', `['${ORIGIN_EXAMPLE}']`).map((origin) => exactOrigin(origin, 'returnUrls.origins'));
    schemes = listOf(lists.schemes, 'returnUrls.schemes', "['myshop']").map(appScheme);
  }
  // The older spelling, read as given like the rest.
  const { returnUrlOrigins } = options as { returnUrlOrigins?: unknown };
  const older = listOf(returnUrlOrigins, 'returnUrlOrigins', `['${ORIGIN_EXAMPLE}']`).map((origin) => exactOrigin(origin, 'returnUrlOrigins'));
  const all = new Set([...shopOrigins, ...older, ...origins]);
  return { origins: all, schemes: new Set(schemes), shopOrigin: publicOrigin ?? [...all][0] };
}

function listOf(value: unknown, option: string, example: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ConfigurationError(`${option} must be a list, such as ${example} (got ${describe(value)})`);
  return value as unknown[];
}

/** `value` as a URL parser writes its origin, when `value` is an origin and nothing more. */
function exactOrigin(value: unknown, option: string): string {
  if (typeof value !== 'string') throw new ConfigurationError(`${option}: ${describe(value)} is not an origin such as ${ORIGIN_EXAMPLE}`);
  if (value.includes('*')) {
    throw new ConfigurationError(`${option}: "${value}" has a wildcard; only exact origins are taken, so list each one, such as ${ORIGIN_EXAMPLE}`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(`${option}: "${value}" is not an origin such as ${ORIGIN_EXAMPLE}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    const scheme = url.protocol.slice(0, -1);
    const hint = isAppScheme(scheme) ? `; an app's own scheme goes in returnUrls.schemes, as '${scheme}'` : '';
    throw new ConfigurationError(`${option}: "${value}" is not an http or https origin such as ${ORIGIN_EXAMPLE}${hint}`);
  }
  if (url.username !== '' || url.password !== '') throw new ConfigurationError(`${option}: "${value}" carries a user name or password; write the origin alone, ${url.origin}`);
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || /[?#]/.test(value)) {
    throw new ConfigurationError(`${option}: "${value}" is more than an origin; write ${url.origin} (any page of it may then be returned to)`);
  }
  return url.origin;
}

/** `value` in lower case, when it is a scheme that an app, not the browser, handles. */
function appScheme(value: unknown): string {
  if (typeof value !== 'string') throw new ConfigurationError(`returnUrls.schemes: ${describe(value)} is not a URL scheme such as 'myshop'`);
  const bare = /^([a-z][a-z\d+.-]*):(?:\/\/)?$/i.exec(value)?.[1];
  if (bare !== undefined) throw new ConfigurationError(`returnUrls.schemes: write the scheme alone, '${bare.toLowerCase()}', not "${value}"`);
  const scheme = value.toLowerCase();
  if (!/^[a-z][a-z\d+.-]*$/.test(scheme)) {
    throw new ConfigurationError(`returnUrls.schemes: "${value}" is not a URL scheme: a letter, then letters, digits, "+", "-" or ".", such as 'myshop' or 'com.shop.app'`);
  }
  if (scheme === 'http' || scheme === 'https') {
    throw new ConfigurationError(`returnUrls.schemes: "${value}" would let a shopper be sent to any website; put the origin of the app's universal links in returnUrls.origins, such as ${ORIGIN_EXAMPLE}`);
  }
  if (RESERVED_URL_SCHEMES.includes(scheme)) {
    throw new ConfigurationError(`returnUrls.schemes: "${value}" is not an app's own scheme (the browser or the system handles it, so no return address of it is ever taken); give the scheme the app registered, such as 'myshop'`);
  }
  return scheme;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `"${value}"`;
  if (Array.isArray(value)) return 'a list';
  return value === null ? 'null' : typeof value;
}

/**
 * A `returnUrl` may only lead back to this shop: a page of one of the policy's origins, or its
 * app through one of its schemes. The request's own Host and Origin headers are written by the
 * caller, so they prove nothing about where the shopper should be sent. One with credentials in it
 * (`https://user:pass@shop.example/`, `myshop://user@paid`) is refused: no page of a shop needs
 * them, and some browsers show them as the host. Answers the URL as a parser writes it
 * (non-ASCII percent-encoded, the host in lower case, dot segments gone; of an app's scheme, the
 * characters a parser leaves bare encoded too: see `redirectUrlText`): the form that was checked
 * is the form sent on.
 */
export function checkedReturnUrl(policy: ReturnUrlPolicy, returnUrl: string): string {
  const url = new URL(returnUrl);
  if (url.username !== '' || url.password !== '') refuse('The return address must not carry a user name or password.');
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'http' || scheme === 'https') {
    if (policy.origins.has(url.origin)) return url.href;
    // Says which origin was refused and what the shop allows (its own addresses, public anyway), so a
    // publicUrl copied from an example, or a page on another origin, is found at once.
    const allowed = policy.shopOrigin;
    const hint =
      allowed === undefined
        ? ' (the shop has not set publicUrl)'
        : ` (${url.origin} is not ${allowed}: set publicUrl to the address shoppers use, or add the origin to returnUrls.origins)`;
    refuse(`The return address must be a page of this shop${hint}.`);
  }
  if (policy.schemes.has(scheme)) return redirectUrlText(url);
  refuse(
    isAppScheme(scheme)
      ? `The return address must be a page of this shop or of its app (${scheme}: is not one of the shop's returnUrls.schemes).`
      : `The return address must be a page of this shop or of its app (${scheme}: never is).`,
  );
}

function refuse(message: string): never {
  throw new CheckoutError(400, 'INVALID_RETURN_URL', message, { field: 'returnUrl' });
}
