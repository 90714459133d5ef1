import type { Order, Receipt } from './api.js';
import { PaymentLog } from './CheckoutView.js';
import { dateTime } from './format.js';
import { OrderLines } from './OrderLines.js';

interface Props {
  order: Order;
  receipt: Receipt;
  onNewOrder: () => void;
}

/** The order is paid: what was bought, the payment's reference, and the way back to the shop. */
export function ConfirmedView({ order, receipt, onNewOrder }: Props) {
  return (
    <main className="checkout-page spa-page spa-confirmed">
      <section className="confirmation" aria-labelledby="confirmed-title">
        <p className="confirmed-badge" aria-hidden="true">
          ✓
        </p>
        <h1 id="confirmed-title" tabIndex={-1}>
          Thank you, your order is confirmed
        </h1>
        <p className="confirmed-lead">We have your payment and will wrap your order with care. Keep these references for any question about it.</p>
        <dl className="references">
          <dt>Order</dt>
          <dd>
            <code className="order-reference">{order.orderReference}</code>
          </dd>
          <dt>Payment</dt>
          <dd>
            <code className="charge-id">{receipt.chargeId}</code>
          </dd>
          <dt>Paid at</dt>
          <dd>{dateTime(receipt.paidAt)}</dd>
        </dl>
        <OrderLines order={order} />
        {receipt.log.length > 0 && (
          <details className="confirmed-log">
            <summary>What the checkout reported</summary>
            <PaymentLog log={receipt.log} />
          </details>
        )}
        <button type="button" className="primary-button" onClick={onNewOrder}>
          Start a new order
        </button>
      </section>
    </main>
  );
}
