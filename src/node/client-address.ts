/**
 * Header the Node adapter sets to the socket's remote address, replacing any value a client sent;
 * the checkout handler rate-limits by it unless `getClientId` says otherwise.
 */
export const CLIENT_ADDRESS_HEADER = 'x-satang-client-address';
