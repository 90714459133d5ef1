/**
 * Bolt in the sandbox: bolt intents (payment requests sent to a paired terminal or opened by a
 * deep link), bolt devices (the merchant's registered terminals) and bolt connections (the
 * merchant paired with a device by the code its screen shows).
 *
 * Each device's screen is a page at `/sandbox/pages/bolt/devices/{boltDeviceId}`: its pairing
 * code and the PAIRING intents sent to it. The shopper's side is the bolt page, one per intent at
 * `/sandbox/pages/bolt/{id}`: the intent's `deepLinkUrl` in DEEP_LINK mode, and the paired
 * terminal's screen in PAIRING mode.
 * There the payment succeeds (a SUCCEEDED charge, the intent PAID), is declined (a FAILED charge,
 * the intent stays ACTIVE for another try) or the request is canceled. An intent nobody acts on
 * EXPIRES at `expiresAt`, read from the sandbox clock whenever the intent is looked at.
 */
import type { BoltConnection, BoltConnectionDeleted, BoltDevice, BoltIntent } from '../../core/schemas/bolt.js';
import type { ChargeFailureCode } from '../../core/schemas/charge.js';
import { SANDBOX_PAGES_PATH } from '../http/page-layout.js';
import type { SandboxMerchant } from '../partners/sandbox-merchant.js';
import type { SandboxPayments } from '../charges/sandbox-payments.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import { unrefTimer } from '../unref-timer.js';
import type { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import { BoltConnections } from './bolt-connections.js';
import { BoltDevices, SANDBOX_BOLT_DEVICES, SANDBOX_BOLT_HEALTH_CHECK_DELAY_MS, type SandboxBoltDeviceSeed } from './bolt-devices.js';
import { BoltIntents, type BoltIntentAction } from './bolt-intents.js';

/** Where the bolt pages live: `/{boltIntentId}` is an intent's page, the path itself lists the open ones. */
export const SANDBOX_BOLT_PAGE_PATH = `${SANDBOX_PAGES_PATH}/bolt` as const;

/** Where the devices' screens live: `/{boltDeviceId}` shows a device's pairing code and its intents. */
export const SANDBOX_BOLT_DEVICE_PAGE_PATH = `${SANDBOX_BOLT_PAGE_PATH}/devices` as const;

/** Bolt settings of a sandbox. */
export interface SandboxBoltOptions {
  /**
   * Devices registered per merchant id. A merchant not named gets {@link SANDBOX_BOLT_DEVICES};
   * an empty list means none.
   */
  devices?: Readonly<Record<string, readonly SandboxBoltDeviceSeed[]>>;
  /** Delay before a health check's report lands; {@link SANDBOX_BOLT_HEALTH_CHECK_DELAY_MS} by default. */
  healthCheckDelayMs?: number;
}

export interface SandboxBoltDeps {
  store: SandboxStore;
  payments: SandboxPayments;
  webhooks: WebhookDispatcher;
  now: () => Date;
  merchants: ReadonlyMap<string, SandboxMerchant>;
  options?: SandboxBoltOptions | undefined;
}

/**
 * Bolt intents, devices and connections of the sandbox, kept in the store. The payments an intent takes are
 * ordinary charges (source API, `sourceId` the intent's id) with their transactions, refunds and
 * webhooks. The pages and routes are in `bolt-routes.ts`.
 */
export class SandboxBolt {
  /** The intents' state machine. */
  readonly intents: BoltIntents;
  readonly devices: BoltDevices;
  readonly connections: BoltConnections;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(deps: SandboxBoltDeps) {
    const healthCheckDelayMs = deps.options?.healthCheckDelayMs ?? SANDBOX_BOLT_HEALTH_CHECK_DELAY_MS;
    if (!Number.isFinite(healthCheckDelayMs) || healthCheckDelayMs < 0) {
      throw new RangeError('bolt.healthCheckDelayMs must be a number of milliseconds, 0 or more');
    }
    const later = (delayMs: number, run: () => void) => this.#later(delayMs, run);
    const { store, payments, webhooks, now } = deps;
    this.devices = new BoltDevices({ store, now, healthCheckDelayMs, later });
    this.connections = new BoltConnections({ store, now, devices: this.devices });
    const { connections } = this;
    this.intents = new BoltIntents({ store, payments, webhooks, connections, now, later, pageUrl: (origin, id) => `${origin}${SANDBOX_BOLT_PAGE_PATH}/${id}` });
    for (const merchantId of deps.merchants.keys()) {
      this.devices.seed(merchantId, deps.options?.devices?.[merchantId] ?? SANDBOX_BOLT_DEVICES);
    }
  }

  /** `POST /api/v1/bolt-intents`; see {@link BoltIntents.create}. */
  createIntent(merchant: SandboxMerchant, body: unknown, origin: string): BoltIntent {
    return this.intents.create(merchant, body, origin);
  }

  /** `GET /api/v1/bolt-intents/{id}`. */
  getIntent(merchant: SandboxMerchant, id: string): BoltIntent {
    return this.intents.get(merchant, id);
  }

  /** `PATCH /api/v1/bolt-intents/{id}/cancel` (202); see {@link BoltIntents.cancel}. */
  cancelIntent(merchant: SandboxMerchant, id: string): BoltIntent {
    return this.intents.cancel(merchant, id);
  }

  /** The merchant's intents, newest first; the contract has no such list, the dashboard does. */
  listIntents(merchant: SandboxMerchant, page: { limit: number; offset: number }) {
    return this.intents.list(merchant, page);
  }

  /**
   * Pays, declines (with `failureCode`) or cancels an ACTIVE intent exactly as its page does: the
   * same charge, webhooks and `updatedBy`. For tools that act for the shopper, such as the
   * sandbox's dashboard. Throws NOT_FOUND_ERROR for an intent of another merchant and
   * REQUEST_CONFLICT_ERROR once it is no longer ACTIVE.
   */
  completeIntent(merchant: SandboxMerchant, id: string, action: BoltIntentAction, failureCode?: ChargeFailureCode): BoltIntent {
    return this.intents.complete(this.intents.own(merchant, id), action, failureCode);
  }

  /** `POST /api/v1/bolt-connections`: pairs with the merchant's device showing the body's `pairingCode`. */
  createConnection(merchant: SandboxMerchant, body: unknown): BoltConnection {
    return this.connections.create(merchant, body);
  }

  /** `GET /api/v1/bolt-connections/{id}`. */
  getConnection(merchant: SandboxMerchant, id: string): BoltConnection {
    return this.connections.get(merchant, id);
  }

  /** `DELETE /api/v1/bolt-connections/{id}`. */
  deleteConnection(merchant: SandboxMerchant, id: string): BoltConnectionDeleted {
    return this.connections.delete(merchant, id);
  }

  /** The merchant's connections, newest first; the contract has no such list, the dashboard does. */
  listConnections(merchant: SandboxMerchant, page: { limit: number; offset: number }) {
    return this.connections.list(merchant, page);
  }

  /**
   * The code the device's screen shows now, for tools and tests that pair without reading the
   * screen. NOT_FOUND_ERROR for another merchant's device.
   */
  pairingCode(merchant: SandboxMerchant, boltDeviceId: string): string {
    return this.devices.pairingCode(merchant, boltDeviceId);
  }

  /** `GET /api/v1/bolt-devices`: the merchant's devices, newest first. */
  listDevices(merchant: SandboxMerchant, page: { limit: number; offset: number }) {
    return this.devices.list(merchant, page);
  }

  /** `GET /api/v1/bolt-devices/{id}`, with its latest metric. */
  getDevice(merchant: SandboxMerchant, id: string): BoltDevice {
    return this.devices.get(merchant, id);
  }

  /** `PATCH /api/v1/bolt-devices/{id}/name`: the renamed device. */
  renameDevice(merchant: SandboxMerchant, id: string, body: unknown): BoltDevice {
    return this.devices.rename(merchant, id, body);
  }

  /** `POST /api/v1/bolt-devices/{id}/health-check`: the device reports after the configured delay. */
  requestHealthCheck(merchant: SandboxMerchant, id: string): void {
    this.devices.requestHealthCheck(merchant, id);
  }

  /** Cancels pending timers (expiries, health-check reports). */
  close(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  #later(delayMs: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, Math.max(0, delayMs));
    unrefTimer(timer);
    this.#timers.add(timer);
  }
}
