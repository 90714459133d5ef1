import type { HttpAnswer, HttpCall } from '../../core/http-call.js';
import type { CardAuthorization } from '../../core/schemas/card-authorization.js';
import { parseWebhookEvent, type WebhookEvent } from '../../core/schemas/webhook-events.js';
import { verifyWebhookSignature } from '../../core/webhook-signature.js';
import type { StateKeeper } from '../webhooks/webhook-ledger.js';
import { eventStatusMismatch, webhookState } from '../webhooks/webhook-state.js';
import type { CheckoutContext, RouteCall } from './checkout-context.js';
import { bodyRefusal, CheckoutError, upstreamRefusal } from './checkout-error.js';
import { WEBHOOK_MAX_BODY_BYTES } from './checkout-options.js';
import { jsonAnswer } from './json-response.js';
import { NotFoundError } from '../errors.js';
import { readOrder, readOrderRecord } from './order-book.js';
import type { OrderRecord } from './order-record.js';
import { serviceDeadlineMs } from './request-deadline.js';
import { freeIfEnded, noteRefund, noteRefundFailed, recordWebhookHandled, settlePayment, type SettleTrigger, type WebhookLater } from './settlement.js';
import { authorizationStatus, chargeStatusOf, noteStatus } from './status-cache.js';

/**
 * What a webhook settles for the orders the handler takes payments for, before the status is
 * noted (so a woken long-poll finds the outcome) and before `onEvent`: a succeeded charge or an
 * authorized card pays its order or is refunded, a failed refund of the handler's own is told, and
 * a refund of any payment is kept in its order's ledger (the order's state tells a paid order
 * refunded in full), and a cancelled card authorization frees the order it held. The order is
 * the payment's `referenceId`; a capture's, its authorization's.
 */
async function settleFromWebhook(context: CheckoutContext, event: WebhookEvent, call: HttpCall, kept: PaymentStates | undefined, later: WebhookLater): Promise<void> {
  if (event.name === 'charge.succeeded') {
    const { chargeId, amount, currency, source, sourceId, createdAt } = event.payload;
    const referenceId = await orderOfCharge(context, event.payload, call);
    if (referenceId === undefined) return;
    const trigger: SettleTrigger = { call, fromWebhook: true, ...(kept?.order ? { known: kept.order } : {}), ...(kept?.holds ? { later } : {}) };
    await settlePayment(context, { chargeId, kind: 'charge', amount, currency, referenceId, ...(sourceId ? { sourceId } : {}), source, createdAt }, trigger);
  } else if (event.name === 'card_authorization.authorized') {
    const { cardAuthorizationId, amount, currency, referenceId, createdAt } = event.payload;
    if (!referenceId) return;
    await settlePayment(context, { chargeId: cardAuthorizationId, kind: 'authorization', amount, currency, referenceId, createdAt }, { call, fromWebhook: true });
  } else if (event.name === 'card_authorization.canceled') {
    // Cancelled by the shop, the reservation no longer holds its order: the order's state reads open again.
    const { cardAuthorizationId, referenceId } = event.payload;
    if (referenceId) await freeIfEnded(context, referenceId, cardAuthorizationId, call);
  } else if (event.name === 'refund.succeeded' || event.name === 'refund.failed') {
    const { refundId, chargeId, amount, currency } = event.payload;
    const referenceId = named(event.payload.referenceId) ?? (await referenceIdOfCharge(context, chargeId, call));
    if (!referenceId) return;
    if (event.name === 'refund.succeeded') await noteRefund(context, { refundId, chargeId, amount, currency, referenceId });
    else await noteRefundFailed(context, { refundId, chargeId, referenceId, errorCode: event.payload.failureCode ?? '' }, call);
  }
}

/**
 * The order a succeeded charge is for: its `referenceId`; for a capture (an API charge whose
 * `sourceId` is a card authorization the order's record does not hold), the authorization's.
 */
async function orderOfCharge(context: CheckoutContext, charge: { referenceId?: string | null; source?: string; sourceId?: string | null }, call: HttpCall): Promise<string | undefined> {
  const { referenceId, source, sourceId } = charge;
  const own = named(referenceId);
  if (source !== 'API' || !sourceId) return own;
  if (own !== undefined && (await readOrder(context, own)).payments[sourceId] !== undefined) return own;
  try {
    return named((await context.client.cardAuthorizations.get(sourceId, { signal: call.signal, deadlineMs: serviceDeadlineMs(context, call) })).referenceId) ?? own;
  } catch (error) {
    // Not an authorization (another kind of source): the charge's own order.
    if (error instanceof NotFoundError) return own;
    throw upstreamRefusal(error);
  }
}

/**
 * Where the webhook states of a charge naming its order are kept: in the payment's entry of the
 * order's record, when the record holds it, read with the order its success settles (one read for
 * both) and written with the last step of its handling (one write for both); else in the ledger's
 * own records. A capture's order is its authorization's, learnt later: the ledger's records too.
 */
class PaymentStates implements StateKeeper {
  /** The order's record as last read. */
  order: OrderRecord | undefined;
  /** Whether the record holds the payment, so its states are kept in its entry. */
  holds = false;
  readonly #context: CheckoutContext;
  readonly #settles: boolean;
  readonly referenceId: string;
  readonly chargeId: string;

  constructor(context: CheckoutContext, referenceId: string, chargeId: string, settles: boolean) {
    this.#context = context;
    this.referenceId = referenceId;
    this.chargeId = chargeId;
    this.#settles = settles;
  }

