import type { HttpCall } from '../../core/http-call.js';
import { ConfigurationError } from '../errors.js';
import type { CheckoutHandlerOptions } from './checkout-options.js';

/** Which proxies in front of the handler are believed; see `CheckoutHandlerOptions.trustProxy`. */
export type TrustProxy = NonNullable<CheckoutHandlerOptions['trustProxy']>;

/** An IPv4 (4 bytes) or IPv6 (16 bytes) address; an IPv4-mapped IPv6 address is its IPv4 address. */
type Address = Uint8Array;
interface Range {
  address: Address;
  prefix: number;
}
/** Whether the hop `index` places from the socket (0), at `address`, is a proxy to look behind. */
type Trust = (address: Address, index: number) => boolean;

const HOW_TO_SET =
  "set trustProxy to false (clients reach this server directly), the number of proxies in front of it, or a list of their addresses and CIDR ranges such as ['10.0.0.0/8', '127.0.0.1', '::1']";

/** What a mount that cannot tell clients apart may do, in the words of the refusal. */
const HOW_TO_IDENTIFY =
  "pass the client's address as the handler's second argument, checkout(request, { clientAddress }) (on Hono: getConnInfo(c).remote.address), " +
  'mount the handler on node:http or Express with toNodeListener (the socket is then known), set trustProxy when a proxy in front writes ' +
  'X-Forwarded-For (Vercel, a load balancer), answer getClientId, or set rateLimit: false to leave rate limiting to the platform ' +
  '(docs/server.md, "Telling shoppers apart")';

/**
 * Why a request's client is unknown when {@link clientAddress} found none and `getClientId` did
 * not answer, and what to set: the refusal of a mount on which every shopper would share one count.
 */
export function unknownClientMessage(trustProxy: TrustProxy | undefined, getClientIdSet: boolean): string {
  const asked = getClientIdSet ? 'getClientId answered nothing' : 'there is no getClientId';
  const why =
    trustProxy === undefined || trustProxy === false || trustProxy === 0
      ? `the handler was called with no client address (a Fetch mount without { clientAddress }, or a socket that has none, such as a Unix socket), ${asked} and trustProxy is off`
      : `trustProxy is set, but this request came with no client address and no X-Forwarded-For address written by a proxy, and ${asked}`;
  return `rate limits cannot tell shoppers apart: ${why}, so every shopper would share one count and be refused for the others' requests. Until the mount says who is calling, limited requests are refused: ${HOW_TO_IDENTIFY}`;
}

/** Compiled lists, by the option's own array, so a request does not parse them again. */
const compiled = new WeakMap<readonly string[], Trust>();

/**
 * The address of the client that made `call`, as far as `trustProxy` lets it be known: the
 * socket address (never a header), or, behind trusted
 * proxies, the `X-Forwarded-For` entry they vouch for (walked from the right, the socket being the
 * last hop). The socket address is the one the host handed the handler (`clientAddress`), else the
 * one the Node adapter recorded. Addresses come back in one spelling (an IPv4-mapped IPv6 address
 * as its IPv4 address, IPv6 compressed and lowercase), so one client is one key. With no socket
 * address (a Fetch mount given no `clientAddress`: Next.js, or Hono without `getConnInfo`): with
 * `trustProxy` set, the rightmost `X-Forwarded-For` entry, which the platform's proxy wrote, is the
 * first hop; without it, `undefined`. Throws a {@link ConfigurationError} when `trustProxy` is not
 * a valid setting.
 */
export function clientAddress(call: Pick<HttpCall, 'header' | 'socketAddress'>, trustProxy: TrustProxy | undefined): string | undefined {
  const trust = trustOf(trustProxy ?? false);
  const forwarded = call.header('x-forwarded-for');
  const hops = forwarded === null ? [] : forwarded.split(',').reverse();
  const socket = call.socketAddress;
  let client: Address | undefined;
  let first = 0;
  if (socket === undefined) {
    // No socket seen (a runtime without the Node adapter): only a trusted proxy's word names the
    // client, and the platform's own proxy, whose socket this runtime hides, is the first hop.
    if (trustProxy === undefined || trustProxy === false || trustProxy === 0) return undefined;
    client = hops.length > 0 ? parseForwardedEntry(hops[0] ?? '') : undefined;
    if (!client) return undefined;
    first = 1;
  } else {
    client = parseAddress(socket);
    // Not an address at all: nothing past it is believed, and the value is the best name there is.
    if (!client) return socket;
  }
  for (const [index, hop] of hops.entries()) {
    if (index < first) continue;
    if (!trust(client, index)) break;
    const next = parseForwardedEntry(hop);
    if (!next) break;
    client = next;
  }
  return formatAddress(client);
}

/**
 * The rate-limit bucket of a client address: the address itself for IPv4, its /64 network for
 * IPv6, since one subscriber is handed a whole /64 and could otherwise take a new address for
 * every request. Anything that is not an address is its own bucket.
 */
export function rateLimitBucket(address: string): string {
  const parsed = parseAddress(address);
  if (parsed?.length !== 16) return address;
  const network = Uint8Array.from(parsed);
  network.fill(0, 8);
  return `${formatAddress(network)}/64`;
}

/** Throws a {@link ConfigurationError} saying what to set unless `value` is a valid `trustProxy`. */
export function checkTrustProxy(value: unknown): void {
  trustOf(value);
}

