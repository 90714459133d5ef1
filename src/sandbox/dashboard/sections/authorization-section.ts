import type { CardAuthorization } from '../../../core/schemas/card-authorization.js';
import { cell, defineSection, type DashboardSection } from '../dashboard-section.js';
import type { DashboardSectionDeps, SectionQueries } from './section-queries.js';
import { cardText, satangFromBaht } from './section-values.js';

/** The card authorizations of the dashboard: completed as their card step would, captured, canceled. */
export function authorizationSection({ authorizations, pages }: DashboardSectionDeps, { chargesOf, webhooksOf }: SectionQueries): DashboardSection<unknown> {
  return defineSection<CardAuthorization>({
    slug: 'card-authorizations',
    title: 'Card authorizations',
    singular: 'Card authorization',
    idPrefix: 'ca_',
    id: (a) => a.cardAuthorizationId,
    list: (merchant, page) => authorizations.list(merchant, page),
    get: (merchant, id) => authorizations.get(merchant, id),
    columns: [
      { label: 'Authorization', value: (a) => cell.mono(a.cardAuthorizationId) },
      { label: 'Status', value: (a) => cell.status(a.status) },
      { label: 'Amount', value: (a) => cell.amount(a.amount, a.currency) },
      { label: 'Captured', value: (a) => cell.amount(a.capturedAmount, a.currency) },
      { label: 'Card', value: (a) => (a.paymentMethod ? cardText(a.paymentMethod) : null) },
      { label: 'Reference', value: (a) => a.referenceId },
      { label: 'Created', value: (a) => cell.time(a.createdAt) },
    ],
    fields: [
      { label: 'Status', value: (a) => cell.status(a.status) },
      { label: 'Failure code', value: (a) => cell.mono(a.failureCode) },
      { label: 'Amount', value: (a) => cell.amount(a.amount, a.currency) },
      { label: 'Captured', value: (a) => cell.amount(a.capturedAmount, a.currency) },
      { label: 'Still capturable', value: (a) => cell.amount(a.capturableAmount, a.currency) },
      { label: 'Several captures', value: (a) => a.supportsMulticapture ?? false },
      { label: 'Card', value: (a) => (a.paymentMethod ? cardText(a.paymentMethod) : null) },
      { label: 'Latest capture', value: (a) => cell.ref(a.latestChargeId, 'charges') },
      { label: 'Reference', value: (a) => a.referenceId },
      { label: 'Authorized', value: (a) => cell.time(a.authorizedAt) },
      { label: 'Expires', value: (a) => cell.time(a.expiresAt) },
      { label: 'Created', value: (a) => cell.time(a.createdAt) },
      { label: 'Updated', value: (a) => cell.time(a.updatedAt) },
    ],
    related: (a, merchant) => [
      {
        title: 'Captures',
        section: 'charges',
        records: chargesOf(a.cardAuthorizationId),
        empty: 'Nothing captured.',
      },
      webhooksOf(merchant, a.cardAuthorizationId, 'card_authorization.'),
    ],
    actions: [
      {
        name: 'authorize',
        label: 'Mark authorized',
        variant: 'success',
        done: 'The authorization succeeded, as if the payer had completed the card step.',
        available: (a) => a.status === 'PENDING',
        run: (a) => pages.completeStep(a.cardAuthorizationId, true),
      },
      {
        name: 'fail',
        label: 'Mark failed',
        variant: 'danger',
        done: 'The authorization failed, as if the payer had failed the card step.',
        available: (a) => a.status === 'PENDING',
        run: (a) => pages.completeStep(a.cardAuthorizationId, false),
      },
      {
        name: 'capture',
        label: 'Capture',
        variant: 'primary',
        done: 'Captured: the new charge is listed below.',
        available: (a) => a.status === 'AUTHORIZED',
        inputs: () => [{ name: 'amount', label: 'Amount (THB)', hint: 'Leave empty to capture everything still capturable.', inputMode: 'decimal' }],
        run: (a, form, merchant) => {
          const amount = satangFromBaht(form.get('amount') ?? '', 'amount') ?? a.capturableAmount ?? 0;
          authorizations.capture(merchant, a.cardAuthorizationId, { amount, currency: a.currency, referenceId: a.referenceId === '' ? a.cardAuthorizationId : a.referenceId });
        },
      },
      {
        name: 'cancel',
        label: 'Cancel',
        variant: 'danger',
        done: 'Canceled: nothing is reserved on the card any more.',
        available: (a) => a.status === 'AUTHORIZED',
        run: (a, _form, merchant) => void authorizations.cancel(merchant, a.cardAuthorizationId),
      },
    ],
  });
}
