/**
 * A sandbox left running keeps at most `maxCharges` charges: the oldest go first, with their QR
 * payload, refunds and transactions, and lists stay exact.
 */
import { describe, expect, it } from 'vitest';
import { Sandbox } from '../../../src/sandbox/index.js';
import { createQrCharge } from '../../support/qr-charge.js';
import { sandboxTest } from '../../support/sandbox-fixture.js';

describe('charge retention (maxCharges)', () => {
  sandboxTest('forgets the oldest charge with its refunds, transactions and QR payload, and lists what is left newest first', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess({ maxCharges: 3, refundSettleDelayMs: 0 });
    const first = await client.chargeCard('4111111111111111', { referenceId: 'order-a' });
    const refund = await client.post('/api/v1/refunds', { chargeId: first.body.chargeId });
    expect(refund.status).toBe(201);
    // The refund settles on a timer of its own: forgetting the charge must forget it settled.
    await expect.poll(async () => (await client.get(`/api/v1/refunds/${refund.body.refundId as string}`)).body.status, { timeout: 5_000 }).toBe('SUCCEEDED');
    expect((await client.get(`/api/v1/transactions/${first.body.chargeId as string}`)).status).toBe(200);
    const qr = await createQrCharge(client, { referenceId: 'order-b' });
    const qrPayload = qr.rawData;
    expect(sandbox.store.chargeIdByQrPayload.get(qrPayload)).toBe(qr.chargeId);
    const later = [];
    for (const reference of ['order-c', 'order-d', 'order-e']) later.push((await client.chargeCard('4111111111111111', { referenceId: reference })).body.chargeId as string);

    expect((await client.get(`/api/v1/charges/${first.body.chargeId as string}`)).status).toBe(404);
    expect((await client.get(`/api/v1/refunds/${refund.body.refundId as string}`)).status).toBe(404);
    expect((await client.get(`/api/v1/transactions/${first.body.chargeId as string}`)).status).toBe(404);
    expect((await client.get(`/api/v1/charges/${qr.chargeId}`)).status).toBe(404);
    expect(sandbox.store.chargeIdByQrPayload.has(qrPayload)).toBe(false);

    const list = await client.get('/api/v1/charges?limit=10');
    expect(list.body.totalCount).toBe(3);
    expect(list.body.data.map((c: { chargeId: string }) => c.chargeId)).toEqual([...later].reverse());
    expect((await client.get('/api/v1/charges?referenceId=order-a')).body).toEqual({ data: [], totalCount: 0 });
    const transactions = await client.get('/api/v1/transactions?limit=100');
    expect(transactions.body.data.map((t: { transactionId: string }) => t.transactionId).sort()).toEqual([...later].sort());
  });

  sandboxTest('filters lists by source and source id through their own index', async ({ startInProcess }) => {
    const { client } = startInProcess({ maxCharges: 50, refundSettleDelayMs: 0 });
    for (let i = 0; i < 4; i += 1) await client.chargeCard('4111111111111111', { referenceId: `api-${i}` });
    const link = await client.post('/api/v1/payment-links', { order: { netAmount: 10_000, currency: 'THB', referenceId: 'link-1' } });
    expect(link.status).toBe(201);
    expect((await client.get('/api/v1/charges?source_in=PAYMENT_LINK')).body.totalCount).toBe(0);
    expect((await client.get('/api/v1/charges?source_in=API&limit=2')).body.totalCount).toBe(4);
    expect((await client.get('/api/v1/charges?source_in=API,PAYMENT_LINK&referenceId=api-2')).body.totalCount).toBe(1);
  });

  it('refuses a maxCharges that is not a whole number of at least 1', () => {
    expect(() => new Sandbox({ maxCharges: 0 })).toThrow(/maxCharges must be a whole number/);
    expect(() => new Sandbox({ maxCharges: 2.5 })).toThrow(/maxCharges must be a whole number/);
  });
});
