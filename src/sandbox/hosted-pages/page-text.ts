/**
 * Every word of the hosted pages a shopper meets (the 3-D Secure OTP page, the force page, the
 * wallet and banking-app authorize page, the result page, the PromptPay payer pages and their
 * error pages), one catalogue per language. A page takes the catalogue of the shopper's language
 * ({@link pageText}) and never spells text of its own, so a new string is added here for both
 * languages at once; the `PageText` type makes a missing Thai string a compile error.
 *
 * Amounts are not words: every page formats them with core's `formatAmount`, the same "฿1,234.56"
 * in both languages. Dates go through `formatBangkokTime` with the page's language.
 */
import type { ReadablePaymentMethodType } from '../../core/schemas/payment-method.js';
import { paymentMethodLabel } from '../http/page-layout.js';

/** The languages the hosted pages speak. */
export type PageLanguage = 'th' | 'en';

/** Status words of a charge as the pages show it. */
type StatusWords = Readonly<Record<'PENDING' | 'SUCCEEDED' | 'FAILED', string>>;

export interface PageText {
  /** The language's own name, for the language switch. */
  languageName: string;
  /** The switch's accessible name. */
  languageSwitch: string;
  banner: string;
  siteName: string;
  /** Who shows the result and error pages. */
  sandboxIssuer: string;
  /** Names the payee when the page knows no merchant name. */
  theMerchant: string;

  summary: {
    label: string;
    amount: string;
    payee: string;
    reference: string;
    noReference: string;
    method: string;
    charge: string;
    authorization: string;
    status: string;
    failureCode: string;
    qrExpires: string;
    statuses: StatusWords;
  };

  otp: {
    issuer: string;
    title: string;
    lede: (merchant: string) => string;
    label: string;
    hint: (code: string) => string;
    submit: string;
    empty: string;
  };

  force: {
    issuer: string;
    title: string;
    heading: string;
    lede: (merchant: string) => string;
    succeed: string;
    fail: string;
  };

  authorize: {
    title: (method: string) => string;
    heading: (amount: string, merchant: string, method: string) => string;
    lede: (merchant: string) => string;
    approve: string;
    decline: string;
  };

  /** The choice a step's form must send, when it sent another. */
  chooseOutcome: { title: string; message: (yes: string, no: string) => string };

  result: {
    approved: string;
    notApproved: string;
    paid: string;
    declined: string;
    alreadyComplete: string;
    succeeded: (merchant: string) => string;
    failed: (failureCode: string) => string;
    pending: string;
    returnTo: (merchant: string) => string;
    close: string;
  };

  notFound: {
    pageTitle: string;
    title: string;
    page: string;
    step: string;
    payerLink: string;
  };

  badLanguage: { title: string; message: string };

  payer: {
    issuer: string;
    title: string;
    heading: string;
    lede: string;
    payloadLabel: string;
    payloadHint: string;
    pay: string;
    decline: string;
    slip: string;
    linksHeading: string;
    linksText: string;
    chooseOutcome: string;
    pastePayload: string;
    noMatch: string;
    alreadyUsed: (status: keyof StatusWords) => string;
    expired: string;
  };

  /** The page of one QR charge, opened by its payer link. */
  payerLink: {
    title: string;
    heading: (amount: string, merchant: string) => string;
    lede: string;
    expiredHeading: string;
  };

  /** Method names that differ from the brand names {@link paymentMethodLabel} gives. */
  methods: Partial<Record<ReadablePaymentMethodType, string>>;
}

