import { describe, expect, it } from 'vitest';
import { CheckoutClientError } from '../../../src/client/client-error.js';
import type { CheckoutChargeResponse, CheckoutOrderStateResponse } from '../../../src/core/schemas/checkout.js';
import { SatangAlreadyPaidEvent, SatangAmountChangedEvent, SatangResumeEvent } from '../../../src/elements/checkout-events.js';
import { SatangFailureEvent, SatangSuccessEvent } from '../../../src/elements/events.js';
import { transition } from '../../../src/elements/satang-checkout/payment-machine.js';
import type { PaymentNow } from '../../../src/elements/satang-checkout/payment-state.js';
import {
  answered,
  expired,
  heardTab,
  ORDER_CREATING_RETRIES,
  orderState,
  outcome,
  refused,
  resumed,
  type Effect,
  type Step,
  type TabFacts,
} from '../../../src/elements/satang-checkout/payment-steps.js';

/**
 * The decisions of the checkout's payment after the press, as pure functions: given the payment as
 * it is and what happened, the move to make and the effects that follow it, in order. Each step is
 * also checked against the moves table: a step the table would refuse would do nothing at all.
 */

const ORDER = { orderReference: 'order-1', amount: 178_000, currency: 'THB' };
const TAB: TabFacts = { ...ORDER, savedChargeId: undefined, abandonedChargeId: undefined, creatingAsked: 0 };
const CARD = { type: 'CARD_TOKEN', cardTokenId: 'tok_1' } as const;

const did = (step: Step | undefined) => (step?.effects ?? []).map((effect) => effect.do);
const effect = <K extends Effect['do']>(step: Step | undefined, kind: K) => step?.effects?.find((e): e is Extract<Effect, { do: K }> => e.do === kind);
/** The payment after the step, as its one writer would make it (undefined when refused). */
const after = (now: PaymentNow, step: Step | undefined) => (step ? transition(now, step.to, step.change) : undefined);

describe('the charge is answered', () => {
  const submitting: PaymentNow = { state: 'submitting', attemptKey: 'k1', replaceNext: true, resumed: true };

  it('goes to a safe redirect page once the attempt is kept, and leaves last', () => {
    const charge: CheckoutChargeResponse = { chargeId: 'ch_1', statusToken: 'st', actionRequired: 'REDIRECT', redirect: { redirectUrl: 'https://bank.example/3ds' } };
    const step = answered(submitting, charge, CARD);
    expect(step?.to).toBe('redirecting');
    expect(after(submitting, step)).toMatchObject({ state: 'redirecting', charge, method: 'CARD_TOKEN', replaceNext: false, resumed: false });
    expect(did(step)).toEqual(['holdHeight', 'tell', 'save', 'event', 'navigate']);
    expect(effect(step, 'save')?.attempt).toEqual({ chargeId: 'ch_1', statusToken: 'st', method: 'CARD_TOKEN', action: 'redirect', redirectUrl: 'https://bank.example/3ds' });
    expect(effect(step, 'navigate')?.url.href).toBe('https://bank.example/3ds');
  });

  it('refuses a redirect to an unsafe page: the problem is shown, nothing is kept, nobody leaves', () => {
    for (const redirectUrl of ['javascript:alert(1)', 'http://bank.example/3ds', 'https://user:pw@bank.example/']) {
      const step = answered(submitting, { chargeId: 'ch_1', statusToken: 'st', actionRequired: 'REDIRECT', redirect: { redirectUrl } }, CARD);
      expect(step?.to, redirectUrl).toBe('submitting');
      expect(did(step), redirectUrl).toEqual(['problem']);
      expect((effect(step, 'problem')?.error as CheckoutClientError).code).toBe('UNSAFE_REDIRECT');
    }
  });

  it('keeps a QR code and shows it once its element is here', () => {
    const charge: CheckoutChargeResponse = { chargeId: 'ch_2', statusToken: 'st', actionRequired: 'ENCODED_IMAGE', encodedImage: { rawData: '000201', expiry: '2030-01-01T00:00:00Z', imageBase64Encoded: 'AAAA' } };
    const step = answered(submitting, charge, { type: 'QR_PROMPT_PAY' } as never);
    expect(step?.to).toBe('submitting');
    expect(did(step)).toEqual(['holdHeight', 'tell', 'save', 'qr']);
    expect(effect(step, 'save')?.attempt.qr).toEqual({ rawData: '000201', expiry: '2030-01-01T00:00:00Z', image: 'AAAA' });
  });

  it('follows a charge that asks nothing, calls it slow only at the deadline, and names an installment plan', () => {
    const charge: CheckoutChargeResponse = { chargeId: 'ch_3', statusToken: 'st', actionRequired: 'NONE' };
    const step = answered(submitting, charge, { type: 'CARD_TOKEN_INSTALLMENTS', cardTokenId: 'tok', installmentPeriod: 10 } as never);
    expect(did(step)).toEqual(['holdHeight', 'tell', 'save', 'follow', 'slowAfter']);
    expect(after(submitting, step)?.plan).toBe(10);
    expect(after(submitting, answered(submitting, charge, CARD))?.plan).toBeUndefined();
  });

  it('does nothing with a charge answered after the order was shown paid: not followed, kept nor told to the tabs', () => {
    const charge: CheckoutChargeResponse = { chargeId: 'ch_4', statusToken: 'st', actionRequired: 'NONE' };
    expect(answered({ state: 'conflict', conflict: { kind: 'paid' } }, charge, CARD)).toBeUndefined();
    expect(answered({ state: 'succeeded' }, charge, CARD)).toBeUndefined();
  });
});

