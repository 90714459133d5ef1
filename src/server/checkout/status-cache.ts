/**
 * The final statuses the checkout knows, kept in the store under `status:{id}` and announced on
 * `charge:{id}` to the long-polls waiting on that payment. This module is their only writer: a
 * webhook, a slip and a read of the service all record a status through {@link noteStatus} or
 * {@link readStatus}, the newest state winning whatever order they come in.
 */

import type { HttpCall } from '../../core/http-call.js';
import type { CardAuthorization } from '../../core/schemas/card-authorization.js';
import type { Charge } from '../../core/schemas/charge.js';
import type { CheckoutStatusResponse } from '../../core/schemas/checkout.js';
import type { CheckoutContext } from './checkout-context.js';
import { byDeadline } from './request-deadline.js';
import { stateVersion, versionNow } from '../webhooks/webhook-state.js';
import { CheckoutError, upstreamRefusal } from './checkout-error.js';
import { untilGone } from '../abortable.js';
import type { CheckoutRecords } from './checkout-records.js';
import type { StatusTokenKind } from './status-tokens.js';

/** A failure code as the widget reads it: none is null, whether the service wrote null, nothing or ''. */
function failureCodeOf(code: string | null | undefined): string | null {
  return code === '' ? null : (code ?? null);
}

/** A charge's status as the widget follows it. */
export function chargeStatusOf(charge: Pick<Charge, 'chargeId' | 'status' | 'failureCode'>): CheckoutStatusResponse {
  return { chargeId: charge.chargeId, status: charge.status, failureCode: failureCodeOf(charge.failureCode) };
}

/** A card authorization's status as the widget follows it. */
export function authorizationStatus(authorization: Pick<CardAuthorization, 'cardAuthorizationId' | 'status' | 'failureCode'>): CheckoutStatusResponse {
  const done = authorization.status === 'AUTHORIZED' || authorization.status === 'CAPTURED';
  const failed = authorization.status === 'FAILED' || authorization.status === 'CANCELED' || authorization.status === 'EXPIRED';
  return {
    chargeId: authorization.cardAuthorizationId,
    status: done ? 'SUCCEEDED' : failed ? 'FAILED' : 'PENDING',
    failureCode: failureCodeOf(authorization.failureCode) ?? (failed && authorization.status !== 'FAILED' ? authorization.status : null),
    authorizationStatus: authorization.status,
  };
}

/**
 * Keeps a final status unless a newer one is known (`version` orders the states of the resource;
 * by default the status is as of now), and wakes the long-polls waiting on it, which read back
 * whichever is newest.
 */
export async function noteStatus(records: CheckoutRecords, status: CheckoutStatusResponse, version: number = versionNow()): Promise<void> {
  if (status.status === 'PENDING') return;
  await saveFinalStatus(records, status, version);
  await records.statusChannel.announce(status.chargeId, status.status);
}

/** Keeps a final status unless the store holds a newer state of the same payment. */
async function saveFinalStatus(records: CheckoutRecords, status: CheckoutStatusResponse, version: number): Promise<void> {
  await records.finalStatus.setIfNewer(status.chargeId, version, status);
}

/**
 * A final status learnt from a webhook, else the service's answer: the charge's, or the card
 * authorization's in the widget's terms (AUTHORIZED, or already captured, is a success). The read
 * is given up when the caller of `call` goes away (without one, it is the watch's own, see
 * status-watch.ts). What a success did for its order is settlement.ts's (`readSettledStatus`).
 */
export function readStatus(context: CheckoutContext, id: string, kind: StatusTokenKind, call?: HttpCall): Promise<CheckoutStatusResponse> {
  return readBareStatus(context, id, kind, call);
}

/**
 * A status read held to `limits`: with `answerBy` (a time, as `Date.now()` counts), a read not done
 * by then answers PENDING, the status last known to the shopper: a service that does not answer, or
 * a settlement waiting on it, never holds a long-poll past its wait. The read goes on, and what it
 * learns is kept for the next one. With `pendingOnFailure`, a service that failed (a retryable
 * error) is no news either: PENDING too.
 */
export function limitStatusRead(read: Promise<CheckoutStatusResponse>, id: string, kind: StatusTokenKind, call: HttpCall | undefined, limits: StatusReadLimits): Promise<CheckoutStatusResponse> {
  let limited = read;
  if (limits.pendingOnFailure) {
    limited = limited.catch((error: unknown) => {
      if (error instanceof CheckoutError && error.retryable && error.status >= 500 && !call?.gone) return pendingStatus(id, kind);
      throw error;
    });
  }
  if (limits.answerBy === undefined) return limited;
  return byDeadline(limited, limits.answerBy, () => pendingStatus(id, kind));
}

/** How long a status read may take, and what it answers instead (see {@link limitStatusRead}). */
export interface StatusReadLimits {
  answerBy?: number;
  pendingOnFailure?: boolean;
}

/** A payment's PENDING status, as the widget follows it. */
export function pendingStatus(id: string, kind: StatusTokenKind): CheckoutStatusResponse {
  return { chargeId: id, status: 'PENDING', failureCode: null, ...(kind === 'authorization' ? { authorizationStatus: 'PENDING' } : {}) };
}

async function readBareStatus(context: CheckoutContext, id: string, kind: StatusTokenKind, call: HttpCall | undefined): Promise<CheckoutStatusResponse> {
  const { records } = context;
  const cached = await records.finalStatus.get(id);
  if (cached) return cached;
  // One read of the service at a time per payment on this instance, whoever asks; each asker
  // still stops waiting when it leaves, without cancelling the read the others wait on.
  let shared = context.statusReads.get(id);
  if (shared === undefined) {
    shared = readFresh(context, id, kind).finally(() => context.statusReads.delete(id));
    context.statusReads.set(id, shared);
  }
  // A final status noted meanwhile (a webhook, a slip) answers at once: a read of the service
  // that started before it, slow under load, is not waited for.
  let unsubscribe: () => void = () => undefined;
  const noted = new Promise<CheckoutStatusResponse>((resolve) => {
    unsubscribe = records.statusChannel.listen(id, () => {
      void records.finalStatus.get(id).then(
        (status) => status && resolve(status),
        () => undefined,
      );
    });
  });
  try {
    return await Promise.race([call ? untilGone(shared, call) : shared, noted]);
  } finally {
    unsubscribe();
  }
}

/** A PENDING read of the service, shared by every instance for a second (`STATUS_READ_REUSE_MS`); else the service's answer. */
async function readFresh({ client, records, serviceDeadlineMs: deadlineMs }: CheckoutContext, id: string, kind: StatusTokenKind): Promise<CheckoutStatusResponse> {
  const recent = await records.recentStatus.get(id);
  if (recent) return recent;
  let status: CheckoutStatusResponse;
  let version: number | undefined;
  try {
    if (kind === 'authorization') {
      const authorization = await client.cardAuthorizations.get(id, { deadlineMs });
      status = authorizationStatus(authorization);
      version = stateVersion('card_authorization', authorization.status, authorization.updatedAt);
    } else {
      const charge = await client.charges.get(id, { deadlineMs });
      status = chargeStatusOf({ ...charge, chargeId: id });
      version = stateVersion('charge', charge.status, charge.updatedAt);
    }
  } catch (error) {
    throw upstreamRefusal(error);
  }
  // Kept unless a webhook brought a newer state meanwhile.
  if (status.status !== 'PENDING') await saveFinalStatus(records, status, version ?? 0);
  else await records.recentStatus.set(id, status);
  return status;
}
