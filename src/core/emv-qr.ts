/**
 * EMVCo merchant-presented QR payloads as Thai QR / PromptPay uses them: the string a QR
 * PromptPay charge's `encodedImage.rawData` carries and its PNG encodes. Pure and isomorphic
 * (no Node, no DOM, no dependencies) so the sandbox, the merchant server and the browser read
 * and write the same format.
 *
 * A payload is a run of TLV fields: a 2-digit tag, a 2-digit length, then that many characters.
 * Template fields (such as tag 30) hold another run of TLV fields. The last field is always tag
 * 63, a CRC-16/CCITT-FALSE over everything before its value.
 */

/** One top-level field of an EMV QR payload, as {@link parseEmvTlv} returns it. */
export interface EmvTlvField {
  /** Two decimal digits, e.g. `"54"`. */
  tag: string;
  /** The field's characters; a template's value is itself TLV. */
  value: string;
}

/** Tags a Thai QR bill-payment payload uses. Use these instead of bare strings when reading fields. */
export const EMV_TAGS = {
  /** Payload format indicator, always `"01"`. */
  payloadFormatIndicator: '00',
  /** Point of initiation: `"11"` static (reusable), `"12"` dynamic (one payment). */
  pointOfInitiation: '01',
  /** PromptPay bill-payment merchant account template. */
  billPaymentTemplate: '30',
  /** ISO 4217 numeric currency code. */
  currency: '53',
  /** Amount in baht, with a decimal point. */
  amount: '54',
  /** ISO 3166 alpha-2 country code. */
  countryCode: '58',
  /** Merchant name. */
  merchantName: '59',
  /** Merchant city. */
  merchantCity: '60',
  /** CRC-16/CCITT-FALSE checksum, always last. */
  crc: '63',
} as const;

/** Sub-tags inside the bill-payment template ({@link EMV_TAGS}.billPaymentTemplate). */
export const BILL_PAYMENT_SUB_TAGS = {
  /** Application id identifying PromptPay bill payment. */
  aid: '00',
  /** Biller id: a 13-digit tax id and a 2-digit suffix. */
  billerId: '01',
  /** First payer reference, matched against the charge. */
  reference1: '02',
  /** Optional second reference. */
  reference2: '03',
} as const;

/** Application id of PromptPay bill payment (domestic merchant), written in tag 30 sub-tag 00. */
export const PROMPTPAY_BILL_PAYMENT_AID = 'A000000677010112';

/** Point-of-initiation value of a one-time (dynamic) QR, which carries its own amount. */
export const POINT_OF_INITIATION_DYNAMIC = '12';

/** ISO 4217 numeric code of the Thai baht, the only currency the service accepts. */
export const CURRENCY_NUMERIC_THB = '764';

/** ISO 3166 alpha-2 country code written in tag 58. */
export const COUNTRY_CODE_TH = 'TH';

/** The longest value a TLV field can hold: its length is two decimal digits. */
export const EMV_MAX_VALUE_LENGTH_CHARS = 99;

/** The longest merchant name tag 59 holds. */
export const MERCHANT_NAME_MAX_LENGTH_CHARS = 25;

/** The longest merchant city tag 60 holds. */
export const MERCHANT_CITY_MAX_LENGTH_CHARS = 15;

/** The longest reference 1 or reference 2 of a bill payment. */
export const BILL_PAYMENT_REFERENCE_MAX_LENGTH_CHARS = 20;

/**
 * The largest amount {@link buildPromptPayBillPaymentPayload} writes: 999,999,999.99 THB, which
 * tag 54 holds as `"999999999.99"` (12 of its 13 characters). Far above any charge the service
 * accepts, so it only rejects amounts that are plainly wrong (overflowed or mis-scaled).
 */
export const MAX_PROMPTPAY_AMOUNT_SATANG = 99_999_999_999;

/** The smallest amount a QR can carry: 0.01 THB. Charges have their own, higher minimum. */
export const MIN_PROMPTPAY_AMOUNT_SATANG = 1;

