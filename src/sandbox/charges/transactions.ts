import type { Charge } from '../../core/schemas/charge.js';
import type { Transaction } from '../../core/schemas/transaction.js';
import { SANDBOX_VAT_RATE_BPS } from '../defaults.js';
import { SandboxError } from '../http/sandbox-error.js';
import type { SandboxMerchant } from '../partners/sandbox-merchant.js';
import { indexKeys, type SandboxStore } from '../store/sandbox-store.js';
import type { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';

/**
 * The ledger: one transaction per successful payment (`PAYMENT`, id the charge's) and per
 * successful refund (`REFUND`, id the refund's), with the fee and its VAT, and the
 * `transaction.created` webhook.
 */
export class SandboxTransactions {
  readonly #store: SandboxStore;
  readonly #webhooks: WebhookDispatcher;
  readonly #now: () => Date;

  constructor(store: SandboxStore, webhooks: WebhookDispatcher, now: () => Date) {
    this.#store = store;
    this.#webhooks = webhooks;
    this.#now = now;
  }

  /** Records a transaction of `charge`; the fee is `rateBps` of the gross amount, VAT on top of the fee. */
  record(charge: Charge, type: 'PAYMENT' | 'REFUND', transactionId: string, grossAmount: number, rateBps: number): void {
    const now = this.#now().toISOString();
    const feeAmount = Math.round((grossAmount * rateBps) / 10_000);
    const vatAmount = Math.round((feeAmount * SANDBOX_VAT_RATE_BPS) / 10_000);
    const transaction: Transaction = {
      transactionId,
      merchantId: charge.merchantId,
      referenceId: charge.referenceId ?? '',
      transactionType: type,
      chargeSource: charge.source,
      sourceId: charge.sourceId,
      currency: charge.currency,
      grossAmount,
      feeAmount,
      vatAmount,
      netAmount: grossAmount - feeAmount - vatAmount,
      feeStrategy: 'RATE',
      createdAt: now,
      transactionTime: now,
    };
    this.#store.transactions.set(transactionId, { transaction, seq: this.#store.nextSeq() });
    this.#webhooks.send('transaction.created', structuredClone(transaction), transactionId);
  }

  /** `GET /api/v1/transactions/{transactionId}`. */
  get(merchant: SandboxMerchant, transactionId: string): Transaction {
    const record = this.#store.transactions.get(transactionId);
    if (record?.transaction.merchantId !== merchant.merchantId) {
      throw new SandboxError('NOT_FOUND_ERROR', `no transaction with id ${transactionId}`);
    }
    return structuredClone(record.transaction);
  }

  /** `GET /api/v1/transactions`: newest first. */
  list(merchant: SandboxMerchant, filters: { referenceId?: string | undefined }, page: { limit: number; offset: number }) {
    const key = filters.referenceId === undefined ? indexKeys.merchant(merchant.merchantId) : indexKeys.reference(merchant.merchantId, filters.referenceId);
    return this.#store.transactions.page(key, page, ({ transaction }) => structuredClone(transaction));
  }
}
