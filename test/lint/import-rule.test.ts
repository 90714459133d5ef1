import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The project's own ESLint config, checking only the import rules. The code under test is text at
 * a made-up path, which the TypeScript project does not hold, so the type-checked rules are off.
 */
const eslint = new ESLint({
  cwd: root,
  overrideConfig: tseslint.configs.disableTypeChecked,
  ruleFilter: ({ ruleId }) => ruleId.startsWith('import-x/'),
});

/**
 * A module of a part, as a specifier relative to src/<from>/: the rule looks at the file an import
 * resolves to, so the specifier must name a file that exists, whatever the part holds today.
 */
function moduleOf(part: string, from = '..'): string {
  const file = readdirSync(`${root}/src/${part}`).find((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'));
  if (file === undefined) throw new Error(`src/${part}/ holds no module`);
  return `${from}/${part}/${file.replace(/\.ts$/, '.js')}`;
}

/** The import rules' messages for `code` as the file at `filePath`. */
async function importProblems(filePath: string, code: string): Promise<{ ruleId: string | null; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map(({ ruleId, message }) => ({ ruleId, message }));
}

const importing = (specifier: string) => `import * as dependency from '${specifier}';\nexport { dependency };\n`;

describe('the import rule', () => {
  it.each([
    ['src/elements/probe.ts', 'server', 'src/elements/ runs in the browser'],
    ['src/elements/probe.ts', 'sandbox', 'src/elements/ runs in the browser'],
    ['src/elements/probe.ts', 'node', 'src/elements/ runs in the browser'],
    ['src/client/probe.ts', 'elements', 'src/client/ runs in the browser'],
    ['src/client/probe.ts', 'server', 'src/client/ runs in the browser'],
    ['src/core/probe.ts', 'node', 'src/core/ runs in the browser and on the server'],
    ['src/core/probe.ts', 'client', 'src/core/ runs in the browser and on the server'],
    ['src/sandbox/probe.ts', 'server', 'src/sandbox/ stands without the server'],
    ['src/server/probe.ts', 'sandbox', 'src/server/ stands without the sandbox'],
    ['src/node/probe.ts', 'server', 'src/node/ is the footing of the server and the sandbox'],
    ['src/react/probe.ts', 'server', 'src/react/ runs in the browser and in server rendering'],
    ['src/react/probe.ts', 'client', 'src/react/ runs in the browser and in server rendering'],
    ['src/elements/probe.ts', 'react', 'src/elements/ runs in the browser'],
    ['src/server/probe.ts', 'react', 'src/server/ stands without the sandbox and the browser code'],
  ])('fails %s importing src/%s/', async (filePath, part, why) => {
    const specifier = moduleOf(part);
    const problems = await importProblems(filePath, importing(specifier));
    expect(problems).toEqual([
      { ruleId: 'import-x/no-restricted-paths', message: expect.stringContaining(`Unexpected path "${specifier}"`) as string },
    ]);
    expect(problems[0]!.message).toContain(why);
  });

  it('fails type-only imports, re-exports and dynamic imports alike', async () => {
    const elements = moduleOf('elements');
    const server = moduleOf('server');
    const code = [
      `import type * as Elements from '${elements}';`,
      `export type { Elements };`,
      `export * from '${server}';`,
      `export const later = () => import('${moduleOf('sandbox')}');`,
    ].join('\n');
    const problems = await importProblems('src/client/probe.ts', code);
    expect(problems.map(({ ruleId }) => ruleId)).toEqual(Array(3).fill('import-x/no-restricted-paths'));
  });

  it('keeps Redis out of satang/server: only src/server/redis/ reaches it, and it reaches only server/ and core/', async () => {
    const redis = moduleOf('server/redis', '../..');
    for (const filePath of ['src/server/checkout/probe.ts', 'src/server/webhooks/probe.ts']) {
      const problems = await importProblems(filePath, importing(redis));
      expect(problems.map(({ message }) => message)).toEqual([expect.stringContaining('satang/server must not need Redis')]);
    }
    expect((await importProblems('src/server/probe.ts', importing(moduleOf('server/redis')))).map(({ ruleId }) => ruleId)).toEqual(['import-x/no-restricted-paths']);
    expect((await importProblems('src/server/redis/probe.ts', importing(moduleOf('node', '../..')))).map(({ message }) => message)).toEqual([
      expect.stringContaining('src/server/redis/ is a store for the checkout handler'),
    ]);
    const allowed = [moduleOf('server/checkout', '..'), moduleOf('core', '../..')];
    expect(await importProblems('src/server/redis/probe.ts', allowed.map((m, i) => `export * as part${i} from '${m}';`).join('\n'))).toEqual([]);
  });

  it("fails a demo page importing the server's code", async () => {
    const problems = await importProblems('demo/spa/probe.ts', importing(moduleOf('server', '../../src')));
    expect(problems.map(({ ruleId }) => ruleId)).toEqual(['import-x/no-restricted-paths']);
  });

  it.each([
    ['src/elements/probe.ts', ['elements', 'client', 'core']],
    ['src/client/probe.ts', ['client', 'core']],
    ['src/core/probe.ts', ['core']],
    ['src/node/probe.ts', ['node', 'core']],
    ['src/server/probe.ts', ['server', 'core', 'node']],
    ['src/sandbox/probe.ts', ['sandbox', 'core', 'node']],
  ])('lets %s import from src/ %j', async (filePath, parts) => {
    const code = parts.map((part, i) => `export * as part${i} from '${moduleOf(part)}';`).join('\n');
    expect(await importProblems(filePath, code)).toEqual([]);
  });

  it('lets the tests import every part', async () => {
    const parts = ['core', 'client', 'elements', 'node', 'server', 'sandbox'];
    const code = parts.map((part, i) => `export * as part${i} from '${moduleOf(part, '../src')}';`).join('\n');
    expect(await importProblems('test/probe.test.ts', code)).toEqual([]);
  });

  it("keeps Node's modules out of the code the browser loads", async () => {
    const code = "import { createHash } from 'node:crypto';\nexport const hash = createHash;\n";
    expect(await importProblems('src/core/probe.ts', code)).toEqual([
      { ruleId: 'import-x/no-nodejs-modules', message: expect.stringContaining('node:crypto') as string },
    ]);
    expect(await importProblems('src/server/probe.ts', code)).toEqual([]);
  });

  it('fails an import cycle', async () => {
    // src/core/index.ts re-exports src/core/money.ts, so money importing the index closes a circle.
    const problems = await importProblems('src/core/money.ts', "export * from './index.js';\n");
    expect(problems.map(({ ruleId }) => ruleId)).toEqual(['import-x/no-cycle']);
  });
});
