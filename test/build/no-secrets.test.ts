import { join } from 'node:path';
import { build, type Rolldown } from 'vite';
import { beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/defaults.js';
import { buildCheckout, REPO_ROOT } from '../bench/sizes.js';

/**
 * No shipped file holds a secret: the browser files (built by vite.config.ts in memory, as the size
 * budget test does) and the code of the `satang`, `satang/core` and `satang/server` packages
 * (bundled here without tree-shaking, so an exported constant nobody imports still counts). The
 * sandbox package is left out: its keys are public on purpose (src/sandbox/defaults.ts).
 */

const BUILD_TIMEOUT_MS = 120_000;

interface BuiltFile {
  fileName: string;
  code: string;
}

/** A bundled file of the packages, with the modules it holds. */
interface PackageFile extends BuiltFile {
  modules: string[];
}

/** The secrets of the sandbox, in every form a careless build could carry them. */
const SECRETS: readonly [string, string][] = [
  ['the sandbox API key', SANDBOX_DEFAULTS.apiKey],
  ['the sandbox partner key', SANDBOX_DEFAULTS.partnerApiKey],
  ['the webhook key (base64)', SANDBOX_DEFAULTS.webhookKeyBase64],
  ['the webhook key (decoded)', Buffer.from(SANDBOX_DEFAULTS.webhookKeyBase64, 'base64').toString('latin1')],
  ['the API key as a ready Basic header', Buffer.from(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.apiKey}`).toString('base64')],
  ['the partner key as a ready Basic header', Buffer.from(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.partnerApiKey}`).toString('base64')],
];

/** A secret key as the service issues them: `sk_` and at least eight more key characters. */
const SECRET_KEY_SHAPE = /\bsk_[A-Za-z0-9_]{8,}/g;
/** A publishable key: it belongs in the page's attribute, not in a file. */
const PUBLISHABLE_KEY_SHAPE = /\bpk_[A-Za-z0-9_]{8,}/g;

/** What a secret does not leak as, but that code reading one looks like. */
function secretReadings(code: string): string[] {
  const found: string[] = [];
  for (const match of code.matchAll(/process\.env(?:\.\w+|\[[^\]]*\])?/g)) found.push(match[0]);
  for (const match of code.matchAll(/import\.meta\.env(?:\.\w+)?/g)) found.push(match[0]);
  return found;
}

function contextOf(code: string, index: number): string {
  return code.slice(Math.max(0, index - 60), index + 60);
}

function leaks(files: readonly BuiltFile[], needle: string): string[] {
  return files.filter((f) => f.code.includes(needle)).map((f) => `${f.fileName}: …${contextOf(f.code, f.code.indexOf(needle))}…`);
}

function shaped(files: readonly BuiltFile[], shape: RegExp): string[] {
  return files.flatMap((f) => [...f.code.matchAll(shape)].map((m) => `${f.fileName}: ${m[0]}`));
}

/**
 * The packages' code as `npm run build` ships it (src/elements, src/client, src/core, src/server),
 * in one in-memory bundle with every module kept whole. Dependencies stay outside.
 */
async function buildPackages(): Promise<PackageFile[]> {
  const output = await build({
    root: REPO_ROOT,
    configFile: false,
    mode: 'production',
    logLevel: 'error',
    publicDir: false,
    build: {
      write: false,
      target: 'es2022',
      minify: false,
      sourcemap: false,
      lib: {
        entry: {
          elements: join(REPO_ROOT, 'src/elements/index.ts'),
          core: join(REPO_ROOT, 'src/core/index.ts'),
          server: join(REPO_ROOT, 'src/server/index.ts'),
        },
        formats: ['es'],
        fileName: (_format, entryName) => `${entryName}.js`,
      },
      rolldownOptions: {
        treeshake: false,
        external: (id: string) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
      },
    },
  });
  const outputs = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
  return outputs.flatMap((o) => o.output.filter((item) => item.type === 'chunk').map((c) => ({ fileName: `package/${c.fileName}`, code: c.code, modules: Object.keys(c.modules) })));
}

describe('the built files', () => {
  let browser: BuiltFile[];
  let packages: PackageFile[];

  beforeAll(async () => {
    browser = (await buildCheckout()).files;
    packages = await buildPackages();
  }, BUILD_TIMEOUT_MS);

  it('are the browser entries with their lazy chunks, and the packages with every module of the server', () => {
    const names = browser.map((f) => f.fileName);
    expect(names).toEqual(expect.arrayContaining(['satang.js', 'satang-checkout.js', 'satang-card.js']));
    expect(names.some((n) => n.startsWith('chunks/qrcode-')) && names.some((n) => n.startsWith('chunks/qr-reader-'))).toBe(true);
    const modules = packages.flatMap((f) => f.modules);
    for (const file of ['src/server/checkout/create-checkout-handler.ts', 'src/server/service/transport.ts', 'src/core/webhook-signature.ts', 'src/client/card-tokens.ts']) {
      expect(modules.some((id) => id.endsWith(file)), `${file} is in the package build`).toBe(true);
    }
    // The sandbox is a package of its own: nothing the merchant ships pulls it in.
    expect(modules.filter((id) => id.includes('/src/sandbox/'))).toEqual([]);
  });

  it.each(SECRETS)('hold no copy of %s', (_what, secret) => {
    expect(leaks([...browser, ...packages], secret)).toEqual([]);
  });

  it('hold nothing shaped like a secret key', () => {
    expect(shaped([...browser, ...packages], SECRET_KEY_SHAPE)).toEqual([]);
  });

  it('read no environment variable in the browser files', () => {
    expect(browser.flatMap((f) => secretReadings(f.code).map((r) => `${f.fileName}: ${r}`))).toEqual([]);
  });

  it('take the publishable key from the page: none is written into a browser file', () => {
    expect(leaks(browser, SANDBOX_DEFAULTS.publishableKey)).toEqual([]);
    expect(shaped(browser, PUBLISHABLE_KEY_SHAPE)).toEqual([]);
  });

  it('build an Authorization: Basic header in the browser only from the publishable key', () => {
    // The card form's token call is the one place: merchant id and publishable key, to /client/v1.
    const sites = browser.flatMap((f) => [...f.code.matchAll(/Basic /g)].map((m) => ({ fileName: f.fileName, around: contextOf(f.code, m.index) })));
    expect(sites.length, 'the token call is in the browser files').toBeGreaterThan(0);
    for (const site of sites) expect(site.around, site.fileName).toMatch(/publishableKey/);
    for (const file of browser) expect(file.code, file.fileName).not.toMatch(/apiKey|api_key|secretKey|webhookKey|statusTokenSecret/);
  });
});
