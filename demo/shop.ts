/**
 * The demo shop's own page script: the cart, the language switch and the confirmation. Nothing
 * here touches card data; the checkout element does the payment and reports through events.
 */
import { formatAmount } from '../src/core/money.js';
import { requiredElement } from './required-element.js';

interface OrderLine {
  sku: string;
  quantity: number;
  name: string;
  nameTh: string;
  unitPrice: number;
  total: number;
}
interface Order {
  orderReference: string;
  /** The charge that paid the order, once the checkout handler told the shop (order.paid). */
  paidBy?: string;
  amount: number;
  currency: string;
  lines: OrderLine[];
}
type Lang = 'en' | 'th';

const TEXTS: Record<Lang, Record<string, string>> = {
  en: {
    'cart.title': 'Your order',
    'cart.total': 'Total',
    'cart.hint': 'The shop’s server prices the cart; the checkout only shows the amount.',
    'payment.title': 'Payment',
    'done.title': 'Thank you, your order is confirmed',
    'done.reference': 'Order',
    'done.charge': 'Payment',
    'done.again': 'Start a new order',
    less: 'One less',
    more: 'One more',
    quantity: 'Quantity',
    'cart.failed': 'The cart could not be updated. Check your connection and try again.',
    'cart.unknown': 'This order is not known to the shop. Start a new order from the shop’s page.',
  },
  th: {
    'cart.title': 'คำสั่งซื้อของคุณ',
    'cart.total': 'ยอดรวม',
    'cart.hint': 'เซิร์ฟเวอร์ของร้านเป็นผู้กำหนดราคา หน้าชำระเงินแสดงยอดเท่านั้น',
    'payment.title': 'การชำระเงิน',
    'done.title': 'ขอบคุณ คำสั่งซื้อของคุณได้รับการยืนยันแล้ว',
    'done.reference': 'คำสั่งซื้อ',
    'done.charge': 'การชำระเงิน',
    'done.again': 'เริ่มคำสั่งซื้อใหม่',
    less: 'ลดหนึ่งชิ้น',
    more: 'เพิ่มหนึ่งชิ้น',
    quantity: 'จำนวน',
    'cart.failed': 'อัปเดตตะกร้าไม่สำเร็จ ตรวจสอบการเชื่อมต่อแล้วลองอีกครั้ง',
    'cart.unknown': 'ร้านไม่พบคำสั่งซื้อนี้ เริ่มคำสั่งซื้อใหม่จากหน้าร้าน',
  },
};

const page = requiredElement('main[data-order]');
const checkout = requiredElement('satang-checkout');
const list = requiredElement('.lines', page);
const totalText = requiredElement('.total-amount', page);
const cartError = requiredElement('.cart-error', page);
const reference = page.dataset.order ?? '';
let order: Order | undefined;
const LANG_KEY = 'baan-craft:lang';
const savedLang = (() => {
  try {
    return localStorage.getItem(LANG_KEY);
  } catch {
    return null;
  }
})();
// The shopper's choice survives a trip to a bank or wallet page and back, and a bank app that
// sends the shopper back in a new tab.
let lang: Lang = (savedLang ?? document.documentElement.lang) === 'th' ? 'th' : 'en';
// Back from a bank or wallet page the payment is under way: the cart is what was charged.
let locked = location.pathname.endsWith('/return.html');

const money = (satang: number) => formatAmount(satang, 'THB', lang);
const text = (key: string) => TEXTS[lang][key] ?? key;

function render(): void {
  const shown = order;
  if (!shown) return;
  const lines = shown.lines.map((line) => {
    const item = document.createElement('li');
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = lang === 'th' ? line.nameTh : line.name;
    const stepper = document.createElement('span');
    stepper.className = 'stepper';
    stepper.setAttribute('role', 'group');
    stepper.setAttribute('aria-label', `${text('quantity')}: ${name.textContent}`);
    const less = button('−', text('less'), () => void change(line.sku, -1), locked || line.quantity === 0 || shown.amount - line.unitPrice < 100);
    const count = document.createElement('output');
    count.textContent = String(line.quantity);
    const more = button('+', text('more'), () => void change(line.sku, 1), locked || line.quantity >= 20);
    stepper.append(less, count, more);
    const price = document.createElement('span');
    price.className = 'price';
    price.textContent = money(line.total);
    item.append(name, stepper, price);
    return item;
  });
  list.replaceChildren(...lines);
  totalText.textContent = money(shown.amount);
}

function button(label: string, name: string, onClick: () => void, disabled: boolean): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = label;
  element.setAttribute('aria-label', name);
  element.disabled = disabled;
  element.addEventListener('click', onClick);
  return element;
}

