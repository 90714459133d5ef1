/** The wallets' and bank apps' names, shown beside their marks and in messages. Only the code after the first render names them. */
import type { LocalizeController } from '../controllers/localize-controller.js';

/** Brand names are the same in Thai and English. */
export const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  TRUE_MONEY: 'TrueMoney',
  LINE_PAY: 'Rabbit LINE Pay',
  SHOPEE_PAY: 'ShopeePay',
  ALIPAY: 'Alipay',
  WECHAT_PAY: 'WeChat Pay',
  MAKE: 'MAKE by KBank',
  KPLUS: 'K PLUS',
  SCB_EASY: 'SCB EASY',
  BANGKOK_BANK_APP: 'Bangkok Bank',
  KRUNGSRI_APP: 'Krungsri',
};

/** A payment's method in the shopper's words (`CARD`, `QR_PROMPT_PAY`, `TRUE_MONEY`…); undefined when this version cannot name it. */
export function methodWords(l: LocalizeController, type: string | undefined): string | undefined {
  if (!type) return undefined;
  if (type === 'QR_PROMPT_PAY') return l.msg('method.QR_PROMPT_PAY');
  if (type.startsWith('CARD')) return l.msg(type.includes('INSTALLMENTS') ? 'method.CARD_INSTALLMENTS' : 'method.CARD');
  return Object.hasOwn(PROVIDER_NAMES, type) ? PROVIDER_NAMES[type] : undefined;
}
