import { buildPromptPayBillPaymentPayload } from '../../core/emv-qr.js';
import { CreateChargeRequestSchema, type Charge, type ChargeStatus, type CreateChargeResponse } from '../../core/schemas/charge.js';
import type { CardToken } from '../../core/schemas/card-token.js';
import { PAYMENT_METHOD_FAMILY, PHONE_ONLY_PAYMENT_METHOD_TYPES, type PaymentMethodRequest, type PaymentMethodResponse } from '../../core/schemas/payment-method.js';
import type { Refund } from '../../core/schemas/refund.js';
import type { Transaction } from '../../core/schemas/transaction.js';
import { SANDBOX_DEFAULT_QR_EXPIRY_MS, SANDBOX_MAX_QR_EXPIRY_MS, SANDBOX_MIN_QR_EXPIRY_MS, type TestCardBehaviour } from '../defaults.js';
import { parseRequest } from '../http/parse-request.js';
import { SandboxError } from '../http/sandbox-error.js';
import type { SandboxMerchant } from '../partners/sandbox-merchant.js';
import { newId, newQrReference } from '../store/ids.js';
import { indexKeys, type SandboxStore } from '../store/sandbox-store.js';
import type { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import type { ChargeOrigin, ChargeOutcome, ChargeRecord, ChargeSettleHook } from './charge-records.js';
import { ChargeStateMachine } from './charge-state-machine.js';
import { CARD_METHOD_TYPES, cardBehaviour, SandboxCards } from './cards.js';
import { chargeCustomer } from './charge-customer.js';
import { paymentMethodResponse } from './payment-method-response.js';
import { renderQrPngBase64 } from './qr-image.js';
import { SandboxRefunds } from './refunds.js';
import { SandboxTransactions } from './transactions.js';

export interface SandboxPaymentsOptions {
  store: SandboxStore;
  webhooks: WebhookDispatcher;
  now: () => Date;
  refundSettleDelayMs: number;
  defaultBillerId: string;
  defaultMerchantName: string;
}

/**
 * The payments of the sandbox: card tokens, charges (made here, moved by their
 * {@link ChargeStateMachine}), refunds and the transactions they record. Other features reach
 * charges through it: they read the store and change a charge only through {@link charges}.
 */
export class SandboxPayments {
  readonly store: SandboxStore;
  /** The one writer of charges. */
  readonly charges: ChargeStateMachine;
  readonly cards: SandboxCards;
  readonly refunds: SandboxRefunds;
  readonly transactions: SandboxTransactions;
  readonly #now: () => Date;
  readonly #options: SandboxPaymentsOptions;

  constructor(options: SandboxPaymentsOptions) {
    const { store, webhooks, now } = options;
    this.store = store;
    this.#now = now;
    this.#options = options;
    this.cards = new SandboxCards(store, now);
    this.transactions = new SandboxTransactions(store, webhooks, now);
    this.charges = new ChargeStateMachine({ store, webhooks, transactions: this.transactions, now });
    this.refunds = new SandboxRefunds({ store, charges: this.charges, transactions: this.transactions, webhooks, now, settleDelayMs: options.refundSettleDelayMs });
  }

  /** `POST /client/v1/card-tokens`. */
  createCardToken(merchant: SandboxMerchant, body: unknown): CardToken {
    return this.cards.createToken(merchant, body);
  }

  /** Adds a hook that runs as a charge leaves PENDING; see {@link ChargeSettleHook}. */
  onSettle(hook: ChargeSettleHook): void {
    this.charges.onSettle(hook);
  }

  /**
   * `POST /api/v1/charges`. `from` is the charge's source: `API` with `sourceId` `""` unless the
   * sandbox makes the charge itself, as a payment link's page does (its id is the `sourceId`).
   */
  async createCharge(
    merchant: SandboxMerchant,
    body: unknown,
    origin: string,
    from: ChargeOrigin = { source: 'API', sourceId: '' },
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

    const card = family === 'card' ? this.cards.resolve(merchant, method, request.amount) : undefined;
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
    if (card) this.cards.spend(card);
    const behaviour: TestCardBehaviour | undefined = card ? cardBehaviour(card.pan) : undefined;
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
      paymentMethod: paymentMethodResponse(method, card, qr),
      failureCode: '',
      customer: chargeCustomer(request.customer),
      createdAt: now,
      updatedAt: now,
    };
    this.charges.open({ charge, requestedType: type, family, returnUrl: request.returnUrl, qr, cardBehaviour: behaviour });

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
      this.charges.settle(chargeId, { status: 'SUCCEEDED' });
    } else if (behaviour.outcome === 'fail') {
      this.charges.settle(chargeId, { status: 'FAILED', failureCode: behaviour.failureCode });
    } else if (behaviour.outcome === 'otp' && request.skip3dsFlow === true && merchant.canSkip3ds) {
      this.charges.settle(chargeId, { status: 'SUCCEEDED' });
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
    const card = this.cards.resolve(merchant, method, amount);
    this.cards.spend(card);
    return { behaviour: cardBehaviour(card.pan), paymentMethod: paymentMethodResponse(method, card, undefined) };
  }

  /** A copy of a charge of `merchant`, or a 404. */
  getCharge(merchant: SandboxMerchant, chargeId: string): Charge {
    const record = this.store.charges.get(chargeId);
    if (record?.charge.merchantId !== merchant.merchantId) {
      throw new SandboxError('NOT_FOUND_ERROR', `no charge with id ${chargeId}`);
    }
    return structuredClone(record.charge);
  }

  /** `GET /api/v1/charges`: newest first, filtered by referenceId, source_in and sourceId. */
  listCharges(
    merchant: SandboxMerchant,
    filters: { referenceId?: string | undefined; sourceIn?: readonly string[] | undefined; sourceId?: string | undefined },
    page: { limit: number; offset: number },
  ) {
    // The narrowest index the filters allow; the other filters are checked on its records.
    const { merchantId } = merchant;
    const [key, rest] =
      filters.sourceId !== undefined
        ? [indexKeys.sourceId(merchantId, filters.sourceId), { ...filters, sourceId: undefined }]
        : filters.referenceId !== undefined
          ? [indexKeys.reference(merchantId, filters.referenceId), { ...filters, referenceId: undefined }]
          : filters.sourceIn?.length === 1 && filters.sourceIn[0] !== undefined
            ? [indexKeys.source(merchantId, filters.sourceIn[0]), { ...filters, sourceIn: undefined }]
            : [indexKeys.merchant(merchantId), filters];
    const filtered = rest.referenceId !== undefined || rest.sourceIn !== undefined || rest.sourceId !== undefined;
    const keep = ({ charge }: ChargeRecord) =>
      (rest.referenceId === undefined || charge.referenceId === rest.referenceId) &&
      (rest.sourceIn === undefined || rest.sourceIn.includes(charge.source)) &&
      (rest.sourceId === undefined || charge.sourceId === rest.sourceId);
    return this.store.charges.page(key, page, ({ charge }) => structuredClone(charge), filtered ? keep : undefined);
  }

  /** Moves a charge to its outcome; see {@link ChargeStateMachine.settle}. */
  settleCharge(chargeId: string, outcome: ChargeOutcome, options: { from?: readonly ChargeStatus[] } = {}): Charge {
    return this.charges.settle(chargeId, outcome, options);
  }

  /** The QR charge a PromptPay payload belongs to, for the payer simulator. */
  findChargeByQrPayload(rawData: string): ChargeRecord | undefined {
    const id = this.store.chargeIdByQrPayload.get(rawData);
    return id === undefined ? undefined : this.store.charges.get(id);
  }

  /** `POST /api/v1/refunds`. */
  createRefund(merchant: SandboxMerchant, body: unknown): { refundId: string } {
    return this.refunds.create(merchant, body);
  }

  /** `GET /api/v1/refunds/{refundId}`. */
  getRefund(merchant: SandboxMerchant, refundId: string): Refund {
    return this.refunds.get(merchant, refundId);
  }

  /** `GET /api/v1/transactions/{transactionId}`. */
  getTransaction(merchant: SandboxMerchant, transactionId: string): Transaction {
    return this.transactions.get(merchant, transactionId);
  }

  /** `GET /api/v1/transactions`: newest first. */
  listTransactions(merchant: SandboxMerchant, filters: { referenceId?: string | undefined }, page: { limit: number; offset: number }) {
    return this.transactions.list(merchant, filters, page);
  }

  /** Cancels pending timers (refund settlement). */
  close(): void {
    this.refunds.close();
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
}

/** A merchant name as a Thai QR allows it: printable ASCII, at most 25 characters. */
function asciiName(name: string): string | undefined {
  const ascii = name.replace(/[^\x20-\x7e]/g, '').trim().slice(0, 25);
  return ascii === '' ? undefined : ascii;
}
