import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoStack, type DemoStack } from '../../demo/stack.js';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
import { ServiceClient } from '../../src/server/index.js';

/**
 * The curl session of docs/server.md ("A payment through the handler with curl"), run as it is
 * written with bash against a demo stack of its own (the `npm start` stack on free ports): only the
 * base URLs change, through the SHOP and SERVICE variables the text itself reads.
 */

const run = promisify(execFile);
const SESSION_HEADING = '## A payment through the handler with curl';

/** The shell blocks of the section, in order. */
async function sessionBlocks(): Promise<string[]> {
  const page = await readFile('docs/server.md', 'utf8');
  const start = page.indexOf(SESSION_HEADING);
  expect(start, `docs/server.md has a "${SESSION_HEADING}" section`).toBeGreaterThanOrEqual(0);
  const next = page.indexOf('\n## ', start + SESSION_HEADING.length);
  const section = page.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, code = '']) => code);
}

let stack: DemoStack | undefined;

beforeAll(async () => {
  stack = await startDemoStack({ port: 0, sandboxPort: 0, rateLimit: false });
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

describe("docs/server.md's curl session", () => {
  it('pays by card and by PromptPay through the checkout handler, both SUCCEEDED', async () => {
    const blocks = await sessionBlocks();
    expect(blocks.length).toBeGreaterThan(0);
    const script = blocks.join('\n');
    // The text reads its addresses from the environment, with `npm start`'s as defaults.
    expect(script).toContain('SHOP=${SHOP:-http://localhost:5173}');
    expect(script).toContain('SERVICE=${SERVICE:-http://localhost:4010}');
    const { stdout } = await run('bash', ['-e', '-o', 'pipefail', '-c', script], {
      env: { ...process.env, SHOP: stack!.url, SERVICE: stack!.sandboxUrl },
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
    // What the service holds: one card charge and one PromptPay charge, both paid.
    const service = new ServiceClient({ baseUrl: stack!.sandbox.url, merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey });
    const charged = await Promise.all([card, qr].map((answer) => service.charges.get(String(answer!.chargeId))));
    expect(charged.map((charge) => [charge.paymentMethod.paymentMethodType, charge.status])).toEqual([
      ['CARD', 'SUCCEEDED'],
      ['QR_PROMPT_PAY', 'SUCCEEDED'],
    ]);
    expect(stdout).toContain('ENCODED_IMAGE');
  }, 90_000);
});
