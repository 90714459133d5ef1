import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ELEMENTS_DOC, REFERENCE_END, REFERENCE_START, referenceSection, renderElementReference, renderStylingReference, STYLING, STYLING_DOC, type Manifest } from './element-reference.js';

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

describe('docs/elements-styling.md', () => {
  it('lists every token and every part, nested elements\' exported parts included', async () => {
    const page = await readFile(STYLING_DOC, 'utf8');
    expect(referenceSection(page, STYLING), `${STYLING_DOC} is out of date: run \`npm run docs\``).toBe(renderStylingReference(manifest));
  });

  it('names the tokens and parts designers asked for', () => {
    const reference = renderStylingReference(manifest);
    for (const token of ['--satang-focus-ring', '--satang-color-card-brand', '--satang-qr-size']) expect(reference).toContain(`| \`${token}\` |`);
    for (const part of ['methods-label', 'method-radio', 'method-mark', 'progress', 'qr-slip-button', 'qr-slip-status', 'card-brand']) expect(reference).toContain(`| \`${part}\` |`);
  });

  it('documents the defaults the styles use', async () => {
    // The light defaults are written twice, in the CSS and in the JSDoc: each `var(--satang-x, default)` of the
    // elements' styles must be the documented default (the dark ones are not in the manifest).
    const documented = new Map<string, string>();
    for (const module of manifest.modules) {
      for (const declaration of module.declarations ?? []) for (const p of declaration.cssProperties ?? []) documented.set(p.name, p.default ?? '');
    }
    const css = (await Promise.all(STYLE_FILES.map((file) => readFile(file, 'utf8')))).join('\n');
    const light = css.replace(/:host\(\[theme=(dark|auto)\][^{]*\{[^}]*\}/g, '');
    const used = [...light.matchAll(/var\((--satang-[\w-]+),((?:[^()]|\([^()]*(?:\([^()]*\))?[^()]*\))*)\)/g)];
    expect(used.length).toBeGreaterThan(15);
    const normal = (value: string) => value.replace(/\s+/g, '').replace(/--_accent/g, '--satang-color-accent').replace(/^#fff$/i, '#ffffff').toLowerCase();
    for (const [, name, value] of used) {
      expect(documented.has(name!), `${name} is used by the styles but documented by no @cssprop`).toBe(true);
      expect(normal(documented.get(name!)!), name).toBe(normal(value!));
    }
  });
});

const STYLE_FILES = [
  'src/elements/shared-styles.ts',
  'src/elements/satang-checkout/satang-checkout.styles.ts',
  'src/elements/satang-checkout/payment.styles.ts',
  'src/elements/satang-card-form/satang-card-form.styles.ts',
  'src/elements/satang-qr-payment/satang-qr-payment.styles.ts',
];
