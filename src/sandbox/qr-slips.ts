/**
 * Bank transfer slips and `POST /api/v1/charges/verify-qr-slip`.
 *
 * A payer who pays a PromptPay QR from a banking app gets a slip with a small verification QR
 * code. The merchant scans it and sends its text to the service, which looks the transfer up and
 * marks the charge it paid SUCCEEDED, whatever the charge's state was (a webhook may have been
 * lost, or the charge may have failed or expired on the service's side while the money moved).
 *
 * The sandbox plays both sides: the PromptPay payer page issues a slip for a pending QR charge
 * without completing it, and verification completes it. The slip QR follows the Thai bank slip
 * verification "mini QR": TLV fields as in EMV QR codes,
 *
 * - tag 00, a template: 00 the API id `000001`, 01 the sending bank's 3-digit code,
 *   02 the transaction reference;
 * - tag 51 the country, `TH`;
 * - tag 91 the CRC-16/CCITT-FALSE of everything before its value (as tag 63 of payment QRs).
 */
import { crc16CcittFalse, encodeEmvTlv, parseEmvTlv, readEmvField, BILL_PAYMENT_SUB_TAGS, EMV_TAGS } from '../core/emv-qr.js';
import { base64Decode, base64Encode } from '../core/base64.js';
import { readBodyBytes, RequestBodyError } from '../core/request-body.js';
import { VerifyQrSlipRequestSchema, type VerifyQrSlipResponse } from '../core/schemas/qr-slip.js';
import { SANDBOX_DEFAULTS } from './defaults.js';
import { SANDBOX_PAGES_PATH, STYLESHEET_HREF } from './hosted-pages.js';
import { newQrReference } from './store/ids.js';
import { allowOnly, decodePathSegment, htmlResponse, readFormPost, seeOther } from './http/page-forms.js';
import { renderErrorPage } from './pages.js';
import { parseRequest, type SandboxMerchant, type SandboxPayments } from './payments.js';
import { jsonResponse, SandboxError } from './http/sandbox-error.js';
import { readSlipTextFromPng, renderSlipPng } from './slip-image.js';
import { renderSlipPage } from './slip-pages.js';
import type { ChargeRecord } from './store/sandbox-store.js';

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

/** The bank code the sandbox's payer sends from (a Thai bank code is 3 digits). */
export const SANDBOX_SLIP_SENDING_BANK_CODE = '004';

/** Where the slip pages live: `POST` issues a slip from the payer page, `GET /{ref}` shows one. */
export const SANDBOX_SLIPS_PAGE_PATH = `${SANDBOX_PAGES_PATH}/slips`;

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
    if (!last || last.tag !== SLIP_QR_TAGS.crc || !/^[0-9A-F]{4}$/.test(last.value)) return undefined;
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

/** A transfer the sandbox's payer made for a QR charge, and the slip it got. */
export interface SlipRecord extends SlipQrFields {
  /** The slip QR text. */
  raw: string;
  chargeId: string;
  merchantId: string;
  amountSatang: number;
  /** Reference 1 of the QR the transfer paid. */
  reference: string;
  payeeName: string;
  paidAt: Date;
}

/** A slip as `GET /sandbox/v1/charges/{chargeId}/slip` describes it. */
export interface SlipDescription {
  chargeId: string;
  transactionRef: string;
  sendingBankCode: string;
  amount: number;
  paidAt: string;
  raw: string;
  /** The slip picture (PNG), base64. */
  imageBase64Encoded: string;
  /** The slip page a person can open. */
  slipUrl: string;
}

export interface SandboxQrSlipsOptions {
  payments: SandboxPayments;
  now: () => Date;
  maxBodyBytes: number;
}

const NO_MATCH = 'no charge matches this slip';

/**
 * Issues slips for QR PromptPay charges and verifies them: the slip pages, the sandbox's slip
 * endpoint for tests and `POST /api/v1/charges/verify-qr-slip`. Slips are kept here, in memory,
 * by transaction reference.
 */
