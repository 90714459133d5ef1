import type { InstallmentPeriod } from '../../core/constants.js';
import type { Charge, CreateChargeRequest, CreateChargeResponse } from '../../core/schemas/charge.js';
import {
  CreatePaymentLinkRequestSchema,
  type CreatePaymentLinkResponse,
  type PaymentLink,
  type PaymentLinkStatus,
} from '../../core/schemas/payment-link.js';
import type { FieldIssue } from '../../core/validation.js';
import { SANDBOX_PAGES_PATH } from '../http/page-layout.js';
import { newId } from '../store/ids.js';
import type { ChargeOutcome } from '../charges/charge-records.js';
import type { SandboxPayments } from '../charges/sandbox-payments.js';
import { parseRequest } from '../http/parse-request.js';
import type { SandboxMerchant } from '../partners/sandbox-merchant.js';
import { SandboxError } from '../http/sandbox-error.js';
import { pageNewestFirst, type SandboxStore } from '../store/sandbox-store.js';
import type { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import {
  enabledMethods,
  installmentPeriods,
  orderIssues,
  paymentMethodRequest,
  resolveLinkSettings,
  type PaymentLinkMethod,
} from './link-settings.js';
import { PAYMENT_LINKS, type PaymentLinkAttempt, type PaymentLinkPayment, type PaymentLinkRecord } from './payment-link-record.js';

/** Where the hosted pay page of each payment link lives: `{PAYMENT_LINK_PAGES_PATH}/{paymentLinkId}`. */
export const PAYMENT_LINK_PAGES_PATH = `${SANDBOX_PAGES_PATH}/payment-links` as const;

export interface SandboxPaymentLinksOptions {
  payments: SandboxPayments;
  webhooks: WebhookDispatcher;
  merchants: ReadonlyMap<string, SandboxMerchant>;
  now: () => Date;
}

/**
 * Payment links: `POST /api/v1/payment-links`, `GET .../{id}`, `PATCH .../{id}/disable`, and the
 * payments their hosted page makes.
 *
 * A link is single-use. It is ACTIVE until a charge made on its page succeeds (PAID, then the
 * `payment_link.paid` webhook, then the charge's own `charge.succeeded` and `transaction.created`),
 * it passes `expiresAt` (EXPIRED, read from the sandbox clock whenever the link is looked at), or
 * the merchant disables it (DISABLED). A PAID link whose payment is refunded in full reads REFUNDED.
 * VOIDED, a status of the service, is never set here: the service documents no cause for it. A charge of the link that fails leaves it ACTIVE, so the
 * payer can try again. A charge started while the link was ACTIVE that completes after the link
 * stopped being ACTIVE (paid by another attempt, disabled, expired) ends FAILED with
 * `CH_PROCESSING_FAILED`: a link is never paid twice, nor after the merchant disabled it.
 *
 * The charges a link's page makes are real charges (source `PAYMENT_LINK`, `sourceId` the link's
 * id), found with `GET /api/v1/charges?source_in=PAYMENT_LINK&sourceId={id}`. Their `referenceId`
 * is the order's `referenceId` (the link's id when the order has none), and the phone number and
 * delivery address the page collects are the charge's `customer.primaryPhone` and
 * `customer.deliveryAddress`.
 */
export class SandboxPaymentLinks {
  readonly #store: SandboxStore;
  readonly #links: Map<string, PaymentLinkRecord>;
  readonly #payments: SandboxPayments;
  readonly #webhooks: WebhookDispatcher;
  readonly #merchants: ReadonlyMap<string, SandboxMerchant>;
  readonly #now: () => Date;

  constructor(options: SandboxPaymentLinksOptions) {
    this.#payments = options.payments;
    this.#store = options.payments.store;
    this.#links = this.#store.slice(PAYMENT_LINKS);
    this.#webhooks = options.webhooks;
    this.#merchants = options.merchants;
    this.#now = options.now;
    this.#payments.onSettle((charge, outcome) => this.#settle(charge, outcome));
    this.#payments.refunds.onSucceeded((charge, refundedAmount) => this.#refunded(charge, refundedAmount));
  }

  /**
   * `POST /api/v1/payment-links`. Beyond the schema, refused with 400 when: `expiresAt` is not in
   * the future; no payment method is enabled; card installments are enabled with no period; there
   * are more than 100 order items (`PAYMENT_LINK_MAX_ORDER_ITEMS`). As on the service, the payer
   * pays `order.netAmount` whatever `orderItems` add up to, and an installment period the amount
   * does not reach is accepted: the pay page offers only the periods the amount qualifies for.
   *
   * Defaults where the request is silent: `collectPhoneNumber` true (the contract: "false
   * disables phone collection"), `collectDeliveryAddress` false, `feeType` TRANSACTION_FEE, no
   * expiry. Without `linkSettings` every method is enabled, installments with the periods the
   * amount allows; with `linkSettings`, a member left out is disabled.
   */
  create(merchant: SandboxMerchant, body: unknown, origin: string): CreatePaymentLinkResponse {
    const request = parseRequest(CreatePaymentLinkRequestSchema, body);
    const now = this.#now();
    const issues: FieldIssue[] = [];
    let expiresAt: Date | undefined;
    if (request.expiresAt !== undefined) {
      expiresAt = new Date(request.expiresAt);
      if (expiresAt.getTime() <= now.getTime()) issues.push({ field: 'expiresAt', message: 'must be in the future' });
    }
    issues.push(...orderIssues(request.order));
    const linkSettings = resolveLinkSettings(request.linkSettings, request.order.netAmount, issues);
    if (issues.length > 0) throw SandboxError.validation(issues);

    const paymentLinkId = newId('pl_');
    const at = now.toISOString();
    const { order } = request;
    const link: PaymentLink = {
      paymentLinkId,
      merchantId: merchant.merchantId,
      url: `${origin}${PAYMENT_LINK_PAGES_PATH}/${paymentLinkId}`,
      status: 'ACTIVE',
      order: {
        netAmount: order.netAmount,
        currency: order.currency,
        description: order.description ?? null,
        referenceId: order.referenceId ?? null,
        internalNote: order.internalNote ?? null,
        orderItems: (order.orderItems ?? []).map((item) => ({
          itemName: item.itemName,
          description: item.description ?? null,
          imageUrl: item.imageUrl ?? null,
          price: item.price,
          productId: item.productId ?? null,
          quantity: item.quantity,
          sku: item.sku ?? null,
        })),
      },
      linkSettings: structuredClone(linkSettings),
      collectDeliveryAddress: request.collectDeliveryAddress ?? false,
      collectPhoneNumber: request.collectPhoneNumber ?? true,
      redirectUrl: request.redirectUrl ?? null,
      cancelUrl: request.cancelUrl ?? null,
      expiresAt: expiresAt?.toISOString() ?? null,
      feeType: request.feeType ?? 'TRANSACTION_FEE',
      createdAt: at,
      updatedAt: at,
    };
    this.#links.set(paymentLinkId, {
      link,
      linkSettings,
      seq: this.#store.nextSeq(),
      expiresAt,
      paidByChargeId: undefined,
      attempts: new Map(),
    });
    return { id: paymentLinkId, url: link.url };
  }

  /** `GET /api/v1/payment-links/{paymentLinkId}`. */
  get(merchant: SandboxMerchant, paymentLinkId: string): PaymentLink {
    return this.view(this.#own(merchant, paymentLinkId));
  }

  /**
   * `PATCH /api/v1/payment-links/{paymentLinkId}/disable`: the link can no longer be paid. Disabling
   * a DISABLED link changes nothing and answers the same; an EXPIRED one becomes DISABLED (the
   * merchant's decision is what the link then shows); a PAID one is refused with 422
   * `PAYMENT_LINK_STATUS_INVALID_ERROR`, since its payment stands (refund the charge instead), as is
   * a REFUNDED one, whose payment is over.
   */
  disable(merchant: SandboxMerchant, paymentLinkId: string): PaymentLink {
    const record = this.#own(merchant, paymentLinkId);
    const status = this.status(record);
    if (status === 'PAID' || status === 'REFUNDED' || status === 'VOIDED') {
      throw new SandboxError(
        'PAYMENT_LINK_STATUS_INVALID_ERROR',
        status === 'PAID'
          ? `payment link ${paymentLinkId} is PAID and cannot be disabled; refund charge ${record.paidByChargeId} instead`
          : `payment link ${paymentLinkId} is ${status} and cannot be disabled`,
      );
    }
    if (status !== 'DISABLED') {
      record.link.status = 'DISABLED';
      record.link.updatedAt = this.#now().toISOString();
    }
    return this.view(record);
  }

  /**
   * The merchant's links, newest first, each as GET returns it. The contract has no list endpoint
   * for payment links; this is for the sandbox's dashboard.
   */
  list(merchant: SandboxMerchant, page: { limit: number; offset: number }) {
    return pageNewestFirst(this.#links.values(), (record) => record.link.merchantId === merchant.merchantId, (record) => this.view(record), page);
  }

  /** A link by id, whoever owns it (the pay page is public), or undefined. */
  find(paymentLinkId: string): PaymentLinkRecord | undefined {
    return this.#links.get(paymentLinkId);
  }

  /** The link's status now: a stored ACTIVE past `expiresAt` reads EXPIRED. */
  status(record: PaymentLinkRecord): PaymentLinkStatus {
    const stored = record.link.status;
    if (stored === 'ACTIVE' && record.expiresAt && record.expiresAt.getTime() <= this.#now().getTime()) return 'EXPIRED';
    return stored;
  }

  /** A copy of the link as GET returns it and the webhook carries it. */
  view(record: PaymentLinkRecord): PaymentLink {
    const link = structuredClone(record.link);
    link.status = this.status(record);
    // An expired link last changed when it expired.
    if (link.status === 'EXPIRED' && record.link.status === 'ACTIVE' && record.expiresAt) link.updatedAt = record.expiresAt.toISOString();
    return link;
  }

  /** The merchant that owns a link, for its page (name, QR biller id). */
  merchantOf(record: PaymentLinkRecord): SandboxMerchant | undefined {
    return this.#merchants.get(record.link.merchantId);
  }

  /** The methods the link's settings enable, in page order. */
  enabledMethods(record: PaymentLinkRecord): PaymentLinkMethod[] {
    return enabledMethods(record.linkSettings);
  }

  /** The installment periods the link offers (enabled, and within reach of its amount). */
  installmentPeriods(record: PaymentLinkRecord): InstallmentPeriod[] {
    return installmentPeriods(record.linkSettings, record.link.order.netAmount);
  }

  /** The attempt a form token started, if any (waiting for its charge to exist). */
  attempt(record: PaymentLinkRecord, token: string): Promise<PaymentLinkAttempt> | undefined {
    return record.attempts.get(token);
  }

  /**
   * Charges the link's amount as the payer chose, through the same flows as `POST
   * /api/v1/charges`. `token` names the attempt: the same token again gets the same attempt
   * rather than a second charge (a double click, a resubmitted form). `returnUrl` is where the
   * charge's hosted steps send the payer back to. The caller has checked that the link is ACTIVE.
   * A validation error of the charge is thrown as the API would answer it.
   */
  pay(record: PaymentLinkRecord, token: string, payment: PaymentLinkPayment, origin: string, returnUrl: string): Promise<PaymentLinkAttempt> {
    const existing = record.attempts.get(token);
    if (existing) return existing;
    const started = this.#charge(record, token, payment, origin, returnUrl);
    record.attempts.set(token, started);
    // A refused attempt is forgotten, so the corrected form can be sent with the same token.
    started.catch(() => record.attempts.delete(token));
    return started;
  }

  async #charge(record: PaymentLinkRecord, token: string, payment: PaymentLinkPayment, origin: string, returnUrl: string): Promise<PaymentLinkAttempt> {
    const merchant = this.merchantOf(record);
    if (!merchant) throw new SandboxError('NOT_FOUND_ERROR', `the merchant of payment link ${record.link.paymentLinkId} is gone`);
    const { order } = record.link;
    const body: CreateChargeRequest = {
      amount: order.netAmount,
      currency: 'THB',
      referenceId: order.referenceId ?? record.link.paymentLinkId,
      paymentMethod: paymentMethodRequest(payment),
      returnUrl,
      ...(payment.deviceType ? { deviceType: payment.deviceType } : {}),
      ...(payment.customer ? { customer: payment.customer } : {}),
    };
    const response: CreateChargeResponse = await this.#payments.createCharge(merchant, body, origin, {
      source: 'PAYMENT_LINK',
      sourceId: record.link.paymentLinkId,
    });
    return { token, chargeId: response.chargeId, stepUrl: response.redirect?.redirectUrl, qr: response.encodedImage ?? undefined };
  }

  /** The hook on every charge's settlement: pays the link, or refuses a charge it can no longer take. */
  #settle(charge: Readonly<Charge>, outcome: ChargeOutcome): ChargeOutcome {
    if (charge.source !== 'PAYMENT_LINK' || !charge.sourceId || outcome.status !== 'SUCCEEDED') return outcome;
    const record = this.#links.get(charge.sourceId);
    if (!record) return outcome;
    if (this.status(record) !== 'ACTIVE') return { status: 'FAILED', failureCode: 'CH_PROCESSING_FAILED' };
    record.link.status = 'PAID';
    record.link.updatedAt = this.#now().toISOString();
    record.paidByChargeId = charge.chargeId;
    this.#webhooks.send('payment_link.paid', this.view(record), record.link.paymentLinkId);
    return outcome;
  }

  /**
   * The hook on every refund that succeeds: a PAID link whose payment is now refunded in full reads
   * REFUNDED (no webhook: the service documents none for it; `refund.succeeded` tells of it).
   */
  #refunded(charge: Readonly<Charge>, refundedAmount: number): void {
    if (charge.source !== 'PAYMENT_LINK' || !charge.sourceId || refundedAmount < charge.amount) return;
    const record = this.#links.get(charge.sourceId);
    if (record?.paidByChargeId !== charge.chargeId || record.link.status !== 'PAID') return;
    record.link.status = 'REFUNDED';
    record.link.updatedAt = this.#now().toISOString();
  }

  #own(merchant: SandboxMerchant, paymentLinkId: string): PaymentLinkRecord {
    const record = this.#links.get(paymentLinkId);
    if (record?.link.merchantId !== merchant.merchantId) {
      throw new SandboxError('NOT_FOUND_ERROR', `no payment link with id ${paymentLinkId}`);
    }
    return record;
  }
}

