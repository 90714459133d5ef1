import { useRef, useState } from 'react';
import type {
  SatangAbandonEvent,
  SatangActionEvent,
  SatangAlreadyPaidEvent,
  SatangAmountChangedEvent,
  SatangChangeEvent,
  SatangErrorEvent,
  SatangFailureEvent,
  SatangResumeEvent,
  SatangSubmitEvent,
  SatangSuccessEvent,
} from '../../src/elements/index.js';
// The JSX types of the tags, as shipped in satang/react (satang/jsx).
import type {} from '../../src/react/jsx.js';
import { getOrder, type Order, type PaymentLogEntry, type Tone } from './api.js';
import { clock, methodName, money } from './format.js';
import { OrderLines } from './OrderLines.js';
import { routeHref } from './router.js';

export interface ServiceSettings {
  merchantId: string;
  publishableKey: string;
  serviceUrl: string;
  endpoint: string;
}

interface Props {
  order: Order;
  settings: ServiceSettings;
  onEditCart: () => void;
  /** The order as the shop's server has it now, read again after the checkout found its total changed. */
  onOrderChange: (order: Order) => void;
  onPaid: (chargeId: string, log: PaymentLogEntry[]) => void;
}

/**
 * Payment: the order summary, the <satang-checkout> element and what it reports. React 19 adds a
 * listener for every `on<event-name>` function prop of a custom element, so `onsatang-success`
 * is the element's `satang-success` event (typed by satang/jsx: src/react/jsx.ts).
 */