const EN: PageText = {
  languageName: 'English',
  languageSwitch: 'Language',
  banner: 'Sandbox — no real money moves',
  siteName: 'Satang sandbox',
  sandboxIssuer: 'Satang sandbox',
  theMerchant: 'the merchant',

  summary: {
    label: 'Payment details',
    amount: 'Amount',
    payee: 'Paying',
    reference: 'Order reference',
    noReference: 'None given',
    method: 'Method',
    charge: 'Charge',
    authorization: 'Authorization',
    status: 'Status',
    failureCode: 'Failure code',
    qrExpires: 'QR code expires',
    statuses: { PENDING: 'Pending', SUCCEEDED: 'Succeeded', FAILED: 'Failed' },
  },

  otp: {
    issuer: 'Satang Test Bank · 3-D Secure',
    title: 'Verify your payment',
    lede: (merchant) => `Enter the one-time password (OTP) to pay ${merchant} by card.`,
    label: 'One-time password',
    hint: (code) => `Sandbox: ${code} succeeds, any other code fails.`,
    submit: 'Verify and pay',
    empty: 'Enter the one-time code.',
  },

  force: {
    issuer: 'Satang sandbox · Payment simulator',
    title: 'Choose the payment outcome',
    heading: 'Choose how this payment ends',
    lede: (merchant) => `The payment to ${merchant} completes with the outcome you pick, as if the payer had finished paying.`,
    succeed: 'Make payment succeed',
    fail: 'Make payment fail',
  },

  authorize: {
    title: (method) => `Pay with ${method}`,
    heading: (amount, merchant, method) => `Pay ${amount} to ${merchant} with ${method}?`,
    lede: (merchant) => `Approving pays ${merchant} now; declining cancels this payment.`,
    approve: 'Approve',
    decline: 'Decline',
  },

  chooseOutcome: { title: 'Choose an outcome', message: (yes, no) => `Send ${yes} or ${no}.` },

  result: {
    approved: 'Payment approved',
    notApproved: 'Payment not approved',
    paid: 'Payment sent',
    declined: 'Payment declined',
    alreadyComplete: 'This payment is already complete',
    succeeded: (merchant) => `The payment to ${merchant} succeeded. You can close this page.`,
    failed: (failureCode) => `The payment failed (${failureCode}). You can close this page.`,
    pending: 'The payment is still waiting.',
    returnTo: (merchant) => `Return to ${merchant}`,
    close: 'You can close this page.',
  },

  notFound: {
    pageTitle: 'Page not found',
    title: 'Payment not found',
    page: 'There is no sandbox page at this address.',
    step: 'No payment is waiting for this step. Check the link, or start the payment again.',
    payerLink: 'No payment is waiting at this link. Check that you copied all of it, or ask the shop for a new QR code.',
  },

  badLanguage: { title: 'Language not understood', message: 'The lang parameter must be a language tag such as th or en.' },

  payer: {
    issuer: 'Sandbox Bank · PromptPay',
    title: 'PromptPay payer',
    heading: 'Pay a PromptPay QR',
    lede: "This page plays the payer's banking app: it pays or declines a pending QR charge as if its code had been scanned.",
    payloadLabel: 'QR payload (rawData)',
    payloadHint: 'Paste the rawData of a QR PromptPay charge: the text its QR code holds.',
    pay: 'Pay',
    decline: 'Decline',
    slip: 'Pay by bank transfer and get a slip',
    linksHeading: 'Paying one charge',
    linksText:
      'Every QR charge also has a payer link of its own, which pays or declines that charge only. The merchant gets it from GET /sandbox/v1/charges/{chargeId}/payer-link with its API key, and can complete its charges in the sandbox dashboard.',
    chooseOutcome: 'Choose Pay or Decline.',
    pastePayload: 'Paste the QR code’s text (its rawData) first.',
    noMatch: 'No charge matches this QR code. Check that you copied all of it.',
    alreadyUsed: (status) => `This QR code was already used: the charge is ${status}.`,
    expired: 'This QR code has expired. Ask the shop for a new one.',
  },

  payerLink: {
    title: 'Pay with PromptPay',
    heading: (amount, merchant) => `Pay ${amount} to ${merchant}`,
    lede: "This page plays the payer's banking app, as if it had scanned this payment's QR code.",
    expiredHeading: 'This QR code has expired',
  },

  methods: {},
};

const TH_STATUSES: StatusWords = { PENDING: 'รอชำระ', SUCCEEDED: 'สำเร็จ', FAILED: 'ไม่สำเร็จ' };

