/**
 * What `<satang-checkout>` says when the shop's server would not charge: the total changed, the
 * order is being paid elsewhere or is paid already, or the payment page expired. Registered with
 * the code a payment runs (`pay-path.ts`), fetched after the first render. English and Thai: each
 * key in both.
 */
import type { Catalog } from './catalog.js';

export const conflictMessages = {
  en: {
    'conflict.amountTitle': 'The total has changed',
    'conflict.amountBody': 'The total is now {amount} (was {previous}). Confirm to pay the new total.',
    'conflict.amountBodyFirst': 'The total is {amount}. Confirm to pay this total.',
    'conflict.amountConfirm': 'Confirm and pay {amount}',
    'conflict.back': 'Back to payment methods',
    'conflict.inProgressTitle': 'This order is already being paid',
    'conflict.inProgressBody': 'This order is already being paid in another window ({method}). Finish it there, or pay here instead.',
    'conflict.inProgressBodyAny': 'This order is already being paid in another window. Finish it there, or pay here instead.',
    'conflict.payHere': 'Pay here instead',
    'conflict.processingBody': 'A payment for this order is being processed in another window right now. Try again in a moment.',
    'conflict.paidTitle': 'This order is paid',
    'conflict.paidBody': 'There is nothing more to pay. Thank you.',
    'conflict.refundedTitle': 'This order’s payment was refunded',
    'conflict.refundedBody': 'The shop refunded this order, so there is nothing to pay here. Contact the shop to order again.',
    'expired.title': 'This payment page has expired',
    'expired.body': 'Reload the page to see where your payment stands.',
    'expired.reload': 'Reload the page',
  },
  th: {
    'conflict.amountTitle': 'ยอดชำระมีการเปลี่ยนแปลง',
    'conflict.amountBody': 'ยอดชำระตอนนี้คือ {amount} (เดิม {previous}) กรุณายืนยันเพื่อชำระยอดใหม่',
    'conflict.amountBodyFirst': 'ยอดชำระคือ {amount} กรุณายืนยันเพื่อชำระยอดนี้',
    'conflict.amountConfirm': 'ยืนยันและชำระ {amount}',
    'conflict.back': 'กลับไปเลือกวิธีชำระเงิน',
    'conflict.inProgressTitle': 'คำสั่งซื้อนี้กำลังถูกชำระอยู่',
    'conflict.inProgressBody': 'คำสั่งซื้อนี้กำลังถูกชำระในหน้าต่างอื่น ({method}) กรุณาชำระให้เสร็จที่นั่น หรือเลือกชำระที่นี่แทน',
    'conflict.inProgressBodyAny': 'คำสั่งซื้อนี้กำลังถูกชำระในหน้าต่างอื่น กรุณาชำระให้เสร็จที่นั่น หรือเลือกชำระที่นี่แทน',
    'conflict.payHere': 'ชำระที่นี่แทน',
    'conflict.processingBody': 'มีการชำระเงินของคำสั่งซื้อนี้กำลังดำเนินการในหน้าต่างอื่นอยู่ กรุณาลองอีกครั้งในอีกสักครู่',
    'conflict.paidTitle': 'คำสั่งซื้อนี้ชำระเงินแล้ว',
    'conflict.paidBody': 'ไม่มียอดที่ต้องชำระเพิ่ม ขอบคุณ',
    'conflict.refundedTitle': 'คำสั่งซื้อนี้ได้รับเงินคืนแล้ว',
    'conflict.refundedBody': 'ร้านค้าคืนเงินของคำสั่งซื้อนี้แล้ว จึงไม่มียอดที่ต้องชำระที่นี่ กรุณาติดต่อร้านค้าหากต้องการสั่งซื้ออีกครั้ง',
    'expired.title': 'หน้าชำระเงินนี้หมดอายุแล้ว',
    'expired.body': 'กรุณาโหลดหน้านี้ใหม่เพื่อดูสถานะการชำระเงินของคุณ',
    'expired.reload': 'โหลดหน้านี้ใหม่',
  },
} satisfies Catalog;
