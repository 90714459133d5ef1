import { defineConfig, type BuildEnvironmentOptions, type Plugin } from 'vite';

/**
 * The browser build of the elements, into dist/browser/:
 *
 *   satang.js           every element (src/elements/index.ts): the file a merchant's script tag loads
 *   satang-checkout.js  the checkout and its card form (src/elements/checkout.ts); the QR element
 *                       comes in chunks/qr-payment-*.js when PromptPay is chosen
 *   satang-card.js      the card form alone (src/elements/card.ts)
 *   chunks/qrcode-*.js  the QR renderer, fetched only when a QR code is shown
 *   chunks/jsqr-*.js    the QR reader for transfer slips, fetched only when a shopper picks a slip
 *                       on a browser without a native BarcodeDetector
 *
 * Each entry is built on its own so that it is one self-contained file (lit and the shared code
 * inside): a page that loads it makes one request until a QR is needed. Building both entries in
 * one graph would move their shared code into a common chunk, a second request on every page.
 *
 * `npm run build:browser` (vite build) builds both. The dev server (`vite`) serves the project
 * root as it is; none of this applies to it.
 */

const OUT_DIR = 'dist/browser';

/** Modules that must stay out of the entry files and load on demand. */
const LAZY_ONLY = /[\\/]node_modules[\\/](qrcode|dijkstrajs|jsqr)[\\/]/;
const isQrcodeChunk = (moduleIds: readonly string[]) => moduleIds.some((id) => /[\\/]node_modules[\\/]qrcode[\\/]/.test(id));
const isJsqrChunk = (moduleIds: readonly string[]) => moduleIds.some((id) => /[\\/]node_modules[\\/]jsqr[\\/]/.test(id));

const QRCODE_FACADE = '\0satang:qrcode';

/**
 * `qrcode` is CommonJS. Imported as it is, every `import('qrcode')` needs the bundler's CommonJS
 * interop helper at the call site, and that helper lands in a runtime chunk the entry imports
 * statically. Routing `qrcode` through this ES module keeps the interop inside the lazy chunk.
 * The facade has the same shape as `import('qrcode')` in the dev server: `default` and the named
 * functions of the browser build.
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
      return [
        "import QRCode from 'qrcode';",
        'export default QRCode;',
        'export const create = QRCode.create;',
        'export const toCanvas = QRCode.toCanvas;',
        'export const toDataURL = QRCode.toDataURL;',
        'export const toString = QRCode.toString;',
      ].join('\n');
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
          isQrcodeChunk(chunk.moduleIds)
            ? 'chunks/qrcode-[hash].js'
            : isJsqrChunk(chunk.moduleIds)
              ? 'chunks/jsqr-[hash].js'
              : chunk.moduleIds.some((id) => id.includes('satang-qr-payment'))
                ? 'chunks/qr-payment-[hash].js'
                : 'chunks/[name]-[hash].js',
      },
    },
  };
}

export default defineConfig({
  plugins: [qrcodeFacade(), jsqrAsEsModule(), minifyCssTemplates(), checkEntries()],
  environments: {
    client: { build: browserBuild('satang', 'src/elements/index.ts', true) },
    checkout: { consumer: 'client', build: browserBuild('satang-checkout', 'src/elements/checkout.ts', false) },
    card: { consumer: 'client', build: browserBuild('satang-card', 'src/elements/card.ts', false) },
  },
  builder: {
    async buildApp(builder) {
      // One after the other: the first empties dist/browser, the others add to it.
      for (const name of ['client', 'checkout', 'card']) {
        const environment = builder.environments[name];
        if (!environment) throw new Error(`no ${name} environment to build`);
        await builder.build(environment);
      }
    },
  },
});
