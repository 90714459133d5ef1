/**
 * The socket address of each request the Node adapter made, kept beside the request object and
 * never in a header: nothing a client writes can pose as it, on any runtime. The checkout handler
 * rate-limits by it unless `getClientId` says otherwise, looking past it into `X-Forwarded-For`
 * only as far as its `trustProxy` option allows.
 */
const socketAddresses = new WeakMap<Request, string>();

/** Records the address of the socket `request` came in on (the Node adapter does this). */
export function rememberSocketAddress(request: Request, address: string): void {
  socketAddresses.set(request, address);
}

/** The socket address `request` came in on, when the Node adapter made it; undefined otherwise. */
export function socketAddressOf(request: Request): string | undefined {
  return socketAddresses.get(request);
}

/**
 * A header a client may write and nothing here believes: the Node adapter removes it from every
 * request, so code that once read it finds nothing rather than a forged address. The address is
 * read with {@link socketAddressOf}.
 */
export const CLIENT_ADDRESS_HEADER = 'x-satang-client-address';