describe('the outcome', () => {
  const waiting: PaymentNow = { state: 'waiting', method: 'CARD_TOKEN', charge: { chargeId: 'ch_1', statusToken: 'st', actionRequired: 'NONE' } };

  it('shows an order paid as paid, keeps the attempt saved, tells the tabs and the left payments', () => {
    const step = outcome(waiting, { chargeId: 'ch_1', succeeded: true, failureCode: '', orderOutcome: 'paid' });
    expect(after(waiting, step)).toMatchObject({ state: 'succeeded', outcome: 'paid', failureCode: '', charge: undefined });
    expect(did(step)).toEqual(['stop', 'forget', 'tell', 'event', 'focus', 'tellLeft']);
    expect(effect(step, 'event')?.event).toBeInstanceOf(SatangSuccessEvent);
    expect(effect(step, 'tell')?.message).toEqual({ state: 'paid', chargeId: 'ch_1' });
  });

  it('shows a success that did not pay the order (refunded for a changed price) as a failure, never satang-success', () => {
    const step = outcome(waiting, { chargeId: 'ch_1', succeeded: true, failureCode: '', orderOutcome: 'repriced_refunded' });
    expect(after(waiting, step)).toMatchObject({ state: 'failed', outcome: 'repriced_refunded', failureCode: 'repriced_refunded' });
    const event = effect(step, 'event')?.event as SatangFailureEvent;
    expect(event).toBeInstanceOf(SatangFailureEvent);
    expect(event.outcome).toBe('repriced_refunded');
    expect(did(step)).toContain('clear');
  });

  it('puts a declined card back in the form, its security code to type again, the reason in focus last', () => {
    for (const resumedFromStorage of [false, true]) {
      const now = { ...waiting, resumed: resumedFromStorage };
      const step = outcome(now, { chargeId: 'ch_1', succeeded: false, failureCode: 'insufficient_fund', orderOutcome: undefined });
      expect(after(now, step)).toMatchObject({ state: 'idle', declined: { failureCode: 'insufficient_fund', type: 'CARD_TOKEN', cardKept: !resumedFromStorage } });
      expect(did(step)).toEqual(['stop', 'forget', 'clear', 'clearSecurityCode', 'tell', 'event', 'focusMethod', 'focusNotice']);
    }
  });

  it('is told once: nothing more once the order is shown paid', () => {
    expect(outcome({ state: 'succeeded' }, { chargeId: 'ch_1', succeeded: true, failureCode: '', orderOutcome: 'paid' })).toBeUndefined();
    expect(outcome({ state: 'conflict', conflict: { kind: 'paid' } }, { chargeId: 'ch_1', succeeded: false, failureCode: 'x', orderOutcome: undefined })).toBeUndefined();
  });
});

