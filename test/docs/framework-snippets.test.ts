import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');

/** The code blocks of a page, as written. */
const blocksOf = (page: string) => [...read(page).matchAll(/```\w*\n([\s\S]*?)```/g)].map(([, code = '']) => code);

describe('the framework snippets of the docs', () => {
  it.each(['app/checkout.ts', 'app/page.tsx', 'app/pay.tsx', 'app/api/checkout/[...path]/route.ts'])('show the Next.js shop’s %s in docs/react.md as test/next runs it', (file) => {
    expect(blocksOf('docs/react.md')).toContain(read(`test/next/fixture/${file}`));
  });

  it.each(['app/page.tsx', 'app/pay.tsx', 'app/api/checkout/[...path]/route.ts'])('show the Next.js shop’s %s in the README as test/next runs it', (file) => {
    expect(blocksOf('README.md')).toContain(read(`test/next/fixture/${file}`));
  });

  it('show the page signing the order token with the handler and handing it to SatangCheckout', () => {
    expect(read('test/next/fixture/app/page.tsx')).toContain('await checkout().orderToken(order.reference)');
    expect(read('test/next/fixture/app/pay.tsx')).toMatch(/<SatangCheckout[^>]*orderToken=\{orderToken\}/);
  });

  it('mount the handler on Hono as test/node runs it', () => {
    const mount = /^ {2}(app\.all\(.*\);)$/m.exec(read('test/node/fixture/hono-shop.ts'))?.[1];
    expect(mount).toBe("app.all('/api/checkout/*', (c) => checkout(c.req.raw, { clientAddress: getConnInfo(c).remote.address }));");
    for (const page of ['docs/server.md', 'README.md']) {
      expect(blocksOf(page).filter((code) => code.includes("from 'hono'") && code.includes("import { getConnInfo } from '@hono/node-server/conninfo';") && code.includes(`\n${mount!}\n`)), page).toHaveLength(1);
    }
  });
});
