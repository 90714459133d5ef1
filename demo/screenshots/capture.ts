/**
 * Takes the README's screenshots from a running demo (`npm start`, or the end-to-end stack):
 *
 *   npx tsx demo/screenshots/capture.ts [http://localhost:5173]
 *
 * in the system Chromium (CHROMIUM_PATH), with Thai fonts installed (Debian: fonts-thai-tlwg) so
 * that Thai shows as Thai. Writes checkout-card.png, checkout-promptpay-th.png and theming.png next
 * to this file.
 */
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright';

const BASE = process.argv[2] ?? 'http://localhost:5173';
const DIR = fileURLToPath(new URL('.', import.meta.url));
const YEAR = String((new Date().getFullYear() + 3) % 100).padStart(2, '0');

async function ready(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^(Pay|ชำระเงิน) ฿/ }).waitFor();
  // The marks and the other panels come right after the first render.
  await page.waitForTimeout(500);
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const card = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await card.goto(`${BASE}/`);
  await ready(card);
  await card.getByLabel('Card number').pressSequentially('4111111111111111');
  await card.getByLabel('Expiry date').pressSequentially(`12${YEAR}`);
  await card.getByLabel('Security code').pressSequentially('123');
  await card.getByLabel('Name on card').pressSequentially('Somchai Jaidee');
  await card.waitForTimeout(300);
  await card.screenshot({ path: `${DIR}checkout-card.png`, fullPage: true, animations: 'disabled' });

  const qr = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await qr.goto(`${BASE}/`);
  await ready(qr);
  await qr.getByRole('navigation', { name: 'Language' }).getByRole('button', { name: 'ไทย' }).click();
  await qr.getByRole('radio', { name: 'พร้อมเพย์ QR' }).check();
  await qr.getByRole('button', { name: /^ชำระเงิน ฿/ }).click();
  await qr.locator('satang-qr-payment svg[role="img"]').waitFor();
  await qr.waitForTimeout(300);
  await qr.screenshot({ path: `${DIR}checkout-promptpay-th.png`, fullPage: true, animations: 'disabled' });

  const themes = await browser.newPage({ viewport: { width: 1500, height: 900 } });
  await themes.goto(`${BASE}/demo/theming/`);
  await themes.locator('satang-checkout').first().getByRole('button', { name: /^Pay ฿/ }).waitFor();
  await themes.waitForTimeout(500);
  for (const field of await themes.getByLabel('Card number').all()) await field.pressSequentially('5555555555554444');
  await themes.waitForTimeout(300);
  await themes.screenshot({ path: `${DIR}theming.png`, fullPage: true, animations: 'disabled' });
} finally {
  await browser.close();
}
