import type * as z from 'zod/mini';
import { toFieldIssues } from '../validation.js';
import { BoltIntentSchema } from './bolt.js';
import { CardAuthorizationSchema } from './card-authorization.js';
import { ChargeSchema } from './charge.js';
import { PaymentLinkSchema } from './payment-link.js';
import { RefundSchema } from './refund.js';
import { TransactionSchema } from './transaction.js';

/** Every event name the service sends in the event header (`X-Beam-Event` live) of a webhook. */
export const WEBHOOK_EVENT_NAMES = [
  'charge.succeeded',
  'charge.failed',
  'payment_link.paid',
  'card_authorization.authorized',
  'card_authorization.failed',
  'card_authorization.canceled',
  'refund.succeeded',
  'refund.failed',
  'bolt_intent.paid',
  'bolt_intent.canceled',
  'bolt_intent.expired',
  'transaction.created',
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];

/**
 * The schema of each event's body. The body is the bare resource exactly as its GET endpoint
 * returns it, with no envelope, so each event reuses the resource's own schema.
 */
export const WEBHOOK_EVENT_SCHEMAS = {
  'charge.succeeded': ChargeSchema,
  'charge.failed': ChargeSchema,
  'payment_link.paid': PaymentLinkSchema,
  'card_authorization.authorized': CardAuthorizationSchema,
  'card_authorization.failed': CardAuthorizationSchema,
  'card_authorization.canceled': CardAuthorizationSchema,
  'refund.succeeded': RefundSchema,
  'refund.failed': RefundSchema,
  'bolt_intent.paid': BoltIntentSchema,
  'bolt_intent.canceled': BoltIntentSchema,
  'bolt_intent.expired': BoltIntentSchema,
  'transaction.created': TransactionSchema,
} as const satisfies Record<WebhookEventName, z.ZodMiniType>;

/** The body type of one event, e.g. `Charge` for `charge.succeeded`. */
export type WebhookEventPayload<N extends WebhookEventName> = z.infer<(typeof WEBHOOK_EVENT_SCHEMAS)[N]>;

/** A received webhook: checking `name` narrows `payload` to that event's resource. */
export type WebhookEvent = {
  [N in WebhookEventName]: { name: N; payload: WebhookEventPayload<N> };
}[WebhookEventName];

/** The outcome of {@link parseWebhookEvent}: the typed event, or why the delivery is not one. */
export type ParseWebhookEventResult = { ok: true; event: WebhookEvent } | { ok: false; error: string };

const EVENT_NAME_SET: ReadonlySet<string> = new Set(WEBHOOK_EVENT_NAMES);

/** Whether `name` is one of the events the service sends (exact, case-sensitive). */
export function isWebhookEventName(name: string): name is WebhookEventName {
  return EVENT_NAME_SET.has(name);
}

// zod/mini carries no message locale, so an unexpected enum value would only read "Invalid input".
function withReadableValueMessages(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.map((issue) =>
    issue.code === 'invalid_value' && issue.message === 'Invalid input'
      ? { ...issue, message: `must be one of ${issue.values.map(String).join(', ')}` }
      : issue,
  );
}

/**
 * Reads a webhook delivery: the event name (from the event header, `X-Beam-Event` live) and the parsed JSON body.
 * Call it only after the signature has been verified against the raw body. Unknown extra fields
 * in the body are kept; an unknown event name, or a body that does not match the event's
 * resource, is refused with a message naming the field.
 */
export function parseWebhookEvent(name: string, payload: unknown): ParseWebhookEventResult {
  if (!isWebhookEventName(name)) {
    return { ok: false, error: `unknown webhook event "${name}"; expected one of ${WEBHOOK_EVENT_NAMES.join(', ')}` };
  }
  const result = WEBHOOK_EVENT_SCHEMAS[name].safeParse(payload);
  if (!result.success) {
    const details = toFieldIssues(withReadableValueMessages(result.error.issues), payload)
      .map((issue) => (issue.field ? `${issue.field} ${issue.message}` : `payload ${issue.message}`))
      .join('; ');
    return { ok: false, error: `${name} payload is invalid: ${details}` };
  }
  // The schema was picked by `name`, so the data matches that member of the union.
  return { ok: true, event: { name, payload: result.data } as WebhookEvent };
}
