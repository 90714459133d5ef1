import { useState } from 'react';
import { getOrder, ShopApiError, updateOrder, type CartLine, type Order, type Product } from './api.js';
import { money } from './format.js';

const MAX_QUANTITY = 20;
/** The smallest charge the service takes, in satang. */
const MIN_AMOUNT = 100;

interface Props {
  order: Order;
  catalogue: readonly Product[];
  onOrderChange: (order: Order) => void;
  onCheckout: () => void;
}

/** The cart: quantities, products to add, and the way to payment. The server prices every change. */
export function CartView({ order, catalogue, onOrderChange, onCheckout }: Props) {
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string>();
  const lines = order.lines.filter((line) => line.quantity > 0);
  const others = catalogue.filter((product) => !lines.some((line) => line.sku === product.sku));

  async function save(next: CartLine[]): Promise<void> {
    setPending(true);
    try {
      onOrderChange(await updateOrder(order.orderReference, next.filter((line) => line.quantity > 0)));
      setProblem(undefined);
    } catch (error) {
      if (!(error instanceof ShopApiError) || error.status >= 500) {
        setProblem('The cart could not be updated. Check your connection and try again.');
        return;
      }
      // Refused by the shop: the order moved on (paid in another tab, say). Its words, and the order as it is now.
      setProblem(`${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`);
      onOrderChange(await getOrder(order.orderReference).catch(() => order));
    } finally {
      setPending(false);
    }
  }

  const setQuantity = (sku: string, quantity: number) =>
    save(lines.some((line) => line.sku === sku) ? lines.map((line) => ({ sku: line.sku, quantity: line.sku === sku ? quantity : line.quantity })) : [...lines.map(({ sku, quantity }) => ({ sku, quantity })), { sku, quantity }]);

  return (
    <main className="checkout-page spa-page spa-cart" aria-busy={pending}>
      <section className="cart" aria-labelledby="cart-title">
        <h1 id="cart-title" tabIndex={-1}>
          Your cart
        </h1>
        {lines.length === 0 ? (
          <p className="empty">Your cart is empty. Add something from the list.</p>
        ) : (
          <ul className="lines" aria-live="polite">
            {lines.map((line) => (
              <li key={line.sku}>
                <span className="name">
                  {line.name}
                  <span className="name-th" lang="th">
                    {line.nameTh}
                  </span>
                </span>
                <span className="stepper" role="group" aria-label={`Quantity: ${line.name}`}>
                  <button type="button" aria-label={line.quantity === 1 ? `Remove ${line.name}` : 'One less'} disabled={pending} onClick={() => void setQuantity(line.sku, line.quantity - 1)}>
                    −
                  </button>
                  <output>{line.quantity}</output>
                  <button type="button" aria-label="One more" disabled={pending || line.quantity >= MAX_QUANTITY} onClick={() => void setQuantity(line.sku, line.quantity + 1)}>
                    +
                  </button>
                </span>
                <span className="price">{money(line.total)}</span>
              </li>
            ))}
          </ul>
        )}
        <p className="total">
          <span>Total</span> <strong className="total-amount">{money(order.amount)}</strong>
        </p>
        <p className="hint">Prices come from the shop's server; the payment page shows the same total.</p>
        {problem && (
          <p className="cart-error" role="alert">
            {problem}
          </p>
        )}
        <button type="button" className="primary-button" disabled={pending || order.amount < MIN_AMOUNT} onClick={onCheckout}>
          Continue to payment
        </button>
      </section>

      {others.length > 0 && (
        <section className="more" aria-labelledby="more-title">
          <h2 id="more-title">More from Baan Craft</h2>
          <ul className="products">
            {others.map((product) => (
              <li key={product.sku}>
                <span className="name">
                  {product.name}
                  <span className="name-th" lang="th">
                    {product.nameTh}
                  </span>
                </span>
                <span className="price">{money(product.priceSatang)}</span>
                <button type="button" className="secondary-button" disabled={pending} onClick={() => void setQuantity(product.sku, 1)} aria-label={`Add ${product.name}`}>
                  Add
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}
