import type { BoltDevice, BoltIntent } from '../core/schemas/bolt.js';
import type { CardAuthorization } from '../core/schemas/card-authorization.js';
import { CHARGE_FAILURE_CODES } from '../core/schemas/charge.js';
import type { PaymentLink } from '../core/schemas/payment-link.js';
import type { PaymentMethodResponse } from '../core/schemas/payment-method.js';
import type { Transaction } from '../core/schemas/transaction.js';
import type { SandboxAuthorizations } from './authorizations/card-authorizations.js';
import { isChargeFailureCode } from './bolt/bolt-intents.js';
import type { SandboxBolt } from './bolt/bolt.js';
import { cell, defineSection, relatedTable, type Column, type DashboardSection, type RelatedTable } from './dashboard.js';
import type { HostedSteps as HostedPages } from './hosted-pages/hosted-steps.js';
import { paymentMethodLabel } from './http/page-layout.js';
import type { SandboxPaymentLinks } from './payment-links/payment-links.js';
import type { SandboxPayments } from './charges/sandbox-payments.js';
import type { SandboxMerchant } from './partners/sandbox-merchant.js';
import { SandboxError } from './http/sandbox-error.js';
import type { ChargeRecord, RefundRecord } from './charges/charge-records.js';
import { pageNewestFirst } from './store/sandbox-store.js';
import type { WebhookAttempt, WebhookDelivery, WebhookDispatcher } from './webhooks/webhook-dispatcher.js';

/** What the dashboard's sections read and act through: the same objects the API routes use. */
export interface DashboardSectionDeps {
  payments: SandboxPayments;
  authorizations: SandboxAuthorizations;
  webhooks: WebhookDispatcher;
  /** Completes pending steps exactly as the hosted pages do. */
  pages: HostedPages;
  paymentLinks: SandboxPaymentLinks;
  bolt: SandboxBolt;
}

/** Largest amount typed into an action form, in baht: the largest charge the sandbox takes. */
const MAX_FORM_AMOUNT_BAHT_DIGITS = 8;

/**
 * The sections of the sandbox dashboard, in the order of its navigation. Each is one declarative
 * entry; the actions call the same methods as the API routes and hosted pages, so they produce the
 * same records, webhooks and transactions.
 */
