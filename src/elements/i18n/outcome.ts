/**
 * The outcome of a payment: success, failure with its reason, and a charge that went through
 * without paying the order (refunded, or taken for the wrong amount). The QR element shows them at
 * once; the checkout registers them with the code a payment runs (`pay-path.ts`), fetched after its
 * first render. English and Thai: each key in both.
 */
import type { Catalog } from './catalog.js';

export const outcomeMessages = {
  en: {
    'success.title': 'Payment successful',
    'success.body': 'Thank you. Your payment of {amount} is complete.',
    'success.authorizedTitle': 'Payment authorized',
    'success.authorizedBody': 'Thank you. {amount} is reserved on your card and will be charged when your order is confirmed.',
    'failure.title': 'Payment not completed',
    'failure.insufficientFunds': 'The card was declined for insufficient funds. Try another card, or pay with PromptPay.',
    'failure.authentication': 'The payment was not approved. Try again, or choose another method.',
    'failure.processing': 'The payment could not be processed. Try another card, or pay with PromptPay.',
    'failure.generic': 'The payment did not go through. Try again, or choose another method.',
    'failure.securityCodeAgain': 'To pay with this card again, enter its security code.',
    'failure.otp': 'Your bank did not confirm the payment: the one-time code (OTP) was wrong, or was not entered in time. Nothing was charged.',
    'failure.cardAgain': 'Enter your card details to try again, or choose another method.',
    'outcome.duplicateTitle': 'Your order is paid',
    'outcome.duplicateRefunded': 'This order had already been paid, so this extra payment of {amount} has been refunded.',
    'outcome.repricedTitle': 'Your order has changed',
    'outcome.repricedBody': 'The total of your order changed while you were paying, so this payment has been refunded. Review the new total and pay again.',
    'outcome.repricedAction': 'Review the new total',
    'outcome.unpaidBody': 'This payment did not complete your order. The shop will contact you.',
    'failure.retry': 'Try again',
    'failure.promptpay': 'The PromptPay payment did not go through. Get a new QR code, or choose another method.',
    'failure.wallet': '{method} did not approve the payment. Try again, or choose another method.',
    'failure.walletFunds': 'There is not enough balance in {method}. Top it up, or choose another method.',
    'failure.bank': 'The {method} app did not approve the payment. Try again, or choose another method.',
    'failure.bankFunds': 'There is not enough money in the account. Try another account, or choose another method.',
  },
  th: {
    'success.title': 'ชำระเงินสำเร็จ',
    'success.body': 'ขอบคุณ การชำระเงิน {amount} เสร็จสมบูรณ์',
    'success.authorizedTitle': 'อนุมัติการชำระเงินแล้ว',
    'success.authorizedBody': 'ขอบคุณ ยอด {amount} ถูกกันวงเงินไว้ในบัตรของคุณ และจะเรียกเก็บเมื่อร้านค้ายืนยันคำสั่งซื้อ',
    'failure.title': 'การชำระเงินไม่สำเร็จ',
    'failure.insufficientFunds': 'บัตรถูกปฏิเสธเนื่องจากยอดเงินไม่เพียงพอ กรุณาใช้บัตรอื่น หรือชำระด้วยพร้อมเพย์',
    'failure.authentication': 'การชำระเงินไม่ได้รับการยืนยัน กรุณาลองใหม่ หรือเลือกวิธีอื่น',
    'failure.processing': 'ไม่สามารถดำเนินการชำระเงินได้ กรุณาใช้บัตรอื่น หรือชำระด้วยพร้อมเพย์',
    'failure.generic': 'การชำระเงินไม่สำเร็จ กรุณาลองใหม่ หรือเลือกวิธีอื่น',
    'failure.securityCodeAgain': 'หากจะชำระด้วยบัตรนี้อีกครั้ง กรุณากรอกรหัสความปลอดภัยใหม่',
    'failure.otp': 'ธนาคารไม่ยืนยันการชำระเงิน เนื่องจากรหัส OTP ไม่ถูกต้องหรือไม่ได้กรอกภายในเวลาที่กำหนด ยังไม่มีการตัดเงิน',
    'failure.cardAgain': 'กรุณากรอกข้อมูลบัตรอีกครั้งเพื่อลองใหม่ หรือเลือกวิธีชำระเงินอื่น',
    'outcome.duplicateTitle': 'คำสั่งซื้อของคุณชำระเงินแล้ว',
    'outcome.duplicateRefunded': 'คำสั่งซื้อนี้ชำระเงินไปแล้ว ยอด {amount} ที่ชำระซ้ำครั้งนี้จึงได้รับการคืนเงินแล้ว',
    'outcome.repricedTitle': 'คำสั่งซื้อของคุณมีการเปลี่ยนแปลง',
    'outcome.repricedBody': 'ยอดรวมของคำสั่งซื้อเปลี่ยนไประหว่างที่คุณชำระเงิน การชำระเงินครั้งนี้จึงได้รับการคืนเงินแล้ว กรุณาตรวจสอบยอดใหม่และชำระอีกครั้ง',
    'outcome.repricedAction': 'ตรวจสอบยอดใหม่',
    'outcome.unpaidBody': 'การชำระเงินครั้งนี้ไม่ได้ทำให้คำสั่งซื้อของคุณเสร็จสมบูรณ์ ร้านค้าจะติดต่อคุณ',
    'failure.retry': 'ลองอีกครั้ง',
    'failure.promptpay': 'การชำระด้วยพร้อมเพย์ไม่สำเร็จ กรุณาขอคิวอาร์โค้ดใหม่ หรือเลือกวิธีชำระเงินอื่น',
    'failure.wallet': '{method} ไม่อนุมัติการชำระเงิน กรุณาลองใหม่ หรือเลือกวิธีชำระเงินอื่น',
    'failure.walletFunds': 'ยอดเงินใน {method} ไม่เพียงพอ กรุณาเติมเงิน หรือเลือกวิธีชำระเงินอื่น',
    'failure.bank': 'แอป {method} ไม่อนุมัติการชำระเงิน กรุณาลองใหม่ หรือเลือกวิธีชำระเงินอื่น',
    'failure.bankFunds': 'ยอดเงินในบัญชีไม่เพียงพอ กรุณาใช้บัญชีอื่น หรือเลือกวิธีชำระเงินอื่น',
  },
} satisfies Catalog;
