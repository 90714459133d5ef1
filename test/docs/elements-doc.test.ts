import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ELEMENTS_DOC, REFERENCE_END, REFERENCE_START, renderElementReference, type Manifest } from './element-reference.js';

const run = promisify(execFile);
/** Where the analyzer writes for this test; it resolves its output directory inside the project. */
const dir = join('reports', 'manifest-check');
let manifest: Manifest;

beforeAll(async () => {
  // The analyzer as `npm run manifest` runs it, written elsewhere so the checkout stays untouched.
  await run(process.execPath, ['node_modules/@custom-elements-manifest/analyzer/cem.js', 'analyze', '--litelement', '--globs', 'src/elements/**/*.ts', '--outdir', dir]);
  manifest = JSON.parse(await readFile(join(dir, 'custom-elements.json'), 'utf8')) as Manifest;
}, 60_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('docs/elements.md', () => {
  it('documents every attribute, event, CSS part and custom property the elements declare', async () => {
    const page = await readFile(ELEMENTS_DOC, 'utf8');
    const section = page.slice(page.indexOf(REFERENCE_START), page.indexOf(REFERENCE_END) + REFERENCE_END.length);
    expect(section, `${ELEMENTS_DOC} is out of date: run \`npm run docs\``).toBe(renderElementReference(manifest));
  });

  it('has a reference that names the parts a designer styles', () => {
    const reference = renderElementReference(manifest);
    for (const part of ['`pay-button`', '`method`', '`input`', '`qr`']) expect(reference).toContain(part);
    for (const property of ['`--satang-color-accent`', '`--satang-radius`', '`--satang-font-family`']) expect(reference).toContain(property);
  });
});
