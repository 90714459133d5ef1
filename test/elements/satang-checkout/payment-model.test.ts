import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CheckoutClientError } from '../../../src/client/client-error.js';
import type { CheckoutChargeResponse, CheckoutOrderStateResponse } from '../../../src/core/schemas/checkout.js';
import { SatangSuccessEvent } from '../../../src/elements/events.js';
import { isSettled, transition } from '../../../src/elements/satang-checkout/payment-machine.js';
import type { PaymentNow } from '../../../src/elements/satang-checkout/payment-state.js';
import { answered, expired, heardStatus, heardTab, orderState, qrShown, refused, statusFailed, type Step } from '../../../src/elements/satang-checkout/payment-steps.js';

/**
 * The checkout's payment driven by generated sequences of what can happen to it in any order: the
 * shopper's presses and buttons, the charge's answers and refusals, statuses, the QR element, the
 * order's state from the server, other tabs, expired tokens and failures. Each event is decided by
 * the pure steps and made as the flow makes it (the move through `transition`, then its effects,
 * only if the move was made). After every event: an order once shown paid stays paid; the shopper
 * is never sent to a payment page, nor is a payment kept or followed, once it is; `satang-success`
 * is told at most once, and only with the order shown paid.
 */

const ORDER = { orderReference: 'order-1', amount: 178_000, currency: 'THB' };
const CARD = { type: 'CARD_TOKEN', cardTokenId: 'tok' } as const;

type Event =
  | { kind: 'press' }
  | { kind: 'answer'; action: 'NONE' | 'ENCODED_IMAGE' | 'REDIRECT'; id: number }
  | { kind: 'refusal'; code: 'AMOUNT_CHANGED' | 'PAYMENT_IN_PROGRESS' | 'ORDER_ALREADY_PAID' }
  | { kind: 'status'; status: 'SUCCEEDED' | 'FAILED' | 'PENDING'; outcome: 'paid' | 'duplicate_refunded' | 'repriced_refunded' | undefined; orderPaid: boolean }
  | { kind: 'qrShown' }
  | { kind: 'order'; state: 'paid' | 'refunded' | 'paying' | 'open'; own: boolean }
  | { kind: 'tab'; own: boolean }
  | { kind: 'expired' }
  | { kind: 'failure'; retryable: boolean }
  | { kind: 'again' }
  | { kind: 'leave' };

const event: fc.Arbitrary<Event> = fc.oneof(
  fc.constant({ kind: 'press' as const }),
  fc.record({ kind: fc.constant('answer' as const), action: fc.constantFrom('NONE' as const, 'ENCODED_IMAGE' as const, 'REDIRECT' as const), id: fc.nat(3) }),
  fc.record({ kind: fc.constant('refusal' as const), code: fc.constantFrom('AMOUNT_CHANGED' as const, 'PAYMENT_IN_PROGRESS' as const, 'ORDER_ALREADY_PAID' as const) }),
  fc.record({
    kind: fc.constant('status' as const),
    status: fc.constantFrom('SUCCEEDED' as const, 'FAILED' as const, 'PENDING' as const),
    outcome: fc.constantFrom('paid' as const, 'duplicate_refunded' as const, 'repriced_refunded' as const, undefined),
    orderPaid: fc.boolean(),
  }),
  fc.constant({ kind: 'qrShown' as const }),
  fc.record({ kind: fc.constant('order' as const), state: fc.constantFrom('paid' as const, 'refunded' as const, 'paying' as const, 'open' as const), own: fc.boolean() }),
  fc.record({ kind: fc.constant('tab' as const), own: fc.boolean() }),
  fc.constant({ kind: 'expired' as const }),
  fc.record({ kind: fc.constant('failure' as const), retryable: fc.boolean() }),
  fc.constant({ kind: 'again' as const }),
  fc.constant({ kind: 'leave' as const }),
);

/** What the flow did, as seen from outside. */
interface World {
  now: PaymentNow;
  navigated: number;
  successes: number;
  following: boolean;
  saved: boolean;
  /** A charge request was sent and its answer has not come yet (it comes whatever the payment did meanwhile). */
  inFlight: boolean;
}

const charge = (action: 'NONE' | 'ENCODED_IMAGE' | 'REDIRECT', id: number): CheckoutChargeResponse => ({
  chargeId: `ch_${id}`,
  statusToken: 'st',
  actionRequired: action,
  ...(action === 'REDIRECT' ? { redirect: { redirectUrl: `https://bank.example/${id}` } } : {}),
  ...(action === 'ENCODED_IMAGE' ? { encodedImage: { rawData: 'r', expiry: '2030-01-01T00:00:00Z', imageBase64Encoded: '' } } : {}),
});

