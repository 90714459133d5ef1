import { detectCardBrand, isExpiryInFuture, securityCodeLength } from '../../core/card.js';
import { INSTALLMENT_MIN_AMOUNT_SATANG, type InstallmentPeriod } from '../../core/constants.js';
import { CreateCardTokenRequestSchema, type CardToken } from '../../core/schemas/card-token.js';
import type { PaymentMethodRequest } from '../../core/schemas/payment-method.js';
import { SANDBOX_CARD_TOKEN_TTL_MS, SANDBOX_TEST_CARDS, type TestCard, type TestCardBehaviour } from '../defaults.js';
import { parseRequest } from '../http/parse-request.js';
import { amountInMessage, SandboxError } from '../http/sandbox-error.js';
import type { SandboxMerchant } from '../partners/sandbox-merchant.js';
import { newId } from '../store/ids.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import type { CardTokenRecord } from './charge-records.js';

/** The card a card payment method names, checked and read through its token where it has one. */
export interface ResolvedCard {
  pan: string;
  expiryMonth: number;
  expiryYear: number;
  securityCode?: string | undefined;
  installmentPeriod?: InstallmentPeriod | undefined;
  /** Path of the method object, for error messages. */
  field: string;
  token: CardTokenRecord | undefined;
}

/** The methods that may carry payer authentication details and network transaction ids. */
export const CARD_METHOD_TYPES: ReadonlySet<string> = new Set(['CARD', 'CARD_TOKEN', 'CARD_NETWORK_TOKEN']);

const TEST_CARDS_BY_NUMBER: ReadonlyMap<string, TestCard> = new Map(SANDBOX_TEST_CARDS.map((card) => [card.number, card]));

/** The playground test card with this number, if it is one. */
export function testCard(pan: string): TestCard | undefined {
  return TEST_CARDS_BY_NUMBER.get(pan);
}

/** What a card does when charged: its test card's behaviour, or a processing failure for any other number. */
export function cardBehaviour(pan: string): TestCardBehaviour {
  return testCard(pan)?.behaviour ?? { outcome: 'fail', failureCode: 'CH_PROCESSING_FAILED' };
}

/**
 * Card tokens (`POST /client/v1/card-tokens`) and the checks every card payment goes through:
 * expiry, security code, installment minimums, and a card token's owner, age and single use.
 */
export class SandboxCards {
  readonly #store: SandboxStore;
  readonly #now: () => Date;

  constructor(store: SandboxStore, now: () => Date) {
    this.#store = store;
    this.#now = now;
  }

  /** `POST /client/v1/card-tokens`. */
  createToken(merchant: SandboxMerchant, body: unknown): CardToken {
    const request = parseRequest(CreateCardTokenRequestSchema, body);
    if (!isExpiryInFuture(request.expiryMonth, request.expiryYear, this.#now())) {
      throw SandboxError.field('expiryYear', 'card has expired');
    }
    const id = newId('ctk_');
    this.#store.cardTokens.set(id, { id, merchantId: merchant.merchantId, ...request, createdAt: this.#now(), usedAt: undefined });
    return { id };
  }

  /** Spends the card token a resolved card came from; a token is used once. */
  spend(card: ResolvedCard): void {
    if (!card.token) return;
    if (card.token.usedAt) throw SandboxError.field(`${card.field}.cardTokenId`, 'has already been used; create a new card token');
    card.token.usedAt = this.#now();
  }

  /** Checks a card method for `amount` and reads its card; throws the service's 400 naming the field. */
  resolve(merchant: SandboxMerchant, method: PaymentMethodRequest, amount: number): ResolvedCard {
    const card = this.#read(merchant, method);
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
          `of ${card.installmentPeriod} months needs an amount of at least ${minimum} (${amountInMessage(minimum)})`,
        );
      }
    }
    return card;
  }

  #read(merchant: SandboxMerchant, method: PaymentMethodRequest): ResolvedCard {
    switch (method.paymentMethodType) {
      case 'CARD':
        return { ...method.card, installmentPeriod: undefined, field: 'paymentMethod.card', token: undefined };
      case 'CARD_INSTALLMENTS':
        return { ...method.cardInstallments, field: 'paymentMethod.cardInstallments', token: undefined };
      case 'CARD_NETWORK_TOKEN': {
        const { number, expiryMonth, expiryYear } = method.cardNetworkToken;
        return { pan: number, expiryMonth, expiryYear, securityCode: undefined, installmentPeriod: undefined, field: 'paymentMethod.cardNetworkToken', token: undefined };
      }
      case 'CARD_TOKEN':
      case 'CARD_TOKEN_INSTALLMENTS': {
        const field = method.paymentMethodType === 'CARD_TOKEN' ? 'paymentMethod.cardToken' : 'paymentMethod.cardTokenInstallments';
        const details = method.paymentMethodType === 'CARD_TOKEN' ? method.cardToken : method.cardTokenInstallments;
        const token = this.#usableToken(merchant, details.cardTokenId, `${field}.cardTokenId`);
        return {
          pan: token.pan,
          expiryMonth: token.expiryMonth,
          expiryYear: token.expiryYear,
          securityCode: details.securityCode,
          installmentPeriod: method.paymentMethodType === 'CARD_TOKEN_INSTALLMENTS' ? method.cardTokenInstallments.installmentPeriod : undefined,
          field,
          token,
        };
      }
      default:
        throw new Error(`not a card method: ${method.paymentMethodType}`);
    }
  }

  #usableToken(merchant: SandboxMerchant, tokenId: string, field: string): CardTokenRecord {
    const token = this.#store.cardTokens.get(tokenId);
    if (token?.merchantId !== merchant.merchantId) throw SandboxError.field(field, 'does not match a card token of this merchant');
    if (token.usedAt) throw SandboxError.field(field, 'has already been used; create a new card token');
    if (this.#now().getTime() - token.createdAt.getTime() > SANDBOX_CARD_TOKEN_TTL_MS) {
      throw SandboxError.field(field, 'has expired; create a new card token');
    }
    return token;
  }
}
