import type { HttpAnswer, HttpCall } from '../../core/http-call.js';
import { formatAmount } from '../../core/money.js';
import type { CreateChargeRequest } from '../../core/schemas/charge.js';
import {
  CHECKOUT_IDEMPOTENCY_HEADER,
  CHECKOUT_ORDER_TOKEN_HEADER,
  CheckoutChargeRequestSchema,
  type CheckoutChargeRequest,
  type CheckoutChargeResponse,
} from '../../core/schemas/checkout.js';
import type { PaymentMethodRequest } from '../../core/schemas/payment-method.js';
import { sha256Base64Url } from './hashing.js';
import type { CheckoutContext, RouteCall } from './checkout-context.js';
import { CheckoutError, upstreamRefusal } from './checkout-error.js';
import { CHECKOUT_MAX_BODY_BYTES, type ResolvedOrder } from './checkout-options.js';
import { parseRequest, readJson, requireOrderToken } from './checkout-request.js';
import { findCardData } from './find-card-data.js';
import { jsonAnswer } from './json-response.js';
import { checkedPaymentMethod } from './payment-method.js';
import { claimOrder, recordCreated, recordFailed, type AttemptInput } from './order-attempts.js';
import { readOrder, readOrderRecord, referenceIdOf } from './order-book.js';
import type { AttemptAnswer, OrderRecord } from './order-record.js';
import { resolveOrder } from './resolve-order.js';
import { checkedReturnUrl } from './return-urls.js';
import type { StatusTokenKind } from './status-tokens.js';
import { serviceDeadlineMs } from './request-deadline.js';

/**
 * `POST /charges`: creates the charge (or, with the authorize intent, the card authorization) for
 * an order whose amount `resolveOrder` decides, and hands the browser its status token. Only for
 * the holder of the order's token (`X-Satang-Order-Token`, `handler.orderToken(orderReference)`). One
 * attempt (the widget's idempotency key) makes one charge however often it is sent: at once, it
 * waits on the first call; later, it gets the first answer back.
 */
export async function createCharge(context: CheckoutContext, { call, entry }: RouteCall): Promise<HttpAnswer> {
  await context.limiter.check(call, 'charges');
  const body = await readJson(call, context.options.maxBodyBytes ?? CHECKOUT_MAX_BODY_BYTES);
  const cardField = findCardData(body);
  if (cardField !== undefined) {
    throw new CheckoutError(400, 'CARD_DATA_REFUSED', 'Card numbers and expiry dates are never sent to the shop: the card is tokenized in the browser.', { field: cardField });
  }
  const input = parseRequest(CheckoutChargeRequestSchema, body);
  // Only the holder of the order's token may pay it: without it nothing is looked up, so nothing
  // of the order (its price, its open payment, its QR) is told and nothing is changed.
  await requireOrderToken(context.orderTokens, input.orderReference, call.header(CHECKOUT_ORDER_TOKEN_HEADER));
  const method = checkedPaymentMethod(input, context.paymentMethods);
  if (input.intent === 'authorize' && method.paymentMethodType !== 'CARD_TOKEN') {
    throw new CheckoutError(400, 'PAYMENT_METHOD_NOT_ALLOWED', 'Only a card payment can be authorized now and captured later.', { field: 'paymentMethod.type' });
  }
  // Checked and sent on in one form: the URL as a parser writes it, so what was checked is what the service gets.
  if (input.returnUrl !== undefined) input.returnUrl = checkedReturnUrl(context.returnUrls, input.returnUrl);

  // Required: it names the attempt, so a retry of a request whose answer was lost makes no second
  // charge. A caller that sends none could never retry safely.
  const key = call.header(CHECKOUT_IDEMPOTENCY_HEADER);
  if (key === null || !/^[\x21-\x7e]{1,200}$/.test(key)) {
    const problem = key === null ? 'is required: one new key per payment attempt, the same on its retries' : 'must be 1 to 200 visible ASCII characters';
    throw new CheckoutError(400, 'INVALID_REQUEST', `The ${CHECKOUT_IDEMPOTENCY_HEADER} header ${problem}.`, { field: CHECKOUT_IDEMPOTENCY_HEADER });
  }
  const idempotencyKey = `checkout-${key}`;
  // A double click sends the same key twice at once: both wait on one call to the service.
  const inputJson = JSON.stringify(input);
  const flightKey = `${idempotencyKey}\u0000${inputJson}`;
  let flight = context.inFlight.get(flightKey);
  if (!flight) {
    flight = chargeOnce(context, call, input, inputJson, method, idempotencyKey).finally(() => context.inFlight.delete(flightKey));
    context.inFlight.set(flightKey, flight);
  }
  const answer = await flight;
  entry.chargeId = answer.chargeId;
  return jsonAnswer(201, answer);
}

