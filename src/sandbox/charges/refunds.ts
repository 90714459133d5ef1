import type { Charge } from '../../core/schemas/charge.js';
import { CreateRefundRequestSchema, type Refund } from '../../core/schemas/refund.js';
import { SANDBOX_REFUND_FAILURE_CODE } from '../defaults.js';
import { parseRequest } from '../http/parse-request.js';
import { SandboxError } from '../http/sandbox-error.js';
import type { SandboxMerchant } from '../partners/sandbox-merchant.js';
import { newId } from '../store/ids.js';
import { indexKeys, type SandboxStore } from '../store/sandbox-store.js';
import { unrefTimer } from '../unref-timer.js';
import type { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import type { ChargeStateMachine } from './charge-state-machine.js';
import type { SandboxTransactions } from './transactions.js';

export interface SandboxRefundsOptions {
  store: SandboxStore;
  charges: ChargeStateMachine;
  transactions: SandboxTransactions;
  webhooks: WebhookDispatcher;
  now: () => Date;
  /** Delay between a refund's creation (PENDING) and its outcome. */
  settleDelayMs: number;
}

/**
 * Refunds of SUCCEEDED charges and their state machine, PENDING -> SUCCEEDED | FAILED after
 * `settleDelayMs`: full, or partial for CARD charges; one pending at a time per charge. A success
 * records the REFUND transaction; the test card's behaviour decides refusals and failures.
 */
export class SandboxRefunds {
  readonly #options: SandboxRefundsOptions;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #succeededHooks: ((charge: Readonly<Charge>, refundedAmount: number) => void)[] = [];

  constructor(options: SandboxRefundsOptions) {
    this.#options = options;
  }

  /**
   * Calls `hook` after each refund that succeeds, with its charge and what the charge's succeeded
   * refunds add up to now (a payment link reads REFUNDED once that is the whole amount).
   */
  onSucceeded(hook: (charge: Readonly<Charge>, refundedAmount: number) => void): void {
    this.#succeededHooks.push(hook);
  }

  /** `POST /api/v1/refunds`. */
  create(merchant: SandboxMerchant, body: unknown): { refundId: string } {
    const { store, charges, now } = this.#options;
    const request = parseRequest(CreateRefundRequestSchema, body);
    const record = store.charges.get(request.chargeId);
    if (record?.charge.merchantId !== merchant.merchantId) {
      throw new SandboxError('NOT_FOUND_ERROR', `no charge with id ${request.chargeId}`);
    }
    const { charge } = record;
    if (charge.status === 'PENDING') throw new SandboxError('CHARGE_PENDING', `charge ${charge.chargeId} is still PENDING; refund it once it has SUCCEEDED`);
    if (charge.status === 'FAILED') throw new SandboxError('OPERATION_NOT_ALLOWED_ERROR', `charge ${charge.chargeId} FAILED; only a SUCCEEDED charge can be refunded`);
    for (const { refund } of store.refunds.newestFirst(indexKeys.charge(charge.chargeId))) {
      if (refund.status === 'PENDING') {
        throw new SandboxError('REFUND_PENDING', `refund ${refund.refundId} of this charge is still PENDING`);
      }
    }
    if (record.cardBehaviour?.outcome === 'succeed' && record.cardBehaviour.refunds === 'refused') {
      throw new SandboxError('OPERATION_NOT_ALLOWED_ERROR', 'refunds are not allowed for this card');
    }
    const remaining = charge.amount - record.refundedAmount;
    if (remaining <= 0) throw new SandboxError('REQUEST_CONFLICT_ERROR', `charge ${charge.chargeId} is already fully refunded`);
    // No amount, or 0, refunds what is left of the charge.
    const amount = request.amount === undefined || request.amount === 0 ? remaining : request.amount;
    if (amount > remaining) throw SandboxError.field('amount', `must be at most ${remaining}, the amount left to refund`);
    if (amount !== charge.amount && charge.paymentMethod.paymentMethodType !== 'CARD') {
      throw SandboxError.field('amount', 'partial refunds are only possible for CARD charges; omit amount for a full refund');
    }

    const at = now().toISOString();
    const refundId = newId('re_');
    const refund: Refund = {
      refundId,
      chargeId: charge.chargeId,
      merchantId: merchant.merchantId,
      referenceId: charge.referenceId ?? '',
      amount,
      currency: charge.currency,
      status: 'PENDING',
      failureCode: '',
      refundReason: request.reason ?? '',
      createdAt: at,
      updatedAt: at,
      transactionTime: null,
    };
    charges.holdRefund(charge.chargeId, amount);
    store.refunds.set(refundId, { refund, seq: store.nextSeq() });
    const fails = record.cardBehaviour?.outcome === 'succeed' && record.cardBehaviour.refunds === 'fail';
    this.#later(() => this.#settle(refundId, fails));
    return { refundId };
  }

  /** `GET /api/v1/refunds/{refundId}`. */
  get(merchant: SandboxMerchant, refundId: string): Refund {
    const record = this.#options.store.refunds.get(refundId);
    if (record?.refund.merchantId !== merchant.merchantId) throw new SandboxError('NOT_FOUND_ERROR', `no refund with id ${refundId}`);
    return structuredClone(record.refund);
  }

  /** Cancels refunds still waiting to settle. */
  close(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  #settle(refundId: string, fails: boolean): void {
    const { store, charges, transactions, webhooks, now } = this.#options;
    const record = store.refunds.get(refundId);
    if (record?.refund.status !== 'PENDING') return;
    const { refund } = record;
    const at = now().toISOString();
    refund.updatedAt = at;
    if (fails) {
      refund.status = 'FAILED';
      refund.failureCode = SANDBOX_REFUND_FAILURE_CODE;
      charges.releaseRefund(refund.chargeId, refund.amount);
      webhooks.send('refund.failed', structuredClone(refund), refundId);
      return;
    }
    refund.status = 'SUCCEEDED';
    refund.transactionTime = at;
    webhooks.send('refund.succeeded', structuredClone(refund), refundId);
    const charge = store.charges.get(refund.chargeId)?.charge;
    if (!charge) return;
    transactions.record(charge, 'REFUND', refundId, refund.amount, 0);
    let refunded = 0;
    for (const { refund: other } of store.refunds.newestFirst(indexKeys.charge(charge.chargeId))) {
      if (other.status === 'SUCCEEDED') refunded += other.amount;
    }
    for (const hook of this.#succeededHooks) hook(charge, refunded);
  }

  #later(run: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, this.#options.settleDelayMs);
    unrefTimer(timer);
    this.#timers.add(timer);
  }
}
