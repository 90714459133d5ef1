import { describe, expect, it, vi } from 'vitest';
import { SANDBOX_DASHBOARD_COOKIE } from '../../../src/sandbox/dashboard/dashboard-sessions.js';
import type { Refund } from '../../../src/core/schemas/refund.js';
import { parseCliOptions } from '../../../src/sandbox/cli.js';
import { satangFromBaht } from '../../../src/sandbox/dashboard/sections/section-values.js';
import { SANDBOX_DASHBOARD_PATH, SANDBOX_DASHBOARD_SESSION_TTL_MS, SANDBOX_DEFAULTS, type Sandbox, type SandboxMerchant, type SandboxOptions } from '../../../src/sandbox/index.js';
import { basic, FUTURE_EXPIRY_YEAR, ORIGIN, type SandboxClient } from '../../support/sandbox-client.js';
import { sandboxTest } from '../../support/sandbox-fixture.js';
import { createQrCharge } from '../../support/qr-charge.js';

const KEY = Buffer.from('a webhook key of thirty-two byte').toString('base64');
const HOOK_URL = 'http://127.0.0.1:9/hooks';
const FORM = 'application/x-www-form-urlencoded';
const OTP_CARD = '4953261730509988';
const FORCE_CARD = '4389783280144506';
const VISA = '4111111111111111';

interface Hook {
  event: string;
  body: Record<string, unknown>;
  raw: string;
}

interface Page {
  status: number;
  html: string;
  location: string | null;
  headers: Headers;
}

let hooks: Hook[];
/** What the fake webhook receiver answers; 204 unless a test says otherwise. */
let hookStatus: number;
let now: number;

/**
 * Options for a sandbox whose clock reads `now`, set to the present, and whose webhooks land in a
 * fresh `hooks`, answered with `hookStatus`; `options` override them.
 */
function dashboardOptions(options: SandboxOptions = {}): SandboxOptions {
  // Each sandbox has its own list, so a delivery still running from an earlier test lands elsewhere.
  const received: Hook[] = [];
  hooks = received;
  hookStatus = 204;
  now = Date.now();
  const receiver: typeof fetch = (_url, init) => {
    if (init?.signal?.aborted) return Promise.reject(new Error('aborted'));
    const raw = typeof init?.body === 'string' ? init.body : '';
    received.push({ event: new Headers(init?.headers).get('x-beam-event') ?? '', body: JSON.parse(raw), raw });
    return Promise.resolve(new Response(null, { status: hookStatus }));
  };
  return {
    refundSettleDelayMs: 0,
    now: () => new Date(now),
    webhook: { url: HOOK_URL, webhookKeyBase64: KEY, fetch: receiver, retryBaseDelayMs: 60_000 },
    ...options,
  };
}

/** A browser signed in to the dashboard: sends its cookie, and same-origin headers on POST. */
class Browser {
  cookie = '';
  constructor(
    readonly sandbox: Sandbox,
    readonly origin = ORIGIN,
  ) {}

  async request(method: string, path: string, init: { fields?: Record<string, string>; headers?: Record<string, string>; contentType?: string } = {}): Promise<Page> {
    const wanted: Record<string, string> = { ...(this.cookie ? { cookie: this.cookie } : {}) };
    if (method === 'POST') Object.assign(wanted, { origin: this.origin, 'sec-fetch-site': 'same-origin', 'content-type': init.contentType ?? FORM });
    Object.assign(wanted, init.headers);
    // An empty value leaves the header out, as a browser that does not send it would.
    const headers = Object.fromEntries(Object.entries(wanted).filter(([, value]) => value !== ''));
    const url = path.startsWith('http') ? path : `${this.origin}${path}`;
    const response = await this.sandbox.fetch(
      new Request(url, { method, headers, body: init.fields ? new URLSearchParams(init.fields).toString() : undefined, redirect: 'manual' }),
    );
    return { status: response.status, html: await response.text(), location: response.headers.get('location'), headers: response.headers };
  }

  get(path: string) {
    return this.request('GET', path);
  }

  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    return this.request('POST', path, { fields, headers });
  }

  async signIn(merchantId: string = SANDBOX_DEFAULTS.merchantId, apiKey: string = SANDBOX_DEFAULTS.apiKey): Promise<Page> {
    const answer = await this.post(`${SANDBOX_DASHBOARD_PATH}/login`, { merchantId, apiKey });
    const setCookie = answer.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0]!;
    return answer;
  }

  /** The CSRF token of the session, read from any signed-in page. */
  async csrfToken(): Promise<string> {
    return hiddenValue((await this.get(SANDBOX_DASHBOARD_PATH)).html, 'csrfToken');
  }

  /** Opens a record's page and submits its form for `action`, as a person clicking it would. */
  async act(recordPath: string, action: string, fields: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<Page> {
    const form = await this.form(recordPath, action);
    return this.post(form.action, { ...form.fields, ...fields }, headers);
  }

  async form(recordPath: string, action: string): Promise<{ action: string; fields: Record<string, string> }> {
    const page = await this.get(recordPath);
    expect(page.status).toBe(200);
    const form = actionForms(page.html).find((candidate) => candidate.action.endsWith(`/${action}`));
    if (!form) throw new Error(`no ${action} form on ${recordPath}`);
    return form;
  }
}

function hiddenValue(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html);
  if (!match) throw new Error(`no hidden ${name}`);
  return match[1]!;
}

function actionForms(html: string): { action: string; fields: Record<string, string> }[] {
  return [...html.matchAll(/<form class="action-form" method="post" action="([^"]+)">([\s\S]*?)<\/form>/g)].map((match) => ({
    action: match[1]!.replace(/&amp;/g, '&'),
    fields: Object.fromEntries([...match[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((hidden) => [hidden[1]!, hidden[2]!])),
  }));
}

const charges = (id = '') => `${SANDBOX_DASHBOARD_PATH}/charges${id ? `/${id}` : ''}`;
/** Events in the order the sandbox sent them (a receiver may get them in another order). */
const events = (sandbox: Sandbox) => sandbox.webhooks.list().map((delivery) => delivery.event).reverse();
const hook = (event: string) => hooks.find((candidate) => candidate.event === event)!;

/** Waits for every delivery, checks the receiver got each event, and returns them in order. */
async function delivered(sandbox: Sandbox): Promise<string[]> {
  await sandbox.webhooks.idle();
  const sent = events(sandbox);
  expect(hooks.map((candidate) => candidate.event).sort()).toEqual([...sent].sort());
  return sent;
}

async function signedIn(sandbox: Sandbox): Promise<Browser> {
  const browser = new Browser(sandbox);
  expect((await browser.signIn()).status).toBe(303);
  return browser;
}

async function qrCharge(client: SandboxClient, fields: Record<string, unknown> = {}) {
  return (await createQrCharge(client, { referenceId: 'order-1', ...fields })).chargeId;
}

