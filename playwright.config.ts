import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests in the system Chromium (Playwright's own browser download is not used):
 * CHROMIUM_PATH overrides where it is.
 */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The sandbox the end-to-end tests start, apart from the one `npm start` runs on 4010. */
export const E2E_SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT ?? 4011);

export default defineConfig({
  testDir: 'e2e',
  timeout: 30_000,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  // The JSON report feeds the one-line summary that .ci/run prints.
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: `node bin/satang-sandbox.js --port ${E2E_SANDBOX_PORT} --quiet`,
    url: `http://127.0.0.1:${E2E_SANDBOX_PORT}/sandbox/health`,
    reuseExistingServer: !process.env.CI,
    timeout: 30_000,
  },
});
