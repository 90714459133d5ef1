import { describe, expect, it } from 'vitest';
import type { Plugin } from 'vite';
import { prepareLitTemplates } from '../../build/prepare-lit-templates.js';
import config from '../../vite.config.js';

/**
 * The build step that prepares the elements' Lit templates (`@lit-labs/compiler`). That the
 * prepared templates render and work is shown by everything that runs the built files: the
 * end-to-end tests (dist/browser) and the module build paid with in Chromium (module-build.test.ts).
 */

const ELEMENT = '/repo/src/elements/x/x.ts';
const SOURCE = "import { html } from 'lit';\nexport const view = (kind, text) => html`<p class=\"note ${kind}\">${text}</p>`;\n";

/** The plugin as vite.config.ts applies it: `environment` is the build's environment name. */
function transform(code: string, id = ELEMENT, environment = 'client'): string | null {
  const plugin = config.plugins!.flat().find((p): p is Plugin => Boolean(p) && (p as Plugin).name === prepareLitTemplates().name)!;
  const applies = plugin.applyToEnvironment as (environment: { name: string }) => boolean;
  if (!applies({ name: environment })) return null;
  const hook = plugin.transform as (this: unknown, code: string, id: string) => string | null;
  const context = {
    error: (message: string) => {
      throw new Error(message);
    },
  };
  return hook.call(context, code, id);
}

describe('preparing the Lit templates at build time', () => {
  it('writes the template as prepared HTML and its parts, read by the name the module builds hand over', () => {
    const out = transform(SOURCE)!;
    expect(out).not.toMatch(/\bhtml\s*`/);
    expect(out).toContain('_$litType$');
    // The class attribute's value is a part of the prepared template, not a place found at run time.
    expect(out).toMatch(/name: "class", strings: \["note ", ""\]/);
    expect(out).toMatch(/^import \{ _\$LH as \w+ \} from "lit-html\/private-ssr-support\.js";$/m);
    expect(out).not.toContain('import * as');
  });

  it('leaves the builds it does not apply to, modules that are not elements and modules without templates alone', () => {
    expect(transform(SOURCE, ELEMENT, 'card')).toBeNull();
    expect(transform(SOURCE, '/repo/src/client/x.ts')).toBeNull();
    expect(transform("export const n = 1;\n")).toBeNull();
  });

  it('leaves a template it cannot prepare to lit-html, as before', () => {
    // An expression in a tag name is not a valid Lit binding: lit-html reports it at run time.
    const out = transform("import { html } from 'lit';\nexport const bad = (tag) => html`<${tag}></${tag}>`;\n")!;
    expect(out).toMatch(/\bhtml\s*`/);
    expect(out).not.toContain('_$litType$');
  });
});
