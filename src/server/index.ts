/**
 * `satang/server`: what a merchant runs on its server. The checkout handler the widget talks to,
 * a typed client of the whole service API, webhook verification, and a Node adapter.
 */
export { createCheckoutHandler, type CheckoutConnection, type CheckoutHandler } from './checkout/create-checkout-handler.js';
export { CheckoutError } from './checkout/checkout-error.js';
export { findCardData } from './checkout/find-card-data.js';
export type { CheckoutHandlerOptions, CheckoutLogEntry, PaidOrder, ResolvedOrder, ResolveOrderPurpose, ReturnUrlOptions } from './checkout/checkout-options.js';
export { ORDER_RECORD_TTL_MS, ORDER_TOKEN_TTL_MS, STATUS_CACHE_TTL_MS, WEBHOOK_MAX_BODY_BYTES } from './checkout/checkout-options.js';
export type { OrderEvent, OrderEventType } from './checkout/order-events.js';
export { ATTEMPT_CREATE_TTL_MS, ATTEMPT_OPEN_TTL_MS } from './checkout/order-decisions.js';
export { CheckoutStoreError, MemoryCheckoutStore, type CheckoutStore } from './checkout/checkout-store.js';
export { CheckoutRecordError } from './checkout/checkout-records.js';
export { CLIENT_ADDRESS_HEADER } from '../node/client-address.js';
export { StatusTokens, type StatusTokenKind } from './checkout/status-tokens.js';
export { OrderTokens, ORDER_REFERENCE_MAX_LENGTH, type OrderTokenCheck, type OrderTokensOptions } from './checkout/order-tokens.js';
export { ServiceClient, type ServiceClientOptions } from './service/service-client.js';
export { captureAuthorization, cancelAuthorization, type CaptureOptions, type CardAuthorizationsApi } from './service/card-authorizations.js';
export { type ChargeListQuery, type ChargesApi } from './service/charges.js';
export { type CardTokensApi } from './service/card-tokens.js';
export { type RefundsApi } from './service/refunds.js';
export { type PaymentLinksApi } from './service/payment-links.js';
export { type TransactionsApi } from './service/transactions.js';
export { type BoltDevicesApi, type BoltIntentsApi } from './service/bolt.js';
export { ITERATE_PAGE_SIZE } from './service/list-pages.js';
export {
  CLIENT_ERROR_CODES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_TIMEOUT_MS,
  MAX_RETRY_DELAY_MS,
  parseRetryAfterMs,
  type ReadOptions,
  type RequestOptions,
} from './service/transport.js';
export * from './errors.js';
export { toNodeListener, toRequest, writeResponse, type FetchHandler, type NodeListener, type NodeListenerOptions } from '../node/node-adapter.js';
export { verifyWebhookSignature, signWebhookPayload, generateTestWebhookHeaders } from '../core/webhook-signature.js';
export { parseWebhookEvent, WEBHOOK_EVENT_NAMES, type WebhookEvent, type WebhookEventName } from '../core/schemas/webhook-events.js';
