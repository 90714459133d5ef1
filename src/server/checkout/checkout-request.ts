import type * as z from 'zod/mini';
import type { HttpCall } from '../../core/http-call.js';
import { parseJsonBody } from '../../core/request-body.js';
import { describeFieldIssues, toFieldIssues } from '../../core/validation.js';
import { bodyRefusal, CheckoutError } from './checkout-error.js';
import type { OrderTokens } from './order-tokens.js';
import type { PaymentOrder, StatusTokenKind, StatusTokens } from './status-tokens.js';

const decoder = new TextDecoder();

/** The JSON body of a browser's request, within `maxBytes`; what cannot be read is refused. */
export async function readJson(call: HttpCall, maxBytes: number): Promise<unknown> {
  try {
    return parseJsonBody(decoder.decode(await call.readBytes(maxBytes)), call.header('content-type'));
  } catch (error) {
    throw bodyRefusal(error);
  }
}

/** `body` as `schema` reads it; a 400 naming the first field that does not fit otherwise. */
export function parseRequest<S extends z.ZodMiniType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = toFieldIssues(parsed.error.issues, body);
  throw new CheckoutError(400, 'INVALID_REQUEST', `The request is not valid: ${describeFieldIssues(issues)}.`, { field: issues[0]?.field });
}

/**
 * What the status token opens for this id, of the `kinds` the route serves (tried in turn): the
 * payment's kind and the order it was made for (the order's `referenceId` and the page's `orderReference`). Only the browser that created a payment may
 * follow or act on it. A genuine token past its expiry is a 403 `STATUS_TOKEN_EXPIRED` that asks
 * the shopper to reload; any other is a 403 `INVALID_STATUS_TOKEN`, which tells a wrong token from
 * a payment that does not exist no more than a malformed id does.
 */
export async function requireStatusToken(
  tokens: StatusTokens,
  id: string,
  token: string | null | undefined,
  kinds: readonly StatusTokenKind[],
): Promise<{ kind: StatusTokenKind; order: PaymentOrder }> {
  let expired = false;
  if (/^[\w-]{1,128}$/.test(id)) {
    for (const kind of kinds) {
      const check = await tokens.verify(id, token, kind);
      if (check.ok) return { kind: check.kind, order: { referenceId: check.referenceId, orderReference: check.orderReference } };
      expired ||= check.reason === 'expired';
    }
  }
  if (expired) throw new CheckoutError(403, 'STATUS_TOKEN_EXPIRED', 'This payment page has expired. Please reload the page.');
  throw new CheckoutError(403, 'INVALID_STATUS_TOKEN', 'This payment cannot be looked up from here.');
}

/**
 * Refuses a request for the order `orderReference` unless `token` is that order's order token: a
 * genuine token past its expiry is a 403 `ORDER_TOKEN_EXPIRED` that asks the shopper to reload
 * (the page then renders a fresh one); a missing, forged or altered token, or another order's, is
 * a 403 `INVALID_ORDER_TOKEN`, which says nothing of whether the order exists.
 */
export async function requireOrderToken(tokens: OrderTokens, orderReference: string, token: string | null | undefined): Promise<void> {
  const check = await tokens.verify(orderReference, token);
  if (check.ok) return;
  if (check.reason === 'expired') throw new CheckoutError(403, 'ORDER_TOKEN_EXPIRED', 'This checkout page has expired. Please reload the page.');
  throw new CheckoutError(403, 'INVALID_ORDER_TOKEN', 'This order cannot be looked up from here.');
}
