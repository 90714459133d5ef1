import type { PaymentLink } from '../../../core/schemas/payment-link.js';
import { cell, defineSection, type DashboardSection } from '../dashboard-section.js';
import type { DashboardSectionDeps, SectionQueries } from './section-queries.js';

/** The payment links of the dashboard, with the charges made on their pages; a link can be disabled. */
export function paymentLinkSection({ paymentLinks }: DashboardSectionDeps, { chargesOf, webhooksOf }: SectionQueries): DashboardSection<unknown> {
  return defineSection<PaymentLink>({
    slug: 'payment-links',
    title: 'Payment links',
    singular: 'Payment link',
    idPrefix: 'pl_',
    id: (link) => link.paymentLinkId,
    list: (merchant, page) => paymentLinks.list(merchant, page),
    get: (merchant, id) => paymentLinks.get(merchant, id),
    columns: [
      { label: 'Link', value: (link) => cell.mono(link.paymentLinkId) },
      { label: 'Status', value: (link) => cell.status(link.status) },
      { label: 'Amount', value: (link) => cell.amount(link.order.netAmount, link.order.currency) },
      { label: 'Description', value: (link) => link.order.description },
      { label: 'Reference', value: (link) => link.order.referenceId },
      { label: 'Created', value: (link) => cell.time(link.createdAt) },
    ],
    fields: [
      { label: 'Status', value: (link) => cell.status(link.status) },
      { label: 'Amount', value: (link) => cell.amount(link.order.netAmount, link.order.currency) },
      { label: 'Pay page', value: (link) => cell.url(link.url) },
      { label: 'Description', value: (link) => link.order.description },
      { label: 'Reference', value: (link) => link.order.referenceId },
      { label: 'Internal note', value: (link) => link.order.internalNote },
      { label: 'Items', value: (link) => link.order.orderItems?.length ?? 0 },
      { label: 'Paid by', value: (link) => cell.ref(paymentLinks.find(link.paymentLinkId)?.paidByChargeId, 'charges') },
      { label: 'Redirect URL', value: (link) => cell.mono(link.redirectUrl) },
      { label: 'Cancel URL', value: (link) => cell.mono(link.cancelUrl) },
      { label: 'Expires', value: (link) => cell.time(link.expiresAt) },
      { label: 'Created', value: (link) => cell.time(link.createdAt) },
      { label: 'Updated', value: (link) => cell.time(link.updatedAt) },
    ],
    related: (link, merchant) => [
      { title: 'Charges', section: 'charges', records: chargesOf(link.paymentLinkId), empty: 'Nobody has tried to pay it yet.' },
      webhooksOf(merchant, link.paymentLinkId, 'payment_link.'),
    ],
    actions: [
      {
        name: 'disable',
        label: 'Disable',
        variant: 'danger',
        done: 'Disabled: the link can no longer be paid.',
        available: (link) => link.status === 'ACTIVE' || link.status === 'EXPIRED',
        run: (link, _form, merchant) => void paymentLinks.disable(merchant, link.paymentLinkId),
      },
    ],
  });
}
