import { compileLitTemplates } from '@lit-labs/compiler';
import ts from 'typescript';
import type { Plugin } from 'vite';

/** The compiled templates' parts come from lit-html's stable private API, the one Lit's own compiler and SSR use. */
const PRIVATE_API = 'lit-html/private-ssr-support.js';

/**
 * Prepares the elements' Lit templates at build time (`@lit-labs/compiler`, by the Lit team). At
 * its first use, lit-html turns each `html` template into a `<template>` and walks it for the
 * places its values go; the compiler does that walk at build time and writes the result next to the
 * template, so the first render of the checkout only clones. That first render is what a shopper
 * waits for, and it is where the elements' templates are used for the first time.
 *
 * It runs on each element module after TypeScript is stripped, so it sees JavaScript; templates it
 * cannot prepare (none today) stay as they are and are prepared at run time as before. The
 * compiler reads lit-html's private API as a namespace; it is imported by name here, so that the
 * module builds can hand it to the lazy chunks like the rest of lit (`link-lazy-chunks.ts`).
 *
 * Prepared templates are larger (their HTML and a list of parts, where the template had only its
 * HTML) and need that private API's module: vite.config.ts applies this to the builds where the
 * faster first render is worth the bytes.
 */
export function prepareLitTemplates(): Plugin {
  const transformers: ts.CustomTransformers = { before: [compileLitTemplates()] };
  return {
    name: 'satang:prepare-lit-templates',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]src[\\/]elements[\\/].*\.ts$/.test(id) || !/\b(html|svg)`/.test(code)) return null;
      const { outputText } = ts.transpileModule(code, {
        fileName: id.replace(/\.ts$/, '.js'),
        compilerOptions: { target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext, allowJs: true },
        transformers,
      });
      const namespace = new RegExp(`^import \\* as (\\w+) from "${PRIVATE_API.replaceAll('.', '\\.')}";$`, 'm').exec(outputText);
      if (!namespace) return outputText;
      const [statement, name = ''] = namespace;
      const uses = outputText.split(`${name}._$LH`).length - 1;
      if (uses !== 1 || outputText.split(name).length - 1 !== 2) this.error(`${id}: the compiled templates read ${name} in a way this does not rewrite`);
      return outputText.replace(statement, () => `import { _$LH as ${name} } from "${PRIVATE_API}";`).replace(`${name}._$LH`, () => name);
    },
  };
}

