/** Strings both the checkout and the QR element show before any payment: PromptPay instructions and configuration errors. English and Thai: each key in both. */
import type { Catalog } from './catalog.js';

export const paymentMessages = {
  en: {
    'qr.instructions': 'Open your banking app, scan this code and confirm {amount}.',
    'error.config': 'This checkout is not set up correctly: {detail}',
  },
  th: {
    'qr.instructions': 'เปิดแอปธนาคาร สแกนคิวอาร์โค้ดนี้ และยืนยันยอด {amount}',
    'error.config': 'การตั้งค่าการชำระเงินไม่ถูกต้อง: {detail}',
  },
} satisfies Catalog;
