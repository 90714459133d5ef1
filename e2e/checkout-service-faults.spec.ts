import type { APIRequestContext } from '@playwright/test';
import type { SandboxFaultInput } from '../src/sandbox/faults/fault-rules.js';
import { CARDS, expect, expectPaid, FUTURE_EXPIRY, merchantApi, onlyChargeFor, openShop, payButton, SANDBOX, spaced, test, typeCard } from './support.js';

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
  test(`a shopper whose payment service ${label} after charging is told clearly, keeps the card, and a retry pays once`, async ({ page, request }) => {
    const reference = await openShop(page);
    // Only this order's charge creation fails, so tests running beside this one are not touched.
    const faultId = await injectFault(request, { method: 'POST', path: '/api/v1/charges', referenceId: reference, when: 'after', times: SERVER_ATTEMPTS, ...fault });
    await typeCard(page, { number: CARDS.visa });
    await payButton(page).click();

    const checkout = page.locator('satang-checkout');
    await expect(checkout.getByRole('alert')).toHaveText('The payment service is not answering. Your details are kept: try again.');
    await expect(page.getByLabel('Card number')).toHaveValue(spaced(CARDS.visa));
    await expect(page.getByLabel('Expiry date')).toHaveValue(FUTURE_EXPIRY);
    await expect(page.getByLabel('Security code')).toHaveValue('123');
    await expect(page.getByLabel('Name on card')).toHaveValue('Somchai Jaidee');
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeHidden();

    // Every attempt of the shop's server carried one idempotency key, and the service made one charge.
    const rule = await faultRule(request, faultId);
    expect(rule.remaining).toBe(0);
    expect(new Set(rule.hits.map((hit) => hit.idempotencyKey)).size).toBe(1);
    expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED' });

    await clearFault(request, faultId);
    await checkout.getByRole('button', { name: 'Try again' }).click();

    await expectPaid(page);
    expect(await onlyChargeFor(request, reference)).toMatchObject({ status: 'SUCCEEDED' });
  });
}
