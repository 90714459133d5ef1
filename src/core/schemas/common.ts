import * as z from 'zod/mini';
import { CURRENCIES, MAX_CHARGE_AMOUNT_SATANG, MIN_CHARGE_AMOUNT_SATANG } from '../constants.js';
import { isAppScheme } from '../url.js';

/**
 * Building blocks shared by the resource schemas.
 *
 * Responses are read with `z.looseObject`, so fields the service adds later are kept rather than
 * rejected ("schemas may change"); requests are checked strictly on the fields they name.
 */

/** A timestamp as the service writes it (ISO 8601 with an offset or Z). Read leniently. */
export const TimestampSchema = z.string();

/** A timestamp a caller sends: ISO 8601 with an offset or Z, checked. */
export const TimestampRequestSchema = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp with a UTC offset or Z' });

/** Currency of a request: THB is the only one accepted. */
export const CurrencyRequestSchema = z.enum(CURRENCIES, { error: 'must be THB' });

/** An amount in the smallest currency unit (satang for THB). */
export const AmountSchema = z.int();

/**
 * A string member the service always writes, `""` when it has none (`failureCode`, `sourceId`,
 * a customer's unknown details). Read tolerantly: null or a missing member (an older sandbox, a
 * hand-written fixture) also reads as `""`, so a reader has one way to ask "is there one".
 */
export function liveStringSchema() {
  return z.pipe(z.optional(z.nullable(z.string())), z.transform((value): string => value ?? ''));
}

/**
 * An object member the service always writes whole, its unknown members `""`. Null or missing
 * reads as the object with every member `""`, the way the service would have written it.
 */
export function liveObjectSchema<T extends z.ZodMiniType<Record<string, unknown>>>(schema: T) {
  return z.pipe(z.optional(z.nullable(schema)), z.transform((value): z.output<T> => value ?? schema.parse({})));
}

/** A phone number split as the service keeps it; `""` members when unknown. */
export const PhoneSchema = z.looseObject({
  countryCode: liveStringSchema(),
  number: liveStringSchema(),
});
export type Phone = z.infer<typeof PhoneSchema>;

/** A postal address; `country` is a three-letter code; `""` members when unknown. */
export const AddressSchema = z.looseObject({
  streetAddress: liveStringSchema(),
  city: liveStringSchema(),
  country: liveStringSchema(),
  postCode: liveStringSchema(),
});
export type Address = z.infer<typeof AddressSchema>;

/** Where an order is delivered; every member present, `""` where unknown. */
export const DeliveryAddressSchema = z.looseObject({
  contactName: liveStringSchema(),
  phone: liveObjectSchema(PhoneSchema),
  address: liveObjectSchema(AddressSchema),
});
export type DeliveryAddress = z.infer<typeof DeliveryAddressSchema>;

/**
 * The customer of a charge as the service returns it: always an object with every member, `""`
 * for what the charge was not given (never null). `billingAddress` is accepted at creation but
 * is not part of the answer.
 */
export const CustomerSchema = z.looseObject({
  primaryPhone: liveObjectSchema(PhoneSchema),
  email: liveStringSchema(),
  deliveryAddress: liveObjectSchema(DeliveryAddressSchema),
});
export type Customer = z.infer<typeof CustomerSchema>;

/** A string of at most `max` characters, for optional request fields. */
export const boundedString = (max: number) => z.string().check(z.maxLength(max, `must be at most ${max} characters`));

/** A non-empty string of at most `max` characters. */
export const requiredString = (max: number) =>
  z.string().check(z.minLength(1, 'is required'), z.maxLength(max, `must be at most ${max} characters`));

/** The amount of a charge, authorization, link or intent: 1.00 to 10,000,000.00 THB, in satang. */
export const ChargeAmountRequestSchema = z.int({ error: 'must be a whole number of satang' }).check(
  z.gte(MIN_CHARGE_AMOUNT_SATANG, `must be at least ${MIN_CHARGE_AMOUNT_SATANG} (1.00 THB)`),
  z.lte(MAX_CHARGE_AMOUNT_SATANG, `must be at most ${MAX_CHARGE_AMOUNT_SATANG} (10,000,000.00 THB)`),
);

