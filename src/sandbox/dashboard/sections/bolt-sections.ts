import type { BoltConnection, BoltDevice, BoltIntent } from '../../../core/schemas/bolt.js';
import { CHARGE_FAILURE_CODES } from '../../../core/schemas/charge.js';
import { isChargeFailureCode } from '../../bolt/bolt-intents.js';
import { paymentMethodLabel } from '../../http/page-layout.js';
import { SandboxError } from '../../http/sandbox-error.js';
import { cell, defineSection, type DashboardSection } from '../dashboard-section.js';
import type { DashboardSectionDeps, SectionQueries } from './section-queries.js';

/**
 * The bolt intents, devices and connections of the dashboard. An intent can be paid, declined or
 * canceled as the shopper would on its page; a device renamed, asked for a health check or paired
 * with (as `POST /api/v1/bolt-connections` does with the code it shows).
 */
export function boltSections({ bolt }: DashboardSectionDeps, { chargesOf, webhooksOf }: SectionQueries): Record<'intents' | 'devices' | 'connections', DashboardSection<unknown>> {
  const intents = defineSection<BoltIntent>({
    slug: 'bolt-intents',
    title: 'Bolt intents',
    singular: 'Bolt intent',
    idPrefix: 'bi_',
    id: (intent) => intent.id,
    list: (merchant, page) => bolt.listIntents(merchant, page),
    get: (merchant, id) => bolt.getIntent(merchant, id),
    columns: [
      { label: 'Intent', value: (intent) => cell.mono(intent.id) },
      { label: 'Status', value: (intent) => cell.status(intent.status) },
      { label: 'Result', value: (intent) => cell.mono(intent.result) },
      { label: 'Amount', value: (intent) => cell.amount(intent.amount, intent.currency) },
      { label: 'Mode', value: (intent) => intent.mode.type },
      { label: 'Method', value: (intent) => (intent.paymentMethod ? paymentMethodLabel(intent.paymentMethod.paymentMethodType) : null) },
      { label: 'Reference', value: (intent) => intent.referenceId },
      { label: 'Created', value: (intent) => cell.time(intent.createdAt) },
    ],
    fields: [
      { label: 'Status', value: (intent) => cell.status(intent.status) },
      { label: 'Result', value: (intent) => cell.mono(intent.result) },
      { label: 'Amount', value: (intent) => cell.amount(intent.amount, intent.currency) },
      { label: 'Mode', value: (intent) => intent.mode.type },
      { label: 'Deep link', value: (intent) => cell.url(intent.mode.deepLink?.deepLinkUrl) },
      { label: 'Return URL', value: (intent) => cell.mono(intent.mode.deepLink?.returnUrl) },
      { label: 'Method', value: (intent) => (intent.paymentMethod ? paymentMethodLabel(intent.paymentMethod.paymentMethodType) : null) },
      { label: 'Bolt connection', value: (intent) => cell.ref(intent.boltConnectionId, 'bolt-connections') },
      { label: 'Reference', value: (intent) => intent.referenceId },
      { label: 'Internal note', value: (intent) => intent.internalNote },
      { label: 'Latest charge', value: (intent) => cell.ref(intent.latestChargeId, 'charges') },
      { label: 'Latest charge status', value: (intent) => cell.status(intent.latestChargeStatus) },
      { label: 'Latest failure code', value: (intent) => cell.mono(intent.latestChargeFailureCode) },
      { label: 'Expires', value: (intent) => cell.time(intent.expiresAt) },
      { label: 'Created', value: (intent) => cell.time(intent.createdAt) },
      { label: 'Created by', value: (intent) => intent.createdBy },
      { label: 'Updated', value: (intent) => cell.time(intent.updatedAt) },
      { label: 'Updated by', value: (intent) => intent.updatedBy },
    ],
    related: (intent, merchant) => [
      { title: 'Charges', section: 'charges', records: chargesOf(intent.id), empty: 'No payment was attempted yet.' },
      webhooksOf(merchant, intent.id, 'bolt_intent.'),
    ],
    actions: [
      {
        name: 'pay',
        label: 'Pay',
        variant: 'success',
        done: 'Paid, as if the shopper had paid on the terminal or in the app.',
        available: (intent) => intent.status === 'ACTIVE',
        run: (intent, _form, merchant) => void bolt.completeIntent(merchant, intent.id, 'pay'),
      },
      {
        name: 'decline',
        label: 'Decline the payment',
        variant: 'danger',
        done: 'The payment was declined; the intent stays open, so the shopper can try again.',
        available: (intent) => intent.status === 'ACTIVE',
        inputs: () => [{ name: 'failureCode', label: 'Failure code', hint: `One of ${CHARGE_FAILURE_CODES.join(', ')}; empty is CH_PROCESSING_FAILED.` }],
        run: (intent, form, merchant) => {
          const failureCode = (form.get('failureCode') ?? '').trim() || 'CH_PROCESSING_FAILED';
          if (!isChargeFailureCode(failureCode)) throw SandboxError.field('failureCode', `must be one of ${CHARGE_FAILURE_CODES.join(', ')}`);
          bolt.completeIntent(merchant, intent.id, 'decline', failureCode);
        },
      },
      {
        name: 'cancel',
        label: 'Cancel',
        variant: 'danger',
        done: 'Canceled, as if the shopper had canceled on the terminal or in the app.',
        available: (intent) => intent.status === 'ACTIVE',
        run: (intent, _form, merchant) => void bolt.completeIntent(merchant, intent.id, 'cancel'),
      },
    ],
  });

  const devices = defineSection<BoltDevice>({
    slug: 'bolt-devices',
    title: 'Bolt devices',
    singular: 'Bolt device',
    idPrefix: 'bd_',
    id: (device) => device.boltDeviceId,
    list: (merchant, page) => bolt.listDevices(merchant, page),
    get: (merchant, id) => bolt.getDevice(merchant, id),
    columns: [
      { label: 'Device', value: (device) => cell.mono(device.boltDeviceId) },
      { label: 'Name', value: (device) => device.name },
      { label: 'Battery (%)', value: (device) => device.latestMetric?.batteryLevel },
      { label: 'Network', value: (device) => device.latestMetric?.networkType },
      { label: 'Reported', value: (device) => cell.time(device.latestMetric?.reportedAt) },
      { label: 'Created', value: (device) => cell.time(device.createdAt) },
    ],
    fields: [
      { label: 'Name', value: (device) => device.name },
      { label: 'Pairing code', value: (device) => cell.mono(bolt.devices.find(device.boltDeviceId)?.pairingCode) },
      { label: 'Last report', value: (device) => cell.time(device.latestMetric?.reportedAt) },
      { label: 'Battery (%)', value: (device) => device.latestMetric?.batteryLevel },
      { label: 'Charging', value: (device) => device.latestMetric?.isCharging },
      { label: 'Network', value: (device) => device.latestMetric?.networkType },
      { label: 'Signal strength', value: (device) => device.latestMetric?.signalStrength },
      { label: 'App version', value: (device) => device.latestMetric?.appVersion },
      { label: 'Created', value: (device) => cell.time(device.createdAt) },
      { label: 'Updated', value: (device) => cell.time(device.updatedAt) },
    ],
    related: (device) => [{ title: 'Connections', section: 'bolt-connections', records: bolt.connections.ofDevice(device.boltDeviceId), empty: 'Not paired yet.' }],
    actions: [
      {
        name: 'pair',
        label: 'Pair',
        variant: 'success',
        done: 'Paired with the code the device showed: the new connection is listed below, and the device shows a new code.',
        available: () => true,
        run: (device, _form, merchant) => void bolt.createConnection(merchant, { pairingCode: bolt.pairingCode(merchant, device.boltDeviceId) }),
      },
      {
        name: 'health-check',
        label: 'Health check',
        variant: 'primary',
        done: 'Health check requested: the device reports in a moment; reload this page to see its new metric.',
        available: () => true,
        run: (device, _form, merchant) => bolt.requestHealthCheck(merchant, device.boltDeviceId),
      },
      {
        name: 'rename',
        label: 'Rename',
        variant: 'primary',
        done: 'Renamed.',
        available: () => true,
        inputs: () => [{ name: 'name', label: 'New name' }],
        run: (device, form, merchant) => void bolt.renameDevice(merchant, device.boltDeviceId, { name: form.get('name') ?? '' }),
      },
    ],
  });

  const connections = defineSection<BoltConnection>({
    slug: 'bolt-connections',
    title: 'Bolt connections',
    singular: 'Bolt connection',
    idPrefix: 'bc_',
    hint: 'Pair with a device from its page here, or with POST /api/v1/bolt-connections and the code the device shows.',
    id: (connection) => connection.id,
    list: (merchant, page) => bolt.listConnections(merchant, page),
    get: (merchant, id) => bolt.getConnection(merchant, id),
    columns: [
      { label: 'Connection', value: (connection) => cell.mono(connection.id) },
      { label: 'Device', value: (connection) => cell.ref(connection.deviceId, 'bolt-devices') },
      { label: 'Created', value: (connection) => cell.time(connection.createdAt) },
    ],
    fields: [
      { label: 'Device', value: (connection) => cell.ref(connection.deviceId, 'bolt-devices') },
      { label: 'Created', value: (connection) => cell.time(connection.createdAt) },
    ],
  });

  return { intents, devices, connections };
}
