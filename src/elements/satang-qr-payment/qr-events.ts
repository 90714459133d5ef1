/**
 * The shopper asked for a new QR code because the shown one expired. `chargeId` is the expired
 * charge's. The listener (the page, or `<satang-checkout>`) creates a new charge and sets its QR
 * on the element; the element itself never creates charges.
 */
export class SatangQrRenewEvent extends Event {
  constructor(readonly chargeId: string) {
    super('satang-qr-renew', { bubbles: true, composed: true });
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'satang-qr-renew': SatangQrRenewEvent;
  }
}
