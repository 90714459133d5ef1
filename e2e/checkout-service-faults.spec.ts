import type { APIRequestContext } from '@playwright/test';
import type { SandboxFaultInput } from '../src/sandbox/faults/fault-rules.js';
import { CARDS, expect, expectPaid, merchantApi, onlyChargeFor, openShop, payButton, SANDBOX, test, typeCard } from './support.js';

/**
 * What a shopper sees when the payment service fails behind the shop: the sandbox spoils the
 * answers the shop's server gets (through its fault endpoint), after it has made the charge, on
 * every attempt the server makes. The shopper is told, keeps the card, and a retry pays once.
 */

/** The demo's ServiceClient makes three attempts (two retries) per call. */
const SERVER_ATTEMPTS = 3;

async function injectFault(request: APIRequestContext, fault: SandboxFaultInput): Promise<string> {
  const answer = await request.post(`${SANDBOX}/sandbox/v1/faults`, { headers: merchantApi, data: fault });
  expect(answer.status(), await answer.text()).toBe(201);
  return ((await answer.json()) as { faultId: string }).faultId;
}

async function faultRule(request: APIRequestContext, faultId: string) {
  const answer = await request.get(`${SANDBOX}/sandbox/v1/faults/${faultId}`, { headers: merchantApi });
  expect(answer.status()).toBe(200);
  return (await answer.json()) as { remaining: number; hits: { idempotencyKey: string | null }[] };
}

async function clearFault(request: APIRequestContext, faultId: string): Promise<void> {
  const answer = await request.delete(`${SANDBOX}/sandbox/v1/faults/${faultId}`, { headers: merchantApi });
  expect(answer.status()).toBe(200);
}

for (const [label, fault] of [
  ['drops the connection', { kind: 'reset' }],
  ['answers a captive-portal page', { kind: 'wrong-content-type' }],
] as const) {
  test(`a shopper whose payment service ${label} after charging sees the charge it made paid: asked again under the same key, one charge`, async ({ page, request }) => {
    const reference = await openShop(page);
    // Only this order's charge creation fails, so tests running beside this one are not touched.
    const faultId = await injectFault(request, { method: 'POST', path: '/api/v1/charges', referenceId: reference, when: 'after', times: SERVER_ATTEMPTS, ...fault });
    await typeCard(page, { number: CARDS.visa });
    await payButton(page).click();

    // The shop's server answered that the service was not answering; the page asked where the
    // order stands (the service's charges of the order read: the lost one went through), and sent
    // the same attempt again, which the service answered with the charge it had made.
    await expectPaid(page);
    const rule = await faultRule(request, faultId);
    expect(rule.remaining).toBe(0);
    expect(new Set(rule.hits.map((hit) => hit.idempotencyKey)).size).toBe(1);
    await clearFault(request, faultId);
    expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED' });
  });
}
