import { describe, expect, vi } from 'vitest';
import { ServiceErrorBodySchema } from '../../../src/core/service-error.js';
import { REPLAYED_HEADER } from '../../../src/sandbox/index.js';
import { SANDBOX_FAULT_KINDS, type SandboxFaultInput } from '../../../src/sandbox/faults/fault-rules.js';
import { API_AUTH, IDEMPOTENCY_HEADER, ORIGIN, type SandboxClient } from '../../support/sandbox-client.js';
import { collectGarbage } from '../../support/collect-garbage.js';
import { sandboxTest } from '../../support/sandbox-fixture.js';

const alipay = { amount: 10_000, currency: 'THB', referenceId: 'order-1', paymentMethod: { paymentMethodType: 'ALIPAY' } };

/** A charge request as a merchant server sends it, with an idempotency key. */
function chargeRequest(origin: string, key = 'key-1', signal?: AbortSignal): Request {
  return new Request(`${origin}/api/v1/charges`, {
    method: 'POST',
    headers: { authorization: API_AUTH, 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: key },
    body: JSON.stringify(alipay),
    ...(signal ? { signal } : {}),
  });
}

async function addFault(client: SandboxClient, input: SandboxFaultInput) {
  const answer = await client.post('/sandbox/v1/faults', input);
  expect(answer.status).toBe(201);
  return answer.body;
}

