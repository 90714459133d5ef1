import { chromium, type Browser, type Page } from 'playwright';
import { CHROMIUM_PATH } from './chromium-path.js';

/**
 * A shopper in the system Chromium, for the vitest suites that serve a whole page (the React
 * server-rendering test, the Next.js app): Playwright's own browser download is not used, and a
 * browser that cannot start fails the test.
 */

export async function launchChromium(): Promise<Browser> {
  try {
    return await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'] });
  } catch (error) {
    throw new Error(`Chromium did not start from ${CHROMIUM_PATH} (set CHROMIUM_PATH): ${String(error)}`, { cause: error });
  }
}

/** An expiry two years ahead, as MM/YY. */
export const FUTURE_EXPIRY = `12/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;

/**
 * Pays with the sandbox's test Visa, 4111 1111 1111 1111, any future expiry and CVC 123, typed
 * into the English card form of the page's `<satang-checkout>` as a shopper types it.
 */
export async function payWithTestCard(page: Page): Promise<void> {
  const checkout = page.locator('satang-checkout');
  await checkout.getByLabel('Card number').pressSequentially('4111111111111111');
  await checkout.getByLabel('Expiry date').pressSequentially(FUTURE_EXPIRY);
  await checkout.getByLabel('Security code').pressSequentially('123');
  await checkout.getByLabel('Name on card').pressSequentially('Somchai Jaidee');
  await checkout.getByRole('button', { name: /^Pay ฿/ }).click();
}

/** What the page and its console said, for a failing test's message. */
export function pageLog(page: Page): string[] {
  const lines: string[] = [];
  page.on('console', (message) => lines.push(`console.${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => lines.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => lines.push(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`));
  page.on('response', (response) => {
    if (response.status() >= 400) lines.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  return lines;
}
