import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * The clock of a countdown to a deadline. While the host shows it running, the clock is read
 * again on the deadline's own second boundaries, so the time shown and the deadline land together,
 * and every tick asks the host to update. It starts when the host connects (reading the clock
 * afresh, as the host may have been away) and stops when the host leaves the DOM; no timer is left
 * once the deadline has passed or the countdown is no longer shown.
 */
export class CountdownController implements ReactiveController {
  readonly #host: ReactiveControllerHost & Element;
  readonly #deadline: () => number;
  readonly #running: () => boolean;
  /** The time the host renders against, in ms since the epoch: moved by a tick, a connection or {@link reset}. */
  #now = Date.now();
  #timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * `deadline` answers the deadline in ms since the epoch (NaN for none: nothing ticks); `running`
   * whether the countdown is on show, read after each of the host's updates.
   */
  constructor(host: ReactiveControllerHost & Element, deadline: () => number, running: () => boolean) {
    this.#host = host;
    this.#deadline = deadline;
    this.#running = running;
    host.addController(this);
  }

  /**
   * Time left until the deadline, in ms, as of the clock's last reading (what the host renders):
   * 0 or less once it has passed, NaN without a deadline.
   */
  get leftMs(): number {
    return this.#deadline() - this.#now;
  }

  /** Reads the clock again without asking for an update: for a new deadline, set in the host's `willUpdate`. */
  reset(): void {
    this.#now = Date.now();
  }

  hostConnected(): void {
    // Re-arms the countdown after the host was moved or re-attached.
    this.reset();
    this.#host.requestUpdate();
  }

  hostDisconnected(): void {
    clearTimeout(this.#timer);
  }

  hostUpdated(): void {
    clearTimeout(this.#timer);
    // Nothing more to count once the time shown has reached the deadline (or there is none); an
    // update may also run after the host left the DOM.
    if (!this.#host.isConnected || !this.#running() || !(this.leftMs > 0)) return;
    const left = this.#deadline() - Date.now();
    // A deadline that passed since the clock was read (a throttled timer, a late update) is shown at once.
    this.#timer = setTimeout(
      () => {
        this.reset();
        this.#host.requestUpdate();
      },
      left > 0 ? left % 1000 || 1000 : 0,
    );
  }
}
