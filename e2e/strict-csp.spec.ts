import type { Page } from '@playwright/test';
import {
  CARDS,
  chooseMethod,
  ELEMENT_FILES,
  expect,
  expectPaid,
  expectSamePage,
  FROM_THE_SERVER,
  markPage,
  onlyChargeFor,
  orderReference,
  OTP,
  payButton,
  qrCode,
  SANDBOX,
  scanQr,
  serveBuiltElements,
  test,
  typeCard,
} from './support.js';

/**
 * Every path of the checkout on /demo/csp/, whose policy allows scripts and styles only as files
 * from the shop and enforces Trusted Types (`require-trusted-types-for 'script'`, not report-only):
 * a 3-D Secure card payment there and back, a PromptPay QR drawn by its lazy chunk, and a slip
 * read by the QR reader chunk. Each must end with the browser having blocked nothing, both with the
 * elements' source modules (as the dev server serves them) and with the built satang.js and its
 * chunks, the files a merchant ships.
 */

/**
 * Collects every violation the browser reports on the page, across navigations: the
 * `securitypolicyviolation` events (they bubble out of shadow roots), the console's CSP and
 * Trusted Types errors, and uncaught errors (a refused Trusted Types sink throws).
 */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('__cspViolation', (line: string) => void violations.push(line));
  await page.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (event) => (window as unknown as { __cspViolation: (line: string) => void }).__cspViolation(`${location.pathname}: ${event.effectiveDirective} ${event.blockedURI} ${event.sample}`),
      true,
    );
  });
  page.on('console', (message) => {
    if (/Content.Security.Policy|Trusted.?Type|TrustedHTML|TrustedScript/i.test(message.text())) violations.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => void violations.push(`page error: ${error.message}`));
  return violations;
}

/** Opens the strict-CSP page with a new cart, checking the policy really is the enforced one. */
async function openCspShop(page: Page): Promise<string> {
  const answer = await page.goto('/demo/csp/');
  const headers = answer!.headers();
  expect(headers['content-security-policy']).toContain("require-trusted-types-for 'script'");
  expect(headers['content-security-policy']).toContain("script-src 'self'");
  expect(headers['content-security-policy-report-only'], 'the policy is enforced, not report-only').toBeUndefined();
  await expect(payButton(page)).toBeVisible();
  return orderReference(page);
}

test('the strict-CSP page enforces Trusted Types, and a violation there is heard', async ({ page }) => {
  const violations = await watchViolations(page);
  await openCspShop(page);
  // A plain string in a script sink throws: the policy is enforced, and an empty list below means something.
  const outcome = await page.evaluate(() => {
    try {
      document.createElement('div').innerHTML = '<b>probe</b>';
      return 'accepted';
    } catch (error) {
      return (error as Error).name;
    }
  });
  expect(outcome).toBe('TypeError');
  await expect.poll(() => violations.join('\n')).toMatch(/require-trusted-types-for/);
});

/** Where the page's elements come from: the source modules the dev server serves, or the built file a merchant ships. */
type Source = 'the source modules' | 'the built satang.js';

/**
 * Serves the page's elements from the production build (`serveBuiltElements`), or lets the dev
 * server serve the sources. Answers the paths the page requests.
 */
async function loadElements(page: Page, source: Source): Promise<string[]> {
  const paths: string[] = [];
  page.on('request', (r) => void paths.push(new URL(r.url()).pathname));
  if (source === 'the built satang.js') await serveBuiltElements(page);
  // Where every test runs on the built files (E2E_ELEMENTS=built), this one still wants the sources.
  else await page.route(ELEMENT_FILES, (route) => route.continue());
  return paths;
}

/** The page ran the elements from where the test meant it to. */
function expectElementsFrom(paths: readonly string[], source: Source): void {
  const sources = paths.filter((p) => p.startsWith('/src/elements/') && !/^\/src\/elements\/(index\.ts|satang\.js|chunks\/)/.test(p));
  if (source === 'the built satang.js') expect(sources, 'no element source module was loaded').toEqual([]);
  else expect(sources.length, 'the element source modules were loaded').toBeGreaterThan(0);
}

for (const source of ['the source modules', 'the built satang.js'] as const) {
  test(`${source}: a 3-D Secure card payment goes to the bank page and back, and nothing is blocked`, async ({ page, request }) => {
    const modules = await loadElements(page, source);
    const violations = await watchViolations(page);
    const reference = await openCspShop(page);
    await typeCard(page, { number: CARDS.threeDSecure });
    await payButton(page).click();

    await expect(page).toHaveURL(new RegExp(`:${new URL(SANDBOX).port}/sandbox/pages/otp/ch_\\w+$`));
    await page.getByLabel('One-time password').fill(OTP);
    await page.getByRole('button', { name: 'Verify and pay' }).click();

    await expect(page).toHaveURL(`/demo/csp/return.html?order=${reference}`, FROM_THE_SERVER);
    await expectPaid(page);
    expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED', paymentMethod: { paymentMethodType: 'CARD' } });
    expect(violations).toEqual([]);
    expectElementsFrom(modules, source);
  });

  test(`${source}: the PromptPay QR is drawn and a transfer slip is read by the lazy chunks, and nothing is blocked`, async ({ page, context, request }) => {
    const modules = await loadElements(page, source);
    // Chromium on some systems has a native BarcodeDetector: without it, the jsQR chunk must load.
    await page.addInitScript(() => {
      delete (globalThis as { BarcodeDetector?: unknown }).BarcodeDetector;
    });
    const violations = await watchViolations(page);
    const reference = await openCspShop(page);
    await markPage(page);

    await chooseMethod(page, 'PromptPay QR');
    const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/checkout/charges');
    await payButton(page).click();
    const charge = (await (await created).json()) as { chargeId: string; encodedImage: { rawData: string } };
    const qr = page.locator('satang-qr-payment');
    // The drawn SVG (the QR library's encoder, a chunk of its own) replaces the service's PNG.
    await expect(qr.locator('svg[role="img"]')).toBeVisible();
    expect(await scanQr(qrCode(page))).toBe(charge.encodedImage.rawData);
    expect(modules.filter((m) => /\/chunks\/qrcode-|\/deps\/qr\.js/.test(m)), 'the QR renderer was fetched').not.toEqual([]);

    const payer = await context.newPage();
    await payer.goto(`${SANDBOX}/sandbox/pages/promptpay`);
    await payer.getByLabel('QR payload (rawData)').fill(charge.encodedImage.rawData);
    await payer.getByRole('button', { name: 'Pay by bank transfer and get a slip' }).click();
    const downloading = payer.waitForEvent('download');
    await payer.getByRole('link', { name: 'Download the slip image' }).click();
    const slipPath = test.info().outputPath('slip.png');
    await (await downloading).saveAs(slipPath);
    await payer.close();

    await qr.getByText('Paid but the page hasn’t updated?').click();
    await qr.getByLabel('Paid by bank transfer? Upload the slip').setInputFiles(slipPath);
    await expectPaid(page);
    await expectSamePage(page);
    expect(modules.filter((m) => /\/chunks\/qr-reader-|\/deps\/qr_decode/.test(m)), 'the slip reader was fetched').not.toEqual([]);
    expect(await onlyChargeFor(request, reference)).toMatchObject({ chargeId: charge.chargeId, status: 'SUCCEEDED' });
    expect(violations).toEqual([]);
    expectElementsFrom(modules, source);
  });
}
