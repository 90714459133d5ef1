import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_ADDRESS_HEADER, rememberSocketAddress } from '../../../src/node/client-address.js';
import { callOfRequest } from '../../../src/server/checkout/fetch-call.js';
import { checkTrustProxy, clientAddress, rateLimitBucket, type TrustProxy } from '../../../src/server/checkout/client-identity.js';
import { ConfigurationError, createCheckoutHandler, toNodeListener, type CheckoutHandlerOptions } from '../../../src/server/index.js';

/**
 * The limits' window in these tests: a day, so no test's requests straddle the start of a new
 * window (fixed windows start on multiples of it), which would count them again from zero.
 */
const ONE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A request as the Node adapter hands it on: `socket` recorded beside it, and the client's own X-Forwarded-For lines. */
function requestFrom(socket: string | undefined, ...forwardedFor: string[]): Request {
  const headers = new Headers();
  for (const line of forwardedFor) headers.append('x-forwarded-for', line);
  const request = new Request('https://shop.example/api/checkout/charges', { headers });
  if (socket !== undefined) rememberSocketAddress(request, socket);
  return request;
}

const clientOf = (trustProxy: TrustProxy | undefined, socket: string | undefined, ...forwardedFor: string[]) => clientAddress(callOfRequest(requestFrom(socket, ...forwardedFor)), trustProxy);

