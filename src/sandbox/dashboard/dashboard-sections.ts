import type { DashboardSection } from './dashboard-section.js';
import { authorizationSection } from './sections/authorization-section.js';
import { boltSections } from './sections/bolt-sections.js';
import { chargeSections } from './sections/charge-sections.js';
import { paymentLinkSection } from './sections/payment-link-section.js';
import { sectionQueries, type DashboardSectionDeps } from './sections/section-queries.js';
import { webhookSection } from './sections/webhook-section.js';

/**
 * The sections of the sandbox dashboard, in the order of its navigation. Each is one declarative
 * entry; the actions call the same methods as the API routes and hosted pages, so they produce the
 * same records, webhooks and transactions.
 */
export function sandboxDashboardSections(deps: DashboardSectionDeps): DashboardSection<unknown>[] {
  const queries = sectionQueries(deps);
  const { charges, refunds, transactions } = chargeSections(deps, queries);
  const { intents, devices, connections } = boltSections(deps, queries);
  return [charges, refunds, transactions, authorizationSection(deps, queries), paymentLinkSection(deps, queries), intents, devices, connections, webhookSection(deps, queries)];
}
