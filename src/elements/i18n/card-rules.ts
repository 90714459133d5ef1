/**
 * The card rules' messages (`CARD_MESSAGE_KEYS`): why a field is not valid yet. Needed only once the
 * shopper has typed, so the card form fetches them right after its first render. English and Thai:
 * each key in both.
 */
import type { Catalog } from './catalog.js';

export const cardRuleMessages = {
  en: {
    'number.required': 'Enter the card number.',
    'number.incomplete': 'The card number is incomplete.',
    'number.invalid': 'This card number is not valid. Check it for typos.',
    'number.unsupportedBrand': 'This type of card is not accepted. Try another card.',
    'expiry.required': 'Enter the expiry date.',
    'expiry.incomplete': 'Enter the expiry date as MM/YY.',
    'expiry.month': 'The month must be from 01 to 12.',
    'expiry.past': 'This card has expired. Use another card.',
    'expiry.buddhistEra': 'Use the Western year as printed on the card (e.g. 2568 → 25).',
    'expiry.tooFar': 'Check the year of the expiry date.',
    'cvc.required': 'Enter the security code.',
    'cvc.length': 'The security code has {n} digits.',
    'holderName.required': 'Enter the name as shown on the card.',
    'holderName.tooLong': 'The name is too long.',
  },
  th: {
    'number.required': 'กรุณากรอกหมายเลขบัตร',
    'number.incomplete': 'หมายเลขบัตรยังไม่ครบ',
    'number.invalid': 'หมายเลขบัตรไม่ถูกต้อง กรุณาตรวจสอบอีกครั้ง',
    'number.unsupportedBrand': 'ไม่รับบัตรประเภทนี้ กรุณาใช้บัตรอื่น',
    'expiry.required': 'กรุณากรอกวันหมดอายุ',
    'expiry.incomplete': 'กรอกวันหมดอายุในรูปแบบ ดด/ปป',
    'expiry.month': 'เดือนต้องอยู่ระหว่าง 01 ถึง 12',
    'expiry.past': 'บัตรนี้หมดอายุแล้ว กรุณาใช้บัตรอื่น',
    'expiry.buddhistEra': 'กรุณากรอกปี ค.ศ. ตามที่พิมพ์บนบัตร (เช่น พ.ศ. 2568 → 25)',
    'expiry.tooFar': 'กรุณาตรวจสอบปีของวันหมดอายุ',
    'cvc.required': 'กรุณากรอกรหัสความปลอดภัย',
    'cvc.length': 'รหัสความปลอดภัยมี {n} หลัก',
    'holderName.required': 'กรุณากรอกชื่อตามที่ปรากฏบนบัตร',
    'holderName.tooLong': 'ชื่อยาวเกินไป',
  },
} satisfies Catalog;