/**
 * Creates the charge, or answers a retry of an attempt that already made one with that first
 * answer: the order may be paid by now (its webhook came first), and the retry must still learn
 * which charge it made rather than hear the order is gone.
 *
 * Nothing is charged unless the shopper approved the server's amount (else 409 AMOUNT_CHANGED
 * with that amount), and only once the attempt took the order (see `order-decisions.ts`).
 *
 * The call to the service is not tied to any one request: every submit of the attempt waits on
 * it, so the first one going away (a closed tab, a fetch the page aborted) must not fail the
 * others, and the charge the service made is recorded for the retry either way. It is given what
 * is left of the first submit's request deadline (at most `serviceDeadlineMs`).
 */
async function chargeOnce(
  context: CheckoutContext,
  call: HttpCall,
  input: CheckoutChargeRequest,
  inputJson: string,
  paymentMethod: PaymentMethodRequest,
  idempotencyKey: string,
): Promise<CheckoutChargeResponse> {
  const id = `${idempotencyKey}:${await sha256Base64Url(inputJson)}`;
  const { order, record } = await attemptOrder(context, input.orderReference, call, id, idempotencyKey);
  const replay = replayOf(record, id);
  if (replay) {
    // The first answer again, with a token signed now: the first one may be near its expiry.
    return { ...replay.answer, statusToken: await context.tokens.sign(replay.answer.chargeId, replay.kind, { referenceId: order.referenceId, orderReference: input.orderReference }) };
  }
  const intent = input.intent ?? 'charge';
  if ((order.intent ?? 'charge') !== intent) {
    throw new CheckoutError(400, 'INTENT_MISMATCH', `This order is ${order.intent === 'authorize' ? 'authorized now and charged later' : 'charged now'}: the checkout's intent must be ${order.intent ?? 'charge'}.`, {
      field: 'intent',
    });
  }
  // Both must be the ones approved: a missing currency is no approval of the server's.
  if (input.amount !== order.amount || input.currency !== order.currency) {
    throw new CheckoutError(409, 'AMOUNT_CHANGED', `The total of this order is ${formatAmount(order.amount, order.currency)}. Please confirm the new total to pay.`, {
      field: 'amount',
      details: { amount: order.amount, currency: order.currency },
    });
  }
  const attemptInput: AttemptInput = {
    order,
    orderReference: input.orderReference,
    id,
    attempt: idempotencyKey,
    paymentMethodType: paymentMethod.paymentMethodType,
    intent,
    replace: input.replace ?? false,
    call,
  };
  const { claim, order: claimed, referenceKeptAtMs } = await claimOrder(context, attemptInput, record);
  let started: { answer: AttemptAnswer; kind: StatusTokenKind };
  if (claim.kind === 'resume') {
    started = { answer: claim.answer, kind: claim.statusKind };
  } else {
    try {
      started =
        intent === 'authorize'
          ? { answer: await startAuthorization(context, input, paymentMethod, order, idempotencyKey, serviceDeadlineMs(context, call)), kind: 'authorization' }
          : { answer: await startCharge(context, input, paymentMethod, idempotencyKey, order, serviceDeadlineMs(context, call)), kind: 'charge' };
    } catch (error) {
      // The order is free for another attempt. After a fault the charge may exist all the same: a
      // retry of this attempt (same key) gets that charge back, and otherwise its webhook finds
      // this attempt, still pending, and settles it like any other (the later of two successes
      // refunded). A refusal made nothing: the attempt is forgotten.
      await recordFailed(context, attemptInput, claim.generation, error instanceof CheckoutError && error.status < 500, claimed);
      throw error;
    }
    await recordCreated(context, attemptInput, claim.generation, started.answer, started.kind, claimed, referenceKeptAtMs);
  }
  return { ...started.answer, statusToken: await context.tokens.sign(started.answer.chargeId, started.kind, { referenceId: order.referenceId, orderReference: input.orderReference }) };
}

/** The answer an attempt (its key and body) already got, from the order's record: its payment, as answered then. */
function replayOf(record: OrderRecord, id: string): { answer: AttemptAnswer; kind: StatusTokenKind } | undefined {
  const chargeId = record.attempts[id]?.chargeId;
  const entry = chargeId === undefined ? undefined : record.payments[chargeId];
  if (chargeId === undefined || entry === undefined) return undefined;
  const answer = entry.answer ?? { chargeId, actionRequired: 'NONE' as const, ...(entry.kind === 'authorization' ? { intent: 'authorize' as const } : {}) };
  return { answer, kind: entry.kind };
}

