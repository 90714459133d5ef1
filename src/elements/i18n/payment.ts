/** Strings both the checkout and the QR element show before any payment: configuration errors. English and Thai: each key in both. */
import type { Catalog } from './catalog.js';

export const paymentMessages = {
  en: {
    'error.config': 'This checkout is not set up correctly: {detail}',
  },
  th: {
    'error.config': 'การตั้งค่าการชำระเงินไม่ถูกต้อง: {detail}',
  },
} satisfies Catalog;
