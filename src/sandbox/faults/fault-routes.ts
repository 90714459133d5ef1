import { apiRoute, type SandboxRoute } from '../http/route.js';
import { jsonResponse, SandboxError } from '../http/sandbox-error.js';
import { SANDBOX_FAULTS_PATH } from './fault-rules.js';
import type { SandboxFaults } from './sandbox-faults.js';

/** The fault rules as a resource: add, list, read, and delete one or all. */
export function faultRoutes(faults: SandboxFaults): SandboxRoute[] {
  const missing = (faultId: string | undefined) => new SandboxError('NOT_FOUND_ERROR', `no fault rule with id ${faultId}`);
  return [
    apiRoute('POST', SANDBOX_FAULTS_PATH, ({ body }) => jsonResponse(201, faults.add(body))),
    apiRoute('GET', SANDBOX_FAULTS_PATH, () => {
      const all = faults.list();
      return jsonResponse(200, { data: all, totalCount: all.length });
    }),
    apiRoute('DELETE', SANDBOX_FAULTS_PATH, () => jsonResponse(200, { deleted: faults.clear() }), { bodyless: true }),
    apiRoute('GET', `${SANDBOX_FAULTS_PATH}/:faultId`, ({ params }) => {
      const rule = faults.get(params.faultId);
      if (!rule) throw missing(params.faultId);
      return jsonResponse(200, rule);
    }),
    apiRoute(
      'DELETE',
      `${SANDBOX_FAULTS_PATH}/:faultId`,
      ({ params }) => {
        if (!faults.remove(params.faultId)) throw missing(params.faultId);
        return jsonResponse(200, { deleted: 1 });
      },
      { bodyless: true },
    ),
  ];
}
