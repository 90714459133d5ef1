import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** The options a strict React 19 app compiles with; nothing of the repo's tsconfig.json. */
const STRICT_REACT_APP = [
  '--noEmit',
  '--strict',
  '--jsx',
  'react-jsx',
  '--module',
  'nodenext',
  '--moduleResolution',
  'nodenext',
  '--target',
  'es2022',
  '--lib',
  'es2023,dom,dom.iterable',
  '--types',
  'node',
  '--skipLibCheck',
  // The elements' sources are compiled along: Lit's reactive properties need [[Set]] class fields.
  '--useDefineForClassFields',
  'false',
];

describe('the JSX types of satang/react', () => {
  it('compile every tag and every wrapper with typed props and events, and refuse a misspelled attribute and a wrong event type', async () => {
    const run = promisify(execFile)(process.execPath, [tsc, ...STRICT_REACT_APP, 'test/react/fixture/jsx-types.tsx'], { cwd: root });
    // tsc prints its errors on stdout, an unmet @ts-expect-error among them ("Unused '@ts-expect-error' directive").
    const outcome = await run.then(
      ({ stdout }) => stdout,
      (error: unknown) => {
        const failed = error as { stdout?: string; message: string };
        return `${failed.message}\n${failed.stdout ?? ''}`;
      },
    );
    expect(outcome).toBe('');
  }, 120_000);
});
