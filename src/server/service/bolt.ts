import {
  BoltConnectionDeletedSchema,
  BoltConnectionSchema,
  BoltDeviceListSchema,
  BoltDeviceSchema,
  BoltIntentSchema,
  CancelBoltIntentResponseSchema,
  type BoltConnection,
  type BoltConnectionDeleted,
  type BoltDevice,
  type BoltDeviceList,
  type BoltIntent,
  type CancelBoltIntentResponse,
  type CreateBoltConnectionRequest,
  type CreateBoltIntentRequest,
  type RenameBoltDeviceRequest,
} from '../../core/schemas/bolt.js';
import type { ListQuery } from '../../core/schemas/common.js';
import { listPages, pageQuery } from './list-pages.js';
import { pathSegment, type ReadOptions, type RequestOptions, type ServiceTransport } from './transport.js';

/** Bolt intents: payment requests sent to a paired device or opened by deep link. */
export interface BoltIntentsApi {
  /**
   * Creates a bolt intent. A PAIRING intent (the mode when `mode` is left out) names a
   * connection of the merchant in `boltConnectionId`: an unknown or deleted one is a NotFoundError.
   */
  create(body: CreateBoltIntentRequest, options?: RequestOptions): Promise<BoltIntent>;
  /** Reads one bolt intent, e.g. to learn its `result`. */
  get(boltIntentId: string, options?: ReadOptions): Promise<BoltIntent>;
  /**
   * Withdraws an ACTIVE intent (`PATCH .../cancel`, answered 202 `{message: "canceled"}`), e.g.
   * when the order is abandoned at the till; it then reads CANCELED with `result` BI_CANCELED and
   * `bolt_intent.canceled` follows. An intent already paid, canceled or expired is a StateConflictError.
   */
  cancel(boltIntentId: string, options?: RequestOptions): Promise<CancelBoltIntentResponse>;
}

/** Bolt connections: the merchant paired with a device by the code the device shows. */
export interface BoltConnectionsApi {
  /**
   * Pairs with the device showing `pairingCode` and answers the connection (`bc_…`) that PAIRING
   * intents name. A code no device of the merchant shows is a ValidationError on `pairingCode`.
   */
  create(body: CreateBoltConnectionRequest, options?: RequestOptions): Promise<BoltConnection>;
  /** Reads one connection, e.g. to learn which device it reaches. */
  get(boltConnectionId: string, options?: ReadOptions): Promise<BoltConnection>;
  /**
   * Unpairs (`DELETE .../{id}`, answered `{code, message}`): PAIRING intents can no longer name
   * it; those already sent stay on the device until they end. A DELETE carries no idempotency
   * key, so when its answer was lost and the retry finds the connection gone, that retry is a
   * NotFoundError although the first attempt deleted it: treat NotFoundError as deleted.
   */
  delete(boltConnectionId: string, options?: ReadOptions): Promise<BoltConnectionDeleted>;
}

/** Bolt devices registered to the merchant. */
export interface BoltDevicesApi {
  /** Reads one page of devices, newest first. */
  list(query?: ListQuery, options?: ReadOptions): Promise<BoltDeviceList>;
  /** Every device, page by page; see {@link ChargesApi.iterate}. */
  iterate(query?: ListQuery, options?: ReadOptions): AsyncIterable<BoltDevice>;
  /** Reads one device with its latest metric. */
  get(boltDeviceId: string, options?: ReadOptions): Promise<BoltDevice>;
  /** Renames a device (`PATCH .../name`). */
  rename(boltDeviceId: string, body: RenameBoltDeviceRequest, options?: RequestOptions): Promise<BoltDevice>;
  /**
   * Asks a device to report on itself (`POST .../health-check`, answered 202). The report comes
   * later: read the device's `latestMetric`.
   */
  healthCheck(boltDeviceId: string, options?: RequestOptions): Promise<void>;
}

/** The bolt intents of the service, over `transport`. */
export function boltIntentsApi(transport: ServiceTransport): BoltIntentsApi {
  return {
    create: async (body, o) => transport.call(BoltIntentSchema, { method: 'POST', path: '/api/v1/bolt-intents', body }, o),
    get: async (id, o) => transport.call(BoltIntentSchema, { method: 'GET', path: `/api/v1/bolt-intents/${pathSegment('boltIntentId', id)}` }, o),
    // The contract states no body for cancel; an empty object keeps the request plain JSON.
    cancel: async (id, o) => transport.call(CancelBoltIntentResponseSchema, { method: 'PATCH', path: `/api/v1/bolt-intents/${pathSegment('boltIntentId', id)}/cancel`, body: {} }, o),
  };
}

/** The merchant's bolt connections, over `transport`. */
export function boltConnectionsApi(transport: ServiceTransport): BoltConnectionsApi {
  return {
    create: async (body, o) => transport.call(BoltConnectionSchema, { method: 'POST', path: '/api/v1/bolt-connections', body }, o),
    get: async (id, o) => transport.call(BoltConnectionSchema, { method: 'GET', path: `/api/v1/bolt-connections/${pathSegment('boltConnectionId', id)}` }, o),
    delete: async (id, o) => transport.call(BoltConnectionDeletedSchema, { method: 'DELETE', path: `/api/v1/bolt-connections/${pathSegment('boltConnectionId', id)}` }, o),
  };
}

/** The merchant's bolt devices, over `transport`. */
export function boltDevicesApi(transport: ServiceTransport): BoltDevicesApi {
  const device = (id: string) => `/api/v1/bolt-devices/${pathSegment('boltDeviceId', id)}`;
  const api: BoltDevicesApi = {
    list: async (query, o) => transport.call(BoltDeviceListSchema, { method: 'GET', path: '/api/v1/bolt-devices', query: pageQuery(query) }, o),
    iterate: (query, o) => listPages((page) => api.list({ ...query, ...page }, o), query, (d) => d.boltDeviceId),
    get: async (id, o) => transport.call(BoltDeviceSchema, { method: 'GET', path: device(id) }, o),
    rename: async (id, body, o) => transport.call(BoltDeviceSchema, { method: 'PATCH', path: `${device(id)}/name`, body }, o),
    healthCheck: async (id, o) => transport.send({ method: 'POST', path: `${device(id)}/health-check`, body: {} }, o),
  };
  return api;
}
