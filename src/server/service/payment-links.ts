import {
  CreatePaymentLinkResponseSchema,
  PaymentLinkSchema,
  type CreatePaymentLinkRequest,
  type CreatePaymentLinkResponse,
  type PaymentLink,
} from '../../core/schemas/payment-link.js';
import { pathSegment, type ReadOptions, type RequestOptions, type ServiceTransport } from './transport.js';

/** Payment links: hosted, single-use payment pages. */
export interface PaymentLinksApi {
  /** Creates a link; send the shopper to the answer's `url`. */
  create(body: CreatePaymentLinkRequest, options?: RequestOptions): Promise<CreatePaymentLinkResponse>;
  /** Reads one link, e.g. to learn whether it was paid. */
  get(paymentLinkId: string, options?: ReadOptions): Promise<PaymentLink>;
  /** Stops a link from being paid (`PATCH .../disable`), e.g. when the order is canceled. */
  disable(paymentLinkId: string, options?: RequestOptions): Promise<PaymentLink>;
}

/** The payment links of the service, over `transport`. */
export function paymentLinksApi(transport: ServiceTransport): PaymentLinksApi {
  const link = (id: string) => `/api/v1/payment-links/${pathSegment('paymentLinkId', id)}`;
  return {
    create: async (body, o) => transport.call(CreatePaymentLinkResponseSchema, { method: 'POST', path: '/api/v1/payment-links', body }, o),
    get: async (id, o) => transport.call(PaymentLinkSchema, { method: 'GET', path: link(id) }, o),
    disable: async (id, o) => transport.call(PaymentLinkSchema, { method: 'PATCH', path: `${link(id)}/disable`, body: {} }, o),
  };
}
