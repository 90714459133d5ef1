import {
  ChargeListSchema,
  ChargeSchema,
  CreateChargeResponseSchema,
  type Charge,
  type ChargeList,
  type ChargeSource,
  type CreateChargeRequest,
  type CreateChargeResponse,
} from '../../core/schemas/charge.js';
import type { ListQuery } from '../../core/schemas/common.js';
import { VerifyQrSlipResponseSchema, type VerifyQrSlipRequest, type VerifyQrSlipResponse } from '../../core/schemas/qr-slip.js';
import { listPages, pageQuery } from './list-pages.js';
import { pathSegment, type ReadOptions, type RequestOptions, type ServiceTransport } from './transport.js';

/** Filters and paging of `GET /api/v1/charges`. */
export interface ChargeListQuery extends ListQuery {
  /** Only charges created with this reference. */
  referenceId?: string;
  /** Only charges from these sources (sent as `source_in`, comma separated). */
  sourceIn?: readonly ChargeSource[];
  /** Only charges of this source, e.g. one payment link. */
  sourceId?: string;
}

/** Direct charges: create, read, list and verify by bank slip. */
export interface ChargesApi {
  /**
   * Creates a charge (`POST /api/v1/charges`). The answer says what the shopper does next
   * (`actionRequired`) but carries no status: read the charge, or wait for its webhook.
   */
  create(body: CreateChargeRequest, options?: RequestOptions): Promise<CreateChargeResponse>;
  /** Reads one charge, e.g. to learn its status after a redirect or a missed webhook. */
  get(chargeId: string, options?: ReadOptions): Promise<Charge>;
  /** Reads one page of charges, newest first, optionally filtered. */
  list(query?: ChargeListQuery, options?: ReadOptions): Promise<ChargeList>;
  /**
   * Every charge matching `query`, newest first, fetched page by page as the loop asks for them
   * (`query.limit` is the page size, {@link ITERATE_PAGE_SIZE} by default). A charge that moves to
   * a later page while iterating (new charges arrive at the front) is yielded once, not twice.
   */
  iterate(query?: ChargeListQuery, options?: ReadOptions): AsyncIterable<Charge>;
  /**
   * Matches the QR text of a shopper's bank transfer slip to its charge and sets that charge to
   * SUCCEEDED (`POST /api/v1/charges/verify-qr-slip`). No matching charge: `NotFoundError`.
   */
  verifyQrSlip(body: VerifyQrSlipRequest, options?: RequestOptions): Promise<VerifyQrSlipResponse>;
}

/** The charges of the service, over `transport`. */
export function chargesApi(transport: ServiceTransport): ChargesApi {
  const api: ChargesApi = {
    create: async (body, o) => transport.call(CreateChargeResponseSchema, { method: 'POST', path: '/api/v1/charges', body }, o),
    get: async (chargeId, o) => transport.call(ChargeSchema, { method: 'GET', path: `/api/v1/charges/${pathSegment('chargeId', chargeId)}` }, o),
    list: async (query, o) => transport.call(ChargeListSchema, { method: 'GET', path: '/api/v1/charges', query: chargeQuery(query) }, o),
    iterate: (query, o) => listPages((page) => api.list({ ...query, ...page }, o), query, (charge) => charge.chargeId),
    verifyQrSlip: async (body, o) => transport.call(VerifyQrSlipResponseSchema, { method: 'POST', path: '/api/v1/charges/verify-qr-slip', body }, o),
  };
  return api;
}

function chargeQuery(query: ChargeListQuery | undefined): URLSearchParams {
  const params = pageQuery(query);
  if (query?.referenceId !== undefined) params.set('referenceId', query.referenceId);
  if (query?.sourceIn !== undefined && query.sourceIn.length > 0) params.set('source_in', query.sourceIn.join(','));
  if (query?.sourceId !== undefined) params.set('sourceId', query.sourceId);
  return params;
}
