import { defineConfig } from '@playwright/test';
import { CHROMIUM_PATH } from './test/support/chromium-path.js';

/** The demo stack the end-to-end tests start, apart from the one `npm start` runs on 5173 / 4010. */
export const E2E_SHOP_PORT = Number(process.env.E2E_SHOP_PORT ?? 5174);
export const E2E_SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT ?? 4011);

export default defineConfig({
  testDir: 'e2e',
  // A whole payment (a page of the dev server, the sandbox's pages, a status wait) with axe scans on
  // a 2-core machine running two workers: waits inside a test are on events; this is only its deadline.
  timeout: 60_000,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  // The JSON report feeds the one-line summary that .ci/run prints.
  // E2E_ELEMENTS=built (npm run test:e2e:built) serves the pages the built elements (e2e/support.ts).
  reporter: [['list'], ['json', { outputFile: process.env.E2E_ELEMENTS === 'built' ? 'reports/playwright-built.json' : 'reports/playwright.json' }]],
  outputDir: 'test-results',
  use: {
    baseURL: `http://localhost:${E2E_SHOP_PORT}`,
    browserName: 'chromium',
    launchOptions: {
      // The system Chromium: test/support/chromium-path.ts says which build (CHROMIUM_PATH overrides it).
      executablePath: CHROMIUM_PATH,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  // The whole demo stack, as `npm start` runs it: the shop (Vite, the checkout handler) and the sandbox.
  webServer: {
    command: 'npx tsx demo/dev-server.ts --quiet',
    env: { PORT: String(E2E_SHOP_PORT), SANDBOX_PORT: String(E2E_SANDBOX_PORT), DEMO_RATE_LIMIT: 'off' },
    url: `http://127.0.0.1:${E2E_SHOP_PORT}/api/demo/catalogue`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
