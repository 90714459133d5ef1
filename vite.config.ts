import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineConfig, type BuildEnvironmentOptions, type Plugin } from 'vite';
import { linkLazyChunksThroughEntry } from './build/link-lazy-chunks.js';
import { prepareLitTemplates } from './build/prepare-lit-templates.js';

/**
 * The browser build of the elements, into dist/browser/:
 *
 *   satang.js           every element (src/elements/index.ts) in one file: the file a merchant's
 *                       script tag loads; only the QR libraries below come later
 *   satang-checkout.js  the checkout and its card form (src/elements/checkout.ts), the smallest first
 *                       download: the payment code (chunks/pay-path-*.js, chunks/card-tokens-*.js…)
 *                       follows the first render, the QR element (chunks/qr-payment-*.js) comes when
 *                       PromptPay is chosen
 *   satang-card.js      the card form alone (src/elements/card.ts), in one file
 *   chunks/qrcode-*.js  the QR renderer, fetched only when a QR code is shown
 *   chunks/jsqr-*.js    the QR reader for transfer slips, fetched only when a shopper picks a slip
 *                       on a browser without a native BarcodeDetector
 *   sri.json            the Subresource Integrity hash (sha384) of every .js file above
 *
 * Each entry is built on its own so that it is one self-contained file (lit and the shared code
 * inside): a page that loads it makes one request until a QR is needed. Building the entries in
 * one graph would move their shared code into a common chunk, a second request on every page.
 *
 * Every file in chunks/ is shipped once (`vite build` fails otherwise). The QR libraries do not
 * depend on the entry that loads them, so the three builds write the same bytes under the same
 * name. Code that does depend on its entry (it imports lit and the shared code from it) can be a
 * chunk of one entry only: the payment code is a chunk of satang-checkout.js, the entry built for
 * the smallest first download, and satang.js and satang-card.js carry it inline
 * (`INLINED_IN_ONE_FILE_BUILDS`).
 *
 * `npm run build:browser` (vite build) builds all three, then the module builds for bundlers
 * (dist/module/, `moduleBuild`). The dev server (`vite`) serves the project root as it is; none of
 * this applies to it.
 */

const OUT_DIR = 'dist/browser';

/** Modules that must stay out of the entry files and load on demand. */
const LAZY_ONLY = /[\\/]node_modules[\\/](qrcode|dijkstrajs|jsqr)[\\/]/;
const isQrcodeChunk = (moduleIds: readonly string[]) => moduleIds.some((id) => /[\\/]node_modules[\\/]qrcode[\\/]/.test(id));
const isJsqrChunk = (moduleIds: readonly string[]) => moduleIds.some((id) => /[\\/]node_modules[\\/]jsqr[\\/]/.test(id));
/** The QR libraries' chunks keep a name of their own in every build: qrcode-*.js, jsqr-*.js. */
const qrLibraryChunkName = (moduleIds: readonly string[]) =>
  isQrcodeChunk(moduleIds) ? 'chunks/qrcode-[hash].js' : isJsqrChunk(moduleIds) ? 'chunks/jsqr-[hash].js' : undefined;

const QRCODE_FACADE = '\0satang:qrcode';

/**
 * `qrcode` is CommonJS. Imported as it is, every `import('qrcode')` needs the bundler's CommonJS
 * interop helper at the call site, and that helper lands in a runtime chunk the entry imports
 * statically. Routing `qrcode` through this ES module keeps the interop inside the lazy chunk.
 * The facade exports what the elements use (`create`) and nothing else: an entry that imports the
 * whole namespace (satang-checkout.js prefetches it) then gets the same chunk, byte for byte, as
 * one that picks `create`, and the chunk is shipped once. A new use of another function fails the
 * build ("not exported"), and is added here.
 */
function qrcodeFacade(): Plugin {
  return {
    name: 'satang:qrcode-facade',
    apply: 'build',
    enforce: 'pre',
    resolveId(id, importer) {
      return id === 'qrcode' && importer !== QRCODE_FACADE ? QRCODE_FACADE : null;
    },
    load(id) {
      if (id !== QRCODE_FACADE) return null;
      return ["import QRCode from 'qrcode';", 'export const create = QRCode.create;'].join('\n');
    },
  };
}

