import { describe, expect, it } from 'vitest';
import type { CheckoutChargeResponse } from '../../../src/core/schemas/checkout.js';
import type { LocalizeController } from '../../../src/elements/controllers/localize-controller.js';
import { CheckoutPayment } from '../../../src/elements/satang-checkout/checkout-payment.js';
import type { PaymentHost, PaymentSteps } from '../../../src/elements/satang-checkout/payment-state.js';

/**
 * The checkout's payment model as its one writer: a step says what changes with the state it moves
 * to (`show(state, change)`), and a move the table refuses changes nothing at all: not the state,
 * not the charge, not the words over the form.
 */

const CHARGE: CheckoutChargeResponse = { chargeId: 'ch_test', statusToken: 'st', actionRequired: 'NONE' };

/** A payment on a host that is not on the page (nothing is fetched for it), its payment code loaded. */
async function loadedPayment(): Promise<{ payment: CheckoutPayment; updates: () => number }> {
  let updates = 0;
  const host = {
    addController: () => undefined,
    requestUpdate() {
      updates++;
    },
    isConnected: false,
    orderReference: 'order-1',
  } as unknown as PaymentHost;
  const localize = { msg: (key: string) => key, locale: 'en' } as unknown as LocalizeController;
  // Nothing chosen yet: the press goes back to the form with what is missing, and brings the payment code.
  const steps = { chosen: () => Promise.resolve('number.required') } as unknown as PaymentSteps;
  const payment = new CheckoutPayment(host, localize, steps);
  await payment.pay('WEB');
  expect(payment.state).toBe('idle');
  return { payment, updates: () => updates };
}

describe('the checkout payment, changed through show alone', () => {
  it('applies a step’s change with the move it makes, and asks the checkout to render', async () => {
    const { payment, updates } = await loadedPayment();
    const before = updates();
    expect(payment.show('waiting', { charge: CHARGE, method: 'CARD', resumed: true })).toBe(true);
    expect(payment).toMatchObject({ state: 'waiting', charge: CHARGE, method: 'CARD', resumed: true });
    expect(updates()).toBeGreaterThan(before);
  });

  it('changes fields alone when the step stays in its state', async () => {
    const { payment } = await loadedPayment();
    payment.show('waiting', { charge: CHARGE });
    expect(payment.show('waiting', { leaving: true })).toBe(true);
    expect(payment).toMatchObject({ state: 'waiting', leaving: true, charge: CHARGE });
  });

  it('refuses a move out of an order shown paid, and then changes nothing it was given', async () => {
    const { payment } = await loadedPayment();
    expect(payment.show('succeeded', { outcome: 'PAID', failureCode: '' })).toBe(true);
    expect(payment.show('idle', { charge: CHARGE, notice: 'error.retry', replaceNext: true })).toBe(false);
    expect(payment).toMatchObject({ state: 'succeeded', notice: 'number.required', replaceNext: false, outcome: 'PAID' });
    expect(payment.charge).toBeUndefined();
  });

  it('refuses a move the table does not have (idle to failed), keeping the declined card it was given out', async () => {
    const { payment } = await loadedPayment();
    expect(payment.show('failed', { declined: { failureCode: 'X', type: 'CARD' } })).toBe(false);
    expect(payment.state).toBe('idle');
    expect(payment.declined).toBeUndefined();
  });

  it('keeps a paid conflict once shown: the same state with another reason is refused whole', async () => {
    const { payment } = await loadedPayment();
    expect(payment.show('conflict', { conflict: { kind: 'paid' } })).toBe(true);
    expect(payment.show('conflict', { conflict: { kind: 'expired' }, charge: CHARGE })).toBe(false);
    expect(payment).toMatchObject({ state: 'conflict', conflict: { kind: 'paid' } });
    expect(payment.charge).toBeUndefined();
    // What does not touch the order's verdict still changes (the way out's "asking…" ending, say).
    expect(payment.show('conflict', { leaving: false })).toBe(true);
  });
});
