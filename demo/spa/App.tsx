import { useEffect, useRef, useState } from 'react';
import { createOrder, getCatalogue, getOrder, receiptOf, saveReceipt, ShopApiError, type Order, type Product, type Receipt } from './api.js';
import { CartView } from './CartView.js';
import { CheckoutView, type ServiceSettings } from './CheckoutView.js';
import { ConfirmedView } from './ConfirmedView.js';
import { routeHref, useRoute, type Step } from './router.js';

type Loading = { state: 'loading' } | { state: 'ready'; order: Order } | { state: 'failed'; message: string };

/** The first visit's new order, shared by StrictMode's second run of the effect: one cart, not two. */
let newOrder: Promise<Order> | undefined;

const STEPS: readonly { step: Step; label: string }[] = [
  { step: 'cart', label: 'Cart' },
  { step: 'checkout', label: 'Payment' },
  { step: 'confirmed', label: 'Confirmation' },
];

export function App({ settings }: { settings: ServiceSettings }) {
  const [route, navigate] = useRoute();
  const [loading, setLoading] = useState<Loading>({ state: 'loading' });
  const [catalogue, setCatalogue] = useState<Product[]>([]);
  const firstView = useRef(true);

  useEffect(() => {
    let live = true;
    getCatalogue().then(
      (products) => live && setCatalogue(products),
      () => undefined, // the cart works without suggestions
    );
    return () => {
      live = false;
    };
  }, []);

  // The order named in the URL, or a new cart for a first visit.
  useEffect(() => {
    let live = true;
    const reference = route.order;
    if (loading.state === 'ready' && loading.order.orderReference === reference) return;
    setLoading({ state: 'loading' });
    const load = reference ? getOrder(reference) : (newOrder ??= createOrder());
    load.then(
      (order) => {
        if (!live) return;
        if (!reference) {
          newOrder = undefined;
          navigate({ step: 'cart', order: order.orderReference }, { replace: true });
        }
        setLoading({ state: 'ready', order });
      },
      (error: unknown) => {
        if (!live) return;
        if (!reference) newOrder = undefined;
        const unknown = error instanceof ShopApiError && error.status === 404;
        setLoading({ state: 'failed', message: unknown ? 'This order is not known to the shop.' : 'The shop could not load your order. Check your connection and try again.' });
      },
    );
    return () => {
      live = false;
    };
    // Only a new order reference loads; the cart's own changes come back from updateOrder.
  }, [route.order]);

  const order = loading.state === 'ready' && loading.order.orderReference === route.order ? loading.order : undefined;
  const receipt: Receipt | undefined = order ? receiptOf(order.orderReference) : undefined;

  // A paid order only has its confirmation; a confirmation needs a payment; payment needs an amount.
  let step = route.step;
  if (order && receipt) step = 'confirmed';
  else if (order && step === 'confirmed') step = 'cart';
  else if (order && step === 'checkout' && order.amount < 100) step = 'cart';
  useEffect(() => {
    if (order && step !== route.step) navigate({ step, order: order.orderReference }, { replace: true });
  }, [order, step, route.step, navigate]);

  // A new view is announced by moving focus to its heading, as a page load would.
  useEffect(() => {
    if (!order) return;
    if (firstView.current) {
      firstView.current = false;
      return;
    }
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [step, order?.orderReference]);

  const go = (next: Step) => order && navigate({ step: next, order: order.orderReference });

  let view;
  if (loading.state === 'failed') {
    view = (
      <main className="checkout-page spa-page">
        <section className="cart" aria-labelledby="problem-title">
          <h1 id="problem-title">Your order</h1>
          <p className="cart-error" role="alert">
            {loading.message}
          </p>
          <a className="primary-button" href={routeHref({ step: 'cart', order: undefined })}>
            Start a new order
          </a>
        </section>
      </main>
    );
  } else if (!order) {
    view = (
      <main className="checkout-page spa-page" aria-busy="true">
        <p className="loading" role="status">
          Loading your cart…
        </p>
      </main>
    );
  } else if (step === 'confirmed' && receipt) {
    view = <ConfirmedView order={order} receipt={receipt} onNewOrder={() => navigate({ step: 'cart', order: undefined })} />;
  } else if (step === 'checkout') {
    view = (
      <CheckoutView
        order={order}
        settings={settings}
        onEditCart={() => go('cart')}
        onOrderChange={(next) => setLoading({ state: 'ready', order: next })}
        onPaid={(chargeId, log) => {
          saveReceipt(order.orderReference, { chargeId, paidAt: Date.now(), log });
          go('confirmed');
        }}
      />
    );
  } else {
    view = <CartView order={order} catalogue={catalogue} onOrderChange={(next) => setLoading({ state: 'ready', order: next })} onCheckout={() => go('checkout')} />;
  }

  const count = order?.lines.reduce((sum, line) => sum + line.quantity, 0) ?? 0;
  return (
    <>
      <header className="shop-header">
        <a className="brand" href={routeHref({ step: 'cart', order: route.order })}>
          Baan Craft
        </a>
        <span className="cart-count" aria-live="polite">
          {order ? `${count} ${count === 1 ? 'item' : 'items'}` : ''}
        </span>
      </header>
      <nav className={`steps steps-${step}`} aria-label="Checkout steps">
        <ol>
          {STEPS.map(({ step: s, label }, index) => (
            <li key={s} aria-current={s === step ? 'step' : undefined} className={STEPS.findIndex((x) => x.step === step) > index ? 'done' : undefined}>
              <span className="step-number">{index + 1}</span> {label}
            </li>
          ))}
        </ol>
      </nav>
      {view}
      <footer className="demo-footer">
        <p>
          A React 19 single-page shop around <code>&lt;satang-checkout&gt;</code>. Sandbox: no real money moves. Test card <code>4111 1111 1111 1111</code>, any future expiry, CVC{' '}
          <code>123</code>. More: <a href="/">Shop</a> · <a href="/demo/theming/">Theming</a> · <a href="/demo/csp/">Strict CSP</a>
        </p>
      </footer>
    </>
  );
}
