import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyEmvCrc } from '../../src/core/emv-qr.js';
import { verifyWebhookSignature } from '../../src/core/webhook-signature.js';
import { SANDBOX_DEFAULTS, SANDBOX_TEST_CARDS } from '../../src/sandbox/defaults.js';
import { qrChargeBody } from '../support/qr-charge.js';
import type { Answer as SandboxAnswer } from '../support/sandbox-client.js';
import { scanQrPngBase64 } from '../support/scan-qr.js';
import { cleanEnv, runCli, startCli, stopCli, type RunningCli } from '../support/sandbox-cli.js';

const FUTURE_EXPIRY_YEAR = (new Date().getUTCFullYear() + 2) % 100;
const RETURN_URL = 'https://shop.example/orders/1/return?step=done';

const basic = (user: string, key: string) => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;
const API_AUTH = basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.apiKey);
const CLIENT_AUTH = basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.publishableKey);

// ---------------------------------------------------------------------------------------------
// HTTP

/** An answer over the socket; `body` is the parsed body when it is JSON. */
interface Answer extends SandboxAnswer {
  text: string;
}

interface CallInit {
  auth?: string;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

async function call(base: string, method: string, path: string, init: CallInit = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.auth !== undefined) headers.authorization = init.auth;
  let body: string | undefined;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  } else if (init.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const response = await fetch(new URL(path, base), { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

async function tokenize(base: string, pan: string, auth = CLIENT_AUTH): Promise<string> {
  const answer = await call(base, 'POST', '/client/v1/card-tokens', {
    auth,
    json: { pan, expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee' },
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id as string;
}

async function chargeCard(base: string, pan: string, extra: Record<string, unknown> = {}): Promise<Answer> {
  const cardTokenId = await tokenize(base, pan);
  return call(base, 'POST', '/api/v1/charges', {
    auth: API_AUTH,
    json: {
      amount: 25_000,
      currency: 'THB',
      referenceId: `order-${pan.slice(-4)}`,
      paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } },
      ...extra,
    },
  });
}

async function getCharge(base: string, chargeId: string): Promise<Answer> {
  const answer = await call(base, 'GET', `/api/v1/charges/${chargeId}`, { auth: API_AUTH });
  expect(answer.status, answer.text).toBe(200);
  return answer;
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: timeoutMs, interval: 20 },
  );
}

// ---------------------------------------------------------------------------------------------

describe('satang-sandbox CLI', () => {
  describe('started with the default credentials', () => {
    let cli: RunningCli | undefined;
    let base = '';

    beforeAll(async () => {
      cli = await startCli();
      base = cli.url;
    });
    afterAll(async () => {
      await stopCli(cli);
    });

    it('prints the merchant id, the API key, the publishable key, the webhook key and the test cards', () => {
      const banner = cli!.banner;
      expect(banner).toMatch(new RegExp(`merchant id\\s+${SANDBOX_DEFAULTS.merchantId}\\n`));
      expect(banner).toMatch(new RegExp(`API key\\s+${SANDBOX_DEFAULTS.apiKey}\\s`));
      expect(banner).toMatch(new RegExp(`publishable key\\s+${SANDBOX_DEFAULTS.publishableKey}\\s`));
      expect(banner).toContain(`webhook key       ${SANDBOX_DEFAULTS.webhookKeyBase64}\n`);
      expect(banner).toContain('webhooks          off');
      expect(banner).toContain(`PromptPay payer   ${base}/sandbox/pages/promptpay`);
      expect(banner).toContain(`dashboard         ${base}/sandbox/dashboard   (sign in with the merchant id and API key)`);
      for (const card of ['4111111111111111', '4953261730509988', '4943129900084541', '4389783280144506', '5372074248113841', '378282246310005']) {
        expect(banner).toMatch(new RegExp(`^  ${card}\\s+\\S`, 'm'));
      }
      expect(SANDBOX_TEST_CARDS.every((card) => banner.includes(card.number))).toBe(true);
    });

    it('tokenizes 4111111111111111 with the publishable key and charges it to SUCCEEDED with the API key', async () => {
      const token = await call(base, 'POST', '/client/v1/card-tokens', {
        auth: CLIENT_AUTH,
        json: { pan: '4111111111111111', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee' },
      });
      expect(token.status).toBe(201);
      expect(token.body).toEqual({ id: expect.stringMatching(/^ctk_\w+$/) });

      const created = await call(base, 'POST', '/api/v1/charges', {
        auth: API_AUTH,
        json: {
          amount: 25_000,
          currency: 'THB',
          referenceId: 'order-visa',
          paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId: token.body.id, securityCode: '123' } },
        },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ chargeId: expect.stringMatching(/^ch_\w+$/), actionRequired: 'NONE' });
      expect(created.body.status).toBeUndefined();

      const charge = await getCharge(base, created.body.chargeId);
      expect(charge.body).toMatchObject({
        chargeId: created.body.chargeId,
        merchantId: SANDBOX_DEFAULTS.merchantId,
        status: 'SUCCEEDED',
        amount: 25_000,
        currency: 'THB',
        referenceId: 'order-visa',
      });
    });

    it('refuses the publishable key on /api and the API key on /client', async () => {
      const withPublishable = await call(base, 'GET', '/api/v1/charges', { auth: CLIENT_AUTH });
      expect(withPublishable.status).toBe(401);
      expect(withPublishable.body.error.errorCode).toBe('INVALID_CREDENTIALS_ERROR');
      const withApiKey = await call(base, 'POST', '/client/v1/card-tokens', {
        auth: API_AUTH,
        json: { pan: '4111111111111111', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'A' },
      });
      expect(withApiKey.status).toBe(401);
    });

    it('answers 201 for 4943129900084541 and the charge then reads FAILED with CH_INSUFFICIENT_FUNDS', async () => {
      const created = await chargeCard(base, '4943129900084541');
      expect(created.status).toBe(201);
      expect(created.body.actionRequired).toBe('NONE');
      const charge = await getCharge(base, created.body.chargeId);
      expect(charge.body).toMatchObject({ status: 'FAILED', failureCode: 'CH_INSUFFICIENT_FUNDS' });
    });

    it('redirects 4953261730509988 to the OTP page, where 123456 succeeds and sends the shopper to the returnUrl', async () => {
      const created = await chargeCard(base, '4953261730509988', { returnUrl: RETURN_URL });
      expect(created.status).toBe(201);
      const chargeId = created.body.chargeId as string;
      expect(created.body.actionRequired).toBe('REDIRECT');
      const redirectUrl = created.body.redirect.redirectUrl as string;
      expect(redirectUrl).toBe(`${base}/sandbox/pages/otp/${chargeId}`);
      expect((await getCharge(base, chargeId)).body.status).toBe('PENDING');

      const page = await call(redirectUrl, 'GET', redirectUrl);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.text).toMatch(/<form method="post" action="[^"]+">/);
      expect(page.text).toContain('name="otp"');
      const action = new URL(/<form method="post" action="([^"]+)">/.exec(page.text)![1]!, redirectUrl).href;
      expect(action).toBe(redirectUrl);

      const submitted = await call(base, 'POST', action, { form: { otp: '123456' } });
      expect(submitted.status).toBe(303);
      expect(submitted.headers.get('location')).toBe(RETURN_URL);

      expect((await getCharge(base, chargeId)).body).toMatchObject({ status: 'SUCCEEDED' });
    });

    it('fails a 3-D Secure charge whose OTP is wrong with CH_AUTHENTICATION_FAILED', async () => {
      const created = await chargeCard(base, '4953261730509988');
      const chargeId = created.body.chargeId as string;
      const submitted = await call(base, 'POST', created.body.redirect.redirectUrl, { form: { otp: '654321' } });
      // No returnUrl: the page shows the outcome itself.
      expect(submitted.status).toBe(200);
      expect(submitted.text).toContain('CH_AUTHENTICATION_FAILED');
      expect((await getCharge(base, chargeId)).body).toMatchObject({ status: 'FAILED', failureCode: 'CH_AUTHENTICATION_FAILED' });
    });

    it('issues a PromptPay QR whose PNG scans to its rawData, and the payer simulator settles it SUCCEEDED', async () => {
      const created = await call(base, 'POST', '/api/v1/charges', {
        auth: API_AUTH,
        json: qrChargeBody({ amount: 12_345 }),
      });
      expect(created.status).toBe(201);
      expect(created.body.actionRequired).toBe('ENCODED_IMAGE');
      const { rawData, imageBase64Encoded } = created.body.encodedImage as { rawData: string; imageBase64Encoded: string };
      expect(scanQrPngBase64(imageBase64Encoded)).toBe(rawData);
      expect(verifyEmvCrc(rawData)).toBe(true);
      const chargeId = created.body.chargeId as string;
      expect((await getCharge(base, chargeId)).body.status).toBe('PENDING');

      const payer = await call(base, 'GET', '/sandbox/pages/promptpay');
      expect(payer.status).toBe(200);
      expect(payer.text).toContain('name="rawData"');

      const paid = await call(base, 'POST', '/sandbox/pages/promptpay', { form: { rawData, outcome: 'succeed' } });
      expect(paid.status).toBe(200);
      expect((await getCharge(base, chargeId)).body).toMatchObject({ status: 'SUCCEEDED', amount: 12_345 });

      const again = await call(base, 'POST', '/sandbox/pages/promptpay', { form: { rawData, outcome: 'succeed' } });
      expect(again.status).toBe(409);
    });

    it('answers a CORS preflight on /client with 204 and *, and puts no CORS header on /api', async () => {
      const preflight = await call(base, 'OPTIONS', '/client/v1/card-tokens', {
        headers: {
          origin: 'https://shop.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type']));
      expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');

      const token = await call(base, 'POST', '/client/v1/card-tokens', {
        auth: CLIENT_AUTH,
        headers: { origin: 'https://shop.example' },
        json: { pan: '4111111111111111', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'A' },
      });
      expect(token.status).toBe(201);
      expect(token.headers.get('access-control-allow-origin')).toBe('*');

      const list = await call(base, 'GET', '/api/v1/charges', { auth: API_AUTH, headers: { origin: 'https://shop.example' } });
      expect(list.status).toBe(200);
      expect(list.headers.get('access-control-allow-origin')).toBeNull();
      const refused = await call(base, 'GET', '/api/v1/charges', { headers: { origin: 'https://shop.example' } });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('puts a distinct x-beam-request-id on every response: JSON, errors, pages, styles and preflights', async () => {
      const answers = await Promise.all([
        call(base, 'GET', '/sandbox/health'),
        call(base, 'GET', '/api/v1/charges', { auth: API_AUTH }),
        call(base, 'GET', '/api/v1/charges'),
        call(base, 'GET', '/api/v1/charges/ch_doesnotexist', { auth: API_AUTH }),
        call(base, 'GET', '/no/such/path'),
        call(base, 'POST', '/api/v1/charges', { auth: API_AUTH, headers: { 'content-type': 'application/json' } }),
        call(base, 'GET', '/sandbox/pages/promptpay'),
        call(base, 'GET', '/sandbox/pages/style.css'),
        call(base, 'GET', '/sandbox/pages/otp/ch_doesnotexist'),
        call(base, 'OPTIONS', '/client/v1/card-tokens', { headers: { origin: 'https://shop.example' } }),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 401, 404, 404, 400, 200, 200, 404, 204]);
      const ids = answers.map((answer) => answer.headers.get('x-beam-request-id'));
      for (const id of ids) expect(id).toMatch(/^req_\w+$/);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('logs no requests with --quiet', () => {
      expect(cli!.stdout()).toBe(cli!.banner);
      expect(cli!.stdout()).not.toMatch(/^(GET|POST|OPTIONS) \//m);
    });
  });

  describe('started with --webhook-url and --webhook-key', () => {
    const webhookKey = randomBytes(32).toString('base64');
    const received: { path: string; headers: IncomingHttpHeaders; raw: Buffer }[] = [];
    let receiver: Server | undefined;
    let cli: RunningCli | undefined;

    beforeAll(async () => {
      receiver = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          received.push({ path: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks) });
          res.writeHead(200).end();
        });
      });
      receiver.listen(0, '127.0.0.1');
      await once(receiver, 'listening');
      const port = (receiver.address() as AddressInfo).port;
      cli = await startCli(['--webhook-url', `http://127.0.0.1:${port}/hooks`, '--webhook-key', webhookKey]);
    });
    afterAll(async () => {
      await stopCli(cli);
      if (receiver) {
        receiver.closeAllConnections();
        await new Promise<void>((resolve) => receiver!.close(() => resolve()));
      }
    });

    it('prints the webhook URL and the key it signs with', () => {
      const port = (receiver!.address() as AddressInfo).port;
      expect(cli!.banner).toContain(`webhooks          http://127.0.0.1:${port}/hooks\n`);
      expect(cli!.banner).toContain(`webhook key       ${webhookKey}\n`);
    });

    it('delivers charge.succeeded and transaction.created, signed over the raw body, equal to GET, and logs them DELIVERED', async () => {
      const base = cli!.url;
      const created = await chargeCard(base, '4111111111111111');
      expect(created.status).toBe(201);
      const chargeId = created.body.chargeId as string;

      // Both deliveries final in the sandbox's log (checked in full below): no attempt is still to come.
      let log: Answer | undefined;
      await until(async () => {
        log = await call(base, 'GET', '/sandbox/v1/webhook-deliveries', { auth: API_AUTH });
        return log.status === 200 && log.body.data.length === 2 && log.body.data.every((d: { status: string }) => d.status === 'DELIVERED');
      }, 'both deliveries DELIVERED in the log');
      expect(received).toHaveLength(2);
      const byEvent = new Map(received.map((delivery) => [delivery.headers['x-beam-event'], delivery]));
      expect([...byEvent.keys()].sort()).toEqual(['charge.succeeded', 'transaction.created']);

      for (const delivery of received) {
        expect(delivery.path).toBe('/hooks');
        expect(delivery.headers['content-type']).toMatch(/^application\/json/);
        const signature = delivery.headers['x-beam-signature'] as string;
        expect(signature).toMatch(/^[A-Za-z0-9+/]{43}=$/);
        expect(await verifyWebhookSignature(new Uint8Array(delivery.raw), signature, webhookKey)).toBe(true);
        // Signed with the configured key, not the default one.
        expect(await verifyWebhookSignature(new Uint8Array(delivery.raw), signature, SANDBOX_DEFAULTS.webhookKeyBase64)).toBe(false);
        // A single changed byte breaks it.
        const tampered = Buffer.from(delivery.raw);
        tampered.writeUInt8(tampered.readUInt8(0) ^ 1, 0);
        expect(await verifyWebhookSignature(new Uint8Array(tampered), signature, webhookKey)).toBe(false);
      }

      const chargeDelivery = byEvent.get('charge.succeeded')!;
      const charge = await getCharge(base, chargeId);
      expect(charge.body.status).toBe('SUCCEEDED');
      expect(chargeDelivery.raw.toString('utf8')).toBe(charge.text);

      const transactionDelivery = byEvent.get('transaction.created')!;
      const transaction = await call(base, 'GET', `/api/v1/transactions/${chargeId}`, { auth: API_AUTH });
      expect(transaction.status).toBe(200);
      expect(transaction.body).toMatchObject({ transactionId: chargeId, transactionType: 'PAYMENT', grossAmount: 25_000 });
      expect(transactionDelivery.raw.toString('utf8')).toBe(transaction.text);

      // The log lists newest first; sent in order, charge first.
      expect(log!.body.totalCount).toBe(2);
      expect(log!.body.data.map((d: { event: string }) => d.event)).toEqual(['transaction.created', 'charge.succeeded']);
      for (const entry of log!.body.data) {
        expect(entry).toMatchObject({ resourceId: chargeId, status: 'DELIVERED', url: expect.stringMatching(/\/hooks$/) });
        expect(entry.attempts).toEqual([expect.objectContaining({ httpStatus: 200, error: null })]);
      }
      expect(log!.body.data[1].body).toBe(chargeDelivery.raw.toString('utf8'));

      const unauthenticated = await call(base, 'GET', '/sandbox/v1/webhook-deliveries');
      expect(unauthenticated.status).toBe(401);
    });
  });

  describe('configured through the environment', () => {
    const MERCHANT_ID = 'mch_from_env';
    const API_KEY = 'sk_from_env_1234567890';
    let cli: RunningCli | undefined;

    beforeAll(async () => {
      cli = await startCli([], cleanEnv({ SANDBOX_MERCHANT_ID: MERCHANT_ID, SANDBOX_API_KEY: API_KEY }));
    });
    afterAll(async () => {
      await stopCli(cli);
    });

    it('prints and accepts SANDBOX_MERCHANT_ID and SANDBOX_API_KEY, and refuses the default credentials', async () => {
      expect(cli!.banner).toMatch(new RegExp(`merchant id\\s+${MERCHANT_ID}\\n`));
      expect(cli!.banner).toMatch(new RegExp(`API key\\s+${API_KEY}\\s`));

      const base = cli!.url;
      const accepted = await call(base, 'GET', '/api/v1/charges', { auth: basic(MERCHANT_ID, API_KEY) });
      expect(accepted.status).toBe(200);
      expect(accepted.body).toEqual({ data: [], totalCount: 0 });

      const defaults = await call(base, 'GET', '/api/v1/charges', { auth: API_AUTH });
      expect(defaults.status).toBe(401);
      expect(defaults.body.error.errorCode).toBe('INVALID_CREDENTIALS_ERROR');
      const defaultKeyForEnvMerchant = await call(base, 'GET', '/api/v1/charges', { auth: basic(MERCHANT_ID, SANDBOX_DEFAULTS.apiKey) });
      expect(defaultKeyForEnvMerchant.status).toBe(401);

      // The publishable key was not set, so the default one works for the configured merchant.
      const token = await tokenize(base, '4111111111111111', basic(MERCHANT_ID, SANDBOX_DEFAULTS.publishableKey));
      const charged = await call(base, 'POST', '/api/v1/charges', {
        auth: basic(MERCHANT_ID, API_KEY),
        json: { amount: 10_000, currency: 'THB', referenceId: 'order-env', paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId: token, securityCode: '123' } } },
      });
      expect(charged.status, charged.text).toBe(201);
      const charge = await call(base, 'GET', `/api/v1/charges/${charged.body.chargeId}`, { auth: basic(MERCHANT_ID, API_KEY) });
      expect(charge.body).toMatchObject({ merchantId: MERCHANT_ID, status: 'SUCCEEDED' });
    });
  });

  describe('when it cannot start', () => {
    it.each([
      { args: ['--port', 'abc'], flag: '--port' },
      { args: ['--webhook-url', 'notaurl'], flag: '--webhook-url' },
      { args: ['--bogus'], flag: '--bogus' },
    ])('exits with code 2 and names $flag on stderr for $args', async ({ args, flag }) => {
      const result = await runCli(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^satang-sandbox: /);
      expect(result.stderr.split('\n')[0]).toContain(flag);
      expect(result.stdout).not.toContain('listening');
    });

    it('prints usage with --help and exits 0 without listening', async () => {
      const result = await runCli(['--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Usage: satang-sandbox [options]');
      for (const flag of ['--port', '--webhook-url', '--webhook-key', '--merchant-id', '--api-key', '--publishable-key', '--quiet']) {
        expect(result.stdout).toContain(flag);
      }
      expect(result.stdout).not.toContain('listening');
      expect(result.stderr).toBe('');
    });

    it('exits non-zero and says so when the port is already in use', async () => {
      const blocker = createNetServer();
      blocker.listen(0, '127.0.0.1');
      await once(blocker, 'listening');
      try {
        const port = (blocker.address() as AddressInfo).port;
        const result = await runCli(['--port', String(port), '--quiet']);
        expect(result.code).not.toBe(0);
        expect(result.code).not.toBeNull();
        expect(result.stderr).toContain(`port ${port} is already in use`);
        expect(result.stdout).not.toContain('listening');
      } finally {
        await new Promise<void>((resolve) => blocker.close(() => resolve()));
      }
    });
  });

  describe('on SIGTERM', () => {
    let cli: RunningCli | undefined;
    afterEach(async () => {
      await stopCli(cli);
    });

    it('stops listening and exits with code 0, even with a connection kept alive', async () => {
      cli = await startCli();
      const health = await call(cli.url, 'GET', '/sandbox/health');
      expect(health.body).toEqual({ status: 'ok' });

      cli.child.kill('SIGTERM');
      const exit = await cli.closed;
      expect(exit).toEqual({ code: 0, signal: null });
      await expect(fetch(`${cli.url}/sandbox/health`)).rejects.toThrow();
    });
  });
});