describe('a refusal to charge', () => {
  const submitting: PaymentNow = { state: 'submitting', attemptKey: 'k1' };
  const amountChanged = (details: Record<string, unknown>) => new CheckoutClientError('rejected', 'changed', 'AMOUNT_CHANGED', false, undefined, details);

  it('asks the element to show the server’s total (it sets its amount itself) and the shopper to confirm it', () => {
    const step = refused(submitting, amountChanged({ amount: 190_000, currency: 'THB' }), ORDER);
    expect(after(submitting, step)).toMatchObject({ state: 'conflict', conflict: { kind: 'amount', amount: 190_000, previous: 178_000, currency: 'THB' } });
    const event = effect(step, 'event')?.event as SatangAmountChangedEvent;
    expect(event).toBeInstanceOf(SatangAmountChangedEvent);
    expect([event.amount, event.previousAmount, event.currency]).toEqual([190_000, 178_000, 'THB']);
    expect(did(step)).toEqual(['forget', 'event', 'focus']);
  });

  it('takes no total that is not a positive whole amount in the order’s currency', () => {
    for (const details of [{ amount: 0, currency: 'THB' }, { amount: 1.5, currency: 'THB' }, { amount: 100, currency: 'USD' }, {}]) expect(refused(submitting, amountChanged(details), ORDER), JSON.stringify(details)).toBeUndefined();
  });

  it('shows a paid order as the end, and forgets the attempt kept for it', () => {
    const step = refused(submitting, new CheckoutClientError('rejected', 'paid', 'ORDER_ALREADY_PAID', false), ORDER);
    expect(after(submitting, step)).toMatchObject({ state: 'conflict', conflict: { kind: 'paid' } });
    expect(did(step)).toEqual(['forget', 'clear', 'event', 'focus']);
    expect(effect(step, 'event')?.event).toBeInstanceOf(SatangAlreadyPaidEvent);
  });

  it('is not a refusal when the error is another', () => {
    expect(refused(submitting, new CheckoutClientError('network', 'offline'), ORDER)).toBeUndefined();
  });

  it('only forgets the attempt when the order is shown paid meanwhile', () => {
    const step = refused({ state: 'succeeded' }, new CheckoutClientError('rejected', 'elsewhere', 'PAYMENT_IN_PROGRESS', false), ORDER);
    expect(step).toEqual({ to: 'succeeded', effects: [{ do: 'forget' }] });
  });
});

describe('the order’s state, as the server answers it', () => {
  const paid = (paidBy: string): CheckoutOrderStateResponse => ({ state: 'paid', paidBy, outcome: 'paid' }) as CheckoutOrderStateResponse;
  const paying = (chargeId?: string): CheckoutOrderStateResponse =>
    (chargeId ? { state: 'paying', payment: { chargeId, statusToken: 'st', paymentMethodType: 'QR_PROMPT_PAY', actionRequired: 'NONE' } } : { state: 'paying' }) as CheckoutOrderStateResponse;

  it('paid by this tab’s payment (followed, or kept from before a reload): its success', () => {
    const step = orderState({ state: 'waiting' }, paid('ch_mine'), { ...TAB, savedChargeId: 'ch_mine' });
    expect(step?.to).toBe('succeeded');
    expect(effect(step, 'event')?.event).toBeInstanceOf(SatangSuccessEvent);
  });

  it('paid by another: the order shows paid, this payment is no longer followed but kept as one left, to tell should it go through', () => {
    const step = orderState({ state: 'qr', method: 'QR_PROMPT_PAY', charge: { chargeId: 'ch_mine', statusToken: 'st', actionRequired: 'NONE' } }, paid('ch_other'), TAB);
    expect(after({ state: 'qr' }, step)).toMatchObject({ state: 'conflict', conflict: { kind: 'paid' }, charge: undefined });
    // Kept before the attempt is forgotten, then asked after once the order shows paid.
    expect(did(step)).toEqual(['keepLeft', 'stop', 'forget', 'clear', 'event', 'tellLeft', 'focus']);
    expect(effect(step, 'keepLeft')?.charge).toEqual({ chargeId: 'ch_mine', statusToken: 'st', method: 'QR_PROMPT_PAY' });
    // From before a reload: the payment the tab kept, with its method.
    const saved = { chargeId: 'ch_saved', statusToken: 'st2', method: 'QR_PROMPT_PAY' };
    expect(effect(orderState({ state: 'idle' }, paid('ch_other'), { ...TAB, savedChargeId: 'ch_saved', saved }), 'keepLeft')?.charge).toEqual(saved);
    // No payment of this tab's: nothing to keep.
    expect(did(orderState({ state: 'idle' }, paid('ch_other'), TAB))).not.toContain('keepLeft');
  });

  it('picks up another tab’s payment, but not while sending one, nor one this shopper left', () => {
    const step = orderState({ state: 'idle' }, paying('ch_other'), TAB);
    expect(after({ state: 'idle' }, step)).toMatchObject({ state: 'waiting', resumed: true, method: 'QR_PROMPT_PAY', charge: { chargeId: 'ch_other' } });
    expect(effect(step, 'event')?.event).toBeInstanceOf(SatangResumeEvent);
    expect(did(step)).toContain('follow');
    expect(orderState({ state: 'submitting' }, paying('ch_other'), TAB)).toBeUndefined();
    expect(orderState({ state: 'idle' }, paying('ch_other'), { ...TAB, abandonedChargeId: 'ch_other' })).toBeUndefined();
    expect(orderState({ state: 'idle', leaving: true }, paying('ch_other'), TAB)).toBeUndefined();
  });

  it('waits, asking again, while another tab creates the payment, a bounded number of times', () => {
    expect(orderState({ state: 'idle' }, paying(), TAB)).toEqual({ to: 'waiting', effects: [{ do: 'syncSoon' }] });
    expect(orderState({ state: 'waiting' }, paying(), { ...TAB, creatingAsked: ORDER_CREATING_RETRIES })).toEqual({ to: 'idle' });
    expect(orderState({ state: 'submitting' }, paying(), TAB)).toBeUndefined();
  });

  it('takes the shopper back to the form from a "checking" with nothing to check', () => {
    expect(orderState({ state: 'waiting' }, { state: 'open' } as CheckoutOrderStateResponse, TAB)).toEqual({ to: 'idle' });
    expect(orderState({ state: 'waiting', charge: { chargeId: 'c', statusToken: 's', actionRequired: 'NONE' } }, { state: 'open' } as CheckoutOrderStateResponse, TAB)).toBeUndefined();
  });

  it('changes nothing once the order is shown paid', () => {
    expect(orderState({ state: 'succeeded' }, paid('ch_other'), TAB)).toBeUndefined();
  });
});

