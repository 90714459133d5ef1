/**
 * `satang/server`: what a merchant runs on its server. The checkout handler the widget talks to,
 * a typed client of the whole service API, webhook verification, and a Node adapter.
 */
export {
  createCheckoutHandler,
  CheckoutError,
  findCardData,
  type CheckoutHandlerOptions,
  type CheckoutLogEntry,
  type ResolvedOrder,
} from './checkout-handler.js';
export { MemoryCheckoutStore, type CheckoutStore } from './checkout-store.js';
export { CLIENT_ADDRESS_HEADER } from '../node/client-address.js';
export { StatusTokens, type StatusTokenKind } from './status-token.js';
export { captureAuthorization, cancelAuthorization, type CaptureOptions } from './authorizations.js';
export * from './service-client.js';
export * from './errors.js';
export { toNodeListener, toRequest, writeResponse, type FetchHandler, type NodeListenerOptions } from '../node/node-adapter.js';
export { verifyWebhookSignature, signWebhookPayload, generateTestWebhookHeaders } from '../core/webhook-signature.js';
export { parseWebhookEvent, WEBHOOK_EVENT_NAMES, type WebhookEvent, type WebhookEventName } from '../core/schemas/webhook-events.js';
