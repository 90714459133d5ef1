import { pageParams } from '../http/list-params.js';
import { apiRoute, type SandboxRoute } from '../http/route.js';
import { jsonResponse, SandboxError } from '../http/sandbox-error.js';
import { deliveryMerchantId, type WebhookDispatcher } from './webhook-dispatcher.js';

/**
 * The sandbox's own webhook log: the calling merchant's deliveries, newest first, and sending one
 * of them again. Another merchant's delivery is not found.
 */
export function webhookRoutes(webhooks: WebhookDispatcher): SandboxRoute[] {
  return [
    apiRoute('GET', '/sandbox/v1/webhook-deliveries', ({ url, merchant }) => {
      const page = pageParams(url.searchParams);
      const all = webhooks.list().filter((delivery) => deliveryMerchantId(delivery) === merchant.merchantId);
      return jsonResponse(200, { data: all.slice(page.offset, page.offset + page.limit), totalCount: all.length });
    }),
    apiRoute(
      'POST',
      '/sandbox/v1/webhook-deliveries/:deliveryId/redeliver',
      ({ params, merchant }) => {
        const original = webhooks.get(params.deliveryId);
        const delivery = original && deliveryMerchantId(original) === merchant.merchantId ? webhooks.redeliver(params.deliveryId) : undefined;
        if (!delivery) throw new SandboxError('NOT_FOUND_ERROR', `no webhook delivery with id ${params.deliveryId}`);
        return jsonResponse(202, delivery);
      },
      { bodyless: true },
    ),
  ];
}
