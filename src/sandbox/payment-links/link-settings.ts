import { INSTALLMENT_MIN_AMOUNT_SATANG, INSTALLMENT_PERIODS, type InstallmentPeriod } from '../../core/constants.js';
import type { CreatePaymentLinkRequest } from '../../core/schemas/payment-link.js';
import type { PaymentMethodRequest, PaymentMethodType } from '../../core/schemas/payment-method.js';
import type { FieldIssue } from '../../core/validation.js';
import type { PaymentLinkPayment } from './payment-link-record.js';

/** Most order lines a link may carry. */
export const PAYMENT_LINK_MAX_ORDER_ITEMS = 100;

/** The switches of `linkSettings`, each a family of payment methods. */
export const LINK_SETTING_MEMBERS = ['card', 'cardInstallments', 'qrPromptPay', 'eWallets', 'mobileBanking', 'buyNowPayLater'] as const;
export type LinkSettingMember = (typeof LINK_SETTING_MEMBERS)[number];

/** The member of `linkSettings.cardInstallments` that switches each installment period. */
export const INSTALLMENT_SETTING_MEMBERS = {
  3: 'installments3m',
  4: 'installments4m',
  6: 'installments6m',
  10: 'installments10m',
} as const satisfies Record<InstallmentPeriod, string>;

/**
 * The payment methods each `linkSettings` member offers on the pay page, in the order the page
 * lists them. A link's page always charges a card as `CARD` (the payer types it in on the page).
 */
export const LINK_SETTING_METHODS = {
  card: ['CARD'],
  cardInstallments: ['CARD_INSTALLMENTS'],
  qrPromptPay: ['QR_PROMPT_PAY'],
  eWallets: ['TRUE_MONEY', 'SHOPEE_PAY', 'LINE_PAY', 'ALIPAY', 'WECHAT_PAY', 'MAKE'],
  mobileBanking: ['KPLUS', 'SCB_EASY', 'BANGKOK_BANK_APP', 'KRUNGSRI_APP'],
  buyNowPayLater: ['SPAY_LATER'],
} as const satisfies Record<LinkSettingMember, readonly PaymentMethodType[]>;

/** A method a payment link's page can charge. */
export type PaymentLinkMethod = (typeof LINK_SETTING_METHODS)[LinkSettingMember][number];

// Type aliases, not interfaces: only a type alias fits the schema's loose (index-signature) object type.
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- an interface has no index signature
type Toggle = { isEnabled: boolean };

/** `linkSettings` as a link reads back: every member and every installment period spelled out. */
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- an interface has no index signature
export type ResolvedLinkSettings = {
  card: Toggle;
  cardInstallments: Toggle & Record<(typeof INSTALLMENT_SETTING_MEMBERS)[InstallmentPeriod], Toggle>;
  qrPromptPay: Toggle;
  eWallets: Toggle;
  mobileBanking: Toggle;
  buyNowPayLater: Toggle;
};

/**
 * Why an order cannot be a link's: too many lines. The lines are not checked against
 * `netAmount`: the payer pays `netAmount`, as the service does, whatever the lines add up to.
 */
export function orderIssues(order: CreatePaymentLinkRequest['order']): FieldIssue[] {
  const items = order.orderItems ?? [];
  if (items.length > PAYMENT_LINK_MAX_ORDER_ITEMS) {
    return [{ field: 'order.orderItems', message: `must list at most ${PAYMENT_LINK_MAX_ORDER_ITEMS} items` }];
  }
  return [];
}

/**
 * `linkSettings` with every member spelled out. Without settings every method is enabled,
 * installments with the periods `netAmount` allows; with settings, a member left out is disabled.
 * What cannot be offered (nothing enabled, installments without a period) is pushed onto
 * `issues`. A period the amount does not reach is kept as enabled, as the service does: the pay
 * page offers only the periods the amount qualifies for ({@link installmentPeriods}).
 */