export class SandboxQrSlips {
  readonly #payments: SandboxPayments;
  readonly #now: () => Date;
  readonly #maxBodyBytes: number;
  readonly #slips = new Map<string, SlipRecord>();
  readonly #slipByCharge = new Map<string, SlipRecord>();

  constructor(options: SandboxQrSlipsOptions) {
    this.#payments = options.payments;
    this.#now = options.now;
    this.#maxBodyBytes = options.maxBodyBytes;
  }

  /**
   * `POST /api/v1/charges/verify-qr-slip`. The slip's transfer must be one this merchant was
   * paid; then the charge becomes SUCCEEDED (with its transaction and webhooks) unless it already
   * was. Anything else, malformed slip text included, is a 404.
   */
  verify(merchant: SandboxMerchant, body: unknown): VerifyQrSlipResponse {
    const request = parseRequest(VerifyQrSlipRequestSchema, body);
    const text = request.format === 'RAW' ? request.raw.trim() : this.#readImage(request.imageBase64Encoded);
    const fields = parseSlipQrPayload(text);
    const slip = fields && this.#slips.get(fields.transactionRef);
    const record = slip && this.#payments.store.charges.get(slip.chargeId);
    if (!fields || !slip || !record || slip.sendingBankCode !== fields.sendingBankCode || slip.merchantId !== merchant.merchantId) {
      throw new SandboxError('NOT_FOUND_ERROR', NO_MATCH);
    }
    if (record.charge.status === 'SUCCEEDED') return { chargeId: slip.chargeId, verificationResult: 'ALREADY_SUCCEEDED' };
    this.#payments.settleCharge(slip.chargeId, { status: 'SUCCEEDED' }, { from: ['PENDING', 'FAILED'] });
    return { chargeId: slip.chargeId, verificationResult: 'UPDATED_TO_SUCCEEDED' };
  }

