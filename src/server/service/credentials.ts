import { base64Encode } from '../../core/base64.js';
import type { ServiceHeaders } from '../../core/constants.js';
import { ConfigurationError } from '../errors.js';
import type { ServiceClientOptions } from './service-client.js';

/** The headers each kind of key signs a call with. */
export interface Credentials {
  /** `accept` and the secret key's `authorization`; for a partner key, its partner id header too. */
  secretHeaders: Headers;
  /** HTTP Basic of the publishable key, when one was given. */
  publishableAuthorization: string | undefined;
}

/**
 * Who the client acts as: a merchant with its own API key, or a partner with its key acting for
 * `merchantId` (the partner id header then goes on every `/api` call). Throws `ConfigurationError`
 * saying what to set when the keys cannot work.
 */
export function resolveCredentials(options: Pick<ServiceClientOptions, 'merchantId' | 'apiKey' | 'partner' | 'publishableKey'>, headers: ServiceHeaders): Credentials {
  if (typeof options.merchantId !== 'string' || options.merchantId.trim() === '') {
    throw new ConfigurationError('merchantId is required: set it to your merchant id (in the sandbox, SANDBOX_DEFAULTS.merchantId)');
  }
  // HTTP Basic ends the user name at the first colon, so such an id could never authenticate.
  if (options.merchantId.includes(':')) throw new ConfigurationError('merchantId must not contain ":"');

  if (options.apiKey !== undefined && options.partner !== undefined) {
    throw new ConfigurationError('set either apiKey (a merchant key) or partner (a partner key acting for merchantId), not both');
  }
  let secretKey: string;
  const secretHeaders = new Headers({ accept: 'application/json' });
  if (options.partner !== undefined) {
    // Checked as given, since a JavaScript caller may pass anything.
    const partner: unknown = options.partner;
    if (typeof partner !== 'object' || partner === null) throw new ConfigurationError('partner must be { partnerId, apiKey }');
    const { partnerId, apiKey } = options.partner;
    if (typeof partnerId !== 'string' || partnerId.trim() === '') throw new ConfigurationError('partner.partnerId is required: set it to your partner id');
    if (typeof apiKey !== 'string' || apiKey === '') throw new ConfigurationError('partner.apiKey is required: set it to your partner API key');
    secretKey = apiKey;
    secretHeaders.set(headers.partnerId, partnerId);
  } else if (options.apiKey !== undefined) {
    if (typeof options.apiKey !== 'string' || options.apiKey === '') throw new ConfigurationError('apiKey must not be empty: set it to your merchant API key');
    secretKey = options.apiKey;
  } else {
    throw new ConfigurationError('no credentials: set apiKey to your merchant API key, or partner to { partnerId, apiKey } of a partner key');
  }
  if (options.publishableKey !== undefined && (typeof options.publishableKey !== 'string' || options.publishableKey === '')) {
    throw new ConfigurationError('publishableKey must not be empty: set it to your publishable key, or leave it out');
  }
  secretHeaders.set('authorization', basicAuthorization(options.merchantId, secretKey));
  return {
    secretHeaders,
    publishableAuthorization: options.publishableKey === undefined ? undefined : basicAuthorization(options.merchantId, options.publishableKey),
  };
}

function basicAuthorization(user: string, key: string): string {
  return `Basic ${base64Encode(new TextEncoder().encode(`${user}:${key}`))}`;
}
