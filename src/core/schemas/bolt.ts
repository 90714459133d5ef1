import * as z from 'zod/mini';
import { ChargeStatusSchema } from './charge.js';
import { ChargeAmountRequestSchema, CurrencyRequestSchema, rawUrlString, ReferenceIdRequestSchema, TimestampSchema, listEnvelopeSchema } from './common.js';
import { CardMemberSchema, MemberSchema } from './payment-method.js';

/** Bounds of a bolt intent's lifetime, in seconds from its creation. */
export const BOLT_INTENT_MIN_EXPIRY_SEC = 90;
export const BOLT_INTENT_MAX_EXPIRY_SEC = 600;

export const BOLT_INTENT_STATUSES = ['ACTIVE', 'PAID', 'CANCELED', 'EXPIRED', 'VOIDED', 'REFUNDED'] as const;
/**
 * Where a bolt intent stands: ACTIVE while it waits for the shopper, then PAID, CANCELED or
 * EXPIRED; a paid intent may later be VOIDED or REFUNDED.
 */
export const BoltIntentStatusSchema = z.enum(BOLT_INTENT_STATUSES);
export type BoltIntentStatus = z.infer<typeof BoltIntentStatusSchema>;

/**
 * Results a bolt intent is known to end with. `result` is read as a plain string because the
 * service also writes the charge's CH_* failure code there and adds values without notice.
 */
export const BOLT_INTENT_RESULTS = ['', 'CH_SUCCEEDED', 'BI_EXPIRED', 'BI_CANCELED'] as const;

/** Every bolt connection id starts with this; the contract names the prefix. */
export const BOLT_CONNECTION_ID_PREFIX = 'bc_';

export const BOLT_MODE_TYPES = ['PAIRING', 'DEEP_LINK'] as const;
/**
 * How a bolt intent reaches the shopper: PAIRING sends it to a paired device (through a bolt
 * connection), DEEP_LINK hands the merchant app a URL that opens the payment and returns to
 * `returnUrl`.
 */
export const BoltModeTypeSchema = z.enum(BOLT_MODE_TYPES, { error: 'must be PAIRING or DEEP_LINK' });
export type BoltModeType = z.infer<typeof BoltModeTypeSchema>;

/** Payment methods a bolt intent accepts, including ALIPAY_PLUS, which direct charges do not. */
export const BOLT_PAYMENT_METHOD_TYPES = [
  'CARD',
  'CARD_INSTALLMENTS',
  'QR_PROMPT_PAY',
  'ALIPAY',
  'ALIPAY_PLUS',
  'LINE_PAY',
  'SHOPEE_PAY',
  'TRUE_MONEY',
  'WECHAT_PAY',
  'SPAY_LATER',
] as const;
export type BoltPaymentMethodType = (typeof BOLT_PAYMENT_METHOD_TYPES)[number];

// ---------------------------------------------------------------------------------------------
// Response shapes: lenient, unknown fields kept.

/** The deep link of a DEEP_LINK intent: the URL to open and where the shopper comes back to. */
export const BoltDeepLinkSchema = z.looseObject({
  deepLinkUrl: z.optional(z.nullable(z.string())),
  returnUrl: z.optional(z.nullable(z.string())),
});
export type BoltDeepLink = z.infer<typeof BoltDeepLinkSchema>;

/** `mode` of a bolt intent as read back; `deepLink` is null in PAIRING mode. */
export const BoltModeSchema = z.looseObject({
  type: BoltModeTypeSchema,
  deepLink: z.optional(z.nullable(BoltDeepLinkSchema)),
});
export type BoltMode = z.infer<typeof BoltModeSchema>;


/** `paymentMethod` of a bolt intent as read back: the type and one non-null member for it. */
export const BoltPaymentMethodSchema = z.looseObject({
  paymentMethodType: z.enum(BOLT_PAYMENT_METHOD_TYPES),
  card: CardMemberSchema,
  cardInstallments: CardMemberSchema,
  qrPromptPay: MemberSchema,
  alipay: MemberSchema,
  alipayPlus: MemberSchema,
  linePay: MemberSchema,
  shopeePay: MemberSchema,
  trueMoney: MemberSchema,
  weChatPay: MemberSchema,
  sPayLater: MemberSchema,
});
export type BoltPaymentMethod = z.infer<typeof BoltPaymentMethodSchema>;

/** The merchant as a bolt intent shows it to the shopper. */
export const BoltMerchantSchema = z.looseObject({
  merchantId: z.optional(z.nullable(z.string())),
  name: z.optional(z.nullable(z.string())),
  logoUrl: z.optional(z.nullable(z.string())),
});
export type BoltMerchant = z.infer<typeof BoltMerchantSchema>;

/**
 * A bolt intent as `GET /api/v1/bolt-intents/{boltIntentId}` returns it and as the
 * `bolt_intent.*` webhooks carry it. The id starts with `bi_`. The `latestCharge*` fields follow
 * the last charge attempted on the intent; `result` sums up how the intent ended ("" while open).
 */
