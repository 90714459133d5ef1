/**
 * `satang/sandbox`: a local, faithful emulator of the payment service, for development, tests
 * and demos. It moves no money.
 */
export { Sandbox, createSandbox, defaultSandboxMerchant, REPLAYED_HEADER, type SandboxOptions } from './sandbox.js';
export { listenSandbox, type RunningSandbox } from './listen.js';
export {
  SandboxFaults,
  SANDBOX_FAULT_KINDS,
  SANDBOX_FAULT_STATUSES,
  SANDBOX_FAULTS_PATH,
  type SandboxFaultKind,
  type SandboxFaultRule,
  type SandboxFaultInput,
  type SandboxFaultHit,
} from './faults.js';
export type { SandboxMerchant, ChargeOutcome } from './payments.js';
export type { SandboxPartner } from './partners/authenticate.js';
export {
  SANDBOX_DEFAULTS,
  SANDBOX_TEST_CARDS,
  SANDBOX_OTP_CODE,
  SANDBOX_MAX_BODY_BYTES,
  SANDBOX_DEFAULT_QR_EXPIRY_MS,
  SANDBOX_CARD_TOKEN_TTL_MS,
  SANDBOX_FEE_RATE_BPS,
  SANDBOX_VAT_RATE_BPS,
  SANDBOX_REFUND_FAILURE_CODE,
  type TestCard,
} from './defaults.js';
export { SANDBOX_PAGES_PATH } from './hosted-pages.js';
export { SANDBOX_DASHBOARD_PATH, SANDBOX_DASHBOARD_SESSION_TTL_MS } from './dashboard.js';
export { SANDBOX_CARD_AUTHORIZATION_TTL_MS } from './authorizations.js';
export type { WebhookDelivery, WebhookAttempt } from './webhooks/webhook-dispatcher.js';
export {
  SANDBOX_BOLT_DEVICES,
  SANDBOX_BOLT_HEALTH_CHECK_DELAY_MS,
  SANDBOX_BOLT_CARD,
  SANDBOX_BOLT_PAGE_PATH,
  type SandboxBoltOptions,
  type SandboxBoltDeviceSeed,
} from './bolt.js';
export {
  buildSlipQrPayload,
  parseSlipQrPayload,
  SANDBOX_SLIPS_PAGE_PATH,
  SANDBOX_SLIP_SENDING_BANK_CODE,
  type SlipDescription,
  type SlipQrFields,
} from './qr-slips.js';