/**
 * The order an attempt charges, and its record. `resolveOrder` prices it; when it no longer offers
 * the order (or says it is paid), the attempt may still be a retry whose charge was made but whose
 * answer was lost, and that charge may have paid the order meanwhile: the order's record (found
 * through the page's reference) keeps what each attempt charged, so the retry sends the service
 * the same request under the same key, which answers with the charge it made instead of making
 * another. Unless another attempt already got a charge for the order: then this one is refused as
 * before, since it may never have reached the service.
 */
async function attemptOrder(context: CheckoutContext, orderReference: string, call: HttpCall, id: string, idempotencyKey: string): Promise<{ order: ResolvedOrder; record: OrderRecord }> {
  let order: ResolvedOrder;
  try {
    order = await resolveOrder(context.options, orderReference, call);
  } catch (error) {
    if (!(error instanceof CheckoutError) || (error.code !== 'ORDER_NOT_FOUND' && error.code !== 'ORDER_ALREADY_PAID')) throw error;
    const referenceId = await referenceIdOf(context, orderReference);
    if (referenceId === undefined) throw error;
    const record = await readOrder(context, referenceId);
    const kept = record.attempts[id];
    const intent = (kept?.intent ?? 'charge') === 'authorize' ? { intent: 'authorize' as const } : {};
    if (kept && (record.answered === undefined || record.answered === idempotencyKey)) return { order: { amount: kept.amount, currency: kept.currency, referenceId, ...intent }, record };
    // No longer for sale because this checkout was paid: this very attempt, whose answer was lost,
    // goes on to learn its charge; any other (a reload, a second tab) is told the order is paid,
    // not that it does not exist.
    const payer = record.paidBy === undefined ? undefined : record.payments[record.paidBy];
    if (payer?.attempt === idempotencyKey) {
      return { order: { amount: payer.amount, currency: payer.currency, referenceId, ...(payer.kind === 'authorization' ? { intent: 'authorize' as const } : {}) }, record };
    }
    if (payer) throw new CheckoutError(409, 'ORDER_ALREADY_PAID', 'This order has already been paid.');
    throw error;
  }
  return { order, record: await readOrderRecord(context, order.referenceId) };
}

async function startCharge(
  context: CheckoutContext,
  input: CheckoutChargeRequest,
  paymentMethod: PaymentMethodRequest,
  idempotencyKey: string,
  order: ResolvedOrder,
  deadlineMs: number,
): Promise<AttemptAnswer> {
  const body: CreateChargeRequest = {
    amount: order.amount,
    currency: order.currency as CreateChargeRequest['currency'],
    referenceId: order.referenceId,
    paymentMethod,
    ...(input.returnUrl !== undefined ? { returnUrl: input.returnUrl } : {}),
    ...(input.deviceType !== undefined ? { deviceType: input.deviceType } : {}),
    ...(input.customer !== undefined ? { customer: input.customer } : {}),
  };
  let created;
  try {
    created = await context.client.charges.create(body, { idempotencyKey, deadlineMs });
  } catch (error) {
    throw upstreamRefusal(error);
  }
  const answer: AttemptAnswer = { chargeId: created.chargeId, actionRequired: created.actionRequired };
  if (created.redirect) answer.redirect = { redirectUrl: created.redirect.redirectUrl };
  if (created.encodedImage) {
    const { expiry, imageBase64Encoded, rawData } = created.encodedImage;
    answer.encodedImage = { expiry, imageBase64Encoded, rawData };
  }
  return answer;
}

/** Reserves the order's amount on the card; the merchant captures or cancels it later. */
async function startAuthorization(
  context: CheckoutContext,
  input: CheckoutChargeRequest,
  paymentMethod: PaymentMethodRequest,
  order: ResolvedOrder,
  idempotencyKey: string,
  deadlineMs: number,
): Promise<AttemptAnswer> {
  if (paymentMethod.paymentMethodType !== 'CARD_TOKEN') throw new Error('only card tokens are authorized');
  let created;
  try {
    created = await context.client.cardAuthorizations.create(
      {
        amount: order.amount,
        currency: order.currency as CreateChargeRequest['currency'],
        referenceId: order.referenceId,
        paymentMethod,
        ...(input.returnUrl !== undefined ? { returnUrl: input.returnUrl } : {}),
        ...(input.customer !== undefined ? { customer: input.customer } : {}),
      },
      { idempotencyKey, deadlineMs },
    );
  } catch (error) {
    throw upstreamRefusal(error);
  }
  const id = created.cardAuthorizationId;
  const answer: AttemptAnswer = { chargeId: id, intent: 'authorize', actionRequired: created.actionRequired };
  if (created.redirect) answer.redirect = { redirectUrl: created.redirect.redirectUrl };
  return answer;
}