export function resolveLinkSettings(
  given: CreatePaymentLinkRequest['linkSettings'],
  netAmount: number,
  issues: FieldIssue[],
): ResolvedLinkSettings {
  const on = (toggle: Toggle | undefined, fallback: boolean): Toggle => ({ isEnabled: toggle?.isEnabled ?? fallback });
  const all = given === undefined;
  const periods = Object.fromEntries(
    INSTALLMENT_PERIODS.map((period) => {
      const member = INSTALLMENT_SETTING_MEMBERS[period];
      return [member, on(given?.cardInstallments?.[member], all && netAmount >= INSTALLMENT_MIN_AMOUNT_SATANG[period])];
    }),
  ) as Record<(typeof INSTALLMENT_SETTING_MEMBERS)[InstallmentPeriod], Toggle>;
  const anyPeriod = Object.values(periods).some((toggle) => toggle.isEnabled);
  const settings: ResolvedLinkSettings = {
    card: on(given?.card, all),
    cardInstallments: { isEnabled: given?.cardInstallments?.isEnabled ?? (all && anyPeriod), ...periods },
    qrPromptPay: on(given?.qrPromptPay, all),
    eWallets: on(given?.eWallets, all),
    mobileBanking: on(given?.mobileBanking, all),
    buyNowPayLater: on(given?.buyNowPayLater, all),
  };
  if (!LINK_SETTING_MEMBERS.some((member) => settings[member].isEnabled)) {
    issues.push({ field: 'linkSettings', message: `must enable at least one payment method (${LINK_SETTING_MEMBERS.join(', ')})` });
  }
  if (settings.cardInstallments.isEnabled && !anyPeriod) {
    const members = Object.values(INSTALLMENT_SETTING_MEMBERS).join(', ');
    issues.push({ field: 'linkSettings.cardInstallments', message: `is enabled but enables no period; enable one of ${members}` });
  }
  return settings;
}

/** The methods `settings` enable, in page order. */
export function enabledMethods(settings: ResolvedLinkSettings): PaymentLinkMethod[] {
  return LINK_SETTING_MEMBERS.filter((member) => settings[member].isEnabled).flatMap((member) => LINK_SETTING_METHODS[member]);
}

/** The installment periods `settings` offer for `netAmount` (enabled, and within its reach). */
export function installmentPeriods(settings: ResolvedLinkSettings, netAmount: number): InstallmentPeriod[] {
  const installments = settings.cardInstallments;
  if (!installments.isEnabled) return [];
  return INSTALLMENT_PERIODS.filter(
    (period) => installments[INSTALLMENT_SETTING_MEMBERS[period]].isEnabled && netAmount >= INSTALLMENT_MIN_AMOUNT_SATANG[period],
  );
}

/** The `paymentMethod` of the charge a payer's choice on the link's page makes. */
export function paymentMethodRequest(payment: PaymentLinkPayment): PaymentMethodRequest {
  switch (payment.method) {
    case 'CARD':
      if (!payment.card) throw new Error('a card payment needs the card');
      return { paymentMethodType: 'CARD', card: payment.card };
    case 'CARD_INSTALLMENTS':
      if (!payment.card || payment.installmentPeriod === undefined) throw new Error('an installment payment needs the card and a period');
      return { paymentMethodType: 'CARD_INSTALLMENTS', cardInstallments: { ...payment.card, installmentPeriod: payment.installmentPeriod } };
    case 'QR_PROMPT_PAY':
      return { paymentMethodType: 'QR_PROMPT_PAY', qrPromptPay: {} };
    case 'TRUE_MONEY':
      return { paymentMethodType: 'TRUE_MONEY', trueMoney: {} };
    case 'SHOPEE_PAY':
      return { paymentMethodType: 'SHOPEE_PAY', shopeePay: {} };
    case 'LINE_PAY':
      return { paymentMethodType: 'LINE_PAY', linePay: {} };
    case 'ALIPAY':
      return { paymentMethodType: 'ALIPAY', alipay: {} };
    case 'WECHAT_PAY':
      return { paymentMethodType: 'WECHAT_PAY', weChatPay: {} };
    case 'MAKE':
      return { paymentMethodType: 'MAKE', make: {} };
    case 'KPLUS':
      return { paymentMethodType: 'KPLUS', kPlus: {} };
    case 'SCB_EASY':
      return { paymentMethodType: 'SCB_EASY', scbEasy: {} };
    case 'BANGKOK_BANK_APP':
      return { paymentMethodType: 'BANGKOK_BANK_APP', bangkokBankApp: {} };
    case 'KRUNGSRI_APP':
      return { paymentMethodType: 'KRUNGSRI_APP', krungsriApp: {} };
    case 'SPAY_LATER':
      return { paymentMethodType: 'SPAY_LATER', sPayLater: {} };
  }
}
