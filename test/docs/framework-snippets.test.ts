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

  it.each(['svelte.config.js', 'src/lib/server/checkout.ts', 'src/routes/api/checkout/[...path]/+server.ts', 'src/routes/+page.server.ts', 'src/routes/+page.svelte'])(
    'show the SvelteKit shop’s %s in docs/svelte.md as test/build runs it',
    (file) => {
      expect(blocksOf('docs/svelte.md')).toContain(read(`test/build/fixtures/sveltekit-shop/${file}`));
    },
  );

  it('show the SvelteKit shop handing the handler the client’s address, with the types its app.d.ts references', () => {
    expect(read('test/build/fixtures/sveltekit-shop/src/routes/api/checkout/[...path]/+server.ts')).toContain('checkout()(event.request, { clientAddress: event.getClientAddress() })');
    expect(read('test/build/fixtures/sveltekit-shop/src/app.d.ts').split('\n')[0]).toBe('/// <reference types="satang/svelte" />');
    expect(blocksOf('docs/svelte.md')).toContain('/// <reference types="satang/svelte" />\n');
  });

  it.each(['env.d.ts', 'src/main.ts', 'src/App.vue', 'server.js'])('show the Vue shop’s %s in docs/vue.md as test/build runs it', (file) => {
    expect(blocksOf('docs/vue.md')).toContain(read(`test/build/fixtures/vue-shop/${file}`));
  });

  it('register the elements in the Vue shop’s vite.config.ts as docs/vue.md does', () => {
    const documented = blocksOf('docs/vue.md').filter((code) => code.includes('isCustomElement: isSatangElement'));
    expect(documented).toHaveLength(1);
    const lines = new Set(read('test/build/fixtures/vue-shop/vite.config.ts').split('\n'));
    expect(documented[0]!.split('\n').filter((line) => line !== '' && !lines.has(line))).toEqual([]);
  });

  it.each(['astro.config.mjs', 'server.mjs', 'src/env.d.ts', 'src/pages/index.astro'])('show the Astro shop’s %s in docs/astro.md as test/build runs it', (file) => {
    expect(blocksOf('docs/astro.md')).toContain(read(`test/build/fixtures/astro-shop/${file}`));
  });

  it('show the Astro shop mounting the handler on the socket with toNodeListener and handing it to the pages, its page signing the order token and loading the elements from its script', () => {
    const server = read('test/build/fixtures/astro-shop/server.mjs');
    expect(server).toContain("app.use('/api/checkout', toNodeListener(checkout));");
    expect(server).toContain('ssrHandler(req, res, next, { checkout })');
    expect(read('test/build/fixtures/astro-shop/astro.config.mjs')).toContain("node({ mode: 'middleware' })");
    const page = read('test/build/fixtures/astro-shop/src/pages/index.astro');
    expect(page).toContain('await Astro.locals.checkout.orderToken(order.reference)');
    expect(page).toMatch(/\n\t*<script>\n\t*import 'satang';\n/);
  });

  it('mount the handler on Hono as test/node runs it', () => {
    const mount = /^ {2}(app\.all\(.*\);)$/m.exec(read('test/node/fixture/hono-shop.ts'))?.[1];
    expect(mount).toBe("app.all('/api/checkout/*', (c) => checkout(c.req.raw, { clientAddress: getConnInfo(c).remote.address }));");
    for (const page of ['docs/server.md', 'README.md']) {
      expect(blocksOf(page).filter((code) => code.includes("from 'hono'") && code.includes("import { getConnInfo } from '@hono/node-server/conninfo';") && code.includes(`\n${mount!}\n`)), page).toHaveLength(1);
    }
  });
});
