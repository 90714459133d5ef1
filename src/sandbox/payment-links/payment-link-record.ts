import type { InstallmentPeriod } from '../../core/constants.js';
import type { CustomerRequest } from '../../core/schemas/common.js';
import type { PaymentLink } from '../../core/schemas/payment-link.js';
import type { DeviceType } from '../../core/schemas/payment-method.js';
import { defineStoreSlice } from '../store/sandbox-store.js';
import type { PaymentLinkMethod, ResolvedLinkSettings } from './link-settings.js';

/** One payment started on a link's page, kept so the page can show it again. */
export interface PaymentLinkAttempt {
  /** The token of the form that started it; the page's return address carries it. */
  token: string;
  chargeId: string;
  /** The hosted step (OTP, force, wallet) the payer was sent to, while the charge is PENDING. */
  stepUrl: string | undefined;
  /** The QR shown for a PromptPay attempt. */
  qr: { rawData: string; imageBase64Encoded: string; expiry: string } | undefined;
}

/** A payment link and what the sandbox keeps about it beyond its public shape; lives in the store. */
export interface PaymentLinkRecord {
  /** Stored status is ACTIVE, PAID or DISABLED; EXPIRED is read from the clock (see `status`). */
  link: PaymentLink;
  linkSettings: ResolvedLinkSettings;
  seq: number;
  expiresAt: Date | undefined;
  /** The charge that paid the link. */
  paidByChargeId: string | undefined;
  /** Attempts by form token. A pending entry holds the promise of a charge still being created. */
  attempts: Map<string, Promise<PaymentLinkAttempt>>;
}

/** The payment links of every merchant, by id. */
export const PAYMENT_LINKS = defineStoreSlice('paymentLinks', () => new Map<string, PaymentLinkRecord>());

/** What the payer chose on a link's page, checked by the page; the charge is made from it. */
export interface PaymentLinkPayment {
  method: PaymentLinkMethod;
  /** For CARD and CARD_INSTALLMENTS. */
  card?: { pan: string; expiryMonth: number; expiryYear: number; cardHolderName: string; securityCode: string };
  /** For CARD_INSTALLMENTS. */
  installmentPeriod?: InstallmentPeriod;
  /** For the mobile banking apps that only run on a phone. */
  deviceType?: DeviceType;
  /** The phone number and delivery address the page collected. */
  customer?: CustomerRequest;
}
