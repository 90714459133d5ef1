import { CardTokenSchema, type CardToken, type CreateCardTokenRequest } from '../../core/schemas/card-token.js';
import type { RequestOptions, ServiceTransport } from './transport.js';

/** Card tokens, created with the publishable key. */
export interface CardTokensApi {
  /**
   * Tokenizes a card (`POST /client/v1/card-tokens`) for a later CARD_TOKEN charge. Needs
   * `publishableKey`; rejects with `ConfigurationError` without it.
   */
  create(body: CreateCardTokenRequest, options?: RequestOptions): Promise<CardToken>;
}

/** Card tokenization, signed with the publishable key, over `transport`. */
export function cardTokensApi(transport: ServiceTransport): CardTokensApi {
  return {
    create: async (body, o) => transport.call(CardTokenSchema, { method: 'POST', path: '/client/v1/card-tokens', body, key: 'publishable' }, o),
  };
}