/** The merchant's reference of a charge, authorization or intent. */
export const ReferenceIdRequestSchema = requiredString(255);

const PhoneRequestSchema = z.object({
  countryCode: boundedString(8),
  number: boundedString(32),
});

const AddressRequestSchema = z.object({
  streetAddress: z.optional(boundedString(512)),
  city: z.optional(boundedString(128)),
  country: z.optional(z.string().check(z.regex(/^[A-Z]{3}$/, 'must be a three-letter country code'))),
  postCode: z.optional(boundedString(32)),
});

/** The customer a caller may attach to a charge or a card authorization. */
export const CustomerRequestSchema = z.object({
  email: z.optional(z.email({ error: 'must be an email address' })),
  primaryPhone: z.optional(PhoneRequestSchema),
  deliveryAddress: z.optional(
    z.object({
      contactName: z.optional(boundedString(256)),
      phone: z.optional(PhoneRequestSchema),
      address: z.optional(AddressRequestSchema),
    }),
  ),
  billingAddress: z.optional(AddressRequestSchema),
});
export type CustomerRequest = z.infer<typeof CustomerRequestSchema>;

/** The envelope of every list endpoint: one page of items and the total across pages. */
export function listEnvelopeSchema<T extends z.core.$ZodType>(item: T) {
  return z.looseObject({
    data: z.array(item),
    totalCount: z.int(),
  });
}
export interface ListEnvelope<T> {
  data: T[];
  totalCount: number;
}

/** Query parameters every list endpoint takes. */
export const ListQuerySchema = z.object({
  limit: z.optional(z.int().check(z.gte(1, 'must be at least 1'), z.lte(100, 'must be at most 100'))),
  offset: z.optional(z.int().check(z.gte(0, 'must not be negative'))),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

/**
 * C0 controls (NUL to US, tab and line breaks included), DEL and C1 controls. URL parsing strips
 * some of them without a word (tabs, CR, LF) and keeps others, so a URL carrying one would reach a
 * Location header, a page or a log as something else than it reads: refused, never cleaned up.
 * Percent-encoded, they are ordinary URL text.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const URL_CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A string without {@link URL_CONTROL_CHARACTERS}, to pipe into a `z.url()`: checked before the URL
 * is parsed, as parsing drops tabs and line breaks from the value it passes on.
 */
export function rawUrlString(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).check(z.refine((url) => !URL_CONTROL_CHARACTERS.test(url), 'must not contain control characters (percent-encode them)'));
}
/** A URL given by the caller (return, redirect or cancel URL): absolute, http or https, no control characters. */
export const HttpUrlRequestSchema = z.pipe(
  rawUrlString({ error: 'must be an absolute http or https URL' }),
  z.url({
    protocol: /^https?$/,
    error: 'must be an absolute http or https URL',
  }),
);

/**
 * Where a redirect payment sends the shopper back (`returnUrl` of a charge or a card
 * authorization): an absolute http or https URL, or one of an app's own scheme (`myshop://paid`),
 * so a shop's mobile app gets its shopper back. Never a scheme the browser handles itself
 * (`javascript:`, `data:`, `file:`…: `RESERVED_URL_SCHEMES`), no control characters.
 */
export const ReturnUrlRequestSchema = /* @__PURE__ */ returnUrlRequestSchema();

function returnUrlRequestSchema() {
  const error = "must be an absolute http or https URL, or a URL of an app's own scheme (myshop://…)";
  return z.pipe(
    rawUrlString({ error }),
    z.url({ error }).check(
      z.refine((value) => {
        let scheme: string;
        try {
          scheme = new URL(value).protocol.slice(0, -1);
        } catch {
          return true; // not a URL: said already, once
        }
        return scheme === 'http' || scheme === 'https' || isAppScheme(scheme);
      }, error),
    ),
  );
}
