import { test as base } from 'vitest';
import { listenSandbox, type RunningSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { newSandbox, type SandboxClient } from './sandbox-client.js';

/** A sandbox running in this process and the client that calls its `fetch`. */
export interface InProcessSandbox {
  sandbox: Sandbox;
  client: SandboxClient;
}

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
  /**
   * Starts a sandbox in this process, with no socket, and a {@link SandboxClient} for it:
   * `const { sandbox, client } = startInProcess({ … })`. The test states its options where it
   * starts the sandbox; every sandbox started this way is closed after the test.
   */
  startInProcess: (options?: SandboxOptions) => InProcessSandbox;
}

/**
 * `it` with a sandbox on a socket: `sandboxTest('…', async ({ sandbox }) => …)`, or in this process:
 * `sandboxTest('…', async ({ startInProcess }) => …)`. The sandboxes stop after the test, whether
 * it passed or not, and a socket's port is the system's choice, so suites running side by side
 * never collide.
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
  // eslint-disable-next-line no-empty-pattern -- Vitest reads the fixtures a fixture needs from this pattern
  startInProcess: async ({}, use) => {
    const started: Sandbox[] = [];
    await use((options = {}) => {
      const made = newSandbox(options);
      started.push(made.sandbox);
      return made;
    });
    for (const sandbox of started) sandbox.close();
  },
});
