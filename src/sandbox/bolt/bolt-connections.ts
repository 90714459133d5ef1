import { BOLT_CONNECTION_ID_PREFIX, CreateBoltConnectionRequestSchema, type BoltConnection, type BoltConnectionDeleted } from '../../core/schemas/bolt.js';
import { parseRequest } from '../http/parse-request.js';
import { SandboxError } from '../http/sandbox-error.js';
import type { SandboxMerchant } from '../partners/sandbox-merchant.js';
import { newId } from '../store/ids.js';
import { defineStoreSlice, pageNewestFirst, type SandboxStore } from '../store/sandbox-store.js';
import type { BoltDevices } from './bolt-devices.js';

/** A bolt connection; lives in the store until it is deleted. */
export interface BoltConnectionRecord {
  connection: BoltConnection;
  seq: number;
}

/** The bolt connections of every merchant, by id. */
export const BOLT_CONNECTIONS = defineStoreSlice('boltConnections', () => new Map<string, BoltConnectionRecord>());

export interface BoltConnectionsOptions {
  store: SandboxStore;
  now: () => Date;
  devices: BoltDevices;
}

/**
 * Bolt connections: a merchant paired with one of its devices by the code the device shows
 * (`POST /api/v1/bolt-connections`), read (`GET .../{id}`) and deleted (`DELETE .../{id}`). A
 * PAIRING intent names one, and is shown on its device. A connection is made and removed only here.
 *
 * Deleting a connection stops new intents from naming it (404); intents already sent keep their
 * `boltConnectionId` and stay on the device until they end, as a terminal keeps a request it holds.
 */
export class BoltConnections {
  readonly #options: BoltConnectionsOptions;
  readonly #connections: Map<string, BoltConnectionRecord>;

  constructor(options: BoltConnectionsOptions) {
    this.#options = options;
    this.#connections = options.store.slice(BOLT_CONNECTIONS);
  }

  /**
   * `POST /api/v1/bolt-connections`: pairs the merchant with the device showing `pairingCode`,
   * which then shows a new code. A code no device of the merchant shows is API_VALIDATION_ERROR.
   */
  create(merchant: SandboxMerchant, body: unknown): BoltConnection {
    const { pairingCode } = parseRequest(CreateBoltConnectionRequestSchema, body);
    const device = this.#options.devices.pair(merchant, pairingCode);
    const connection: BoltConnection = {
      id: newId(BOLT_CONNECTION_ID_PREFIX),
      deviceId: device.device.boltDeviceId,
      merchantId: merchant.merchantId,
      createdAt: this.#options.now().toISOString(),
    };
    this.#connections.set(connection.id, { connection, seq: this.#options.store.nextSeq() });
    return structuredClone(connection);
  }

  /** `GET /api/v1/bolt-connections/{id}`. */
  get(merchant: SandboxMerchant, id: string): BoltConnection {
    return structuredClone(this.own(merchant, id).connection);
  }

  /** `DELETE /api/v1/bolt-connections/{id}`: `{code: 200, message: "deleted"}`; afterwards the id is 404. */
  delete(merchant: SandboxMerchant, id: string): BoltConnectionDeleted {
    this.own(merchant, id);
    this.#connections.delete(id);
    return { code: 200, message: 'deleted' };
  }

  /** The merchant's connections, newest first; the contract has no such list, the dashboard does. */
  list(merchant: SandboxMerchant, page: { limit: number; offset: number }) {
    return pageNewestFirst(this.#connections.values(), (r) => r.connection.merchantId === merchant.merchantId, (r) => structuredClone(r.connection), page);
  }

  /** The connections to one device, newest first. */
  ofDevice(deviceId: string): BoltConnection[] {
    return [...this.#connections.values()]
      .filter((r) => r.connection.deviceId === deviceId)
      .sort((a, b) => b.seq - a.seq)
      .map((r) => structuredClone(r.connection));
  }

  /** A connection of `merchant`, or NOT_FOUND_ERROR: an unknown id, a deleted one or another merchant's. */
  own(merchant: SandboxMerchant, id: string): BoltConnectionRecord {
    const record = this.#connections.get(id);
    if (record?.connection.merchantId !== merchant.merchantId) throw new SandboxError('NOT_FOUND_ERROR', `no bolt connection with id ${id}`);
    return record;
  }
}
