import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { Ajv, type ErrorObject } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../bench/sizes.js';

/**
 * custom-elements.json as `npm run manifest` writes it (built here into reports/, so the checkout
 * stays untouched), checked against the schema of the custom-elements-manifest package and against
 * the code: every definition under its tag, every module path a shipped file, every event typed as
 * the class the element dispatches.
 */

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const OUT_DIR = join('reports', 'manifest-schema-check');
const ANALYZE_TIMEOUT_MS = 60_000;

interface Reference {
  name: string;
  module?: string;
  package?: string;
}
interface ManifestEvent {
  name: string;
  type?: { text: string; references?: Reference[] };
}
interface Declaration {
  kind: string;
  name: string;
  customElement?: boolean;
  tagName?: string;
  events?: ManifestEvent[];
}
interface Export {
  kind: 'js' | 'custom-element-definition';
  name: string;
  declaration: Reference;
}
interface Module {
  path: string;
  declarations?: Declaration[];
  exports?: Export[];
}
interface Manifest {
  schemaVersion: string;
  modules: Module[];
}

let manifest: Manifest;

beforeAll(async () => {
  await run(process.execPath, ['node_modules/@custom-elements-manifest/analyzer/cem.js', 'analyze', '--litelement', '--globs', 'src/elements/**/*.ts', '--outdir', OUT_DIR], {
    cwd: REPO_ROOT,
  });
  manifest = JSON.parse(await readFile(join(REPO_ROOT, OUT_DIR, 'custom-elements.json'), 'utf8')) as Manifest;
}, ANALYZE_TIMEOUT_MS);

afterAll(() => rm(join(REPO_ROOT, OUT_DIR), { recursive: true, force: true }));

/** "/modules/3/exports/6: must have required property 'name'", with what is found there. */
function describeError(error: ErrorObject, data: unknown): string {
  let found: unknown = data;
  for (const key of error.instancePath.split('/').slice(1)) found = (found as Record<string, unknown> | undefined)?.[decodeURIComponent(key)];
  return `${error.instancePath || '/'}: ${error.message ?? 'is invalid'} ${JSON.stringify(error.params)} (found ${(JSON.stringify(found) as string | undefined ?? 'undefined').slice(0, 300)})`;
}

const elements = () =>
  manifest.modules.flatMap((mod) => (mod.declarations ?? []).filter((d) => d.customElement).map((declaration) => ({ module: mod.path, declaration })));

/** `SatangSuccessEvent` -> `satang-success`, from each event class's `super('…')`. */
async function eventNamesByClass(): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const file of await sourceFiles(join(REPO_ROOT, 'src/elements'))) {
    const code = await readFile(file, 'utf8');
    for (const match of code.matchAll(/class (\w+) extends Event \{[\s\S]*?super\('([\w-]+)'/g)) names.set(match[1]!, match[2]!);
  }
  return names;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => join(e.parentPath, e.name));
}

