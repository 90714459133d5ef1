import { expect } from 'vitest';
import type { SandboxClient } from './sandbox-client.js';

/** The PromptPay QR payment method as a merchant server sends it to the service, with no expiry of its own. */
export const QR_PROMPT_PAY = { paymentMethodType: 'QR_PROMPT_PAY', qrPromptPay: {} } as const;

const QR_CHARGE = { amount: 10_000, currency: 'THB', referenceId: 'order-qr', paymentMethod: QR_PROMPT_PAY } as const;

/**
 * The body of `POST /api/v1/charges` for a PromptPay QR charge: 100.00 THB for `order-qr`, unless
 * `fields` say otherwise (a `paymentMethod` of their own for an expiry). Typed, so the service
 * client takes it as it is.
 */
export function qrChargeBody(): typeof QR_CHARGE;
export function qrChargeBody<F extends Record<string, unknown>>(fields: F): Omit<typeof QR_CHARGE, keyof F> & F;
export function qrChargeBody(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...QR_CHARGE, ...fields };
}

/** A PromptPay QR charge the sandbox made: what a payer's app reads from the QR, and the whole answer. */
export interface QrCharge {
  chargeId: string;
  /** The EMVCo payload the QR carries. */
  rawData: string;
  imageBase64Encoded: string;
  expiry: string;
  body: any;
}

/**
 * Creates a PromptPay QR charge of {@link qrChargeBody}`(fields)` on the sandbox behind `client`
 * (with its API key unless `init.auth` names another), and fails the test unless it is made (201).
 */
export async function createQrCharge(client: SandboxClient, fields: Record<string, unknown> = {}, init: { auth?: string; headers?: Record<string, string> } = {}): Promise<QrCharge> {
  const answer = await client.post('/api/v1/charges', qrChargeBody(fields), init);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  const { chargeId, encodedImage } = answer.body;
  return { chargeId, rawData: encodedImage.rawData, imageBase64Encoded: encodedImage.imageBase64Encoded, expiry: encodedImage.expiry, body: answer.body };
}
