import { describe, expect, expectTypeOf, it } from 'vitest';
import { RouteTable, type PathParams, type RouteShape } from '../../src/core/route-table.js';

interface Named extends RouteShape {
  name: string;
}

const table = new RouteTable<Named>([
  { method: 'POST', path: '/api/v1/charges/verify-qr-slip', name: 'verify' },
  { method: 'POST', path: '/api/v1/charges', name: 'create' },
  { method: 'GET', path: '/api/v1/charges', name: 'list' },
  { method: 'GET', path: '/api/v1/charges/:chargeId', name: 'get' },
  { method: 'PATCH', path: '/api/v1/payment-links/:id/disable', name: 'disable' },
]);

describe('RouteTable', () => {
  it('finds a literal route before a parameter route declared after it', () => {
    const match = table.match('POST', '/api/v1/charges/verify-qr-slip');
    expect(match).toMatchObject({ kind: 'found', route: { name: 'verify' } });
  });

  it('decodes parameters', () => {
    expect(table.match('GET', '/api/v1/charges/ch%5F1')).toEqual({ kind: 'found', route: table.routes[3], params: { chargeId: 'ch_1' } });
  });

  it('says which methods a known path allows', () => {
    expect(table.match('DELETE', '/api/v1/charges')).toEqual({ kind: 'method-not-allowed', allowed: ['POST', 'GET'] });
  });

  it('tells an unknown path and a malformed parameter apart', () => {
    expect(table.match('GET', '/api/v1/nothing')).toEqual({ kind: 'not-found' });
    expect(table.match('GET', '/api/v1/charges/%E0%A4%A')).toEqual({ kind: 'malformed', parameter: 'chargeId' });
  });

  it('matches a parameter to one whole segment only', () => {
    expect(table.match('GET', '/api/v1/charges/a/b')).toEqual({ kind: 'not-found' });
    expect(table.match('PATCH', '/api/v1/payment-links/x/disable')).toMatchObject({ kind: 'found', params: { id: 'x' } });
  });

  it('treats regular-expression characters in a path literally', () => {
    const dotted = new RouteTable([{ method: 'GET', path: '/style.css' }]);
    expect(dotted.match('GET', '/styleXcss').kind).toBe('not-found');
    expect(dotted.match('GET', '/style.css').kind).toBe('found');
  });

  it('refuses a pattern whose parameter is not a whole segment', () => {
    expect(() => new RouteTable([{ method: 'GET', path: '/a/x:id' }])).toThrow(/whole segment/);
  });

  it('names the parameters of a path pattern in its type', () => {
    expectTypeOf<PathParams<'/api/v1/charges/:chargeId'>>().toEqualTypeOf<{ chargeId: string }>();
    expectTypeOf<PathParams<'/api/v1/charges/:chargeId/refunds/:refundId'>>().toEqualTypeOf<{ chargeId: string; refundId: string }>();
  });
});
