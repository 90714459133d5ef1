import { test as base } from 'vitest';
import { listenSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';

/** What {@link sandboxTest} gives a test. Each fixture is set up only when the test names it. */
export interface SandboxFixtures {
  /**
   * How the `sandbox` fixture is set up: none by default. A `describe` changes them with
   * `sandboxTest.override('sandboxOptions', { … })`.
   */
  sandboxOptions: SandboxOptions;
  /** A real sandbox listening on a free loopback port for this test, closed after it. */
  sandbox: RunningSandbox;
  /**
   * Starts a sandbox on a free loopback port, closed after the test, for options only known inside
   * it (a webhook URL to a shop the test started first) or for a second sandbox.
   */
  startSandbox: (options?: SandboxOptions) => Promise<RunningSandbox>;
}

/**
 * `it` with a sandbox on a socket: `sandboxTest('…', async ({ sandbox }) => …)`. The sandbox and
 * everything `startSandbox` started stop after the test, whether it passed or not, and the port is
 * the system's choice, so suites running side by side never collide.
 */
export const sandboxTest = base.extend<SandboxFixtures>({
  sandboxOptions: {},
  // eslint-disable-next-line no-empty-pattern -- Vitest reads the fixtures a fixture needs from this pattern
  startSandbox: async ({}, use) => {
    const started: RunningSandbox[] = [];
    await use(async (options = {}) => {
      const running = await listenSandbox({ ...options, port: 0, host: '127.0.0.1' });
      started.push(running);
      return running;
    });
    await Promise.all(started.map((running) => running.close()));
  },
  sandbox: async ({ sandboxOptions, startSandbox }, use) => {
    await use(await startSandbox(sandboxOptions));
  },
});
