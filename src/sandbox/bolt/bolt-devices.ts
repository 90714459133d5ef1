import { RenameBoltDeviceRequestSchema, type BoltDevice, type BoltDeviceMetric } from '../../core/schemas/bolt.js';
import { SandboxError } from '../http/sandbox-error.js';
import { parseRequest } from '../http/parse-request.js';
import type { SandboxMerchant } from '../partners/sandbox-merchant.js';
import { newId } from '../store/ids.js';
import { defineStoreSlice, pageNewestFirst, type SandboxStore } from '../store/sandbox-store.js';

/** Delay between `POST .../health-check` (202) and the device's new `latestMetric`. */
export const SANDBOX_BOLT_HEALTH_CHECK_DELAY_MS = 1_500;

/** App version the sandbox's devices report. */
export const SANDBOX_BOLT_APP_VERSION = '2.14.0';

/** Digits of the pairing code a device shows. */
export const SANDBOX_BOLT_PAIRING_CODE_LENGTH = 6;

/** A bolt device to register for a merchant when the sandbox starts. */
export interface SandboxBoltDeviceSeed {
  /** A random `bd_…` id when omitted. Ids must be unique across merchants. */
  boltDeviceId?: string;
  name: string;
  /** ISO 8601; by default the seeds are registered a day apart, the last one a day ago. */
  createdAt?: string;
  /**
   * What the device last reported; `null` for a device that never reported. When omitted the
   * device reports once as the sandbox starts.
   */
  latestMetric?: BoltDeviceMetric | null;
  /**
   * The pairing code the device shows until it is first paired: {@link SANDBOX_BOLT_PAIRING_CODE_LENGTH}
   * digits, unique across devices. A random one when omitted.
   */
  pairingCode?: string;
}

/**
 * The devices every merchant has unless `SandboxBoltOptions.devices` says otherwise: two that
 * have reported and a handheld that never has.
 */
export const SANDBOX_BOLT_DEVICES: readonly SandboxBoltDeviceSeed[] = [
  { name: 'Front counter' },
  { name: 'Bar' },
  { name: 'Delivery handheld', latestMetric: null },
];

/** A bolt device and the merchant that registered it; lives in the store. */
export interface BoltDeviceRecord {
  device: BoltDevice;
  seq: number;
  merchantId: string;
  /** What the device's screen shows to pair with it; not part of the API's device shape. */
  pairingCode: string;
}

/** The bolt devices of every merchant, by id. */
export const BOLT_DEVICES = defineStoreSlice('boltDevices', () => new Map<string, BoltDeviceRecord>());

export interface BoltDevicesOptions {
  store: SandboxStore;
  now: () => Date;
  healthCheckDelayMs: number;
  /** Runs `run` after `delayMs`, until the sandbox closes. */
  later: (delayMs: number, run: () => void) => void;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const DIGITS = '0123456789';
const PAIRING_CODE = new RegExp(`^\\d{${SANDBOX_BOLT_PAIRING_CODE_LENGTH}}$`);

/**
 * Bolt devices: the merchant's registered terminals (`GET /api/v1/bolt-devices`, `GET .../{id}`,
 * `PATCH .../{id}/name`, `POST .../{id}/health-check`) and the pairing codes their screens show.
 * A device's name, its latest metric and its pairing code change only here.
 *
 * A pairing code pairs once, and only a device of the merchant that pairs: as soon as a code is
 * used the device shows a new one, so a code read off the screen (or a log) earlier cannot pair
 * again. A device can still be paired several times (two tills sharing one terminal), each time
 * with the code it shows then. A retried pairing request is answered from its idempotency record,
 * so it does not need the old code to stay valid.
 */
export class BoltDevices {
  readonly #options: BoltDevicesOptions;
  readonly #devices: Map<string, BoltDeviceRecord>;
  /** The codes the seeds named, each allowed once. */
  readonly #givenCodes = new Set<string>();

  constructor(options: BoltDevicesOptions) {
    this.#options = options;
    this.#devices = options.store.slice(BOLT_DEVICES);
  }

  /** Registers `seeds` for a merchant, oldest first, as the sandbox starts. */
  seed(merchantId: string, seeds: readonly SandboxBoltDeviceSeed[]): void {
    const { store } = this.#options;
    const now = this.#options.now().getTime();
    const dated = seeds.map((seed, index) => ({ seed, createdAt: seed.createdAt ?? new Date(now - (seeds.length - index) * DAY_MS).toISOString() }));
    dated.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
    for (const { seed, createdAt } of dated) {
      const boltDeviceId = seed.boltDeviceId ?? newId('bd_');
      if (this.#devices.has(boltDeviceId)) throw new RangeError(`bolt device id ${boltDeviceId} is given twice`);
      if (seed.pairingCode !== undefined) {
        if (!PAIRING_CODE.test(seed.pairingCode)) throw new RangeError(`the pairing code of bolt device ${boltDeviceId} must be ${SANDBOX_BOLT_PAIRING_CODE_LENGTH} digits`);
        if (this.#givenCodes.has(seed.pairingCode)) throw new RangeError(`bolt pairing code ${seed.pairingCode} is given twice`);
        this.#givenCodes.add(seed.pairingCode);
        // A random code drawn earlier that happens to be this one makes way.
        const drawn = this.#deviceShowing(seed.pairingCode);
        if (drawn) drawn.pairingCode = this.#newPairingCode();
      }
      this.#devices.set(boltDeviceId, {
        merchantId,
        seq: store.nextSeq(),
        pairingCode: seed.pairingCode ?? this.#newPairingCode(),
        device: {
          boltDeviceId,
          name: seed.name,
          latestMetric: seed.latestMetric === undefined ? this.#metric() : seed.latestMetric,
          createdAt,
          updatedAt: createdAt,
        },
      });
    }
  }

