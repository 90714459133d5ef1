import { pageParams } from '../http/list-params.js';
import { apiRoute, type SandboxRoute } from '../http/route.js';
import { jsonResponse } from '../http/sandbox-error.js';
import type { SandboxAuthorizations } from './card-authorizations.js';

/** Card authorizations: create, read, cancel, and capture into charges. */
export function authorizationRoutes(authorizations: SandboxAuthorizations): SandboxRoute[] {
  const path = '/api/v1/card-authorizations';
  return [
    apiRoute('POST', path, ({ merchant, body, origin }) => jsonResponse(201, authorizations.create(merchant, body, origin))),
    apiRoute('GET', path, ({ merchant, url }) => jsonResponse(200, authorizations.list(merchant, pageParams(url.searchParams)))),
    apiRoute('GET', `${path}/:id`, ({ merchant, params }) => jsonResponse(200, authorizations.get(merchant, params.id))),
    apiRoute('POST', `${path}/:id/cancel`, ({ merchant, params }) => jsonResponse(200, authorizations.cancel(merchant, params.id)), { bodyless: true }),
    apiRoute('GET', `${path}/:id/charges`, ({ merchant, params, url }) => jsonResponse(200, authorizations.listCaptures(merchant, params.id, pageParams(url.searchParams)))),
    apiRoute('POST', `${path}/:id/charges`, ({ merchant, params, body }) => jsonResponse(201, authorizations.capture(merchant, params.id, body))),
  ];
}
