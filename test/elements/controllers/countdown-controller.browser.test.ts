import { LitElement } from 'lit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CountdownController } from '../../../src/elements/controllers/countdown-controller.js';

class CountdownHost extends LitElement {
  deadlineMs = Number.NaN;
  shown = true;
  updates = 0;
  readonly clock = new CountdownController(
    this,
    () => this.deadlineMs,
    () => this.shown,
  );

  protected override updated(): void {
    this.updates += 1;
  }
}
customElements.define('countdown-controller-host', CountdownHost);

async function mount(deadlineMs: number): Promise<CountdownHost> {
  const host = new CountdownHost();
  host.deadlineMs = deadlineMs;
  document.body.append(host);
  await host.updateComplete;
  return host;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(new Date('2026-01-01T00:00:00.000Z'));
});

afterEach(() => {
  document.body.replaceChildren();
  vi.useRealTimers();
});

describe('CountdownController', () => {
  describe('while the host shows a countdown', () => {
    it("ticks on the deadline's own second boundaries and asks the host to update on each", async () => {
      const host = await mount(Date.now() + 2_300);
      const updates = host.updates;
      expect(host.clock.leftMs).toBe(2_300);

      await vi.advanceTimersByTimeAsync(299);
      expect(host.updates).toBe(updates);
      await vi.advanceTimersByTimeAsync(1);
      expect(host.clock.leftMs).toBe(2_000);
      expect(host.updates).toBe(updates + 1);

      await vi.advanceTimersByTimeAsync(1_000);
      expect(host.clock.leftMs).toBe(1_000);
      expect(host.updates).toBe(updates + 2);
    });

    it('leaves no timer once the deadline has passed', async () => {
      const host = await mount(Date.now() + 1_500);
      await vi.advanceTimersByTimeAsync(1_500);
      expect(host.clock.leftMs).toBe(0);
      expect(vi.getTimerCount()).toBe(0);
    });
  });

  it('shows at once a deadline that passed while its tick was held back', async () => {
    const host = await mount(Date.now() + 5_000);
    // The tick is late (a throttled background tab) and another update comes first.
    vi.setSystemTime(Date.now() + 5_300);
    host.requestUpdate();
    await host.updateComplete;
    expect(host.clock.leftMs).toBe(5_000);

    await vi.advanceTimersByTimeAsync(0);
    expect(host.clock.leftMs).toBe(-300);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not tick without a deadline or while the countdown is not shown', async () => {
    await mount(Number.NaN);
    expect(vi.getTimerCount()).toBe(0);

    const hidden = await mount(Date.now() + 60_000);
    expect(vi.getTimerCount()).toBe(1);
    hidden.shown = false;
    hidden.requestUpdate();
    await hidden.updateComplete;
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops when the host leaves the DOM and reads the clock afresh when it comes back', async () => {
    const host = await mount(Date.now() + 60_000);
    host.remove();
    expect(vi.getTimerCount()).toBe(0);

    await vi.advanceTimersByTimeAsync(10_000);
    expect(host.clock.leftMs).toBe(60_000);
    document.body.append(host);
    expect(host.clock.leftMs).toBe(50_000);
    await host.updateComplete;
    expect(vi.getTimerCount()).toBe(1);
  });

  it('reset() reads the clock again without an update of its own', async () => {
    const host = await mount(Date.now() + 60_000);
    vi.setSystemTime(Date.now() + 400);
    const updates = host.updates;
    host.clock.reset();
    expect(host.clock.leftMs).toBe(59_600);
    await host.updateComplete;
    expect(host.updates).toBe(updates);
  });
});