const TH: PageText = {
  languageName: 'ไทย',
  languageSwitch: 'ภาษา',
  banner: 'แซนด์บ็อกซ์ — ไม่มีการโอนเงินจริง',
  siteName: 'แซนด์บ็อกซ์ Satang',
  sandboxIssuer: 'แซนด์บ็อกซ์ Satang',
  theMerchant: 'ร้านค้า',

  summary: {
    label: 'รายละเอียดการชำระเงิน',
    amount: 'ยอดชำระ',
    payee: 'ชำระให้',
    reference: 'เลขที่คำสั่งซื้อ',
    noReference: 'ไม่ได้ระบุ',
    method: 'วิธีชำระเงิน',
    charge: 'รายการชำระเงิน',
    authorization: 'การอนุมัติวงเงิน',
    status: 'สถานะ',
    failureCode: 'รหัสข้อผิดพลาด',
    qrExpires: 'คิวอาร์โค้ดหมดอายุ',
    statuses: TH_STATUSES,
  },

  otp: {
    issuer: 'ธนาคารทดสอบ Satang · 3-D Secure',
    title: 'ยืนยันการชำระเงิน',
    lede: (merchant) => `กรอกรหัสผ่านแบบใช้ครั้งเดียว (OTP) เพื่อชำระเงินด้วยบัตรให้ ${merchant}`,
    label: 'รหัสผ่านแบบใช้ครั้งเดียว (OTP)',
    hint: (code) => `แซนด์บ็อกซ์: รหัส ${code} ชำระสำเร็จ รหัสอื่นไม่สำเร็จ`,
    submit: 'ยืนยันและชำระเงิน',
    empty: 'กรุณากรอกรหัส OTP',
  },

  force: {
    issuer: 'แซนด์บ็อกซ์ Satang · ตัวจำลองการชำระเงิน',
    title: 'เลือกผลการชำระเงิน',
    heading: 'เลือกว่าการชำระเงินนี้จะจบอย่างไร',
    lede: (merchant) => `การชำระเงินให้ ${merchant} จะจบตามผลที่คุณเลือก เหมือนผู้จ่ายชำระเงินเสร็จแล้ว`,
    succeed: 'ให้ชำระเงินสำเร็จ',
    fail: 'ให้ชำระเงินไม่สำเร็จ',
  },

  authorize: {
    title: (method) => `ชำระเงินด้วย ${method}`,
    heading: (amount, merchant, method) => `ชำระ ${amount} ให้ ${merchant} ด้วย ${method} หรือไม่`,
    lede: (merchant) => `อนุมัติเพื่อชำระเงินให้ ${merchant} ทันที หรือปฏิเสธเพื่อยกเลิกการชำระเงินนี้`,
    approve: 'อนุมัติ',
    decline: 'ปฏิเสธ',
  },

  chooseOutcome: { title: 'กรุณาเลือกผลลัพธ์', message: (yes, no) => `ส่ง ${yes} หรือ ${no}` },

  result: {
    approved: 'อนุมัติการชำระเงินแล้ว',
    notApproved: 'การชำระเงินไม่ได้รับอนุมัติ',
    paid: 'ชำระเงินแล้ว',
    declined: 'ปฏิเสธการชำระเงินแล้ว',
    alreadyComplete: 'การชำระเงินนี้เสร็จสิ้นแล้ว',
    succeeded: (merchant) => `ชำระเงินให้ ${merchant} สำเร็จแล้ว ปิดหน้านี้ได้เลย`,
    failed: (failureCode) => `การชำระเงินไม่สำเร็จ (${failureCode}) ปิดหน้านี้ได้เลย`,
    pending: 'การชำระเงินยังรอดำเนินการอยู่',
    returnTo: (merchant) => `กลับไปที่ ${merchant}`,
    close: 'ปิดหน้านี้ได้เลย',
  },

  notFound: {
    pageTitle: 'ไม่พบหน้านี้',
    title: 'ไม่พบการชำระเงิน',
    page: 'ไม่มีหน้าของแซนด์บ็อกซ์ที่ที่อยู่นี้',
    step: 'ไม่มีการชำระเงินที่รอขั้นตอนนี้ ตรวจสอบลิงก์ หรือเริ่มชำระเงินใหม่อีกครั้ง',
    payerLink: 'ไม่มีการชำระเงินที่รออยู่ที่ลิงก์นี้ ตรวจสอบว่าคัดลอกลิงก์มาครบ หรือขอคิวอาร์โค้ดใหม่จากร้านค้า',
  },

  badLanguage: { title: 'ไม่รู้จักภาษานี้', message: 'พารามิเตอร์ lang ต้องเป็นรหัสภาษา เช่น th หรือ en' },

  payer: {
    issuer: 'ธนาคารแซนด์บ็อกซ์ · พร้อมเพย์',
    title: 'ผู้จ่ายพร้อมเพย์',
    heading: 'ชำระคิวอาร์พร้อมเพย์',
    lede: 'หน้านี้ทำหน้าที่แทนแอปธนาคารของผู้จ่าย: ชำระหรือปฏิเสธรายการคิวอาร์ที่รอชำระ เหมือนสแกนคิวอาร์โค้ดแล้ว',
    payloadLabel: 'ข้อมูลในคิวอาร์ (rawData)',
    payloadHint: 'วาง rawData ของรายการชำระด้วยคิวอาร์พร้อมเพย์ คือข้อความที่อยู่ในคิวอาร์โค้ด',
    pay: 'ชำระเงิน',
    decline: 'ปฏิเสธ',
    slip: 'โอนเงินผ่านธนาคารและรับสลิป',
    linksHeading: 'ชำระรายการเดียว',
    linksText:
      'รายการคิวอาร์แต่ละรายการมีลิงก์สำหรับผู้จ่ายของตัวเอง ซึ่งชำระหรือปฏิเสธได้เฉพาะรายการนั้น ร้านค้าขอลิงก์ได้จาก GET /sandbox/v1/charges/{chargeId}/payer-link ด้วยคีย์ API ของร้าน และทำรายการให้เสร็จได้ในแดชบอร์ดของแซนด์บ็อกซ์',
    chooseOutcome: 'เลือก ชำระเงิน หรือ ปฏิเสธ',
    pastePayload: 'วางข้อความของคิวอาร์โค้ด (rawData) ก่อน',
    noMatch: 'ไม่พบรายการที่ตรงกับคิวอาร์โค้ดนี้ ตรวจสอบว่าคัดลอกมาครบ',
    alreadyUsed: (status) => `คิวอาร์โค้ดนี้ถูกใช้ไปแล้ว: รายการมีสถานะ${TH_STATUSES[status]}`,
    expired: 'คิวอาร์โค้ดนี้หมดอายุแล้ว ขอคิวอาร์โค้ดใหม่จากร้านค้า',
  },

  payerLink: {
    title: 'ชำระเงินด้วยพร้อมเพย์',
    heading: (amount, merchant) => `ชำระ ${amount} ให้ ${merchant}`,
    lede: 'หน้านี้ทำหน้าที่แทนแอปธนาคารของผู้จ่าย เหมือนสแกนคิวอาร์โค้ดของรายการนี้แล้ว',
    expiredHeading: 'คิวอาร์โค้ดนี้หมดอายุแล้ว',
  },

  methods: {
    CARD: 'บัตร',
    CARD_TOKEN: 'บัตร',
    CARD_INSTALLMENTS: 'ผ่อนชำระด้วยบัตร',
    CARD_TOKEN_INSTALLMENTS: 'ผ่อนชำระด้วยบัตร',
    CARD_NETWORK_TOKEN: 'บัตร (network token)',
    QR_PROMPT_PAY: 'คิวอาร์พร้อมเพย์',
    BANGKOK_BANK_APP: 'แอปธนาคารกรุงเทพ',
    KRUNGSRI_APP: 'แอปกรุงศรี',
  },
};

const CATALOGUES: Readonly<Record<PageLanguage, PageText>> = { en: EN, th: TH };

/** The catalogue of `lang`. */
export function pageText(lang: PageLanguage): PageText {
  return CATALOGUES[lang];
}

/** The name of a payment method in `lang`: a brand keeps its name, a generic method is translated. */
export function methodName(lang: PageLanguage, paymentMethodType: string): string {
  const { methods } = CATALOGUES[lang];
  return Object.hasOwn(methods, paymentMethodType) ? (methods[paymentMethodType as ReadablePaymentMethodType] ?? '') : paymentMethodLabel(paymentMethodType);
}
