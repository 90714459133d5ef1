import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterEach, describe, expect, vi } from 'vitest';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
import { ServiceClient } from '../../src/server/index.js';
import { codeBlocks, runDocModule } from '../support/doc-code.js';
import { sandboxTest } from '../support/sandbox-fixture.js';

/**
 * The curl session of docs/server.md ("A payment through the handler with curl"): the shop the
 * section gives (`shop.mjs`), run as it is written in this process, and the session's shell blocks
 * run as they are written with bash, against a sandbox of its own that sends its webhooks to the
 * shop. Only the addresses change, through the variables the text itself reads (`PORT` and
 * `SATANG_SERVICE_URL` for the shop, `SHOP` and `SERVICE` for the session).
 */

const run = promisify(execFile);
const SESSION_HEADING = '## A payment through the handler with curl';

const servers: Server[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  for (const server of servers.splice(0)) {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }
});

const urlOf = (server: Server) => `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;

/**
 * A server that hands every request on to `target()`'s port: the sandbox needs the shop's webhook
 * URL when it starts, and the shop needs the sandbox's address when it starts.
 */
async function relayTo(target: () => number | undefined): Promise<Server> {
  const relay = createServer((req, res) => {
    const onward = request({ host: '127.0.0.1', port: target(), path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    onward.on('error', () => res.writeHead(502).end());
    req.pipe(onward);
  });
  servers.push(relay);
  relay.listen(0, '127.0.0.1');
  await once(relay, 'listening');
  return relay;
}

describe("docs/server.md's curl session", () => {
  sandboxTest('pays by card and by PromptPay through the shop it gives, both SUCCEEDED, each order paid once', { timeout: 90_000 }, async ({ startSandbox }) => {
    const blocks = await codeBlocks('docs/server.md', SESSION_HEADING);
    const shopCode = blocks.filter(({ lang }) => lang === 'js');
    expect(shopCode, 'the section gives one shop, in one js block').toHaveLength(1);
    const script = blocks
      .filter(({ lang }) => lang === 'sh')
      .map(({ code }) => code)
      .join('\n');
    // The text reads its addresses from the environment, with the shop's and the sandbox's defaults.
    expect(script).toContain('SHOP=${SHOP:-http://localhost:3000}');
    expect(script).toContain('SERVICE=${SERVICE:-http://localhost:4010}');

    // The shop, once it is running.
    const running: { shop?: Server } = {};
    const webhooks = await relayTo(() => (running.shop?.address() as AddressInfo | null)?.port);
    const sandbox = await startSandbox({ webhook: { url: `${urlOf(webhooks)}/api/checkout/webhooks`, webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64 } });
    vi.stubEnv('PORT', '0');
    vi.stubEnv('SATANG_SERVICE_URL', sandbox.url);
    // What the shop's onOrder says, kept off the test's output.
    const said: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...words: unknown[]) => void said.push(words.join(' ')));
    const { server: shop } = await runDocModule<{ server: Server }>(shopCode[0]!.code, { epilogue: 'export { server };' });
    running.shop = shop;
    servers.push(shop);
    if (!shop.listening) await once(shop, 'listening');

    const { stdout } = await run('bash', ['-e', '-o', 'pipefail', '-c', script], {
      env: { ...process.env, SHOP: urlOf(shop), SERVICE: sandbox.url },
      timeout: 60_000,
    }).catch((error: unknown) => {
      const failed = error as Error & { stdout?: string; stderr?: string };
      throw new Error(`the session failed: ${failed.message}\nstdout:\n${failed.stdout ?? ''}\nstderr:\n${failed.stderr ?? ''}`, { cause: error });
    });
    const answers = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const statuses = answers.filter((answer) => 'status' in answer);
    expect(statuses, stdout).toHaveLength(2);
    const [card, qr] = statuses;
    expect(card).toMatchObject({ status: 'SUCCEEDED', outcome: 'paid' });
    expect(qr).toMatchObject({ status: 'SUCCEEDED', outcome: 'paid' });
    expect(stdout).toContain('ENCODED_IMAGE');
    // What the service holds: one card charge and one PromptPay charge, both paid, each for its own order.
    const service = new ServiceClient({ baseUrl: sandbox.url, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey });
    const charged = await Promise.all([card, qr].map((answer) => service.charges.get(String(answer!.chargeId))));
    expect(charged.map((charge) => [charge.paymentMethod.paymentMethodType, charge.status, charge.amount])).toEqual([
      ['CARD', 'SUCCEEDED', 129_00],
      ['QR_PROMPT_PAY', 'SUCCEEDED', 129_00],
    ]);
    expect(charged[0]!.referenceId).not.toBe(charged[1]!.referenceId);
    // The shop heard each order paid once, and took the sandbox's webhooks with the key it was given.
    await sandbox.sandbox.webhooks.idle();
    const deliveries = sandbox.sandbox.webhooks.list();
    expect(deliveries.length).toBeGreaterThan(0);
    expect(deliveries.map((delivery) => delivery.status)).toEqual(deliveries.map(() => 'DELIVERED'));
    await expect
      .poll(() => said.filter((line) => line.startsWith('order.')).sort())
      .toEqual(charged.map((charge) => `order.paid ${String(charge.referenceId)} ${charge.chargeId}`).sort());
  });
});
