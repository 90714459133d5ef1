import { execFile } from 'node:child_process';
import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../bench/sizes.js';

/**
 * satang/vue and satang/svelte, as a Vue 3 and a Svelte 5 project check their templates against
 * them, and satang/angular as Angular's compiler checks an event binding. The declarations are built as `npm run build` builds them (fixtures/tsconfig.build.json
 * extends tsconfig.build.json), into fixtures/node_modules/satang beside a copy of package.json;
 * the projects in fixtures/ resolve `satang/vue`, `satang/svelte` and `satang/angular` there
 * through the exports map, and vue, svelte and lit from the repository's node_modules. vue-tsc
 * and svelte-check run for real: each project's `Checkout` uses every element as documented and
 * must pass; each other file makes one mistake (a wrong value, a misspelt attribute, a misspelt
 * event) and must be refused with an error naming it. Angular's own compiler is not run: the
 * Angular project is the code it writes to check `(satang-success)="paid($event)"` on a custom
 * element (the element from `document.createElement`, `$event` typed by `addEventListener`),
 * compiled by tsc.
 */

const exec = promisify(execFile);
const FIXTURES = join(REPO_ROOT, 'test/build/fixtures/frameworks');
const TSC = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
const VUE_TSC = join(REPO_ROOT, 'node_modules/vue-tsc/bin/vue-tsc.js');
const SVELTE_CHECK = join(REPO_ROOT, 'node_modules/svelte-check/bin/svelte-check');
const SETUP_TIMEOUT_MS = 240_000;

/** One error a checker reported: the file (relative to its project), its line, and what it says. */
interface Reported {
  file: string;
  line: number;
  message: string;
}

/** What `command` printed, whether it passed or not (both checkers exit non-zero on errors). */
async function output(args: string[], cwd: string): Promise<string> {
  try {
    const { stdout, stderr } = await exec(process.execPath, args, { cwd, maxBuffer: 16 * 1024 * 1024 });
    return `${stdout}${stderr}`;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    return `${stdout ?? ''}${stderr ?? ''}`;
  }
}

/** tsc's and vue-tsc's `--pretty false` lines: `File.vue(2,20): error TS2322: …`. */
function tscErrors(text: string): Reported[] {
  return [...text.matchAll(/^(.+?)\((\d+),\d+\): error (TS\d+: .*)$/gm)].map(([, file, line, message]) => ({ file: file!, line: Number(line), message: message! }));
}

/** svelte-check's `--output machine` lines: `1234 ERROR "File.svelte" 3:18 "…"`, file and message as JSON strings (warnings count too). */
function svelteErrors(text: string): Reported[] {
  return [...text.matchAll(/^\d+ (?:ERROR|WARNING) ("(?:[^"\\]|\\.)*") (\d+):\d+ ("(?:[^"\\]|\\.)*")$/gm)].map(([, file, line, message]) => ({
    file: JSON.parse(file!) as string,
    line: Number(line),
    message: JSON.parse(message!) as string,
  }));
}

let vue: { text: string; errors: Reported[] };
let svelte: { text: string; errors: Reported[] };
let angular: { text: string; errors: Reported[] };

beforeAll(async () => {
  await rm(join(FIXTURES, 'node_modules'), { recursive: true, force: true });
  const declarations = await exec(process.execPath, [TSC, '-p', join(FIXTURES, 'tsconfig.build.json')], { cwd: REPO_ROOT }).then(
    ({ stdout }) => stdout,
    (error: unknown) => `${(error as { stdout?: string }).stdout ?? ''}${(error as Error).message}`,
  );
  expect(declarations, 'the declarations build').toBe('');
  await copyFile(join(REPO_ROOT, 'package.json'), join(FIXTURES, 'node_modules/satang/package.json'));
  const [vueText, svelteText, angularText] = await Promise.all([
    output([VUE_TSC, '-p', 'tsconfig.json', '--noEmit', '--pretty', 'false'], join(FIXTURES, 'vue')),
    output([SVELTE_CHECK, '--workspace', '.', '--tsconfig', './tsconfig.json', '--output', 'machine', '--threshold', 'warning'], join(FIXTURES, 'svelte')),
    output([TSC, '-p', 'tsconfig.json', '--pretty', 'false'], join(FIXTURES, 'angular')),
  ]);
  vue = { text: vueText, errors: tscErrors(vueText) };
  svelte = { text: svelteText, errors: svelteErrors(svelteText) };
  angular = { text: angularText, errors: tscErrors(angularText) };
}, SETUP_TIMEOUT_MS);

afterAll(() => rm(join(FIXTURES, 'node_modules'), { recursive: true, force: true }));

describe.each([
  { framework: 'satang/vue with vue-tsc (strictTemplates)', result: () => vue, correct: 'Checkout.vue', ext: 'vue', event: /onSatangSucess/ },
  { framework: 'satang/svelte with svelte-check', result: () => svelte, correct: 'Checkout.svelte', ext: 'svelte', event: /onsatang-sucess/ },
])('$framework', ({ result, correct, ext, event }) => {
  const errorsIn = (file: string) => result().errors.filter((error) => error.file === file);

  it('reports something, and only on the project’s own files', () => {
    expect(result().errors.length, result().text).toBeGreaterThan(0);
    const files = new Set(['WrongTheme', 'MisspeltAttribute', 'MisspeltEvent', 'Checkout'].map((name) => `${name}.${ext}`));
    expect(result().errors.filter((error) => !files.has(error.file)), result().text).toEqual([]);
  });

  it('passes every element used as documented: attributes, template refs and typed events', () => {
    expect(errorsIn(correct)).toEqual([]);
  });

  it('refuses a value the attribute does not take (theme="purple")', () => {
    const errors = errorsIn(`WrongTheme.${ext}`);
    expect(errors.length, result().text).toBeGreaterThan(0);
    expect(errors.map((error) => error.message).join('\n')).toMatch(/"purple".*not assignable.*"light"/);
  });

  it('refuses a misspelt attribute (amont)', () => {
    const errors = errorsIn(`MisspeltAttribute.${ext}`);
    expect(errors.length, result().text).toBeGreaterThan(0);
    expect(errors.map((error) => error.message).join('\n')).toMatch(/amont/);
  });

  it('refuses a misspelt event (satang-sucess)', () => {
    const errors = errorsIn(`MisspeltEvent.${ext}`);
    expect(errors.length, result().text).toBeGreaterThan(0);
    expect(errors.map((error) => error.message).join('\n')).toMatch(event);
  });
});

describe('satang/angular with tsc, as Angular checks an event binding', () => {
  it('types $event of every Satang event by its class', () => {
    expect(angular.errors.filter((error) => error.file !== 'wrong-event.ts'), angular.text).toEqual([]);
  });

  it('refuses a field the event does not have', () => {
    expect(angular.errors.map((error) => `${error.file}: ${error.message}`)).toEqual([
      expect.stringMatching(/^wrong-event\.ts: TS2339: Property 'failureCode' does not exist on type 'SatangSuccessEvent'/) as string,
    ]);
  });
});
