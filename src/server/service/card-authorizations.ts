import {
  CaptureCardAuthorizationResponseSchema,
  CardAuthorizationListSchema,
  CardAuthorizationSchema,
  CreateCardAuthorizationResponseSchema,
  type CaptureCardAuthorizationRequest,
  type CaptureCardAuthorizationResponse,
  type CardAuthorization,
  type CardAuthorizationList,
  type CreateCardAuthorizationRequest,
  type CreateCardAuthorizationResponse,
} from '../../core/schemas/card-authorization.js';
import { ChargeListSchema, type ChargeList } from '../../core/schemas/charge.js';
import type { ListQuery } from '../../core/schemas/common.js';
import { listPages, pageQuery } from './list-pages.js';
import type { ServiceClient } from './service-client.js';
import { pathSegment, type ReadOptions, type RequestOptions, type ServiceTransport } from './transport.js';

/** Card authorizations: reserve an amount on a card now, capture it later. */
export interface CardAuthorizationsApi {
  /** Reserves an amount on a card; the answer may ask for a 3-D Secure redirect. */
  create(body: CreateCardAuthorizationRequest, options?: RequestOptions): Promise<CreateCardAuthorizationResponse>;
  /** Reads one page of card authorizations. */
  list(query?: ListQuery, options?: ReadOptions): Promise<CardAuthorizationList>;
  /** Every card authorization, page by page; see {@link ChargesApi.iterate}. */
  iterate(query?: ListQuery, options?: ReadOptions): AsyncIterable<CardAuthorization>;
  /** Reads one card authorization, e.g. to see how much is still capturable. */
  get(cardAuthorizationId: string, options?: ReadOptions): Promise<CardAuthorization>;
  /** Releases the reserved amount (`POST .../cancel`) when the order will not be fulfilled. */
  cancel(cardAuthorizationId: string, options?: RequestOptions): Promise<CardAuthorization>;
  /** Reads one page of the charges (captures) made on an authorization. */
  listCaptures(cardAuthorizationId: string, query?: ListQuery, options?: ReadOptions): Promise<ChargeList>;
  /** Captures part or all of the reserved amount as a charge (`POST .../charges`). */
  capture(cardAuthorizationId: string, body: CaptureCardAuthorizationRequest, options?: RequestOptions): Promise<CaptureCardAuthorizationResponse>;
}

/** The card authorizations of the service, over `transport`. */
export function cardAuthorizationsApi(transport: ServiceTransport): CardAuthorizationsApi {
  const authorization = (id: string) => `/api/v1/card-authorizations/${pathSegment('cardAuthorizationId', id)}`;
  const api: CardAuthorizationsApi = {
    create: async (body, o) => transport.call(CreateCardAuthorizationResponseSchema, { method: 'POST', path: '/api/v1/card-authorizations', body }, o),
    list: async (query, o) => transport.call(CardAuthorizationListSchema, { method: 'GET', path: '/api/v1/card-authorizations', query: pageQuery(query) }, o),
    iterate: (query, o) => listPages((page) => api.list({ ...query, ...page }, o), query, (a) => a.cardAuthorizationId),
    get: async (id, o) => transport.call(CardAuthorizationSchema, { method: 'GET', path: authorization(id) }, o),
    // The contract states no body for cancel; an empty object keeps the request plain JSON.
    cancel: async (id, o) => transport.call(CardAuthorizationSchema, { method: 'POST', path: `${authorization(id)}/cancel`, body: {} }, o),
    listCaptures: async (id, query, o) => transport.call(ChargeListSchema, { method: 'GET', path: `${authorization(id)}/charges`, query: pageQuery(query) }, o),
    capture: async (id, body, o) => transport.call(CaptureCardAuthorizationResponseSchema, { method: 'POST', path: `${authorization(id)}/charges`, body }, o),
  };
  return api;
}

/** What to capture of a card authorization; everything still capturable by default. */
export interface CaptureOptions {
  /** In satang; by default the authorization's `capturableAmount`. */
  amount?: number;
  /** The reference written on the capture charge; by default the authorization's own. */
  referenceId?: string;
  /**
   * Whether this is the last capture (what is left is released). True by default; pass false to
   * capture again later, which the authorization must allow (`supportsMulticapture`).
   */
  isFinal?: boolean;
  /** Sent as the Idempotency-Key: pass the same key when retrying the same capture. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/**
 * Captures a card authorization made by a checkout with `intent: 'authorize'`, e.g. when the order
 * ships: a charge of `amount` (all that is capturable by default) on the reserved card. Answers the
 * capture's charge id; its `charge.succeeded` webhook follows as for any charge.
 */
export async function captureAuthorization(client: ServiceClient, cardAuthorizationId: string, options: CaptureOptions = {}): Promise<{ chargeId: string; authorization: CardAuthorization }> {
  const read: RequestOptions = options.signal ? { signal: options.signal } : {};
  const authorization = await client.cardAuthorizations.get(cardAuthorizationId, read);
  const amount = options.amount ?? authorization.capturableAmount ?? authorization.amount;
  const referenceId = options.referenceId ?? authorization.referenceId ?? cardAuthorizationId;
  const { chargeId } = await client.cardAuthorizations.capture(
    cardAuthorizationId,
    { amount, currency: authorization.currency as 'THB', referenceId, isFinal: options.isFinal ?? true },
    { ...read, ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}) },
  );
  return { chargeId, authorization: await client.cardAuthorizations.get(cardAuthorizationId, read) };
}

/** Releases a card authorization that will not be captured (the order was canceled). Answers it, CANCELED. */
export function cancelAuthorization(client: ServiceClient, cardAuthorizationId: string, options: { idempotencyKey?: string; signal?: AbortSignal } = {}): Promise<CardAuthorization> {
  return client.cardAuthorizations.cancel(cardAuthorizationId, options);
}