async function change(sku: string, delta: number): Promise<void> {
  if (!order || locked) return;
  const lines = order.lines.map((line) => ({ sku: line.sku, quantity: line.sku === sku ? line.quantity + delta : line.quantity }));
  try {
    const answer = await fetch(`/api/demo/orders/${encodeURIComponent(reference)}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ lines }) });
    if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
    order = (await answer.json()) as Order;
    cartError.hidden = true;
    checkout.amount = order.amount;
    render();
  } catch {
    cartError.textContent = text('cart.failed');
    cartError.hidden = false;
  }
}

function setLanguage(next: Lang): void {
  lang = next;
  try {
    localStorage.setItem(LANG_KEY, next);
  } catch {
    // Without storage the choice lasts for this page only.
  }
  document.documentElement.lang = next;
  checkout.locale = next;
  for (const element of document.querySelectorAll<HTMLElement>('[data-text]')) element.textContent = text(element.dataset.text ?? '');
  // Passages with markup of their own (code, links) come in one element per language.
  for (const element of document.querySelectorAll<HTMLElement>('[data-lang-only]')) element.hidden = element.dataset.langOnly !== next;
  for (const toggle of document.querySelectorAll<HTMLButtonElement>('[data-lang]')) toggle.setAttribute('aria-pressed', String(toggle.dataset.lang === next));
  render();
}

for (const toggle of document.querySelectorAll<HTMLButtonElement>('[data-lang]')) {
  toggle.addEventListener('click', () => setLanguage(toggle.dataset.lang as Lang));
}

// A payment under way fixes the cart: the amount the shopper sees is the amount charged.
checkout.addEventListener('satang-submit', () => {
  locked = true;
  render();
});
// A payment picked up (a reload, the return from a bank page, another tab's QR code) fixes it too:
// a cart changed meanwhile would make that payment the wrong amount, and it would be refunded.
checkout.addEventListener('satang-resume', () => {
  locked = true;
  render();
});
// Only a payment that definitely failed, or that the shopper left (the server said it had not
// gone through), frees the cart. After a network or server error the charge may exist: the retry
// must be for the same amount.
checkout.addEventListener('satang-failure', () => {
  locked = false;
  render();
});
checkout.addEventListener('satang-abandon', () => {
  locked = false;
  render();
});
checkout.addEventListener('satang-success', (event) => {
  // A duplicate payment was refunded: the payment to name is the one that paid the order, which
  // only the shop's server knows.
  if (event.outcome === 'duplicate_refunded') void confirmFromServer();
  else confirm(event.chargeId);
});
// Another tab or device paid the order: this page charged nothing and has nothing to name but the
// order as the shop's server recorded it.
checkout.addEventListener('satang-already-paid', () => void confirmFromServer());
// The server priced the order differently from this page (the cart changed in another tab): the
// checkout asks the shopper to confirm its new total, and the cart beside it must show that total
// and the lines that make it, not the ones this page loaded.
checkout.addEventListener('satang-amount-changed', (event) => {
  if (order) order = { ...order, amount: event.amount };
  render();
  void fetchOrder().then((current) => {
    if (current?.amount !== event.amount) return;
    order = current;
    render();
  });
});

function confirm(chargeId: string): void {
  locked = true;
  render();
  const confirmation = requiredElement('.confirmation', page);
  requiredElement('.order-reference', confirmation).textContent = reference;
  requiredElement('.charge-id', confirmation).textContent = chargeId;
  confirmation.hidden = false;
  confirmation.focus();
}

/** Confirms the order, which the checkout says is paid, with the charge the shop's server recorded as paying it. */
async function confirmFromServer(): Promise<void> {
  locked = true;
  render();
  const current = await fetchOrder();
  if (current?.paidBy) confirm(current.paidBy);
}

/** The order as the shop's server has it now; undefined when it cannot be read. */
async function fetchOrder(): Promise<Order | undefined> {
  const answer = await fetch(`/api/demo/orders/${encodeURIComponent(reference)}`).catch(() => undefined);
  return answer?.ok ? ((await answer.json()) as Order) : undefined;
}

const answer = reference ? await fetch(`/api/demo/orders/${encodeURIComponent(reference)}`).catch(() => undefined) : undefined;
if (answer?.ok) {
  order = (await answer.json()) as Order;
  // The order in the address, so that a reload or Back shows this order (and the checkout picks its
  // payment up) rather than a new cart.
  if (new URLSearchParams(location.search).get('order') !== reference) {
    history.replaceState(history.state, '', `${location.pathname}?order=${encodeURIComponent(reference)}`);
  }
  setLanguage(lang);
} else {
  cartError.textContent = text(reference && answer?.status !== 404 ? 'cart.failed' : 'cart.unknown');
  cartError.hidden = false;
  requiredElement('.payment', page).hidden = true;
}
