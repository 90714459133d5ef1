// @ts-check
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import { configs as lit } from 'eslint-plugin-lit';
import { configs as wc } from 'eslint-plugin-wc';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

/** The demo's code that runs in the browser; the rest of demo/ is its Node server. */
const DEMO_PAGES = ['demo/shop.ts', 'demo/required-element.ts', 'demo/authorize', 'demo/spa'];

/** The code that runs in a shopper's browser: the package's browser entries and the demo's pages. */
const BROWSER_CODE = ['src/core', 'src/client', 'src/elements', 'src/react', 'src/frameworks', ...DEMO_PAGES].map((path) => (path.endsWith('.ts') ? path : `${path}/**`));

/** `a`, `a and b`, `a, b and c`. */
const listed = (words) => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`);

/**
 * A zone of the import rule: code under `target` may import from src/ only the parts in `allow`.
 * `from` is the whole of src/, so a new part is forbidden everywhere until a zone allows it.
 */
const zone = (target, allow, why) => ({
  target,
  from: './src',
  except: allow.map((part) => `./${part}`),
  message: `${why} may import from src/ only ${listed(allow.map((part) => `${part}/`))} (the import rule, ARCHITECTURE.md).`,
});

/**
 * The import rule: react → elements → client → core; frameworks → elements; server → core, node; server/redis → server, core
 * (and nothing else of server/ imports it); sandbox → core, node; node → core; core imports
 * nothing of ours. Nothing the browser loads reaches server/, sandbox/ or node/, which follows
 * from the zones of core, client, elements and the demo's pages.
 */
const IMPORT_RULE = [
  zone('./src/core', ['core'], 'src/core/ runs in the browser and on the server alike, so it'),
  zone('./src/client', ['client', 'core'], 'src/client/ runs in the browser, so it'),
  zone('./src/elements', ['elements', 'client', 'core'], 'src/elements/ runs in the browser, so it'),
  zone('./src/react', ['react', 'elements', 'core'], 'src/react/ runs in the browser and in server rendering, so it'),
  zone('./src/frameworks', ['frameworks', 'elements'], 'src/frameworks/ types the elements for Vue and Svelte templates, so it'),
  zone('./src/node', ['node', 'core'], 'src/node/ is the footing of the server and the sandbox, so it'),
  zone('./src/server', ['server', 'core', 'node'], 'src/server/ stands without the sandbox and the browser code, so it'),
  zone('./src/server/redis', ['server', 'core'], 'src/server/redis/ is a store for the checkout handler, so it'),
  {
    // A shop without Redis installs nothing of it: only satang/server/redis reaches src/server/redis/.
    target: ['./src/server/!(redis)/**', './src/server/*.ts'],
    from: './src/server/redis',
    message: 'satang/server must not need Redis: only the satang/server/redis entry imports src/server/redis/ (ARCHITECTURE.md).',
  },
  zone('./src/sandbox', ['sandbox', 'core', 'node'], 'src/sandbox/ stands without the server and the browser code, so it'),
  zone(
    DEMO_PAGES.map((path) => `./${path}`),
    ['elements', 'client', 'core', 'react'],
    "The demo's pages run in the browser, so they",
  ),
];

export default defineConfig(
  {
    // test/next/fixture and test/next/fixture-next15 are Next.js apps that next build compiles
    // against the built package; test/build/fixtures hold code that tsc compiles against the package's types.
    ignores: ['dist/', 'reports/', 'test-results/', 'playwright-report/', 'bench-results/', 'test/next/fixture/', 'test/next/fixture-next15/', 'test/build/fixtures/'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  // strict: catches the unnecessary conditions and assertions that strict TypeScript leaves
  // behind; stylistic: the codebase already writes `interface` and `T[]`, the rules keep it so.
  tseslint.configs.strictTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: root },
    },
    rules: {
      // A leading underscore marks a parameter or binding that is there for its position or to
      // leave a property out of a rest object.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // A number prints the same in every locale-free template; `undefined`, objects and booleans
      // in a message or a URL are the mistakes this rule is for.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // An async function without `await` is how an in-memory store or a stub meets an interface
      // that returns promises (and its throws become rejections, as the real one's would); a
      // forgotten `await` is what no-floating-promises and no-misused-promises are for.
      '@typescript-eslint/require-await': 'off',
      // `@click=${() => this.select(method)}` is how a Lit template binds a listener, and
      // `return next(error)` how a void handler hands over and stops.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true, ignoreVoidReturningFunctions: true }],
    },
  },
  {
    plugins: { 'import-x': importX },
    settings: {
      // Resolves the `.js` specifiers of the sources to their `.ts` files, as TypeScript does.
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${root}/tsconfig.json` })],
      // The modules no-cycle may read to follow their imports in turn.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: IMPORT_RULE }],
    },
  },
  {
    // Only where modules import each other; a test is a leaf. Type-only imports are not followed:
    // they are erased and cannot order a module's evaluation.
    files: ['src/**', 'demo/**'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: BROWSER_CODE,
    rules: { 'import-x/no-nodejs-modules': 'error' },
  },
  {
    files: ['src/elements/**/*.ts'],
    extends: [lit['flat/recommended'], wc['flat/best-practice']],
    settings: { wc: { elementBaseClasses: ['LitElement'] } },
    // For a bare HTMLElement, whose callbacks may not exist; LitElement always defines them.
    rules: { 'wc/guard-super-call': 'off' },
  },
  {
    // Test idioms the type-checked rules fight: the JSON a response or a webhook carries is `any`
    // (so is the body a test client hands over) and each assertion is the check of its shape,
    // which typing it first would not make any stronger; and `rows[0]!` after the assertion on
    // the length is how a test reads an element it expects: if it is missing the test fails
    // either way.
    files: ['test/**', 'e2e/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The few JavaScript files (the bin shim, tool configs, a size baseline) are outside the
    // TypeScript project: linted without types.
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
);
