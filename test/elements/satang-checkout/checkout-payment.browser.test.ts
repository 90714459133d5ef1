import { describe, expect, it, vi } from 'vitest';
import type { CheckoutChargeResponse } from '../../../src/core/schemas/checkout.js';
import type { LocalizeController } from '../../../src/elements/controllers/localize-controller.js';
import { CheckoutPayment } from '../../../src/elements/satang-checkout/checkout-payment.js';
import { flowOf } from '../../../src/elements/satang-checkout/payment-flow.js';
import { answered } from '../../../src/elements/satang-checkout/payment-steps.js';
import type { PaymentHost, PaymentSteps } from '../../../src/elements/satang-checkout/payment-state.js';

/**
 * The checkout's payment as its one writer keeps it: a move says what changes with the state it
 * moves to (`move(state, change)`), and a move the table refuses changes nothing at all: not the
 * state, not the charge, not the words over the form. The table holds from the first press, before
 * the code after the press arrives, and a refused press sends nothing.
 */

const CHARGE: CheckoutChargeResponse = { chargeId: 'ch_test', statusToken: 'st', actionRequired: 'NONE' };

/** A payment on a host that is not on the page (nothing is fetched for it); `chosen` counts the presses that reached the form. */
function newPayment(): { payment: CheckoutPayment; updates: () => number; chosen: () => number; navigated: string[] } {
  let updates = 0;
  let chosen = 0;
  const navigated: string[] = [];
  const host = {
    addController: () => undefined,
    requestUpdate() {
      updates++;
    },
    dispatchEvent: () => true,
    shadowRoot: null,
    isConnected: false,
    orderReference: 'order-1',
  } as unknown as PaymentHost;
  const localize = { msg: (key: string) => key, locale: 'en' } as unknown as LocalizeController;
  // Nothing chosen yet: the press goes back to the form with what is missing, and brings the payment code.
  const steps = {
    navigate: (url: URL) => navigated.push(url.href),
    chosen: () => {
      chosen++;
      return Promise.resolve('number.required');
    },
  } as unknown as PaymentSteps;
  const payment = new CheckoutPayment(host, localize, steps);
  return { payment, updates: () => updates, chosen: () => chosen, navigated };
}

/** A payment whose press went back to the form with what is missing (its payment code loaded). */
async function loadedPayment(): Promise<{ payment: CheckoutPayment; updates: () => number }> {
  const made = newPayment();
  await made.payment.pay('WEB');
  expect(made.payment.now.state).toBe('idle');
  expect(made.chosen()).toBe(1);
  return made;
}

