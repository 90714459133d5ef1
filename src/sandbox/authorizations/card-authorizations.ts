import {
  CaptureCardAuthorizationRequestSchema,
  CreateCardAuthorizationRequestSchema,
  type CaptureCardAuthorizationResponse,
  type CardAuthorization,
  type CreateCardAuthorizationResponse,
} from '../../core/schemas/card-authorization.js';
import type { Charge } from '../../core/schemas/charge.js';
import { chargeCustomer } from '../charges/charge-customer.js';
import type { ChargeOutcome, ChargeRecord } from '../charges/charge-records.js';
import { writeCardNetworkAnswer } from '../charges/charge-state-machine.js';
import type { SandboxPayments } from '../charges/sandbox-payments.js';
import type { HostedStep } from '../hosted-pages/hosted-steps.js';
import { paymentMethodLabel } from '../http/page-layout.js';
import { parseRequest } from '../http/parse-request.js';
import { SandboxError } from '../http/sandbox-error.js';
import type { SandboxMerchant } from '../partners/sandbox-merchant.js';
import { newId } from '../store/ids.js';
import { pageNewestFirst } from '../store/sandbox-store.js';
import type { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import { refuse } from './authorization-refusal.js';
import { CARD_AUTHORIZATIONS, type CardAuthorizationRecord, type StoredAuthorization } from './card-authorization-records.js';

/**
 * How long an AUTHORIZED card authorization can be captured, counted from `authorizedAt`. A
 * sandbox choice: the contract shows `expiresAt` but not how far ahead it lies; 7 days is what
 * card networks commonly hold an authorization for. Past it the authorization reads EXPIRED.
 */
export const SANDBOX_CARD_AUTHORIZATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface SandboxAuthorizationsOptions {
  payments: SandboxPayments;
  webhooks: WebhookDispatcher;
  now: () => Date;
}

/**
 * Card authorizations of the sandbox: a card charge that only reserves the amount, then captures
 * that turn (part of) it into real charges.
 *
 * States: PENDING (waiting for the OTP or force page) -> AUTHORIZED | FAILED; AUTHORIZED ->
 * CANCELED (cancel), CAPTURED (a final capture, one that takes everything left, or any capture
 * without `supportsMulticapture`) or EXPIRED (read after `expiresAt`, computed from the clock when
 * read: no event exists for it). Webhooks: `card_authorization.authorized`, `.failed` and
 * `.canceled`, each with the authorization as GET returns it; a capture sends `charge.succeeded`
 * and `transaction.created` like any charge.
 */
export class SandboxAuthorizations {
  /** The card authorizations, by id, as the store holds them. */
  readonly records: Map<string, CardAuthorizationRecord>;
  readonly #payments: SandboxPayments;
  readonly #webhooks: WebhookDispatcher;
  readonly #now: () => Date;

  constructor(options: SandboxAuthorizationsOptions) {
    this.#payments = options.payments;
    this.records = options.payments.store.slice(CARD_AUTHORIZATIONS);
    this.#webhooks = options.webhooks;
    this.#now = options.now;
  }

  /** `POST /api/v1/card-authorizations`. */
  create(merchant: SandboxMerchant, body: unknown, origin: string): CreateCardAuthorizationResponse {
    const request = parseRequest(CreateCardAuthorizationRequestSchema, body);
    if (request.payerAuthenticationDetails !== undefined && !merchant.canSupplyPayerAuthentication) {
      throw new SandboxError('OPERATION_NOT_ALLOWED_ERROR', 'this merchant is not approved to supply payerAuthenticationDetails');
    }
    // Checks the card and spends its token; nothing below can fail, so a refused request keeps the token.
    const { behaviour, paymentMethod } = this.#payments.useCard(merchant, request.paymentMethod, request.amount);
    const now = this.#now().toISOString();
    const cardAuthorizationId = newId('ca_');
    const authorization: StoredAuthorization = {
      cardAuthorizationId,
      merchantId: merchant.merchantId,
      referenceId: request.referenceId,
      status: 'PENDING',
      supportsMulticapture: request.supportsMulticapture ?? false,
      currency: request.currency,
      amount: request.amount,
      capturedAmount: 0,
      capturableAmount: 0,
      latestChargeId: '',
      authorizedAt: null,
      expiresAt: null,
      paymentMethod: {
        paymentMethodType: paymentMethod.paymentMethodType,
        card: paymentMethod.card ?? null,
        cardNetworkToken: paymentMethod.cardNetworkToken ?? null,
      },
      failureCode: '',
      createdAt: now,
      updatedAt: now,
    };
    this.records.set(cardAuthorizationId, {
      authorization,
      seq: this.#payments.store.nextSeq(),
      requestedType: request.paymentMethod.paymentMethodType,
      paymentMethod,
      behaviour,
      request: {
        returnUrl: request.returnUrl,
        skip3dsFlow: request.skip3dsFlow,
        customer: request.customer,
        payerAuthenticationDetails: request.payerAuthenticationDetails,
        initiatorType: request.initiatorType,
        networkTransactionId: request.networkTransactionId,
      },
      captureIds: [],
    });

    const response: CreateCardAuthorizationResponse = { cardAuthorizationId, actionRequired: 'NONE' };
    if (behaviour.outcome === 'succeed' || (behaviour.outcome === 'otp' && request.skip3dsFlow === true && merchant.canSkip3ds)) {
      this.settle(cardAuthorizationId, { status: 'SUCCEEDED' });
    } else if (behaviour.outcome === 'fail') {
      this.settle(cardAuthorizationId, { status: 'FAILED', failureCode: behaviour.failureCode });
    } else {
      response.actionRequired = 'REDIRECT';
      response.redirect = { redirectUrl: `${origin}/sandbox/pages/${behaviour.outcome}/${cardAuthorizationId}` };
    }
    return response;
  }

  /** `GET /api/v1/card-authorizations/{id}`. */
  get(merchant: SandboxMerchant, cardAuthorizationId: string): CardAuthorization {
    return structuredClone(this.#find(merchant, cardAuthorizationId).authorization);
  }

  /** `GET /api/v1/card-authorizations`: newest first. */
  list(merchant: SandboxMerchant, page: { limit: number; offset: number }) {
    return pageNewestFirst(
      this.records.values(),
      (record) => record.authorization.merchantId === merchant.merchantId,
      (record) => structuredClone(this.#current(record).authorization),
      page,
    );
  }

  /** `POST /api/v1/card-authorizations/{id}/cancel`: releases what is still reserved. */
  cancel(merchant: SandboxMerchant, cardAuthorizationId: string): CardAuthorization {
    const record = this.#find(merchant, cardAuthorizationId);
    const { authorization } = record;
    if (authorization.status !== 'AUTHORIZED') refuse(authorization, 'canceled');
    authorization.status = 'CANCELED';
    authorization.capturableAmount = 0;
    authorization.updatedAt = this.#now().toISOString();
    this.#webhooks.send('card_authorization.canceled', structuredClone(authorization), cardAuthorizationId);
    return structuredClone(authorization);
  }

  /** `GET /api/v1/card-authorizations/{id}/charges`: its captures, newest first. */
  listCaptures(merchant: SandboxMerchant, cardAuthorizationId: string, page: { limit: number; offset: number }) {
    const record = this.#find(merchant, cardAuthorizationId);
    const captures = record.captureIds.map((id) => this.#payments.store.charges.get(id)).filter((c): c is ChargeRecord => c !== undefined);
    return pageNewestFirst(captures, () => true, ({ charge }) => structuredClone(charge), page);
  }

  /**
   * `POST /api/v1/card-authorizations/{id}/charges`: captures `amount` of what is reserved as a
   * SUCCEEDED charge (source API, sourceId the authorization), with its PAYMENT transaction and
   * webhooks, refundable like any card charge.
   */
  capture(merchant: SandboxMerchant, cardAuthorizationId: string, body: unknown): CaptureCardAuthorizationResponse {
    const request = parseRequest(CaptureCardAuthorizationRequestSchema, body);
    const record = this.#find(merchant, cardAuthorizationId);
    const { authorization } = record;
    if (authorization.status !== 'AUTHORIZED') refuse(authorization, 'captured');
    if (request.currency !== authorization.currency) {
      throw SandboxError.field('currency', `must be ${authorization.currency}, the currency of the authorization`);
    }
    if (request.amount > authorization.capturableAmount) {
      throw SandboxError.field('amount', `must be at most ${authorization.capturableAmount}, the amount still capturable on ${cardAuthorizationId}`);
    }

    const now = this.#now().toISOString();
    const chargeId = newId('ch_');
    const charge: Charge = {
      chargeId,
      merchantId: merchant.merchantId,
      referenceId: request.referenceId,
      status: 'PENDING',
      currency: request.currency,
      amount: request.amount,
      // CHARGE_SOURCES has no value for captures: they are API charges whose sourceId names the authorization.
      source: 'API',
      sourceId: cardAuthorizationId,
      transactionTime: null,
      paymentMethod: structuredClone(record.paymentMethod),
      failureCode: '',
      customer: chargeCustomer(record.request.customer),
      createdAt: now,
      updatedAt: now,
    };
    this.#payments.charges.open({
      charge,
      requestedType: record.requestedType,
      family: 'card',
      returnUrl: undefined,
      qr: undefined,
      // The card's step was taken at authorization; what stays is how its refunds behave.
      cardBehaviour: record.behaviour.outcome === 'succeed' ? record.behaviour : { outcome: 'succeed' },
    });
    record.captureIds.push(chargeId);

    // The authorization is brought up to date before the charge's webhooks go out, so a receiver
    // that reads it back sees the capture.
    authorization.capturedAmount += request.amount;
    authorization.capturableAmount -= request.amount;
    authorization.latestChargeId = chargeId;
    authorization.updatedAt = now;
    if (request.isFinal === true || !authorization.supportsMulticapture || authorization.capturableAmount === 0) {
      authorization.status = 'CAPTURED';
      authorization.capturableAmount = 0;
    }
    this.#payments.charges.settle(chargeId, { status: 'SUCCEEDED' });
    return { chargeId };
  }

  /**
   * Moves a PENDING authorization to its outcome, from creation or from the OTP or force page:
   * AUTHORIZED (reserving the whole amount until {@link SANDBOX_CARD_AUTHORIZATION_TTL_MS} later)
   * or FAILED, with the matching webhook.
   */
  settle(cardAuthorizationId: string, outcome: ChargeOutcome): CardAuthorization {
    const record = this.records.get(cardAuthorizationId);
    if (!record) throw new SandboxError('NOT_FOUND_ERROR', `no card authorization with id ${cardAuthorizationId}`);
    const { authorization } = record;
    if (authorization.status !== 'PENDING') {
      throw new SandboxError('REQUEST_CONFLICT_ERROR', `card authorization ${cardAuthorizationId} is already ${authorization.status}`);
    }
    const now = this.#now();
    authorization.updatedAt = now.toISOString();
    if (outcome.status === 'SUCCEEDED') {
      authorization.status = 'AUTHORIZED';
      authorization.capturableAmount = authorization.amount;
      authorization.authorizedAt = now.toISOString();
      authorization.expiresAt = new Date(now.getTime() + SANDBOX_CARD_AUTHORIZATION_TTL_MS).toISOString();
    } else {
      authorization.status = 'FAILED';
      authorization.failureCode = outcome.failureCode;
    }
    // The same object as the authorization's member: both read the network's answer.
    writeCardNetworkAnswer(record.paymentMethod.card ?? record.paymentMethod.cardNetworkToken, outcome);
    const event = outcome.status === 'SUCCEEDED' ? 'card_authorization.authorized' : 'card_authorization.failed';
    this.#webhooks.send(event, structuredClone(authorization), cardAuthorizationId);
    return structuredClone(authorization);
  }

  /** The OTP or force page step of a PENDING authorization, for the hosted pages. */
  hostedStep(cardAuthorizationId: string): HostedStep | undefined {
    const record = this.records.get(cardAuthorizationId);
    if (!record) return undefined;
    const { behaviour } = record;
    return {
      step: behaviour.outcome === 'otp' || behaviour.outcome === 'force' ? behaviour.outcome : undefined,
      merchantId: record.authorization.merchantId,
      view: () => {
        const { authorization } = this.#current(record);
        // The shopper's step succeeded for every state past PENDING but FAILED.
        const status = authorization.status === 'PENDING' || authorization.status === 'FAILED' ? authorization.status : 'SUCCEEDED';
        return {
          chargeId: authorization.cardAuthorizationId,
          kind: 'authorization',
          amountSatang: authorization.amount,
          currency: authorization.currency,
          referenceId: authorization.referenceId,
          paymentMethodType: record.requestedType,
          status,
          ...(authorization.failureCode ? { failureCode: authorization.failureCode } : {}),
        };
      },
      returnUrl: record.request.returnUrl,
      methodLabel: paymentMethodLabel(record.requestedType),
      complete: (outcome) => void this.settle(cardAuthorizationId, outcome),
    };
  }

  #find(merchant: SandboxMerchant, cardAuthorizationId: string): CardAuthorizationRecord {
    const record = this.records.get(cardAuthorizationId);
    if (record?.authorization.merchantId !== merchant.merchantId) {
      throw new SandboxError('NOT_FOUND_ERROR', `no card authorization with id ${cardAuthorizationId}`);
    }
    return this.#current(record);
  }

  /** Brings an AUTHORIZED record past its `expiresAt` to EXPIRED, as of that moment. */
  #current(record: CardAuthorizationRecord): CardAuthorizationRecord {
    const { authorization } = record;
    if (authorization.status === 'AUTHORIZED' && authorization.expiresAt !== null && this.#now().getTime() >= Date.parse(authorization.expiresAt)) {
      authorization.status = 'EXPIRED';
      authorization.capturableAmount = 0;
      authorization.updatedAt = authorization.expiresAt;
    }
    return record;
  }
}
