import type { HttpAnswer } from '../../core/http-call.js';
import { CHECKOUT_STATUS_TOKEN_HEADER, CheckoutSlipRequestSchema, type CheckoutSlipResponse } from '../../core/schemas/checkout.js';
import { NotFoundError } from '../errors.js';
import type { CheckoutContext, RouteCall } from './checkout-context.js';
import { CheckoutError, serviceCause, upstreamRefusal } from './checkout-error.js';
import { CHECKOUT_MAX_BODY_BYTES } from './checkout-options.js';
import { parseRequest, readJson, requireStatusToken } from './checkout-request.js';
import { jsonAnswer } from './json-response.js';
import { noteStatus } from './status-cache.js';
import { serviceDeadlineMs } from './request-deadline.js';
import { settlePayment } from './settlement.js';

/**
 * `POST /charges/{chargeId}/slip`: checks the QR text of the shopper's bank transfer slip with the
 * service, which sets the charge the transfer paid SUCCEEDED. Only the holder of the charge's
 * status token may send one (a card authorization is never paid by transfer, so its tokens are
 * refused). A slip of another charge is refused (409 SLIP_MISMATCH) saying only that the payment it
 * is for is paid (`slipPaymentStatus: 'SUCCEEDED'`), never which one. A slip of this charge settles
 * it (the order paid, or the payment refunded), and the answer says what it did (`outcome`).
 */
export async function verifySlip(context: CheckoutContext, { call, params, entry }: RouteCall): Promise<HttpAnswer> {
  const { chargeId = '' } = params;
  entry.chargeId = chargeId;
  const { order } = await requireStatusToken(context.tokens, chargeId, call.header(CHECKOUT_STATUS_TOKEN_HEADER), ['charge']);
  await context.limiter.check(call, 'slips');
  const body = await readJson(call, context.options.maxBodyBytes ?? CHECKOUT_MAX_BODY_BYTES);
  const { raw } = parseRequest(CheckoutSlipRequestSchema, body);
  let verified;
  try {
    verified = await context.client.charges.verifyQrSlip({ format: 'RAW', raw }, { signal: call.signal, deadlineMs: serviceDeadlineMs(context, call) });
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new CheckoutError(404, 'SLIP_NOT_FOUND', 'This slip does not match a payment.', serviceCause(error));
    }
    throw upstreamRefusal(error);
  }
  // The transfer paid that charge, whichever it is: whoever follows it learns so now, as from a webhook.
  await noteStatus(context.records, { chargeId: verified.chargeId, status: 'SUCCEEDED', failureCode: null });
  if (verified.chargeId !== chargeId) {
    // Whatever it was before, the payment the slip is for is paid now. Said without its id, amount
    // or order: the holder of this payment's token has no business with another's.
    throw new CheckoutError(409, 'SLIP_MISMATCH', 'This slip is for another payment, which is already paid: it does not pay this one.', {
      details: { slipPayment: 'another', slipPaymentStatus: 'SUCCEEDED' },
    });
  }
  // Paid by this slip: settled as a status read settles it, and answered with what it did for the order.
  const outcome = await settlePayment(context, { chargeId, kind: 'charge', order }, { call, fromWebhook: false });
  const answer: CheckoutSlipResponse = { chargeId, status: 'SUCCEEDED', verificationResult: verified.verificationResult, ...(outcome ? { outcome } : {}) };
  return jsonAnswer(200, answer);
}