describe('the fault control endpoints', () => {
  sandboxTest('add, list, read and delete rules, with the API key', async ({ startInProcess }) => {
    const { client } = startInProcess();
    const added = await addFault(client, { method: 'POST', path: '/api/v1/charges', kind: 'status', status: 503, times: 2 });
    expect(added).toMatchObject({ faultId: expect.stringMatching(/^flt_/), method: 'POST', path: '/api/v1/charges', kind: 'status', status: 503, when: 'before', times: 2, remaining: 2, hits: [] });
    await addFault(client, { path: '/api/v1/*', kind: 'reset', when: 'after' });

    const listed = await client.get('/sandbox/v1/faults');
    expect(listed.status).toBe(200);
    expect(listed.body.totalCount).toBe(2);
    expect(listed.body.data.map((rule: { kind: string }) => rule.kind)).toEqual(['status', 'reset']);
    expect((await client.get(`/sandbox/v1/faults/${added.faultId}`)).body.faultId).toBe(added.faultId);

    expect((await client.request('DELETE', `/sandbox/v1/faults/${added.faultId}`)).body).toEqual({ deleted: 1 });
    expect((await client.request('DELETE', `/sandbox/v1/faults/${added.faultId}`)).status).toBe(404);
    expect((await client.get(`/sandbox/v1/faults/${added.faultId}`)).status).toBe(404);
    expect((await client.request('DELETE', '/sandbox/v1/faults')).body).toEqual({ deleted: 1 });
    expect((await client.get('/sandbox/v1/faults')).body).toEqual({ data: [], totalCount: 0 });
  });

  sandboxTest('refuse callers without the API key', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess();
    for (const [method, body] of [['GET'], ['POST', { path: '/', kind: 'reset' }], ['DELETE']] as const) {
      const answer = await client.request(method, '/sandbox/v1/faults', { auth: null, ...(body ? { body } : {}) });
      expect(answer.status).toBe(401);
      expect(ServiceErrorBodySchema.parse(answer.body).error.errorCode).toBe('INVALID_CREDENTIALS_ERROR');
    }
    expect(sandbox.faults.list()).toEqual([]);
  });

  sandboxTest.for<[body: Record<string, unknown>, fields: string[]]>([
    [{}, ['path', 'kind']],
    [{ path: 'api/v1/charges', kind: 'reset' }, ['path']],
    [{ path: '/api/*/charges', kind: 'reset' }, ['path']],
    [{ path: '/x', kind: 'explode' }, ['kind']],
    [{ path: '/x', kind: 'status' }, ['status']],
    [{ path: '/x', kind: 'status', status: 404 }, ['status']],
    [{ path: '/x', kind: 'reset', status: 500 }, ['status']],
    [{ path: '/x', kind: 'slow-body', when: 'before' }, ['when']],
    [{ path: '/x', kind: 'reset', when: 'later' }, ['when']],
    [{ path: '/x', kind: 'reset', times: 0 }, ['times']],
    [{ path: '/x', kind: 'reset', times: 1.5 }, ['times']],
    [{ path: '/x', kind: 'reset', method: 'PUT' }, ['method']],
    [{ path: '/x', kind: 'timeout', delayMs: -1 }, ['delayMs']],
    [{ path: '/x', kind: 'rate-limit', retryAfterSeconds: '5' }, ['retryAfterSeconds']],
    [{ path: '/x', kind: 'reset', extra: true }, ['']],
    [{ path: '/x', kind: 'reset', referenceId: '' }, ['referenceId']],
    [{ path: '/x', kind: 'reset', referenceId: 7 }, ['referenceId']],
  ])('refuse %j with a 400 naming %j', async ([body, fields], { startInProcess }) => {
    const { sandbox, client } = startInProcess();
    const answer = await client.post('/sandbox/v1/faults', body);
    expect(answer.status).toBe(400);
    const error = ServiceErrorBodySchema.parse(answer.body).error;
    expect(error.errorCode).toBe('API_VALIDATION_ERROR');
    for (const field of fields.filter((f) => f !== '')) expect(error.errorMessage).toContain(field);
    expect(sandbox.faults.list()).toEqual([]);
  });

  sandboxTest.for([['[]'], ['null'], ['"reset"'], ['{"path":']])('refuse the body %s in the service error shape', async ([raw], { startInProcess }) => {
    const { client } = startInProcess();
    const answer = await client.request('POST', '/sandbox/v1/faults', { raw, headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(400);
    ServiceErrorBodySchema.parse(answer.body);
  });

  sandboxTest('never fault themselves, so a rule on every path can still be deleted', async ({ startInProcess }) => {
    const { client } = startInProcess();
    await addFault(client, { path: '/*', kind: 'status', status: 500, times: 100 });
    expect((await client.get('/api/v1/charges')).status).toBe(500);
    expect((await client.get('/sandbox/v1/faults')).status).toBe(200);
    expect((await client.request('DELETE', '/sandbox/v1/faults')).status).toBe(200);
    expect((await client.get('/api/v1/charges')).status).toBe(200);
  });
});

describe('a fault rule in process', () => {
  sandboxTest('spoils only matching requests, `times` of them, and records each with its idempotency key', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess();
    await addFault(client, { method: 'POST', path: '/api/v1/charges', kind: 'status', status: 503, times: 2 });
    expect((await client.get('/api/v1/charges')).status).toBe(200);
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await client.createCharge(alipay, { [IDEMPOTENCY_HEADER]: 'same-key' })).status);
    expect(statuses).toEqual([503, 503, 201]);
    const [rule] = sandbox.faults.list();
    expect(rule).toMatchObject({ remaining: 0, times: 2 });
    expect(rule!.hits.map((hit) => [hit.method, hit.path, hit.idempotencyKey])).toEqual([
      ['POST', '/api/v1/charges', 'same-key'],
      ['POST', '/api/v1/charges', 'same-key'],
    ]);
    // Before processing: the two spoiled requests made nothing.
    expect(sandbox.store.charges.size).toBe(1);
  });

  sandboxTest('with a referenceId, spoils only requests whose body names that reference', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess();
    await addFault(client, { path: '/api/v1/charges', kind: 'status', status: 503, referenceId: 'order-2', times: 5 });
    expect((await client.createCharge(alipay)).status).toBe(201);
    expect((await client.createCharge({ ...alipay, referenceId: 'order-2' })).status).toBe(503);
    expect((await client.get('/api/v1/charges')).status).toBe(200);
    // A body that is not JSON names no reference: the service's own answer, the rule untouched.
    const notJson = await sandbox.fetch(
      new Request(`${ORIGIN}/api/v1/charges`, { method: 'POST', headers: { authorization: API_AUTH, 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: 'key-x' }, body: '{"referenceId":"order-2"' }),
    );
    expect(notJson.status).toBe(400);
    expect(sandbox.faults.list()[0]).toMatchObject({ referenceId: 'order-2', remaining: 4 });
  });

  sandboxTest('lets a browser see a spoiled card tokenization: CORS headers kept, preflight untouched', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess();
    await addFault(client, { path: '/client/*', kind: 'status', status: 503, times: 5 });
    const preflight = await sandbox.fetch(new Request(`${ORIGIN}/client/v1/card-tokens`, { method: 'OPTIONS', headers: { origin: 'https://shop.example' } }));
    expect(preflight.status).toBe(204);
    const answer = await client.post('/client/v1/card-tokens', { pan: '4111111111111111', expiryMonth: 12, expiryYear: 99, cardHolderName: 'A' });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(sandbox.faults.list()[0]!.remaining).toBe(4);
  });

  sandboxTest('matches a prefix ending in *', async ({ startInProcess }) => {
    const { client } = startInProcess();
    const { body: created } = await client.createCharge(alipay);
    await addFault(client, { method: 'GET', path: '/api/v1/charges/*', kind: 'status', status: 500, times: 5 });
    expect((await client.get('/api/v1/charges')).status).toBe(200);
    expect((await client.get(`/api/v1/charges/${created.chargeId}`)).status).toBe(500);
  });

  sandboxTest.for(SANDBOX_FAULT_KINDS.filter((kind) => kind !== 'slow-body' && kind !== 'truncated-body'))('%s before processing makes no charge', async (kind, { startInProcess }) => {
    const { sandbox, client } = startInProcess();
    await addFault(client, { path: '/api/v1/charges', kind, ...(kind === 'status' ? { status: 502 } : {}), ...(kind === 'timeout' ? { delayMs: 0 } : {}) });
    await sandbox.fetch(chargeRequest(ORIGIN)).then((r) => r.text()).catch(() => undefined);
    // A late answer (timeout with delayMs) processes the request only when it ends.
    expect(sandbox.store.charges.size).toBe(kind === 'timeout' ? 1 : 0);
  });

  sandboxTest.for(SANDBOX_FAULT_KINDS)('%s after processing makes the charge once; the retry is answered from it', async (kind, { startInProcess }) => {
    const { sandbox, client } = startInProcess();
    await addFault(client, { path: '/api/v1/charges', kind, when: 'after', ...(kind === 'status' ? { status: 503 } : {}), ...(kind === 'timeout' || kind === 'slow-body' ? { delayMs: 20 } : {}) });
    await sandbox.fetch(chargeRequest(ORIGIN)).then((r) => r.text()).catch(() => undefined);
    expect(sandbox.store.charges.size).toBe(1);
    const retry = await sandbox.fetch(chargeRequest(ORIGIN));
    expect(retry.status).toBe(201);
    expect(retry.headers.get(REPLAYED_HEADER)).toBe('true');
    expect(sandbox.store.charges.size).toBe(1);
  });

  sandboxTest('reset rejects as a dropped connection does', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess();
    await addFault(client, { path: '/api/v1/charges', kind: 'reset' });
    const error = await sandbox.fetch(chargeRequest(ORIGIN)).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error & { cause: { code: string } }).cause.code).toBe('ECONNRESET');
  });

  sandboxTest('timeout without delayMs never answers, until the caller gives up', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess();
    const { faultId } = await addFault(client, { path: '/api/v1/charges', kind: 'timeout' });
    const controller = new AbortController();
    const pending = sandbox.fetch(chargeRequest(ORIGIN, 'key-1', controller.signal));
    let settled = false;
    void pending.then(() => (settled = true), () => (settled = true));
    // The rule has taken the request: it holds it, unanswered.
    await vi.waitFor(() => expect(sandbox.faults.get(faultId)!.hits).toHaveLength(1));
    expect(settled).toBe(false);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  sandboxTest('status 502 and 504 answer a gateway HTML page, 500 and 503 the service error body', async ({ startInProcess }) => {
    const { client } = startInProcess();
    for (const status of [500, 502, 503, 504]) {
      await addFault(client, { path: '/api/v1/charges', method: 'GET', kind: 'status', status });
      const answer = await client.get('/api/v1/charges');
      expect(answer.status).toBe(status);
      if (status === 502 || status === 504) {
        expect(answer.headers.get('content-type')).toBe('text/html');
        expect(answer.body).toContain(`<title>${status}`);
      } else {
        expect(ServiceErrorBodySchema.parse(answer.body)).toMatchObject({ code: status });
      }
    }
  });

  sandboxTest('rate-limit answers 429 with Retry-After', async ({ startInProcess }) => {
    const { client } = startInProcess();
    await addFault(client, { path: '/api/v1/charges', kind: 'rate-limit', retryAfterSeconds: 7 });
    const answer = await client.get('/api/v1/charges');
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('7');
    expect(ServiceErrorBodySchema.parse(answer.body).error.errorCode).toBe('TOO_MANY_REQUESTS_ERROR');
  });

  sandboxTest('slow-body delivers the whole real answer in pieces', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess();
    await addFault(client, { path: '/api/v1/charges', kind: 'slow-body', delayMs: 50 });
    const response = await sandbox.fetch(chargeRequest(ORIGIN));
    const reader = response.body!.getReader();
    const pieces: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) pieces.push(r.value);
    expect(pieces.length).toBeGreaterThan(1);
    const body = JSON.parse(new TextDecoder().decode(Buffer.concat(pieces)));
    expect(body.chargeId).toBe([...sandbox.store.charges.keys()][0]);
  });

  sandboxTest('truncated-body declares the full length and errors half-way', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess();
    await addFault(client, { path: '/api/v1/charges', kind: 'truncated-body' });
    const response = await sandbox.fetch(chargeRequest(ORIGIN));
    expect(response.status).toBe(201);
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(10);
    await expect(response.text()).rejects.toThrow('terminated');
  });

  sandboxTest('malformed-json and wrong-content-type answer 2xx bodies that do not parse as JSON', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess();
    await addFault(client, { path: '/api/v1/charges', kind: 'malformed-json', when: 'after' });
    await addFault(client, { path: '/api/v1/charges', kind: 'wrong-content-type' });
    const malformed = await sandbox.fetch(chargeRequest(ORIGIN, 'a'));
    expect(malformed.status).toBe(201);
    expect(malformed.headers.get('content-type')).toContain('application/json');
    await expect(malformed.json()).rejects.toThrow(SyntaxError);
    const portal = await sandbox.fetch(chargeRequest(ORIGIN, 'b'));
    expect(portal.status).toBe(200);
    expect(portal.headers.get('content-type')).toContain('text/html');
    expect(await portal.text()).toContain('<title>Sign in');
  });
});

