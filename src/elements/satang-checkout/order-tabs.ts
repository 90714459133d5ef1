/**
 * The tabs of one order tell each other what became of its payment, at once, over a
 * `BroadcastChannel` of this origin named after the order. A message is only a nudge: a tab with
 * the order's token asks the merchant's server (the truth) when it hears one; without a token, a
 * tab trusts only "paid", which any script of the shop's own origin could say anyway. Part of the
 * payment code (`pay-path.ts`), fetched after the form shows.
 */
import type { Payment } from './payment-state.js';

/** What a tab says of the order's payment: started (`paying`), paid, or over without paying it (`open`). */
export interface TabMessage {
  state: 'paying' | 'paid' | 'open';
  chargeId?: string;
}

interface Listening {
  orderReference: string;
  channel: BroadcastChannel;
}

const listening = new WeakMap<Payment, Listening>();

const channelName = (orderReference: string) => `satang:order:${orderReference}`;

/**
 * Listens to the other tabs of the payment's order (once; again if the order changed): `onMessage`
 * hears what they say. Nothing where the browser has no `BroadcastChannel`: the server's answers
 * (the order's state, the status wait) still bring the news, later.
 */
export function listenToTabs(payment: Payment, onMessage: (message: TabMessage) => void): void {
  const { orderReference } = payment.host;
  const current = listening.get(payment);
  if (current?.orderReference === orderReference || typeof BroadcastChannel !== 'function') return;
  current?.channel.close();
  const channel = new BroadcastChannel(channelName(orderReference));
  channel.onmessage = (event: MessageEvent<unknown>) => {
    const data = event.data as Partial<TabMessage> | null;
    if (data?.state !== 'paying' && data?.state !== 'paid' && data?.state !== 'open') return;
    onMessage({ state: data.state, ...(typeof data.chargeId === 'string' ? { chargeId: data.chargeId } : {}) });
  };
  listening.set(payment, { orderReference, channel });
}

const watchingPage = new WeakMap<Payment, () => void>();

/**
 * Calls `onBack` when the page is shown again (the shopper back from another app, tab or device)
 * and when the browser is back online: another device may have paid the order meanwhile, which no
 * tab of this browser can say. Once per payment.
 */
export function listenToPage(payment: Payment, onBack: () => void): void {
  if (watchingPage.has(payment) || typeof document === 'undefined') return;
  const visible = () => {
    if (document.visibilityState === 'visible') onBack();
  };
  document.addEventListener('visibilitychange', visible);
  addEventListener('online', onBack);
  watchingPage.set(payment, () => {
    document.removeEventListener('visibilitychange', visible);
    removeEventListener('online', onBack);
  });
}

/** Stops listening to the other tabs of the payment's order and to the page (the checkout left the page). */
export function stopListening(payment: Payment): void {
  listening.get(payment)?.channel.close();
  listening.delete(payment);
  watchingPage.get(payment)?.();
  watchingPage.delete(payment);
}

/** Tells the other tabs of the order what became of its payment. */
export function tellTabs(payment: Payment, message: TabMessage): void {
  const current = listening.get(payment);
  if (current?.orderReference === payment.host.orderReference) {
    current.channel.postMessage(message);
    return;
  }
  if (typeof BroadcastChannel !== 'function') return;
  // Not listening (the order changed since): a channel for this one message.
  const channel = new BroadcastChannel(channelName(payment.host.orderReference));
  channel.postMessage(message);
  channel.close();
}