  async read(): Promise<{ heard: number | undefined } | null> {
    // A success is settled on the order as readOrder has it (an order of the version before included).
    this.order = this.#settles ? await readOrder(this.#context, this.referenceId) : await readOrderRecord(this.#context, this.referenceId);
    const entry = this.order.payments[this.chargeId];
    this.holds = entry !== undefined;
    return entry ? { heard: entry.heard } : null;
  }
}

function paymentStates(context: CheckoutContext, event: WebhookEvent): PaymentStates | undefined {
  if (event.name !== 'charge.succeeded' && event.name !== 'charge.failed') return undefined;
  const { chargeId, referenceId, source, sourceId } = event.payload;
  const own = named(referenceId);
  if (own === undefined || (source === 'API' && sourceId)) return undefined;
  return new PaymentStates(context, own, chargeId, event.name === 'charge.succeeded');
}

/** A reference as the service wrote it: none when null, absent or empty. */
function named(referenceId: string | null | undefined): string | undefined {
  return referenceId === null || referenceId === '' ? undefined : referenceId;
}

/** The order of a charge the refund webhook did not name, as the service holds the charge. */
async function referenceIdOfCharge(context: CheckoutContext, chargeId: string, call: HttpCall): Promise<string | undefined> {
  try {
    return named((await context.client.charges.get(chargeId, { signal: call.signal, deadlineMs: serviceDeadlineMs(context, call) })).referenceId);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw upstreamRefusal(error);
  }
}

/**
 * `POST /webhooks`: the service's signed webhooks. A delivery is verified over its raw bytes,
 * parsed, checked against its event name, then handed to the ledger, which lets each state of a
 * resource through once, newest first; a charge's or a card authorization's final status also
 * wakes the long-polls following it. Every answer but a refusal or a failing `onEvent` is a 2xx,
 * so the service stops sending.
 */
export async function receiveWebhook(context: CheckoutContext, { call }: RouteCall): Promise<HttpAnswer> {
  const key = context.options.webhookKeyBase64;
  if (key === undefined) throw new CheckoutError(404, 'NOT_FOUND', 'Webhooks are not set up on this endpoint.');
  let raw: Uint8Array;
  try {
    raw = await call.readBytes(WEBHOOK_MAX_BODY_BYTES);
  } catch (error) {
    throw bodyRefusal(error);
  }
  // The signature is checked over the exact bytes received, before anything parses them.
  // Header names are the configured prefix's (X-Beam- live), matched case-insensitively.
  const names = context.client.headers;
  const signature = call.header(names.signature);
  if (!(await verifyWebhookSignature(raw, signature, key))) {
    // A missing signature says which header was looked for: a prefix set wrong shows up here at once.
    const message = signature === null ? `The webhook has no ${names.signature} header.` : 'The webhook signature does not match.';
    throw new CheckoutError(401, 'INVALID_SIGNATURE', message);
  }
  const name = call.header(names.event) ?? '';
  // Every delivery names its event: one without is broken on the way, not a new kind of event.
  if (name === '') throw new CheckoutError(400, 'INVALID_REQUEST', `The webhook has no ${names.event} header.`);
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw new CheckoutError(400, 'INVALID_REQUEST', 'The webhook body is not JSON.');
  }
  const parsed = parseWebhookEvent(name, payload);
  if (!parsed.ok) {
    // A new kind of event is acknowledged, so the service does not retry it for nothing.
    if (parsed.error.startsWith('unknown webhook event')) return jsonAnswer(200, { received: true, ignored: true });
    throw new CheckoutError(400, 'INVALID_REQUEST', parsed.error);
  }
  const event = parsed.event;
  // Only the body is signed: an event name that does not fit it is a genuine body relabelled.
  const mismatch = eventStatusMismatch(event);
  if (mismatch !== undefined) throw new CheckoutError(400, 'INVALID_REQUEST', `The webhook event does not match its body: ${mismatch}.`);
  const state = webhookState(event);
  const kept = paymentStates(context, event);
  const outcome = await context.webhooks.handleOnce(
    state,
    async () => {
      const later: WebhookLater = {};
      try {
        await settleFromWebhook(context, event, call, kept, later);
        if (event.name === 'charge.succeeded' || event.name === 'charge.failed') await noteStatus(context.records, chargeStatusOf(event.payload), state.version);
        if (event.name.startsWith('card_authorization.')) await noteStatus(context.records, authorizationStatus(event.payload as CardAuthorization), state.version);
        await context.options.onEvent?.(event);
      } catch (error) {
        // onOrder heard the outcome all the same: recorded, so the webhook's retry does not tell it again.
        if (kept && later.told) await recordWebhookHandled(context, kept.referenceId, kept.chargeId, later).catch(() => undefined);
        if (error instanceof CheckoutError) throw error;
        throw new CheckoutError(500, 'INTERNAL_ERROR', 'The event could not be handled; it will be retried.', { retryable: true, cause: error });
      }
      if (kept?.holds) await recordWebhookHandled(context, kept.referenceId, kept.chargeId, { order: later.order ?? kept.order, ...(later.told ? { told: later.told } : {}) }, state.version);
    },
    kept,
  );
  // A duplicate or an older state is acknowledged too, so the service stops sending it (see onEvent).
  return jsonAnswer(200, outcome === 'handled' ? { received: true } : { received: true, [outcome]: true });
}
