import type { CheckoutPaymentMethodType } from '../../core/schemas/checkout.js';

/** The choices of the method picker; wallets and banks each group several services. */
export type MethodGroup = 'CARD' | 'CARD_INSTALLMENTS' | 'QR_PROMPT_PAY' | 'E_WALLET' | 'MOBILE_BANKING';

export const WALLETS = ['TRUE_MONEY', 'LINE_PAY', 'SHOPEE_PAY', 'ALIPAY', 'WECHAT_PAY', 'MAKE'] as const;
export const BANKS = ['KPLUS', 'SCB_EASY', 'BANGKOK_BANK_APP', 'KRUNGSRI_APP'] as const;

const ALIASES: Readonly<Record<string, readonly CheckoutPaymentMethodType[]>> = {
  card: ['CARD_TOKEN'],
  installments: ['CARD_TOKEN_INSTALLMENTS'],
  promptpay: ['QR_PROMPT_PAY'],
  ewallet: WALLETS,
  'e-wallet': WALLETS,
  'mobile-banking': BANKS,
  truemoney: ['TRUE_MONEY'],
  linepay: ['LINE_PAY'],
  shopeepay: ['SHOPEE_PAY'],
  alipay: ['ALIPAY'],
  wechatpay: ['WECHAT_PAY'],
  make: ['MAKE'],
  kplus: ['KPLUS'],
  scb: ['SCB_EASY'],
  bbl: ['BANGKOK_BANK_APP'],
  krungsri: ['KRUNGSRI_APP'],
};

export const DEFAULT_METHODS = 'card,installments,promptpay,ewallet,mobile-banking';

/** The group a payment method type is chosen under. */
export function groupOf(type: CheckoutPaymentMethodType): MethodGroup {
  if (type === 'CARD_TOKEN') return 'CARD';
  if (type === 'CARD_TOKEN_INSTALLMENTS') return 'CARD_INSTALLMENTS';
  if (type === 'QR_PROMPT_PAY') return 'QR_PROMPT_PAY';
  return (BANKS as readonly string[]).includes(type) ? 'MOBILE_BANKING' : 'E_WALLET';
}

/** Whether a choice of the picker pays by card, with the card form. */
export function isCardGroup(group: MethodGroup | undefined): group is 'CARD' | 'CARD_INSTALLMENTS' {
  return group === 'CARD' || group === 'CARD_INSTALLMENTS';
}

/** Whether a type is paid by card: the card form and the card keys are needed for it. */
export function isCardType(type: CheckoutPaymentMethodType): boolean {
  return isCardGroup(groupOf(type));
}

/** What a `methods` attribute says: the types to offer, in order, or the first name it does not know. */
export type ParsedMethods = { readonly types: readonly CheckoutPaymentMethodType[] } | { readonly unknown: string };

/** The last text read and what it said: a checkout reads its `methods` several times in one render. */
let last: { text: string; parsed: ParsedMethods } | undefined;

/**
 * Reads the `methods` attribute: names separated by commas or spaces (`card, promptpay,
 * ewallet`), in the order to show them. Answers the types, or the first name it does not know.
 */
export function parseMethods(text: string): ParsedMethods {
  if (last?.text !== text) last = { text, parsed: readMethods(text) };
  return last.parsed;
}

function readMethods(text: string): ParsedMethods {
  const types: CheckoutPaymentMethodType[] = [];
  for (const name of text.split(/[\s,]+/).filter(Boolean)) {
    const found = ALIASES[name.toLowerCase()];
    if (!found) return { unknown: name };
    for (const type of found) if (!types.includes(type)) types.push(type);
  }
  return types.length > 0 ? { types: Object.freeze(types) } : { unknown: text };
}

/** The choices that group several services, each chosen in a panel of its own. */
export type ProviderGroup = Extract<MethodGroup, 'E_WALLET' | 'MOBILE_BANKING'>;

