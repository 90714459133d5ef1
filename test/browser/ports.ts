/** Loopback ports of the browser tests' backend (test/browser/backend.ts), proxied by the test server, and of the test page itself. */
export const BROWSER_SANDBOX_PORT = 4321;
export const BROWSER_SHOP_PORT = 4322;
/** The test server the browser's page comes from: the shop's public origin, where return URLs lead. */
export const BROWSER_PAGE_PORT = 63315;
export const BROWSER_PAGE_ORIGIN = `http://localhost:${BROWSER_PAGE_PORT}`;
