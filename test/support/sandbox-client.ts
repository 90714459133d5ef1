import { SERVICE_HEADERS } from '../../src/core/constants.js';
import { Sandbox, SANDBOX_DEFAULTS, type SandboxOptions } from '../../src/sandbox/index.js';

export const ORIGIN = 'http://127.0.0.1:4010';
export const basic = (user: string, key: string) => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;
export const API_AUTH = basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.apiKey);
export const CLIENT_AUTH = basic(SANDBOX_DEFAULTS.merchantId, SANDBOX_DEFAULTS.publishableKey);

/** A future expiry that stays valid as the years pass: two years from now. */
export const FUTURE_EXPIRY_YEAR = (new Date().getUTCFullYear() + 2) % 100;

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * Talks to a sandbox through its `(Request) => Response` function, as a merchant server or a
 * browser would over HTTP.
 */
export class SandboxClient {
  constructor(readonly sandbox: Sandbox) {}

  async request<T = any>(method: string, path: string, init: { body?: unknown; auth?: string | null; headers?: Record<string, string>; raw?: string } = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...init.headers };
    const auth = init.auth === undefined ? (path.startsWith('/client/') ? CLIENT_AUTH : API_AUTH) : init.auth;
    if (auth !== null) headers.authorization = auth;
    let body: string | undefined = init.raw;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await this.sandbox.fetch(new Request(`${ORIGIN}${path}`, { method, headers, body }));
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // HTML pages and CSS stay text.
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  get<T = any>(path: string, init?: Parameters<SandboxClient['request']>[2]) {
    return this.request<T>('GET', path, init);
  }

  post<T = any>(path: string, body: unknown, init: Parameters<SandboxClient['request']>[2] = {}) {
    return this.request<T>('POST', path, { ...init, body });
  }

  async tokenize(pan: string, overrides: Record<string, unknown> = {}): Promise<string> {
    const answer = await this.post('/client/v1/card-tokens', { pan, expiryMonth: 12, expiryYear: FUTURE_EXPIRY_YEAR, cardHolderName: 'Somchai Jaidee', ...overrides });
    if (answer.status !== 201) throw new Error(`tokenize failed: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.id as string;
  }

  /** Creates a charge; `paymentMethod` and fields override a 100.00 THB CARD_TOKEN charge. */
  createCharge(fields: Record<string, unknown>, headers: Record<string, string> = {}) {
    return this.post('/api/v1/charges', { amount: 10_000, currency: 'THB', referenceId: 'order-1', ...fields }, { headers });
  }

  async chargeCard(pan: string, fields: Record<string, unknown> = {}) {
    const cardTokenId = await this.tokenize(pan);
    const securityCode = pan.startsWith('37') ? '1234' : '123';
    return this.createCharge({ paymentMethod: { paymentMethodType: 'CARD_TOKEN', cardToken: { cardTokenId, securityCode } }, ...fields });
  }

  async getCharge(chargeId: string) {
    return (await this.get(`/api/v1/charges/${chargeId}`)).body;
  }

  /**
   * The payer link of a QR charge (`GET /sandbox/v1/charges/{id}/payer-link`, a sandbox-only control
   * endpoint): the page that pays or declines that charge alone, as its merchant hands it out.
   */
  async payerLink(chargeId: string, auth?: string): Promise<string> {
    const answer = await this.get<{ payerUrl: string }>(`/sandbox/v1/charges/${chargeId}/payer-link`, auth === undefined ? {} : { auth });
    if (answer.status !== 200) throw new Error(`payer link of ${chargeId}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.payerUrl;
  }

  /** Submits a hosted page's form, as the shopper's browser does. */
  async submitPage(url: string, fields: Record<string, string>) {
    const response = await this.sandbox.fetch(
      new Request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' }),
    );
    return { status: response.status, location: response.headers.get('location'), html: await response.text() };
  }
}

export function newSandbox(options: SandboxOptions = {}) {
  const sandbox = new Sandbox(options);
  return { sandbox, client: new SandboxClient(sandbox) };
}

export const IDEMPOTENCY_HEADER = SERVICE_HEADERS.idempotencyKey;
