/**
 * The checkout's own strings, shown with its first render: the method picker, the pay button,
 * progress, and the errors that can come before the payment code is fetched. The other panels'
 * strings are in `panels.ts`, the payment's in `outcome.ts`, `conflict.ts` and `errors.ts`.
 * English and Thai: each key in both.
 */
import type { Catalog } from './catalog.js';

export const checkoutMessages = {
  en: {
    'method.label': 'Payment method',
    'method.CARD': 'Card',
    'method.CARD_INSTALLMENTS': 'Installments',
    'method.QR_PROMPT_PAY': 'PromptPay QR',
    'method.E_WALLET': 'E-wallet',
    'method.MOBILE_BANKING': 'Mobile banking',
    'bank.onComputer': 'Paying with a bank app? On a computer, choose PromptPay QR and scan it with the app.',
    'pay': 'Pay {amount}',
    'pay.processing': 'Processing…',
    'error.network': 'We could not reach the payment service. Your details are kept: try again.',
    'error.retry': 'Try again',
  },
  th: {
    'method.label': 'วิธีชำระเงิน',
    'method.CARD': 'บัตรเครดิต/เดบิต',
    'method.CARD_INSTALLMENTS': 'ผ่อนชำระ',
    'method.QR_PROMPT_PAY': 'พร้อมเพย์ QR',
    'method.E_WALLET': 'อีวอลเล็ต',
    'method.MOBILE_BANKING': 'โมบายแบงกิ้ง',
    'bank.onComputer': 'ต้องการชำระผ่านแอปธนาคาร? บนคอมพิวเตอร์ ให้เลือกพร้อมเพย์ QR แล้วสแกนด้วยแอป',
    'pay': 'ชำระเงิน {amount}',
    'pay.processing': 'กำลังดำเนินการ…',
    'error.network': 'เชื่อมต่อระบบชำระเงินไม่ได้ ข้อมูลของคุณยังอยู่ กรุณาลองอีกครั้ง',
    'error.retry': 'ลองอีกครั้ง',
  },
} satisfies Catalog;
