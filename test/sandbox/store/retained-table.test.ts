import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RetainedTable } from '../../../src/sandbox/store/retained-table.js';

interface Row {
  id: string;
  merchant: string;
  ref: string;
}

const table = (maxRecords: number, evicted: string[] = []) =>
  new RetainedTable<Row>({ maxRecords, keysOf: (row) => [`m:${row.merchant}`, `r:${row.merchant}:${row.ref}`], onEvict: (id) => evicted.push(id) });

describe('RetainedTable', () => {
  it('evicts the oldest past its cap, tells onEvict, and keeps the indexes exact', () => {
    const evicted: string[] = [];
    const rows = table(3, evicted);
    for (const [i, merchant] of ['a', 'b', 'a', 'a', 'b'].entries()) rows.set(`id${i}`, { id: `id${i}`, merchant, ref: i % 2 === 0 ? 'even' : 'odd' });
    expect(evicted).toEqual(['id0', 'id1']);
    expect([...rows.keys()]).toEqual(['id2', 'id3', 'id4']);
    expect(rows.count('m:a')).toBe(2);
    expect(rows.count('m:b')).toBe(1);
    expect([...rows.newestFirst('m:a')].map((r) => r.id)).toEqual(['id3', 'id2']);
    expect(rows.get('id0')).toBeUndefined();
  });

  it('replaces a held id without filing it twice', () => {
    const rows = table(10);
    rows.set('x', { id: 'x', merchant: 'a', ref: '1' });
    rows.set('x', { id: 'x', merchant: 'a', ref: '1' });
    expect(rows.count('m:a')).toBe(1);
    expect([...rows.newestFirst('m:a')]).toHaveLength(1);
  });

  it('pages newest first with the total, filtered or not', () => {
    const rows = table(100);
    for (let i = 0; i < 25; i += 1) rows.set(`id${i}`, { id: `id${i}`, merchant: 'a', ref: String(i % 3) });
    const page = rows.page('m:a', { limit: 5, offset: 10 }, (r) => r.id);
    expect(page).toEqual({ data: ['id14', 'id13', 'id12', 'id11', 'id10'], totalCount: 25 });
    const kept = rows.page('m:a', { limit: 3, offset: 1 }, (r) => r.id, (r) => r.ref === '0');
    expect(kept).toEqual({ data: ['id21', 'id18', 'id15'], totalCount: 9 });
  });

  it('answers as a plain list would, whatever is added, deleted out of order and evicted', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), merchant: fc.constantFrom('a', 'b'), ref: fc.constantFrom('x', 'y', 'z') }),
      fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('page' as const), merchant: fc.constantFrom('a', 'b'), ref: fc.option(fc.constantFrom('x', 'y', 'z')), limit: fc.integer({ min: 1, max: 7 }), offset: fc.nat({ max: 20 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.array(op, { maxLength: 300 }), (cap, ops) => {
        const rows = table(cap);
        let model: Row[] = [];
        let next = 0;
        for (const step of ops) {
          if (step.kind === 'add') {
            const row = { id: `id${(next += 1)}`, merchant: step.merchant, ref: step.ref };
            rows.set(row.id, row);
            model.push(row);
            if (model.length > cap) model = model.slice(model.length - cap);
          } else if (step.kind === 'delete') {
            if (model.length === 0) continue;
            const victim = model[step.pick % model.length]!;
            expect(rows.delete(victim.id)).toBe(true);
            model = model.filter((row) => row !== victim);
          } else {
            const key = step.ref === null ? `m:${step.merchant}` : `r:${step.merchant}:${step.ref}`;
            const expected = model.filter((row) => row.merchant === step.merchant && (step.ref === null || row.ref === step.ref)).reverse();
            expect(rows.page(key, step, (row) => row.id)).toEqual({ data: expected.slice(step.offset, step.offset + step.limit).map((row) => row.id), totalCount: expected.length });
          }
        }
        expect(rows.size).toBe(model.length);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a cap that is not a whole number of at least 1', () => {
    expect(() => table(0)).toThrow(/maxRecords must be/);
    expect(() => table(1.5)).toThrow(/maxRecords must be/);
  });
});
