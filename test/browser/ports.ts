/** Loopback ports of the browser tests' backend (test/browser/backend.ts), proxied by the test server. */
export const BROWSER_SANDBOX_PORT = 4321;
export const BROWSER_SHOP_PORT = 4322;
