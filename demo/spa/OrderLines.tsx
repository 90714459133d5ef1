import type { Order } from './api.js';
import { money } from './format.js';

/** The lines of an order, read-only: the summary beside the payment and on the confirmation. */
export function OrderLines({ order }: { order: Order }) {
  return (
    <>
      <ul className="lines summary-lines">
        {order.lines
          .filter((line) => line.quantity > 0)
          .map((line) => (
            <li key={line.sku}>
              <span className="name">
                {line.name}
                <span className="name-th" lang="th">
                  {line.nameTh}
                </span>
              </span>
              <span className="quantity">× {line.quantity}</span>
              <span className="price">{money(line.total)}</span>
            </li>
          ))}
      </ul>
      <p className="total">
        <span>Total</span> <strong className="total-amount">{money(order.amount)}</strong>
      </p>
    </>
  );
}
