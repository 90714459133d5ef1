import { formatAmount } from '../../src/core/money.js';

/**
 * The pre-order page: once the checkout reports the card authorized, a stand-in for the shop's
 * back office captures or cancels it through the demo order API (the server calls
 * captureAuthorization / cancelAuthorization from satang/server).
 */
const page = document.querySelector<HTMLElement>('main[data-order]')!;
const reference = page.dataset.order!;
const total = document.querySelector<HTMLElement>('.total-amount')!;
total.textContent = formatAmount(Number(total.dataset.amount), 'THB');

const office = document.querySelector<HTMLElement>('.back-office')!;
const state = office.querySelector<HTMLElement>('.order-state')!;
const problem = office.querySelector<HTMLElement>('.back-office-error')!;
const buttons = [...office.querySelectorAll<HTMLButtonElement>('button')];

document.querySelector('satang-checkout')!.addEventListener('satang-success', (event) => {
  office.querySelector('.authorization-id')!.textContent = event.chargeId;
  office.hidden = false;
});

async function settle(action: 'capture' | 'cancel'): Promise<void> {
  for (const button of buttons) button.disabled = true;
  problem.hidden = true;
  // The service's webhook tells the shop which authorization reserved the order; it may be a moment behind the page.
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const response = await fetch(`/api/demo/orders/${encodeURIComponent(reference)}/${action}`, { method: 'POST' });
    const body = (await response.json()) as { settled?: string; paidBy?: string; error?: { errorCode?: string; errorMessage?: string } };
    if (response.ok) {
      state.textContent = body.settled === 'captured' ? `captured: charge ${body.paidBy}` : 'canceled: the reservation is released';
      return;
    }
    if (body.error?.errorCode !== 'NOT_AUTHORIZED_YET') {
      problem.textContent = body.error?.errorMessage ?? `HTTP ${response.status}`;
      problem.hidden = false;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  for (const button of buttons) button.disabled = false;
}

office.querySelector('.capture')!.addEventListener('click', () => void settle('capture'));
office.querySelector('.cancel')!.addEventListener('click', () => void settle('cancel'));
