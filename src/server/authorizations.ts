import type { CardAuthorization } from '../core/schemas/card-authorization.js';
import type { RequestOptions, ServiceClient } from './service-client.js';

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