describe('the sandbox dashboard', () => {
  describe('access', () => {
    sandboxTest('sends a browser without a session to the sign-in page, which is a strict, script-free HTML page', async ({ startInProcess }) => {
      const { sandbox } = startInProcess(dashboardOptions());
      const browser = new Browser(sandbox);
      const home = await browser.get(SANDBOX_DASHBOARD_PATH);
      expect(home.status).toBe(303);
      expect(home.location).toBe(`${SANDBOX_DASHBOARD_PATH}/login`);
      expect((await browser.get(charges())).location).toBe(`${SANDBOX_DASHBOARD_PATH}/login`);

      const login = await browser.get(`${SANDBOX_DASHBOARD_PATH}/login`);
      expect(login.status).toBe(200);
      expect(login.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(login.headers.get('cache-control')).toBe('no-store');
      const csp = login.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("form-action 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(login.headers.get('x-content-type-options')).toBe('nosniff');
      expect(login.html).toContain('name="apiKey"');
      expect(login.html).not.toMatch(/<script|style=/i);
    });

    sandboxTest('signs in with the merchant id and API key, in an HttpOnly SameSite=Strict cookie scoped to the dashboard', async ({ startInProcess }) => {
      const { sandbox } = startInProcess(dashboardOptions());
      const browser = new Browser(sandbox);
      const answer = await browser.signIn();
      expect(answer.status).toBe(303);
      expect(answer.location).toBe(SANDBOX_DASHBOARD_PATH);
      const cookie = answer.headers.get('set-cookie')!;
      expect(cookie).toMatch(new RegExp(`^${SANDBOX_DASHBOARD_COOKIE}=dss_[A-Za-z0-9]{32};`));
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Strict');
      expect(cookie).toContain(`Path=${SANDBOX_DASHBOARD_PATH}`);
      expect(cookie).not.toContain('Secure');
      const home = await browser.get(SANDBOX_DASHBOARD_PATH);
      expect(home.status).toBe(200);
      expect(home.html).toContain(SANDBOX_DEFAULTS.merchantId);
    });

    sandboxTest('marks the cookie Secure when the dashboard is reached over https', async ({ startInProcess }) => {
      const { sandbox } = startInProcess(dashboardOptions());
      const browser = new Browser(sandbox, 'https://sandbox.example');
      const answer = await browser.signIn();
      expect(answer.headers.get('set-cookie')).toContain('; Secure');
    });

    sandboxTest('refuses a wrong key, the publishable key, an unknown merchant and an empty key, without a cookie', async ({ startInProcess }) => {
      const { sandbox } = startInProcess(dashboardOptions());
      const attempts: [string, string][] = [
        [SANDBOX_DEFAULTS.merchantId, 'sk_wrong'],
        [SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.publishableKey],
        [SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.partnerApiKey],
        ['mch_nobody', SANDBOX_DEFAULTS.apiKey],
        [SANDBOX_DEFAULTS.merchantId, ''],
      ];
      for (const [merchantId, apiKey] of attempts) {
        const browser = new Browser(sandbox);
        const answer = await browser.signIn(merchantId, apiKey);
        expect(answer.status).toBe(401);
        expect(answer.headers.get('set-cookie')).toBeNull();
        expect(answer.html).toContain('do not match');
        expect(answer.html).not.toContain(apiKey || 'sk_sandbox');
      }
    });

    sandboxTest('refuses a sign-in form posted from another origin', async ({ startInProcess }) => {
      const { sandbox } = startInProcess(dashboardOptions());
      const browser = new Browser(sandbox);
      const answer = await browser.request('POST', `${SANDBOX_DASHBOARD_PATH}/login`, {
        fields: { merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey },
        headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
      });
      expect(answer.status).toBe(403);
      expect(answer.headers.get('set-cookie')).toBeNull();
    });

    sandboxTest('does not accept a made-up session id, and ends a session after its lifetime', async ({ startInProcess }) => {
      const { sandbox } = startInProcess(dashboardOptions());
      const stranger = new Browser(sandbox);
      stranger.cookie = `${SANDBOX_DASHBOARD_COOKIE}=dss_${'A'.repeat(32)}`;
      expect((await stranger.get(SANDBOX_DASHBOARD_PATH)).status).toBe(303);

      const browser = await signedIn(sandbox);
      now += SANDBOX_DASHBOARD_SESSION_TTL_MS - 1000;
      expect((await browser.get(SANDBOX_DASHBOARD_PATH)).status).toBe(200);
      now += 2000;
      expect((await browser.get(SANDBOX_DASHBOARD_PATH)).location).toBe(`${SANDBOX_DASHBOARD_PATH}/login`);
    });

    sandboxTest('signs out with a POST that clears the cookie and ends the session', async ({ startInProcess }) => {
      const { sandbox } = startInProcess(dashboardOptions());
      const browser = await signedIn(sandbox);
      const cookie = browser.cookie;
      const token = await browser.csrfToken();
      const out = await browser.post(`${SANDBOX_DASHBOARD_PATH}/logout`, { csrfToken: token });
      expect(out.status).toBe(303);
      expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
      const replay = new Browser(sandbox);
      replay.cookie = cookie;
      expect((await replay.get(SANDBOX_DASHBOARD_PATH)).status).toBe(303);
    });

    sandboxTest('refuses to sign out on GET with a 405 page that names POST, and keeps the session', async ({ startInProcess }) => {
      const { sandbox } = startInProcess(dashboardOptions());
      const browser = await signedIn(sandbox);
      for (const method of ['GET', 'HEAD']) {
        const answer = await browser.request(method, `${SANDBOX_DASHBOARD_PATH}/logout`);
        expect(answer.status, method).toBe(405);
        expect(answer.headers.get('allow'), method).toBe('POST');
        expect(answer.headers.get('content-type'), method).toContain('text/html');
      }
      expect((await browser.get(`${SANDBOX_DASHBOARD_PATH}/logout`)).html).toContain('GET is not allowed here; use POST');
      expect((await browser.get(SANDBOX_DASHBOARD_PATH)).status).toBe(200);
      expect((await new Browser(sandbox).get(`${SANDBOX_DASHBOARD_PATH}/logout`)).location).toBe(`${SANDBOX_DASHBOARD_PATH}/login`);
    });

    sandboxTest('shows each merchant only its own records', async ({ startInProcess }) => {
      const other: SandboxMerchant = { merchantId: 'mch_other', apiKey: 'sk_other_key', publishableKey: 'pk_other_key' };
      const { sandbox, client } = startInProcess(dashboardOptions({ merchants: [{ merchantId: SANDBOX_DEFAULTS.merchantId, apiKey: SANDBOX_DEFAULTS.apiKey, publishableKey: SANDBOX_DEFAULTS.publishableKey }, other] }));
      const mine = await client.chargeCard(VISA, { referenceId: 'order-of-default' });
      const otherCharge = await createQrCharge(client, { amount: 5000, referenceId: 'order-of-other' }, { auth: basic(other.merchantId, other.apiKey) });
      await sandbox.webhooks.idle();
      const browser = new Browser(sandbox);
      expect((await browser.signIn(other.merchantId, other.apiKey)).status).toBe(303);
      const list = await browser.get(charges());
      expect(list.html).toContain(otherCharge.chargeId);
      expect(list.html).not.toContain(mine.body.chargeId);
      expect((await browser.get(charges(mine.body.chargeId))).status).toBe(404);
      expect((await browser.get(`${SANDBOX_DASHBOARD_PATH}/transactions/${mine.body.chargeId}`)).status).toBe(404);
      const deliveries = await browser.get(`${SANDBOX_DASHBOARD_PATH}/webhooks`);
      expect(deliveries.html).not.toContain(mine.body.chargeId);
      const delivery = sandbox.webhooks.list().find((d) => d.resourceId === mine.body.chargeId)!;
      expect((await browser.get(`${SANDBOX_DASHBOARD_PATH}/webhooks/${delivery.deliveryId}`)).status).toBe(404);
    });

    it('is switched off from the command line with --no-dashboard or SANDBOX_DASHBOARD=off', () => {
      expect(parseCliOptions([], {})).not.toHaveProperty('dashboard');
      expect(parseCliOptions(['--no-dashboard'], {}).dashboard).toBe(false);
      expect(parseCliOptions([], { SANDBOX_DASHBOARD: 'off' }).dashboard).toBe(false);
      expect(parseCliOptions([], { SANDBOX_DASHBOARD: 'on' })).not.toHaveProperty('dashboard');
      expect(() => parseCliOptions([], { SANDBOX_DASHBOARD: 'maybe' })).toThrow(/SANDBOX_DASHBOARD must be on or off/);
    });

    sandboxTest('is not served at all when the sandbox is started with dashboard: false', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions({ dashboard: false }));
      const answer = await client.get(SANDBOX_DASHBOARD_PATH, { auth: null });
      expect(answer.status).toBe(404);
      expect(answer.body.error.errorCode).toBe('NOT_FOUND_ERROR');
      const login = await new Browser(sandbox).signIn();
      expect(login.status).toBe(404);
    });
  });

  describe('CSRF protection', () => {
    async function pendingCharge(client: SandboxClient) {
      const created = await client.chargeCard(OTP_CARD);
      return created.body.chargeId as string;
    }

    sandboxTest('refuses an action without the CSRF token, or with another session’s', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const browser = await signedIn(sandbox);
      const other = await signedIn(sandbox);
      const chargeId = await pendingCharge(client);
      const form = await browser.form(charges(chargeId), 'succeed');
      const { csrfToken: _token, ...withoutToken } = form.fields;
      expect((await browser.post(form.action, withoutToken)).status).toBe(403);
      expect((await browser.post(form.action, { ...form.fields, csrfToken: 'x'.repeat(32) })).status).toBe(403);
      expect((await browser.post(form.action, { ...form.fields, csrfToken: await other.csrfToken() })).status).toBe(403);
      expect((await client.getCharge(chargeId)).status).toBe('PENDING');
      expect(events(sandbox)).not.toContain('charge.succeeded');
    });

    sandboxTest('refuses a form a browser says came from another origin or site, even with the right token', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const browser = await signedIn(sandbox);
      const chargeId = await pendingCharge(client);
      const form = await browser.form(charges(chargeId), 'succeed');
      const refusals = [
        { origin: 'http://localhost:5173', 'sec-fetch-site': 'same-site' },
        { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
        { origin: 'null', 'sec-fetch-site': 'cross-site' },
        { origin: 'http://evil.example', 'sec-fetch-site': '' },
        { origin: '', 'sec-fetch-site': 'same-site' },
      ];
      for (const headers of refusals) {
        const answer = await browser.post(form.action, form.fields, headers);
        expect(answer.status, JSON.stringify(headers)).toBe(403);
        expect(answer.html).toContain('only takes forms sent from its own pages');
      }
      expect((await client.getCharge(chargeId)).status).toBe('PENDING');
      // Neither header (a script holding the cookie and token, or a browser told to leave them out): no same-origin signal.
      const bare = await browser.post(form.action, form.fields, { origin: '', 'sec-fetch-site': '' });
      expect(bare.status).toBe(403);
      expect(bare.html).toContain('only takes forms sent from its own pages');
      expect((await client.getCharge(chargeId)).status).toBe('PENDING');
    });

    sandboxTest.for<[string, Record<string, string>]>([
      ['its own Origin alone', { 'sec-fetch-site': '' }],
      ['Sec-Fetch-Site: same-origin alone', { origin: '' }],
    ])('accepts a form with %s', async ([, headers], { startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const browser = await signedIn(sandbox);
      const chargeId = await pendingCharge(client);
      const form = await browser.form(charges(chargeId), 'succeed');
      expect((await browser.post(form.action, form.fields, headers)).status).toBe(303);
      expect((await client.getCharge(chargeId)).status).toBe('SUCCEEDED');
    });

    sandboxTest('accepts the origin of publicUrl as its own', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions({ publicUrl: 'http://sandbox.localhost:4010' }));
      const browser = await signedIn(sandbox);
      const chargeId = await pendingCharge(client);
      const answer = await browser.act(charges(chargeId), 'succeed', {}, { origin: 'http://sandbox.localhost:4010' });
      expect(answer.status).toBe(303);
    });

    sandboxTest('refuses the sign-out form without the token', async ({ startInProcess }) => {
      const { sandbox } = startInProcess(dashboardOptions());
      const browser = await signedIn(sandbox);
      expect((await browser.post(`${SANDBOX_DASHBOARD_PATH}/logout`, {})).status).toBe(403);
      expect((await browser.get(SANDBOX_DASHBOARD_PATH)).status).toBe(200);
    });

    sandboxTest('only changes state on POST, and only from a form post', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const browser = await signedIn(sandbox);
      const chargeId = await pendingCharge(client);
      const form = await browser.form(charges(chargeId), 'succeed');
      const get = await browser.get(form.action);
      expect(get.status).toBe(405);
      expect(get.headers.get('allow')).toBe('POST');
      const json = await browser.request('POST', form.action, { fields: form.fields, contentType: 'application/json' });
      expect(json.status).toBe(415);
      expect(json.html).toContain('The dashboard takes form posts (application/x-www-form-urlencoded).');
      expect((await browser.request('DELETE', charges(chargeId))).status).toBe(405);
      expect((await client.getCharge(chargeId)).status).toBe('PENDING');
    });

    sandboxTest('refuses an action without a session, with a page that links to the sign-in', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const browser = await signedIn(sandbox);
      const chargeId = await pendingCharge(client);
      const form = await browser.form(charges(chargeId), 'succeed');
      const stranger = new Browser(sandbox);
      const answer = await stranger.post(form.action, form.fields);
      expect(answer.status).toBe(401);
      expect(answer.html).toContain(`href="${SANDBOX_DASHBOARD_PATH}/login"`);
      expect((await client.getCharge(chargeId)).status).toBe('PENDING');
    });
  });

  describe('lists and details', () => {
    sandboxTest('lists charges newest first, with status, amount, method, source and failure code, one page at a time', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const ok = await client.chargeCard(VISA, { referenceId: 'order-ok', amount: 123_456 });
      const failed = await client.chargeCard('4943129900084541', { referenceId: 'order-poor' });
      const qr = await qrCharge(client, { referenceId: 'order-qr' });
      const browser = await signedIn(sandbox);
      const list = await browser.get(charges());
      expect(list.status).toBe(200);
      const ids = [...list.html.matchAll(/<th scope="row"><a class="mono" href="[^"]+">(ch_[A-Za-z0-9]+)<\/a>/g)].map((m) => m[1]);
      expect(ids).toEqual([qr, failed.body.chargeId, ok.body.chargeId]);
      expect(list.html).toContain('฿1,234.56');
      expect(list.html).toContain('CH_INSUFFICIENT_FUNDS');
      expect(list.html).toContain('PromptPay QR');
      expect(list.html).toMatch(/badge-succeeded">SUCCEEDED/);
      expect(list.html).toMatch(/badge-failed">FAILED/);
      expect(list.html).toMatch(/badge-pending">PENDING/);
      expect(list.html).toContain('<td>API</td>');
      expect(list.html).toContain('1–3 of 3');

      const first = await browser.get(`${charges()}?limit=2`);
      expect(first.html).toContain(qr);
      expect(first.html).toContain(failed.body.chargeId);
      expect(first.html).not.toContain(ok.body.chargeId);
      expect(first.html).toContain('1–2 of 3');
      expect(first.html).toContain(`href="${charges()}?offset=2&amp;limit=2" rel="next"`);
      const second = await browser.get(`${charges()}?offset=2&limit=2`);
      expect(second.html).toContain(ok.body.chargeId);
      expect(second.html).not.toContain(qr);
      expect(second.html).toContain(`href="${charges()}?offset=0&amp;limit=2" rel="prev"`);
      expect(second.html).not.toContain('rel="next"');
    });

    sandboxTest('answers bad paging with a 400 page', async ({ startInProcess }) => {
      const { sandbox } = startInProcess(dashboardOptions());
      const browser = await signedIn(sandbox);
      for (const query of ['limit=0', 'limit=101', 'offset=-1', 'limit=abc', 'offset=1e3']) {
        const answer = await browser.get(`${charges()}?${query}`);
        expect(answer.status, query).toBe(400);
        expect(answer.headers.get('content-type')).toContain('text/html');
        expect(answer.html, query).toContain(`The page address is wrong: ${query.split('=')[0]!} must be a whole number`);
      }
      expect((await browser.get(`${charges()}?limit=101`)).html).toContain('The page address is wrong: limit must be a whole number from 1 to 100.');
    });

    sandboxTest('shows a charge with its card, transactions, refunds and webhooks, each linked', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const created = await client.chargeCard(VISA, { referenceId: 'order-77', amount: 20_000 });
      const chargeId = created.body.chargeId as string;
      const refund = await client.post('/api/v1/refunds', { chargeId, amount: 5_000, reason: 'damaged' });
      await vi.waitFor(async () => expect((await client.get(`/api/v1/refunds/${refund.body.refundId}`)).body.status).toBe('SUCCEEDED'));
      await sandbox.webhooks.idle();
      const browser = await signedIn(sandbox);
      const page = await browser.get(charges(chargeId));
      expect(page.status).toBe(200);
      expect(page.html).toContain(`<h1>Charge ${chargeId}</h1>`);
      expect(page.html).toContain('VISA •••• 1111');
      expect(page.html).toContain('order-77');
      expect(page.html).toContain('฿200.00');
      expect(page.html).toContain('฿50.00');
      expect(page.html).toContain(`href="${SANDBOX_DASHBOARD_PATH}/transactions/${chargeId}"`);
      expect(page.html).toContain(`href="${SANDBOX_DASHBOARD_PATH}/transactions/${refund.body.refundId}"`);
      expect(page.html).toContain(`href="${SANDBOX_DASHBOARD_PATH}/refunds/${refund.body.refundId}"`);
      expect(page.html).toContain('charge.succeeded');

      const refundPage = await browser.get(`${SANDBOX_DASHBOARD_PATH}/refunds/${refund.body.refundId}`);
      expect(refundPage.status).toBe(200);
      expect(refundPage.html).toContain('damaged');
      expect(refundPage.html).toContain(`href="${charges(chargeId)}"`);
      expect(refundPage.html).toContain('refund.succeeded');
      const refundList = await browser.get(`${SANDBOX_DASHBOARD_PATH}/refunds`);
      expect(refundList.html).toContain(refund.body.refundId);

      const transaction = await browser.get(`${SANDBOX_DASHBOARD_PATH}/transactions/${chargeId}`);
      expect(transaction.status).toBe(200);
      const api = (await client.get(`/api/v1/transactions/${chargeId}`)).body;
      expect(transaction.html).toContain('PAYMENT');
      expect(transaction.html).toContain(`฿${(api.netAmount / 100).toFixed(2)}`);
      expect(transaction.html).toContain('transaction.created');
      const transactions = await browser.get(`${SANDBOX_DASHBOARD_PATH}/transactions`);
      expect(transactions.html).toContain('REFUND');
    });

    sandboxTest('shows card authorizations with their captures', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const cardTokenId = await client.tokenize(VISA);
      const created = await client.post('/api/v1/card-authorizations', {
        amount: 50_000,
        currency: 'THB',
        referenceId: 'auth-1',
        supportsMulticapture: true,
        paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } },
      });
      const id = created.body.cardAuthorizationId as string;
      const capture = await client.post(`/api/v1/card-authorizations/${id}/charges`, { amount: 20_000, currency: 'THB', referenceId: 'cap-1' });
      const browser = await signedIn(sandbox);
      const list = await browser.get(`${SANDBOX_DASHBOARD_PATH}/card-authorizations`);
      expect(list.html).toContain(id);
      expect(list.html).toMatch(/badge-authorized">AUTHORIZED/);
      const page = await browser.get(`${SANDBOX_DASHBOARD_PATH}/card-authorizations/${id}`);
      expect(page.status).toBe(200);
      expect(page.html).toContain('฿300.00');
      expect(page.html).toContain(`href="${charges(capture.body.chargeId)}"`);
      const charge = await browser.get(charges(capture.body.chargeId));
      expect(charge.html).toContain(`href="${SANDBOX_DASHBOARD_PATH}/card-authorizations/${id}"`);
    });

    sandboxTest('lists webhook deliveries with their event, status, attempts and response code', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      hookStatus = 500;
      const created = await client.chargeCard(VISA);
      await vi.waitFor(() => expect(sandbox.webhooks.list().map((d) => d.attempts.length)).toEqual([1, 1]));
      const browser = await signedIn(sandbox);
      const list = await browser.get(`${SANDBOX_DASHBOARD_PATH}/webhooks`);
      expect(list.html).toContain('charge.succeeded');
      expect(list.html).toContain('transaction.created');
      expect(list.html).toMatch(/badge-pending">PENDING/);
      expect(list.html).toContain('<td>500</td>');
      const delivery = sandbox.webhooks.list().find((d) => d.event === 'charge.succeeded')!;
      const page = await browser.get(`${SANDBOX_DASHBOARD_PATH}/webhooks/${delivery.deliveryId}`);
      expect(page.status).toBe(200);
      expect(page.html).toContain(HOOK_URL);
      expect(page.html).toContain(`href="${charges(created.body.chargeId)}"`);
      expect(page.html).toContain('&quot;chargeId&quot;');
      expect(page.html).toContain('Attempts');
    });

    sandboxTest('says webhooks are off when no webhook URL is configured', async ({ startInProcess }) => {
      const { sandbox } = startInProcess(dashboardOptions({ webhook: {} }));
      const browser = await signedIn(sandbox);
      const list = await browser.get(`${SANDBOX_DASHBOARD_PATH}/webhooks`);
      expect(list.html).toContain('Webhooks are off');
    });

    sandboxTest('counts each section on the overview', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      await client.chargeCard(VISA);
      await qrCharge(client);
      const browser = await signedIn(sandbox);
      const home = await browser.get(SANDBOX_DASHBOARD_PATH);
      expect(home.html).toMatch(/Charges<\/span><span class="overview-count">2</);
      expect(home.html).toMatch(/Transactions<\/span><span class="overview-count">1</);
    });

    sandboxTest('answers unknown records, sections and actions with 404 pages', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const created = await client.chargeCard(VISA);
      const browser = await signedIn(sandbox);
      const token = await browser.csrfToken();
      const paths = [
        charges('ch_doesnotexist'),
        `${SANDBOX_DASHBOARD_PATH}/refunds/re_nope`,
        `${SANDBOX_DASHBOARD_PATH}/transactions/nope`,
        `${SANDBOX_DASHBOARD_PATH}/card-authorizations/ca_nope`,
        `${SANDBOX_DASHBOARD_PATH}/webhooks/whd_nope`,
        `${SANDBOX_DASHBOARD_PATH}/nothing-here`,
        `${charges(created.body.chargeId)}/extra/segments`,
        `${SANDBOX_DASHBOARD_PATH}/charges/%E0%A4%A`,
      ];
      for (const path of paths) {
        const answer = await browser.get(path);
        expect(answer.status, path).toBe(404);
        expect(answer.headers.get('content-type'), path).toContain('text/html');
        expect(answer.html).toContain('Not found');
      }
      const unknownAction = await browser.post(`${charges(created.body.chargeId)}/explode`, { csrfToken: token, formId: 'abcdefgh12345678' });
      expect(unknownAction.status).toBe(404);
      const unknownRecord = await browser.post(`${charges('ch_nope')}/succeed`, { csrfToken: token, formId: 'abcdefgh12345678' });
      expect(unknownRecord.status).toBe(404);
      // An address that names no section is not found whatever the method, not a method refused.
      for (const path of [`${SANDBOX_DASHBOARD_PATH}/nothing-here`, `${SANDBOX_DASHBOARD_PATH}/nothing-here/x`, `${SANDBOX_DASHBOARD_PATH}/%E0%A4%A`]) {
        const posted = await browser.post(path, { csrfToken: token });
        expect(posted.status, path).toBe(404);
        expect(posted.headers.get('allow'), path).toBeNull();
      }
    });

    sandboxTest('shows a referenceId holding markup as text, on lists, details and webhook bodies', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const reference = '<script>alert("x")</script><img src=x onerror=alert(1)>';
      const created = await client.chargeCard(VISA, { referenceId: reference });
      await sandbox.webhooks.idle();
      const browser = await signedIn(sandbox);
      const delivery = sandbox.webhooks.list().find((d) => d.event === 'charge.succeeded')!;
      for (const path of [charges(), charges(created.body.chargeId), `${SANDBOX_DASHBOARD_PATH}/transactions`, `${SANDBOX_DASHBOARD_PATH}/webhooks/${delivery.deliveryId}`]) {
        const page = await browser.get(path);
        expect(page.status).toBe(200);
        expect(page.html, path).not.toMatch(/<script|<img/i);
        expect(page.html, path).toContain('&lt;script&gt;alert(');
      }
    });

    sandboxTest('serves its stylesheet, the hosted pages’ rules and its own, as CSS', async ({ startInProcess }) => {
      const { sandbox } = startInProcess(dashboardOptions());
      const css = await new Browser(sandbox).get(`${SANDBOX_DASHBOARD_PATH}/style.css`);
      expect(css.status).toBe(200);
      expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
      expect(css.html).toContain('.sandbox-banner');
      expect(css.html).toContain('.data-table');
    });
  });

  describe('completing pending payments', () => {
    sandboxTest('marks a 3-D Secure charge succeeded as the OTP page does: charge.succeeded, then the transaction and its webhook', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const created = await client.chargeCard(OTP_CARD);
      const chargeId = created.body.chargeId as string;
      const browser = await signedIn(sandbox);
      const answer = await browser.act(charges(chargeId), 'succeed');
      expect(answer.status).toBe(303);
      expect(answer.location).toBe(`${charges(chargeId)}?done=succeed`);
      const charge = await client.getCharge(chargeId);
      expect(charge.status).toBe('SUCCEEDED');
      expect(charge.paymentMethod.card.iso8583ResponseCode).toBe('00');
      expect((await client.get(`/api/v1/transactions/${chargeId}`)).status).toBe(200);
      expect(await delivered(sandbox)).toEqual(['charge.succeeded', 'transaction.created']);
      expect(hook('charge.succeeded').body).toEqual(charge);
      const after = await browser.get(answer.location!);
      expect(after.html).toContain('role="status"');
      expect(after.html).toContain('The charge succeeded');
      expect(actionForms(after.html).map((f) => f.action.split('/').pop())).toEqual(['refund']);
    });

    sandboxTest('fails each method with the failure code its hosted page gives', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const otp = (await client.chargeCard(OTP_CARD)).body.chargeId as string;
      const force = (await client.chargeCard(FORCE_CARD)).body.chargeId as string;
      const wallet = (await client.createCharge({ paymentMethod: { paymentMethodType: 'TRUE_MONEY', trueMoney: {} } })).body.chargeId as string;
      const bank = (await client.createCharge({ deviceType: 'IOS', paymentMethod: { paymentMethodType: 'KPLUS', kPlus: {} } })).body.chargeId as string;
      const qr = await qrCharge(client);
      const browser = await signedIn(sandbox);
      for (const id of [otp, force, wallet, bank, qr]) expect((await browser.act(charges(id), 'fail')).status).toBe(303);
      const codes = await Promise.all([otp, force, wallet, bank, qr].map(async (id) => (await client.getCharge(id)).failureCode));
      expect(codes).toEqual(['CH_AUTHENTICATION_FAILED', 'CH_PROCESSING_FAILED', 'CH_AUTHENTICATION_FAILED', 'CH_AUTHENTICATION_FAILED', 'CH_PROCESSING_FAILED']);
      expect(await delivered(sandbox)).toEqual(['charge.failed', 'charge.failed', 'charge.failed', 'charge.failed', 'charge.failed']);
      expect((await client.get('/api/v1/transactions')).body.totalCount).toBe(0);

      // The same as the hosted pages themselves.
      const viaPage = (await client.createCharge({ returnUrl: 'https://shop.example/r', paymentMethod: { paymentMethodType: 'TRUE_MONEY', trueMoney: {} } })).body;
      await client.submitPage(viaPage.redirect.redirectUrl, { decision: 'decline' });
      expect((await client.getCharge(viaPage.chargeId)).failureCode).toBe('CH_AUTHENTICATION_FAILED');
    });

    sandboxTest('pays a pending QR charge, and refuses one whose QR code has expired', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const paid = await qrCharge(client);
      const browser = await signedIn(sandbox);
      expect((await browser.act(charges(paid), 'succeed')).status).toBe(303);
      expect((await client.getCharge(paid)).status).toBe('SUCCEEDED');
      expect((await client.get(`/api/v1/transactions/${paid}`)).body.grossAmount).toBe(10_000);

      const late = await qrCharge(client);
      const form = await browser.form(charges(late), 'succeed');
      now += 11 * 60 * 1000;
      const answer = await browser.post(form.action, form.fields);
      expect(answer.status).toBe(403);
      expect(answer.html).toContain('role="alert"');
      expect(answer.html).toContain('can no longer be paid');
      expect((await client.getCharge(late)).status).toBe('PENDING');
    });

    sandboxTest('refuses a form that is out of date because the payment completed elsewhere', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const created = await client.chargeCard(FORCE_CARD);
      const chargeId = created.body.chargeId as string;
      const browser = await signedIn(sandbox);
      const form = await browser.form(charges(chargeId), 'fail');
      await client.submitPage(created.body.redirect.redirectUrl, { outcome: 'succeed' });
      const answer = await browser.post(form.action, form.fields);
      expect(answer.status).toBe(409);
      expect(answer.html).toContain('is not possible for this charge any more');
      expect((await client.getCharge(chargeId)).status).toBe('SUCCEEDED');
    });

    sandboxTest('does not offer to complete a charge that is not pending', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const created = await client.chargeCard(VISA);
      const browser = await signedIn(sandbox);
      const page = await browser.get(charges(created.body.chargeId));
      expect(actionForms(page.html).map((f) => f.action.split('/').pop())).toEqual(['refund']);
      const failed = await client.chargeCard('4943129900084541');
      expect(actionForms((await browser.get(charges(failed.body.chargeId))).html)).toEqual([]);
    });
  });

  describe('refunds', () => {
    sandboxTest('refunds a whole charge through the refunds API code, with refund.succeeded and a REFUND transaction', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const created = await client.chargeCard(VISA, { amount: 30_000 });
      const chargeId = created.body.chargeId as string;
      expect(await delivered(sandbox)).toEqual(['charge.succeeded', 'transaction.created']);
      const browser = await signedIn(sandbox);
      const answer = await browser.act(charges(chargeId), 'refund', { reason: 'customer asked' });
      expect(answer.status).toBe(303);
      expect(answer.location).toBe(`${charges(chargeId)}?done=refund`);
      await vi.waitFor(() => expect(events(sandbox)).toHaveLength(4));
      expect(await delivered(sandbox)).toEqual(['charge.succeeded', 'transaction.created', 'refund.succeeded', 'transaction.created']);
      const refund = hook('refund.succeeded').body as Refund;
      expect(refund).toMatchObject({ chargeId, amount: 30_000, refundReason: 'customer asked', status: 'SUCCEEDED' });
      expect((await client.get(`/api/v1/refunds/${refund.refundId}`)).body).toEqual(refund);
      expect(hooks.find((candidate) => candidate.body.transactionId === refund.refundId)!.body).toMatchObject({ transactionType: 'REFUND', grossAmount: 30_000 });
      const after = await browser.get(answer.location!);
      expect(after.html).toContain('Refund created');
      expect(after.html).toContain(refund.refundId);
      expect(actionForms(after.html)).toEqual([]);
    });

    sandboxTest('refunds part of a card charge, once however often the form is sent', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const created = await client.createCharge({
        amount: 10_000,
        paymentMethod: { paymentMethodType: 'CARD', card: { pan: VISA, cardHolderName: 'Somchai Jaidee', expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, securityCode: '123' } },
      });
      const chargeId = created.body.chargeId as string;
      const browser = await signedIn(sandbox);
      const form = await browser.form(charges(chargeId), 'refund');
      expect(Object.keys(form.fields).sort()).toEqual(['csrfToken', 'formId']);
      const first = await browser.post(form.action, { ...form.fields, amount: '25.50' });
      const again = await browser.post(form.action, { ...form.fields, amount: '25.50' });
      expect(again.status).toBe(303);
      expect(again.location).toBe(first.location);
      await vi.waitFor(() => expect(events(sandbox).filter((e) => e === 'refund.succeeded')).toHaveLength(1));
      const refunds = [...sandbox.store.refunds.values()].map(({ refund }) => refund);
      expect(refunds).toHaveLength(1);
      expect(refunds[0]).toMatchObject({ amount: 2_550, status: 'SUCCEEDED' });
      const page = await browser.get(charges(chargeId));
      expect(page.html).toContain('฿25.50');
      expect(actionForms(page.html).map((f) => f.action.split('/').pop())).toEqual(['refund']);
    });

    sandboxTest('offers only a full refund for a charge that is not CARD, and shows the API’s refusals', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const qr = await qrCharge(client);
      const browser = await signedIn(sandbox);
      await browser.act(charges(qr), 'succeed');
      const page = await browser.get(charges(qr));
      expect(page.html).not.toContain('name="amount"');
      const partial = await browser.act(charges(qr), 'refund', { amount: '10' });
      expect(partial.status).toBe(400);
      expect(partial.html).toContain('partial refunds are only possible for CARD charges');

      const refused = await client.chargeCard('4000007640000003');
      const answer = await browser.act(charges(refused.body.chargeId), 'refund');
      expect(answer.status).toBe(403);
      expect(answer.html).toContain('refunds are not allowed for this card');

      const card = await client.chargeCard(VISA);
      const tooMuch = await browser.act(charges(card.body.chargeId), 'refund', { amount: '100.01' });
      expect(tooMuch.status).toBe(400);
      const notMoney = await browser.act(charges(card.body.chargeId), 'refund', { amount: '12.345' });
      expect(notMoney.status).toBe(400);
      expect(notMoney.html).toContain('must be an amount in baht');
      expect(sandbox.store.refunds.size).toBe(0);
    });

    it('reads amounts in baht exactly', () => {
      expect(satangFromBaht('', 'amount')).toBeUndefined();
      expect(satangFromBaht(' 1,234.5 ', 'amount')).toBe(123_450);
      expect(satangFromBaht('฿0.07', 'amount')).toBe(7);
      expect(satangFromBaht('19.99', 'amount')).toBe(1_999);
      expect(() => satangFromBaht('-1', 'amount')).toThrow(/amount in baht/);
      expect(() => satangFromBaht('1e3', 'amount')).toThrow(/amount in baht/);
    });
  });

  describe('card authorization actions', () => {
    async function authorize(client: SandboxClient, pan: string, fields: Record<string, unknown> = {}) {
      const cardTokenId = await client.tokenize(pan);
      const created = await client.post('/api/v1/card-authorizations', {
        amount: 50_000,
        currency: 'THB',
        referenceId: 'auth-ref',
        paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode: '123' } },
        ...fields,
      });
      return created.body.cardAuthorizationId as string;
    }
    const authorizations = (id: string) => `${SANDBOX_DASHBOARD_PATH}/card-authorizations/${id}`;

    sandboxTest('completes a pending authorization as the OTP page would', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const id = await authorize(client, OTP_CARD);
      const browser = await signedIn(sandbox);
      expect((await browser.act(authorizations(id), 'authorize')).status).toBe(303);
      expect((await client.get(`/api/v1/card-authorizations/${id}`)).body.status).toBe('AUTHORIZED');
      const failing = await authorize(client, OTP_CARD);
      await browser.act(authorizations(failing), 'fail');
      expect((await client.get(`/api/v1/card-authorizations/${failing}`)).body).toMatchObject({ status: 'FAILED', failureCode: 'CH_AUTHENTICATION_FAILED' });
      expect(await delivered(sandbox)).toEqual(['card_authorization.authorized', 'card_authorization.failed']);
    });

    sandboxTest('captures part of an authorization and cancels another', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const id = await authorize(client, VISA, { supportsMulticapture: true });
      const browser = await signedIn(sandbox);
      const captured = await browser.act(authorizations(id), 'capture', { amount: '120' });
      expect(captured.status).toBe(303);
      const authorization = (await client.get(`/api/v1/card-authorizations/${id}`)).body;
      expect(authorization).toMatchObject({ status: 'AUTHORIZED', capturedAmount: 12_000, capturableAmount: 38_000 });
      expect(await client.getCharge(authorization.latestChargeId)).toMatchObject({ status: 'SUCCEEDED', amount: 12_000, sourceId: id });

      const other = await authorize(client, VISA);
      expect((await browser.act(authorizations(other), 'cancel')).status).toBe(303);
      expect((await client.get(`/api/v1/card-authorizations/${other}`)).body.status).toBe('CANCELED');
      expect(await delivered(sandbox)).toEqual(['card_authorization.authorized', 'charge.succeeded', 'transaction.created', 'card_authorization.authorized', 'card_authorization.canceled']);
      expect(actionForms((await browser.get(authorizations(other))).html)).toEqual([]);
    });
  });

  describe('payment links', () => {
    const links = (id = '') => `${SANDBOX_DASHBOARD_PATH}/payment-links${id ? `/${id}` : ''}`;
    async function createLink(client: SandboxClient, referenceId: string) {
      const answer = await client.post('/api/v1/payment-links', {
        order: { netAmount: 159_000, currency: 'THB', description: 'Ceramic tea set', referenceId },
        collectPhoneNumber: false,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body as { id: string; url: string };
    }
    /** Chooses `method` on the link's pay page and submits it, as the payer does. */
    async function payOnPage(sandbox: Sandbox, url: string, method: string) {
      const page = await sandbox.fetch(new Request(url));
      const form = /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(await page.text())!;
      const fields: Record<string, string> = { method };
      for (const input of form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[input[1]!] = input[2]!;
      const response = await sandbox.fetch(
        new Request(`${ORIGIN}${form[1]!.replace(/&amp;/g, '&')}`, { method: 'POST', headers: { 'content-type': FORM }, body: new URLSearchParams(fields).toString(), redirect: 'manual' }),
      );
      expect(response.status).toBe(303);
    }

    sandboxTest('lists links with status, amount and pay page, and completes a link’s pending charge so the link is PAID', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const link = await createLink(client, 'order-link-1');
      const browser = await signedIn(sandbox);
      const list = await browser.get(links());
      expect(list.html).toContain(link.id);
      expect(list.html).toMatch(/badge-active">ACTIVE/);
      expect(list.html).toContain('฿1,590.00');
      const page = await browser.get(links(link.id));
      expect(page.html).toContain(`<a class="mono" href="${link.url}" rel="noreferrer">`);

      await payOnPage(sandbox, link.url, 'TRUE_MONEY');
      const charge = sandbox.store.charges.values().next().value!.charge;
      expect(charge).toMatchObject({ status: 'PENDING', source: 'PAYMENT_LINK', sourceId: link.id });
      const withCharge = await browser.get(links(link.id));
      expect(withCharge.html).toContain(`href="${charges(charge.chargeId)}"`);
      expect((await browser.get(charges(charge.chargeId))).html).toContain(`href="${links(link.id)}"`);

      expect((await browser.act(charges(charge.chargeId), 'succeed')).status).toBe(303);
      expect((await client.get(`/api/v1/payment-links/${link.id}`)).body.status).toBe('PAID');
      expect(await delivered(sandbox)).toEqual(['payment_link.paid', 'charge.succeeded', 'transaction.created']);
      const paid = await browser.get(links(link.id));
      expect(paid.html).toMatch(/badge-paid">PAID/);
      expect(actionForms(paid.html)).toEqual([]);
      expect(paid.html).toContain('payment_link.paid');
    });

    sandboxTest('disables an active link', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const link = await createLink(client, 'order-link-2');
      const browser = await signedIn(sandbox);
      const answer = await browser.act(links(link.id), 'disable');
      expect(answer.status).toBe(303);
      expect(answer.location).toBe(`${links(link.id)}?done=disable`);
      expect((await client.get(`/api/v1/payment-links/${link.id}`)).body.status).toBe('DISABLED');
      const page = await browser.get(answer.location!);
      expect(page.html).toContain('Disabled: the link can no longer be paid.');
      expect(actionForms(page.html)).toEqual([]);
    });
  });

  describe('bolt intents, devices and connections', () => {
    const intents = (id = '') => `${SANDBOX_DASHBOARD_PATH}/bolt-intents${id ? `/${id}` : ''}`;
    const devices = (id = '') => `${SANDBOX_DASHBOARD_PATH}/bolt-devices${id ? `/${id}` : ''}`;
    const connections = (id = '') => `${SANDBOX_DASHBOARD_PATH}/bolt-connections${id ? `/${id}` : ''}`;
    const merchant = (sandbox: Sandbox) => sandbox.merchants.get(SANDBOX_DEFAULTS.merchantId)!;
    /** Pairs with the merchant's newest device through the API, with the code it shows. */
    async function connect(client: SandboxClient): Promise<{ id: string; deviceId: string }> {
      const [device] = (await client.get('/api/v1/bolt-devices')).body.data as { boltDeviceId: string }[];
      const answer = await client.post('/api/v1/bolt-connections', { pairingCode: client.sandbox.bolt.pairingCode(merchant(client.sandbox), device!.boltDeviceId) });
      expect(answer.status).toBe(201);
      return answer.body;
    }
    async function createIntent(client: SandboxClient, fields: Record<string, unknown> = {}) {
      const answer = await client.post('/api/v1/bolt-intents', {
        amount: 45_000,
        currency: 'THB',
        referenceId: 'table-12',
        expiryDurationInSec: 120,
        boltConnectionId: (await connect(client)).id,
        mode: { type: 'PAIRING' },
        paymentMethod: { paymentMethodType: 'CARD' },
        ...fields,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body.id as string;
    }
    const getIntent = async (client: SandboxClient, id: string) => (await client.get(`/api/v1/bolt-intents/${id}`)).body;

    sandboxTest('lists intents with status and result, and pays one as the terminal does', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const id = await createIntent(client);
      const browser = await signedIn(sandbox);
      const list = await browser.get(intents());
      expect(list.html).toContain(id);
      expect(list.html).toMatch(/badge-active">ACTIVE/);
      expect(list.html).toContain('<td>PAIRING</td>');

      expect((await browser.act(intents(id), 'pay')).status).toBe(303);
      const intent = await getIntent(client, id);
      expect(intent).toMatchObject({ status: 'PAID', result: 'CH_SUCCEEDED', latestChargeStatus: 'SUCCEEDED', updatedBy: 'device' });
      expect(await client.getCharge(intent.latestChargeId)).toMatchObject({ status: 'SUCCEEDED', sourceId: id, amount: 45_000 });
      expect(await delivered(sandbox)).toEqual(['charge.succeeded', 'transaction.created', 'bolt_intent.paid']);
      const page = await browser.get(intents(id));
      expect(page.html).toMatch(/badge-paid">PAID/);
      expect(page.html).toContain('CH_SUCCEEDED');
      expect(page.html).toContain(`href="${charges(intent.latestChargeId)}"`);
      expect(actionForms(page.html)).toEqual([]);
    });

    sandboxTest('declines a payment with the chosen failure code, leaving the intent open, and cancels it', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const id = await createIntent(client, { boltConnectionId: undefined, mode: { type: 'DEEP_LINK', deepLink: { returnUrl: 'https://shop.example/back' } }, paymentMethod: { paymentMethodType: 'TRUE_MONEY' } });
      const browser = await signedIn(sandbox);
      const wrong = await browser.act(intents(id), 'decline', { failureCode: 'CH_NOPE' });
      expect(wrong.status).toBe(400);
      expect(wrong.html).toContain('failureCode must be one of');
      expect((await browser.act(intents(id), 'decline', { failureCode: 'CH_INSUFFICIENT_FUNDS' })).status).toBe(303);
      expect(await getIntent(client, id)).toMatchObject({ status: 'ACTIVE', result: 'CH_INSUFFICIENT_FUNDS', latestChargeFailureCode: 'CH_INSUFFICIENT_FUNDS', updatedBy: 'shopper' });
      expect((await browser.act(intents(id), 'cancel')).status).toBe(303);
      expect(await getIntent(client, id)).toMatchObject({ status: 'CANCELED', result: 'BI_CANCELED' });
      expect(await delivered(sandbox)).toEqual(['charge.failed', 'bolt_intent.canceled']);
    });

    sandboxTest('lists the merchant’s devices, asks one for a health check and renames it', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions({ bolt: { healthCheckDelayMs: 0 } }));
      const browser = await signedIn(sandbox);
      const list = await browser.get(devices());
      const seeded = (await client.get('/api/v1/bolt-devices')).body.data as { boltDeviceId: string; name: string }[];
      expect(seeded.length).toBeGreaterThan(0);
      for (const device of seeded) expect(list.html).toContain(device.boltDeviceId);
      const id = seeded[0]!.boltDeviceId;
      now += 60_000;
      expect((await browser.act(devices(id), 'health-check')).status).toBe(303);
      await vi.waitFor(async () => expect((await client.get(`/api/v1/bolt-devices/${id}`)).body.latestMetric.reportedAt).toBe(new Date(now).toISOString()));
      expect((await browser.get(devices(id))).html).toContain(new Date(now).toISOString());
      expect((await browser.act(devices(id), 'rename', { name: 'Counter <2>' })).status).toBe(303);
      expect((await client.get(`/api/v1/bolt-devices/${id}`)).body.name).toBe('Counter <2>');
      expect((await browser.get(devices(id))).html).toContain('Counter &lt;2&gt;');
      expect((await browser.act(devices(id), 'rename', { name: '' })).status).toBe(400);
    });

    sandboxTest('shows a device’s pairing code and pairs with it, and lists the merchant’s connections', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      const [device] = (await client.get('/api/v1/bolt-devices')).body.data as { boltDeviceId: string }[];
      const id = device!.boltDeviceId;
      const code = sandbox.bolt.pairingCode(merchant(sandbox), id);
      const browser = await signedIn(sandbox);
      const before = await browser.get(devices(id));
      expect(before.html).toContain(code);
      expect(before.html).toContain('Not paired yet.');

      const paired = await browser.act(devices(id), 'pair');
      expect(paired.status).toBe(303);
      const [connection] = sandbox.bolt.listConnections(merchant(sandbox), { limit: 10, offset: 0 }).data;
      expect(connection).toMatchObject({ deviceId: id, merchantId: SANDBOX_DEFAULTS.merchantId });
      expect(sandbox.bolt.pairingCode(merchant(sandbox), id)).not.toBe(code);
      const after = await browser.get(paired.location!);
      expect(after.html).toContain('Paired with the code the device showed');
      expect(after.html).toContain(`href="${connections(connection!.id)}"`);

      const list = await browser.get(connections());
      expect(list.html).toContain(connection!.id);
      const detail = await browser.get(connections(connection!.id));
      expect(detail.status).toBe(200);
      expect(detail.html).toContain(`href="${devices(id)}"`);
      const intentId = await createIntent(client, { boltConnectionId: connection!.id });
      expect((await browser.get(intents(intentId))).html).toContain(`href="${connections(connection!.id)}"`);
    });
  });

  describe('re-sending webhooks', () => {
    sandboxTest('sends a delivery again as a new delivery with the same event and body, and shows it', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(dashboardOptions());
      await client.chargeCard(VISA);
      await sandbox.webhooks.idle();
      const original = sandbox.webhooks.list().find((d) => d.event === 'charge.succeeded')!;
      const browser = await signedIn(sandbox);
      const answer = await browser.act(`${SANDBOX_DASHBOARD_PATH}/webhooks/${original.deliveryId}`, 'resend');
      expect(answer.status).toBe(303);
      const again = sandbox.webhooks.list()[0]!;
      expect(again.deliveryId).not.toBe(original.deliveryId);
      expect(answer.location).toBe(`${SANDBOX_DASHBOARD_PATH}/webhooks/${again.deliveryId}?done=resend`);
      expect(await delivered(sandbox)).toEqual(['charge.succeeded', 'transaction.created', 'charge.succeeded']);
      const [first, second] = hooks.filter((candidate) => candidate.event === 'charge.succeeded');
      expect(second!.raw).toBe(first!.raw);
      const page = await browser.get(answer.location!);
      expect(page.html).toContain('Sent again');
      expect(page.html).toMatch(/badge-delivered">DELIVERED/);
      expect(page.html).toContain('<td>204</td>');
    });
  });
});
