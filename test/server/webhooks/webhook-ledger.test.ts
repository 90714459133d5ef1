import { describe, expect, it } from 'vitest';
import { MemoryCheckoutStore } from '../../../src/server/index.js';
import { CheckoutError } from '../../../src/server/checkout/checkout-error.js';
import { WEBHOOK_IN_HAND_MS, WebhookLedger } from '../../../src/server/webhooks/webhook-ledger.js';
import { webhookState } from '../../../src/server/webhooks/webhook-state.js';

const TTL_MS = 3 * 24 * 60 * 60 * 1000;

function succeeded(at = new Date().toISOString()) {
  return webhookState({ name: 'charge.succeeded', payload: { chargeId: 'ch_1', status: 'SUCCEEDED', updatedAt: at } } as never);
}

describe('WebhookLedger across instances sharing a store', () => {
  it('tells another instance to send again later while one handles a state, then calls it a duplicate', async () => {
    const store = new MemoryCheckoutStore();
    const [a, b] = [new WebhookLedger(store, TTL_MS), new WebhookLedger(store, TTL_MS)];
    const state = succeeded();
    let finish: () => void = () => undefined;
    // The handler runs only once A holds the state's mark: from then on, B must be turned away.
    let handlerCalled: () => void = () => undefined;
    const inHand = new Promise<void>((resolve) => (handlerCalled = resolve));
    const handling = a.handleOnce(state, () => {
      handlerCalled();
      return new Promise<void>((resolve) => (finish = resolve));
    });
    await inHand;
    const meanwhile = await b.handleOnce(state, () => Promise.resolve()).catch((error: unknown) => error);
    expect(meanwhile).toBeInstanceOf(CheckoutError);
    expect(meanwhile).toMatchObject({ status: 503, retryable: true });
    finish();
    expect(await handling).toBe('handled');
    expect(await b.handleOnce(state, () => Promise.resolve())).toBe('duplicate');
  });

  it('leaves a state whose handler died to the next retry once its mark in hand runs out, not marked handled', async () => {
    let now = Date.now();
    const store = new MemoryCheckoutStore({ now: () => now });
    const state = succeeded(new Date(now).toISOString());
    // An instance takes the state and dies in its handler: nothing ever finishes it.
    let handlerCalled: () => void = () => undefined;
    const inHand = new Promise<void>((resolve) => (handlerCalled = resolve));
    void new WebhookLedger(store, TTL_MS).handleOnce(state, () => {
      handlerCalled();
      return new Promise<void>(() => undefined);
    });
    await inHand;
    const other = new WebhookLedger(store, TTL_MS);
    await expect(other.handleOnce(state, () => Promise.resolve())).rejects.toMatchObject({ status: 503 });
    now += WEBHOOK_IN_HAND_MS + 1;
    const calls: string[] = [];
    expect(
      await other.handleOnce(state, () => {
        calls.push('handled');
        return Promise.resolve();
      }),
    ).toBe('handled');
    expect(calls).toEqual(['handled']);
  });
});
