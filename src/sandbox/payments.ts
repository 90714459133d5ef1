import { INSTALLMENT_MIN_AMOUNT_SATANG, type InstallmentPeriod } from '../core/constants.js';
import { detectCardBrand, isExpiryInFuture, securityCodeLength } from '../core/card.js';
import { buildPromptPayBillPaymentPayload } from '../core/emv-qr.js';
import {
  CreateChargeRequestSchema,
  type Charge,
  type ChargeFailureCode,
  type ChargeSource,
  type ChargeStatus,
  type CreateChargeResponse,
} from '../core/schemas/charge.js';
import { CreateCardTokenRequestSchema, type CardToken } from '../core/schemas/card-token.js';
import {
  PAYMENT_METHOD_FAMILY,
  PAYMENT_METHOD_OBJECT_KEYS,
  PAYMENT_METHOD_RESPONSE_MEMBERS,
  PHONE_ONLY_PAYMENT_METHOD_TYPES,
  type PaymentMethodRequest,
  type PaymentMethodResponse,
  type PaymentMethodResponseMember,
} from '../core/schemas/payment-method.js';
import { CreateRefundRequestSchema, type Refund } from '../core/schemas/refund.js';
import type { Transaction } from '../core/schemas/transaction.js';
import { toFieldIssues } from '../core/validation.js';
import type * as z from 'zod/mini';
import {
  SANDBOX_CARD_TOKEN_TTL_MS,
  SANDBOX_DEFAULT_QR_EXPIRY_MS,
  SANDBOX_FEE_RATE_BPS,
  SANDBOX_MAX_QR_EXPIRY_MS,
  SANDBOX_MIN_QR_EXPIRY_MS,
  SANDBOX_REFUND_FAILURE_CODE,
  SANDBOX_TEST_CARDS,
  SANDBOX_VAT_RATE_BPS,
  type TestCardBehaviour,
} from './defaults.js';
import { newId, newQrReference } from './store/ids.js';
import { renderQrPngBase64 } from './qr-image.js';
import { SandboxError } from './http/sandbox-error.js';
import { pageNewestFirst, SandboxStore, type CardTokenRecord, type ChargeRecord } from './store/sandbox-store.js';
import type { WebhookDispatcher } from './webhooks/webhook-dispatcher.js';

/** A merchant the sandbox knows, with the keys it authenticates with and what it is allowed. */
export interface SandboxMerchant {
  merchantId: string;
  /** Merchant API key, for `/api/v1/*` from the merchant's server. */
  apiKey: string;
  /** Publishable key, for `/client/v1/*` from a browser. */
  publishableKey: string;
  /** The partner this merchant is under, if any: its partner key may then act for it. */
  partnerId?: string;
  /** Name shown on hosted pages and written into QR payloads. */
  name?: string;
  /** Logo URL shown to shoppers, e.g. as a bolt intent's `merchant.logoUrl`. */
  logoUrl?: string;
  /** PromptPay biller id (15 digits) written into this merchant's QR payloads. */
  promptPayBillerId?: string;
  /** Whether `skip3dsFlow: true` bypasses 3-D Secure for this merchant. */
  canSkip3ds?: boolean;
  /** Whether card payments may omit the security code. */
  canOmitSecurityCode?: boolean;
  /** Whether this merchant may send its own `payerAuthenticationDetails`. */
  canSupplyPayerAuthentication?: boolean;
}

/** What a hosted page or the payer simulator decided about a pending charge. */
export type ChargeOutcome = { status: 'SUCCEEDED' } | { status: 'FAILED'; failureCode: ChargeFailureCode };

/** Where a charge comes from: `API` for `POST /api/v1/charges`, or a source such as a payment link. */
export interface ChargeOrigin {
  source: ChargeSource;
  sourceId: string | null;
}

/**
 * Runs when a charge is about to leave PENDING, before its status changes and before its webhooks
 * go out. It may replace the outcome (a payment link that can no longer be paid fails the charge),
 * and webhooks it sends go out ahead of the charge's own.
 */