export const BoltIntentSchema = z.looseObject({
  id: z.string(),
  merchantId: z.string(),
  amount: z.int(),
  currency: z.string(),
  status: BoltIntentStatusSchema,
  mode: BoltModeSchema,
  paymentMethod: z.optional(z.nullable(BoltPaymentMethodSchema)),
  boltConnectionId: z.optional(z.nullable(z.string())),
  referenceId: z.optional(z.nullable(z.string())),
  internalNote: z.optional(z.nullable(z.string())),
  expiresAt: z.optional(z.nullable(TimestampSchema)),
  merchant: z.optional(z.nullable(BoltMerchantSchema)),
  latestChargeId: z.optional(z.nullable(z.string())),
  // The service writes "" rather than null on fields that have no value yet (`result`, `latestChargeId`).
  latestChargeStatus: z.optional(z.nullable(z.union([ChargeStatusSchema, z.literal('')]))),
  latestChargeFailureCode: z.optional(z.nullable(z.string())),
  result: z.optional(z.nullable(z.string())),
  createdAt: TimestampSchema,
  createdBy: z.optional(z.nullable(z.string())),
  updatedAt: TimestampSchema,
  updatedBy: z.optional(z.nullable(z.string())),
});
export type BoltIntent = z.infer<typeof BoltIntentSchema>;

/**
 * What a bolt device last reported about itself, refreshed by
 * `POST /api/v1/bolt-devices/{boltDeviceId}/health-check`. The contract does not show its fields,
 * so all of them are optional; `batteryLevel` is a percentage.
 */
export const BoltDeviceMetricSchema = z.looseObject({
  reportedAt: z.optional(z.nullable(TimestampSchema)),
  batteryLevel: z.optional(z.nullable(z.number())),
  isCharging: z.optional(z.nullable(z.boolean())),
  networkType: z.optional(z.nullable(z.string())),
  signalStrength: z.optional(z.nullable(z.number())),
  appVersion: z.optional(z.nullable(z.string())),
});
export type BoltDeviceMetric = z.infer<typeof BoltDeviceMetricSchema>;

/**
 * A registered bolt device as `GET /api/v1/bolt-devices/{boltDeviceId}` and the device list
 * return it. `latestMetric` is null until the device has reported once.
 */
export const BoltDeviceSchema = z.looseObject({
  boltDeviceId: z.string(),
  name: z.string(),
  latestMetric: z.optional(z.nullable(BoltDeviceMetricSchema)),
  createdAt: z.optional(z.nullable(TimestampSchema)),
  updatedAt: z.optional(z.nullable(TimestampSchema)),
});
export type BoltDevice = z.infer<typeof BoltDeviceSchema>;

/** A page of devices from `GET /api/v1/bolt-devices`, newest first. */
export const BoltDeviceListSchema = listEnvelopeSchema(BoltDeviceSchema);
export type BoltDeviceList = z.infer<typeof BoltDeviceListSchema>;

/**
 * A bolt connection: the merchant paired with one device, made by
 * `POST /api/v1/bolt-connections` with the code the device shows and read by
 * `GET /api/v1/bolt-connections/{id}`. Its `id` (`bc_…`) is what a PAIRING intent's
 * `boltConnectionId` names.
 */
export const BoltConnectionSchema = z.looseObject({
  id: z.string(),
  deviceId: z.string(),
  merchantId: z.string(),
  createdAt: TimestampSchema,
});
export type BoltConnection = z.infer<typeof BoltConnectionSchema>;

/** The answer of `DELETE /api/v1/bolt-connections/{id}`: `{code, message}`, e.g. `{code: 200, message: "deleted"}`. */
export const BoltConnectionDeletedSchema = z.looseObject({
  code: z.number(),
  message: z.string(),
});
export type BoltConnectionDeleted = z.infer<typeof BoltConnectionDeletedSchema>;

/** The answer of `PATCH /api/v1/bolt-intents/{id}/cancel` (202): `{"message": "canceled"}`; read the intent for its new state. */
export const CancelBoltIntentResponseSchema = z.looseObject({
  message: z.string(),
});
export type CancelBoltIntentResponse = z.infer<typeof CancelBoltIntentResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Request shapes: checked, with messages that read after the field path.

const PairingModeRequestSchema = z.object({
  type: z.literal('PAIRING'),
});

// A missing deep link or return URL reads "is required in DEEP_LINK mode" rather than as a bad type.
const requiredInDeepLinkMode = (otherwise: string | undefined) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is required in DEEP_LINK mode' : otherwise;

