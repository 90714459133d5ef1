/**
 * Bank transfer slips and `POST /api/v1/charges/verify-qr-slip`.
 *
 * A payer who pays a PromptPay QR from a banking app gets a slip with a small verification QR
 * code (`slip-qr.ts`). The merchant scans it and sends its text to the service, which looks the
 * transfer up and marks the charge it paid SUCCEEDED, whatever the charge's state was (a webhook
 * may have been lost, or the charge may have failed or expired on the service's side while the
 * money moved).
 *
 * The sandbox plays both sides: the PromptPay payer page issues a slip for a pending QR charge
 * without completing it, and verification completes it.
 */
import { base64Decode, base64Encode } from '../../core/base64.js';
import { BILL_PAYMENT_SUB_TAGS, EMV_TAGS, readEmvField } from '../../core/emv-qr.js';
import { VerifyQrSlipRequestSchema, type VerifyQrSlipResponse } from '../../core/schemas/qr-slip.js';
import type { ChargeRecord } from '../charges/charge-records.js';
import type { SandboxPayments } from '../charges/sandbox-payments.js';
import { SANDBOX_DEFAULTS } from '../defaults.js';
import { SANDBOX_PAGES_PATH } from '../http/page-layout.js';
import { parseRequest } from '../http/parse-request.js';
import { readBytes } from '../http/read-body.js';
import { SandboxError } from '../http/sandbox-error.js';
import type { SandboxMerchant } from '../partners/sandbox-merchant.js';
import { newQrReference } from '../store/ids.js';
import { defineStoreSlice } from '../store/sandbox-store.js';
import { readSlipTextFromPng, renderSlipPng } from './slip-image.js';
import { buildSlipQrPayload, parseSlipQrPayload, type SlipQrFields } from './slip-qr.js';

/** The bank code the sandbox's payer sends from (a Thai bank code is 3 digits). */
export const SANDBOX_SLIP_SENDING_BANK_CODE = '004';

/** Where the slip pages live: `POST` issues a slip from the payer page, `GET /{ref}` shows one. */
export const SANDBOX_SLIPS_PAGE_PATH = `${SANDBOX_PAGES_PATH}/slips`;

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

/** The slips issued, by transaction reference and by the charge they paid. */
export const SLIPS = defineStoreSlice('slips', () => ({
  byTransactionRef: new Map<string, SlipRecord>(),
  byChargeId: new Map<string, SlipRecord>(),
}));

const NO_MATCH = 'no charge matches this slip';

/** Issues slips for QR PromptPay charges and verifies them. */
export class SandboxQrSlips {
  readonly #payments: SandboxPayments;
  readonly #now: () => Date;
  readonly #slips: ReturnType<typeof SLIPS.create>;

  constructor(options: { payments: SandboxPayments; now: () => Date }) {
    this.#payments = options.payments;
    this.#now = options.now;
    this.#slips = options.payments.store.slice(SLIPS);
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
    const slip = fields && this.#slips.byTransactionRef.get(fields.transactionRef);
    const record = slip && this.#payments.store.charges.get(slip.chargeId);
    if (!fields || !slip || !record || slip.sendingBankCode !== fields.sendingBankCode || slip.merchantId !== merchant.merchantId) {
      throw new SandboxError('NOT_FOUND_ERROR', NO_MATCH);
    }
    if (record.charge.status === 'SUCCEEDED') return { chargeId: slip.chargeId, verificationResult: 'ALREADY_SUCCEEDED' };
    this.#payments.charges.settle(slip.chargeId, { status: 'SUCCEEDED' }, { from: ['PENDING', 'FAILED'] });
    return { chargeId: slip.chargeId, verificationResult: 'UPDATED_TO_SUCCEEDED' };
  }

  /**
   * Reads the body of verify-qr-slip: JSON (undefined here, so the JSON reader takes it), or
   * multipart/form-data with the slip picture in the field `image`, which reads as
   * `{format: "IMAGE", imageBase64Encoded}`. Never reads past `maxBytes`.
   */
  async readVerifyBody(request: Request, maxBytes: number): Promise<unknown> {
    const type = request.headers.get('content-type') ?? '';
    if (!/^multipart\/form-data\s*;/i.test(type.trim())) return undefined;
    const body = await readBytes(request, maxBytes);
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

  /** The slip with this transaction reference. */
  find(transactionRef: string): SlipRecord | undefined {
    return this.#slips.byTransactionRef.get(transactionRef);
  }

  /** A slip as the slip endpoint describes it, its picture included. */
  async describe(slip: SlipRecord, origin: string): Promise<SlipDescription> {
    return {
      chargeId: slip.chargeId,
      transactionRef: slip.transactionRef,
      sendingBankCode: slip.sendingBankCode,
      amount: slip.amountSatang,
      paidAt: slip.paidAt.toISOString(),
      raw: slip.raw,
      imageBase64Encoded: base64Encode(await this.png(slip)),
      slipUrl: `${origin}${slipPagePath(slip)}`,
    };
  }

  /**
   * The slip of a QR charge's transfer: the one already made, or a new transfer now. A payer can
   * transfer while the QR is payable, and a SUCCEEDED charge was paid by a transfer too; a
   * FAILED charge (declined) or an expired unpaid QR cannot be.
   */
  issue(record: ChargeRecord, merchant: SandboxMerchant | undefined): SlipRecord {
    const existing = this.#slips.byChargeId.get(record.charge.chargeId);
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
    this.#slips.byTransactionRef.set(transactionRef, slip);
    this.#slips.byChargeId.set(charge.chargeId, slip);
    return slip;
  }

  /** The slip picture: its verification QR code with the transfer's details. */
  png(slip: SlipRecord): Promise<Uint8Array> {
    return renderSlipPng({
      qrText: slip.raw,
      amountSatang: slip.amountSatang,
      paidAt: slip.paidAt,
      payeeName: slip.payeeName,
      reference: slip.reference,
      transactionRef: slip.transactionRef,
    });
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
}

/** The path of a slip's page; its picture is the same with `.png`. */
export function slipPagePath(slip: SlipRecord): string {
  return `${SANDBOX_SLIPS_PAGE_PATH}/${encodeURIComponent(slip.transactionRef)}`;
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
