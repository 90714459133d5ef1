/**
 * What the checkout handler works out from a verified webhook before handling it.
 */

import type { WebhookEvent, WebhookEventName } from '../core/schemas/webhook-events.js';

/**
 * The status the body of each event must have. The signature covers the body only, not the
 * event header: without this, a genuine `charge.failed` body sent again under `charge.succeeded`
 * would pass for a payment.
 */
const EVENT_STATUS: Readonly<Record<Exclude<WebhookEventName, 'transaction.created'>, string>> = {
  'charge.succeeded': 'SUCCEEDED',
  'charge.failed': 'FAILED',
  'payment_link.paid': 'PAID',
  'card_authorization.authorized': 'AUTHORIZED',
  'card_authorization.failed': 'FAILED',
  'card_authorization.canceled': 'CANCELED',
  'refund.succeeded': 'SUCCEEDED',
  'refund.failed': 'FAILED',
  'bolt_intent.paid': 'PAID',
  'bolt_intent.canceled': 'CANCELED',
  'bolt_intent.expired': 'EXPIRED',
};

/** Why the event header does not fit the signed body, or undefined when it does. */
export function eventStatusMismatch(event: WebhookEvent): string | undefined {
  if (event.name === 'transaction.created') return undefined;
  const expected = EVENT_STATUS[event.name];
  const status = (event.payload as { status?: unknown }).status;
  return status === expected ? undefined : `${event.name} must carry a resource whose status is ${expected}, not ${String(status)}`;
}
