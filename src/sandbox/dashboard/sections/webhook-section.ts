import { SandboxError } from '../../http/sandbox-error.js';
import { deliveryMerchantId, type WebhookAttempt, type WebhookDelivery } from '../../webhooks/webhook-dispatcher.js';
import { cell, defineSection, relatedTable, type Column, type DashboardSection } from '../dashboard-section.js';
import type { DashboardSectionDeps, SectionQueries } from './section-queries.js';

const ATTEMPT_COLUMNS: Column<WebhookAttempt>[] = [
  { label: 'Started', value: (attempt) => cell.time(attempt.at) },
  { label: 'Response', value: (attempt) => attempt.httpStatus },
  { label: 'Error', value: (attempt) => attempt.error },
  { label: 'Duration (ms)', value: (attempt) => attempt.durationMs },
];

/** The webhook deliveries of the dashboard, each with its attempts; one can be sent again. */
export function webhookSection({ webhooks }: DashboardSectionDeps, { deliveries }: SectionQueries): DashboardSection<unknown> {
  return defineSection<WebhookDelivery>({
    slug: 'webhooks',
    title: 'Webhooks',
    singular: 'Webhook delivery',
    idPrefix: 'whd_',
    hint: webhooks.enabled
      ? 'Every webhook the sandbox sent about your records, with each attempt. Re-send one to replay it to your receiver.'
      : 'Webhooks are off: start the sandbox with a webhook URL (--webhook-url, or the webhook option) to have them sent and listed here.',
    id: (delivery) => delivery.deliveryId,
    list: (merchant, page) => {
      const all = deliveries(merchant);
      return { data: all.slice(page.offset, page.offset + page.limit), totalCount: all.length };
    },
    get: (merchant, id) => {
      const delivery = webhooks.get(id);
      if (!delivery || deliveryMerchantId(delivery) !== merchant.merchantId) throw new SandboxError('NOT_FOUND_ERROR', `This sandbox has no webhook delivery ${id}.`);
      return delivery;
    },
    columns: [
      { label: 'Delivery', value: (d) => cell.mono(d.deliveryId) },
      { label: 'Event', value: (d) => cell.mono(d.event) },
      { label: 'Status', value: (d) => cell.status(d.status) },
      { label: 'Attempts', value: (d) => d.attempts.length },
      { label: 'Last response', value: (d) => lastResponse(d) },
      { label: 'Resource', value: (d) => cell.ref(d.resourceId, sectionOfEvent(d.event)) },
      { label: 'Created', value: (d) => cell.time(d.createdAt) },
    ],
    fields: [
      { label: 'Event', value: (d) => cell.mono(d.event) },
      { label: 'Status', value: (d) => cell.status(d.status) },
      { label: 'Resource', value: (d) => cell.ref(d.resourceId, sectionOfEvent(d.event)) },
      { label: 'Sent to', value: (d) => cell.mono(d.url) },
      { label: 'Attempts', value: (d) => d.attempts.length },
      { label: 'Last response', value: (d) => lastResponse(d) },
      { label: 'Next attempt', value: (d) => cell.time(d.nextAttemptAt) },
      { label: 'Created', value: (d) => cell.time(d.createdAt) },
      { label: 'Body', value: (d) => cell.code(prettyJson(d.body)) },
    ],
    related: (d) => [relatedTable('Attempts', ATTEMPT_COLUMNS, d.attempts, 'No attempt has finished yet.')],
    actions: [
      {
        name: 'resend',
        label: 'Re-send',
        variant: 'primary',
        done: 'Sent again: this is the new delivery, with the same event and body.',
        available: () => webhooks.enabled,
        run: (d) => {
          const again = webhooks.redeliver(d.deliveryId);
          if (!again) throw new SandboxError('OPERATION_NOT_ALLOWED_ERROR', 'This delivery can no longer be sent again: webhooks are off or the sandbox is closing.');
          return { section: 'webhooks', id: again.deliveryId };
        },
      },
    ],
  });
}

/** The section a webhook event's resource belongs to, by the event's name. */
function sectionOfEvent(event: string): string | undefined {
  if (event.startsWith('charge.')) return 'charges';
  if (event.startsWith('refund.')) return 'refunds';
  if (event.startsWith('transaction.')) return 'transactions';
  if (event.startsWith('card_authorization.')) return 'card-authorizations';
  if (event.startsWith('payment_link.')) return 'payment-links';
  if (event.startsWith('bolt_intent.')) return 'bolt-intents';
  return undefined;
}

function lastResponse(delivery: WebhookDelivery): string | number | null {
  const last = delivery.attempts.at(-1);
  if (!last) return null;
  return last.httpStatus ?? last.error;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
