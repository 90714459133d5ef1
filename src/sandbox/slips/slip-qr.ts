/**
 * The verification QR code on a bank transfer slip, the Thai bank slip verification "mini QR":
 * TLV fields as in EMV QR codes,
 *
 * - tag 00, a template: 00 the API id `000001`, 01 the sending bank's 3-digit code,
 *   02 the transaction reference;
 * - tag 51 the country, `TH`;
 * - tag 91 the CRC-16/CCITT-FALSE of everything before its value (as tag 63 of payment QRs).
 */
import { crc16CcittFalse, encodeEmvTlv, parseEmvTlv } from '../../core/emv-qr.js';

/** API id of a slip verification QR (tag 00, sub-tag 00). */
export const SLIP_QR_API_ID = '000001';

/** Top-level tags of a slip verification QR. */
export const SLIP_QR_TAGS = {
  /** Template with the API id, the sending bank and the transaction reference. */
  data: '00',
  /** ISO 3166 alpha-2 country code. */
  country: '51',
  /** CRC-16/CCITT-FALSE, always last. */
  crc: '91',
} as const;

/** Sub-tags inside {@link SLIP_QR_TAGS}.data. */
export const SLIP_QR_DATA_SUB_TAGS = {
  apiId: '00',
  sendingBankCode: '01',
  transactionRef: '02',
} as const;

/** What a slip verification QR identifies: a transfer, by its bank and reference. */
export interface SlipQrFields {
  sendingBankCode: string;
  transactionRef: string;
}

const CRC_HEADER = `${SLIP_QR_TAGS.crc}04`;
const BANK_CODE_PATTERN = /^\d{3}$/;
const TRANSACTION_REF_PATTERN = /^[A-Za-z0-9]{1,50}$/;

/** The text of a slip verification QR for a transfer. */
export function buildSlipQrPayload({ sendingBankCode, transactionRef }: SlipQrFields): string {
  if (!BANK_CODE_PATTERN.test(sendingBankCode)) throw new RangeError('sendingBankCode must be 3 digits');
  if (!TRANSACTION_REF_PATTERN.test(transactionRef)) throw new RangeError('transactionRef must be 1 to 50 letters and digits');
  const data =
    encodeEmvTlv(SLIP_QR_DATA_SUB_TAGS.apiId, SLIP_QR_API_ID) +
    encodeEmvTlv(SLIP_QR_DATA_SUB_TAGS.sendingBankCode, sendingBankCode) +
    encodeEmvTlv(SLIP_QR_DATA_SUB_TAGS.transactionRef, transactionRef);
  const body = encodeEmvTlv(SLIP_QR_TAGS.data, data) + encodeEmvTlv(SLIP_QR_TAGS.country, 'TH') + CRC_HEADER;
  return body + crc16CcittFalse(body);
}

/**
 * The transfer a slip verification QR names, or undefined when the text is not one: bad TLV, a
 * wrong checksum, another API id or country, or missing fields. Never throws.
 */
export function parseSlipQrPayload(text: string): SlipQrFields | undefined {
  try {
    const fields = parseEmvTlv(text);
    const last = fields.at(-1);
    if (last?.tag !== SLIP_QR_TAGS.crc || !/^[0-9A-F]{4}$/.test(last.value)) return undefined;
    if (crc16CcittFalse(text.slice(0, -4)) !== last.value) return undefined;
    const country = fields.find((f) => f.tag === SLIP_QR_TAGS.country)?.value;
    const data = fields.find((f) => f.tag === SLIP_QR_TAGS.data)?.value;
    if (country !== 'TH' || data === undefined) return undefined;
    const sub = parseEmvTlv(data);
    const read = (tag: string) => sub.find((f) => f.tag === tag)?.value;
    const sendingBankCode = read(SLIP_QR_DATA_SUB_TAGS.sendingBankCode);
    const transactionRef = read(SLIP_QR_DATA_SUB_TAGS.transactionRef);
    if (read(SLIP_QR_DATA_SUB_TAGS.apiId) !== SLIP_QR_API_ID) return undefined;
    if (!sendingBankCode || !BANK_CODE_PATTERN.test(sendingBankCode)) return undefined;
    if (!transactionRef || !TRANSACTION_REF_PATTERN.test(transactionRef)) return undefined;
    return { sendingBankCode, transactionRef };
  } catch {
    return undefined;
  }
}
