import type { SandboxAuthorizations } from '../../authorizations/card-authorizations.js';
import type { SandboxBolt } from '../../bolt/bolt.js';
import type { HostedSteps } from '../../hosted-pages/hosted-steps.js';
import type { SandboxPaymentLinks } from '../../payment-links/payment-links.js';
import type { SandboxMerchant } from '../../partners/sandbox-merchant.js';
import type { ChargeRecord, RefundRecord } from '../../charges/charge-records.js';
import type { SandboxPayments } from '../../charges/sandbox-payments.js';
import { deliveryMerchantId, type WebhookDelivery, type WebhookDispatcher } from '../../webhooks/webhook-dispatcher.js';
import type { RelatedTable } from '../dashboard-section.js';
import { indexKeys } from '../../store/sandbox-store.js';

/** What the dashboard's sections read and act through: the same objects the API routes use. */
export interface DashboardSectionDeps {
  payments: SandboxPayments;
  authorizations: SandboxAuthorizations;
  webhooks: WebhookDispatcher;
  /** Completes pending steps exactly as the hosted pages do. */
  pages: HostedSteps;
  paymentLinks: SandboxPaymentLinks;
  bolt: SandboxBolt;
}

/** The lookups several sections share: the records that belong to another record. */
export interface SectionQueries {
  /** The charges made for a source (a payment link, a bolt intent, an authorization), newest first. */
  chargesOf: (sourceId: string) => ChargeRecord[];
  /** The refunds of a charge, newest first. */
  refundsOf: (chargeId: string) => RefundRecord[];
  /** The merchant's webhook deliveries, newest first; `of` keeps those about one resource. */
  deliveries: (merchant: SandboxMerchant, of?: { resourceId: string; events: readonly string[] }) => WebhookDelivery[];
  /** The table of the webhooks sent about one resource, by the prefixes of their events. */
  webhooksOf: (merchant: SandboxMerchant, resourceId: string, ...events: string[]) => RelatedTable;
}

/** The {@link SectionQueries} over the sandbox's store and webhook log. */
export function sectionQueries({ payments, webhooks }: DashboardSectionDeps): SectionQueries {
  const { store } = payments;
  const deliveries: SectionQueries['deliveries'] = (merchant, of) =>
    webhooks
      .list()
      .filter(
        (delivery) =>
          deliveryMerchantId(delivery) === merchant.merchantId &&
          (of === undefined || (delivery.resourceId === of.resourceId && of.events.some((prefix) => delivery.event.startsWith(prefix)))),
      );
  return {
    chargesOf: (sourceId) => [...store.charges.values()].filter(({ charge }) => charge.sourceId === sourceId).sort((a, b) => b.seq - a.seq),
    refundsOf: (chargeId) => [...store.refunds.newestFirst(indexKeys.charge(chargeId))],
    deliveries,
    webhooksOf: (merchant, resourceId, ...events) => ({
      title: 'Webhooks',
      section: 'webhooks',
      records: deliveries(merchant, { resourceId, events }),
      empty: webhooks.enabled ? 'No webhook was sent for it.' : 'Webhooks are off in this sandbox.',
    }),
  };
}