describe('rateLimitBucket', () => {
  it('counts an IPv6 client by its /64, since one subscriber holds all of it, and IPv4 by the address', () => {
    expect(rateLimitBucket('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(rateLimitBucket('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(rateLimitBucket('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(rateLimitBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitBucket('not an address')).toBe('not an address');
  });
});

describe('rate limits by client', () => {
  it('count every address of one IPv6 /64 together, and another /64 apart', async () => {
    const handler = createCheckoutHandler({
      service: { baseUrl: 'http://127.0.0.1:9', merchantId: 'merchant', apiKey: 'skey_test_a_key_long_enough' },
      resolveOrder: () => null,
      rateLimit: { chargesPerWindow: 3, windowMs: ONE_WINDOW_MS },
    });
    const from = async (address: string) => {
      const request = new Request('https://shop.example/charges', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ orderReference: 'nope', paymentMethod: { type: 'QR_PROMPT_PAY' } }) });
      rememberSocketAddress(request, address);
      return (await handler(request)).status;
    };
    const statuses = [];
    for (let i = 1; i <= 5; i += 1) statuses.push(await from(`2001:db8:1:2::${i.toString(16)}`));
    expect(statuses).toEqual([403, 403, 403, 429, 429]);
    expect(await from('2001:db8:1:3::1')).toBe(403);
  });
});

describe('the handler’s second argument and the clients it cannot tell apart', () => {
  /** A handler whose charges are counted, then refused for want of an order token (403). */
  const handlerWith = (options: Partial<CheckoutHandlerOptions> = {}) =>
    createCheckoutHandler({
      service: { baseUrl: 'http://127.0.0.1:9', merchantId: 'merchant', apiKey: 'skey_test_a_key_long_enough' },
      resolveOrder: () => null,
      rateLimit: { chargesPerWindow: 2, windowMs: ONE_WINDOW_MS },
      log: () => undefined,
      ...options,
    });
  const charge = (...forwardedFor: string[]) => {
    const headers = new Headers({ 'content-type': 'application/json' });
    for (const line of forwardedFor) headers.append('x-forwarded-for', line);
    return new Request('https://shop.example/charges', { method: 'POST', headers, body: JSON.stringify({ orderReference: 'nope', paymentMethod: { type: 'QR_PROMPT_PAY' } }) });
  };
  /** Each request sent once the one before was answered: its status, and its message when 500. */
  const answers = async (requests: (() => Promise<Response>)[]) => {
    const seen: (number | string)[] = [];
    for (const send of requests) {
      const response = await send();
      seen.push(response.status === 500 ? `500 ${((await response.json()) as { message: string }).message}` : response.status);
    }
    return seen;
  };

  const spyOnErrors = () => vi.spyOn(console, 'error').mockImplementation(() => undefined);
  let logged: ReturnType<typeof spyOnErrors>;
  beforeEach(() => {
    logged = spyOnErrors();
  });
  afterEach(() => logged.mockRestore());

  it('counts by the clientAddress a host hands over, one client per address', async () => {
    const handler = handlerWith();
    const from = (clientAddress: string) => handler(charge(), { clientAddress });
    expect(await answers([() => from('198.51.100.7'), () => from('198.51.100.7'), () => from('198.51.100.7'), () => from('198.51.100.8'), () => from('::ffff:198.51.100.8'), () => from('198.51.100.8')])).toEqual([403, 403, 429, 403, 403, 429]);
  });

  it('takes clientAddress as the socket, looked past only as far as trustProxy allows (Hono behind nginx)', async () => {
    const believed = handlerWith({ trustProxy: ['10.0.0.0/8'] });
    const proxied = (client: string) => believed(charge(client), { clientAddress: '10.0.0.5' });
    expect(await answers([() => proxied('203.0.113.1'), () => proxied('203.0.113.1'), () => proxied('203.0.113.1'), () => proxied('203.0.113.2')])).toEqual([403, 403, 429, 403]);
    const direct = handlerWith();
    const forged = (client: string) => direct(charge(client), { clientAddress: '198.51.100.7' });
    expect(await answers([() => forged('203.0.113.1'), () => forged('203.0.113.2'), () => forged('203.0.113.3')])).toEqual([403, 403, 429]);
  });

  it('refuses, naming the fix, a Fetch mount that hands over nothing to tell clients by', async () => {
    const handler = handlerWith();
    // What other hosts pass as the second argument is no address: Next.js's route context, Workers' env.
    const [bare, nextJs, workers, empty, none] = await answers([() => handler(charge()), () => handler(charge(), { params: Promise.resolve({}) } as never), () => handler(charge(), { SATANG_API_KEY: 'x' } as never), () => handler(charge(), { clientAddress: '' }), () => handler(charge(), { clientAddress: null })]);
    for (const answer of [bare, nextJs, workers, empty, none]) {
      expect(answer).toMatch(/^500 rate limits cannot tell shoppers apart: the handler was called with no client address .*there is no getClientId and trustProxy is off/);
    }
    // Told once in the server's log, whatever the `log` option does with each entry.
    expect(logged.mock.calls.filter(([text]) => String(text).includes('cannot tell shoppers apart'))).toHaveLength(1);
  });

  it('refuses a request with no X-Forwarded-For when trustProxy says a proxy writes one, and serves those that have it', async () => {
    const handler = handlerWith({ trustProxy: 1 });
    const [missing, junk, written] = await answers([() => handler(charge()), () => handler(charge('not-an-address')), () => handler(charge('203.0.113.1'))]);
    expect(missing).toMatch(/^500 rate limits cannot tell shoppers apart: trustProxy is set, but this request came with no client address and no X-Forwarded-For address written by a proxy/);
    expect(junk).toBe(missing);
    expect(written).toBe(403);
  });

  it('refuses when getClientId answers nothing and nothing else names the client, and takes an empty answer for none', async () => {
    const handler = handlerWith({ getClientId: (request) => request.headers.get('x-account') ?? '' });
    const account = new Request(charge(), { headers: { 'content-type': 'application/json', 'x-account': 'account-1' } });
    expect(await answers([() => handler(account)])).toEqual([403]);
    const [anonymous] = await answers([() => handler(charge())]);
    expect(anonymous).toContain('getClientId answered nothing');
    expect(await answers([() => handler(charge(), { clientAddress: '198.51.100.7' })])).toEqual([403]);
  });

  it('serves a mount with no way to tell clients apart when the limits are off', async () => {
    expect(await answers([() => handlerWith({ rateLimit: false })(charge())])).toEqual([403]);
    expect(logged).not.toHaveBeenCalled();
  });

  it('rejects a clientAddress that is not a string, saying what to pass', async () => {
    const handler = handlerWith();
    await expect(handler(charge(), { clientAddress: { address: '198.51.100.7' } } as never)).rejects.toThrow(ConfigurationError);
    await expect(handler(charge(), { clientAddress: 42 } as never)).rejects.toThrow(/clientAddress must be the client's IP address as a string.*getConnInfo\(c\)\.remote\.address.*got number/);
  });
});

describe('clientAddress', () => {
  describe('by default (trustProxy false)', () => {
    it('is the socket address, whatever X-Forwarded-For claims', () => {
      for (const trust of [undefined, false, 0, []] as const) {
        expect(clientOf(trust, '198.51.100.7', '203.0.113.1'), String(trust)).toBe('198.51.100.7');
        expect(clientOf(trust, '198.51.100.7', '203.0.113.1, 203.0.113.2', '10.0.0.1'), String(trust)).toBe('198.51.100.7');
      }
    });

    it('is unknown without a socket address, whatever X-Forwarded-For or a client address header claims', () => {
      expect(clientOf(false, undefined, '203.0.113.1')).toBeUndefined();
      const forged = new Request('https://shop.example/api/checkout/charges', { headers: { [CLIENT_ADDRESS_HEADER]: '198.51.100.7' } });
      expect(clientAddress(callOfRequest(forged), false)).toBeUndefined();
      expect(clientAddress(callOfRequest(forged), 1)).toBeUndefined();
    });

    it('without the Node adapter, takes the entry the platform\'s proxy wrote only when trustProxy says proxies are in front', () => {
      // The platform's proxy (hidden from the runtime) appended the address it saw, last.
      expect(clientOf(1, undefined, '198.51.100.9, 203.0.113.1')).toBe('203.0.113.1');
      expect(clientOf(2, undefined, '198.51.100.9, 203.0.113.1')).toBe('198.51.100.9');
      expect(clientOf(['10.0.0.0/8'], undefined, '198.51.100.9, 10.0.0.1')).toBe('198.51.100.9');
      expect(clientOf(0, undefined, '203.0.113.1')).toBeUndefined();
      expect(clientOf(1, undefined, 'junk')).toBeUndefined();
    });

    it('names one client one way: an IPv4-mapped socket address as IPv4, IPv6 compressed', () => {
      expect(clientOf(false, '::ffff:127.0.0.1')).toBe('127.0.0.1');
      expect(clientOf(false, '2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
      expect(clientOf(false, 'fe80::1%eth0')).toBe('fe80::1');
    });
  });

  describe('a number of proxies', () => {
    const xff = '203.0.113.1, 198.51.100.2, 192.0.2.3';

    it('counts hops in from the right, the socket being the last one', () => {
      expect(clientOf(1, '10.0.0.1', xff)).toBe('192.0.2.3');
      expect(clientOf(2, '10.0.0.1', xff)).toBe('198.51.100.2');
      expect(clientOf(3, '10.0.0.1', xff)).toBe('203.0.113.1');
    });

    it('is the leftmost entry when there are fewer entries than proxies, and the socket without any', () => {
      expect(clientOf(4, '10.0.0.1', xff)).toBe('203.0.113.1');
      expect(clientOf(10, '10.0.0.1', '192.0.2.3')).toBe('192.0.2.3');
      expect(clientOf(1, '10.0.0.1')).toBe('10.0.0.1');
    });

    it('reads several X-Forwarded-For lines as one list, in order', () => {
      expect(clientOf(2, '10.0.0.1', '203.0.113.1, 198.51.100.2', '192.0.2.3')).toBe('198.51.100.2');
      expect(clientOf(3, '10.0.0.1', '203.0.113.1, 198.51.100.2', '192.0.2.3')).toBe('203.0.113.1');
    });

    it('is not fooled by what a client prepends: only the entries the proxies added count', () => {
      // The client sent "1.1.1.1, 2.2.2.2"; the one proxy appended the address it saw.
      expect(clientOf(1, '10.0.0.1', '1.1.1.1, 2.2.2.2, 192.0.2.3')).toBe('192.0.2.3');
    });
  });

  describe('a list of trusted proxies', () => {
    const proxies = ['10.0.0.0/8', '127.0.0.1', '::1'];

    it('skips trusted addresses from the right; the first untrusted one is the client', () => {
      expect(clientOf(proxies, '10.1.2.3', '6.6.6.6, 203.0.113.9, 10.9.9.9')).toBe('203.0.113.9');
      expect(clientOf(proxies, '127.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
      expect(clientOf(proxies, '::1', '203.0.113.9, 127.0.0.1')).toBe('203.0.113.9');
    });

    it('believes nothing a socket outside the list sends', () => {
      expect(clientOf(proxies, '198.51.100.1', '203.0.113.9')).toBe('198.51.100.1');
      expect(clientOf(proxies, '11.0.0.1', '203.0.113.9')).toBe('11.0.0.1');
    });

    it('is the leftmost entry when every hop is trusted', () => {
      expect(clientOf(proxies, '10.0.0.1', '10.0.0.5, 127.0.0.1')).toBe('10.0.0.5');
    });

    it('matches CIDR ranges to the bit', () => {
      const ranges = ['192.168.1.128/25', '172.16.0.0/12', '0.0.0.0/32'];
      expect(clientOf(ranges, '192.168.1.200', '203.0.113.9')).toBe('203.0.113.9');
      expect(clientOf(ranges, '192.168.1.128', '203.0.113.9')).toBe('203.0.113.9');
      expect(clientOf(ranges, '192.168.1.127', '203.0.113.9')).toBe('192.168.1.127');
      expect(clientOf(ranges, '172.31.255.255', '203.0.113.9')).toBe('203.0.113.9');
      expect(clientOf(ranges, '172.32.0.0', '203.0.113.9')).toBe('172.32.0.0');
      expect(clientOf(['0.0.0.0/0'], '8.8.8.8', '1.1.1.1, 9.9.9.9')).toBe('1.1.1.1');
    });

    it('handles IPv6 proxies and clients, in any spelling', () => {
      const v6 = ['2001:db8::/32', 'fd00::/8'];
      expect(clientOf(v6, '2001:db8:ffff::1', '2400:CB00:0:0:0:0:0:1, fd12::7')).toBe('2400:cb00::1');
      expect(clientOf(v6, '2001:db9::1', '2400:cb00::1')).toBe('2001:db9::1');
      expect(clientOf(['::/0'], '2001:db8::1', '203.0.113.9')).toBe('203.0.113.9');
      // ::/0 is every IPv6 address, and no IPv4 one.
      expect(clientOf(['::/0'], '10.0.0.1', '203.0.113.9')).toBe('10.0.0.1');
    });

    it('treats an IPv4-mapped IPv6 address as the IPv4 address, in the list and on the wire', () => {
      expect(clientOf(['127.0.0.1'], '::ffff:127.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
      expect(clientOf(['::ffff:10.0.0.0/104'], '10.20.30.40', '::ffff:203.0.113.9')).toBe('203.0.113.9');
      expect(clientOf(['::ffff:10.0.0.0/104'], '11.0.0.1', '203.0.113.9')).toBe('11.0.0.1');
    });

    it('reads the addresses with ports and brackets that some proxies write', () => {
      expect(clientOf(['10.0.0.0/8'], '10.0.0.1', '203.0.113.5:4711')).toBe('203.0.113.5');
      expect(clientOf(['10.0.0.0/8'], '10.0.0.1', '[2001:db8::5]:443')).toBe('2001:db8::5');
      expect(clientOf(['10.0.0.0/8'], '10.0.0.1', '[2001:db8::6]')).toBe('2001:db8::6');
    });
  });

  describe('junk in X-Forwarded-For', () => {
    const junk = ['unknown', '', ' ', 'not-an-ip', '1.2.3', '1.2.3.4.5', '256.1.1.1', '010.0.0.1', '1.2.3.4/8', '2001:db8:::1', '1::2::3', '12345::1', 'fe80::1%', '::ffff:1.2.3', '"1.2.3.4"', '[1.2.3.4', '1.2.3.4:99999'];

    it('ends the walk at the entry before it, never believing it or anything behind it', () => {
      for (const entry of junk) {
        expect(clientOf(['10.0.0.0/8'], '10.0.0.1', `203.0.113.7, ${entry}`), entry).toBe('10.0.0.1');
        expect(clientOf(['10.0.0.0/8'], '10.0.0.1', `203.0.113.7, ${entry}, 10.0.0.2`), entry).toBe('10.0.0.2');
        expect(clientOf(3, '10.0.0.1', `203.0.113.7, ${entry}, 198.51.100.4`), entry).toBe('198.51.100.4');
      }
    });

    it('ends the walk at an empty entry left by a stray comma', () => {
      expect(clientOf(2, '10.0.0.1', '203.0.113.7,')).toBe('10.0.0.1');
      expect(clientOf(3, '10.0.0.1', '203.0.113.7,,198.51.100.4')).toBe('198.51.100.4');
    });
  });
});

describe('checkTrustProxy', () => {
  it('accepts false, a number of proxies and a list of addresses and ranges', () => {
    for (const value of [false, 0, 1, 3, [], ['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', '::ffff:10.0.0.0/104', '0.0.0.0/0', '::/0']]) {
      expect(() => checkTrustProxy(value), JSON.stringify(value)).not.toThrow();
    }
  });

  it('refuses anything else, saying what to set', () => {
    const wrong: unknown[] = [true, 'loopback', '10.0.0.0/8', -1, 1.5, Number.NaN, null, {}, ['10.0.0.0/33'], ['::1/129'], ['10.0.0.0/08'], ['not-an-ip'], [42], ['010.0.0.1'], ['::ffff:10.0.0.0/95'], ['']];
    for (const value of wrong) {
      expect(() => checkTrustProxy(value), String(value)).toThrow(ConfigurationError);
      expect(() => checkTrustProxy(value), String(value)).toThrow(/trustProxy.*set trustProxy to false/);
    }
  });
});

describe('rate limits through the Node adapter on a real socket', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  /** A shop on 127.0.0.1 that is sent charges without an order token: each is counted, then answered 403. */
  async function shop(options: Partial<CheckoutHandlerOptions>): Promise<string> {
    const handler = createCheckoutHandler({
      service: { baseUrl: 'http://127.0.0.1:9', merchantId: 'merchant', apiKey: 'skey_test_a_key_long_enough' },
      resolveOrder: () => null,
      rateLimit: { chargesPerWindow: 3, windowMs: ONE_WINDOW_MS },
      ...options,
    });
    server = createServer(toNodeListener(handler));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Charges sent with a new forged X-Forwarded-For (and client address header) each time. */
  async function forged(url: string, count: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const answer = await fetch(`${url}/charges`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${i}`, [CLIENT_ADDRESS_HEADER]: `198.51.100.${i}` },
        body: JSON.stringify({ orderReference: 'nope', paymentMethod: { type: 'QR_PROMPT_PAY' } }),
      });
      await answer.arrayBuffer();
      statuses.push(answer.status);
    }
    return statuses;
  }

  it('limits requests with different forged X-Forwarded-For together, by default', async () => {
    expect(await forged(await shop({}), 8)).toEqual([403, 403, 403, 429, 429, 429, 429, 429]);
  });

  it('still does when trustProxy trusts proxies the socket is not one of', async () => {
    expect(await forged(await shop({ trustProxy: ['10.0.0.0/8'] }), 5)).toEqual([403, 403, 403, 429, 429]);
  });

  it('counts each forwarded client apart once the socket is a trusted proxy', async () => {
    expect(await forged(await shop({ trustProxy: ['127.0.0.1'] }), 5)).toEqual([403, 403, 403, 403, 403]);
  });

  it('counts each forwarded client apart behind one proxy', async () => {
    expect(await forged(await shop({ trustProxy: 1 }), 5)).toEqual([403, 403, 403, 403, 403]);
  });

  it('lets getClientId decide over trustProxy', async () => {
    expect(await forged(await shop({ trustProxy: 1, getClientId: () => 'one shopper' }), 4)).toEqual([403, 403, 403, 429]);
  });
});
