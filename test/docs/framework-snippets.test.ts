import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');

/** The code blocks of the README, as written. */
const blocks = [...read('README.md').matchAll(/```\w*\n([\s\S]*?)```/g)].map(([, code = '']) => code);

describe("the README's framework snippets", () => {
  it.each(['app/page.tsx', 'app/pay.tsx', 'app/api/checkout/[...path]/route.ts'])('show the Next.js shop’s %s as test/next runs it', (file) => {
    expect(blocks).toContain(read(`test/next/fixture/${file}`));
  });

  it('mount the handler on Hono as test/node runs it', () => {
    const mount = /^ {2}(app\.all\(.*\);)$/m.exec(read('test/node/fixture/hono-shop.ts'))?.[1];
    expect(mount).toBe("app.all('/api/checkout/*', (c) => checkout(c.req.raw));");
    expect(blocks.filter((code) => code.includes("from 'hono'") && code.includes(`\n${mount!}\n`))).toHaveLength(1);
  });
});