export function CheckoutView({ order, settings, onEditCart, onOrderChange, onPaid }: Props) {
  const [log, setLog] = useState<PaymentLogEntry[]>([]);
  const [busy, setBusy] = useState(false);
  // The log as events arrive, ahead of the next render (two events can come before it).
  const latest = useRef<PaymentLogEntry[]>([]);
  const now = log.at(-1);

  function record(type: string, text: string, tone: Tone): PaymentLogEntry[] {
    const entry = { id: latest.current.length + 1, type, text, tone, at: Date.now() };
    latest.current = [...latest.current, entry];
    setLog(latest.current);
    return latest.current;
  }

  const onReady = () => record('satang-ready', 'Ready: choose how to pay and enter your details.', 'info');
  const onChange = (event: SatangChangeEvent) =>
    record('satang-change', `${methodName(event.method)} chosen${event.complete ? ', details complete' : ''}.`, 'info');
  const onSubmit = (event: SatangSubmitEvent) => {
    setBusy(true);
    record('satang-submit', `Paying ${money(order.amount)} (${methodName(event.method)})…`, 'busy');
  };
  const onAction = (event: SatangActionEvent) =>
    record(
      'satang-action',
      event.action === 'qr' ? `Scan the PromptPay QR code with your banking app (charge ${event.chargeId}).` : `Taking you to confirm the payment (charge ${event.chargeId})…`,
      'busy',
    );
  /** Confirms the order with the charge the shop's server recorded as paying it, when another payment paid it. */
  const paidElsewhere = (log: PaymentLogEntry[]) =>
    getOrder(order.orderReference).then(
      (current) => current.paidBy && onPaid(current.paidBy, log),
      () => undefined,
    );
  const onSuccess = (event: SatangSuccessEvent) => {
    setBusy(false);
    if (event.outcome === 'duplicate_refunded') {
      void paidElsewhere(record('satang-success', `The order was already paid: this payment (charge ${event.chargeId}) was refunded.`, 'success'));
      return;
    }
    onPaid(event.chargeId, record('satang-success', `Payment succeeded: charge ${event.chargeId}.`, 'success'));
  };
  const onAlreadyPaid = (_event: SatangAlreadyPaidEvent) => {
    setBusy(false);
    void paidElsewhere(record('satang-already-paid', 'This order was already paid in another window: nothing was charged here.', 'success'));
  };
  // The cart changed elsewhere (another tab): the summary shows the lines of the total the
  // checkout now asks the shopper to confirm.
  const onAmountChanged = (event: SatangAmountChangedEvent) => {
    setBusy(false);
    record('satang-amount-changed', `The total is now ${money(event.amount)} (was ${money(event.previousAmount)}): confirm it to pay.`, 'info');
    getOrder(order.orderReference).then(
      (current) => current.amount === event.amount && onOrderChange(current),
      () => onOrderChange({ ...order, amount: event.amount }),
    );
  };
  // A payment picked up (a reload, a return from a bank page, one started in another tab): the
  // cart stays as it is until it ends, or the shopper leaves it.
  const onResume = (event: SatangResumeEvent) => {
    setBusy(true);
    record('satang-resume', `A payment of this order is under way (${methodName(event.method)}, charge ${event.chargeId}).`, 'busy');
  };
  const onAbandon = (event: SatangAbandonEvent) => {
    setBusy(false);
    record('satang-abandon', `The payment was left for another method (charge ${event.chargeId}).`, 'info');
  };
  const onFailure = (event: SatangFailureEvent) => {
    setBusy(false);
    record('satang-failure', `Payment failed: ${event.failureCode || 'declined'} (charge ${event.chargeId}). You can try again.`, 'failure');
  };
  const onError = (event: SatangErrorEvent) => {
    setBusy(false);
    record('satang-error', `Error ${event.code}: ${event.message}`, 'failure');
  };

  // Bank, wallet and 3-D Secure pages send the shopper back here; the element picks the payment up.
  const returnUrl = new URL(routeHref({ step: 'checkout', order: order.orderReference }), location.origin).href;

  return (
    <main className="checkout-page spa-page spa-checkout">
      <section className="cart" aria-labelledby="summary-title">
        <h1 id="summary-title" tabIndex={-1}>
          Order summary
        </h1>
        <OrderLines order={order} />
        <button type="button" className="link-button" onClick={onEditCart} disabled={busy}>
          ← Edit cart
        </button>
      </section>

      <section className="payment" aria-labelledby="payment-title">
        <h2 id="payment-title">Pay {money(order.amount)}</h2>
        <satang-checkout
          key={order.orderReference}
          merchant-id={settings.merchantId}
          publishable-key={settings.publishableKey}
          service-url={settings.serviceUrl}
          endpoint={settings.endpoint}
          amount={order.amount}
          currency="THB"
          order-reference={order.orderReference}
          order-token={order.orderToken}
          return-url={returnUrl}
          locale="en"
          onsatang-ready={onReady}
          onsatang-change={onChange}
          onsatang-submit={onSubmit}
          onsatang-action={onAction}
          onsatang-success={onSuccess}
          onsatang-failure={onFailure}
          onsatang-error={onError}
          onsatang-amount-changed={onAmountChanged}
          onsatang-already-paid={onAlreadyPaid}
          onsatang-resume={onResume}
          onsatang-abandon={onAbandon}
        />
      </section>

      <section className="payment-status" aria-labelledby="status-title">
        <h2 id="status-title">Payment status</h2>
        <p className={`status-now tone-${now?.tone ?? 'info'}`} role="status" data-event={now?.type ?? ''}>
          {now?.text ?? 'Loading the checkout…'}
        </p>
        {log.length > 0 && <PaymentLog log={log} />}
      </section>
    </main>
  );
}

/** The events the checkout sent, oldest first. */
export function PaymentLog({ log }: { log: readonly PaymentLogEntry[] }) {
  return (
    <ol className="event-log" aria-label="Checkout events">
      {log.map((entry) => (
        <li key={entry.id} className={`tone-${entry.tone}`}>
          <time dateTime={new Date(entry.at).toISOString()}>{clock(entry.at)}</time>
          <code>{entry.type}</code>
          <span>{entry.text}</span>
        </li>
      ))}
    </ol>
  );
}