const SATANG_PER_BAHT = 100;

const TAG_PATTERN = /^\d{2}$/;
const BILLER_ID_PATTERN = /^\d{15}$/;
const REFERENCE_PATTERN = /^[A-Z0-9]+$/;
const PRINTABLE_ASCII_PATTERN = /^[\x20-\x7E]+$/;
const HEX_CRC_PATTERN = /^[0-9A-F]{4}$/;
const AMOUNT_PATTERN = /^(\d+)(?:\.(\d{1,2}))?$/;

/** Tag 63 and its fixed length, which the checksum itself covers. */
const CRC_FIELD_HEADER = `${EMV_TAGS.crc}04`;
const CRC_FIELD_LENGTH_CHARS = CRC_FIELD_HEADER.length + 4;

const utf8 = new TextEncoder();

/**
 * CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, xorout 0) of the UTF-8 bytes of
 * `input`, as 4 uppercase hex digits. Use it to compute or check an EMV QR checksum (tag 63),
 * which covers the payload up to and including `"6304"`.
 */
export function crc16CcittFalse(input: string): string {
  let crc = 0xffff;
  for (const byte of utf8.encode(input)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * One TLV field: tag, 2-digit length, value. Use it to build payloads field by field, including
 * the inner fields of a template. Values are ASCII, so the length counts characters.
 *
 * @throws RangeError when the tag is not two digits or the value is longer than 99 characters.
 */
export function encodeEmvTlv(tag: string, value: string): string {
  if (!TAG_PATTERN.test(tag)) {
    throw new RangeError(`EMV tag must be two digits, got ${JSON.stringify(tag)}`);
  }
  if (value.length > EMV_MAX_VALUE_LENGTH_CHARS) {
    throw new RangeError(
      `EMV tag ${tag} value is ${value.length} characters; at most ${EMV_MAX_VALUE_LENGTH_CHARS} fit`,
    );
  }
  return `${tag}${String(value.length).padStart(2, '0')}${value}`;
}

/**
 * The top-level fields of a payload (or of a template's value), in order. Use it to inspect a
 * payload received from the service or read from a slip; {@link readEmvField} is shorter when
 * one field is wanted.
 *
 * @throws SyntaxError naming the offset when a field is truncated or its tag or length is not
 * two digits.
 */
export function parseEmvTlv(payload: string): EmvTlvField[] {
  const fields: EmvTlvField[] = [];
  let offset = 0;
  while (offset < payload.length) {
    if (offset + 4 > payload.length) {
      throw new SyntaxError(`EMV payload truncated at offset ${offset}: expected a 4-character tag and length`);
    }
    const tag = payload.slice(offset, offset + 2);
    const lengthText = payload.slice(offset + 2, offset + 4);
    if (!TAG_PATTERN.test(tag)) {
      throw new SyntaxError(`EMV payload has a non-numeric tag ${JSON.stringify(tag)} at offset ${offset}`);
    }
    if (!TAG_PATTERN.test(lengthText)) {
      throw new SyntaxError(
        `EMV payload has a non-numeric length ${JSON.stringify(lengthText)} for tag ${tag} at offset ${offset + 2}`,
      );
    }
    const length = Number(lengthText);
    const valueStart = offset + 4;
    const valueEnd = valueStart + length;
    if (valueEnd > payload.length) {
      throw new SyntaxError(
        `EMV payload truncated at offset ${valueStart}: tag ${tag} declares ${length} characters, ` +
          `${payload.length - valueStart} remain`,
      );
    }
    fields.push({ tag, value: payload.slice(valueStart, valueEnd) });
    offset = valueEnd;
  }
  return fields;
}

/**
 * The value of a top-level tag, or with `subTag` the value of that field inside the template at
 * `tag` (e.g. tag 30 sub-tag 02 for a bill payment's reference 1). Use it to read one field of a
 * payload. When a tag repeats, the first occurrence wins.
 *
 * @returns undefined when the tag (or sub-tag) is absent.
 * @throws SyntaxError when the payload, or the template being searched, is not valid TLV.
 */
export function readEmvField(payload: string, tag: string, subTag?: string): string | undefined {
  const value = parseEmvTlv(payload).find((field) => field.tag === tag)?.value;
  if (value === undefined || subTag === undefined) return value;
  return parseEmvTlv(value).find((field) => field.tag === subTag)?.value;
}

/**
 * Whether the payload is well-formed TLV ending in tag 63, length 04, whose value is the CRC of
 * everything before it (including `"6304"`). Use it before trusting a payload: it catches
 * truncation and any single altered character. Never throws.
 */
export function verifyEmvCrc(payload: string): boolean {
  if (payload.length < CRC_FIELD_LENGTH_CHARS) return false;
  const crcStart = payload.length - CRC_FIELD_LENGTH_CHARS;
  if (payload.slice(crcStart, crcStart + CRC_FIELD_HEADER.length) !== CRC_FIELD_HEADER) return false;
  const expected = payload.slice(crcStart + CRC_FIELD_HEADER.length);
  if (!HEX_CRC_PATTERN.test(expected)) return false;
  // "6304" could sit inside another field's value; only a field boundary makes it the checksum.
  try {
    if (parseEmvTlv(payload).at(-1)?.tag !== EMV_TAGS.crc) return false;
  } catch {
    return false;
  }
  return crc16CcittFalse(payload.slice(0, crcStart + CRC_FIELD_HEADER.length)) === expected;
}

/** What a one-time PromptPay bill-payment QR carries; see {@link buildPromptPayBillPaymentPayload}. */
export interface PromptPayBillPaymentInput {
  /** 15 digits: the merchant's 13-digit tax id and a 2-digit suffix. */
  billerId: string;
  /** 1 to 20 characters, A-Z and 0-9; what the payment is matched on. */
  reference1: string;
  /** Optional second reference, same rule as reference1. */
  reference2?: string;
  /** Integer satang, 1 to {@link MAX_PROMPTPAY_AMOUNT_SATANG}. */
  amountSatang: number;
  /** Optional, printable ASCII, at most 25 characters. */
  merchantName?: string;
  /** Optional, printable ASCII, at most 15 characters. */
  merchantCity?: string;
}

/**
 * A dynamic (one-payment) Thai QR PromptPay bill-payment payload with its CRC, ready to render
 * as a QR code. Use it wherever a QR PromptPay charge needs `encodedImage.rawData`: any banking
 * app reads the biller, references and amount from it.
 *
 * @throws RangeError naming the field when an input breaks the format's rules.
 */
export function buildPromptPayBillPaymentPayload(input: PromptPayBillPaymentInput): string {
  const { billerId, reference1, reference2, amountSatang, merchantName, merchantCity } = input;
  if (!BILLER_ID_PATTERN.test(billerId)) {
    throw new RangeError('billerId must be 15 digits: a 13-digit tax id followed by a 2-digit suffix');
  }
  assertReference('reference1', reference1);
  if (reference2 !== undefined) assertReference('reference2', reference2);
  if (
    !Number.isSafeInteger(amountSatang) ||
    amountSatang < MIN_PROMPTPAY_AMOUNT_SATANG ||
    amountSatang > MAX_PROMPTPAY_AMOUNT_SATANG
  ) {
    throw new RangeError(
      `amountSatang must be an integer from ${MIN_PROMPTPAY_AMOUNT_SATANG} to ${MAX_PROMPTPAY_AMOUNT_SATANG}, got ${amountSatang}`,
    );
  }
  if (merchantName !== undefined) assertPrintableAscii('merchantName', merchantName, MERCHANT_NAME_MAX_LENGTH_CHARS);
  if (merchantCity !== undefined) assertPrintableAscii('merchantCity', merchantCity, MERCHANT_CITY_MAX_LENGTH_CHARS);

  const template =
    encodeEmvTlv(BILL_PAYMENT_SUB_TAGS.aid, PROMPTPAY_BILL_PAYMENT_AID) +
    encodeEmvTlv(BILL_PAYMENT_SUB_TAGS.billerId, billerId) +
    encodeEmvTlv(BILL_PAYMENT_SUB_TAGS.reference1, reference1) +
    (reference2 === undefined ? '' : encodeEmvTlv(BILL_PAYMENT_SUB_TAGS.reference2, reference2));

  const body =
    encodeEmvTlv(EMV_TAGS.payloadFormatIndicator, '01') +
    encodeEmvTlv(EMV_TAGS.pointOfInitiation, POINT_OF_INITIATION_DYNAMIC) +
    encodeEmvTlv(EMV_TAGS.billPaymentTemplate, template) +
    encodeEmvTlv(EMV_TAGS.currency, CURRENCY_NUMERIC_THB) +
    encodeEmvTlv(EMV_TAGS.amount, formatSatangAsBaht(amountSatang)) +
    encodeEmvTlv(EMV_TAGS.countryCode, COUNTRY_CODE_TH) +
    (merchantName === undefined ? '' : encodeEmvTlv(EMV_TAGS.merchantName, merchantName)) +
    (merchantCity === undefined ? '' : encodeEmvTlv(EMV_TAGS.merchantCity, merchantCity)) +
    CRC_FIELD_HEADER;
  return body + crc16CcittFalse(body);
}

/**
 * The amount of tag 54 as integer satang, parsed from the decimal text so no floating-point
 * rounding creeps in (`"1234.56"` is 123456, `"4.5"` is 450, `"100"` is 10000). Use it to check
 * a payload's amount against a charge.
 *
 * @returns undefined when the payload has no tag 54 (a static QR the payer fills in).
 * @throws SyntaxError when the payload is not valid TLV or tag 54 is not a decimal amount.
 */
export function readPromptPayAmountSatang(payload: string): number | undefined {
  const text = readEmvField(payload, EMV_TAGS.amount);
  if (text === undefined) return undefined;
  const match = AMOUNT_PATTERN.exec(text);
  if (!match) {
    throw new SyntaxError(`EMV tag ${EMV_TAGS.amount} is not a decimal amount: ${JSON.stringify(text)}`);
  }
  const baht = Number(match[1]);
  const satang = Number((match[2] ?? '').padEnd(2, '0'));
  const total = baht * SATANG_PER_BAHT + satang;
  if (!Number.isSafeInteger(total)) {
    throw new SyntaxError(`EMV tag ${EMV_TAGS.amount} amount is too large: ${JSON.stringify(text)}`);
  }
  return total;
}

/** Integer satang as baht with exactly two decimals, by integer arithmetic ("1.01" for 101). */
function formatSatangAsBaht(amountSatang: number): string {
  const baht = Math.floor(amountSatang / SATANG_PER_BAHT);
  const satang = amountSatang % SATANG_PER_BAHT;
  return `${baht}.${String(satang).padStart(2, '0')}`;
}

function assertReference(field: 'reference1' | 'reference2', value: string): void {
  if (
    value.length < 1 ||
    value.length > BILL_PAYMENT_REFERENCE_MAX_LENGTH_CHARS ||
    !REFERENCE_PATTERN.test(value)
  ) {
    throw new RangeError(
      `${field} must be 1 to ${BILL_PAYMENT_REFERENCE_MAX_LENGTH_CHARS} characters of A-Z and 0-9, got ${JSON.stringify(value)}`,
    );
  }
}

function assertPrintableAscii(field: 'merchantName' | 'merchantCity', value: string, maxLength: number): void {
  if (value.length < 1 || value.length > maxLength || !PRINTABLE_ASCII_PATTERN.test(value)) {
    throw new RangeError(
      `${field} must be 1 to ${maxLength} printable ASCII characters, got ${JSON.stringify(value)}`,
    );
  }
}