export type ChargeSettleHook = (charge: Readonly<Charge>, outcome: ChargeOutcome) => ChargeOutcome;

export interface SandboxPaymentsOptions {
  store: SandboxStore;
  webhooks: WebhookDispatcher;
  now: () => Date;
  refundSettleDelayMs: number;
  defaultBillerId: string;
  defaultMerchantName: string;
}

const TEST_CARDS_BY_NUMBER = new Map(SANDBOX_TEST_CARDS.map((card) => [card.number, card]));
const CARD_METHOD_TYPES = new Set(['CARD', 'CARD_TOKEN', 'CARD_NETWORK_TOKEN']);

interface ResolvedCard {
  pan: string;
  expiryMonth: number;
  expiryYear: number;
  securityCode?: string | undefined;
  installmentPeriod?: InstallmentPeriod | undefined;
  /** Path of the method object, for error messages. */
  field: string;
  token: CardTokenRecord | undefined;
}

/** Parses `body` with `schema`, or throws the service's validation error naming each field. */
export function parseRequest<S extends z.core.$ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = (schema as unknown as z.ZodMiniType).safeParse(body);
  if (!result.success) throw SandboxError.validation(toFieldIssues(result.error.issues, body));
  return result.data as z.infer<S>;
}

/**
 * The payment logic of the sandbox: card tokens, charges and their state machine
 * (PENDING -> SUCCEEDED | FAILED), transactions, refunds and the webhooks they fire.
 */
export class SandboxPayments {
  readonly store: SandboxStore;
  readonly #webhooks: WebhookDispatcher;
  readonly #now: () => Date;
  readonly #options: SandboxPaymentsOptions;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #settleHooks: ChargeSettleHook[] = [];

  constructor(options: SandboxPaymentsOptions) {
    this.store = options.store;
    this.#webhooks = options.webhooks;
    this.#now = options.now;
    this.#options = options;
  }

