/** The card form's labels and hints, shown with its first render. English and Thai: each key in both. */
import type { Catalog } from './catalog.js';

export const cardMessages = {
  en: {
    'card.label': 'Card details',
    'card.number': 'Card number',
    'card.expiry': 'Expiry date',
    'card.expiryHint': 'MM/YY',
    'card.cvc': 'Security code',
    'card.cvcHint': '{n} digits on the back',
    'card.cvcHintAmex': '4 digits on the front',
    'card.holderName': 'Name on card',
  },
  th: {
    'card.label': 'รายละเอียดบัตร',
    'card.number': 'หมายเลขบัตร',
    'card.expiry': 'วันหมดอายุ',
    'card.expiryHint': 'ดด/ปป (ปี ค.ศ.)',
    'card.cvc': 'รหัสความปลอดภัย',
    'card.cvcHint': 'ตัวเลข {n} หลักด้านหลังบัตร',
    'card.cvcHintAmex': 'ตัวเลข 4 หลักด้านหน้าบัตร',
    'card.holderName': 'ชื่อบนบัตร',
  },
} satisfies Catalog;
