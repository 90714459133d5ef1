import * as z from 'zod/mini';

/** The longest slip QR text the service reads; a Thai bank slip QR is far shorter. */
export const QR_SLIP_RAW_MAX_LENGTH = 2048;

/** What a slip verification did to the matched charge. */
export const QR_SLIP_VERIFICATION_RESULTS = ['UPDATED_TO_SUCCEEDED', 'ALREADY_SUCCEEDED'] as const;
export type QrSlipVerificationResult = (typeof QR_SLIP_VERIFICATION_RESULTS)[number];

/**
 * The body of `POST /api/v1/charges/verify-qr-slip`: the text of the QR code printed on the
 * shopper's bank transfer slip, as scanned (`format` RAW). Send it when a shopper proves a
 * transfer whose webhook has not (yet) arrived.
 */
export const VerifyQrSlipRequestSchema = z.object({
  format: z.literal('RAW', { error: 'must be RAW' }),
  raw: z.string().check(
    z.minLength(1, 'is required'),
    z.maxLength(QR_SLIP_RAW_MAX_LENGTH, `must be at most ${QR_SLIP_RAW_MAX_LENGTH} characters`),
  ),
});
export type VerifyQrSlipRequest = z.infer<typeof VerifyQrSlipRequestSchema>;

/**
 * The answer of a slip verification: the charge the slip paid and whether this call moved it to
 * SUCCEEDED or it had already succeeded. A slip that matches no charge is a 404, not an answer.
 */
export const VerifyQrSlipResponseSchema = z.looseObject({
  chargeId: z.string(),
  verificationResult: z.enum(QR_SLIP_VERIFICATION_RESULTS),
});
export type VerifyQrSlipResponse = z.infer<typeof VerifyQrSlipResponseSchema>;
