import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryCheckoutStore } from '../../../src/server/index.js';
import { modelEvent, modelParameters, OrderModelRun, PRICE, printModelTally, runScenario, scenarios, type ModelBackend, type ModelStep, type Scenario } from '../../support/order-model.js';

/**
 * The order's money rules as a model: generated sequences of shoppers' tabs paying (cards, 3-D
 * Secure, QR codes, "pay here instead"), payments approved, answers lost and retried, webhooks
 * held, late, twice, out of order or at the other instance, status and state reads, restarts and
 * reprices, on one or two handler instances sharing one in-memory store, against the sandbox.
 * See test/support/order-model.ts for the events and the invariants.
 */

const memory: ModelBackend = { name: 'memory', openStore: () => new MemoryCheckoutStore(), restartLosesStore: true };

afterAll(() => printModelTally('order model, in-memory store'));

describe('one order under generated events, on the in-memory store', () => {
  it('keeps the money, the ledger, the shown state and onOrder in agreement with the service', { timeout: 60_000 }, async () => {
    const withoutRestarts = modelEvent.filter((event) => event.type !== 'restart');
    await fc.assert(
      fc.asyncProperty(scenarios({ events: withoutRestarts }), (scenario) => runScenario(scenario, memory)),
      modelParameters(100, 40_000),
    );
  });

  // A restart empties the in-memory store: what docs/server.md says it forgets is left out of the
  // invariants (see checkInvariants), and the shop answers null for a paid order, as it must then.
  it('keeps them across restarts of the process that holds the store', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(scenarios({ forgetfulStore: true }), (scenario) => runScenario(scenario, memory)),
      modelParameters(60, 40_000),
    );
  });
});

/** A scenario of one instance whose webhooks are held back until the end, with `events` one after the other. */
function sequence(soldOutWhenPaid: boolean, ...events: ModelStep['event'][]): Scenario {
  return { instances: 1, soldOutWhenPaid, webhooks: { live: false, to: 0 }, jitter: 0, steps: events.map((event) => ({ event, together: false })) };
}

/** Plays `scenario` to its end (everything landed, every payment read), then `check`s it; a failure carries the run's trace. */
async function replay(scenario: Scenario, check: (run: OrderModelRun) => void): Promise<void> {
  const run = new OrderModelRun(scenario, memory);
  try {
    await run.play();
    await run.finish();
    check(run);
  } catch (error) {
    if (error instanceof Error) error.message = `${error.message}\n${run.describe(undefined)}`;
    throw error;
  } finally {
    run.close();
  }
}

const card = { type: 'pay', via: 0, method: 'card', replace: false, lose: false } as const;
const lostCard = { ...card, lose: true } as const;

