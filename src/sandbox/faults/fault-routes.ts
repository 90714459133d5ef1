import { apiRoute, type SandboxRoute } from '../http/route.js';
import { jsonResponse, SandboxError } from '../http/sandbox-error.js';
import { SANDBOX_FAULTS_PATH } from './fault-rules.js';
import type { SandboxFaults } from './sandbox-faults.js';

/**
 * The fault rules as a resource: add, list, read, and delete one or all. Each merchant, by its API
 * key (or a partner key acting for it), sees and removes only the rules it added, and they spoil
 * only its own requests; another merchant's rule is not found.
 */
export function faultRoutes(faults: SandboxFaults): SandboxRoute[] {
  const missing = (faultId: string | undefined) => new SandboxError('NOT_FOUND_ERROR', `no fault rule with id ${faultId}`);
  return [
    apiRoute('POST', SANDBOX_FAULTS_PATH, ({ body, merchant }) => jsonResponse(201, faults.add(body, merchant.merchantId))),
    apiRoute('GET', SANDBOX_FAULTS_PATH, ({ merchant }) => {
      const all = faults.list(merchant.merchantId);
      return jsonResponse(200, { data: all, totalCount: all.length });
    }),
    apiRoute('DELETE', SANDBOX_FAULTS_PATH, ({ merchant }) => jsonResponse(200, { deleted: faults.clear(merchant.merchantId) }), { bodyless: true }),
    apiRoute('GET', `${SANDBOX_FAULTS_PATH}/:faultId`, ({ params, merchant }) => {
      const rule = faults.get(params.faultId, merchant.merchantId);
      if (!rule) throw missing(params.faultId);
      return jsonResponse(200, rule);
    }),
    apiRoute(
      'DELETE',
      `${SANDBOX_FAULTS_PATH}/:faultId`,
      ({ params, merchant }) => {
        if (!faults.remove(params.faultId, merchant.merchantId)) throw missing(params.faultId);
        return jsonResponse(200, { deleted: 1 });
      },
      { bodyless: true },
    ),
  ];
}
