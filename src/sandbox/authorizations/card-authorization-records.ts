import type { CardAuthorization, CardAuthorizationStatus, CreateCardAuthorizationRequest } from '../../core/schemas/card-authorization.js';
import type { PaymentMethodResponse } from '../../core/schemas/payment-method.js';
import type { TestCardBehaviour } from '../defaults.js';
import { defineStoreSlice } from '../store/sandbox-store.js';

/** A card authorization as its GET shows it, with the fields the sandbox always fills. */
export type StoredAuthorization = CardAuthorization & {
  status: CardAuthorizationStatus;
  referenceId: string;
  supportsMulticapture: boolean;
  capturedAmount: number;
  capturableAmount: number;
  latestChargeId: string;
  authorizedAt: string | null;
  expiresAt: string | null;
  failureCode: string;
};

/** A card authorization and what the sandbox keeps about it beyond its public shape. */
export interface CardAuthorizationRecord {
  authorization: StoredAuthorization;
  seq: number;
  requestedType: CreateCardAuthorizationRequest['paymentMethod']['paymentMethodType'];
  /** The card as its captures show it (the authorization shows only `card` and `cardNetworkToken`). */
  paymentMethod: PaymentMethodResponse;
  behaviour: TestCardBehaviour;
  /**
   * The request's other fields, accepted and kept. Never the payment method: it carries the card
   * number or the security code, which are not stored.
   */
  request: Pick<CreateCardAuthorizationRequest, 'returnUrl' | 'skip3dsFlow' | 'customer' | 'payerAuthenticationDetails' | 'initiatorType' | 'networkTransactionId'>;
  /** Ids of the charges captured on it, oldest first. */
  captureIds: string[];
}

/** The card authorizations, by id. */
export const CARD_AUTHORIZATIONS = defineStoreSlice('cardAuthorizations', () => new Map<string, CardAuthorizationRecord>());

