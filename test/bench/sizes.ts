import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { build, createBuilder, minifySync, type Rolldown } from 'vite';

/**
 * Bundle sizes of the browser builds and of their baselines, measured the way a shopper pays for
 * them: minified bytes, gzip (level 9) and brotli (quality 11). One KB is 1024 bytes.
 *
 * Used by `npm run bench` (test/bench/run.ts) and by the size budget test (test/size-budget.test.ts).
 */

const execFileAsync = promisify(execFile);

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const KB = 1024;

/** What a shopper downloads first, brotli, Lit included (DESIGN.md, "Budgets"). */
export const BUDGETS = {
  /** The card-only checkout entry, `satang-card.js`. */
  cardInitialBrotli: 12 * KB,
  /** Every payment method, initial load: `satang-checkout.js`, without its lazy QR chunks. */
  allMethodsInitialBrotli: 16 * KB,
  /** The QR renderer, loaded only when a QR code is shown. */
  qrChunkBrotli: 9 * KB,
  /**
   * `import 'satang'` (the README's first example) as a merchant's Vite app ships it
   * ({@link buildViteConsumer}): every file loaded before the first render (the entry and what
   * Vite preloads with it), each compressed on its own.
   */
  defaultEntryConsumerBrotli: 16 * KB,
} as const;

export interface Size {
  /** Minified bytes, as written to disk. */
  minified: number;
  gzip: number;
  brotli: number;
}

/**
 * One module's share of a chunk. `renderedLength` is rolldown's figure: the module's code as
 * placed in the chunk, before the chunk is minified. `minified` is that code minified on its own
 * (an estimate of its share of the shipped file; names shared across modules are not mangled).
 */
export interface ModuleShare {
  id: string;
  renderedLength: number;
  minified: number;
  /** The minified-alone code compressed alone: an upper bound of what the module costs a shopper. */
  brotli: number;
}

export interface MeasuredFile extends Size {
  fileName: string;
  /** The modules in the file, largest first. */
  modules: ModuleShare[];
}

export function measure(code: string | Uint8Array): Size {
  const bytes = typeof code === 'string' ? Buffer.from(code) : Buffer.from(code);
  return {
    minified: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: 11,
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }).length,
  };
}

/** "12.34 KB" */
export function kb(bytes: number): string {
  return `${(bytes / KB).toFixed(2)} KB`;
}

/** A module id as a short path: `lit-html/lit-html.js`, `src/elements/card.ts`. */
export function shortModuleId(id: string): string {
  const clean = id.replace(/^\0/, '').replace(/\?.*$/, '');
  const nm = clean.lastIndexOf('node_modules/');
  if (nm >= 0) return clean.slice(nm + 'node_modules/'.length);
  return clean.startsWith('/') ? relative(REPO_ROOT, clean) : clean;
}

function measureChunk(chunk: Rolldown.OutputChunk): MeasuredFile {
  const modules = Object.entries(chunk.modules)
    .map(([id, info]) => ({ id: shortModuleId(id), renderedLength: info.renderedLength, ...minifiedAlone(info.code) }))
    .filter((m) => m.renderedLength > 0)
    .sort((a, b) => b.renderedLength - a.renderedLength);
  return { fileName: chunk.fileName, ...measure(chunk.code), modules };
}

/**
 * A module's code minified as a script on its own, so that nothing in it is dropped as unused (it
 * is used by the other modules of the chunk).
 */
function minifiedAlone(code: string | null): { minified: number; brotli: number } {
  if (!code) return { minified: 0, brotli: 0 };
  const result = minifySync('module.js', code, { module: false, compress: true, mangle: true });
  const { minified, brotli } = measure(result.errors.length > 0 ? code : result.code);
  return { minified, brotli };
}

function chunksOf(output: unknown): Rolldown.OutputChunk[] {
  const outputs: unknown[] = Array.isArray(output) ? output : [output];
  const chunks: Rolldown.OutputChunk[] = [];
  for (const o of outputs) {
    if (typeof o !== 'object' || o === null || !('output' in o)) throw new Error('expected a build output (write: false), got a watcher');
    for (const item of (o as Rolldown.RolldownOutput).output) if (item.type === 'chunk') chunks.push(item);
  }
  return chunks;
}

/**
 * Lit and other packages pick their development builds unless NODE_ENV is `production` when Vite
 * resolves them (Vitest sets it to `test`). Every build here is a production build.
 */
async function asProduction<T>(run: () => Promise<T>): Promise<T> {
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return await run();
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  }
}

