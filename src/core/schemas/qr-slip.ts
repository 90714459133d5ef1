import * as z from 'zod/mini';

/** The longest slip QR text the service reads; a Thai bank slip QR is far shorter. */
export const QR_SLIP_RAW_MAX_LENGTH = 2048;

/** What a slip verification did to the matched charge. */
export const QR_SLIP_VERIFICATION_RESULTS = ['UPDATED_TO_SUCCEEDED', 'ALREADY_SUCCEEDED'] as const;
export type QrSlipVerificationResult = (typeof QR_SLIP_VERIFICATION_RESULTS)[number];

/**
 * The longest base64 slip image the service reads: about 1.5 MB of image. A phone's screenshot of
 * a slip is far smaller; a larger upload is refused before anything tries to decode it.
 */
export const QR_SLIP_IMAGE_MAX_BASE64_CHARS = 2_000_000;

export const QR_SLIP_FORMATS = ['RAW', 'IMAGE'] as const;

const RawSlipRequestSchema = z.object({
  format: z.literal('RAW'),
  raw: z.string().check(
    z.minLength(1, 'is required'),
    z.maxLength(QR_SLIP_RAW_MAX_LENGTH, `must be at most ${QR_SLIP_RAW_MAX_LENGTH} characters`),
  ),
});

const ImageSlipRequestSchema = z.object({
  format: z.literal('IMAGE'),
  imageBase64Encoded: z.string().check(
    z.minLength(1, 'is required'),
    z.maxLength(QR_SLIP_IMAGE_MAX_BASE64_CHARS, `must be at most ${QR_SLIP_IMAGE_MAX_BASE64_CHARS} characters`),
    z.regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64 (no data: prefix)'),
  ),
});

/**
 * The body of `POST /api/v1/charges/verify-qr-slip`: the slip of the shopper's bank transfer,
 * either the text of the QR code printed on it, as scanned (`format` RAW), or a picture of the
 * slip for the service to scan (`format` IMAGE, base64). The service also takes the picture as a
 * multipart/form-data upload (field `image`). Send it when a shopper proves a transfer whose
 * webhook has not (yet) arrived.
 */
export const VerifyQrSlipRequestSchema = z.discriminatedUnion('format', [RawSlipRequestSchema, ImageSlipRequestSchema], {
  // A missing or non-object body keeps the generic wording ("is required", "must be an object").
  error: (issue) => (typeof issue.input === 'object' && issue.input !== null && !Array.isArray(issue.input) ? 'must be RAW or IMAGE' : undefined),
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