describe('what the tab kept and what other tabs say', () => {
  it('picks up a saved QR code where it was, and a redirect as a wait with the card’s security code cleared', () => {
    const qr = resumed({ state: 'waiting', resumed: true }, { chargeId: 'c1', statusToken: 's', method: 'QR_PROMPT_PAY', action: 'qr', savedAt: 0, qr: { rawData: 'r', expiry: 'e' } });
    expect(qr.to).toBe('waiting');
    expect(did(qr)).toEqual(['event', 'qr']);
    const redirect = resumed({ state: 'waiting', resumed: true }, { chargeId: 'c2', statusToken: 's', method: 'CARD_TOKEN', action: 'redirect', savedAt: 0, redirectUrl: 'https://bank.example/' });
    expect(did(redirect)).toEqual(['focus', 'event', 'clearSecurityCode', 'follow']);
    expect(resumed({ state: 'waiting', resumed: true }, undefined)).toEqual({ to: 'idle', change: { resumed: false } });
  });

  it('an expired status token: a payment picked up from storage starts afresh, one sent here shows why', () => {
    expect(expired({ state: 'waiting', resumed: true })).toMatchObject({ to: 'idle', change: { resumed: false, charge: undefined } });
    expect(expired({ state: 'waiting' })).toMatchObject({ to: 'conflict', change: { conflict: { kind: 'expired' } } });
    expect(expired({ state: 'succeeded' })).toEqual({ to: 'succeeded', effects: [{ do: 'stop' }, { do: 'clear' }, { do: 'forget' }] });
  });

  it('without a token, takes only "paid" from another tab, and not of this tab’s own payment', () => {
    const now: PaymentNow = { state: 'qr', charge: { chargeId: 'ch_mine', statusToken: 's', actionRequired: 'NONE' } };
    expect(heardTab(now, { state: 'paying', chargeId: 'x' }, ORDER)).toBeUndefined();
    expect(heardTab(now, { state: 'paid', chargeId: 'ch_mine' }, ORDER)).toBeUndefined();
    expect(heardTab(now, { state: 'paid', chargeId: 'ch_other' }, ORDER)?.to).toBe('conflict');
  });
});