describe('sequences the model found', () => {
  // Shrunk: a pre-order; a card authorization, its answer lost | another card tries to reserve it, "pay here
  // instead" | (the end: the held webhooks arrive, the first tab retries with its key).
  it('keeps one reservation of a pre-order when a card authorization\'s answer was lost and another card tried to reserve it', async () => {
    await replay({ ...sequence(false, lostCard, { ...card, replace: true }, { type: 'retry', tab: 0, via: 0 }), intent: 'authorize' }, (run) => {
      const standing = run.paymentsOfOrder().filter((p) => p.status === 'AUTHORIZED');
      // The lost one is found before the second card is reserved: it holds the order, and the second is refused.
      expect(standing.map((p) => p.chargeId), 'reservations left on the card').toEqual([run.made.get(run.tabs[0]!.key)]);
      expect(run.told.filter((t) => t.event.type === 'order.authorized').map((t) => t.event.chargeId)).toEqual(standing.map((p) => p.chargeId));
    });
  });

  // Shrunk: pay by card | read its status (paid: onOrder hears order.paid) | restart | the page reads its status again.
  it('keeps the payment that paid the order when its page reads its status after a restart emptied the store', async () => {
    await replay(sequence(true, card, { type: 'status', payment: 0, via: 0 }, { type: 'restart', instance: 0 }), (run) => {
      const chargeId = run.tabs[0]!.chargeId!;
      expect(run.told.map((t) => `${t.event.type} ${t.event.chargeId}`)).toContain(`order.paid ${chargeId}`);
      // The page read "paid" before the restart, and must read it after it too.
      expect(run.shown.map((s) => s.outcome)).toEqual(['paid', 'paid']);
      expect(run.told.map((t) => t.event.type)).not.toContain('order.repriced_refunded');
      expect(run.refunded(chargeId, 'THB'), 'what the service gave back of the payment the shop was told paid the order').toBe(0);
    });
  });

  // Shrunk: pay by card (its webhook held) | restart | pay by card, the answer lost | (the end: the held webhooks arrive, the tab retries with its key).
  it('answers a retry after a restart with the charge its own key made, and keeps one payment for the order', async () => {
    await replay(sequence(true, card, { type: 'restart', instance: 0 }, lostCard), (run) => {
      const retried = run.tabs[1]!;
      expect(retried.chargeId, 'the charge the retried tab is answered').toBe(run.made.get(retried.key));
      const kept = run.chargesOfOrder().filter((c) => c.status === 'SUCCEEDED').reduce((sum, c) => sum + c.amount - run.refunded(c.chargeId, c.currency), 0);
      expect(kept, 'what the service keeps for the order').toBe(PRICE);
    });
  });

  // Shrunk: pay by card | read its status (paid: the shop stops offering the order), at the same
  // moment a restart and another tab paying, its answer lost | (the end: the held webhooks arrive).
  it('keeps the payment that paid the order when an attempt started moments after it, in the store a restart emptied, lost its answer', async () => {
    const together = (event: ModelStep['event']): ModelStep => ({ event, together: true });
    const scenario: Scenario = {
      ...sequence(true, card, { type: 'status', payment: 0, via: 0 }),
      steps: [{ event: card, together: false }, { event: { type: 'status', payment: 0, via: 0 }, together: false }, together({ type: 'restart', instance: 0 }), together({ ...lostCard, method: '3ds', replace: true })],
    };
    await replay(scenario, (run) => {
      const chargeId = run.tabs[0]!.chargeId!;
      // Told again after the restart (the emptied store forgot it was told), but only that it paid.
      expect(new Set(run.told.filter((t) => t.event.chargeId === chargeId).map((t) => t.event.type))).toEqual(new Set(['order.paid']));
      expect(run.refunded(chargeId, 'THB'), 'what the service gave back of the payment the shop was told paid the order').toBe(0);
    });
  });

  // Shrunk: a QR code | pay by card instead | the QR's status read, and at that moment another tab
  // pays by card (refused: the order is paid, onOrder hears order.paid of the card, the shop stops
  // offering the order) | a restart empties the store, and at that moment the old QR code is paid
  // and another tab tries to pay.
  it('keeps the card payment that paid the order first when a QR code made before it is paid after a restart emptied the store', async () => {
    const together = (event: ModelStep['event']): ModelStep => ({ event, together: true });
    const scenario: Scenario = {
      ...sequence(true, card),
      steps: [
        { event: { ...card, method: 'qr' }, together: false },
        { event: { ...card, replace: true }, together: false },
        { event: { type: 'status', payment: 0, via: 0 }, together: false },
        together({ ...card, replace: true }),
        { event: { type: 'restart', instance: 0 }, together: false },
        together({ type: 'approve', payment: 0, succeed: true }),
        together(card),
      ],
    };
    await replay(scenario, (run) => {
      const qr = run.tabs[0]!.chargeId!;
      const paidByCard = run.tabs[1]!.chargeId!;
      // Told again after the restart (the emptied store forgot it was told), but only of the card.
      expect(new Set(run.told.filter((t) => t.event.type === 'order.paid').map((t) => t.event.chargeId)), 'onOrder heard paid').toEqual(new Set([paidByCard]));
      expect(run.refunded(paidByCard, 'THB'), 'what the service gave back of the payment the shop was told paid the order').toBe(0);
      expect(run.refunded(qr, 'THB'), 'the QR code paid after the order was').toBe(PRICE);
    });
  });

  // Shrunk: pay by card, the answer lost (the charge made) | pay by card in another tab | a third
  // tab pays instead | a restart empties the store | (the end: the held webhooks arrive, the first
  // tab retries, every payment's page reads its status). The lost charge paid the order: the next
  // tab reads the order's charges at the service before it may charge, and finds it.
  it('keeps the charge whose answer was lost as the order\'s payment, and charges no other tab, when the shop names its payer after a restart', async () => {
    const approve = { type: 'approve', payment: 0, succeed: true } as const;
    await replay({ ...sequence(true, lostCard, card, { ...card, replace: true }, approve, approve, { type: 'restart', instance: 0 }), namesPayer: true }, (run) => {
      const lost = run.made.get(run.tabs[0]!.key)!;
      expect(run.db.paid).toBe(lost);
      expect(run.tabs.slice(1).map((tab) => tab.chargeId), 'the tabs after it').toEqual([undefined, undefined]);
      expect(run.told.filter((t) => t.event.chargeId === lost).map((t) => t.event.type), 'what onOrder heard of it').not.toContain('order.duplicate_refunded');
      expect(run.refunded(lost, 'THB'), 'what the service gave back of the payment the shop was told paid the order').toBe(0);
      expect(run.chargesOfOrder(), 'the charges of the order').toHaveLength(1);
    });
  });

  // A QR code, paid (its webhook held) | a restart empties the store | pay by card in another tab,
  // its page reads its status (paid: onOrder hears order.paid) | a restart again | (the end: the
  // held webhooks arrive, every payment's page reads its status). The service's first success is
  // the QR code, which the emptied store never settled; the shop was told of the card, and names it.
  it('keeps the payment the shop was told paid the order, not the service\'s first success, when the shop names it after a restart', async () => {
    const restart = { type: 'restart', instance: 0 } as const;
    await replay({ ...sequence(true, { ...card, method: 'qr' }, { type: 'approve', payment: 0, succeed: true }, restart, card, { type: 'status', payment: 1, via: 0 }, restart), namesPayer: true }, (run) => {
      const qr = run.tabs[0]!.chargeId!;
      const told = run.tabs[1]!.chargeId!;
      expect(run.db.paid).toBe(told);
      expect(run.told.filter((t) => t.event.chargeId === told).map((t) => t.event.type), 'what onOrder heard of the payment it was told paid the order').not.toContain('order.duplicate_refunded');
      expect(run.refunded(told, 'THB'), 'what the service gave back of the payment the shop was told paid the order').toBe(0);
      expect(run.refunded(qr, 'THB'), 'the QR code the store forgot').toBe(PRICE);
    });
  });

  // A QR code | the shop reprices the order | the QR code is paid, its page reads its status (refunded:
  // repriced) | pay by card at the new price, its page reads its status (paid: onOrder hears
  // order.paid, the shop stops offering the order) | a restart empties the store | (the end: the
  // held webhooks arrive, every payment's page reads its status). The shop answers null for the
  // paid order: the service's first success decides, and the QR code, refunded at the old price,
  // paid nothing.
  it('keeps the payment that paid the order after a restart when the service\'s first success was refunded for its old price', async () => {
    await replay(sequence(true, { ...card, method: 'qr' }, { type: 'reprice', price: 30_000 }, { type: 'approve', payment: 0, succeed: true }, { type: 'status', payment: 0, via: 0 }, card, { type: 'status', payment: 1, via: 0 }, { type: 'restart', instance: 0 }), (run) => {
      const qr = run.tabs[0]!.chargeId!;
      const paid = run.tabs[1]!.chargeId!;
      expect(run.db.paid).toBe(paid);
      expect(run.refunded(qr, 'THB'), 'the QR code at the old price').toBe(PRICE);
      expect(run.refunded(paid, 'THB'), 'what the service gave back of the payment the shop was told paid the order').toBe(0);
      expect(run.told.filter((t) => t.event.chargeId === paid).map((t) => t.event.type), 'what onOrder heard of the payment that paid').not.toContain('order.duplicate_refunded');
    });
  });

  // Shrunk (an extra invariant: each tab is answered the charge its key made): pay by card, the
  // answer lost | again, the answer lost | (the end: the held webhooks arrive, each tab retries with its key).
  it('answers a retry with the charge its own key made when two attempts lost their answers', async () => {
    await replay(sequence(false, lostCard, lostCard), (run) => {
      const kept = run.chargesOfOrder().filter((c) => c.status === 'SUCCEEDED' && run.refunded(c.chargeId, c.currency) === 0);
      expect(kept).toHaveLength(1);
      for (const tab of run.tabs.filter((t) => t.chargeId !== undefined)) expect(tab.chargeId, `the charge tab ${tab.n} is answered`).toBe(run.made.get(tab.key));
    });
  });
});
