/**
 * Why a payment did not go through, in the shopper's language and in the words of the method paid
 * with; and every error code the merchant's server (or the browser) gives, in our own words: the
 * server's English message is never shown on the page. Part of the payment code (`pay-path.ts`).
 */
import { html, type TemplateResult } from 'lit';
import type { CheckoutClientError } from '../../client/client-error.js';
import type { CheckoutPaymentMethodType } from '../../core/schemas/checkout.js';
import { failureMessageKey } from '../../core/failure.js';
import type { LocalizeController } from '../controllers/localize-controller.js';
import type { MessageKey } from '../i18n/localize.js';
import { BANKS, isCardType, WALLETS } from './payment-methods.js';
import { PROVIDER_NAMES } from './provider-names.js';
import type { Declined } from './payment-state.js';

/**
 * A declined payment, as the notice over the form says it: a heading, then the reason in the
 * method's words. After a card's, the form has cleared the security code, or, when the page went
 * away meanwhile (a 3-D Secure page), holds no card at all: the notice says which.
 */
export function declineView(l: LocalizeController, declined: Declined): TemplateResult {
  const card = isCardType(declined.type as CheckoutPaymentMethodType);
  const next = !card ? '' : ` ${l.msg(declined.cardKept === false ? 'failure.cardAgain' : 'failure.securityCodeAgain')}`;
  return html`<strong>${l.msg('failure.title')}</strong> ${failureText(l, declined)}${next}`;
}

/** The failed charge's reason: by card, a reason per failure code; otherwise in the words of PromptPay, the wallet or the bank app. */
export function failureText(l: LocalizeController, { failureCode, type }: Declined): string {
  if (type === 'QR_PROMPT_PAY') return l.msg('failure.promptpay');
  const method = PROVIDER_NAMES[type] ?? '';
  const funds = failureCode === 'CH_INSUFFICIENT_FUNDS';
  if ((WALLETS as readonly string[]).includes(type)) return l.msg(funds ? 'failure.walletFunds' : 'failure.wallet', { method });
  if ((BANKS as readonly string[]).includes(type)) return l.msg(funds ? 'failure.bankFunds' : 'failure.bank', { method });
  // A card's failed authentication is the 3-D Secure step: the one-time code.
  if (failureCode === 'CH_AUTHENTICATION_FAILED' && isCardType(type as CheckoutPaymentMethodType)) return l.msg('failure.otp');
  return l.msg(failureMessageKey(failureCode));
}

/** The words for each error code of `satang/server`'s answers, and of the browser's own refusals. */
const BY_CODE: Readonly<Record<string, MessageKey>> = {
  UNSAFE_REDIRECT: 'error.redirect',
  CARD_DATA_REFUSED: 'error.cardData',
  PAYMENT_METHOD_NOT_ALLOWED: 'error.methodNotAllowed',
  ORDER_NOT_FOUND: 'error.orderNotFound',
  PAYMENT_DETAILS_REJECTED: 'error.detailsRejected',
  RATE_LIMITED: 'error.rateLimited',
  UPSTREAM_UNAVAILABLE: 'error.unavailable',
  UPSTREAM_REJECTED: 'error.paymentsDown',
  INTERNAL_ERROR: 'error.server',
  INVALID_STATUS_TOKEN: 'error.statusToken',
  STATUS_TOKEN_EXPIRED: 'expired.body',
  ORDER_TOKEN_EXPIRED: 'expired.body',
  // The request's body came too slowly: the shopper's connection.
  REQUEST_TIMEOUT: 'error.network',
  // The page or the shop's set-up is at fault: nothing the shopper typed.
  INVALID_REQUEST: 'error.setup',
  INVALID_ORDER_TOKEN: 'error.setup',
  INVALID_RETURN_URL: 'error.setup',
  INTENT_MISMATCH: 'error.setup',
  IDEMPOTENCY_CONFLICT: 'error.setup',
  ORIGIN_NOT_ALLOWED: 'error.setup',
  NOT_FOUND: 'error.setup',
  METHOD_NOT_ALLOWED: 'error.setup',
  UNSUPPORTED_MEDIA_TYPE: 'error.setup',
  BODY_TOO_LARGE: 'error.setup',
};

/** An error that is not the payment's, in words: by its code when known, else by its kind. */
export function problemText(l: LocalizeController, error: CheckoutClientError): string {
  const key = Object.hasOwn(BY_CODE, error.code) ? BY_CODE[error.code] : undefined;
  if (key) return l.msg(key);
  if (error.kind === 'config') return l.msg('error.config', { detail: error.message });
  if (error.kind === 'network') return l.msg('error.network');
  return l.msg(error.kind === 'server' ? 'error.server' : 'error.rejected');
}
