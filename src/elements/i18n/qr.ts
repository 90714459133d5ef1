/** The QR payment element's strings. English and Thai: each key in both. */
import { defineMessages } from './localize.js';

export const qrMessages = defineMessages({
  en: {
    'qr.title': 'Scan to pay with PromptPay',
    'qr.expiresIn': 'Expires in {time}',
    'qr.expired': 'This QR code has expired.',
    'qr.new': 'Get a new QR code',
    'qr.save': 'Save QR image',
    'qr.waiting': 'Waiting for your payment…',
    'qr.alt': 'PromptPay QR code for {amount}',
    'qr.statusRetrying': 'We cannot check your payment right now and keep trying. If you have paid, keep this page open.',
    'qr.statusUnavailable': 'We cannot confirm your payment on this page. If you have paid, the shop will confirm your order.',
  },
  th: {
    'qr.title': 'สแกนเพื่อชำระด้วยพร้อมเพย์',
    'qr.expiresIn': 'หมดอายุใน {time}',
    'qr.expired': 'คิวอาร์โค้ดนี้หมดอายุแล้ว',
    'qr.new': 'ขอคิวอาร์โค้ดใหม่',
    'qr.save': 'บันทึกรูปคิวอาร์โค้ด',
    'qr.waiting': 'กำลังรอการชำระเงิน…',
    'qr.alt': 'คิวอาร์โค้ดพร้อมเพย์ ยอด {amount}',
    'qr.statusRetrying': 'ขณะนี้ยังตรวจสอบการชำระเงินไม่ได้ ระบบกำลังลองใหม่ หากคุณชำระแล้ว กรุณาเปิดหน้านี้ไว้',
    'qr.statusUnavailable': 'ไม่สามารถยืนยันการชำระเงินบนหน้านี้ได้ หากคุณชำระแล้ว ร้านค้าจะยืนยันคำสั่งซื้อให้คุณ',
  },
});