export function sandboxDashboardSections(deps: DashboardSectionDeps): DashboardSection<unknown>[] {
  const { payments, authorizations, webhooks, pages, paymentLinks, bolt } = deps;
  const store = payments.store;

  const ownCharge = (merchant: SandboxMerchant, id: string): ChargeRecord => {
    const record = store.charges.get(id);
    if (!record || record.charge.merchantId !== merchant.merchantId) throw new SandboxError('NOT_FOUND_ERROR', `This sandbox has no charge ${id}.`);
    return record;
  };
  const ownRefund = (merchant: SandboxMerchant, id: string): RefundRecord => {
    const record = store.refunds.get(id);
    if (!record || record.refund.merchantId !== merchant.merchantId) throw new SandboxError('NOT_FOUND_ERROR', `This sandbox has no refund ${id}.`);
    return record;
  };
  /** The merchant's charges made for a source (a payment link, a bolt intent, an authorization), newest first. */
  const chargesOf = (sourceId: string) => [...store.charges.values()].filter(({ charge }) => charge.sourceId === sourceId).sort((a, b) => b.seq - a.seq);
  const refundsOf = (chargeId: string) => [...store.refunds.values()].filter(({ refund }) => refund.chargeId === chargeId).sort((a, b) => b.seq - a.seq);
  /** The merchant's webhook deliveries, newest first; `of` keeps those about one resource. */
  const deliveries = (merchant: SandboxMerchant, of?: { resourceId: string; events: readonly string[] }) =>
    webhooks
      .list()
      .filter(
        (delivery) =>
          deliveryMerchantId(delivery) === merchant.merchantId &&
          (of === undefined || (delivery.resourceId === of.resourceId && of.events.some((prefix) => delivery.event.startsWith(prefix)))),
      );
  const webhooksOf = (merchant: SandboxMerchant, resourceId: string, ...events: string[]): RelatedTable => ({
    title: 'Webhooks',
    section: 'webhooks',
    records: deliveries(merchant, { resourceId, events }),
    empty: webhooks.enabled ? 'No webhook was sent for it.' : 'Webhooks are off in this sandbox.',
  });

  const charges = defineSection<ChargeRecord>({
    slug: 'charges',
    title: 'Charges',
    singular: 'Charge',
    idPrefix: 'ch_',
    id: ({ charge }) => charge.chargeId,
    list: (merchant, page) => pageNewestFirst(store.charges.values(), ({ charge }) => charge.merchantId === merchant.merchantId, (record) => record, page),
    get: ownCharge,
    columns: [
      { label: 'Charge', value: ({ charge }) => cell.mono(charge.chargeId) },
      { label: 'Status', value: ({ charge }) => cell.status(charge.status) },
      { label: 'Amount', value: ({ charge }) => cell.amount(charge.amount, charge.currency) },
      { label: 'Method', value: (record) => paymentMethodLabel(record.requestedType) },
      { label: 'Source', value: ({ charge }) => charge.source },
      { label: 'Reference', value: ({ charge }) => charge.referenceId },
      { label: 'Failure code', value: ({ charge }) => cell.mono(charge.failureCode) },
      { label: 'Created', value: ({ charge }) => cell.time(charge.createdAt) },
    ],
    fields: [
      { label: 'Status', value: ({ charge }) => cell.status(charge.status) },
      { label: 'Failure code', value: ({ charge }) => cell.mono(charge.failureCode) },
      { label: 'Amount', value: ({ charge }) => cell.amount(charge.amount, charge.currency) },
      { label: 'Refunded or refunding', value: (record) => cell.amount(record.refundedAmount, record.charge.currency) },
      { label: 'Method', value: (record) => paymentMethodLabel(record.requestedType) },
      { label: 'Payment method type', value: ({ charge }) => cell.mono(charge.paymentMethod.paymentMethodType) },
      { label: 'Card', value: ({ charge }) => cardText(charge.paymentMethod) },
      { label: 'Source', value: ({ charge }) => charge.source },
      { label: 'Source id', value: ({ charge }) => cell.ref(charge.sourceId) },
      { label: 'Reference', value: ({ charge }) => charge.referenceId },
      { label: 'Customer email', value: ({ charge }) => charge.customer?.email },
      { label: 'QR code expires', value: (record) => cell.time(record.qr?.expiresAt.toISOString()) },
      { label: 'Transaction time', value: ({ charge }) => cell.time(charge.transactionTime) },
      { label: 'Created', value: ({ charge }) => cell.time(charge.createdAt) },
      { label: 'Updated', value: ({ charge }) => cell.time(charge.updatedAt) },
    ],
    related: ({ charge }, merchant) => {
      const refunds = refundsOf(charge.chargeId);
      const transactionIds = [...refunds.map(({ refund }) => refund.refundId), charge.chargeId];
      return [
        {
          title: 'Transactions',
          section: 'transactions',
          records: transactionIds.flatMap((id) => store.transactions.get(id)?.transaction ?? []),
          empty: 'No transaction yet: one is recorded when the charge succeeds, and one per refund that succeeds.',
        },
        { title: 'Refunds', section: 'refunds', records: refunds, empty: 'Not refunded.' },
        webhooksOf(merchant, charge.chargeId, 'charge.'),
      ];
    },
    actions: [
      {
        name: 'succeed',
        label: 'Mark succeeded',
        variant: 'success',
        done: 'The charge succeeded, as if the payer had completed the payment.',
        available: ({ charge }) => charge.status === 'PENDING',
        run: ({ charge }) => pages.completeStep(charge.chargeId, true),
      },
      {
        name: 'fail',
        label: 'Mark failed',
        variant: 'danger',
        done: 'The charge failed, as if the payer had declined the payment.',
        available: ({ charge }) => charge.status === 'PENDING',
        run: ({ charge }) => pages.completeStep(charge.chargeId, false),
      },
      {
        name: 'refund',
        label: 'Refund',
        variant: 'primary',
        done: 'Refund created. It is PENDING for a moment, then SUCCEEDED or FAILED; it is listed below.',
        available: ({ charge, refundedAmount }) => charge.status === 'SUCCEEDED' && refundedAmount < charge.amount,
        inputs: ({ charge }) => [
          ...(charge.paymentMethod.paymentMethodType === 'CARD'
            ? [{ name: 'amount', label: 'Amount (THB)', hint: 'Leave empty to refund everything left; a smaller amount is a partial refund.', inputMode: 'decimal' as const }]
            : []),
          { name: 'reason', label: 'Reason', hint: 'Optional.' },
        ],
        run: ({ charge }, form, merchant) => {
          const amount = satangFromBaht(form.get('amount') ?? '', 'amount');
          const reason = (form.get('reason') ?? '').trim();
          payments.createRefund(merchant, { chargeId: charge.chargeId, ...(amount === undefined ? {} : { amount }), ...(reason === '' ? {} : { reason }) });
        },
      },
    ],
  });

  const refunds = defineSection<RefundRecord>({
    slug: 'refunds',
    title: 'Refunds',
    singular: 'Refund',
    idPrefix: 're_',
    id: ({ refund }) => refund.refundId,
    list: (merchant, page) => pageNewestFirst(store.refunds.values(), ({ refund }) => refund.merchantId === merchant.merchantId, (record) => record, page),
    get: ownRefund,
    columns: [
      { label: 'Refund', value: ({ refund }) => cell.mono(refund.refundId) },
      { label: 'Status', value: ({ refund }) => cell.status(refund.status) },
      { label: 'Amount', value: ({ refund }) => cell.amount(refund.amount, refund.currency) },
      { label: 'Charge', value: ({ refund }) => cell.ref(refund.chargeId, 'charges') },
      { label: 'Reference', value: ({ refund }) => refund.referenceId },
      { label: 'Failure code', value: ({ refund }) => cell.mono(refund.failureCode) },
      { label: 'Created', value: ({ refund }) => cell.time(refund.createdAt) },
    ],
    fields: [
      { label: 'Status', value: ({ refund }) => cell.status(refund.status) },
      { label: 'Failure code', value: ({ refund }) => cell.mono(refund.failureCode) },
      { label: 'Amount', value: ({ refund }) => cell.amount(refund.amount, refund.currency) },
      { label: 'Charge', value: ({ refund }) => cell.ref(refund.chargeId, 'charges') },
      { label: 'Reference', value: ({ refund }) => refund.referenceId },
      { label: 'Reason', value: ({ refund }) => refund.refundReason },
      { label: 'Transaction time', value: ({ refund }) => cell.time(refund.transactionTime) },
      { label: 'Created', value: ({ refund }) => cell.time(refund.createdAt) },
      { label: 'Updated', value: ({ refund }) => cell.time(refund.updatedAt) },
    ],
    related: ({ refund }, merchant) => [
      {
        title: 'Transaction',
        section: 'transactions',
        records: store.transactions.has(refund.refundId) ? [store.transactions.get(refund.refundId)!.transaction] : [],
        empty: 'No transaction: one is recorded when the refund succeeds.',
      },
      webhooksOf(merchant, refund.refundId, 'refund.'),
    ],
  });

  const transactions = defineSection<Transaction>({
    slug: 'transactions',
    title: 'Transactions',
    singular: 'Transaction',
    id: (transaction) => transaction.transactionId,
    list: (merchant, page) => payments.listTransactions(merchant, {}, page),
    get: (merchant, id) => payments.getTransaction(merchant, id),
    columns: [
      { label: 'Transaction', value: (t) => cell.mono(t.transactionId) },
      { label: 'Type', value: (t) => t.transactionType },
      { label: 'Gross', value: (t) => cell.amount(t.grossAmount, t.currency) },
      { label: 'Fee + VAT', value: (t) => cell.amount(t.feeAmount + t.vatAmount, t.currency) },
      { label: 'Net', value: (t) => cell.amount(t.netAmount, t.currency) },
      { label: 'Reference', value: (t) => t.referenceId },
      { label: 'Created', value: (t) => cell.time(t.createdAt) },
    ],
    fields: [
      { label: 'Type', value: (t) => t.transactionType },
      { label: 'Of', value: (t) => cell.ref(t.transactionId, t.transactionType === 'REFUND' ? 'refunds' : 'charges') },
      { label: 'Gross amount', value: (t) => cell.amount(t.grossAmount, t.currency) },
      { label: 'Fee', value: (t) => cell.amount(t.feeAmount, t.currency) },
      { label: 'VAT on the fee', value: (t) => cell.amount(t.vatAmount, t.currency) },
      { label: 'Net amount', value: (t) => cell.amount(t.netAmount, t.currency) },
      { label: 'Fee strategy', value: (t) => t.feeStrategy },
      { label: 'Charge source', value: (t) => t.chargeSource },
      { label: 'Source id', value: (t) => cell.ref(t.sourceId) },
      { label: 'Reference', value: (t) => t.referenceId },
      { label: 'Transaction time', value: (t) => cell.time(t.transactionTime) },
      { label: 'Created', value: (t) => cell.time(t.createdAt) },
    ],
    related: (t, merchant) => [webhooksOf(merchant, t.transactionId, 'transaction.')],
  });

  const authorizationsSection = defineSection<CardAuthorization>({
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
          authorizations.capture(merchant, a.cardAuthorizationId, { amount, currency: a.currency, referenceId: a.referenceId || a.cardAuthorizationId });
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

  const attemptColumns: Column<WebhookAttempt>[] = [
    { label: 'Started', value: (attempt) => cell.time(attempt.at) },
    { label: 'Response', value: (attempt) => attempt.httpStatus },
    { label: 'Error', value: (attempt) => attempt.error },
    { label: 'Duration (ms)', value: (attempt) => attempt.durationMs },
  ];
  const webhookDeliveries = defineSection<WebhookDelivery>({
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
    related: (d) => [relatedTable('Attempts', attemptColumns, d.attempts, 'No attempt has finished yet.')],
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

  const links = defineSection<PaymentLink>({
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

  const intents = defineSection<BoltIntent>({
    slug: 'bolt-intents',
    title: 'Bolt intents',
    singular: 'Bolt intent',
    idPrefix: 'bi_',
    id: (intent) => intent.id,
    list: (merchant, page) => bolt.listIntents(merchant, page),
    get: (merchant, id) => bolt.getIntent(merchant, id),
    columns: [
      { label: 'Intent', value: (intent) => cell.mono(intent.id) },
      { label: 'Status', value: (intent) => cell.status(intent.status) },
      { label: 'Result', value: (intent) => cell.mono(intent.result) },
      { label: 'Amount', value: (intent) => cell.amount(intent.amount, intent.currency) },
      { label: 'Mode', value: (intent) => intent.mode.type },
      { label: 'Method', value: (intent) => (intent.paymentMethod ? paymentMethodLabel(intent.paymentMethod.paymentMethodType) : null) },
      { label: 'Reference', value: (intent) => intent.referenceId },
      { label: 'Created', value: (intent) => cell.time(intent.createdAt) },
    ],
    fields: [
      { label: 'Status', value: (intent) => cell.status(intent.status) },
      { label: 'Result', value: (intent) => cell.mono(intent.result) },
      { label: 'Amount', value: (intent) => cell.amount(intent.amount, intent.currency) },
      { label: 'Mode', value: (intent) => intent.mode.type },
      { label: 'Deep link', value: (intent) => cell.url(intent.mode.deepLink?.deepLinkUrl) },
      { label: 'Return URL', value: (intent) => cell.mono(intent.mode.deepLink?.returnUrl) },
      { label: 'Method', value: (intent) => (intent.paymentMethod ? paymentMethodLabel(intent.paymentMethod.paymentMethodType) : null) },
      { label: 'Bolt connection', value: (intent) => cell.mono(intent.boltConnectionId) },
      { label: 'Reference', value: (intent) => intent.referenceId },
      { label: 'Internal note', value: (intent) => intent.internalNote },
      { label: 'Latest charge', value: (intent) => cell.ref(intent.latestChargeId, 'charges') },
      { label: 'Latest charge status', value: (intent) => cell.status(intent.latestChargeStatus) },
      { label: 'Latest failure code', value: (intent) => cell.mono(intent.latestChargeFailureCode) },
      { label: 'Expires', value: (intent) => cell.time(intent.expiresAt) },
      { label: 'Created', value: (intent) => cell.time(intent.createdAt) },
      { label: 'Created by', value: (intent) => intent.createdBy },
      { label: 'Updated', value: (intent) => cell.time(intent.updatedAt) },
      { label: 'Updated by', value: (intent) => intent.updatedBy },
    ],
    related: (intent, merchant) => [
      { title: 'Charges', section: 'charges', records: chargesOf(intent.id), empty: 'No payment was attempted yet.' },
      webhooksOf(merchant, intent.id, 'bolt_intent.'),
    ],
    actions: [
      {
        name: 'pay',
        label: 'Pay',
        variant: 'success',
        done: 'Paid, as if the shopper had paid on the terminal or in the app.',
        available: (intent) => intent.status === 'ACTIVE',
        run: (intent, _form, merchant) => void bolt.completeIntent(merchant, intent.id, 'pay'),
      },
      {
        name: 'decline',
        label: 'Decline the payment',
        variant: 'danger',
        done: 'The payment was declined; the intent stays open, so the shopper can try again.',
        available: (intent) => intent.status === 'ACTIVE',
        inputs: () => [{ name: 'failureCode', label: 'Failure code', hint: `One of ${CHARGE_FAILURE_CODES.join(', ')}; empty is CH_PROCESSING_FAILED.` }],
        run: (intent, form, merchant) => {
          const failureCode = (form.get('failureCode') ?? '').trim() || 'CH_PROCESSING_FAILED';
          if (!isChargeFailureCode(failureCode)) throw SandboxError.field('failureCode', `must be one of ${CHARGE_FAILURE_CODES.join(', ')}`);
          bolt.completeIntent(merchant, intent.id, 'decline', failureCode);
        },
      },
      {
        name: 'cancel',
        label: 'Cancel',
        variant: 'danger',
        done: 'Canceled, as if the shopper had canceled on the terminal or in the app.',
        available: (intent) => intent.status === 'ACTIVE',
        run: (intent, _form, merchant) => void bolt.completeIntent(merchant, intent.id, 'cancel'),
      },
    ],
  });

  const devices = defineSection<BoltDevice>({
    slug: 'bolt-devices',
    title: 'Bolt devices',
    singular: 'Bolt device',
    idPrefix: 'bd_',
    id: (device) => device.boltDeviceId,
    list: (merchant, page) => bolt.listDevices(merchant, page),
    get: (merchant, id) => bolt.getDevice(merchant, id),
    columns: [
      { label: 'Device', value: (device) => cell.mono(device.boltDeviceId) },
      { label: 'Name', value: (device) => device.name },
      { label: 'Battery (%)', value: (device) => device.latestMetric?.batteryLevel },
      { label: 'Network', value: (device) => device.latestMetric?.networkType },
      { label: 'Reported', value: (device) => cell.time(device.latestMetric?.reportedAt) },
      { label: 'Created', value: (device) => cell.time(device.createdAt) },
    ],
    fields: [
      { label: 'Name', value: (device) => device.name },
      { label: 'Last report', value: (device) => cell.time(device.latestMetric?.reportedAt) },
      { label: 'Battery (%)', value: (device) => device.latestMetric?.batteryLevel },
      { label: 'Charging', value: (device) => device.latestMetric?.isCharging },
      { label: 'Network', value: (device) => device.latestMetric?.networkType },
      { label: 'Signal strength', value: (device) => device.latestMetric?.signalStrength },
      { label: 'App version', value: (device) => device.latestMetric?.appVersion },
      { label: 'Created', value: (device) => cell.time(device.createdAt) },
      { label: 'Updated', value: (device) => cell.time(device.updatedAt) },
    ],
    actions: [
      {
        name: 'health-check',
        label: 'Health check',
        variant: 'primary',
        done: 'Health check requested: the device reports in a moment; reload this page to see its new metric.',
        available: () => true,
        run: (device, _form, merchant) => bolt.requestHealthCheck(merchant, device.boltDeviceId),
      },
      {
        name: 'rename',
        label: 'Rename',
        variant: 'primary',
        done: 'Renamed.',
        available: () => true,
        inputs: () => [{ name: 'name', label: 'New name' }],
        run: (device, form, merchant) => void bolt.renameDevice(merchant, device.boltDeviceId, { name: form.get('name') ?? '' }),
      },
    ],
  });

  return [charges, refunds, transactions, authorizationsSection, links, intents, devices, webhookDeliveries];
}

/** "VISA •••• 1111" for a card member of a payment method, or nothing. */
function cardText(method: Partial<Pick<PaymentMethodResponse, 'card' | 'cardInstallments' | 'cardNetworkToken'>>): string | null {
  const card = method.card ?? method.cardInstallments ?? method.cardNetworkToken;
  return card ? `${card.brand ?? 'Card'} •••• ${card.last4 ?? ''}`.trim() : null;
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

/** The merchant a delivery is about: every resource the sandbox sends carries its merchantId. */
function deliveryMerchantId(delivery: WebhookDelivery): string | undefined {
  try {
    const body: unknown = JSON.parse(delivery.body);
    if (typeof body === 'object' && body !== null && 'merchantId' in body && typeof body.merchantId === 'string') return body.merchantId;
  } catch {
    // A body the sandbox did not write as JSON belongs to nobody.
  }
  return undefined;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * An amount typed in baht ("1,250.50") as satang, exactly; `undefined` when left empty. A
 * validation error names `field` otherwise.
 */
export function satangFromBaht(text: string, field: string): number | undefined {
  const plain = text.replace(/[\s,฿]/g, '').replace(/^THB/i, '');
  if (plain === '') return undefined;
  const match = new RegExp(`^(\\d{1,${MAX_FORM_AMOUNT_BAHT_DIGITS}})(?:\\.(\\d{1,2}))?$`).exec(plain);
  if (!match) throw SandboxError.field(field, 'must be an amount in baht, such as 120 or 120.50');
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
