/**
 * Every error code the checkout handler (`satang/server`) answers with, and the browser's own, in
 * the shopper's words: the server's English message is never shown. Registered with the code a
 * payment runs (`pay-path.ts`), fetched after the first render. English and Thai: each key in both.
 */
import type { Catalog } from './catalog.js';

export const errorMessages = {
  en: {
    'error.redirect': 'The payment page address is not safe, so we did not open it. Please choose another method.',
    'error.setup': 'This checkout could not start the payment. Reload the page and try again; if it happens again, contact the shop.',
    'error.cardData': 'The card details could not be sent safely. Reload the page and enter them again.',
    'error.methodNotAllowed': 'This payment method is not available for this order. Please choose another method.',
    'error.orderNotFound': 'This order cannot be paid: it no longer exists or has been paid. Go back to the shop to check it.',
    'error.detailsRejected': 'The payment service did not accept these details. Check them, or choose another method.',
    'error.rateLimited': 'Too many attempts. Wait a moment, then try again.',
    'error.unavailable': 'The payment service is not answering. Your details are kept: try again.',
    'error.paymentsDown': 'Payments are not available right now. Please try again later.',
    'error.statusToken': 'This payment cannot be checked from this page. Reload the page.',
    'announce.qr': 'The QR code to pay is shown.',
    'method.change': 'Choose another method',
    'left.asking': 'Checking your payment first…',
    'left.payment': 'Your payment ({method}) has not gone through yet. If it still does, you will not pay twice: a second payment is refunded. Choose a method to pay.',
    'left.paymentAny': 'Your last payment has not gone through yet. If it still does, you will not pay twice: a second payment is refunded. Choose a method to pay.',
    'left.qr': 'The QR code you left can still be paid until {time}. If you pay it and another way too, one of the payments is refunded. Choose a method to pay.',
    'left.stillOpen': 'This payment is still open. Go back to finish it, or choose another method.',
    'left.goBack': 'Go back to finish paying',
    'error.server': 'Something went wrong on the shop’s side. Your details are kept: try again.',
    'error.rejected': 'The payment could not be started. Check your details, or choose another method.',
    'redirecting': 'Taking you to complete the payment…',
    'status.checking': 'Checking your payment…',
  },
  th: {
    'error.redirect': 'ที่อยู่หน้าชำระเงินไม่ปลอดภัย จึงไม่ได้เปิด กรุณาเลือกวิธีชำระเงินอื่น',
    'error.setup': 'ระบบเริ่มการชำระเงินไม่ได้ กรุณาโหลดหน้านี้ใหม่แล้วลองอีกครั้ง หากยังเกิดขึ้นอีก กรุณาติดต่อร้านค้า',
    'error.cardData': 'ส่งข้อมูลบัตรอย่างปลอดภัยไม่ได้ กรุณาโหลดหน้านี้ใหม่แล้วกรอกข้อมูลอีกครั้ง',
    'error.methodNotAllowed': 'วิธีชำระเงินนี้ใช้กับคำสั่งซื้อนี้ไม่ได้ กรุณาเลือกวิธีอื่น',
    'error.orderNotFound': 'ชำระคำสั่งซื้อนี้ไม่ได้ เนื่องจากไม่มีอยู่แล้วหรือชำระไปแล้ว กรุณากลับไปตรวจสอบที่ร้านค้า',
    'error.detailsRejected': 'ระบบชำระเงินไม่รับข้อมูลนี้ กรุณาตรวจสอบ หรือเลือกวิธีชำระเงินอื่น',
    'error.rateLimited': 'ลองหลายครั้งเกินไป กรุณารอสักครู่แล้วลองอีกครั้ง',
    'error.unavailable': 'ระบบชำระเงินไม่ตอบสนอง ข้อมูลของคุณยังอยู่ กรุณาลองอีกครั้ง',
    'error.paymentsDown': 'ขณะนี้ยังชำระเงินไม่ได้ กรุณาลองใหม่ภายหลัง',
    'error.statusToken': 'ตรวจสอบการชำระเงินนี้จากหน้านี้ไม่ได้ กรุณาโหลดหน้านี้ใหม่',
    'announce.qr': 'แสดงคิวอาร์โค้ดสำหรับชำระเงินแล้ว',
    'method.change': 'เลือกวิธีชำระเงินอื่น',
    'left.asking': 'กำลังตรวจสอบการชำระเงินก่อน…',
    'left.payment': 'การชำระเงิน ({method}) ยังไม่สำเร็จ หากสำเร็จภายหลัง คุณจะไม่ถูกเก็บเงินซ้ำ รายการที่ชำระซ้ำจะได้รับเงินคืน กรุณาเลือกวิธีชำระเงิน',
    'left.paymentAny': 'การชำระเงินครั้งก่อนยังไม่สำเร็จ หากสำเร็จภายหลัง คุณจะไม่ถูกเก็บเงินซ้ำ รายการที่ชำระซ้ำจะได้รับเงินคืน กรุณาเลือกวิธีชำระเงิน',
    'left.qr': 'คิวอาร์โค้ดที่คุณออกมายังชำระได้ถึงเวลา {time} น. หากชำระทั้งคิวอาร์และวิธีอื่น จะได้รับเงินคืนหนึ่งรายการ กรุณาเลือกวิธีชำระเงิน',
    'left.stillOpen': 'การชำระเงินนี้ยังรอดำเนินการอยู่ กลับไปชำระให้เสร็จ หรือเลือกวิธีชำระเงินอื่น',
    'left.goBack': 'กลับไปชำระเงินให้เสร็จ',
    'error.server': 'ระบบของร้านค้าขัดข้อง ข้อมูลของคุณยังอยู่ กรุณาลองอีกครั้ง',
    'error.rejected': 'เริ่มการชำระเงินไม่ได้ กรุณาตรวจสอบข้อมูล หรือเลือกวิธีชำระเงินอื่น',
    'redirecting': 'กำลังพาคุณไปยืนยันการชำระเงิน…',
    'status.checking': 'กำลังตรวจสอบการชำระเงิน…',
  },
} satisfies Catalog;
