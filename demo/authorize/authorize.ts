import { formatAmount } from '../../src/core/money.js';
import { requiredElement } from '../required-element.js';

/**
 * The pre-order page: once the checkout reports the card authorized, a stand-in for the shop's
 * back office captures or cancels it through the demo order API (the server calls
 * captureAuthorization / cancelAuthorization from satang/server).
 */
const page = requiredElement('main[data-order]');
const reference = page.dataset.order ?? '';
const total = requiredElement('.total-amount');
total.textContent = formatAmount(Number(total.dataset.amount), 'THB');

const office = requiredElement('.back-office');
const state = requiredElement('.order-state', office);
const problem = requiredElement('.back-office-error', office);
const buttons = [...office.querySelectorAll<HTMLButtonElement>('button')];

requiredElement('satang-checkout').addEventListener('satang-success', (event) => {
  requiredElement('.authorization-id', office).textContent = event.chargeId;
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

requiredElement('.capture', office).addEventListener('click', () => void settle('capture'));
requiredElement('.cancel', office).addEventListener('click', () => void settle('cancel'));