/** The real browser files, built by the repository's vite.config.ts in memory. */
export interface CheckoutBuild {
  /** `satang.js`: every element, defined at once; the script-tag file. */
  full: MeasuredFile;
  /** `satang-checkout.js`: the checkout and its card form; the QR element comes lazily (`satang/checkout`). */
  checkout: MeasuredFile;
  /** `chunks/qr-payment-*.js`: `<satang-qr-payment>`, fetched by satang-checkout.js once PromptPay is chosen. */
  qrElementChunk: MeasuredFile;
  /** `satang-card.js`: the card form alone (`satang/card`). */
  card: MeasuredFile;
  /** `chunks/qrcode-*.js`: the QR renderer, loaded with `import()` when a QR code is shown. */
  qrChunk: MeasuredFile;
  /** Every emitted chunk with its code, to write out for the browser measurements. */
  files: { fileName: string; code: string }[];
}

/**
 * Builds the environments of vite.config.ts (`client` → satang.js, `checkout` → satang-checkout.js,
 * `card` → satang-card.js) with
 * `write: false`, so nothing in dist/ is touched, and measures the files.
 */
export async function buildCheckout(): Promise<CheckoutBuild> {
  return asProduction(async () => {
    const inMemory = { build: { write: false } };
    const builder = await createBuilder({
      root: REPO_ROOT,
      configFile: join(REPO_ROOT, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'error',
      environments: { client: inMemory, checkout: inMemory, card: inMemory },
    });
    const client = chunksOf(await builder.build(builder.environments.client!));
    const checkout = chunksOf(await builder.build(builder.environments.checkout!));
    const card = chunksOf(await builder.build(builder.environments.card!));
    const find = (chunks: Rolldown.OutputChunk[], test: (c: Rolldown.OutputChunk) => boolean, what: string) => {
      const found = chunks.filter(test);
      if (found.length !== 1) throw new Error(`expected one ${what} in the build, found ${found.map((c) => c.fileName).join(', ') || 'none'}`);
      return found[0]!;
    };
    const fullEntry = find(client, (c) => c.isEntry && c.fileName === 'satang.js', 'satang.js');
    const cardEntry = find(card, (c) => c.isEntry && c.fileName === 'satang-card.js', 'satang-card.js');
    const checkoutEntry = find(checkout, (c) => c.isEntry && c.fileName === 'satang-checkout.js', 'satang-checkout.js');
    const qrElement = find(checkout, (c) => /^chunks\/qr-payment-[\w-]+\.js$/.test(c.fileName), 'chunks/qr-payment-*.js');
    const qr = find(client, (c) => /^chunks\/qrcode-[\w-]+\.js$/.test(c.fileName), 'chunks/qrcode-*.js');
    const files = new Map<string, string>();
    for (const c of [...client, ...checkout, ...card]) files.set(c.fileName, c.code);
    return {
      full: measureChunk(fullEntry),
      checkout: measureChunk(checkoutEntry),
      qrElementChunk: measureChunk(qrElement),
      card: measureChunk(cardEntry),
      qrChunk: measureChunk(qr),
      files: [...files].map(([fileName, code]) => ({ fileName, code })),
    };
  });
}

/**
 * Builds one entry file on its own, minified ES module for browsers with the same settings as the
 * real builds (es2022, oxc minifier, no comments), in memory. For the baselines and bench-only
 * entries. Answers the entry file and the lazy chunks it may have.
 */
export async function buildEntry(entry: string, name: string): Promise<{ entry: MeasuredFile; chunks: MeasuredFile[]; files: { fileName: string; code: string }[] }> {
  return asProduction(async () => {
    const output = await build({
      root: REPO_ROOT,
      configFile: false,
      mode: 'production',
      logLevel: 'error',
      publicDir: false,
      build: {
        write: false,
        target: 'es2022',
        minify: 'oxc',
        sourcemap: false,
        lib: { entry: { [name]: resolve(REPO_ROOT, entry) }, formats: ['es'], fileName: (_format, entryName) => `${entryName}.js` },
        rolldownOptions: { output: { minify: true, comments: false, chunkFileNames: 'chunks/[name]-[hash].js' } },
      },
    });
    const chunks = chunksOf(output);
    const main = chunks.find((c) => c.isEntry);
    if (!main) throw new Error(`no entry chunk built for ${entry}`);
    return {
      entry: measureChunk(main),
      chunks: chunks.filter((c) => c !== main).map(measureChunk),
      files: chunks.map((c) => ({ fileName: c.fileName, code: c.code })),
    };
  });
}

/**
 * The package as `npm run build` compiles its modules (tsc, tsconfig.build.json; no declarations),
 * into bench-results/<name>/node_modules/satang/dist beside a copy of package.json. The project
 * bench-results/<name> (a package.json of its own, so `satang` is not the repository itself)
 * imports it as a merchant's app does, and resolves lit from the repository's node_modules.
 * Answers the project's directory, for {@link buildViteConsumer} and {@link buildConsumer}.
 */
export async function buildPackage(name: string): Promise<string> {
  const project = join(REPO_ROOT, 'bench-results', name);
  const satang = join(project, 'node_modules', 'satang');
  await rm(project, { recursive: true, force: true });
  await mkdir(satang, { recursive: true });
  await writeFile(join(project, 'package.json'), `${JSON.stringify({ name, private: true, type: 'module' })}\n`);
  await writeFile(join(satang, 'package.json'), await readFile(join(REPO_ROOT, 'package.json')));
  const tsc = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
  const args = [tsc, '-p', join(REPO_ROOT, 'tsconfig.build.json'), '--declaration', 'false', '--outDir', join(satang, 'dist')];
  await execFileAsync(process.execPath, args, { cwd: REPO_ROOT }).catch((error: unknown) => {
    throw new Error(`tsc -p tsconfig.build.json failed: ${(error as { stdout?: string }).stdout ?? String(error)}`, { cause: error });
  });
  return project;
}

/** `dist/elements/index.js` of the package {@link buildPackage} compiled: what `import 'satang'` resolves to. */
export const packageEntry = (project: string): string => join(project, 'node_modules/satang/dist/elements/index.js');

/** One output file of an app build: its code and the modules rolldown put in it. */
export interface AppChunk {
  fileName: string;
  code: string;
  moduleIds: string[];
  /** Files it imports statically (Vite preloads them with it). */
  imports: string[];
  isEntry: boolean;
}

/**
 * A merchant's Vite app that imports `specifiers` (`import 'satang'`, …) from the package in
 * `project` ({@link buildPackage}), built for production as `vite build` builds an app: minified,
 * with Vite's own chunking and its preload of what a chunk imports. `initial` is every file the
 * browser loads before the first render (the entry and what it imports statically); each file is
 * compressed on its own, as it is served. The app is built to be served from /consumer/, its entry
 * as `<name>.js`.
 */
export interface ViteConsumerBuild {
  initial: MeasuredFile[];
  lazy: MeasuredFile[];
  initialTotal: Size;
  chunks: AppChunk[];
}

export async function buildViteConsumer(project: string, specifiers: readonly string[], name: string, base = '/consumer/'): Promise<ViteConsumerBuild> {
  // One file of the app's own (an entry, whose side effects a bundler keeps) is built as it is; the
  // package's entries are imported by an entry file written for them, as an app's main module does.
  const [only] = specifiers;
  const own = specifiers.length === 1 && only !== undefined && isAbsolute(only);
  const entry = own ? only : join(project, `${name}.js`);
  if (!own) await writeFile(entry, specifiers.map((specifier) => `import ${JSON.stringify(specifier)};\n`).join(''));
  return asProduction(async () => {
    const output = await build({
      root: project,
      configFile: false,
      mode: 'production',
      logLevel: 'error',
      publicDir: false,
      // Served from `base` (/consumer/ in test/bench/stack.ts), the entry under its own name.
      base,
      build: { write: false, target: 'es2022', assetsDir: '', rolldownOptions: { input: { [name]: entry }, output: { entryFileNames: '[name].js' } } },
    });
    const chunks = chunksOf(output);
    const byName = new Map(chunks.map((c) => [c.fileName, c]));
    const initialNames = new Set<string>();
    const queue = chunks.filter((c) => c.isEntry).map((c) => c.fileName);
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (initialNames.has(file)) continue;
      initialNames.add(file);
      queue.push(...(byName.get(file)?.imports ?? []));
    }
    const initial = chunks.filter((c) => initialNames.has(c.fileName)).map(measureChunk);
    const total = (key: keyof Size) => initial.reduce((sum, file) => sum + file[key], 0);
    return {
      initial,
      lazy: chunks.filter((c) => !initialNames.has(c.fileName)).map(measureChunk),
      initialTotal: { minified: total('minified'), gzip: total('gzip'), brotli: total('brotli') },
      chunks: chunks.map((c) => ({ fileName: c.fileName, code: c.code, moduleIds: [...c.moduleIds], imports: [...c.imports], isEntry: c.isEntry })),
    };
  });
}

