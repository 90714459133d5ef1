/**
 * Loopback ports of the browser tests' backend (test/browser/backend.ts), proxied by the test
 * server, and of the test page itself. `SATANG_TEST_PORT_OFFSET` moves them all, so two checkouts
 * of the repository can run their browser tests at once on one machine.
 */
const offset = Number(process.env.SATANG_TEST_PORT_OFFSET ?? 0);
if (!Number.isSafeInteger(offset) || offset < 0 || offset > 1000) throw new Error(`SATANG_TEST_PORT_OFFSET must be a whole number from 0 to 1000, not ${process.env.SATANG_TEST_PORT_OFFSET}`);
export const BROWSER_SANDBOX_PORT = 4321 + offset;
export const BROWSER_SHOP_PORT = 4322 + offset;
/** The test server the browser's page comes from: the shop's public origin, where return URLs lead. */
export const BROWSER_PAGE_PORT = 63315 + offset;
export const BROWSER_PAGE_ORIGIN = `http://localhost:${BROWSER_PAGE_PORT}`;