function trustOf(value: unknown): Trust {
  if (value === false) return () => false;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw new ConfigurationError(`trustProxy: ${value} is not a number of proxies; ${HOW_TO_SET}`);
    return (_address, index) => index < value;
  }
  if (Array.isArray(value)) {
    const list = value as readonly unknown[];
    const known = compiled.get(list as readonly string[]);
    if (known) return known;
    const ranges = list.map((entry) => {
      const range = typeof entry === 'string' ? parseRange(entry) : undefined;
      if (!range) throw new ConfigurationError(`trustProxy: ${JSON.stringify(entry)} is not an IP address or CIDR range; ${HOW_TO_SET}`);
      return range;
    });
    const trust: Trust = (address) => ranges.some((range) => inRange(address, range));
    compiled.set(list as readonly string[], trust);
    return trust;
  }
  throw new ConfigurationError(`trustProxy: ${typeof value === 'string' ? JSON.stringify(value) : String(value)} is not a setting; ${HOW_TO_SET}`);
}

/** An address or CIDR range, e.g. `10.0.0.0/8`, `::1`, `fd00::/8`; a mapped IPv6 range as IPv4. */
function parseRange(text: string): Range | undefined {
  const [, written = '', prefixText] = /^([^/]+)(?:\/(0|[1-9]\d{0,2}))?$/.exec(text.trim()) ?? [];
  const address = parseAddress(written);
  if (!address) return undefined;
  const mapped = address.length === 4 && written.includes(':');
  const full = mapped ? 128 : address.length * 8;
  let prefix = prefixText === undefined ? full : Number(prefixText);
  if (prefix > full) return undefined;
  if (mapped) {
    if (prefix < 96) return undefined;
    prefix -= 96;
  }
  return { address, prefix };
}

function inRange(address: Address, { address: base, prefix }: Range): boolean {
  if (address.length !== base.length) return false;
  const whole = Math.floor(prefix / 8);
  for (let i = 0; i < whole; i += 1) if (address[i] !== base[i]) return false;
  const bits = prefix % 8;
  if (bits === 0) return true;
  const mask = (0xff << (8 - bits)) & 0xff;
  return ((address[whole] ?? 0) & mask) === ((base[whole] ?? 0) & mask);
}

/**
 * One `X-Forwarded-For` entry: an address, an IPv4 address with a port (`203.0.113.5:4711`) or a
 * bracketed IPv6 address with or without one (`[2001:db8::1]:4711`), as some proxies write them.
 */
function parseForwardedEntry(entry: string): Address | undefined {
  const text = entry.trim();
  const withPort = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text) ?? /^(\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5})$/.exec(text);
  if (!withPort) return parseAddress(text);
  const [, address = '', port = '0'] = withPort;
  return Number(port) <= 65_535 ? parseAddress(address) : undefined;
}

/** A plain IPv4 or IPv6 address (an IPv6 zone such as `%eth0` is dropped); `undefined` for anything else. */
function parseAddress(text: string): Address | undefined {
  const v4 = parseIpv4(text);
  if (v4) return v4;
  const v6 = parseIpv6(text.replace(/%[\w.-]+$/, ''));
  if (!v6) return undefined;
  const isMapped = v6.subarray(0, 10).every((byte) => byte === 0) && v6[10] === 0xff && v6[11] === 0xff;
  return isMapped ? v6.slice(12) : v6;
}

function parseIpv4(text: string): Address | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = new Uint8Array(4);
  for (const [i, part] of parts.entries()) {
    // No leading zeros: some parsers read them as octal, so such an entry means different things to different readers.
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return undefined;
    bytes[i] = Number(part);
  }
  return bytes;
}

function parseIpv6(text: string): Address | undefined {
  if (!/^[0-9A-Fa-f:.]{2,45}$/.test(text)) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string): number[] | undefined => {
    if (half === '') return [];
    const groups: number[] = [];
    const parts = half.split(':');
    for (const [i, part] of parts.entries()) {
      if (i === parts.length - 1 && part.includes('.')) {
        const v4 = parseIpv4(part);
        if (!v4) return undefined;
        const [a = 0, b = 0, c = 0, d = 0] = v4;
        groups.push((a << 8) | b, (c << 8) | d);
      } else if (/^[0-9A-Fa-f]{1,4}$/.test(part)) {
        groups.push(parseInt(part, 16));
      } else {
        return undefined;
      }
    }
    return groups;
  };
  const [first = '', second] = halves;
  const head = groupsOf(first);
  const tail = second === undefined ? [] : groupsOf(second);
  if (!head || !tail) return undefined;
  // An IPv4 tail may only end the address.
  if (second !== undefined && first.includes('.')) return undefined;
  const written = head.length + tail.length;
  if (second !== undefined ? written > 7 : written !== 8) return undefined;
  const groups = [...head, ...new Array<number>(8 - written).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  for (const [i, group] of groups.entries()) {
    bytes[i * 2] = group >> 8;
    bytes[i * 2 + 1] = group & 0xff;
  }
  return bytes;
}

/** IPv4 dotted; IPv6 as RFC 5952 writes it (lowercase, the longest run of zero groups as `::`). */
function formatAddress(address: Address): string {
  if (address.length === 4) return address.join('.');
  const groups = Array.from({ length: 8 }, (_, i) => ((address[i * 2] ?? 0) << 8) | (address[i * 2 + 1] ?? 0));
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i += 1;
      continue;
    }
    let end = i;
    while (end < 8 && groups[end] === 0) end += 1;
    if (end - i > bestLength) [bestStart, bestLength] = [i, end - i];
    i = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}