  /** `GET /api/v1/bolt-devices`: the merchant's devices, newest first. */
  list(merchant: SandboxMerchant, page: { limit: number; offset: number }) {
    return pageNewestFirst(this.#devices.values(), (d) => d.merchantId === merchant.merchantId, (d) => structuredClone(d.device), page);
  }

  /** `GET /api/v1/bolt-devices/{id}`, with its latest metric. */
  get(merchant: SandboxMerchant, id: string): BoltDevice {
    return structuredClone(this.#own(merchant, id).device);
  }

  /** `PATCH /api/v1/bolt-devices/{id}/name`: the renamed device. */
  rename(merchant: SandboxMerchant, id: string, body: unknown): BoltDevice {
    const record = this.#own(merchant, id);
    const { name } = parseRequest(RenameBoltDeviceRequestSchema, body);
    record.device.name = name.trim();
    record.device.updatedAt = this.#options.now().toISOString();
    return structuredClone(record.device);
  }

  /**
   * `POST /api/v1/bolt-devices/{id}/health-check` (answered 202): the device reports after the
   * configured delay, which replaces its `latestMetric`.
   */
  requestHealthCheck(merchant: SandboxMerchant, id: string): void {
    const record = this.#own(merchant, id);
    this.#options.later(this.#options.healthCheckDelayMs, () => {
      record.device.latestMetric = this.#metric();
    });
  }

  /**
   * Pairs with the merchant's device that shows `pairingCode` (spaces ignored) and gives that
   * device a new code. Throws API_VALIDATION_ERROR on `pairingCode` when none of the merchant's
   * devices shows it: an old, mistyped or another merchant's code.
   */
  pair(merchant: SandboxMerchant, pairingCode: string): BoltDeviceRecord {
    const record = this.#deviceShowing(pairingCode.replace(/\s+/g, ''));
    if (record?.merchantId !== merchant.merchantId) {
      throw SandboxError.field('pairingCode', 'matches none of your bolt devices; enter the code the device shows now (it changes after every pairing)');
    }
    record.pairingCode = this.#newPairingCode();
    return record;
  }

  /** The code the merchant's device `id` shows now. */
  pairingCode(merchant: SandboxMerchant, id: string): string {
    return this.#own(merchant, id).pairingCode;
  }

  /** A device by id, whoever owns it (its screen is a public page); or undefined. */
  find(id: string): BoltDeviceRecord | undefined {
    return this.#devices.get(id);
  }

  /** Every merchant's devices, oldest first: the screens the bolt pages list. */
  all(): BoltDeviceRecord[] {
    return [...this.#devices.values()].sort((a, b) => a.seq - b.seq);
  }

  #deviceShowing(pairingCode: string): BoltDeviceRecord | undefined {
    for (const record of this.#devices.values()) if (record.pairingCode === pairingCode) return record;
    return undefined;
  }

  /** A code no device shows now. */
  #newPairingCode(): string {
    for (;;) {
      const code = newId('', SANDBOX_BOLT_PAIRING_CODE_LENGTH, DIGITS);
      if (!this.#deviceShowing(code)) return code;
    }
  }

  #own(merchant: SandboxMerchant, id: string): BoltDeviceRecord {
    const record = this.#devices.get(id);
    if (record?.merchantId !== merchant.merchantId) throw new SandboxError('NOT_FOUND_ERROR', `no bolt device with id ${id}`);
    return record;
  }

  /** What a sandbox device reports about itself now. */
  #metric(): BoltDeviceMetric {
    // Random from the sandbox's one source of random ids: four digits, reduced to each range.
    const random = (from: number, to: number) => from + (Number(newId('', 4, DIGITS)) % (to - from + 1));
    return {
      reportedAt: this.#options.now().toISOString(),
      batteryLevel: random(20, 100),
      isCharging: random(0, 1) === 0,
      networkType: random(0, 2) === 0 ? 'CELLULAR' : 'WIFI',
      signalStrength: random(40, 100),
      appVersion: SANDBOX_BOLT_APP_VERSION,
    };
  }
}