/** Size of a file as shipped (e.g. a stylesheet a library also needs). */
export async function measureFile(path: string): Promise<Size> {
  return measure(await readFile(resolve(REPO_ROOT, path)));
}

/** Writes built files under `dir`, keeping their relative names (chunks/…). */
export async function writeFiles(dir: string, files: { fileName: string; code: string }[]): Promise<void> {
  for (const file of files) {
    const path = join(dir, file.fileName);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.code);
  }
}

/** One line per budget: the measured size, the budget and whether it fits. */
export interface BudgetCheck {
  name: string;
  file: string;
  brotli: number;
  budget: number;
  ok: boolean;
}

export function checkBudgets(build: Pick<CheckoutBuild, 'checkout' | 'card' | 'qrChunk'>, consumer?: ViteConsumerBuild): BudgetCheck[] {
  const line = (name: string, file: { fileName: string; brotli: number }, budget: number): BudgetCheck => ({ name, file: file.fileName, brotli: file.brotli, budget, ok: file.brotli <= budget });
  const checks = [
    line('card checkout, initial', build.card, BUDGETS.cardInitialBrotli),
    line('all methods, initial', build.checkout, BUDGETS.allMethodsInitialBrotli),
    line('QR chunk (lazy)', build.qrChunk, BUDGETS.qrChunkBrotli),
  ];
  if (consumer) {
    const files = `import 'satang', Vite app: ${consumer.initial.length} file${consumer.initial.length === 1 ? '' : 's'} before the first render`;
    checks.push(line('default entry as bundled, initial', { fileName: files, brotli: consumer.initialTotal.brotli }, BUDGETS.defaultEntryConsumerBrotli));
  }
  return checks;
}

