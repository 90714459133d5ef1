import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../bench/sizes.js';

/**
 * The package's types as each kind of TypeScript project resolves them. `exports` is read by
 * `node16`/`nodenext` and `bundler`; `node10` (`"moduleResolution": "node"`, still in Next 15's
 * generated tsconfig) ignores it, and finds `satang`'s types through `types` and every subpath's
 * through `typesVersions`.
 *
 * The declarations are built as `npm run build` builds them (tsconfig.build.json), into
 * fixtures/type-resolution/node_modules/satang/dist beside a copy of package.json; the fixture
 * project resolves lit, React and the other peers from the repository's node_modules.
 * `uses-satang.ts` uses every typed export (its wrong uses marked `@ts-expect-error`, so an export
 * typed `any` fails too); `wrong-use.ts` must be refused.
 */

const exec = promisify(execFile);
const FIXTURE = join(REPO_ROOT, 'test/build/fixtures/type-resolution');
const PACKAGE = join(FIXTURE, 'node_modules/satang');
const TSC = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
const BUILD_TIMEOUT_MS = 180_000;
const CHECK_TIMEOUT_MS = 60_000;

/** The compiler options of each kind of project (skipLibCheck, as Next.js and most apps set it). */
const MODES = {
  node10: ['--module', 'esnext', '--moduleResolution', 'node10', '--ignoreDeprecations', '5.0'],
  node16: ['--module', 'node16', '--moduleResolution', 'node16'],
  nodenext: ['--module', 'nodenext', '--moduleResolution', 'nodenext'],
  bundler: ['--module', 'esnext', '--moduleResolution', 'bundler'],
} as const;
const COMMON = ['--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--lib', 'es2023,dom,dom.iterable', '--types', 'node', '--jsx', 'react-jsx'];

/** tsc's report on `file` in `mode`: its exit code and what it printed. */
async function typeCheck(mode: keyof typeof MODES, file: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await exec(process.execPath, [TSC, ...COMMON, ...MODES[mode], file], { cwd: FIXTURE });
    return { code: 0, output: stdout };
  } catch (error) {
    const { code, stdout, stderr } = error as { code?: number; stdout?: string; stderr?: string };
    return { code: code ?? -1, output: `${stdout ?? ''}${stderr ?? ''}` };
  }
}

/** package.json as the fixture's copy holds it, changed by `edit`. */
async function writeManifest(edit: (manifest: Record<string, unknown>) => void = () => undefined): Promise<void> {
  const manifest = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  edit(manifest);
  await writeFile(join(PACKAGE, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

beforeAll(async () => {
  await rm(join(FIXTURE, 'node_modules'), { recursive: true, force: true });
  await mkdir(PACKAGE, { recursive: true });
  await copyFile(join(REPO_ROOT, 'package.json'), join(PACKAGE, 'package.json'));
  const declarations = await exec(process.execPath, [TSC, '-p', join(REPO_ROOT, 'tsconfig.build.json'), '--emitDeclarationOnly', '--outDir', join(PACKAGE, 'dist')], { cwd: REPO_ROOT }).then(
    ({ stdout }) => stdout,
    (error: unknown) => `${(error as { stdout?: string }).stdout ?? ''}${(error as Error).message}`,
  );
  expect(declarations, 'the declarations build').toBe('');
}, BUILD_TIMEOUT_MS);

describe('the package types', () => {
  it.each(Object.keys(MODES) as (keyof typeof MODES)[])(
    'type-check a use of every export with moduleResolution %s',
    async (mode) => {
      const { code, output } = await typeCheck(mode, 'uses-satang.ts');
      expect(output.trim(), 'tsc reports no error').toBe('');
      expect(code).toBe(0);
    },
    CHECK_TIMEOUT_MS,
  );

  it.each(Object.keys(MODES) as (keyof typeof MODES)[])(
    'refuse a wrong use of satang/server with moduleResolution %s',
    async (mode) => {
      const { code, output } = await typeCheck(mode, 'wrong-use.ts');
      expect(code).not.toBe(0);
      expect(output).toMatch(/wrong-use\.ts\(4,\d+\): error TS2353: .*notAnOption/);
    },
    CHECK_TIMEOUT_MS,
  );

  it(
    'need typesVersions under node10: without it, the subpaths do not resolve',
    async () => {
      try {
        await writeManifest((manifest) => delete manifest.typesVersions);
        const { code, output } = await typeCheck('node10', 'uses-satang.ts');
        expect(code).not.toBe(0);
        expect(output).toMatch(/error TS2307: Cannot find module 'satang\/server'/);
      } finally {
        await writeManifest();
      }
    },
    CHECK_TIMEOUT_MS,
  );
});
