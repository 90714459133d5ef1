/**
 * What a verified webhook says, to handle each state of a resource once, newest first. The
 * service's webhooks carry no event id, timestamp or nonce: a delivery is identified by what its
 * signed body says, the resource (kind and id), its status and its `updatedAt`. Those also order
 * the states of one resource: a later `updatedAt` is a later state, and at the same `updatedAt`
 * the state further along the resource's life is the later one.
 */

import type { WebhookEvent, WebhookEventName } from '../../core/schemas/webhook-events.js';

/** One state of one resource, as a webhook tells it. */
export interface WebhookState {
  /**
   * `kind:id`, e.g. `charge:ch_…`. The kind is the event name's prefix, so a `transaction.created`
   * is a resource of its own although its id is the charge's or the refund's.
   */
  resource: string;
  /** The resource's status (a transaction's type: it has one state only). */
  status: string;
  /** `updatedAt` (`createdAt` when there is none) exactly as the service wrote it. */
  at: string;
  /** Orders the states of the resource (see {@link stateVersion}); undefined when `at` is no time. */
  version: number | undefined;
}

/**
 * The member naming each kind's resource. A refund's body also names its charge, and a
 * transaction's is not the charge: each is a resource of its own, ordered and deduplicated apart.
 */
const RESOURCE_ID: Readonly<Record<string, string>> = {
  charge: 'chargeId',
  refund: 'refundId',
  transaction: 'transactionId',
  card_authorization: 'cardAuthorizationId',
  payment_link: 'paymentLinkId',
  bolt_intent: 'id',
};

/** How many lifecycle ranks a version leaves room for at each millisecond. */
const RANKS = 8;

/**
 * How far along its life each status of a resource is, to order two states written in the same
 * millisecond. A charge can go from FAILED to SUCCEEDED (a transfer slip proves the payment), never
 * back; a card authorization goes through AUTHORIZED to one of its ends.
 */
const LIFECYCLE: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  charge: { PENDING: 0, FAILED: 1, SUCCEEDED: 2 },
  refund: { PENDING: 0, FAILED: 1, SUCCEEDED: 1 },
  card_authorization: { PENDING: 0, AUTHORIZED: 1, FAILED: 2, CANCELED: 2, EXPIRED: 2, CAPTURED: 2 },
  payment_link: { ACTIVE: 0, PAID: 1, EXPIRED: 1, DISABLED: 1 },
  bolt_intent: { ACTIVE: 0, PAID: 1, CANCELED: 1, EXPIRED: 1, VOIDED: 2, REFUNDED: 2 },
};

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

/**
 * A number that orders the states of one resource of `kind`: the time in milliseconds, then the
 * status's lifecycle rank. Undefined when `at` is not a time.
 */
export function stateVersion(kind: string, status: string, at: string | null | undefined): number | undefined {
  const ms = typeof at === 'string' ? Date.parse(at) : Number.NaN;
  if (!Number.isFinite(ms)) return undefined;
  return ms * RANKS + (LIFECYCLE[kind]?.[status] ?? 0);
}

/** The version of a state learnt now, of the furthest rank: for a status known without its resource's time. */
export function versionNow(): number {
  return Date.now() * RANKS + (RANKS - 1);
}

/** Whether the state is from before `ms` (epoch milliseconds); false when its time is unknown. */
export function olderThan(state: WebhookState, ms: number): boolean {
  return state.version !== undefined && state.version < ms * RANKS;
}

/** The resource state a webhook tells. */
export function webhookState(event: WebhookEvent): WebhookState {
  const p = event.payload as Record<string, unknown>;
  const kind = event.name.slice(0, event.name.indexOf('.'));
  const id = p[RESOURCE_ID[kind] ?? 'id'];
  const status = String(p.status ?? p.transactionType);
  const at = p.updatedAt ?? p.createdAt;
  return {
    resource: `${kind}:${String(id)}`,
    status,
    at: String(at),
    version: stateVersion(kind, status, typeof at === 'string' ? at : undefined),
  };
}

/** Why the event header does not fit the signed body, or undefined when it does. */
export function eventStatusMismatch(event: WebhookEvent): string | undefined {
  if (event.name === 'transaction.created') return undefined;
  const expected = EVENT_STATUS[event.name];
  const status = (event.payload as { status?: unknown }).status;
  return status === expected ? undefined : `${event.name} must carry a resource whose status is ${expected}, not ${String(status)}`;
}