/**
 * jsQR ships as one UMD file, which the bundler would wrap as CommonJS: its interop runtime would
 * then become a chunk shared with the QR renderer, one more request before a QR code shows. Given
 * a `module` of its own, the file reads as a plain ES module whose `default` is its exports
 * (`{default: jsQR}`), as the dev server gives it.
 */
function jsqrAsEsModule(): Plugin {
  return {
    name: 'satang:jsqr-as-es-module',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]jsqr[\\/]dist[\\/]jsQR\.js$/.test(id)) return null;
      return { code: `var module = { exports: {} }, exports = module.exports;\n${code}\nexport default module.exports;\n`, map: null };
    },
  };
}

/** The builds that carry the payment code in their entry file: satang.js and satang-card.js. */
const ONE_FILE_BUILDS: readonly string[] = ['client', 'card'];

/**
 * The payment code: what satang-checkout.js fetches right after its first render (and so would be
 * a chunk of each entry that imports it lazily, under two hashes).
 */
const INLINED_IN_ONE_FILE_BUILDS = [
  /[\\/]src[\\/]elements[\\/]satang-checkout[\\/]pay-path\.ts$/,
  // The card form's rules, their messages and the tokenization call (card-tokens.ts).
  /[\\/]src[\\/]elements[\\/]satang-card-form[\\/]card-form-extras\.ts$/,
  // <satang-qr-payment>, which `satang` defines on first use for bundlers; satang.js carries it.
  /[\\/]src[\\/]elements[\\/]satang-qr-payment[\\/]define\.ts$/,
];

/**
 * Makes `import('./x.js')` of the payment code static in satang.js and satang-card.js: the module
 * goes into the entry instead of a chunk that only this entry could load (satang-checkout.js ships
 * it as its chunk). The call becomes a promise of an object of the module's exports, so
 * `lazyModule(() => import('./x.js'))` resolves at once. (Not `import * as`: a namespace object
 * needs the bundler's runtime helpers in the entry, and the QR chunk would then import its
 * CommonJS helpers from there, a chunk no other entry could share.) Other `import()`s stay lazy.
 */
function inlineEntryImports(): Plugin {
  return {
    name: 'satang:inline-entry-imports',
    apply: 'build',
    async transform(code, id) {
      if (!ONE_FILE_BUILDS.includes(this.environment.name)) return null;
      if (!/[\\/]src[\\/](elements|client)[\\/]/.test(id)) return null;
      const statics: string[] = [];
      let inlined = '';
      let copied = 0;
      for (const [index, call] of [...code.matchAll(/\bimport\((['"])(\.{1,2}\/[^'"]+)\1\)/g)].entries()) {
        const [whole, , specifier = ''] = call;
        const resolved = await this.resolve(specifier, id);
        if (!resolved) this.error(`${id}: cannot resolve ${specifier}`);
        if (!INLINED_IN_ONE_FILE_BUILDS.some((pattern) => pattern.test(resolved.id))) continue;
        const { exports } = await this.load({ id: resolved.id });
        const local = (n: number) => `__satangInlined${index}_${n}`;
        statics.push(`import { ${exports.map((name, n) => `${name} as ${local(n)}`).join(', ')} } from ${JSON.stringify(specifier)};`);
        inlined += `${code.slice(copied, call.index)}Promise.resolve({ ${exports.map((name, n) => `${JSON.stringify(name)}: ${local(n)}`).join(', ')} })`;
        copied = call.index + whole.length;
      }
      if (statics.length === 0) return null;
      inlined += code.slice(copied);
      return { code: `${statics.join('')}${inlined}`, map: null };
    },
  };
}

/**
 * Fails the build when an entry file would need a second request before the first QR code, or
 * lost its element definitions (a side-effect import dropped by tree-shaking, for instance).
 */
function checkEntries(): Plugin {
  return {
    name: 'satang:check-entries',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry) continue;
        const problems: string[] = [];
        if (chunk.imports.length > 0) problems.push(`it imports ${chunk.imports.join(', ')} statically`);
        const lazy = chunk.moduleIds.filter((id) => LAZY_ONLY.test(id));
        if (lazy.length > 0) problems.push(`it contains ${lazy.join(', ')}, which must load with import()`);
        if (!chunk.code.includes('customElements.define')) problems.push('it defines no custom element');
        if (problems.length > 0) this.error(`${chunk.fileName}: ${problems.join('; ')}`);
      }
    },
  };
}

/** The files of `dir`, recursively, as paths relative to it with `/` separators. */
async function filesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1).replaceAll('\\', '/'));
}

