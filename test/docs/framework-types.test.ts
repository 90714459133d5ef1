import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMEWORK_TYPE_FILES, renderFrameworkTypes, renderSvelteTypes, renderVueTypes, type Manifest } from './framework-types.js';

const run = promisify(execFile);
/** Where the analyzer writes for this test; it resolves its output directory inside the project. */
const dir = join('reports', 'framework-types-check');
let manifest: Manifest;

beforeAll(async () => {
  // The analyzer as `npm run manifest` runs it, written elsewhere so the checkout stays untouched.
  await run(process.execPath, ['node_modules/@custom-elements-manifest/analyzer/cem.js', 'analyze', '--litelement', '--globs', 'src/elements/**/*.ts', '--outdir', dir]);
  manifest = JSON.parse(await readFile(join(dir, 'custom-elements.json'), 'utf8')) as Manifest;
}, 60_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

/** The manifest with `<satang-checkout>`'s attribute `name` changed by `edit`. */
function withCheckoutAttribute(name: string, edit: (attribute: { type?: { text?: string } }) => void): Manifest {
  const copy = structuredClone(manifest);
  const checkout = copy.modules.flatMap((module) => module.declarations ?? []).find((declaration) => declaration.tagName === 'satang-checkout');
  const attribute = checkout?.attributes?.find((candidate) => candidate.name === name);
  if (!attribute) throw new Error(`no ${name} on <satang-checkout> in the manifest`);
  edit(attribute);
  return copy;
}

describe('satang/vue and satang/svelte (src/frameworks/)', () => {
  it('are what custom-elements.json makes of the elements now: `npm run docs` writes them', async () => {
    for (const [path, source] of Object.entries(renderFrameworkTypes(manifest))) {
      expect(await readFile(path, 'utf8'), `${path} is out of date: run \`npm run docs\``).toBe(source);
    }
  });

  it('type every element, attribute and event of the manifest, the values each attribute takes included', () => {
    const vue = renderVueTypes(manifest);
    const svelte = renderSvelteTypes(manifest);
    for (const tag of ['satang-checkout', 'satang-card-form', 'satang-qr-payment']) {
      expect(vue).toContain(`'${tag}': VueElement<`);
      expect(svelte).toContain(`'${tag}': `);
    }
    expect(vue).toContain("theme?: 'light' | 'dark' | 'auto';");
    expect(vue).toContain('onSatangAmountChanged?: (event: SatangAmountChangedEvent) => void;');
    expect(svelte).toContain("'merchant-id'?: SatangCheckoutProperties['merchantId'];");
    expect(svelte).toContain("'onsatang-qr-renew'?: (event: SatangQrRenewEvent) => void;");
    expect(Object.keys(renderFrameworkTypes(manifest))).toEqual(Object.values(FRAMEWORK_TYPE_FILES));
  });

  it('type an attribute the element only reads (no property) by its name, unchecked against the class', () => {
    const copy = structuredClone(manifest);
    const checkout = copy.modules.flatMap((module) => module.declarations ?? []).find((declaration) => declaration.tagName === 'satang-checkout');
    checkout?.attributes?.push({ name: 'gift-note', type: { text: 'string' }, description: 'A note.' });
    expect(renderVueTypes(copy)).toMatch(/> & \{\n(?:.*\n)*? {2}giftNote\?: string;\n\};/);
    expect(renderSvelteTypes(copy)).toContain("  'gift-note'?: string;");
  });

  it('refuse an attribute without a type, or with a type they cannot write out, naming it and the fix', () => {
    const untyped = withCheckoutAttribute('theme', (attribute) => delete attribute.type);
    expect(() => renderVueTypes(untyped)).toThrow(/<satang-checkout> theme: no type in custom-elements\.json; .*@type/);
    const named = withCheckoutAttribute('intent', (attribute) => (attribute.type = { text: 'CheckoutIntent' }));
    expect(() => renderSvelteTypes(named)).toThrow(/<satang-checkout> intent is typed `CheckoutIntent`.*@type \{'a' \| 'b'\}/);
  });
});
