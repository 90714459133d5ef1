import { describe, expect, it } from 'vitest';
import { isSettled, REFUSED_MOVES, transition } from '../../../src/elements/satang-checkout/payment-machine.js';
import type { ChargeConflict, PaymentChange, PaymentState } from '../../../src/elements/satang-checkout/payment-state.js';

/** Whether `transition` makes the move (the payment's one writer makes it then, and only then). */
const mayMove = (now: { state: PaymentState; conflict: ChargeConflict | undefined }, to: PaymentState, change?: PaymentChange) => transition(now, to, change) !== undefined;

const STATES: readonly PaymentState[] = ['idle', 'submitting', 'redirecting', 'qr', 'waiting', 'succeeded', 'failed', 'conflict'];

/** Every move, written out once more by hand: what the table must allow (the rest it must refuse). */
const ALLOWED: Record<PaymentState, PaymentState[]> = {
  idle: ['submitting', 'waiting', 'qr', 'succeeded', 'conflict'],
  submitting: ['idle', 'redirecting', 'qr', 'waiting', 'succeeded', 'failed', 'conflict'],
  redirecting: ['idle', 'waiting', 'qr', 'succeeded', 'failed', 'conflict'],
  qr: ['idle', 'submitting', 'waiting', 'succeeded', 'failed', 'conflict'],
  waiting: ['idle', 'redirecting', 'qr', 'succeeded', 'failed', 'conflict'],
  succeeded: [],
  failed: ['idle', 'conflict', 'succeeded'],
  conflict: ['idle', 'submitting', 'waiting', 'qr', 'succeeded'],
};

describe('the moves of the checkout payment', () => {
  it('names every state, and only states', () => {
    expect(Object.keys(REFUSED_MOVES).sort()).toEqual([...STATES].sort());
    for (const targets of Object.values(REFUSED_MOVES)) for (const to of targets.split(' ').filter(Boolean)) expect(STATES).toContain(to);
  });

  for (const from of STATES) {
    describe(`from ${from}`, () => {
      for (const to of STATES) {
        const allowed = from === to || ALLOWED[from].includes(to);
        it(`${allowed ? 'allows' : 'refuses'} ${to}`, () => {
          expect(mayMove({ state: from, conflict: undefined }, to)).toBe(allowed);
        });
      }
    });
  }

  describe('when the order is shown paid', () => {
    const finals: { state: PaymentState; conflict: ChargeConflict | undefined }[] = [
      { state: 'succeeded', conflict: undefined },
      { state: 'conflict', conflict: { kind: 'paid' } },
      { state: 'conflict', conflict: { kind: 'refunded' } },
    ];
    for (const payment of finals) {
      it(`refuses every move out of ${payment.state}${payment.conflict ? ` (${payment.conflict.kind})` : ''}, the form above all`, () => {
        expect(isSettled(payment)).toBe(true);
        for (const to of STATES.filter((s) => s !== payment.state)) expect(mayMove(payment, to), to).toBe(false);
        expect(mayMove(payment, payment.state)).toBe(true);
        expect(mayMove(payment, payment.state, { leaving: false })).toBe(true);
        expect(mayMove(payment, payment.state, { conflict: { kind: 'expired' } }), 'another reason').toBe(false);
      });
    }

    it('lets a conflict the shopper can act on go back to the form', () => {
      for (const conflict of [{ kind: 'amount', amount: 1, previous: 2, currency: 'THB' }, { kind: 'elsewhere', method: undefined, replaceable: true }, { kind: 'expired' }] as const) {
        expect(isSettled({ state: 'conflict', conflict })).toBe(false);
        expect(mayMove({ state: 'conflict', conflict }, 'idle')).toBe(true);
      }
    });
  });

  describe('transition', () => {
    it('makes a new payment, leaving the one it was given as it was', () => {
      const now = Object.freeze({ state: 'submitting' as const, announcement: 'Processing', attemptKey: 'k1' });
      const next = transition(now, 'waiting', { method: 'CARD' });
      expect(next).toEqual({ state: 'waiting', announcement: '', attemptKey: 'k1', method: 'CARD' });
      expect(now).toEqual({ state: 'submitting', announcement: 'Processing', attemptKey: 'k1' });
    });

    it('clears what the live region said on a new state only, and lets a step say something new', () => {
      const now = { state: 'waiting' as const, announcement: 'Checking' };
      expect(transition(now, 'waiting', { leaving: true })?.announcement).toBe('Checking');
      expect(transition(now, 'qr')?.announcement).toBe('');
      expect(transition(now, 'qr', { announcement: 'Scan' })?.announcement).toBe('Scan');
    });

    it('answers nothing for a refused move', () => {
      expect(transition({ state: 'idle' }, 'failed', { failureCode: 'X' })).toBeUndefined();
      expect(transition({ state: 'succeeded' }, 'succeeded', { conflict: { kind: 'paid' } })).toBeUndefined();
    });
  });
});
