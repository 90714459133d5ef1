import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import config, { E2E_SANDBOX_PORT } from '../playwright.config.js';
import { ELEMENT_FILES, expect, expectPaid, onlyChargeFor, orderReference, payButton, serveBuiltElements, test, typeCard } from './support.js';

/**
 * The Content-Security-Policies of docs/security.md, as a merchant copies them: each is read from
 * the page, its placeholder URLs (the service, the report endpoint) replaced by this run's, and sent
 * with the demo's strict-CSP shop in place of the demo's own policy. A card payment must leave the
 * policy's `report-uri` endpoint empty; then one deliberate violation shows the endpoint hears
 * reports, so that the empty list meant something. The script-tag policy runs on the built
 * satang.js and its chunks, the bundled app's on the elements' ES modules.
 */

const SECTION = '## A Content-Security-Policy to copy';
/** The placeholders of the documented policies. */
const DOCUMENTED_SERVICE = 'https://api.payment-service.example';
const DOCUMENTED_REPORTS = '/csp-reports';

/** The policies of the section, in order (the script tag's, then the bundled app's), each on one line. */
function documentedPolicies(): string[] {
  const page = readFileSync('docs/security.md', 'utf8');
  const start = page.indexOf(SECTION);
  expect(start, `docs/security.md has "${SECTION}"`).toBeGreaterThanOrEqual(0);
  const end = page.indexOf('\n## ', start + SECTION.length);
  const section = page.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```csp\n([\s\S]*?)```/g)].map(([, text = '']) => text.trim().split('\n').map((line) => line.trim()).join(' '));
}

/** A `report-uri` endpoint: every report the browser sends, as received. */
async function reportEndpoint(): Promise<{ url: string; reports: string[]; server: Server }> {
  const reports: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.method === 'POST') reports.push(body);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/csp-reports`, reports, server };
}

/**
 * Serves /demo/csp/ with `policy` instead of the demo's own, and without the dev server's
 * live-reload client (a shop's production page has none).
 */
async function serveWithPolicy(page: Page, policy: string): Promise<void> {
  await page.route(
    (url) => url.pathname === '/demo/csp/',
    async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/<script type="module" src="\/@vite\/client"><\/script>\s*/, '');
      await route.fulfill({ response, body, headers: { ...response.headers(), 'content-security-policy': policy } });
    },
  );
}

// A page this test fulfills counts, for Chromium's Local Network Access checks, as a public site,
// which may not call the sandbox on the loopback address as the shop's own page does: those
// checks (not the page's CSP) are off here.
const { launchOptions } = config.use ?? {};
test.use({ launchOptions: { ...launchOptions, args: [...(launchOptions?.args ?? []), '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests'] } });

const [scriptTagPolicy, bundledPolicy] = documentedPolicies();

test('docs/security.md has a policy for the script tag and one for a bundled app, with Trusted Types', () => {
  for (const policy of [scriptTagPolicy, bundledPolicy]) {
    expect(policy).toContain("require-trusted-types-for 'script'");
    expect(policy).toMatch(/trusted-types lit-html\b/);
    expect(policy).toContain(`connect-src 'self' ${DOCUMENTED_SERVICE}`);
    expect(policy).toContain(`report-uri ${DOCUMENTED_REPORTS}`);
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/);
  }
});

for (const [name, policy] of [
  ['the script-tag policy, on the built satang.js', scriptTagPolicy],
  ['the bundled-app policy, on the ES modules', bundledPolicy],
] as const) {
  test(`${name}: a card payment sends no report`, async ({ page, request }) => {
    const endpoint = await reportEndpoint();
    try {
      const service = [`http://localhost:${E2E_SANDBOX_PORT}`, `http://127.0.0.1:${E2E_SANDBOX_PORT}`].join(' ');
      const served = policy!.replace(DOCUMENTED_SERVICE, service).replace(`report-uri ${DOCUMENTED_REPORTS}`, `report-uri ${endpoint.url}`);
      expect(served).not.toContain(DOCUMENTED_SERVICE);
      if (name.includes('built')) await serveBuiltElements(page);
      else await page.route(ELEMENT_FILES, (route) => route.continue());
      await serveWithPolicy(page, served);
      const seen: string[] = [];
      page.on('console', (message) => {
        if (/Content.Security.Policy|Trusted.?Type/i.test(message.text())) seen.push(message.text());
      });

      const answer = await page.goto('/demo/csp/');
      expect(answer!.headers()['content-security-policy']).toBe(served);
      await expect(payButton(page)).toBeVisible();
      const reference = await orderReference(page);
      await typeCard(page, { number: '4111111111111111' });
      await payButton(page).click();
      await expectPaid(page);
      expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED', paymentMethod: { paymentMethodType: 'CARD' } });
      // Reports leave the browser on their own schedule: give them time to arrive.
      await page.waitForTimeout(1_500);
      expect(endpoint.reports, seen.join('\n')).toEqual([]);

      // The endpoint does hear this policy's reports: a string in a script sink is one.
      await page.evaluate(() => {
        try {
          document.createElement('div').innerHTML = '<b>probe</b>';
        } catch {
          // refused, as it must be
        }
      });
      await expect.poll(() => endpoint.reports.join('\n'), { timeout: 10_000 }).toMatch(/require-trusted-types-for|trusted-types/);
    } finally {
      endpoint.server.closeAllConnections();
      endpoint.server.close();
    }
  });
}