const DeepLinkModeRequestSchema = z.object({
  type: z.literal('DEEP_LINK'),
  deepLink: z.object(
    {
      returnUrl: z.pipe(
        rawUrlString({ error: requiredInDeepLinkMode('must be an absolute http or https URL') }),
        z.url({ protocol: /^https?$/, error: requiredInDeepLinkMode('must be an absolute http or https URL') }),
      ),
    },
    { error: requiredInDeepLinkMode(undefined) },
  ),
});

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `mode` of a new bolt intent; DEEP_LINK needs `deepLink.returnUrl` to bring the shopper back. */
export const BoltModeRequestSchema = z.discriminatedUnion('type', [PairingModeRequestSchema, DeepLinkModeRequestSchema], {
  // A missing or non-object mode keeps the generic wording ("is required", "must be an object").
  error: (issue) => (isPlainObject(issue.input) ? 'must be PAIRING or DEEP_LINK' : undefined),
});
export type BoltModeRequest = z.infer<typeof BoltModeRequestSchema>;

/** `paymentMethod` of a new bolt intent: only the type; the shopper's details are taken on the device. */
export const BoltPaymentMethodRequestSchema = z.object({
  paymentMethodType: z.enum(BOLT_PAYMENT_METHOD_TYPES, {
    error: `is not supported for bolt intents; use one of ${BOLT_PAYMENT_METHOD_TYPES.join(', ')}`,
  }),
});
export type BoltPaymentMethodRequest = z.infer<typeof BoltPaymentMethodRequestSchema>;

/**
 * The body of `POST /api/v1/bolt-intents`. A PAIRING intent goes to the device behind
 * `boltConnectionId` (`bc_…`), so that id is required in PAIRING mode. `mode` may be left out
 * when a `boltConnectionId` is given: the intent is then PAIRING. With neither, nothing says
 * where the intent should go, and `mode` is the field reported missing.
 */
export const CreateBoltIntentRequestSchema = z
  .object({
    amount: ChargeAmountRequestSchema,
    currency: CurrencyRequestSchema,
    referenceId: ReferenceIdRequestSchema,
    internalNote: z.optional(z.string().check(z.maxLength(255, 'must be at most 255 characters'))),
    expiryDurationInSec: z.int({ error: 'must be a whole number of seconds' }).check(
      z.gte(BOLT_INTENT_MIN_EXPIRY_SEC, `must be at least ${BOLT_INTENT_MIN_EXPIRY_SEC} (seconds)`),
      z.lte(BOLT_INTENT_MAX_EXPIRY_SEC, `must be at most ${BOLT_INTENT_MAX_EXPIRY_SEC} (10 minutes)`),
    ),
    boltConnectionId: z.optional(
      z.string().check(
        z.minLength(1, { error: 'must not be empty', abort: true }),
        z.maxLength(255, 'must be at most 255 characters'),
        z.startsWith(BOLT_CONNECTION_ID_PREFIX, `must be a bolt connection id (${BOLT_CONNECTION_ID_PREFIX}…)`),
      ),
    ),
    mode: z.optional(BoltModeRequestSchema),
    paymentMethod: BoltPaymentMethodRequestSchema,
  })
  .check(
    z.refine((body) => body.mode !== undefined || body.boltConnectionId !== undefined, {
      path: ['mode'],
      error: 'is required when no boltConnectionId is given (PAIRING needs a boltConnectionId, DEEP_LINK needs mode.deepLink.returnUrl)',
    }),
    z.refine((body) => body.mode?.type !== 'PAIRING' || body.boltConnectionId !== undefined, {
      path: ['boltConnectionId'],
      error: 'is required in PAIRING mode',
    }),
  );
export type CreateBoltIntentRequest = z.infer<typeof CreateBoltIntentRequestSchema>;

/** The mode a new intent takes: the one it names, else PAIRING (the schema lets `mode` go only with a `boltConnectionId`). */
export function boltIntentModeType(request: Pick<CreateBoltIntentRequest, 'mode'>): BoltModeType {
  return request.mode?.type ?? 'PAIRING';
}

/**
 * The body of `POST /api/v1/bolt-connections`: the pairing code the device shows on its screen.
 * Spaces a person types between its digits are ignored.
 */
export const CreateBoltConnectionRequestSchema = z.object({
  pairingCode: z.string().check(
    z.minLength(1, { error: 'is required', abort: true }),
    z.maxLength(64, 'must be at most 64 characters'),
    z.regex(/\S/, 'must not be blank'),
  ),
});
export type CreateBoltConnectionRequest = z.infer<typeof CreateBoltConnectionRequestSchema>;

/** The body of `PATCH /api/v1/bolt-devices/{boltDeviceId}/name`. */
export const RenameBoltDeviceRequestSchema = z.object({
  name: z.string().check(
    // An empty name is only "required", not also "blank".
    z.minLength(1, { error: 'is required', abort: true }),
    z.maxLength(100, 'must be at most 100 characters'),
    z.regex(/\S/, 'must not be blank'),
  ),
});
export type RenameBoltDeviceRequest = z.infer<typeof RenameBoltDeviceRequestSchema>;
