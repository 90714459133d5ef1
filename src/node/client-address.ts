/**
 * Header the Node adapter sets to the socket's remote address, replacing any value a client sent.
 * The checkout handler rate-limits by it unless `getClientId` says otherwise, looking past it into
 * `X-Forwarded-For` only as far as its `trustProxy` option allows. On runtimes without the Node
 * adapter nothing replaces it, so a client may write it: set `getClientId` there.
 */
export const CLIENT_ADDRESS_HEADER = 'x-satang-client-address';
