/**
 * Runs tasks one after another per key, and tasks of different keys side by side: the webhooks
 * of one resource are handled in turn, so an older state is known to be older before `onEvent`
 * hears it. Holds nothing once a key's tasks are done.
 */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Keys with tasks queued or running (for tests and metrics). */
  get size(): number {
    return this.#tails.size;
  }
}
