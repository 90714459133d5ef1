import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { minifyHTMLLiterals } from 'minify-literals';
import { defineConfig, type BuildEnvironmentOptions, type Plugin } from 'vite';

/**
 * The script-tag builds of the elements, into dist/browser/ (`npm run build:browser`):
 *
 *   satang.js           every element (src/elements/index.ts)
 *   satang-checkout.js  the checkout and its card form (src/elements/checkout.ts)
 *   satang-card.js      the card form alone (src/elements/card.ts)
 *   chunks/*.js         what each of them fetches with `import()` after its first render: the
 *                       payment code, the card form's rules, the QR element, the QR renderer
 *                       (the `qr` library's encoder) when a QR code is shown, its reader for a transfer slip
 *   sri.json            the Subresource Integrity hash (sha384) of every .js file above
 *
 * Each entry is built on its own, so that it is one file holding everything its first render needs
 * (lit included): a page's script tag makes one request before the first render. Its lazy chunks
 * import back from it. A chunk that two builds write alike has one name and is written once.
 *
 * A bundler does not take these: `import 'satang'`, `satang/checkout`, `satang/card`, `satang/react`
 * resolve to dist/elements/, TypeScript's output (tsconfig.build.json), one ES module per source
 * module, and the merchant's bundler splits them into chunks.
 *
 * The dev server (`vite`) serves the project root as it is; none of this applies to it.
 */

const OUT_DIR = 'dist/browser';

/** Modules that must stay out of the entry files and load on demand. */
const LAZY_ONLY = /[\\/]node_modules[\\/]qr[\\/]/;

/**
 * Fails the build when an entry file would need a second request before its first render, holds
 * a module meant to load on demand, or lost its element definitions (a side-effect import dropped
 * by tree-shaking, for instance).
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

/**
 * The elements' styles (Lit's `css` literals) minified by Lightning CSS, through minify-literals,
 * as the sources are read. Their HTML templates stay as written: there, whitespace can be text.
 */
function minifyStyles(): Plugin {
  return {
    name: 'satang:minify-styles',
    apply: 'build',
    transform: {
      filter: { id: /[\\/]src[\\/]elements[\\/]/, code: 'css`' },
      handler: (code, id) => minifyHTMLLiterals(code, { fileName: id, html: false }),
    },
  };
}

/** Lazy chunks named after what they hold, whatever module rolldown names them after. */
const CHUNK_NAMES: readonly (readonly [RegExp, string])[] = [
  [/[\\/]node_modules[\\/]qr[\\/]index\.js$/, 'qrcode'],
  [/[\\/]node_modules[\\/]qr[\\/]decode\.js$/, 'qr-reader'],
  [/[\\/]src[\\/]elements[\\/]satang-qr-payment[\\/]define\.ts$/, 'qr-payment'],
];
const chunkName = (moduleIds: readonly string[]) => CHUNK_NAMES.find(([pattern]) => moduleIds.some((id) => pattern.test(id)))?.[1] ?? '[name]';

/** The name of the file listing the Subresource Integrity hash of every script in dist/browser. */
const SRI_FILE = 'sri.json';

/** Writes dist/browser/sri.json: `{ "satang.js": "sha384-…", "chunks/qrcode-….js": "sha384-…", … }`. */
async function writeSri(dir: string): Promise<void> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const scripts = entries
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1).replaceAll('\\', '/'))
    .sort();
  const hashes: Record<string, string> = {};
  for (const file of scripts) hashes[file] = `sha384-${createHash('sha384').update(await readFile(join(dir, file))).digest('base64')}`;
  await writeFile(join(dir, SRI_FILE), `${JSON.stringify(hashes, null, 2)}\n`);
}

function browserBuild(name: string, file: string, emptyOutDir: boolean): BuildEnvironmentOptions {
  return {
    outDir: OUT_DIR,
    emptyOutDir,
    copyPublicDir: false,
    target: 'es2022',
    minify: 'oxc',
    sourcemap: false,
    // The notices of lit, qr and the rest, which the minified files do not carry.
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
        chunkFileNames: (chunk) => `chunks/${chunkName(chunk.moduleIds)}-[hash].js`,
      },
    },
  };
}

const BUILDS = {
  client: browserBuild('satang', 'src/elements/index.ts', true),
  checkout: browserBuild('satang-checkout', 'src/elements/checkout.ts', false),
  card: browserBuild('satang-card', 'src/elements/card.ts', false),
};

export default defineConfig({
  plugins: [minifyStyles(), checkEntries()],
  environments: {
    client: { build: BUILDS.client },
    checkout: { consumer: 'client', build: BUILDS.checkout },
    card: { consumer: 'client', build: BUILDS.card },
  },
  builder: {
    async buildApp(builder) {
      // One after the other: the first empties dist/browser, the others add to it.
      for (const name of Object.keys(BUILDS)) {
        const environment = builder.environments[name];
        if (!environment) throw new Error(`no ${name} environment to build`);
        await builder.build(environment);
      }
      await writeSri(join(builder.config.root, OUT_DIR));
    },
  },
});
