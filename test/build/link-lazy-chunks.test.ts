import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Rolldown } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { linkLazyChunksThroughEntry } from '../../build/link-lazy-chunks.js';

/**
 * The rewrite of build/link-lazy-chunks.ts on a bundle written by hand in the bundler's output
 * form, then run as real ES modules in Node (with a stand-in `lit` package): the lazy chunk gets
 * the entry's bindings and the package's exports through the entry, and imports neither.
 */

type Bundle = Record<string, Rolldown.OutputChunk>;

const chunk = (fileName: string, code: string, isEntry = false): Rolldown.OutputChunk =>
  ({ type: 'chunk', fileName, code, isEntry, facadeModuleId: isEntry ? '/src/entry.ts' : null }) as unknown as Rolldown.OutputChunk;

/** Runs the plugin's generateBundle over `bundle`, the entry module exporting `publicExports`. */
function link(bundle: Bundle, publicExports: string[]): void {
  const plugin = linkLazyChunksThroughEntry();
  const context = {
    error(message: string): never {
      throw new Error(message);
    },
    getModuleInfo: () => ({ exports: publicExports }),
  };
  (plugin.generateBundle as unknown as (this: typeof context, options: unknown, bundle: Bundle) => void).call(context, {}, bundle);
}

const entryCode = [
  'import { html } from "lit";',
  'const counter$1 = { count: 1 };',
  'function bump() { counter$1.count += 1; return counter$1.count; }',
  'var Widget = class { static tag = html("satang-widget"); };',
  'export { Widget, bump as b, counter$1 as c };',
  '',
].join('\n');

const lazyCode = [
  'import "../satang.js";',
  'import { b as bump, c as counter$1 } from "../satang.js";',
  'import { html, css } from "lit";',
  'import { other } from "./other-abc.js";',
  'const seen = [bump(), counter$1.count, html("x"), css("y"), other];',
  'export { seen };',
  '',
].join('\n');

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('linkLazyChunksThroughEntry', () => {
  it('rewrites the lazy chunk to take the entry and lit from the entry, which keeps only its own exports', async () => {
    const bundle: Bundle = {
      'satang.js': chunk('satang.js', entryCode, true),
      'chunks/lazy-abc.js': chunk('chunks/lazy-abc.js', lazyCode),
      'chunks/other-abc.js': chunk('chunks/other-abc.js', 'const other = "other";\nexport { other };\n'),
    };
    link(bundle, ['Widget']);
    const entry = bundle['satang.js']!.code;
    const lazy = bundle['chunks/lazy-abc.js']!.code;

    expect(lazy).not.toMatch(/from "\.\.\/satang\.js"|import "\.\.\/satang\.js"|from "lit"/);
    expect(lazy).toContain('import { other } from "./other-abc.js";');
    expect(lazy).toMatch(/const \{ "b": bump, "c": counter\$1 \} = globalThis\[Symbol\.for\("satang\.kit\.[0-9a-f]{16}"\)\]\["satang\.js"\];/);
    expect(entry).toContain('export { Widget };');
    expect(entry).toMatch(/^import \{ html as __satangKit0_0, css as __satangKit0_1 \} from "lit";/);

    // Run as modules: the lazy chunk works with the entry's own objects and lit's exports.
    const dir = await mkdtemp(join(tmpdir(), 'satang-link-'));
    dirs.push(dir);
    await mkdir(join(dir, 'node_modules/lit'), { recursive: true });
    await writeFile(join(dir, 'node_modules/lit/package.json'), '{"name":"lit","type":"module","exports":"./index.js"}');
    await writeFile(join(dir, 'node_modules/lit/index.js'), 'export const html = (s) => `html:${s}`; export const css = (s) => `css:${s}`;');
    await mkdir(join(dir, 'chunks'));
    for (const file of Object.values(bundle)) await writeFile(join(dir, file.fileName), file.code);
    const main = (await import(pathToFileURL(join(dir, 'satang.js')).href)) as Record<string, unknown>;
    expect(Object.keys(main)).toEqual(['Widget']);
    const { seen } = (await import(pathToFileURL(join(dir, 'chunks/lazy-abc.js')).href)) as { seen: unknown[] };
    expect(seen).toEqual([2, 2, 'html:x', 'css:y', 'other']);
  });

  it('refuses a form of import it cannot hand over, naming the chunk', () => {
    const bundle: Bundle = {
      'satang.js': chunk('satang.js', entryCode, true),
      'chunks/lazy-abc.js': chunk('chunks/lazy-abc.js', 'import * as lit from "lit";\nexport const x = lit;\n'),
    };
    expect(() => link(bundle, ['Widget'])).toThrow(/chunks\/lazy-abc\.js: `import \* as lit from "lit";` is a form of import this cannot hand over/);
  });

  it('refuses to hand over a binding that could change, which a chunk would read once', () => {
    const bundle: Bundle = {
      'satang.js': chunk('satang.js', 'let state$1 = 1;\nexport function set(v) { state$1 = v; }\nexport { state$1 as s };\n', true),
      'chunks/lazy-abc.js': chunk('chunks/lazy-abc.js', 'import { s } from "../satang.js";\nexport const x = s;\n'),
    };
    expect(() => link(bundle, ['set'])).toThrow(/`state\$1` may be assigned again/);
  });

  it('refuses a chunk that imports a binding the entry does not export', () => {
    const bundle: Bundle = {
      'satang.js': chunk('satang.js', entryCode, true),
      'chunks/lazy-abc.js': chunk('chunks/lazy-abc.js', 'import { zz } from "../satang.js";\nexport const x = zz;\n'),
    };
    expect(() => link(bundle, ['Widget'])).toThrow(/a chunk imports `zz`, which the entry does not export/);
  });
});