describe('the checkout payment, changed through move alone', () => {
  it('applies a step’s change with the move it makes, as a new value, and asks the checkout to render', async () => {
    const { payment, updates } = await loadedPayment();
    const before = updates();
    const was = payment.now;
    expect(payment.move('waiting', { charge: CHARGE, method: 'CARD', resumed: true })).toBe(true);
    expect(payment.now).toMatchObject({ state: 'waiting', charge: CHARGE, method: 'CARD', resumed: true });
    expect(updates()).toBeGreaterThan(before);
    // Replaced, never changed in place: what a reader held is what it was.
    expect(was).toMatchObject({ state: 'idle' });
    expect(was).not.toBe(payment.now);
  });

  it('changes fields alone when the step stays in its state', async () => {
    const { payment } = await loadedPayment();
    payment.move('waiting', { charge: CHARGE });
    expect(payment.move('waiting', { leaving: true })).toBe(true);
    expect(payment.now).toMatchObject({ state: 'waiting', leaving: true, charge: CHARGE });
  });

  it('refuses a move out of an order shown paid, and then changes nothing it was given', async () => {
    const { payment } = await loadedPayment();
    expect(payment.move('succeeded', { outcome: 'PAID', failureCode: '' })).toBe(true);
    expect(payment.move('idle', { charge: CHARGE, notice: 'error.retry', replaceNext: true })).toBe(false);
    expect(payment.now).toMatchObject({ state: 'succeeded', notice: 'number.required', outcome: 'PAID' });
    expect(payment.now.replaceNext).toBeFalsy();
    expect(payment.now.charge).toBeUndefined();
  });

  it('refuses a move the table does not have (idle to failed), keeping the declined card it was given out', async () => {
    const { payment } = await loadedPayment();
    expect(payment.move('failed', { declined: { failureCode: 'X', type: 'CARD' } })).toBe(false);
    expect(payment.now.state).toBe('idle');
    expect(payment.now.declined).toBeUndefined();
  });

  it('keeps a paid conflict once shown: the same state with another reason is refused whole', async () => {
    const { payment } = await loadedPayment();
    expect(payment.move('conflict', { conflict: { kind: 'paid' } })).toBe(true);
    expect(payment.move('conflict', { conflict: { kind: 'expired' }, charge: CHARGE })).toBe(false);
    expect(payment.now).toMatchObject({ state: 'conflict', conflict: { kind: 'paid' } });
    expect(payment.now.charge).toBeUndefined();
    // What does not touch the order's verdict still changes (the way out's "asking…" ending, say).
    expect(payment.move('conflict', { leaving: false })).toBe(true);
  });

  it('holds the table before the code after the press has arrived', () => {
    const { payment } = newPayment();
    expect(payment.move('failed')).toBe(false);
    expect(payment.move('succeeded')).toBe(true);
    expect(payment.move('idle')).toBe(false);
    expect(payment.now.state).toBe('succeeded');
  });

  it('sends nothing when the press may not move to submitting: the order shown paid, the form is not even read', async () => {
    const { payment, chosen } = newPayment();
    payment.move('conflict', { conflict: { kind: 'paid' } });
    await payment.pay('WEB');
    expect(chosen()).toBe(0);
    expect(payment.now).toMatchObject({ state: 'conflict', conflict: { kind: 'paid' } });
    // A press while one is being sent is no new press: the form is read once.
    const twice = newPayment();
    const first = twice.payment.pay('WEB');
    expect(twice.payment.now.state).toBe('submitting');
    await Promise.all([first, twice.payment.pay('WEB')]);
    expect(twice.chosen()).toBe(1);
  });

  it('runs the effects of a step only when its move is made: a redirect answered after the order was shown paid leaves nobody', () => {
    const { payment, navigated } = newPayment();
    const redirect: CheckoutChargeResponse = { chargeId: 'ch_3ds', statusToken: 'st', actionRequired: 'REDIRECT', redirect: { redirectUrl: 'https://bank.example/3ds' } };
    const flow = flowOf(payment);
    payment.move('submitting');
    payment.move('conflict', { conflict: { kind: 'paid' } });
    // The step decided for the payment being sent, made once the order was shown paid: refused, and nothing of it runs.
    const step = answered({ state: 'submitting' }, redirect, { type: 'CARD_TOKEN', cardTokenId: 'tok' });
    expect(step?.effects?.map((e) => e.do)).toContain('navigate');
    expect(flow.go(step)).toBe(false);
    expect(navigated).toEqual([]);
    // Decided on the payment as it is now, there is no step at all.
    expect(answered(payment.now, redirect, { type: 'CARD_TOKEN', cardTokenId: 'tok' })).toBeUndefined();
    expect(payment.now.state).toBe('conflict');
    // The same answer while the payment is being sent: the shopper goes to the bank's page.
    const sending = newPayment();
    sending.payment.move('submitting');
    expect(flowOf(sending.payment).go(answered(sending.payment.now, redirect, { type: 'CARD_TOKEN', cardTokenId: 'tok' }))).toBe(true);
    expect(sending.navigated).toEqual(['https://bank.example/3ds']);
    expect(sending.payment.now.state).toBe('redirecting');
  });
});

describe('the checkout payment, off the page', () => {
  it('listens to nothing when the checkout left the page while its payment code loaded: no listener outlives it', async () => {
    const { payment } = newPayment();
    const onDocument = vi.spyOn(document, 'addEventListener');
    const onWindow = vi.spyOn(window, 'addEventListener');
    try {
      // What `sync` runs once the payment code is here, for a host no longer connected.
      await flowOf(payment).sync();
      expect(onDocument.mock.calls.map(([type]) => type)).not.toContain('visibilitychange');
      expect(onWindow.mock.calls.map(([type]) => type)).not.toContain('online');
    } finally {
      onDocument.mockRestore();
      onWindow.mockRestore();
    }
  });
});
