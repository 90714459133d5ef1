import { isHttpsOrLoopback } from '../core/url.js';
import { CheckoutClientError } from './client-error.js';
import { fetchJson } from './http.js';

/** Where and as whom the browser tokenizes cards: the service and the merchant's publishable key. */
export interface TokenizeConfig {
  serviceUrl: string;
  merchantId: string;
  publishableKey: string;
}

/** Card details as the tokenization endpoint takes them. They go nowhere else. */
export interface CardDetails {
  pan: string;
  expiryMonth: number;
  expiryYear: number;
  cardHolderName: string;
}

/**
 * Sends the card to `POST /client/v1/card-tokens` with the publishable key, straight from the
 * shopper's browser to the service, and answers the token id. The merchant's server never sees
 * the number. Refuses a service URL that is not https (or http on this machine).
 */
export async function createCardToken(config: TokenizeConfig, card: CardDetails, signal?: AbortSignal): Promise<string> {
  let url: URL;
  try {
    url = new URL('/client/v1/card-tokens', config.serviceUrl);
  } catch {
    throw new CheckoutClientError('config', 'service-url is not a URL', 'CONFIG', false);
  }
  if (!isHttpsOrLoopback(url)) throw new CheckoutClientError('config', 'service-url must be https', 'CONFIG', false);
  const body = (await fetchJson(
    url.href,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${btoa(`${config.merchantId}:${config.publishableKey}`)}`,
      },
      body: JSON.stringify(card),
    },
    signal,
  )) as { id?: unknown };
  if (typeof body.id !== 'string') throw new CheckoutClientError('server', 'no token in the answer');
  return body.id;
}
