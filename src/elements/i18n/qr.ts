/** The QR payment element's strings. English and Thai: each key in both. */
import type { Catalog } from './catalog.js';

export const qrMessages = {
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
    'qr.slipUpload': 'Paid by bank transfer? Upload the slip',
    'qr.slipReading': 'Reading the slip…',
    'qr.slipNoCode': 'No QR code found in this picture. Try a sharper photo of the slip.',
    'qr.slipVerifying': 'Checking the slip…',
    'qr.slipMismatch': 'This slip does not match this payment.',
    'qr.slipUnavailable': 'We cannot check the slip right now. Please try again.',
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
    'qr.slipUpload': 'โอนเงินผ่านธนาคารแล้ว? อัปโหลดสลิป',
    'qr.slipReading': 'กำลังอ่านสลิป…',
    'qr.slipNoCode': 'ไม่พบคิวอาร์โค้ดในรูปนี้ ลองถ่ายรูปสลิปให้คมชัดขึ้น',
    'qr.slipVerifying': 'กำลังตรวจสอบสลิป…',
    'qr.slipMismatch': 'สลิปนี้ไม่ตรงกับรายการชำระเงินนี้',
    'qr.slipUnavailable': 'ขณะนี้ยังตรวจสอบสลิปไม่ได้ กรุณาลองใหม่อีกครั้ง',
  },
} satisfies Catalog;