/** The argument text of each `dispatchEvent(…)` call in `code`. */
function dispatchedArguments(code: string): string[] {
  const found: string[] = [];
  for (const match of code.matchAll(/dispatchEvent\(/g)) {
    let depth = 1;
    let end = match.index + match[0].length;
    for (; end < code.length && depth > 0; end++) {
      if (code[end] === '(') depth++;
      else if (code[end] === ')') depth--;
    }
    found.push(code.slice(match.index + match[0].length, end - 1));
  }
  return found;
}

/**
 * The events made in `code` to be dispatched as a step's effect (`{ do: 'event', event }`, which
 * the payment's flow dispatches on the element): every `new X(…)` of an event class in a file of
 * steps, that is a file that hands events to the flow.
 */
function effectArguments(code: string): string[] {
  return code.includes("do: 'event'") ? [...code.matchAll(/new (\w+Event)\(/g)].map((match) => match[0]) : [];
}

/**
 * The events each element's code dispatches, as `name -> class`: the `new X(…)` inside every
 * `dispatchEvent(…)` in the element's folder (its own file and the helpers that dispatch on it),
 * and the events its payment's steps hand to the flow to dispatch.
 */
async function dispatchedEvents(folder: string, namesByClass: Map<string, string>): Promise<Record<string, string>> {
  const events: Record<string, string> = {};
  for (const file of await sourceFiles(join(REPO_ROOT, 'src/elements', folder))) {
    const code = await readFile(file, 'utf8');
    for (const argument of [...dispatchedArguments(code), ...effectArguments(code)]) {
      for (const [, className] of argument.matchAll(/new (\w+)\(/g)) {
        const name = namesByClass.get(className!);
        if (!name) throw new Error(`${relative(REPO_ROOT, file)} dispatches ${className}, which passes no 'satang-…' name to super()`);
        events[name] = className!;
      }
    }
  }
  return events;
}

describe('custom-elements.json', () => {
  it('is valid against the schema of the custom-elements-manifest version it declares', () => {
    const schemaPackage = require('custom-elements-manifest/package.json') as { version: string };
    const schema = require('custom-elements-manifest/schema.json') as object;
    expect(manifest.schemaVersion, 'the analyzer writes another schema version: update the custom-elements-manifest devDependency').toBe(schemaPackage.version);
    const ajv = new Ajv({ allErrors: false, strict: false });
    const validate = ajv.compile(schema);
    const valid = validate(manifest);
    expect(valid, validate.errors?.[0] ? describeError(validate.errors[0], manifest) : '').toBe(true);
  });

  it('defines each element under its tag, pointing at the class that implements it', () => {
    const byClass = new Map(elements().map((e) => [e.declaration.name, e]));
    const definitions = manifest.modules.flatMap((mod) => (mod.exports ?? []).filter((e) => e.kind === 'custom-element-definition').map((e) => ({ in: mod.path, ...e })));
    expect(new Set(definitions.map((d) => d.name))).toEqual(new Set(['satang-checkout', 'satang-card-form', 'satang-qr-payment']));
    for (const definition of definitions) {
      const element = byClass.get(definition.declaration.name);
      expect(element, `${definition.in} defines ${definition.declaration.name}`).toBeDefined();
      expect(definition.name, `${definition.in}: ${definition.declaration.name}'s tag`).toBe(element!.declaration.tagName);
      expect(definition.declaration.module, `${definition.in}: the module of ${definition.declaration.name}`).toBe(element!.module);
    }
    const definedIn = (path: string) => definitions.filter((d) => d.in === path).map((d) => d.name).sort();
    expect(definedIn('dist/elements/index.js')).toEqual(['satang-card-form', 'satang-checkout']);
    expect(definedIn('dist/elements/checkout.js')).toEqual(['satang-card-form', 'satang-checkout']);
    expect(definedIn('dist/elements/card.js')).toEqual(['satang-card-form']);
    expect(definedIn('dist/elements/satang-qr-payment/define.js')).toEqual(['satang-qr-payment']);
  });

  it('names only modules the package ships (dist/{elements,client,core}/*.js, each built from its src/ file)', () => {
    const paths = new Set<string>();
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(visit);
      if (!value || typeof value !== 'object') return;
      for (const [key, child] of Object.entries(value)) {
        if ((key === 'path' || key === 'module') && typeof child === 'string') paths.add(child);
        else visit(child);
      }
    };
    visit(manifest.modules);
    for (const path of paths) {
      expect(path, 'a shipped module path').toMatch(/^dist\/(elements|client|core)\/[\w/.-]+\.js$/);
      expect(existsSync(join(REPO_ROOT, path.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts'))), `${path} is built from a source file`).toBe(true);
    }
  });

  it('types each event as the class the element dispatches, and lists every event it dispatches', async () => {
    const namesByClass = await eventNamesByClass();
    const declaredIn = new Map(manifest.modules.flatMap((mod) => (mod.declarations ?? []).filter((d) => d.kind === 'class').map((d) => [d.name, mod.path] as const)));
    for (const { module, declaration } of elements()) {
      const folder = module.split('/').at(-2)!;
      const dispatched = await dispatchedEvents(folder, namesByClass);
      const listed = Object.fromEntries((declaration.events ?? []).map((e) => [e.name, e.type?.text]));
      expect(listed, `the events of <${declaration.tagName}>`).toEqual(dispatched);
      for (const event of declaration.events ?? []) {
        expect(event.type?.references, `<${declaration.tagName}> ${event.name}: a reference to its class`).toEqual([{ name: event.type?.text, module: declaredIn.get(event.type!.text) }]);
      }
    }
  });
});
