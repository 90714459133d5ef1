import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every module a source file reaches through its imports, with the bare specifiers it names. */
function importGraph(entry: string): { files: string[]; external: string[] } {
  const files = new Set<string>();
  const external = new Set<string>();
  const queue = [resolve(entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, specifier] of source.matchAll(/(?:import|export)\s[^'"]*?from\s+'([^']+)'/g)) {
      if (specifier!.startsWith('.')) queue.push(resolve(dirname(file), specifier!.replace(/\.js$/, '.ts')));
      else external.add(specifier!);
    }
  }
  return { files: [...files], external: [...external].sort() };
}

describe('the parts that must run on any JavaScript runtime', () => {
  it('the checkout handler reaches no node: module and no package but zod', () => {
    const { files, external } = importGraph('src/server/checkout/create-checkout-handler.ts');
    expect(files.length).toBeGreaterThan(10);
    expect(external).toEqual(['zod/mini']);
  });

  it('satang/core reaches no node: module and no package but zod', () => {
    expect(importGraph('src/core/index.ts').external).toEqual(['zod/mini']);
  });
});
