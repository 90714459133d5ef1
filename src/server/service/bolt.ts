import {
  BoltDeviceListSchema,
  BoltDeviceSchema,
  BoltIntentSchema,
  type BoltDevice,
  type BoltDeviceList,
  type BoltIntent,
  type CreateBoltIntentRequest,
  type RenameBoltDeviceRequest,
} from '../../core/schemas/bolt.js';
import type { ListQuery } from '../../core/schemas/common.js';
import { listPages, pageQuery } from './list-pages.js';
import { pathSegment, type ReadOptions, type RequestOptions, type ServiceTransport } from './transport.js';

/** Bolt intents: payment requests sent to a paired device or opened by deep link. */
export interface BoltIntentsApi {
  /** Creates a bolt intent. */
  create(body: CreateBoltIntentRequest, options?: RequestOptions): Promise<BoltIntent>;
  /** Reads one bolt intent, e.g. to learn its `result`. */
  get(boltIntentId: string, options?: ReadOptions): Promise<BoltIntent>;
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
