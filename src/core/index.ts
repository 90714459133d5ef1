/**
 * `satang/core`: the service's types and rules, free of DOM and Node, for the browser, the
 * merchant server and the sandbox alike. Every schema is zod/mini, so importing one into a
 * browser bundle does not bring full zod.
 */
export * from './constants.js';
export * from './service-error.js';
export * from './validation.js';
export * from './request-body.js';
export * from './card.js';
export * from './base64.js';
export * from './emv-qr.js';
export * from './webhook-signature.js';
export * from './schemas/common.js';
export * from './schemas/payment-method.js';
export * from './schemas/charge.js';
export * from './schemas/card-token.js';
export * from './schemas/card-authorization.js';
export * from './schemas/refund.js';
export * from './schemas/transaction.js';
export * from './schemas/payment-link.js';
export * from './schemas/bolt.js';
export * from './schemas/webhook-events.js';
export * from './schemas/checkout.js';
export * from './schemas/qr-slip.js';
export * from './url.js';
export * from './card-rules.js';
export * from './money.js';
export * from './installments.js';
export * from './device.js';
export * from './failure.js';
