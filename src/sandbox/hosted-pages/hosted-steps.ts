import { PAYMENT_METHOD_FAMILY } from '../../core/schemas/payment-method.js';
import type { ChargeOutcome, ChargeRecord } from '../charges/charge-records.js';
import type { SandboxPayments } from '../charges/sandbox-payments.js';
import { SANDBOX_DEFAULTS } from '../defaults.js';
import { paymentMethodLabel } from '../http/page-layout.js';
import { SandboxError } from '../http/sandbox-error.js';
import type { SandboxMerchant } from '../partners/sandbox-merchant.js';
import type { ChargeView } from './charge-summary.js';

/** The hosted pages that complete one pending payment step. */
export type StepPage = 'otp' | 'force' | 'authorize';

/**
 * What a step page acts on: a pending charge, or another resource a card step completes (a card
 * authorization). `view` is read again after `complete`, to show or follow the outcome.
 */
export interface HostedStep {
  /** The page this step is taken on; undefined when it needs none. */
  step: StepPage | undefined;
  /** The merchant being paid, whose name the pages show; the default merchant's name without it. */
  merchantId?: string;
  view(): ChargeView;
  returnUrl: string | undefined;
  /** The method's name on the authorize page. */
  methodLabel: string;
  complete(outcome: ChargeOutcome): void;
}

/** Finds the step of a resource by its id, or undefined when the id is not one of its own. */
export type HostedStepFinder = (id: string) => HostedStep | undefined;

/**
 * What a payer's success or failure on a step means for the charge: a failed OTP or a declined
 * wallet or banking app is CH_AUTHENTICATION_FAILED; a forced failure, a declined QR and a step
 * with no page of its own are CH_PROCESSING_FAILED.
 */
export function stepOutcome(step: StepPage | 'promptpay' | undefined, succeed: boolean): ChargeOutcome {
  if (succeed) return { status: 'SUCCEEDED' };
  return { status: 'FAILED', failureCode: step === 'otp' || step === 'authorize' ? 'CH_AUTHENTICATION_FAILED' : 'CH_PROCESSING_FAILED' };
}

/**
 * The pending steps a shopper completes on the hosted pages: a charge's 3-D Secure, force or
 * wallet step, the step of another resource that registered a finder (a card authorization), and
 * the QR charges of the PromptPay payer pages. Every completion goes through the resource's own
 * state machine, so it sends the same webhooks as the API would.
 */
export class HostedSteps {
  readonly #payments: SandboxPayments;
  readonly #now: () => Date;
  readonly #merchants: ReadonlyMap<string, SandboxMerchant>;
  readonly #finders: HostedStepFinder[] = [];

  /** `merchants` name the payee on the pages; without them every page names the default merchant. */
  constructor(payments: SandboxPayments, now: () => Date, merchants: ReadonlyMap<string, SandboxMerchant> = new Map()) {
    this.#payments = payments;
    this.#now = now;
    this.#merchants = merchants;
  }

  /**
   * Lets resources besides charges send their shopper through the OTP and force pages: their ids
   * then resolve through `find` where no charge has the id.
   */
  addSteps(find: HostedStepFinder): void {
    this.#finders.push(find);
  }

  /** The step of the charge or other resource with this id. */
  find(id: string): HostedStep | undefined {
    const record = this.#payments.store.charges.get(id);
    if (record) return this.chargeStep(record);
    for (const find of this.#finders) {
      const found = find(id);
      if (found) return { ...found, view: () => ({ merchantName: this.merchantName(found.merchantId), ...found.view() }) };
    }
    return undefined;
  }

  /** The name a shopper knows the merchant by, as the hosted pages and QR payloads show it. */
  merchantName(merchantId: string | undefined): string {
    const merchant = merchantId === undefined ? undefined : this.#merchants.get(merchantId);
    return merchant?.name ?? SANDBOX_DEFAULTS.merchantName;
  }

  /** The QR charge with this id, or undefined when there is none (or it is no QR charge). */
  qrCharge(chargeId: string): (ChargeRecord & { qr: NonNullable<ChargeRecord['qr']> }) | undefined {
    const record = this.#payments.store.charges.get(chargeId);
    return record?.qr ? (record as ChargeRecord & { qr: NonNullable<ChargeRecord['qr']> }) : undefined;
  }

  /** Whether the QR code of `record` can no longer be paid. */
  isExpired(record: { qr: { expiresAt: Date } }): boolean {
    return record.qr.expiresAt.getTime() <= this.#now().getTime();
  }

  /** The step of a charge: its page, its view and its completion through the charge state machine. */
  chargeStep(record: ChargeRecord): HostedStep {
    return {
      step: pageFor(record),
      merchantId: record.charge.merchantId,
      view: () => ({ ...chargeView(record), merchantName: this.merchantName(record.charge.merchantId) }),
      returnUrl: record.returnUrl,
      methodLabel: paymentMethodLabel(record.requestedType),
      complete: (outcome) => void this.#payments.charges.settle(record.charge.chargeId, outcome),
    };
  }

  /**
   * Completes the pending step of a charge, or of another resource with a step (a card
   * authorization), as its hosted page does when the payer succeeds or fails it: the same outcome
   * and failure code, so the same webhooks and transactions follow. A QR charge is paid or
   * declined as on the PromptPay payer page. For tools that act for the payer, such as the
   * dashboard. Throws NOT_FOUND_ERROR for an unknown id, REQUEST_CONFLICT_ERROR once the step is
   * complete and OPERATION_NOT_ALLOWED_ERROR for an expired QR code.
   */
  completeStep(id: string, succeed: boolean): void {
    const subject = this.find(id);
    if (!subject) throw new SandboxError('NOT_FOUND_ERROR', `no payment with id ${id} is waiting for a step`);
    const current = subject.view();
    if (current.status !== 'PENDING') throw new SandboxError('REQUEST_CONFLICT_ERROR', `${id} is already ${current.status}`);
    const qr = this.#payments.store.charges.get(id)?.qr;
    if (qr && this.isExpired({ qr })) {
      throw new SandboxError('OPERATION_NOT_ALLOWED_ERROR', `the QR code of ${id} expired at ${qr.expiresAt.toISOString()}; it can no longer be paid`);
    }
    subject.complete(stepOutcome(qr ? 'promptpay' : subject.step, succeed));
  }
}

function pageFor(record: ChargeRecord): StepPage | undefined {
  if (record.cardBehaviour?.outcome === 'otp') return 'otp';
  if (record.cardBehaviour?.outcome === 'force') return 'force';
  const family = PAYMENT_METHOD_FAMILY[record.requestedType];
  if (family === 'e-wallet' || family === 'mobile-banking' || family === 'pay-later') return 'authorize';
  return undefined;
}

function chargeView(record: ChargeRecord): ChargeView {
  const { charge } = record;
  return {
    chargeId: charge.chargeId,
    amountSatang: charge.amount,
    currency: charge.currency,
    referenceId: charge.referenceId ?? '',
    paymentMethodType: record.requestedType,
    status: charge.status,
    ...(charge.failureCode ? { failureCode: charge.failureCode } : {}),
  };
}
