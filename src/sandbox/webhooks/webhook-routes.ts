import { pageParams } from '../http/list-params.js';
import { apiRoute, type SandboxRoute } from '../http/route.js';
import { jsonResponse, SandboxError } from '../http/sandbox-error.js';
import type { WebhookDispatcher } from './webhook-dispatcher.js';

/** The sandbox's own webhook log: every delivery, newest first, and sending one again. */
export function webhookRoutes(webhooks: WebhookDispatcher): SandboxRoute[] {
  return [
    apiRoute('GET', '/sandbox/v1/webhook-deliveries', ({ url }) => {
      const page = pageParams(url.searchParams);
      const all = webhooks.list();
      return jsonResponse(200, { data: all.slice(page.offset, page.offset + page.limit), totalCount: all.length });
    }),
    apiRoute(
      'POST',
      '/sandbox/v1/webhook-deliveries/:deliveryId/redeliver',
      ({ params }) => {
        const delivery = webhooks.redeliver(params.deliveryId);
        if (!delivery) throw new SandboxError('NOT_FOUND_ERROR', `no webhook delivery with id ${params.deliveryId}`);
        return jsonResponse(202, delivery);
      },
      { bodyless: true },
    ),
  ];
}
