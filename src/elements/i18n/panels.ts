/**
 * The strings of the panels of `<satang-checkout>` other than the card's: installment plans (and
 * why an order has none, beside the picker's choice), PromptPay, wallets and bank apps. Registered
 * by those panels (`panels.ts`), fetched after the first render. English and Thai: each key in both.
 */
import type { Catalog } from './catalog.js';

export const panelMessages = {
  en: {
    'installments.label': 'Installment plan',
    'installments.from': 'From {minimum}',
    'installments.plan': '{monthly} × {months} months',
    'installments.first': 'First month {first}',
    'installments.total': 'Total {amount}',
    'installments.interestFree': '0% interest',
    'installments.interest': 'Interest {rate}% a month, charged by the bank that issued your card',
    'installments.cards': 'Eligible cards: {cards}',
    'installments.unavailable': 'Installments start at {minimum}, and this order is {amount}.',
    'promptpay.howTo': 'Pay with any Thai banking app: press pay, then scan the QR code with the app and confirm {amount}.',
    'promptpay.howToPhone': 'Press pay to get the QR code. On this phone, save its image, then open your banking app and scan it from your photos.',
    'wallet.label': 'Wallet',
    'wallet.redirect': 'You will go to {method} to approve the payment, then come back here.',
    'bank.label': 'Bank app',
    'bank.redirect': 'The {method} app opens to approve the payment, then you come back here.',
    'installments.choose': 'Choose an installment plan.',
    'bank.needsPhone': 'Bank apps open on a phone. Open this page on your phone, or pay with PromptPay QR.',
  },
  th: {
    'installments.label': 'แผนผ่อนชำระ',
    'installments.from': 'ยอดตั้งแต่ {minimum}',
    'installments.plan': '{monthly} × {months} เดือน',
    'installments.first': 'เดือนแรก {first}',
    'installments.total': 'รวม {amount}',
    'installments.interestFree': 'ดอกเบี้ย 0%',
    'installments.interest': 'ดอกเบี้ย {rate}% ต่อเดือน เรียกเก็บโดยธนาคารผู้ออกบัตร',
    'installments.cards': 'บัตรที่ร่วมรายการ: {cards}',
    'installments.unavailable': 'ผ่อนชำระได้เมื่อยอดตั้งแต่ {minimum} ขึ้นไป คำสั่งซื้อนี้มียอด {amount}',
    'promptpay.howTo': 'ชำระได้ด้วยแอปธนาคารไทยทุกแอป: กดชำระเงิน แล้วสแกนคิวอาร์โค้ดด้วยแอป และยืนยันยอด {amount}',
    'promptpay.howToPhone': 'กดชำระเงินเพื่อรับคิวอาร์โค้ด หากใช้โทรศัพท์เครื่องนี้ ให้บันทึกรูปคิวอาร์โค้ด แล้วเปิดแอปธนาคารและสแกนจากรูปในเครื่อง',
    'wallet.label': 'วอลเล็ต',
    'wallet.redirect': 'ระบบจะพาคุณไปยัง {method} เพื่อยืนยันการชำระเงิน แล้วกลับมาที่หน้านี้',
    'bank.label': 'แอปธนาคาร',
    'bank.redirect': 'แอป {method} จะเปิดขึ้นเพื่อยืนยันการชำระเงิน แล้วกลับมาที่หน้านี้',
    'installments.choose': 'กรุณาเลือกแผนผ่อนชำระ',
    'bank.needsPhone': 'แอปธนาคารเปิดได้บนโทรศัพท์เท่านั้น กรุณาเปิดหน้านี้บนโทรศัพท์ หรือชำระด้วยพร้อมเพย์ QR',
  },
} satisfies Catalog;