  /** `POST /client/v1/card-tokens`. */
  createCardToken(merchant: SandboxMerchant, body: unknown): CardToken {
    const request = parseRequest(CreateCardTokenRequestSchema, body);
    if (!isExpiryInFuture(request.expiryMonth, request.expiryYear, this.#now())) {
      throw SandboxError.field('expiryYear', 'card has expired');
    }
    const id = newId('ctk_');
    this.store.cardTokens.set(id, { id, merchantId: merchant.merchantId, ...request, createdAt: this.#now(), usedAt: undefined });
    return { id };
  }

  /** Adds a {@link ChargeSettleHook}; hooks run in the order they were added. */
  onSettle(hook: ChargeSettleHook): void {
    this.#settleHooks.push(hook);
  }

  /**
   * `POST /api/v1/charges`. `from` is the charge's source: `API` unless the sandbox makes the
   * charge itself, as a payment link's page does.
   */
  async createCharge(
    merchant: SandboxMerchant,
    body: unknown,
    origin: string,
    from: ChargeOrigin = { source: 'API', sourceId: null },
  ): Promise<CreateChargeResponse> {
    const request = parseRequest(CreateChargeRequestSchema, body);
    const method = request.paymentMethod;
    const type = method.paymentMethodType;
    const family = PAYMENT_METHOD_FAMILY[type];

    if (PHONE_ONLY_PAYMENT_METHOD_TYPES.includes(type) && request.deviceType !== 'ANDROID' && request.deviceType !== 'IOS') {
      throw SandboxError.field('deviceType', `must be ANDROID or IOS for ${type}`);
    }
    if (!CARD_METHOD_TYPES.has(type)) {
      for (const field of ['payerAuthenticationDetails', 'initiatorType', 'networkTransactionId'] as const) {
        if (request[field] !== undefined) throw SandboxError.field(field, 'only applies to CARD, CARD_TOKEN and CARD_NETWORK_TOKEN');
      }
    }
    if (request.payerAuthenticationDetails !== undefined && !merchant.canSupplyPayerAuthentication) {
      throw new SandboxError('OPERATION_NOT_ALLOWED_ERROR', 'this merchant is not approved to supply payerAuthenticationDetails');
    }

    const card = family === 'card' ? this.#resolveCard(merchant, method, request.amount) : undefined;
    let qr: ChargeRecord['qr'];
    let encodedImage: CreateChargeResponse['encodedImage'];
    if (method.paymentMethodType === 'QR_PROMPT_PAY') {
      const expiresAt = this.#qrExpiry(method.qrPromptPay);
      const rawData = buildPromptPayBillPaymentPayload({
        billerId: merchant.promptPayBillerId ?? this.#options.defaultBillerId,
        reference1: newQrReference(),
        amountSatang: request.amount,
        merchantName: asciiName(merchant.name ?? this.#options.defaultMerchantName),
      });
      qr = { rawData, expiresAt };
      encodedImage = { rawData, expiry: expiresAt.toISOString(), imageBase64Encoded: await renderQrPngBase64(rawData) };
    }

    // Nothing below awaits: the token is spent and the charge stored in one turn.
    if (card?.token) {
      if (card.token.usedAt) throw SandboxError.field(`${card.field}.cardTokenId`, 'has already been used; create a new card token');
      card.token.usedAt = this.#now();
    }
    const behaviour: TestCardBehaviour | undefined = card
      ? (TEST_CARDS_BY_NUMBER.get(card.pan)?.behaviour ?? { outcome: 'fail', failureCode: 'CH_PROCESSING_FAILED' })
      : undefined;
    const now = this.#now().toISOString();
    const chargeId = newId('ch_');
    const charge: Charge = {
      chargeId,
      merchantId: merchant.merchantId,
      referenceId: request.referenceId,
      status: 'PENDING',
      currency: request.currency,
      amount: request.amount,
      source: from.source,
      sourceId: from.sourceId,
      transactionTime: null,
      paymentMethod: this.#paymentMethodResponse(method, card, qr),
      failureCode: '',
      customer: request.customer
        ? {
            email: request.customer.email ?? null,
            primaryPhone: request.customer.primaryPhone ?? null,
            deliveryAddress: request.customer.deliveryAddress ?? null,
          }
        : null,
      createdAt: now,
      updatedAt: now,
    };
    const record: ChargeRecord = {
      charge,
      seq: this.store.nextSeq(),
      requestedType: type,
      family,
      returnUrl: request.returnUrl,
      qr,
      cardBehaviour: behaviour,
      refundedAmount: 0,
    };
    this.store.charges.set(chargeId, record);
    if (qr) this.store.chargeIdByQrPayload.set(qr.rawData, chargeId);

    const response: CreateChargeResponse = { chargeId, paymentMethodType: type, actionRequired: 'NONE' };
    const redirect = (page: string) => {
      response.actionRequired = 'REDIRECT';
      response.redirect = { redirectUrl: `${origin}/sandbox/pages/${page}/${chargeId}` };
    };
    if (encodedImage) {
      response.actionRequired = 'ENCODED_IMAGE';
      response.encodedImage = encodedImage;
    } else if (!behaviour) {
      redirect('authorize');
    } else if (behaviour.outcome === 'succeed') {
      this.settleCharge(chargeId, { status: 'SUCCEEDED' });
    } else if (behaviour.outcome === 'fail') {
      this.settleCharge(chargeId, { status: 'FAILED', failureCode: behaviour.failureCode });
    } else if (behaviour.outcome === 'otp' && request.skip3dsFlow === true && merchant.canSkip3ds) {
      this.settleCharge(chargeId, { status: 'SUCCEEDED' });
    } else {
      redirect(behaviour.outcome);
    }
    return response;
  }

  /**
   * Checks a card method as a charge does (expiry, security code, the card token's owner, age and
   * single use) and spends its card token, for a resource paid by card that is not a charge (a card
   * authorization): what the test card will do, and the card as the resource shows it.
   */
  useCard(merchant: SandboxMerchant, method: PaymentMethodRequest, amount: number): { behaviour: TestCardBehaviour; paymentMethod: PaymentMethodResponse } {
    const card = this.#resolveCard(merchant, method, amount);
    if (card.token) card.token.usedAt = this.#now();
    return {
      behaviour: TEST_CARDS_BY_NUMBER.get(card.pan)?.behaviour ?? { outcome: 'fail', failureCode: 'CH_PROCESSING_FAILED' },
      paymentMethod: this.#paymentMethodResponse(method, card, undefined),
    };
  }

  /** A copy of a charge of `merchant`, or a 404. */
  getCharge(merchant: SandboxMerchant, chargeId: string): Charge {
    const record = this.store.charges.get(chargeId);
    if (!record || record.charge.merchantId !== merchant.merchantId) {
      throw new SandboxError('NOT_FOUND_ERROR', `no charge with id ${chargeId}`);
    }
    return structuredClone(record.charge);
  }

  /** `GET /api/v1/charges`: newest first, filtered by referenceId, source_in and sourceId. */
  listCharges(
    merchant: SandboxMerchant,
    filters: { referenceId?: string; sourceIn?: readonly string[]; sourceId?: string },
    page: { limit: number; offset: number },
  ) {
    return pageNewestFirst(
      this.store.charges.values(),
      ({ charge }) =>
        charge.merchantId === merchant.merchantId &&
        (filters.referenceId === undefined || charge.referenceId === filters.referenceId) &&
        (filters.sourceIn === undefined || filters.sourceIn.includes(charge.source)) &&
        (filters.sourceId === undefined || charge.sourceId === filters.sourceId),
      ({ charge }) => structuredClone(charge),
      page,
    );
  }

  /**
   * Moves a PENDING charge to its outcome. A success records the PAYMENT transaction; the
   * webhooks follow (charge first, then transaction). `from` widens the states it may leave:
   * a verified transfer slip also turns a FAILED charge SUCCEEDED.
   */
  settleCharge(chargeId: string, outcome: ChargeOutcome, { from = ['PENDING'] }: { from?: readonly ChargeStatus[] } = {}): Charge {
    const record = this.store.charges.get(chargeId);
    if (!record) throw new SandboxError('NOT_FOUND_ERROR', `no charge with id ${chargeId}`);
    const { charge } = record;
    if (!from.includes(charge.status)) {
      throw new SandboxError('REQUEST_CONFLICT_ERROR', `charge ${chargeId} is already ${charge.status}`);
    }
    for (const hook of this.#settleHooks) outcome = hook(charge, outcome);
    const now = this.#now().toISOString();
    charge.status = outcome.status;
    charge.updatedAt = now;
    const cardMember = charge.paymentMethod.card ?? charge.paymentMethod.cardInstallments ?? charge.paymentMethod.cardNetworkToken;
    if (outcome.status === 'SUCCEEDED') {
      charge.transactionTime = now;
      charge.failureCode = '';
      if (cardMember) {
        cardMember.iso8583ResponseCode = '00';
        cardMember.networkTransactionId = newId('', 15, '0123456789');
      }
    } else {
      charge.failureCode = outcome.failureCode;
      if (cardMember) cardMember.iso8583ResponseCode = outcome.failureCode === 'CH_INSUFFICIENT_FUNDS' ? '51' : '05';
    }
    this.#webhooks.send(outcome.status === 'SUCCEEDED' ? 'charge.succeeded' : 'charge.failed', structuredClone(charge), chargeId);
    if (outcome.status === 'SUCCEEDED') {
      const rate = SANDBOX_FEE_RATE_BPS[record.family];
      this.#recordTransaction(charge, 'PAYMENT', chargeId, charge.amount, rate);
    }
    return structuredClone(charge);
  }

  /** The pending QR charge a PromptPay payload belongs to, for the payer simulator. */
  findChargeByQrPayload(rawData: string): ChargeRecord | undefined {
    const id = this.store.chargeIdByQrPayload.get(rawData);
    return id === undefined ? undefined : this.store.charges.get(id);
  }

  /** `POST /api/v1/refunds`: full, or partial for CARD charges; settles after a short delay. */
  createRefund(merchant: SandboxMerchant, body: unknown): { refundId: string } {
    const request = parseRequest(CreateRefundRequestSchema, body);
    const record = this.store.charges.get(request.chargeId);
    if (!record || record.charge.merchantId !== merchant.merchantId) {
      throw new SandboxError('NOT_FOUND_ERROR', `no charge with id ${request.chargeId}`);
    }
    const { charge } = record;
    if (charge.status === 'PENDING') throw new SandboxError('CHARGE_PENDING', `charge ${charge.chargeId} is still PENDING; refund it once it has SUCCEEDED`);
    if (charge.status === 'FAILED') throw new SandboxError('OPERATION_NOT_ALLOWED_ERROR', `charge ${charge.chargeId} FAILED; only a SUCCEEDED charge can be refunded`);
    for (const { refund } of this.store.refunds.values()) {
      if (refund.chargeId === charge.chargeId && refund.status === 'PENDING') {
        throw new SandboxError('REFUND_PENDING', `refund ${refund.refundId} of this charge is still PENDING`);
      }
    }
    if (record.cardBehaviour?.outcome === 'succeed' && record.cardBehaviour.refunds === 'refused') {
      throw new SandboxError('OPERATION_NOT_ALLOWED_ERROR', 'refunds are not allowed for this card');
    }
    const remaining = charge.amount - record.refundedAmount;
    if (remaining <= 0) throw new SandboxError('REQUEST_CONFLICT_ERROR', `charge ${charge.chargeId} is already fully refunded`);
    const amount = request.amount ? request.amount : remaining;
    if (amount > remaining) throw SandboxError.field('amount', `must be at most ${remaining}, the amount left to refund`);
    if (amount !== charge.amount && charge.paymentMethod.paymentMethodType !== 'CARD') {
      throw SandboxError.field('amount', 'partial refunds are only possible for CARD charges; omit amount for a full refund');
    }

    const now = this.#now().toISOString();
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
      createdAt: now,
      updatedAt: now,
      transactionTime: null,
    };
    record.refundedAmount += amount;
    this.store.refunds.set(refundId, { refund, seq: this.store.nextSeq() });
    const fails = record.cardBehaviour?.outcome === 'succeed' && record.cardBehaviour.refunds === 'fail';
    this.#later(this.#options.refundSettleDelayMs, () => this.#settleRefund(refundId, fails));
    return { refundId };
  }

  /** `GET /api/v1/refunds/{refundId}`. */
  getRefund(merchant: SandboxMerchant, refundId: string): Refund {
    const record = this.store.refunds.get(refundId);
    if (!record || record.refund.merchantId !== merchant.merchantId) throw new SandboxError('NOT_FOUND_ERROR', `no refund with id ${refundId}`);
    return structuredClone(record.refund);
  }

  /** `GET /api/v1/transactions/{transactionId}`. */
  getTransaction(merchant: SandboxMerchant, transactionId: string): Transaction {
    const record = this.store.transactions.get(transactionId);
    if (!record || record.transaction.merchantId !== merchant.merchantId) {
      throw new SandboxError('NOT_FOUND_ERROR', `no transaction with id ${transactionId}`);
    }
    return structuredClone(record.transaction);
  }

  /** `GET /api/v1/transactions`: newest first. */
  listTransactions(merchant: SandboxMerchant, filters: { referenceId?: string }, page: { limit: number; offset: number }) {
    return pageNewestFirst(
      this.store.transactions.values(),
      ({ transaction }) =>
        transaction.merchantId === merchant.merchantId &&
        (filters.referenceId === undefined || transaction.referenceId === filters.referenceId),
      ({ transaction }) => structuredClone(transaction),
      page,
    );
  }

  /** Cancels pending timers (refund settlement). */
  close(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  #settleRefund(refundId: string, fails: boolean): void {
    const record = this.store.refunds.get(refundId);
    if (!record || record.refund.status !== 'PENDING') return;
    const { refund } = record;
    const now = this.#now().toISOString();
    refund.updatedAt = now;
    if (fails) {
      refund.status = 'FAILED';
      refund.failureCode = SANDBOX_REFUND_FAILURE_CODE;
      const charge = this.store.charges.get(refund.chargeId);
      if (charge) charge.refundedAmount -= refund.amount;
      this.#webhooks.send('refund.failed', structuredClone(refund), refundId);
      return;
    }
    refund.status = 'SUCCEEDED';
    refund.transactionTime = now;
    this.#webhooks.send('refund.succeeded', structuredClone(refund), refundId);
    const charge = this.store.charges.get(refund.chargeId)?.charge;
    if (charge) this.#recordTransaction(charge, 'REFUND', refundId, refund.amount, 0);
  }

  #recordTransaction(charge: Charge, type: 'PAYMENT' | 'REFUND', transactionId: string, grossAmount: number, rateBps: number): void {
    const now = this.#now().toISOString();
    const feeAmount = Math.round((grossAmount * rateBps) / 10_000);
    const vatAmount = Math.round((feeAmount * SANDBOX_VAT_RATE_BPS) / 10_000);
    const transaction: Transaction = {
      transactionId,
      merchantId: charge.merchantId,
      referenceId: charge.referenceId ?? '',
      transactionType: type,
      chargeSource: charge.source,
      sourceId: charge.sourceId ?? null,
      currency: charge.currency,
      grossAmount,
      feeAmount,
      vatAmount,
      netAmount: grossAmount - feeAmount - vatAmount,
      feeStrategy: 'RATE',
      createdAt: now,
      transactionTime: now,
    };
    this.store.transactions.set(transactionId, { transaction, seq: this.store.nextSeq() });
    this.#webhooks.send('transaction.created', structuredClone(transaction), transactionId);
  }

  #later(delayMs: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, delayMs);
    timer.unref?.();
    this.#timers.add(timer);
  }

  #resolveCard(merchant: SandboxMerchant, method: PaymentMethodRequest, amount: number): ResolvedCard {
    let card: ResolvedCard;
    switch (method.paymentMethodType) {
      case 'CARD':
        card = { ...method.card, installmentPeriod: undefined, field: 'paymentMethod.card', token: undefined };
        break;
      case 'CARD_INSTALLMENTS':
        card = { ...method.cardInstallments, field: 'paymentMethod.cardInstallments', token: undefined };
        break;
      case 'CARD_NETWORK_TOKEN': {
        const { tokenNumber, expiryMonth, expiryYear } = method.cardNetworkToken;
        card = { pan: tokenNumber, expiryMonth, expiryYear, securityCode: undefined, installmentPeriod: undefined, field: 'paymentMethod.cardNetworkToken', token: undefined };
        break;
      }
      case 'CARD_TOKEN':
      case 'CARD_TOKEN_INSTALLMENTS': {
        const field = method.paymentMethodType === 'CARD_TOKEN' ? 'paymentMethod.cardToken' : 'paymentMethod.cardTokenInstallments';
        const details = method.paymentMethodType === 'CARD_TOKEN' ? method.cardToken : method.cardTokenInstallments;
        const token = this.#usableToken(merchant, details.cardTokenId, `${field}.cardTokenId`);
        card = {
          pan: token.pan,
          expiryMonth: token.expiryMonth,
          expiryYear: token.expiryYear,
          securityCode: details.securityCode,
          installmentPeriod:
            method.paymentMethodType === 'CARD_TOKEN_INSTALLMENTS' ? method.cardTokenInstallments.installmentPeriod : undefined,
          field,
          token,
        };
        break;
      }
      default:
        throw new Error(`not a card method: ${method.paymentMethodType}`);
    }
    if (!isExpiryInFuture(card.expiryMonth, card.expiryYear, this.#now())) {
      throw SandboxError.field(card.field, 'card has expired');
    }
    const brand = detectCardBrand(card.pan);
    if (method.paymentMethodType !== 'CARD_NETWORK_TOKEN') {
      if (card.securityCode === undefined) {
        if (!merchant.canOmitSecurityCode) throw SandboxError.field(`${card.field}.securityCode`, 'is required');
      } else if (card.securityCode.length !== securityCodeLength(brand)) {
        throw SandboxError.field(`${card.field}.securityCode`, `must be ${securityCodeLength(brand)} digits for a ${brand} card`);
      }
    }
    if (card.installmentPeriod !== undefined) {
      const minimum = INSTALLMENT_MIN_AMOUNT_SATANG[card.installmentPeriod];
      if (amount < minimum) {
        throw SandboxError.field(
          `${card.field}.installmentPeriod`,
          `of ${card.installmentPeriod} months needs an amount of at least ${minimum} (${(minimum / 100).toLocaleString('en-US')}.00 THB)`,
        );
      }
    }
    return card;
  }

  #usableToken(merchant: SandboxMerchant, tokenId: string, field: string): CardTokenRecord {
    const token = this.store.cardTokens.get(tokenId);
    if (!token || token.merchantId !== merchant.merchantId) throw SandboxError.field(field, 'does not match a card token of this merchant');
    if (token.usedAt) throw SandboxError.field(field, 'has already been used; create a new card token');
    if (this.#now().getTime() - token.createdAt.getTime() > SANDBOX_CARD_TOKEN_TTL_MS) {
      throw SandboxError.field(field, 'has expired; create a new card token');
    }
    return token;
  }

  #qrExpiry(options: { expiryTime?: string | undefined; expiresAt?: string | undefined } | undefined): Date {
    const now = this.#now().getTime();
    const given = options?.expiryTime ?? options?.expiresAt;
    if (options?.expiryTime && options.expiresAt && Date.parse(options.expiryTime) !== Date.parse(options.expiresAt)) {
      throw SandboxError.field('paymentMethod.qrPromptPay.expiryTime', 'and expiresAt disagree; send one of them');
    }
    if (given === undefined) return new Date(now + SANDBOX_DEFAULT_QR_EXPIRY_MS);
    const at = Date.parse(given);
    if (at - now < SANDBOX_MIN_QR_EXPIRY_MS || at - now > SANDBOX_MAX_QR_EXPIRY_MS) {
      throw SandboxError.field(
        `paymentMethod.qrPromptPay.${options?.expiryTime ? 'expiryTime' : 'expiresAt'}`,
        'must be between 1 minute and 24 hours from now',
      );
    }
    return new Date(at);
  }

