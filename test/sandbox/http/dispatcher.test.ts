import { describe, expect, it } from 'vitest';
import { serviceHeaders } from '../../../src/core/constants.js';
import { SandboxFaults } from '../../../src/sandbox/faults/sandbox-faults.js';
import { SandboxDispatcher } from '../../../src/sandbox/http/dispatcher.js';
import { IdempotencyStore } from '../../../src/sandbox/http/idempotency.js';
import { publicRoute } from '../../../src/sandbox/http/route.js';
import { jsonResponse } from '../../../src/sandbox/http/sandbox-error.js';

const ORIGIN = 'http://sandbox.test';
const now = () => new Date();
const headers = serviceHeaders();

function dispatcher(faults?: SandboxFaults): SandboxDispatcher {
  return new SandboxDispatcher({
    routes: [publicRoute('GET', '/client/v1/ping', () => jsonResponse(200, { ok: true })), publicRoute('GET', '/api/v1/ping', () => jsonResponse(200, { ok: true }))],
    merchants: new Map(),
    partners: new Map(),
    idempotency: new IdempotencyStore(now),
    maxBodyBytes: 1024,
    publicUrl: undefined,
    headers,
    faults,
  });
}

const get = (d: SandboxDispatcher, path: string) => d.answer(new Request(`${ORIGIN}${path}`));

describe('SandboxDispatcher', () => {
  describe('on a path a browser calls', () => {
    it('answers with the CORS headers, exposing the request id', async () => {
      const answer = await get(dispatcher(), '/client/v1/ping');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(answer.headers.get('access-control-expose-headers')).toBe(headers.requestId);
      expect(answer.headers.get(headers.requestId)).toMatch(/^req_/);
    });

    it('keeps them on an answer a fault rule spoiled, so the page sees the fault itself', async () => {
      const faults = new SandboxFaults(now);
      faults.add({ path: '/client/*', kind: 'status', status: 503, times: 1 });
      const d = dispatcher(faults);

      const spoiled = await get(d, '/client/v1/ping');
      expect(spoiled.status).toBe(503);
      expect(spoiled.headers.get('access-control-allow-origin')).toBe('*');
      expect(faults.list()[0]!.remaining).toBe(0);
      expect((await get(d, '/client/v1/ping')).status).toBe(200);
    });

    it('answers the preflight itself, which no fault rule spoils', async () => {
      const faults = new SandboxFaults(now);
      faults.add({ path: '/client/*', kind: 'status', status: 503, times: 1 });
      const preflight = await dispatcher(faults).answer(new Request(`${ORIGIN}/client/v1/ping`, { method: 'OPTIONS' }));
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
      expect(faults.list()[0]!.remaining).toBe(1);
    });
  });

  it('sends no CORS headers on the API, spoiled or not', async () => {
    const faults = new SandboxFaults(now);
    faults.add({ path: '/api/*', kind: 'status', status: 500, times: 1 });
    const d = dispatcher(faults);
    const spoiled = await get(d, '/api/v1/ping');
    expect(spoiled.status).toBe(500);
    expect(spoiled.headers.get('access-control-allow-origin')).toBeNull();
    expect((await get(d, '/api/v1/ping')).headers.get('access-control-allow-origin')).toBeNull();
  });
});
