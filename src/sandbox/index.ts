/**
 * `satang/sandbox`: a local, faithful emulator of the payment service, for development, tests
 * and demos. It moves no money.
 */
export { Sandbox, createSandbox, defaultSandboxMerchant, REPLAYED_HEADER, type SandboxOptions } from './sandbox.js';
export { listenSandbox, type RunningSandbox } from './listen.js';
export { SandboxFaults } from './faults/sandbox-faults.js';
export {
  SANDBOX_FAULT_KINDS,
  SANDBOX_FAULT_STATUSES,
  SANDBOX_FAULTS_PATH,
  type SandboxFaultKind,
  type SandboxFaultRule,
  type SandboxFaultInput,
  type SandboxFaultHit,
} from './faults/fault-rules.js';
export type { SandboxMerchant } from './partners/sandbox-merchant.js';
export type { ChargeOutcome } from './charges/charge-records.js';
export type { SandboxPartner } from './partners/authenticate.js';
export {
  SANDBOX_DEFAULTS,
  SANDBOX_TEST_CARDS,
  SANDBOX_OTP_CODE,
  SANDBOX_MAX_BODY_BYTES,
  SANDBOX_MAX_UPLOAD_BYTES,
  SANDBOX_DEFAULT_QR_EXPIRY_MS,
  SANDBOX_CARD_TOKEN_TTL_MS,
  SANDBOX_FEE_RATE_BPS,
  SANDBOX_VAT_RATE_BPS,
  SANDBOX_REFUND_FAILURE_CODE,
  type TestCard,
} from './defaults.js';
export { SANDBOX_PAGES_PATH } from './http/page-layout.js';
export { SANDBOX_MAX_CARD_TOKENS, SANDBOX_MAX_CHARGES } from './store/sandbox-store.js';
export { SANDBOX_DASHBOARD_PATH } from './dashboard/dashboard.js';
export { SANDBOX_DASHBOARD_SESSION_TTL_MS } from './dashboard/dashboard-sessions.js';
export { SANDBOX_CARD_AUTHORIZATION_TTL_MS } from './authorizations/card-authorizations.js';
export type { WebhookDelivery, WebhookAttempt } from './webhooks/webhook-dispatcher.js';
export { SANDBOX_BOLT_DEVICE_PAGE_PATH, SANDBOX_BOLT_PAGE_PATH, type SandboxBoltOptions } from './bolt/bolt.js';
export { SANDBOX_BOLT_DEVICES, SANDBOX_BOLT_HEALTH_CHECK_DELAY_MS, SANDBOX_BOLT_PAIRING_CODE_LENGTH, type SandboxBoltDeviceSeed } from './bolt/bolt-devices.js';
export { SANDBOX_BOLT_CARD } from './bolt/bolt-charge.js';
export { buildSlipQrPayload, parseSlipQrPayload, type SlipQrFields } from './slips/slip-qr.js';
export { SANDBOX_SLIPS_PAGE_PATH, SANDBOX_SLIP_SENDING_BANK_CODE, type SlipDescription } from './slips/qr-slips.js';