export function describeBudget(check: BudgetCheck): string {
  const diff = check.brotli - check.budget;
  const verdict = diff > 0 ? `OVER by ${kb(diff)}` : `within, ${kb(-diff)} to spare`;
  return `${check.name} (${check.file}): ${kb(check.brotli)} brotli (${check.brotli} B), budget ${kb(check.budget)}: ${verdict}`;
}

/**
 * An entry as a merchant's bundler ships it: `import 'satang'` bundled by esbuild (the bundler
 * under Vite's dev server and many others), minified, ES modules with code splitting, for
 * browsers. For `satang`, the entry is the package's dist/elements/index.js ({@link packageEntry}),
 * with lit bundled from node_modules; a TypeScript entry (the floor) is compiled as tsconfig.json
 * says.
 * `initial` is every file the browser loads before the first render: the entry and the files it
 * imports statically, transitively; `lazy` is what `import()` fetches later. Each file is
 * compressed on its own, as it is served.
 */
export interface ConsumerBuild {
  entry: string;
  initial: MeasuredFile[];
  lazy: MeasuredFile[];
  /** The initial files added up. */
  initialTotal: Size;
  files: { fileName: string; code: string }[];
}

export async function buildConsumer(entry: string, name: string): Promise<ConsumerBuild> {
  const esbuild = await import('esbuild');
  const outdir = join(REPO_ROOT, 'bench-results', 'consumer-out');
  const result = await esbuild.build({
    absWorkingDir: REPO_ROOT,
    entryPoints: { [name]: resolve(REPO_ROOT, entry) },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    outdir,
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const nameOf = (path: string) => relative(outdir, resolve(REPO_ROOT, path)).replaceAll('\\', '/');
  const outputs = new Map(Object.entries(result.metafile.outputs).map(([path, output]) => [nameOf(path), output]));
  const code = new Map(result.outputFiles.map((file) => [relative(outdir, file.path).replaceAll('\\', '/'), file.text]));
  const measured = (fileName: string): MeasuredFile => {
    const inputs = Object.entries(outputs.get(fileName)?.inputs ?? {});
    const modules = inputs
      .map(([id, info]) => ({ id: shortModuleId(resolve(REPO_ROOT, id)), renderedLength: info.bytesInOutput, minified: info.bytesInOutput, brotli: 0 }))
      .filter((m) => m.renderedLength > 0)
      .sort((a, b) => b.renderedLength - a.renderedLength);
    return { fileName, ...measure(code.get(fileName) ?? ''), modules };
  };
  const start = `${name}.js`;
  const initialNames = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (initialNames.has(file)) continue;
    initialNames.add(file);
    for (const imported of outputs.get(file)?.imports ?? []) if (imported.kind === 'import-statement') queue.push(nameOf(imported.path));
  }
  const initial = [...initialNames].map(measured);
  const lazy = [...code.keys()].filter((file) => !initialNames.has(file)).map(measured);
  const total = (key: keyof Size) => initial.reduce((sum, file) => sum + file[key], 0);
  return {
    entry: start,
    initial,
    lazy,
    initialTotal: { minified: total('minified'), gzip: total('gzip'), brotli: total('brotli') },
    files: [...code].map(([fileName, text]) => ({ fileName, code: text })),
  };
}
