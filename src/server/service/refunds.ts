import { CreateRefundResponseSchema, RefundSchema, type CreateRefundRequest, type CreateRefundResponse, type Refund } from '../../core/schemas/refund.js';
import { pathSegment, type ReadOptions, type RequestOptions, type ServiceTransport } from './transport.js';

/** Refunds of succeeded charges. */
export interface RefundsApi {
  /**
   * Refunds a charge, all of it without `amount`, part of it (CARD only) with one. The refund
   * starts PENDING; read it or wait for `refund.succeeded` / `refund.failed`.
   */
  create(body: CreateRefundRequest, options?: RequestOptions): Promise<CreateRefundResponse>;
  /** Reads one refund, e.g. to learn whether it has settled. */
  get(refundId: string, options?: ReadOptions): Promise<Refund>;
}

/** The refunds of the service, over `transport`. */
export function refundsApi(transport: ServiceTransport): RefundsApi {
  return {
    create: async (body, o) => transport.call(CreateRefundResponseSchema, { method: 'POST', path: '/api/v1/refunds', body }, o),
    get: async (refundId, o) => transport.call(RefundSchema, { method: 'GET', path: `/api/v1/refunds/${pathSegment('refundId', refundId)}` }, o),
  };
}
