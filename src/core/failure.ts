/** What to tell a shopper when a charge ends FAILED. */
import type { ChargeFailureCode } from './schemas/charge.js';

/** Every message key {@link failureMessageKey} can return; the i18n catalogues translate each. */
export const FAILURE_MESSAGE_KEYS = ['failure.insufficientFunds', 'failure.authentication', 'failure.processing', 'failure.generic'] as const;
export type FailureMessageKey = (typeof FAILURE_MESSAGE_KEYS)[number];

const BY_CODE: Readonly<Record<ChargeFailureCode, FailureMessageKey>> = {
  CH_INSUFFICIENT_FUNDS: 'failure.insufficientFunds',
  CH_AUTHENTICATION_FAILED: 'failure.authentication',
  CH_PROCESSING_FAILED: 'failure.processing',
};

/**
 * The message key for a charge's `failureCode`. The service adds codes over time, so anything
 * not documented (or missing) reads as the generic failure rather than breaking the page.
 */
export function failureMessageKey(failureCode: string | null | undefined): FailureMessageKey {
  // hasOwn, not `in`: a code named like an Object.prototype member must not match.
  return failureCode && Object.hasOwn(BY_CODE, failureCode) ? BY_CODE[failureCode as ChargeFailureCode] : 'failure.generic';
}
