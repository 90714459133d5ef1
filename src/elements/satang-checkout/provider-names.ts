/** The wallets' and bank apps' names, shown beside their marks and in messages. Only the code after the first render names them. */
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