/**
 * Fails when two files of dist/browser/chunks are the same chunk under two hashes: two copies of
 * one code, because two entries load it lazily and each makes it a chunk importing from itself.
 * Load it from one entry only, or carry it inline in the others (`INLINED_IN_ONE_FILE_BUILDS`).
 */
async function checkChunksShippedOnce(dir: string): Promise<void> {
  const byName = new Map<string, string[]>();
  for (const file of await filesIn(dir)) {
    const stem = /^chunks\/(.+)-[\w-]{8}\.js$/.exec(file)?.[1];
    if (stem) byName.set(stem, [...(byName.get(stem) ?? []), file]);
  }
  const twice = [...byName.values()].filter((files) => files.length > 1);
  if (twice.length > 0) {
    throw new Error(`chunks shipped more than once (see INLINED_IN_ONE_FILE_BUILDS in vite.config.ts): ${twice.map((files) => files.join(' and ')).join('; ')}`);
  }
}

/** The name of the file listing the Subresource Integrity hash of every script in dist/browser. */
const SRI_FILE = 'sri.json';

/** `sha384-…`, as an `integrity` attribute or an import map's `integrity` entry takes it. */
function integrityOf(content: Uint8Array): string {
  return `sha384-${createHash('sha384').update(content).digest('base64')}`;
}

/** Writes dist/browser/sri.json: `{ "satang.js": "sha384-…", "chunks/qrcode-….js": "sha384-…", … }`. */
async function writeSri(dir: string): Promise<void> {
  const scripts = (await filesIn(dir)).filter((file) => file.endsWith('.js')).sort();
  const hashes: Record<string, string> = {};
  for (const file of scripts) hashes[file] = integrityOf(await readFile(join(dir, file)));
  await writeFile(join(dir, SRI_FILE), `${JSON.stringify(hashes, null, 2)}\n`);
}

/**
 * Minifies the CSS of the elements' `css` templates (comments, indentation, spaces around
 * punctuation), which the JavaScript minifier leaves as written. Only templates without `${}`
 * are touched, and a space before `:` is kept (`a :hover` and `a:hover` differ).
 */
export function minifyCssTemplates(): Plugin {
  return {
    name: 'satang:minify-css-templates',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]src[\\/]elements[\\/].*styles\.ts$/.test(id)) return null;
      return code.replace(/\bcss`([^`$]*)`/g, (_whole, text: string) => {
        const min = text
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .replace(/\s+/g, ' ')
          .replace(/\s*([{};,>])\s*/g, '$1')
          .replace(/:\s+/g, ':')
          .replace(/;}/g, '}')
          .trim();
        return `css\`${min}\``;
      });
    },
  };
}

function browserBuild(name: string, file: string, emptyOutDir: boolean): BuildEnvironmentOptions {
  return {
    outDir: OUT_DIR,
    emptyOutDir,
    copyPublicDir: false,
    target: 'es2022',
    minify: 'oxc',
    sourcemap: false,
    // The notices of lit, qrcode and the rest, which the minified files do not carry.
    license: { fileName: `${name}.licenses.md` },
    lib: { entry: { [name]: file }, formats: ['es'], fileName: (_format, entryName) => `${entryName}.js` },
    rolldownOptions: {
      // Lets code shared with a lazy chunk (lit, the status poller) stay in the entry, which then
      // exports it to that chunk, instead of moving to a third file every page would load.
      preserveEntrySignatures: 'allow-extension',
      output: {
        // Library mode keeps ES output readable for other bundlers; these files go to browsers.
        minify: true,
        comments: false,
        chunkFileNames: (chunk) =>
          qrLibraryChunkName(chunk.moduleIds) ??
          (chunk.moduleIds.some((id) => id.includes('satang-qr-payment')) ? 'chunks/qr-payment-[hash].js' : 'chunks/[name]-[hash].js'),
      },
    },
  };
}

/**
 * The card form alone (satang-card.js, satang/card) keeps its templates prepared at run time: one
 * element with few templates gains little from preparing them at build time, and its download
 * budget is the tightest (12 KB).
 */
const CARD_ONLY_BUILDS = ['card', 'moduleCard'];

