import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, vi } from 'vitest';
import { parseWebhookEvent } from '../../../src/core/schemas/webhook-events.js';
import { verifyWebhookSignature } from '../../../src/core/webhook-signature.js';
import type { SandboxOptions } from '../../../src/sandbox/index.js';
import { sandboxTest } from '../../support/sandbox-fixture.js';

const KEY = Buffer.from('a webhook key of thirty-two byte').toString('base64');

interface Received {
  event: string;
  signature: string;
  raw: Buffer;
}

let server: Server;
let received: Received[];
let url: string;

beforeEach(async () => {
  received = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ event: String(req.headers['x-beam-event']), signature: String(req.headers['x-beam-signature']), raw: Buffer.concat(chunks) });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});

afterEach(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The sandbox of each test sends its webhooks to this file's receiver, which starts before it. */
const toReceiver = (): SandboxOptions => ({ refundSettleDelayMs: 0, webhook: { url, webhookKeyBase64: KEY, retryBaseDelayMs: 5 } });
const events = () => received.map((r) => r.event);

describe('webhooks from the sandbox', () => {
  sandboxTest('sends charge.succeeded then transaction.created, signed over the raw body, each body the resource as GET returns it', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(toReceiver());
    const created = await client.chargeCard('4111111111111111');
    await vi.waitFor(() => expect(received).toHaveLength(2));
    await sandbox.webhooks.idle();
    expect(events().sort()).toEqual(['charge.succeeded', 'transaction.created']);
    for (const delivery of received) {
      expect(await verifyWebhookSignature(delivery.raw, delivery.signature, KEY)).toBe(true);
      const parsed = parseWebhookEvent(delivery.event, JSON.parse(delivery.raw.toString('utf8')));
      expect(parsed.ok).toBe(true);
    }
    const charge = received.find((r) => r.event === 'charge.succeeded')!;
    expect(JSON.parse(charge.raw.toString('utf8'))).toEqual(await client.getCharge(created.body.chargeId));
    const transaction = received.find((r) => r.event === 'transaction.created')!;
    expect(JSON.parse(transaction.raw.toString('utf8'))).toEqual((await client.get(`/api/v1/transactions/${created.body.chargeId}`)).body);
  });

  sandboxTest('sends charge.failed for a failed charge and nothing for a pending one', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(toReceiver());
    await client.chargeCard('4953261730509988');
    await client.chargeCard('4943129900084541');
    await vi.waitFor(() => expect(received).toHaveLength(1));
    await sandbox.webhooks.idle();
    expect(events()).toEqual(['charge.failed']);
    expect(JSON.parse(received[0]!.raw.toString('utf8')).failureCode).toBe('CH_INSUFFICIENT_FUNDS');
  });

  sandboxTest('sends refund.succeeded with a REFUND transaction, and refund.failed for the failing card', async ({ startInProcess }) => {
    const { client } = startInProcess(toReceiver());
    const ok = await client.chargeCard('4111111111111111');
    await client.post('/api/v1/refunds', { chargeId: ok.body.chargeId });
    const failing = await client.chargeCard('4000000000005126');
    await client.post('/api/v1/refunds', { chargeId: failing.body.chargeId });
    await vi.waitFor(() => expect(events().filter((e) => e.startsWith('refund.'))).toHaveLength(2));
    await vi.waitFor(() => expect(events().filter((e) => e === 'transaction.created')).toHaveLength(3));
    expect(events().filter((e) => e.startsWith('refund.')).sort()).toEqual(['refund.failed', 'refund.succeeded']);
  });

  sandboxTest('logs each delivery, readable from the sandbox endpoint with the API key', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(toReceiver());
    await client.chargeCard('4111111111111111');
    await vi.waitFor(() => expect(received).toHaveLength(2));
    await sandbox.webhooks.idle();
    const log = await client.get('/sandbox/v1/webhook-deliveries');
    expect(log.status).toBe(200);
    expect(log.body.totalCount).toBe(2);
    expect(log.body.data.map((d: { status: string }) => d.status)).toEqual(['DELIVERED', 'DELIVERED']);
    expect(log.body.data[0].url).toBe(url);
    expect((await client.get('/sandbox/v1/webhook-deliveries', { auth: null })).status).toBe(401);
  });

  sandboxTest('re-sends a delivery on request', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(toReceiver());
    await client.chargeCard('4943129900084541');
    await vi.waitFor(() => expect(received).toHaveLength(1));
    await sandbox.webhooks.idle();
    const [delivery] = (await client.get('/sandbox/v1/webhook-deliveries')).body.data;
    const again = await client.post(`/sandbox/v1/webhook-deliveries/${delivery.deliveryId}/redeliver`, {});
    expect(again.status).toBe(202);
    await vi.waitFor(() => expect(received).toHaveLength(2));
    expect(received[1]!.raw.equals(received[0]!.raw)).toBe(true);
    expect(received[1]!.event).toBe('charge.failed');
  });
});
