import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryCheckoutStore } from '../../../src/server/index.js';
import { CheckoutError } from '../../../src/server/checkout/checkout-error.js';
import { WEBHOOK_IN_HAND_MS, WebhookLedger, type StateKeeper } from '../../../src/server/webhooks/webhook-ledger.js';
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

describe('WebhookLedger when a handling outlives its mark in hand', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('does not let go of another delivery’s mark when it fails after its own ran out', async () => {
    let now = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const store = new MemoryCheckoutStore({ now: () => now });
    const state = succeeded(new Date(now).toISOString());
    const [a, b, c] = [new WebhookLedger(store, TTL_MS), new WebhookLedger(store, TTL_MS), new WebhookLedger(store, TTL_MS)];
    let failA: (error: Error) => void = () => undefined;
    let startedA: () => void = () => undefined;
    const aStarted = new Promise<void>((resolve) => (startedA = resolve));
    const handlingA = a.handleOnce(state, () => {
      startedA();
      return new Promise<void>((_resolve, reject) => (failA = reject));
    });
    await aStarted;
    // A's handler takes longer than its mark lasts: a retry of the state on B takes it.
    now += WEBHOOK_IN_HAND_MS + 1;
    let finishB: () => void = () => undefined;
    let startedB: () => void = () => undefined;
    const bStarted = new Promise<void>((resolve) => (startedB = resolve));
    const handlingB = b.handleOnce(state, () => {
      startedB();
      return new Promise<void>((resolve) => (finishB = resolve));
    });
    await bStarted;
    failA(new Error('onEvent failed'));
    await expect(handlingA).rejects.toThrow('onEvent failed');
    // B still holds the state: a third delivery is turned away, not handled beside it.
    const third: string[] = [];
    await expect(c.handleOnce(state, () => Promise.resolve(void third.push('handled')))).rejects.toMatchObject({ status: 503 });
    expect(third).toEqual([]);
    finishB();
    expect(await handlingB).toBe('handled');
  });
});

/** Keeps a resource's newest state handled in itself, as a payment's entry in its order's record does: written by the handler. */
class HeardHere implements StateKeeper {
  heard: number | undefined;
  reads = 0;
  constructor(heard: number | undefined) {
    this.heard = heard;
  }
  read(): Promise<{ heard: number | undefined }> {
    this.reads += 1;
    return Promise.resolve({ heard: this.heard });
  }
}

describe('WebhookLedger with the states kept elsewhere', () => {
  it('reads what was handled where it is kept, and keeps nothing of its own but the mark in hand', async () => {
    let now = Date.now();
    const store = new MemoryCheckoutStore({ now: () => now });
    const ledger = new WebhookLedger(store, TTL_MS);
    const state = succeeded(new Date(now).toISOString());
    const keeper = new HeardHere(0);
    const handled: string[] = [];
    const handle = () => {
      handled.push(state.status);
      keeper.heard = state.version;
      return Promise.resolve();
    };
    expect(await ledger.handleOnce(state, handle, keeper)).toBe('handled');
    expect(await store.get(`webhook-newest:${state.resource}`)).toBeUndefined();
    expect(await store.get(`webhook:${state.resource}:${state.status}:${state.at}`)).toBe('in-hand');
    expect(await ledger.handleOnce(state, handle, keeper)).toBe('duplicate');
    now += WEBHOOK_IN_HAND_MS + 1;
    expect(await ledger.handleOnce(state, handle, keeper)).toBe('duplicate');
    const older = succeeded(new Date(now - 60_000 - WEBHOOK_IN_HAND_MS).toISOString());
    expect(await ledger.handleOnce(older, handle, keeper)).toBe('stale');
    expect(handled).toEqual(['SUCCEEDED']);
  });

  it('reads its own records beside a keeper that cannot tell what was handled before it kept the resource', async () => {
    const store = new MemoryCheckoutStore();
    const state = succeeded();
    // Handled before, with the ledger's own records.
    expect(await new WebhookLedger(store, TTL_MS).handleOnce(state, () => Promise.resolve())).toBe('handled');
    const keeper = new HeardHere(undefined);
    const ledger = new WebhookLedger(store, TTL_MS);
    expect(await ledger.handleOnce(state, () => Promise.reject(new Error('handled twice')), keeper)).toBe('duplicate');
    const older = succeeded(new Date(Date.parse(state.at) - 1_000).toISOString());
    expect(await ledger.handleOnce(older, () => Promise.reject(new Error('an older state handled')), keeper)).toBe('stale');
    expect(keeper.reads).toBe(2);
  });
});