/** lit stays an import of the package in the module build: the page gets one lit, the merchant's. */
const MODULE_EXTERNALS = /^(lit|lit-html|lit-element|@lit\/reactive-element)($|\/)/;

/**
 * dist/module/: `import 'satang'`, `satang/checkout` and `satang/card` as a merchant's bundler
 * takes them in. Unminified ES modules (the bundler minifies) that import lit from the package.
 * Each entry file holds everything its first render needs, and its lazy chunks get what they
 * share with it from the entry when it runs (`linkLazyChunksThroughEntry`), so that no bundler
 * makes a shared chunk the entry would wait for. The QR libraries are CommonJS: they come built
 * in (as ES modules, in lazy chunks), since a bundler converting them would add its interop
 * helpers in a file every chunk imports, the entry included.
 *
 *   dist/module/satang.js                 + chunks/        (src/elements/index.ts)
 *   dist/module/checkout/satang-checkout.js + checkout/chunks/ (src/elements/checkout.ts)
 *   dist/module/card/satang-card.js       + card/chunks/   (src/elements/card.ts)
 */
function moduleBuild(name: string, file: string, dir: string): BuildEnvironmentOptions {
  return {
    outDir: dir,
    // The first of them empties dist/module; the others write into folders of it.
    emptyOutDir: dir === MODULE_OUT_DIR,
    copyPublicDir: false,
    target: 'es2022',
    minify: false,
    sourcemap: false,
    // The notices of qrcode, jsqr and dijkstrajs, which the chunks of satang and satang/checkout
    // carry (the card form's build carries no other package's code).
    license: name === 'satang-card' ? false : { fileName: `${name}.licenses.md` },
    lib: { entry: { [name]: file }, formats: ['es'], fileName: (_format, entryName) => `${entryName}.js` },
    rolldownOptions: {
      preserveEntrySignatures: 'allow-extension',
      external: MODULE_EXTERNALS,
      output: {
        chunkFileNames: (chunk) => qrLibraryChunkName(chunk.moduleIds) ?? 'chunks/[name]-[hash].js',
      },
    },
  };
}

const MODULE_OUT_DIR = 'dist/module';
const MODULE_BUILDS = ['module', 'moduleCheckout', 'moduleCard'];
const isModuleBuild = (environment: string) => MODULE_BUILDS.includes(environment);

/** `plugin` in the builds whose environment name `applies` accepts only. */
function onlyIn(applies: (environment: string) => boolean, plugin: Plugin): Plugin {
  return { ...plugin, applyToEnvironment: (environment) => applies(environment.name) };
}

export default defineConfig({
  plugins: [
    qrcodeFacade(),
    jsqrAsEsModule(),
    inlineEntryImports(),
    minifyCssTemplates(),
    onlyIn((environment) => !CARD_ONLY_BUILDS.includes(environment), prepareLitTemplates()),
    onlyIn((environment) => !isModuleBuild(environment), checkEntries()),
    // Only the module builds: their lazy chunks take what they share with the entry from the entry.
    onlyIn(isModuleBuild, linkLazyChunksThroughEntry()),
  ],
  environments: {
    client: { build: browserBuild('satang', 'src/elements/index.ts', true) },
    checkout: { consumer: 'client', build: browserBuild('satang-checkout', 'src/elements/checkout.ts', false) },
    card: { consumer: 'client', build: browserBuild('satang-card', 'src/elements/card.ts', false) },
    module: { consumer: 'client', build: moduleBuild('satang', 'src/elements/index.ts', MODULE_OUT_DIR) },
    moduleCheckout: { consumer: 'client', build: moduleBuild('satang-checkout', 'src/elements/checkout.ts', `${MODULE_OUT_DIR}/checkout`) },
    moduleCard: { consumer: 'client', build: moduleBuild('satang-card', 'src/elements/card.ts', `${MODULE_OUT_DIR}/card`) },
  },
  builder: {
    async buildApp(builder) {
      // One after the other: the first empties dist/browser, the others add to it.
      for (const name of ['client', 'checkout', 'card', ...MODULE_BUILDS]) {
        const environment = builder.environments[name];
        if (!environment) throw new Error(`no ${name} environment to build`);
        await builder.build(environment);
      }
      const outDir = join(builder.config.root, OUT_DIR);
      await checkChunksShippedOnce(outDir);
      await writeSri(outDir);
    },
  },
});
