import type { Transaction } from '../../../core/schemas/transaction.js';
import { paymentMethodLabel } from '../../http/page-layout.js';
import { SandboxError } from '../../http/sandbox-error.js';
import type { SandboxMerchant } from '../../partners/sandbox-merchant.js';
import type { ChargeRecord, RefundRecord } from '../../charges/charge-records.js';
import { pageNewestFirst } from '../../store/sandbox-store.js';
import { cell, defineSection, type DashboardSection } from '../dashboard-section.js';
import type { DashboardSectionDeps, SectionQueries } from './section-queries.js';
import { cardText, satangFromBaht } from './section-values.js';

/**
 * The charges, refunds and transactions of the dashboard. A charge can be completed as its
 * hosted step would (succeed, fail) and refunded, through the same objects as the API.
 */
export function chargeSections({ payments, pages }: DashboardSectionDeps, { refundsOf, webhooksOf }: SectionQueries): Record<'charges' | 'refunds' | 'transactions', DashboardSection<unknown>> {
  const { store } = payments;
  const ownCharge = (merchant: SandboxMerchant, id: string): ChargeRecord => {
    const record = store.charges.get(id);
    if (record?.charge.merchantId !== merchant.merchantId) throw new SandboxError('NOT_FOUND_ERROR', `This sandbox has no charge ${id}.`);
    return record;
  };
  const ownRefund = (merchant: SandboxMerchant, id: string): RefundRecord => {
    const record = store.refunds.get(id);
    if (record?.refund.merchantId !== merchant.merchantId) throw new SandboxError('NOT_FOUND_ERROR', `This sandbox has no refund ${id}.`);
    return record;
  };

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
      { label: 'Customer email', value: ({ charge }) => charge.customer.email },
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
        records: [refund.refundId].flatMap((id) => store.transactions.get(id)?.transaction ?? []),
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


  return { charges, refunds, transactions };
}