  #paymentMethodResponse(method: PaymentMethodRequest, card: ResolvedCard | undefined, qr: ChargeRecord['qr']): PaymentMethodResponse {
    const members = Object.fromEntries(PAYMENT_METHOD_RESPONSE_MEMBERS.map((m) => [m, null])) as Record<PaymentMethodResponseMember, null>;
    const type = method.paymentMethodType;
    if (card) {
      const testCard = TEST_CARDS_BY_NUMBER.get(card.pan);
      const details = {
        last4: card.pan.slice(-4),
        brand: detectCardBrand(card.pan),
        countryAlpha2: testCard?.countryAlpha2 ?? 'TH',
        iso8583ResponseCode: null as string | null,
        merchantAdviceCode: null,
        networkTransactionId: null as string | null,
      };
      // A tokenized card reads back as the card it stands for.
      if (type === 'CARD_INSTALLMENTS' || type === 'CARD_TOKEN_INSTALLMENTS') {
        return { paymentMethodType: 'CARD_INSTALLMENTS', ...members, cardInstallments: { ...details, installmentPeriod: card.installmentPeriod } };
      }
      if (type === 'CARD_NETWORK_TOKEN') return { paymentMethodType: 'CARD_NETWORK_TOKEN', ...members, cardNetworkToken: details };
      return { paymentMethodType: 'CARD', ...members, card: details };
    }
    if (qr) return { paymentMethodType: 'QR_PROMPT_PAY', ...members, qrPromptPay: { expiryTime: qr.expiresAt.toISOString() } };
    return { paymentMethodType: type, ...members, [PAYMENT_METHOD_OBJECT_KEYS[type]]: {} };
  }
}

/** A merchant name as a Thai QR allows it: printable ASCII, at most 25 characters. */
function asciiName(name: string): string | undefined {
  const ascii = name.replace(/[^\x20-\x7e]/g, '').trim().slice(0, 25);
  return ascii === '' ? undefined : ascii;
}

