import { CHARGE_SOURCES } from '../../core/schemas/charge.js';
import { listParam, pageParams } from '../http/list-params.js';
import { apiRoute, clientRoute, type SandboxRoute } from '../http/route.js';
import { jsonResponse, SandboxError } from '../http/sandbox-error.js';
import type { SandboxPayments } from './sandbox-payments.js';

/** Card tokens, charges, refunds and transactions: the payment endpoints of the service. */
export function chargeRoutes(payments: SandboxPayments): SandboxRoute[] {
  return [
    clientRoute('POST', '/client/v1/card-tokens', ({ merchant, body }) => jsonResponse(201, payments.createCardToken(merchant, body))),

    apiRoute('POST', '/api/v1/charges', async ({ merchant, body, origin }) => jsonResponse(201, await payments.createCharge(merchant, body, origin))),
    apiRoute('GET', '/api/v1/charges', ({ merchant, url }) => {
      const query = url.searchParams;
      const sourceIn = listParam(query, 'source_in');
      for (const source of sourceIn ?? []) {
        if (!(CHARGE_SOURCES as readonly string[]).includes(source)) {
          throw SandboxError.field('source_in', `must list sources from ${CHARGE_SOURCES.join(', ')}`);
        }
      }
      const filters = { referenceId: query.get('referenceId') ?? undefined, sourceIn, sourceId: query.get('sourceId') ?? undefined };
      return jsonResponse(200, payments.listCharges(merchant, filters, pageParams(query)));
    }),
    apiRoute('GET', '/api/v1/charges/:chargeId', ({ merchant, params }) => jsonResponse(200, payments.getCharge(merchant, params.chargeId))),

    apiRoute('POST', '/api/v1/refunds', ({ merchant, body }) => jsonResponse(201, payments.createRefund(merchant, body))),
    apiRoute('GET', '/api/v1/refunds/:refundId', ({ merchant, params }) => jsonResponse(200, payments.getRefund(merchant, params.refundId))),

    apiRoute('GET', '/api/v1/transactions', ({ merchant, url }) =>
      jsonResponse(200, payments.listTransactions(merchant, { referenceId: url.searchParams.get('referenceId') ?? undefined }, pageParams(url.searchParams))),
    ),
    apiRoute('GET', '/api/v1/transactions/:transactionId', ({ merchant, params }) => jsonResponse(200, payments.getTransaction(merchant, params.transactionId))),
  ];
}