/** Makes `step` as the flow does; answers whether its move was made. */
function make(world: World, step: Step | undefined): boolean {
  const next = step && transition(world.now, step.to, step.change);
  if (!step || !next) return false;
  world.now = next;
  for (const effect of step.effects ?? []) {
    if (effect.do === 'navigate') world.navigated++;
    if (effect.do === 'event' && effect.event instanceof SatangSuccessEvent) world.successes++;
    if (effect.do === 'follow') world.following = true;
    if (effect.do === 'stop') world.following = false;
    if (effect.do === 'save') world.saved = true;
    if (effect.do === 'clear') world.saved = false;
    if (effect.do === 'forget') world.now = transition(world.now, world.now.state, { attemptKey: undefined }) ?? world.now;
    // A problem moves back to the form, as the payment's own `problem` does.
    if (effect.do === 'problem') make(world, { to: 'idle', change: { notice: 'error.retry' } });
  }
  return true;
}

function happen(world: World, e: Event): void {
  const { now } = world;
  const own = now.charge?.chargeId ?? 'ch_0';
  switch (e.kind) {
    case 'press':
      // Sent only once the press moved the payment to submitting (and not while one is in flight).
      if (!world.inFlight && now.state !== 'submitting' && make(world, { to: 'submitting', change: { notice: undefined, declined: undefined } })) world.inFlight = true;
      return;
    case 'answer':
      // The charge's answer comes to whatever the payment became meanwhile.
      if (!world.inFlight) return;
      world.inFlight = false;
      make(world, answered(now, charge(e.action, e.id), CARD));
      return;
    case 'refusal': {
      if (!world.inFlight) return;
      world.inFlight = false;
      const details = e.code === 'AMOUNT_CHANGED' ? { amount: 190_000, currency: 'THB' } : {};
      make(world, refused(now, new CheckoutClientError('rejected', e.code, e.code, false, undefined, details), ORDER));
      return;
    }
    case 'status':
      make(world, heardStatus(now, { chargeId: own, status: e.status, ...(e.outcome && e.status === 'SUCCEEDED' ? { outcome: e.outcome } : {}), ...(e.orderPaid ? { order: 'paid' } : {}) } as never, ORDER));
      return;
    case 'qrShown':
      make(world, qrShown(now));
      return;
    case 'order': {
      const answer = { state: e.state, ...(e.state === 'paid' ? { paidBy: e.own ? own : 'ch_other', outcome: 'paid' } : {}) } as CheckoutOrderStateResponse;
      make(world, orderState(now, answer, { ...ORDER, savedChargeId: undefined, abandonedChargeId: undefined, creatingAsked: 0 }));
      return;
    }
    case 'tab':
      make(world, heardTab(now, { state: 'paid', chargeId: e.own ? own : 'ch_other' }, ORDER));
      return;
    case 'expired':
      make(world, expired(now));
      return;
    case 'failure':
      make(world, statusFailed(now, new CheckoutClientError(e.retryable ? 'network' : 'rejected', 'failed', 'X')));
      return;
    case 'again':
      if (now.state === 'failed' || now.state === 'conflict') make(world, { to: 'idle', change: { charge: undefined, notice: undefined, declined: undefined } });
      return;
    case 'leave':
      if ((now.state === 'qr' || now.state === 'waiting') && now.charge) make(world, { to: 'idle', change: { replaceNext: true, resumed: false, charge: undefined }, effects: [{ do: 'stop' }] });
  }
}

describe('the checkout payment under any order of events', () => {
  it('never leaves an order shown paid, never leaves for a payment page or keeps a payment after it, and tells success once', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        const world: World = { now: { state: 'idle' }, navigated: 0, successes: 0, following: false, saved: false, inFlight: false };
        let settled: PaymentNow | undefined;
        for (const e of events) {
          const navigated = world.navigated;
          const saved = world.saved;
          happen(world, e);
          if (settled) {
            expect(world.now.state, JSON.stringify(e)).toBe(settled.state);
            expect(world.now.conflict).toEqual(settled.conflict);
            expect(world.navigated, 'sent to a payment page after the order read paid').toBe(navigated);
            if (!saved) expect(world.saved, 'a payment kept after the order read paid').toBe(false);
          } else if (isSettled(world.now)) {
            settled = world.now;
          }
          expect(world.successes).toBeLessThanOrEqual(1);
          if (world.successes === 1) expect(world.now.state).toBe('succeeded');
        }
        // Shown paid, nothing is followed any more.
        if (settled?.state === 'succeeded') expect(world.following).toBe(false);
      }),
      { numRuns: 3_000 },
    );
  });
});
