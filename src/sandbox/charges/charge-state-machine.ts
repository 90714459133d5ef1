import type { Charge, ChargeStatus } from '../../core/schemas/charge.js';
import { SANDBOX_FEE_RATE_BPS } from '../defaults.js';
import { SandboxError } from '../http/sandbox-error.js';
import { newId } from '../store/ids.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import type { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import type { ChargeOutcome, ChargeRecord, ChargeSettleHook } from './charge-records.js';
import type { SandboxTransactions } from './transactions.js';

/** A charge as it is opened: PENDING, with what the machine fills left out. */
export type NewChargeRecord = Omit<ChargeRecord, 'seq' | 'refundedAmount'>;

/** The card member of a charge or a card authorization, where the network's answer is written. */
interface CardNetworkAnswer {
  iso8583ResponseCode?: string | null | undefined;
  networkTransactionId?: string | null | undefined;
}

/**
 * Writes the card network's answer to an outcome into a card member: `00` and a network
 * transaction id on success, `51` (insufficient funds) or `05` (do not honour) on failure.
 */
export function writeCardNetworkAnswer(card: CardNetworkAnswer | null | undefined, outcome: ChargeOutcome): void {
  if (!card) return;
  if (outcome.status === 'SUCCEEDED') {
    card.iso8583ResponseCode = '00';
    card.networkTransactionId = newId('', 15, '0123456789');
  } else {
    card.iso8583ResponseCode = outcome.failureCode === 'CH_INSUFFICIENT_FUNDS' ? '51' : '05';
  }
}

/**
 * The one writer of a charge: it opens a charge (PENDING), moves it to its outcome
 * (PENDING -> SUCCEEDED | FAILED, and FAILED -> SUCCEEDED for a verified transfer slip) and keeps
 * the amount its refunds hold. Every way a charge is made or paid — the API, card authorizations,
 * hosted pages, slips, payment links, bolt — goes through it, so every charge sends the same
 * webhooks and records the same transaction.
 */
export class ChargeStateMachine {
  readonly #store: SandboxStore;
  readonly #webhooks: WebhookDispatcher;
  readonly #transactions: SandboxTransactions;
  readonly #now: () => Date;
  readonly #settleHooks: ChargeSettleHook[] = [];

  constructor(options: { store: SandboxStore; webhooks: WebhookDispatcher; transactions: SandboxTransactions; now: () => Date }) {
    this.#store = options.store;
    this.#webhooks = options.webhooks;
    this.#transactions = options.transactions;
    this.#now = options.now;
  }

  /** Stores a new PENDING charge (and indexes its QR payload) and returns its record. */
  open(draft: NewChargeRecord): ChargeRecord {
    if (draft.charge.status !== 'PENDING') throw new Error(`a charge opens PENDING, not ${draft.charge.status}`);
    const record: ChargeRecord = { ...draft, seq: this.#store.nextSeq(), refundedAmount: 0 };
    this.#store.charges.set(record.charge.chargeId, record);
    if (record.qr) this.#store.chargeIdByQrPayload.set(record.qr.rawData, record.charge.chargeId);
    return record;
  }

  /** Adds a {@link ChargeSettleHook}; hooks run in the order they were added. */
  onSettle(hook: ChargeSettleHook): void {
    this.#settleHooks.push(hook);
  }

  /**
   * Moves a PENDING charge to its outcome. A success records the PAYMENT transaction; the
   * webhooks follow (charge first, then transaction). `from` widens the states it may leave:
   * a verified transfer slip also turns a FAILED charge SUCCEEDED.
   */
  settle(chargeId: string, outcome: ChargeOutcome, { from = ['PENDING'] }: { from?: readonly ChargeStatus[] } = {}): Charge {
    const record = this.#store.charges.get(chargeId);
    if (!record) throw new SandboxError('NOT_FOUND_ERROR', `no charge with id ${chargeId}`);
    const { charge } = record;
    if (!from.includes(charge.status)) {
      throw new SandboxError('REQUEST_CONFLICT_ERROR', `charge ${chargeId} is already ${charge.status}`);
    }
    for (const hook of this.#settleHooks) outcome = hook(charge, outcome);
    const now = this.#now().toISOString();
    charge.status = outcome.status;
    charge.updatedAt = now;
    if (outcome.status === 'SUCCEEDED') {
      charge.transactionTime = now;
      charge.failureCode = '';
    } else {
      charge.failureCode = outcome.failureCode;
    }
    writeCardNetworkAnswer(charge.paymentMethod.card ?? charge.paymentMethod.cardInstallments ?? charge.paymentMethod.cardNetworkToken, outcome);
    this.#webhooks.send(outcome.status === 'SUCCEEDED' ? 'charge.succeeded' : 'charge.failed', structuredClone(charge), chargeId);
    if (outcome.status === 'SUCCEEDED') this.#transactions.record(charge, 'PAYMENT', chargeId, charge.amount, SANDBOX_FEE_RATE_BPS[record.family]);
    return structuredClone(charge);
  }

  /** Counts `amount` as refunded while a refund of the charge is pending or succeeded. */
  holdRefund(chargeId: string, amount: number): void {
    const record = this.#store.charges.get(chargeId);
    if (record) record.refundedAmount += amount;
  }

  /** Gives back what a refund held, once that refund failed. */
  releaseRefund(chargeId: string, amount: number): void {
    const record = this.#store.charges.get(chargeId);
    if (record) record.refundedAmount -= amount;
  }
}
