/**
 * An integration written the way merchants write one for the live service, from its
 * documentation alone: plain `fetch`, HTTP Basic, the service's `X-Beam-` headers spelled as the
 * documentation and its request collection spell them (and lower-cased, as many HTTP libraries
 * send them), and a webhook receiver on `node:http` that checks the signature with `node:crypto`.
 * Nothing here comes from Satang: it is the stranger's code the sandbox must serve unchanged.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LiveIntegrationConfig {
  baseUrl: string;
  merchantId: string;
  apiKey: string;
  publishableKey: string;
}

export interface LiveAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** The service's calls, one function each, as a documentation sample writes them. */
export class LiveIntegration {
  constructor(private readonly config: LiveIntegrationConfig) {}

  #basic(key: string): string {
    return `Basic ${Buffer.from(`${this.config.merchantId}:${key}`).toString('base64')}`;
  }

  async #send(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<LiveAnswer> {
    const response = await fetch(`${this.config.baseUrl}${path}`, {
      method,
      headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
  }

  /** `POST /client/v1/card-tokens` with the publishable key, as the browser does. */
  async tokenizeCard(card: { pan: string; expiryMonth: number; expiryYear: number; cardHolderName: string }): Promise<string> {
    const answer = await this.#send('POST', '/client/v1/card-tokens', { Authorization: this.#basic(this.config.publishableKey) }, card);
    if (answer.status !== 201) throw new Error(`card token: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.id as string;
  }

  /** `POST /api/v1/charges` with the documented `X-Beam-Idempotency-Key` (lower-cased, as axios and got send it). */
  createCharge(body: Record<string, unknown>, idempotencyKey: string = randomUUID()): Promise<LiveAnswer> {
    return this.#send('POST', '/api/v1/charges', { Authorization: this.#basic(this.config.apiKey), 'x-beam-idempotency-key': idempotencyKey }, body);
  }

  /** The same call with a header spelled another way, to see what the service makes of it. */
  createChargeWithHeaders(body: Record<string, unknown>, headers: Record<string, string>): Promise<LiveAnswer> {
    return this.#send('POST', '/api/v1/charges', { Authorization: this.#basic(this.config.apiKey), ...headers }, body);
  }

  getCharge(chargeId: string): Promise<LiveAnswer> {
    return this.#send('GET', `/api/v1/charges/${encodeURIComponent(chargeId)}`, { Authorization: this.#basic(this.config.apiKey) });
  }

  listCharges(query: Record<string, string>): Promise<LiveAnswer> {
    return this.#send('GET', `/api/v1/charges?${new URLSearchParams(query).toString()}`, { Authorization: this.#basic(this.config.apiKey) });
  }

  /** `POST /api/v1/refunds`, keyed in the collection's spelling. */
  refund(chargeId: string, idempotencyKey: string = randomUUID()): Promise<LiveAnswer> {
    return this.#send('POST', '/api/v1/refunds', { Authorization: this.#basic(this.config.apiKey), 'X-Beam-Idempotency-Key': idempotencyKey }, { chargeId });
  }

  /** Any other documented call with the API key; POST and PATCH keyed as the collection keys them. */
  api(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<LiveAnswer> {
    const keyed: Record<string, string> = method === 'POST' || method === 'PATCH' ? { 'X-Beam-Idempotency-Key': randomUUID() } : {};
    return this.#send(method, path, { Authorization: this.#basic(this.config.apiKey), ...keyed }, body);
  }

  /** A platform acting for its merchant: the partner key and `X-Beam-Partner-ID`. */
  getChargeAsPartner(chargeId: string, partner: { partnerId: string; apiKey: string }, header = 'X-Beam-Partner-ID'): Promise<LiveAnswer> {
    return this.#send('GET', `/api/v1/charges/${encodeURIComponent(chargeId)}`, { Authorization: this.#basic(partner.apiKey), [header]: partner.partnerId });
  }
}

/** One webhook as the receiver saw it. */
export interface ReceivedWebhook {
  event: string;
  signatureValid: boolean;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: Record<string, unknown>;
}

/**
 * The receiver from the documentation: read the raw body, HMAC-SHA256 it with the base64-decoded
 * webhook key, compare with `X-Beam-Signature` in constant time, read `X-Beam-Event`, answer 200.
 */
export async function startLiveWebhookReceiver(webhookKeyBase64: string): Promise<{ url: string; received: ReceivedWebhook[]; close: () => Promise<void> }> {
  const received: ReceivedWebhook[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const expected = createHmac('sha256', Buffer.from(webhookKeyBase64, 'base64')).update(raw).digest();
      const given = Buffer.from(String(req.headers['x-beam-signature'] ?? ''), 'base64');
      const signatureValid = given.length === expected.length && timingSafeEqual(given, expected);
      received.push({ event: String(req.headers['x-beam-event'] ?? ''), signatureValid, headers: req.headers, raw, body: JSON.parse(raw.toString('utf8')) as Record<string, unknown> });
      res.writeHead(signatureValid ? 200 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/beam`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
