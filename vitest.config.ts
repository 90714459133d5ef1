import { playwright } from '@vitest/browser-playwright';
import { configDefaults, defineConfig } from 'vitest/config';
import { CHROMIUM_PATH } from './test/support/chromium-path.js';
import { LongestFirstSequencer } from './test/support/longest-first.js';
import { BROWSER_PAGE_PORT, BROWSER_SANDBOX_PORT, BROWSER_SHOP_PORT } from './test/browser/ports.js';

const BROWSER_TESTS = 'test/**/*.browser.test.ts';
/**
 * What `npm run test:quick` leaves to `npm test`: the suites that build and start whole apps (Next.js,
 * the packed package, bundlers, the size budget). Everything else runs, against the real sandbox
 * and redis-server as always.
 */
const SLOW_SUITES = ['test/next/**', 'test/build/**', 'test/size-budget.test.ts'];
const QUICK = process.env.TEST_QUICK === '1';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    // The files that build whole apps start first, on a fresh clone as on a machine that ran before.
    sequence: { sequencer: LongestFirstSequencer },
    // The JSON report feeds the one-line summary that .ci/run prints; it covers both projects.
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
    // Lit announces its development build on every browser page; nothing else is filtered.
    onConsoleLog: (log) => !log.includes('Lit is in dev mode'),
    // `npm run test:coverage`: V8 coverage of the sources, from both projects (in Chromium through
    // the Playwright provider's CDP session), summed over the whole run. Child processes the tests
    // start (the sandbox's CLI, built apps) and the e2e suite are not counted.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'reports/coverage',
      // A test that fails on a busy machine leaves the rest of the run's coverage worth reading.
      reportOnFailure: true,
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          // Most of these wait on sockets, child processes and timers rather than compute: three
          // files at a time on two cores halve the run (measured: 200 s to 101 s for test:quick).
          // Run before the browser project, which keeps its one Chromium.
          maxWorkers: 3,
          sequence: { groupOrder: 0 },
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, BROWSER_TESTS, ...(QUICK ? SLOW_SUITES : [])],
        },
      },
      {
        extends: true,
        // Pre-bundled before the first test (Vite also scans the test files for imports), so a fresh
        // machine does not reload the page mid-run. Add a dependency here if Vitest warns that it
        // "unexpectedly reloaded a test".
        optimizeDeps: { include: ['lit', 'lit/decorators.js', 'qr', 'qr/decode.js', 'jsqr'] },
        // The page reaches the shop's server and the sandbox same-origin, as a shop's page would.
        server: {
          proxy: {
            // The Host header stays the page's, so the shop's server sees its own origin calling.
            '/api/checkout': { target: `http://127.0.0.1:${BROWSER_SHOP_PORT}`, changeOrigin: false },
            '/client': `http://127.0.0.1:${BROWSER_SANDBOX_PORT}`,
            '/sandbox': `http://127.0.0.1:${BROWSER_SANDBOX_PORT}`,
            '/api/v1': `http://127.0.0.1:${BROWSER_SANDBOX_PORT}`,
          },
        },
        test: {
          name: 'browser',
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          include: [BROWSER_TESTS],
          globalSetup: ['test/browser/backend.ts'],
          browser: {
            enabled: true,
            // A fixed port: the shop's server only sends shoppers back to its own public origin, this page's.
            api: { port: BROWSER_PAGE_PORT, strictPort: true },
            headless: true,
            provider: playwright({
              launchOptions: {
                // The system Chromium: test/support/chromium-path.ts says which build (CHROMIUM_PATH overrides it).
                executablePath: CHROMIUM_PATH,
                args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage', '--no-first-run'],
              },
            }),
            instances: [{ browser: 'chromium' }],
            screenshotFailures: false,
          },
        },
      },
    ],
  },
});