  /**
   * Reads the body of verify-qr-slip: JSON, or multipart/form-data with the slip picture in the
   * field `image`, which reads as `{format: "IMAGE", imageBase64Encoded}`.
   */
  async readVerifyBody(request: Request): Promise<unknown> {
    const type = request.headers.get('content-type') ?? '';
    if (!/^multipart\/form-data\s*;/i.test(type.trim())) return undefined;
    let body: Uint8Array;
    try {
      body = await readBodyBytes(request, this.#maxBodyBytes);
    } catch (error) {
      if (error instanceof RequestBodyError) throw new SandboxError(error.reason === 'too-large' ? 'REQUEST_TOO_LARGE_ERROR' : 'INVALID_JSON_ERROR', error.message);
      throw error;
    }
    let form: FormData;
    try {
      form = await new Response(body as Uint8Array<ArrayBuffer>, { headers: { 'content-type': type } }).formData();
    } catch {
      throw SandboxError.field('', 'is not valid multipart/form-data');
    }
    const image = form.get('image');
    if (image === null) throw SandboxError.field('image', 'is required: attach the slip picture as the form field image');
    if (typeof image === 'string') throw SandboxError.field('image', 'must be a file (the slip picture)');
    const bytes = new Uint8Array(await image.arrayBuffer());
    if (bytes.length === 0) throw SandboxError.field('image', 'is empty');
    return { format: 'IMAGE', imageBase64Encoded: base64Encode(bytes) };
  }

  /**
   * `GET /sandbox/v1/charges/{chargeId}/slip`: the slip of the charge's transfer, made (without
   * completing the charge) on first asking, as the payer page's "get a slip" does. `format` is
   * `json` (default), `raw` (the QR text) or `png` (the picture).
   */
  async slipEndpoint(merchant: SandboxMerchant, chargeId: string, format: string | null, origin: string): Promise<Response> {
    if (format !== null && !['json', 'raw', 'png'].includes(format)) throw SandboxError.field('format', 'must be json, raw or png');
    const record = this.#payments.store.charges.get(chargeId);
    if (!record || record.charge.merchantId !== merchant.merchantId) throw new SandboxError('NOT_FOUND_ERROR', `no charge with id ${chargeId}`);
    const slip = this.#issue(record, merchant);
    if (format === 'raw') return new Response(slip.raw, { headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
    const png = await this.#png(slip);
    if (format === 'png') return pngResponse(png, false, slip);
    const description: SlipDescription = {
      chargeId: slip.chargeId,
      transactionRef: slip.transactionRef,
      sendingBankCode: slip.sendingBankCode,
      amount: slip.amountSatang,
      paidAt: slip.paidAt.toISOString(),
      raw: slip.raw,
      imageBase64Encoded: base64Encode(png),
      slipUrl: `${origin}${SANDBOX_SLIPS_PAGE_PATH}/${encodeURIComponent(slip.transactionRef)}`,
    };
    return jsonResponse(200, description);
  }

  /** Answers a slip page request, or `undefined` when the path is not one. */
  async handlePage(request: Request, url: URL): Promise<Response | undefined> {
    const path = url.pathname;
    if (path === SANDBOX_SLIPS_PAGE_PATH) {
      allowOnly(request, ['POST']);
      return this.#issueFromPayerPage(request);
    }
    if (!path.startsWith(`${SANDBOX_SLIPS_PAGE_PATH}/`)) return undefined;
    allowOnly(request, ['GET']);
    const rest = decodePathSegment(path.slice(SANDBOX_SLIPS_PAGE_PATH.length + 1));
    const isPng = rest.endsWith('.png');
    const slip = this.#slips.get(isPng ? rest.slice(0, -'.png'.length) : rest);
    if (!slip) return notFoundPage('Slip not found', 'There is no transfer slip at this address.');
    if (isPng) return pngResponse(await this.#png(slip), url.searchParams.has('download'), slip);
    const record = this.#payments.store.charges.get(slip.chargeId);
    const imageHref = `${SANDBOX_SLIPS_PAGE_PATH}/${encodeURIComponent(slip.transactionRef)}.png`;
    return htmlResponse(
      200,
      renderSlipPage({
        stylesheetHref: STYLESHEET_HREF,
        slip: {
          transactionRef: slip.transactionRef,
          sendingBankCode: slip.sendingBankCode,
          chargeId: slip.chargeId,
          chargeStatus: record?.charge.status ?? 'PENDING',
          amountSatang: slip.amountSatang,
          reference: slip.reference,
          payeeName: slip.payeeName,
          paidAt: slip.paidAt.toISOString(),
          raw: slip.raw,
        },
        imageHref,
        downloadHref: `${imageHref}?download`,
        payerHref: `${SANDBOX_PAGES_PATH}/promptpay`,
      }),
    );
  }

  async #issueFromPayerPage(request: Request): Promise<Response> {
    const form = await readFormPost(request, this.#maxBodyBytes);
    const rawData = (form.get('rawData') ?? '').trim();
    if (rawData === '') return htmlResponse(400, renderErrorPage({ stylesheetHref: STYLESHEET_HREF, title: 'No QR code given', message: 'Paste the QR code’s text (its rawData) on the PromptPay payer page first.' }));
    const record = this.#payments.findChargeByQrPayload(rawData);
    if (!record) return notFoundPage('Charge not found', 'No charge matches this QR code. Check that you copied all of it.');
    let slip: SlipRecord;
    try {
      slip = this.#issue(record, undefined);
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
      return htmlResponse(error.status, renderErrorPage({ stylesheetHref: STYLESHEET_HREF, title: 'No transfer made', message: `${error.message}.` }));
    }
    return seeOther(`${SANDBOX_SLIPS_PAGE_PATH}/${encodeURIComponent(slip.transactionRef)}`);
  }

  /**
   * The slip of a QR charge's transfer: the one already made, or a new transfer now. A payer can
   * transfer while the QR is payable, and a SUCCEEDED charge was paid by a transfer too; a
   * FAILED charge (declined) or an expired unpaid QR cannot be.
   */
  #issue(record: ChargeRecord, merchant: SandboxMerchant | undefined): SlipRecord {
    const existing = this.#slipByCharge.get(record.charge.chargeId);
    if (existing) return existing;
    const { charge, qr } = record;
    if (!qr) throw new SandboxError('OPERATION_NOT_ALLOWED_ERROR', `charge ${charge.chargeId} is not a QR PromptPay charge, so no bank transfer slip exists for it`);
    if (charge.status === 'FAILED') throw new SandboxError('REQUEST_CONFLICT_ERROR', `charge ${charge.chargeId} FAILED: the payer declined, so no transfer was made`);
    const now = this.#now();
    if (charge.status === 'PENDING' && qr.expiresAt.getTime() <= now.getTime()) {
      throw new SandboxError('REQUEST_CONFLICT_ERROR', `the QR code of charge ${charge.chargeId} expired before it was paid`);
    }
    const transactionRef = `${bangkokDate(now)}${newQrReference(12)}`;
    const fields = { sendingBankCode: SANDBOX_SLIP_SENDING_BANK_CODE, transactionRef };
    const slip: SlipRecord = {
      ...fields,
      raw: buildSlipQrPayload(fields),
      chargeId: charge.chargeId,
      merchantId: charge.merchantId,
      amountSatang: charge.amount,
      reference: safeRead(() => readEmvField(qr.rawData, EMV_TAGS.billPaymentTemplate, BILL_PAYMENT_SUB_TAGS.reference1)) ?? '',
      payeeName: safeRead(() => readEmvField(qr.rawData, EMV_TAGS.merchantName)) ?? merchant?.name ?? SANDBOX_DEFAULTS.merchantName,
      paidAt: charge.status === 'SUCCEEDED' && charge.transactionTime ? new Date(charge.transactionTime) : now,
    };
    this.#slips.set(transactionRef, slip);
    this.#slipByCharge.set(charge.chargeId, slip);
    return slip;
  }

  #readImage(imageBase64Encoded: string): string {
    let bytes: Uint8Array;
    try {
      bytes = base64Decode(imageBase64Encoded);
    } catch {
      throw SandboxError.field('imageBase64Encoded', 'must be base64 (no data: prefix)');
    }
    const text = readSlipTextFromPng(bytes);
    if (text === undefined) {
      throw new SandboxError(
        'NOT_FOUND_ERROR',
        `${NO_MATCH}: no slip QR code could be read from the image (the sandbox reads the slip PNGs it issues; for any other picture send format RAW with the QR code's text)`,
      );
    }
    return text.trim();
  }

  #png(slip: SlipRecord): Promise<Uint8Array> {
    return renderSlipPng({
      qrText: slip.raw,
      amountSatang: slip.amountSatang,
      paidAt: slip.paidAt,
      payeeName: slip.payeeName,
      reference: slip.reference,
      transactionRef: slip.transactionRef,
    });
  }
}

function pngResponse(png: Uint8Array, download: boolean, slip: SlipRecord): Response {
  const headers: Record<string, string> = { 'content-type': 'image/png', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
  if (download) headers['content-disposition'] = `attachment; filename="slip-${slip.transactionRef}.png"`;
  return new Response(png as Uint8Array<ArrayBuffer>, { headers });
}

function notFoundPage(title: string, message: string): Response {
  return htmlResponse(404, renderErrorPage({ stylesheetHref: STYLESHEET_HREF, title, message }));
}

function safeRead(read: () => string | undefined): string | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** YYYYMMDD in Bangkok, the date part of a transaction reference. */
function bangkokDate(at: Date): string {
  const bangkok = new Date(at.getTime() + 7 * 60 * 60 * 1000);
  return bangkok.toISOString().slice(0, 10).replaceAll('-', '');
}