describe('a fault rule on a socket', () => {
  sandboxTest('reset drops the connection without an answer', async ({ sandbox: running }) => {
    const { sandbox } = running;
    sandbox.faults.add({ path: '/api/v1/charges', kind: 'reset', when: 'after' });
    const error = await fetch(chargeRequest(running.url)).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(sandbox.store.charges.size).toBe(1);
    expect((await fetch(chargeRequest(running.url))).status).toBe(201);
    expect(sandbox.store.charges.size).toBe(1);
  });

  sandboxTest('truncated-body closes the connection short of its Content-Length', async ({ sandbox: running }) => {
    const { sandbox } = running;
    sandbox.faults.add({ path: '/api/v1/charges', kind: 'truncated-body' });
    const response = await fetch(chargeRequest(running.url));
    expect(response.status).toBe(201);
    await expect(response.text()).rejects.toThrow();
  });

  sandboxTest('slow-body and a late timeout arrive whole', async ({ sandbox: running }) => {
    const { sandbox } = running;
    sandbox.faults.add({ path: '/api/v1/charges', kind: 'slow-body', delayMs: 30 });
    sandbox.faults.add({ path: '/api/v1/charges', kind: 'timeout', delayMs: 30, when: 'after' });
    expect((await (await fetch(chargeRequest(running.url, 'a'))).json()).chargeId).toMatch(/^ch/);
    expect((await (await fetch(chargeRequest(running.url, 'b'))).json()).chargeId).toMatch(/^ch/);
    expect(sandbox.store.charges.size).toBe(2);
  });

  sandboxTest('a hanging answer ends when the caller gives up, and the sandbox still serves', async ({ sandbox: running }) => {
    const { sandbox } = running;
    const { faultId } = sandbox.faults.add({ path: '/api/v1/charges', kind: 'timeout' });
    // The caller gives up once the sandbox holds its request (a fixed delay could end before the
    // request arrives on a busy machine, and leave the rule for the next one).
    // The signal goes to fetch itself: Node's fetch sends a copy of a Request it is given, and the
    // copy stops following that Request's signal once a garbage collection took it (nodejs/undici#4068).
    const caller = new AbortController();
    const answer = fetch(chargeRequest(running.url, 'a'), { signal: caller.signal }).then(() => undefined, (e: unknown) => e);
    await vi.waitFor(() => expect(sandbox.faults.get(faultId)!.hits).toHaveLength(1), { timeout: 5_000 });
    collectGarbage();
    caller.abort();
    expect(((await answer) as Error).name).toBe('AbortError');
    expect((await fetch(chargeRequest(running.url, 'a'))).status).toBe(201);
  });
});
